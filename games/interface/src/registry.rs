//! The games a server hosts, by name.

use std::fmt;

use crate::game::GameKind;

/// The games a server hosts: each [`GameKind`] under its [`GameKind::name`], and one
/// of them the default (the game of rows stored before there was a choice).
pub struct Registry {
    kinds: Vec<Box<dyn GameKind>>,
}

/// A second game registered under a name already taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DuplicateName(pub &'static str);

impl fmt::Display for DuplicateName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "two games are called `{}`", self.0)
    }
}

impl std::error::Error for DuplicateName {}

impl Registry {
    /// A registry of one game, the default.
    pub fn new(default: Box<dyn GameKind>) -> Registry {
        Registry {
            kinds: vec![default],
        }
    }

    /// Adds a game, unless its name is taken.
    pub fn add(&mut self, kind: Box<dyn GameKind>) -> Result<(), DuplicateName> {
        let name = kind.name();
        if self.get(name).is_some() {
            return Err(DuplicateName(name));
        }
        self.kinds.push(kind);
        Ok(())
    }

    /// The game called `name`.
    pub fn get(&self, name: &str) -> Option<&dyn GameKind> {
        self.kinds
            .iter()
            .find(|k| k.name() == name)
            .map(|k| k.as_ref())
    }

    /// The default game.
    pub fn default_kind(&self) -> &dyn GameKind {
        self.kinds[0].as_ref()
    }

    /// The default game's name.
    pub fn default_name(&self) -> &'static str {
        self.kinds[0].name()
    }

    /// Every game's name, the default first, then in the order added.
    pub fn names(&self) -> Vec<&'static str> {
        self.kinds.iter().map(|k| k.name()).collect()
    }
}
