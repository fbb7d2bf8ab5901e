//! How a seat's reply is cut from its standard output: the [`Framing`] a game
//! declares, the header of a counted reply ([`parse_header`], the same reading as the
//! Bottle Bats engine's), and [`Cutter`], which turns output lines into replies one
//! line at a time (pure: the runner reads the pipe and feeds it lines).

/// How a game's replies are framed on a bot's standard output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framing {
    /// Every output line is one reply of one line, as written (blank ones too):
    /// Vindinium's `North`, `Stay`, ….
    Line,
    /// A header `N WORD:` followed by N lines, or `? WORD:` followed by lines up to
    /// one reading `end`; blank and `#` lines are skipped everywhere: Bottle Bats'
    /// `2 commands:`.
    Counted,
}

/// The count a header promises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// Exactly this many lines follow.
    Exactly(usize),
    /// Lines follow up to one reading `end`.
    UntilEnd,
}

/// Parses a header line into its count: two fields separated by spaces or tabs, the
/// first a non-negative integer or `?`. `None` for anything else. The second field is
/// not checked (`3 commands:` and `3 forts:` read alike).
pub fn parse_header(line: &str) -> Option<Count> {
    let mut fields = line.split_whitespace();
    let (count, _word) = (fields.next()?, fields.next()?);
    if fields.next().is_some() {
        return None;
    }
    if count == "?" {
        Some(Count::UntilEnd)
    } else {
        count.parse::<usize>().ok().map(Count::Exactly)
    }
}

/// True for the lines a counted reply skips: blank ones and `#` comments.
pub fn is_ignored(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with('#')
}

/// Cuts output lines into replies for one seat, within a cap on lines per reply.
/// Errors are fatal to the seat and say why in words (the runner passes them on as
/// [`crate::Answer::Crashed`]).
#[derive(Clone, Debug)]
pub struct Cutter {
    framing: Framing,
    max_lines: usize,
    /// The open reply of a counted framing: its count and the lines so far.
    open: Option<(Count, Vec<String>)>,
}

impl Cutter {
    /// A cutter for `framing`, allowing at most `max_lines` lines in one reply.
    pub fn new(framing: Framing, max_lines: usize) -> Cutter {
        Cutter {
            framing,
            max_lines,
            open: None,
        }
    }

    /// Takes one output line (without its line end): a whole reply when this line
    /// completes one, `Ok(None)` while more lines are needed.
    pub fn push(&mut self, line: &str) -> Result<Option<Vec<String>>, String> {
        if self.framing == Framing::Line {
            return Ok(Some(vec![line.to_string()]));
        }
        if is_ignored(line) {
            return Ok(None);
        }
        let Some((count, mut lines)) = self.open.take() else {
            return match self.header(line)? {
                Count::Exactly(0) => Ok(Some(Vec::new())),
                count => {
                    self.open = Some((count, Vec::new()));
                    Ok(None)
                }
            };
        };
        if count == Count::UntilEnd && line.trim() == "end" {
            return Ok(Some(lines));
        }
        if lines.len() == self.max_lines {
            return Err(format!(
                "sent more than {} command lines in one reply",
                self.max_lines
            ));
        }
        lines.push(line.to_string());
        if count == Count::Exactly(lines.len()) {
            return Ok(Some(lines));
        }
        self.open = Some((count, lines));
        Ok(None)
    }

    /// The count `line` promises as a header, within the cap.
    fn header(&self, line: &str) -> Result<Count, String> {
        match parse_header(line) {
            Some(Count::Exactly(n)) if n > self.max_lines => Err(format!(
                "promised {n} command lines; at most {} are allowed",
                self.max_lines
            )),
            Some(count) => Ok(count),
            None => Err(format!(
                "invalid reply header `{}`: expected `COUNT WORD:` or `? WORD:`",
                shorten(line)
            )),
        }
    }

    /// What it means that the output ends now: `None` between replies (the bot simply
    /// stopped), else the error of a reply cut short.
    pub fn end(&self) -> Option<String> {
        let (count, lines) = self.open.as_ref()?;
        let got = lines.len();
        Some(match count {
            Count::Exactly(n) => {
                format!("output ended after {got} of the {n} command lines its header promised")
            }
            Count::UntilEnd => format!("output ended after {got} command lines without `end`"),
        })
    }
}

/// A line cut to 80 characters for a message, trimmed, with `…` where it was cut.
fn shorten(s: &str) -> String {
    let s = s.trim();
    match s.char_indices().nth(80) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}
