//! Replays: a table's game again, step by step, as one viewer saw it.
//!
//! A replay is rebuilt from the table's seed and action log (the table's
//! snapshot): the table is dealt again and every logged move is played
//! again at its time, deadlines falling as they fell. After each change
//! the viewer's view is kept: a seat's own view (what that seat was sent
//! during play, and nothing more), or, for the host seat and for a
//! finished table opened to everyone, the host seat's view. With the
//! views come the log as the viewer heard it: every public announcement
//! and the viewer's own private notes (a seat's; everyone's for
//! everything). Only a replay of everything also carries the table's
//! record, its seed and action log (`record`), from which every moment can
//! be rebuilt. A replay is plain data (`Replay`), written and read as
//! versioned RON and checked when read, so it can be exported, shared and
//! opened offline.

use foodweb_rules::GameId;
use foodweb_rules::table::{Announcement, PrivateNote, SeatId, SeatName};
use serde::{Deserialize, Serialize};

use crate::any::AnyView;

/// The replay file's format: bumped whenever `Replay` changes shape.
pub const REPLAY_FORMAT: u32 = 2;

/// Whose eyes a replay shows the game through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Viewer {
    /// One seat: its own view at every step, as it was sent.
    Seat(SeatId),
    /// Everything (the host seat's view).
    Everything,
}

/// One moment of a replay.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplayStep {
    /// The table's revision after the change (as the hall numbers them:
    /// log entries, announcements and notes so far).
    pub revision: u64,
    /// Table time of the change.
    pub at_ms: u64,
    pub view: AnyView,
    /// In a replay of everything, every seat's view (what the host seat
    /// is sent besides its own); empty in a seat's replay.
    #[serde(default)]
    pub seats: Vec<AnyView>,
    /// Public announcements made by then.
    pub public: u32,
    /// The viewer's private notes by then (the host's: everyone's).
    pub notes: u32,
}

/// Views a `ReplayPart` carries at most (steps of a seat's replay; fewer
/// steps of everything, which hold every seat's view): messages stay small
/// on any link.
pub const REPLAY_PART_STEPS: usize = 32;

/// A game as one viewer saw it, step by step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    pub format: u32,
    pub game: GameId,
    pub viewer: Viewer,
    pub names: Vec<SeatName>,
    /// Whether the game had ended.
    pub finished: bool,
    pub steps: Vec<ReplayStep>,
    /// Every public announcement, of which a step shows the first
    /// `ReplayStep::public`.
    pub public: Vec<Announcement>,
    /// The viewer's private notes (a seat's own; everyone's for
    /// everything), of which a step shows the first `ReplayStep::notes`.
    pub notes: Vec<PrivateNote>,
    /// The table's record (its `TableSnapshot` RON: seed, settings and
    /// action log), in a replay of everything only.
    pub record: Option<String>,
}

/// What a replay says once, before its steps: sent with the first part.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplayHead {
    pub names: Vec<SeatName>,
    pub public: Vec<Announcement>,
    pub notes: Vec<PrivateNote>,
    pub record: Option<String>,
}

/// Why a replay file cannot be opened.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ReplayError {
    #[error("not a replay file: {0}")]
    Parse(String),
    #[error("replay format {0} is not one this build reads (it reads {REPLAY_FORMAT})")]
    Format(u32),
    #[error("the replay has no steps")]
    Empty,
    #[error("step {0} is of another game than the replay's")]
    OtherGame(usize),
    #[error("step {0} does not come after the one before it")]
    Order(usize),
    #[error("step {0} shows another seat's view than the replay's viewer")]
    OtherSeat(usize),
    #[error("private note {0} is another seat's")]
    OtherNote(usize),
    #[error("a seat's replay may not carry the table's record")]
    RecordInSeatReplay,
    #[error("the table's record does not give the replay's steps")]
    RecordMismatch,
    #[error("the table's game could not be played again: {0}")]
    Table(String),
}

impl Replay {
    pub fn to_ron(&self) -> String {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .expect("a replay serialises")
    }

    /// A replay with no steps yet, from what its first part says.
    pub fn from_head(game: GameId, viewer: Viewer, finished: bool, head: ReplayHead) -> Self {
        Self {
            format: REPLAY_FORMAT,
            game,
            viewer,
            names: head.names,
            finished,
            steps: Vec::new(),
            public: head.public,
            notes: head.notes,
            record: head.record,
        }
    }

    /// What is said once, before the steps (`ReplayPart::head`).
    pub fn head(&self) -> ReplayHead {
        ReplayHead {
            names: self.names.clone(),
            public: self.public.clone(),
            notes: self.notes.clone(),
            record: self.record.clone(),
        }
    }

    /// The log as it stood at step `k`: the announcements and notes made
    /// by then.
    pub fn said_at(&self, k: usize) -> (&[Announcement], &[PrivateNote]) {
        let Some(step) = self.steps.get(k) else {
            return (&[], &[]);
        };
        (
            &self.public[..(step.public as usize).min(self.public.len())],
            &self.notes[..(step.notes as usize).min(self.notes.len())],
        )
    }

    /// Steps a `ReplayPart` of this replay carries: `REPLAY_PART_STEPS`
    /// views' worth (a step of everything holds one view per seat and the
    /// host's).
    pub fn part_steps(&self) -> usize {
        let views = 1 + self.steps.first().map_or(0, |s| s.seats.len());
        (REPLAY_PART_STEPS / views).max(1)
    }

    /// The step showing the table at `revision` (the last change at or
    /// before it).
    pub fn at_revision(&self, revision: u64) -> Option<&ReplayStep> {
        self.steps.iter().rev().find(|s| s.revision <= revision)
    }
}
