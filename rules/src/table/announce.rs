//! What the referee says: public announcements to the whole table, and
//! private notes that only one seat receives.

use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

use super::SeatId;
use crate::text::Bilingual;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Announcement {
    pub at_ms: u64,
    pub text: Bilingual,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrivateNote {
    pub at_ms: u64,
    pub seat: SeatId,
    pub text: Bilingual,
}

#[derive(Resource, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Announcements {
    pub public: Vec<Announcement>,
    pub private: Vec<PrivateNote>,
}

/// A line a game's rules produce while applying a step: for everyone, or
/// for one seat. Games collect them in plain Rust and hand them to
/// [`Announcements::speak`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Said {
    All(Bilingual),
    To(SeatId, Bilingual),
}

impl Announcements {
    /// Records each line at `at_ms`: public, or a note to its seat.
    pub fn speak(&mut self, at_ms: u64, lines: impl IntoIterator<Item = Said>) {
        for line in lines {
            match line {
                Said::All(text) => self.say(at_ms, text),
                Said::To(seat, text) => self.tell(at_ms, seat, text),
            }
        }
    }

    pub fn say(&mut self, at_ms: u64, text: Bilingual) {
        self.public.push(Announcement { at_ms, text });
    }

    pub fn tell(&mut self, at_ms: u64, seat: SeatId, text: Bilingual) {
        self.private.push(PrivateNote { at_ms, seat, text });
    }

    /// The private notes of one seat, and nobody else's.
    pub fn notes_for(&self, seat: SeatId) -> Vec<PrivateNote> {
        self.private
            .iter()
            .filter(|n| n.seat == seat)
            .cloned()
            .collect()
    }
}
