//! The states records go through, as the schema's CHECK constraints list them: one
//! enum each, so that no code compares strings.

use serde::{Deserialize, Serialize};

/// Where an uploaded version is: pending → building → testing → active (until a newer
/// one is active: retired), or failed; a candidate that passes is ready until its owner
/// makes it active.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, sqlx::Type)]
#[serde(rename_all = "lowercase")]
#[sqlx(type_name = "text", rename_all = "lowercase")]
pub enum VersionStatus {
    Pending,
    Building,
    Testing,
    Active,
    Failed,
    Retired,
    /// A candidate that passed: it waits for its owner to make it active.
    Ready,
    /// Held off the ladder after crashing or timing out in its ranked games
    /// (`crate::crash_guard`): its previous version plays again.
    Held,
}

impl VersionStatus {
    /// Pending, building or testing: not yet known to work or not.
    pub fn on_its_way(self) -> bool {
        matches!(self, Self::Pending | Self::Building | Self::Testing)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Building => "building",
            Self::Testing => "testing",
            Self::Active => "active",
            Self::Failed => "failed",
            Self::Retired => "retired",
            Self::Ready => "ready",
            Self::Held => "held",
        }
    }
}

impl std::fmt::Display for VersionStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a match is: queued → running → finished, or void (never counts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, sqlx::Type)]
#[serde(rename_all = "lowercase")]
#[sqlx(type_name = "text", rename_all = "lowercase")]
pub enum MatchStatus {
    Queued,
    Running,
    Finished,
    Void,
}

impl MatchStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Queued => "queued",
            Self::Running => "running",
            Self::Finished => "finished",
            Self::Void => "void",
        }
    }
}

impl std::fmt::Display for MatchStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a finished match went for one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, sqlx::Type)]
#[serde(rename_all = "lowercase")]
#[sqlx(type_name = "text", rename_all = "lowercase")]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Win => "win",
            Self::Draw => "draw",
            Self::Loss => "loss",
        }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
