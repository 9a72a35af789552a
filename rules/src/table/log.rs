//! The ordered log of everything accepted at a table. A snapshot carries the
//! log, and replaying a log from the same seed gives the same snapshot.

use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

use super::SeatId;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LogEntry<A> {
    /// A seat's action, accepted at `at_ms`.
    Act { at_ms: u64, seat: SeatId, action: A },
    /// The referee applied a default when a deadline passed. Replays do not
    /// feed these back: moving the clock makes them happen again.
    Auto { at_ms: u64, what: String },
}

#[derive(Resource, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionLog<A> {
    pub entries: Vec<LogEntry<A>>,
}

impl<A> Default for ActionLog<A> {
    fn default() -> Self {
        Self {
            entries: Vec::new(),
        }
    }
}

impl<A> ActionLog<A> {
    /// Number of accepted seat actions.
    pub fn actions(&self) -> usize {
        self.entries
            .iter()
            .filter(|e| matches!(e, LogEntry::Act { .. }))
            .count()
    }
}
