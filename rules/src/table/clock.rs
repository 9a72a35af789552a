//! Table time and phase deadlines.
//!
//! Time at a table is a number of milliseconds that only moves when the
//! driver says so ([`crate::table::Table::advance_to`]): the desktop client
//! moves it with the wall clock, tests and scenarios move it by hand. A
//! deadline that falls due fires at exactly its own time, whatever step the
//! clock took, so a replay gives the same game however its clock was driven.

use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

/// Milliseconds since the table opened.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableClock {
    pub now_ms: u64,
}

/// One pending deadline: when it falls due, the game's default for `timer`
/// happens (a random card played, a turn passed, a round ended).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deadline<T> {
    pub at_ms: u64,
    pub timer: T,
}

/// Every deadline the game has set, each at most once per kind of timer.
#[derive(Resource, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deadlines<T> {
    pub pending: Vec<Deadline<T>>,
}

impl<T> Default for Deadlines<T> {
    fn default() -> Self {
        Self {
            pending: Vec::new(),
        }
    }
}

impl<T: PartialEq + Clone> Deadlines<T> {
    /// Keeps only the clock that should run now (`timer` with its
    /// seconds): set from `now_ms` if it is new; any other dropped.
    pub fn run_only(&mut self, timer: Option<(T, u32)>, now_ms: u64) {
        match timer {
            Some((timer, secs)) => {
                self.pending.retain(|d| d.timer == timer);
                if self.get(&timer).is_none() {
                    self.set(timer, now_ms + u64::from(secs) * 1000);
                }
            }
            None => self.pending.clear(),
        }
    }

    /// Sets (or moves) the deadline for `timer`.
    pub fn set(&mut self, timer: T, at_ms: u64) {
        self.cancel(&timer);
        self.pending.push(Deadline { at_ms, timer });
    }

    pub fn cancel(&mut self, timer: &T) {
        self.pending.retain(|d| &d.timer != timer);
    }

    pub fn get(&self, timer: &T) -> Option<u64> {
        self.pending
            .iter()
            .find(|d| &d.timer == timer)
            .map(|d| d.at_ms)
    }

    /// The earliest deadline due at or before `now_ms` (earliest set first on ties).
    pub fn next_due(&self, now_ms: u64) -> Option<Deadline<T>> {
        self.pending
            .iter()
            .filter(|d| d.at_ms <= now_ms)
            .min_by_key(|d| d.at_ms)
            .cloned()
    }
}

/// Sent by the table driver when a deadline falls due; the game's systems
/// answer it with the default the rules give.
#[derive(Message, Clone, Debug)]
pub struct DeadlinePassed<T: Send + Sync + 'static> {
    pub timer: T,
}
