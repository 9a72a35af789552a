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
    /// What the line changed of the seat's own (issue 71: "the lines carry
    /// their amounts as data"): a client may draw them, and the accounting
    /// tests add them up against the seat's true HP, shields or cards.
    /// (Always written: the wire's format is not self-describing; saved
    /// tables from before read as none.)
    #[serde(default)]
    pub amounts: Vec<Amount>,
}

/// What an [`Amount`] counts: something of the seat's own that the rules
/// change and its owner is told of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Measure {
    Hp,
    Shields,
    /// Crueler World's life points.
    Life,
    /// Cards held: Crueler World's predator cards, Forest Showdown's hand.
    Cards,
    /// Forest Showdown's energy in hand.
    Energy,
}

/// A change a private note tells its seat of: `by` (up or down) to `of`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Amount {
    pub of: Measure,
    pub by: i32,
}

impl Amount {
    pub fn hp(by: i32) -> Self {
        Self {
            of: Measure::Hp,
            by,
        }
    }

    pub fn shields(by: i32) -> Self {
        Self {
            of: Measure::Shields,
            by,
        }
    }

    pub fn life(by: i32) -> Self {
        Self {
            of: Measure::Life,
            by,
        }
    }

    pub fn cards(by: i32) -> Self {
        Self {
            of: Measure::Cards,
            by,
        }
    }

    pub fn energy(by: i32) -> Self {
        Self {
            of: Measure::Energy,
            by,
        }
    }
}

impl PrivateNote {
    /// The sum of this note's changes to `of`.
    pub fn change(&self, of: Measure) -> i32 {
        self.amounts
            .iter()
            .filter(|a| a.of == of)
            .map(|a| a.by)
            .sum()
    }
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
    /// A note to one seat with the changes it tells of, as data.
    Counted(SeatId, Bilingual, Vec<Amount>),
}

impl Announcements {
    /// Records each line at `at_ms`: public, or a note to its seat.
    pub fn speak(&mut self, at_ms: u64, lines: impl IntoIterator<Item = Said>) {
        for line in lines {
            match line {
                Said::All(text) => self.say(at_ms, text),
                Said::To(seat, text) => self.tell(at_ms, seat, text),
                Said::Counted(seat, text, amounts) => self.private.push(PrivateNote {
                    at_ms,
                    seat,
                    text,
                    amounts,
                }),
            }
        }
    }

    pub fn say(&mut self, at_ms: u64, text: Bilingual) {
        self.public.push(Announcement { at_ms, text });
    }

    pub fn tell(&mut self, at_ms: u64, seat: SeatId, text: Bilingual) {
        self.private.push(PrivateNote {
            at_ms,
            seat,
            text,
            amounts: Vec::new(),
        });
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
