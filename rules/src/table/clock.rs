//! Table time and phase deadlines.
//!
//! Time at a table is a number of milliseconds that only moves when the
//! driver says so ([`crate::table::Table::advance_to`]): the desktop client
//! moves it with the wall clock, tests and scenarios move it by hand. A
//! deadline that falls due fires at exactly its own time, whatever step the
//! clock took, so a replay gives the same game however its clock was driven.

use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

use super::Rejection;

/// The grace the apps open a table with (the rules' default is 0, as for
/// tables saved before it): the few seconds a phone needs to show a
/// settlement or a card's move before its seat's time runs.
pub const USUAL_GRACE_SECS: u32 = 3;

/// The longest grace a table may give its clocks, in seconds.
pub const MAX_GRACE_SECS: u32 = 30;

/// Where a clock that starts at `now_ms` begins to run down: `grace_secs`
/// later. Every game's settings carry a grace (`grace_secs`), the seconds
/// each clock of a seat's move waits before its time runs, so that every
/// device has shown what just happened (a settlement, cards moving) before
/// anyone's time goes. It is part of the table's settings, so a replay
/// sets the same deadlines; the referee never waits on what a client
/// says it has shown. Tables saved before it had none (0).
pub fn after_grace(now_ms: u64, grace_secs: u32) -> u64 {
    now_ms + u64::from(grace_secs) * 1000
}

/// A grace of 0 to [`MAX_GRACE_SECS`] seconds.
pub fn check_grace(grace_secs: u32) -> Result<(), Rejection> {
    if grace_secs > MAX_GRACE_SECS {
        return Err(Rejection::new(
            format!("the time to see what happened is 0 to {MAX_GRACE_SECS} s"),
            format!("看清结果的时间须为 0 到 {MAX_GRACE_SECS} 秒"),
        ));
    }
    Ok(())
}

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
