//! The languages bots are written in, as data: `languages.toml` (built in; organizers
//! may give their own). Each says how an upload is recognised, built and run; only
//! languages whose toolchain is installed are offered.

use std::path::Path;

use anyhow::{bail, Context};
use serde::Deserialize;

/// The built-in table.
pub const DEFAULT_TOML: &str = include_str!("../../languages.toml");

/// The folders the sandbox's PATH holds, where toolchains are looked for.
const SANDBOX_PATH: &[&str] = &["/usr/local/bin", "/usr/bin", "/bin"];

/// The key of contestant-given commands.
pub const CUSTOM: &str = "custom";

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Language {
    /// Shown to contestants.
    pub name: String,
    /// Files that mark an archive as this language, in order of preference.
    pub entries: Vec<String>,
    /// Extensions of a single uploaded source file.
    #[serde(default)]
    pub extensions: Vec<String>,
    /// Programs that must be installed.
    #[serde(default)]
    pub requires: Vec<String>,
    /// Build command, run in the bot's folder in the sandbox's build mode.
    pub compile: Option<String>,
    /// Run command; the player name is appended.
    pub run: String,
    /// Host folders beyond the system's (`/usr`, `/lib`, ...) that its bots need to
    /// read, e.g. a JDK in `/opt`: bound read-only into every bot's sandbox when the
    /// language is offered. Nothing else of the host is visible to bots.
    #[serde(default)]
    pub host_folders: Vec<std::path::PathBuf>,
}

/// One language of the table, with whether its toolchain is here.
#[derive(Clone, Debug)]
pub struct Entry {
    pub key: String,
    pub language: Language,
    pub available: bool,
    /// The first missing program, when not available.
    pub missing: Option<String>,
}

#[derive(Clone, Debug)]
pub struct Languages {
    pub list: Vec<Entry>,
}

/// How to build and run one version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recipe {
    pub compile: Option<String>,
    pub run: String,
}

fn installed(program: &str) -> bool {
    if program.starts_with('/') {
        return Path::new(program).is_file();
    }
    SANDBOX_PATH
        .iter()
        .any(|d| Path::new(d).join(program).is_file())
}

impl Languages {
    /// The host folders the offered languages ask for, for the sandbox.
    pub fn host_folders(&self) -> Vec<std::path::PathBuf> {
        let mut all: Vec<_> = self
            .list
            .iter()
            .filter(|e| e.available)
            .flat_map(|e| e.language.host_folders.iter().cloned())
            .collect();
        all.sort();
        all.dedup();
        all
    }

    /// Parses a table and checks which toolchains are installed.
    pub fn parse(text: &str) -> anyhow::Result<Languages> {
        let table: toml::Table =
            toml::from_str(text).context("the languages table is not valid TOML")?;
        let mut list = Vec::new();
        for (key, value) in table {
            if key == CUSTOM {
                bail!("`custom` is reserved for contestant-given commands");
            }
            let language: Language = value
                .try_into()
                .with_context(|| format!("language `{key}` in the languages table"))?;
            if language.entries.is_empty() {
                bail!("language `{key}` has no entry files");
            }
            let missing = language.requires.iter().find(|p| !installed(p)).cloned();
            list.push(Entry {
                key,
                available: missing.is_none(),
                missing,
                language,
            });
        }
        Ok(Languages { list })
    }

    /// The table of `path`, or the built-in one.
    pub fn load(path: Option<&Path>) -> anyhow::Result<Languages> {
        match path {
            Some(p) => {
                let text = std::fs::read_to_string(p)
                    .with_context(|| format!("cannot read the languages table {}", p.display()))?;
                Languages::parse(&text).with_context(|| p.display().to_string())
            }
            None => Languages::parse(DEFAULT_TOML),
        }
    }

    /// The languages of the table this server cannot build, each with what an
    /// organizer would install for it: ("Rust", "rustc").
    pub fn missing(&self) -> Vec<(String, String)> {
        self.list
            .iter()
            .filter(|e| !e.available)
            .map(|e| {
                (
                    e.language.name.clone(),
                    e.missing.clone().unwrap_or_default(),
                )
            })
            .collect()
    }

    /// The names of the languages offered, for a sentence: "Python, C and Java".
    pub fn names(&self) -> String {
        let names: Vec<&str> = self.available().map(|e| e.language.name.as_str()).collect();
        match names.split_last() {
            None => String::new(),
            Some((last, [])) => last.to_string(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        }
    }

    /// Languages offered to contestants.
    pub fn available(&self) -> impl Iterator<Item = &Entry> {
        self.list.iter().filter(|e| e.available)
    }

    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.list.iter().find(|e| e.key == key)
    }

    /// The language and entry file of an unpacked upload: `chosen` if given, else the
    /// first available language whose entry file is in `dir`.
    pub fn detect(&self, dir: &Path, chosen: Option<&str>) -> Result<(String, String), String> {
        let candidates: Vec<&Entry> = match chosen {
            Some(key) => match self.get(key) {
                Some(e) if e.available => vec![e],
                Some(e) => {
                    return Err(format!(
                        "{} cannot be built here: `{}` is not installed",
                        e.language.name,
                        e.missing.as_deref().unwrap_or("?")
                    ))
                }
                None => return Err(format!("there is no language `{key}`")),
            },
            None => self.available().collect(),
        };
        for e in &candidates {
            if let Some(entry) = e.language.entries.iter().find(|f| dir.join(f).is_file()) {
                return Ok((e.key.clone(), entry.clone()));
            }
        }
        let names: Vec<String> = candidates
            .iter()
            .flat_map(|e| e.language.entries.iter().map(|f| format!("`{f}`")))
            .collect();
        Err(format!(
            "no entry file found: the upload must hold one of {} at its top level, or choose \"custom\" and give the commands",
            names.join(", ")
        ))
    }

    /// The language of a single uploaded source file, from its extension.
    pub fn by_extension(&self, file_name: &str) -> Option<&Entry> {
        let ext = file_name.rsplit_once('.')?.1.to_ascii_lowercase();
        self.available()
            .find(|e| e.language.extensions.contains(&ext))
    }

    /// The commands of a version.
    pub fn recipe(
        &self,
        key: &str,
        entry: &str,
        custom: (Option<&str>, Option<&str>),
    ) -> Option<Recipe> {
        if key == CUSTOM {
            return Some(Recipe {
                compile: custom
                    .0
                    .filter(|c| !c.trim().is_empty())
                    .map(str::to_string),
                run: custom.1?.to_string(),
            });
        }
        let l = &self.get(key)?.language;
        let stem = Path::new(entry)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or(entry);
        let fill = |c: &str| c.replace("{entry}", entry).replace("{stem}", stem);
        Some(Recipe {
            compile: l.compile.as_deref().map(fill),
            run: fill(&l.run),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_table_parses_and_knows_the_usual_languages() {
        let l = Languages::parse(DEFAULT_TOML).unwrap();
        let keys: Vec<&str> = l.list.iter().map(|e| e.key.as_str()).collect();
        for k in ["python", "c", "cpp", "rust", "java", "javascript", "shell"] {
            assert!(keys.contains(&k), "{k}");
        }
        assert!(l.get("shell").unwrap().available, "sh is always there");
        let r = l.recipe("java", "Bot.java", (None, None)).unwrap();
        assert_eq!(r.run, "java -Xss64m -cp . Bot");
        assert_eq!(
            l.recipe(CUSTOM, "", (Some(" "), Some("./run.sh"))).unwrap(),
            Recipe {
                compile: None,
                run: "./run.sh".into()
            }
        );
    }

    #[test]
    fn a_table_with_mistakes_is_refused_with_the_reason() {
        let cases = [
            ("[x]\nname = 1", "language `x`"),
            (
                "[x]\nname = \"X\"\nentries = []\nrun = \"x\"",
                "no entry files",
            ),
            (
                "[custom]\nname = \"C\"\nentries = [\"a\"]\nrun = \"x\"",
                "reserved",
            ),
            (
                "[x]\nname = \"X\"\nentries = [\"a\"]\nrun = \"x\"\nbuild = \"y\"",
                "unknown field",
            ),
        ];
        for (text, why) in cases {
            let e = format!("{:#}", Languages::parse(text).unwrap_err());
            assert!(e.contains(why), "{text}: {e}");
        }
    }
}
