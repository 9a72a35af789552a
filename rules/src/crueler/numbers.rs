//! Crueler World's numbers, read from `data/rules.ron` and checked.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CruelerNumbers {
    /// N for each predation phase, round by round.
    pub rounds: Vec<Vec<i32>>,
    /// Rounds (1-based) with a Nature Reserve.
    pub reserve_rounds: Vec<u8>,
    pub elimination_bonus: i32,
    pub die_faces: u8,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NumbersError {
    #[error("rules file is not valid RON: {0}")]
    Parse(String),
    #[error("round {0} has no predation phase")]
    EmptyRound(usize),
    #[error("every N must be positive (round {0})")]
    BadN(usize),
    #[error("the die needs at least 13 faces, one per seat, not {0}")]
    SmallDie(u8),
    #[error("the elimination bonus cannot be negative")]
    NegativeBonus,
}

impl CruelerNumbers {
    pub fn from_ron(text: &str) -> Result<Self, NumbersError> {
        let n: Self = ron::from_str(text).map_err(|e| NumbersError::Parse(e.to_string()))?;
        for (i, r) in n.rounds.iter().enumerate() {
            if r.is_empty() {
                return Err(NumbersError::EmptyRound(i + 1));
            }
            if r.iter().any(|&x| x <= 0) {
                return Err(NumbersError::BadN(i + 1));
            }
        }
        if n.rounds.is_empty() {
            return Err(NumbersError::EmptyRound(1));
        }
        if n.die_faces < 13 {
            return Err(NumbersError::SmallDie(n.die_faces));
        }
        if n.elimination_bonus < 0 {
            return Err(NumbersError::NegativeBonus);
        }
        Ok(n)
    }

    /// N of a predation phase (round and phase 1-based).
    pub fn n(&self, round: u8, phase: u8) -> i32 {
        self.rounds[round as usize - 1][phase as usize - 1]
    }

    pub fn phases_in(&self, round: u8) -> u8 {
        self.rounds[round as usize - 1].len() as u8
    }

    pub fn reserve(&self, round: u8) -> bool {
        self.reserve_rounds.contains(&round)
    }
}

/// The numbers the game ships with.
pub fn numbers() -> &'static CruelerNumbers {
    static N: OnceLock<CruelerNumbers> = OnceLock::new();
    N.get_or_init(|| {
        CruelerNumbers::from_ron(include_str!("data/rules.ron")).expect("shipped rules are valid")
    })
}
