//! A whole table as RON: save, restore, and a hash to compare tables by.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{ActionLog, Announcements, Deadlines, Game, TableConfig, TableRng};
use crate::game_id::GameId;

/// Bumped whenever the snapshot layout changes. 2: Crueler World's state
/// is its seats' components and its resources (issue 16). A snapshot of
/// an older format is restored by replaying its seed and log
/// ([`super::Table::from_saved`]).
pub const SNAPSHOT_FORMAT: u32 = 2;

#[derive(Serialize, Deserialize)]
#[serde(bound = "")]
pub struct TableSnapshot<G: Game> {
    pub format: u32,
    pub game: GameId,
    pub config: TableConfig<G>,
    pub clock_ms: u64,
    pub rng: TableRng,
    pub phase: G::Phase,
    pub deadlines: Deadlines<G::Timer>,
    pub log: ActionLog<G::Action>,
    pub announcements: Announcements,
    pub state: G::State,
}

impl<G: Game> Clone for TableSnapshot<G> {
    fn clone(&self) -> Self {
        Self {
            format: self.format,
            game: self.game,
            config: self.config.clone(),
            clock_ms: self.clock_ms,
            rng: self.rng.clone(),
            phase: self.phase,
            deadlines: self.deadlines.clone(),
            log: self.log.clone(),
            announcements: self.announcements.clone(),
            state: self.state.clone(),
        }
    }
}

impl<G: Game> std::fmt::Debug for TableSnapshot<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TableSnapshot")
            .field("game", &self.game)
            .field("clock_ms", &self.clock_ms)
            .field("phase", &self.phase)
            .finish_non_exhaustive()
    }
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SnapshotError {
    #[error("not a readable table snapshot: {0}")]
    Parse(String),
    #[error("snapshot format {found} is not supported (this build reads format {expected})")]
    Format { found: u32, expected: u32 },
    #[error("snapshot is of game '{found}', expected '{expected}'")]
    WrongGame { found: GameId, expected: GameId },
    #[error("snapshot is inconsistent: {0}")]
    Inconsistent(String),
}

impl<G: Game> TableSnapshot<G> {
    /// The canonical text of the snapshot (compact RON).
    pub fn to_ron(&self) -> String {
        ron::to_string(self).expect("table snapshots always serialize")
    }

    pub fn to_ron_pretty(&self) -> String {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .expect("table snapshots always serialize")
    }

    /// Reads a snapshot, refusing text that is not a snapshot of this game
    /// in this format.
    pub fn from_ron(text: &str) -> Result<Self, SnapshotError> {
        #[derive(Deserialize)]
        struct Header {
            format: u32,
            game: GameId,
        }
        let header: Header =
            ron::from_str(text).map_err(|e| SnapshotError::Parse(e.to_string()))?;
        if header.format != SNAPSHOT_FORMAT {
            return Err(SnapshotError::Format {
                found: header.format,
                expected: SNAPSHOT_FORMAT,
            });
        }
        if header.game != G::ID {
            return Err(SnapshotError::WrongGame {
                found: header.game,
                expected: G::ID,
            });
        }
        let snapshot: Self =
            ron::from_str(text).map_err(|e| SnapshotError::Parse(e.to_string()))?;
        let seats = snapshot.config.seats.count();
        if !G::ID.seats().contains(&seats) {
            return Err(SnapshotError::Inconsistent(format!(
                "{seats} seats, {} takes {:?}",
                G::ID,
                G::ID.seats()
            )));
        }
        Ok(snapshot)
    }

    /// SHA-256 of the canonical text, as hex: equal hashes, equal tables.
    pub fn hash(&self) -> String {
        let digest = Sha256::digest(self.to_ron().as_bytes());
        digest.iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// What every snapshot format keeps the same: the game, the config, the
/// clock and the log. Enough to play an old snapshot's game again.
#[derive(Deserialize)]
#[serde(bound = "")]
pub(crate) struct Replayable<G: Game> {
    pub format: u32,
    pub game: GameId,
    pub config: TableConfig<G>,
    pub clock_ms: u64,
    pub log: ActionLog<G::Action>,
}
