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

impl Announcements {
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
