//! The shape of the text format (games/bottlebats/rules.md §2): headers, sections and the lines the
//! format skips. Bot replies use the same headers (the runner cuts them with the game
//! interface's `Cutter`, whose [`parse_header`] and [`is_ignored`] these are); map
//! files are split here into their three
//! sections of lines with the right number of fields, every error naming its line.

use super::{err, MapError};

/// A section header (`COUNT WORD:` or `? WORD:`), the lines the format skips, and how
/// a header is read: the game interface's, which bot replies are cut by too.
pub use game_interface::{is_ignored, parse_header, Count};

/// One section of a file: its entries with their line numbers.
pub(super) struct Section<'a> {
    pub(super) entries: Vec<(usize, Vec<&'a str>)>,
}

/// A header as read: its line, its count and the section it opens.
struct Header {
    line: usize,
    count: Count,
    what: &'static str,
}

/// Reads the non-ignored lines of `text` section by section.
pub(super) struct Sections<'a> {
    lines: std::iter::Peekable<Box<dyn Iterator<Item = (usize, &'a str)> + 'a>>,
    last_line: usize,
    /// The previous section's header line, count and name, to explain a count that
    /// is too small (its extra lines then stand where the next header should be).
    previous: Option<(usize, usize, &'static str)>,
    /// False until a header was read: running out of lines then means an empty map.
    started: bool,
}

impl<'a> Sections<'a> {
    pub(super) fn new(text: &'a str) -> Self {
        let it: Box<dyn Iterator<Item = (usize, &'a str)> + 'a> = Box::new(
            text.lines()
                .enumerate()
                .map(|(i, l)| (i + 1, l))
                .filter(|(_, l)| !is_ignored(l)),
        );
        Sections {
            lines: it.peekable(),
            last_line: text.lines().count(),
            previous: None,
            started: false,
        }
    }

    /// The next section, `what`, whose lines must have `fields` fields; `shape` shows
    /// such a line in messages.
    pub(super) fn section(
        &mut self,
        what: &'static str,
        fields: usize,
        shape: &str,
    ) -> Result<Section<'a>, MapError> {
        let header = self.header(what)?;
        let mut entries = Vec::new();
        while header.count != Count::Exactly(entries.len()) {
            let Some((lno, line)) = self.lines.next() else {
                return err(self.last_line, header.ended_after(entries.len()));
            };
            let parts: Vec<&str> = line.split_whitespace().collect();
            if header.count == Count::UntilEnd && parts == ["end"] {
                break;
            }
            // The next section's header where an entry should be: a count that is too
            // large or a missing `end` (a road line has two fields, like a header).
            if parse_header(line).is_some() && parts[1].ends_with(':') {
                return err(lno, header.too_early(line, entries.len()));
            }
            if parts.len() != fields {
                return err(
                    lno,
                    header.wrong_fields(shape, fields, &parts, entries.len()),
                );
            }
            entries.push((lno, parts));
        }
        self.previous = match header.count {
            Count::Exactly(n) => Some((header.line, n, what)),
            Count::UntilEnd => None,
        };
        Ok(Section { entries })
    }

    /// Reads the header of the section `what`, or explains why there is none.
    fn header(&mut self, what: &'static str) -> Result<Header, MapError> {
        let Some((hline, header)) = self.lines.next() else {
            if !self.started {
                return err(
                    self.last_line,
                    "the map is empty (no lines but blank ones and comments); it starts with a header like `3 forts:`",
                );
            }
            return err(
                self.last_line,
                format!("the file ends where the {what} section should start (expected a header like `3 {what}:`)"),
            );
        };
        self.started = true;
        match parse_header(header) {
            Some(count) => Ok(Header {
                line: hline,
                count,
                what,
            }),
            None => err(hline, self.not_a_header(what, header)),
        }
    }

    /// Why `found` is not the header of the section `what`: perhaps it is one more line
    /// of the previous section.
    fn not_a_header(&self, what: &str, found: &str) -> String {
        let hint = match self.previous {
            Some((pline, n, pwhat)) => format!(
                " (if this is one more of the {pwhat}, the header on line {pline} promised only {n})"
            ),
            None => String::new(),
        };
        format!(
            "expected the {what} header `COUNT {what}:` (or `? {what}:`), found `{}`{hint}",
            found.trim()
        )
    }

    /// Checks that nothing follows the marches section.
    pub(super) fn finish(mut self) -> Result<(), MapError> {
        match self.lines.next() {
            None => Ok(()),
            Some((lno, line)) => {
                let hint = match self.previous {
                    Some((pline, n, pwhat)) => {
                        format!("the header on line {pline} promised only {n} {pwhat}")
                    }
                    None => "do the section counts match the lines?".to_string(),
                };
                err(
                    lno,
                    format!(
                        "unexpected line `{}` after the marches section ({hint})",
                        line.trim()
                    ),
                )
            }
        }
    }
}

impl Header {
    /// The file ended after `got` entries of this section.
    fn ended_after(&self, got: usize) -> String {
        let (hline, what) = (self.line, self.what);
        match self.count {
            Count::Exactly(n) => {
                format!(
                    "the header on line {hline} promised {n} {what} but the file ends after {got}"
                )
            }
            Count::UntilEnd => format!("the {what} section has no closing `end` line"),
        }
    }

    /// The header `line` of the next section came after only `got` entries of this one.
    fn too_early(&self, line: &str, got: usize) -> String {
        let (hline, what) = (self.line, self.what);
        let why = match self.count {
            Count::Exactly(n) => {
                format!(
                    "the header on line {hline} promised {n} {what} but only {got} came before it"
                )
            }
            Count::UntilEnd => {
                format!("the {what} section opened on line {hline} needs an `end` line before it")
            }
        };
        format!("found the header `{}` too early: {why}", line.trim())
    }

    /// Entry `got + 1` has the fields `parts` where a line `shape` has `fields`.
    fn wrong_fields(&self, shape: &str, fields: usize, parts: &[&str], got: usize) -> String {
        let (hline, what) = (self.line, self.what);
        let hint = match self.count {
            Count::Exactly(n) => format!(
                " (the header on line {hline} promised {n} {what}; this is entry {})",
                got + 1
            ),
            Count::UntilEnd => String::new(),
        };
        format!(
            "expected a line `{shape}` ({fields} fields), found {} fields{hint}",
            parts.len()
        )
    }
}
