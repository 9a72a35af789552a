//! Gene Survival's type, its table settings and timings, and its clocks:
//! what every phase's systems read, in a file that imports none of them.

use serde::{Deserialize, Serialize};

use super::state::*;
use crate::table::{GameSettings, Rejection, check_grace};

pub struct GeneGame;

/// Table settings: the clocks (rules.md §10). The numbers (rounds, HP, gas)
/// live in `data/rules.ron`. 0 seconds = no limit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GeneSettings {
    /// To spend gene points and choose a spawn room.
    pub setup_secs: u32,
    /// For each free phase: talk, trade, get ready.
    pub free_secs: u32,
    /// For each player's turn in the action room.
    pub turn_secs: u32,
    /// To choose which cards to leave after a draw, a take or a surgery put
    /// the player over their carry; then the oldest are left (rules.md §6).
    pub drop_secs: u32,
    /// The most medicine, alcohol and adrenaline one player may use in a
    /// round; 0 = no limit (the seed sets none).
    pub state_cards: u8,
    /// Seconds each clock of a move waits before it runs down, so every
    /// device has shown what just happened (`table::after_grace`); 0 for
    /// tables saved before it and by default (the apps open tables with
    /// 3).
    #[serde(default)]
    pub grace_secs: u32,
    /// The end reveals every gene panel, the gold bars turned to HP and
    /// why each place is where it is (issue 71; rules.md §8): on by
    /// default, and for tables saved before it.
    #[serde(default = "on")]
    pub reveal_at_end: bool,
}

fn on() -> bool {
    true
}

impl Default for GeneSettings {
    fn default() -> Self {
        GeneTiming::Party.settings()
    }
}

impl GameSettings for GeneSettings {
    fn check(&self) -> Result<(), Rejection> {
        check_grace(self.grace_secs)?;
        for secs in [
            self.setup_secs,
            self.free_secs,
            self.turn_secs,
            self.drop_secs,
        ] {
            if secs != 0 && !(10..=3600).contains(&secs) {
                return Err(Rejection::new(
                    "each time limit is off (0) or 10 s to 1 hour",
                    "每个时限须为 0（不限时）或 10 秒到 1 小时",
                ));
            }
        }
        Ok(())
    }

    fn grace_secs_mut(&mut self) -> &mut u32 {
        &mut self.grace_secs
    }

    fn reveal_at_end(&self) -> bool {
        self.reveal_at_end
    }
}

/// The timings a set-up screen offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GeneTiming {
    /// Set-up 3 min, free phase 4 min, a turn 90 s.
    Party,
    /// Set-up 2 min, free phase 90 s, a turn 45 s.
    Brisk,
    /// No clocks: the table waits for everyone.
    Untimed,
}

impl GeneTiming {
    pub const ALL: [GeneTiming; 3] = [GeneTiming::Party, GeneTiming::Brisk, GeneTiming::Untimed];

    pub fn settings(self) -> GeneSettings {
        let (setup_secs, free_secs, turn_secs, drop_secs) = match self {
            GeneTiming::Party => (180, 240, 90, 30),
            GeneTiming::Brisk => (120, 90, 45, 20),
            GeneTiming::Untimed => (0, 0, 0, 0),
        };
        GeneSettings {
            setup_secs,
            free_secs,
            turn_secs,
            drop_secs,
            state_cards: 0,
            grace_secs: 0,
            reveal_at_end: true,
        }
    }

    pub fn label(self) -> crate::Bilingual {
        use crate::Bilingual;
        match self {
            GeneTiming::Party => Bilingual::new(
                "Party: free phase 4 min, turns 90 s",
                "聚会：自由阶段 4 分钟，每人行动 90 秒",
            ),
            GeneTiming::Brisk => Bilingual::new(
                "Brisk: free phase 90 s, turns 45 s",
                "快速：自由阶段 90 秒，每人行动 45 秒",
            ),
            GeneTiming::Untimed => Bilingual::new("Untimed", "不限时"),
        }
    }
}

/// Which clock is running. Each phase (and each turn) has its own key, so
/// a new phase always starts a fresh clock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GeneTimer {
    Setup,
    Free {
        round: u8,
    },
    Turn {
        round: u8,
        turn: u8,
    },
    /// The player in the action room is over their carry and must choose.
    Drop {
        round: u8,
        turn: u8,
    },
}

impl GeneTimer {
    /// Whether this clock is the one running now.
    pub(crate) fn current(&self, phase: GenePhase, calendar: &Calendar) -> bool {
        match (self, phase) {
            (GeneTimer::Setup, GenePhase::Setup) => true,
            (GeneTimer::Free { round }, GenePhase::Free) => *round == calendar.round,
            (
                GeneTimer::Turn { round, turn } | GeneTimer::Drop { round, turn },
                GenePhase::Action,
            ) => *round == calendar.round && usize::from(*turn) == calendar.turn,
            _ => false,
        }
    }
}
