//! Why an action was refused: the one answer every judge gives.

use serde::{Deserialize, Serialize};

use super::SeatId;
use crate::text::Bilingual;

crate::phrasebook!("table");

/// Why an action was refused. Nothing at the table changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{reason}")]
pub struct Rejection {
    pub reason: Bilingual,
}

impl Rejection {
    pub fn new(en: impl Into<String>, zh: impl Into<String>) -> Self {
        Self {
            reason: Bilingual::new(en, zh),
        }
    }

    /// A refusal worded from the table core's phrasebook (`table.ftl`).
    pub(crate) fn said(key: &str, args: &[(&str, crate::narrate::Arg)]) -> Self {
        Self {
            reason: say(key, args),
        }
    }

    pub fn unknown_seat(seat: SeatId) -> Self {
        Self::said("no-unknown-seat", &[("seat", seat.to_string().into())])
    }

    pub fn not_your_turn() -> Self {
        Self::said("no-not-your-turn", &[])
    }

    pub fn game_over() -> Self {
        Self::said("no-game-over", &[])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A refusal reads in both languages.
    #[test]
    fn a_refusal_reads_in_both_languages() {
        assert_eq!(
            Rejection::unknown_seat(SeatId(6)).reason,
            Bilingual::new("there is no seat 7 at this table", "本桌没有 7 号座位")
        );
    }
}
