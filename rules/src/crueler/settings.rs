//! Crueler World's type, its table settings (rules.md §3 and §5) and its
//! clocks: what every phase's systems read, in a file that imports none
//! of them.

use serde::{Deserialize, Serialize};

use super::state::*;
use crate::table::{GameSettings, Rejection, check_grace};

pub struct CruelerGame;

/// Table settings (rules.md §3 and §5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CruelerSettings {
    /// Life points in each box at the start.
    pub start_life: i32,
    pub duel: DuelKind,
    /// Throws a duelist must win (beast duels).
    pub wins_needed: u8,
    /// Who has preyed, or been preyed upon, counts for the round (the
    /// seed) or afresh each predation phase.
    pub starve_by: StarveBy,
    /// Seconds the asked player has to prey or pass; then they pass.
    /// 0 = no limit.
    pub ask_secs: u32,
    /// Seconds each duelist has to choose a beast for a throw; then the
    /// referee draws one at random. 0 = no limit.
    pub duel_secs: u32,
    /// Seconds an interlude lasts at most; then unanswered offers lapse
    /// and everyone is ready. 0 = no limit.
    pub interlude_secs: u32,
    /// Seconds each clock of a move waits before it runs down, so every
    /// device has shown what just happened (`table::after_grace`); 0 for
    /// tables saved before it and by default (the apps open tables with
    /// 3).
    #[serde(default)]
    pub grace_secs: u32,
    /// The end reveals the table: every box's life, and who eliminated
    /// whom in which round (issue 71; rules.md §10): on by default, and
    /// for tables saved before it (the struct's default).
    pub reveal_at_end: bool,
}

impl Default for CruelerSettings {
    fn default() -> Self {
        Self {
            start_life: 10,
            duel: DuelKind::Beasts,
            wins_needed: 2,
            starve_by: StarveBy::Round,
            ask_secs: 60,
            duel_secs: 30,
            interlude_secs: 180,
            grace_secs: 0,
            reveal_at_end: true,
        }
    }
}

impl GameSettings for CruelerSettings {
    fn reveal_at_end(&self) -> bool {
        self.reveal_at_end
    }

    fn check(&self) -> Result<(), Rejection> {
        check_grace(self.grace_secs)?;
        if !(1..=50).contains(&self.start_life) {
            return Err(Rejection::new(
                "starting life is 1 to 50",
                "初始生命值须为 1 到 50",
            ));
        }
        if !(1..=3).contains(&self.wins_needed) {
            return Err(Rejection::new(
                "a duel is won with 1 to 3 throws",
                "决斗须赢 1 到 3 回合",
            ));
        }
        for secs in [self.ask_secs, self.duel_secs, self.interlude_secs] {
            if secs != 0 && !(5..=3600).contains(&secs) {
                return Err(Rejection::new(
                    "each time limit is off (0) or 5 s to 1 hour",
                    "每个时限须为 0（不限时）或 5 秒到 1 小时",
                ));
            }
        }
        Ok(())
    }

    fn grace_secs_mut(&mut self) -> &mut u32 {
        &mut self.grace_secs
    }
}

/// Which clock is running. Each wait has its own key, so a new wait (the
/// next player asked, the next throw) always starts a fresh clock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CruelerTimer {
    Interlude {
        round: u8,
        phase_no: u8,
    },
    Ask {
        round: u8,
        phase_no: u8,
        second: bool,
        turn: u8,
    },
    Duel {
        round: u8,
        phase_no: u8,
        turn: u8,
        throws: u8,
    },
}

impl CruelerTimer {
    /// The clock the table should run now, with its length in seconds.
    pub(crate) fn now(
        phase: CruelerPhase,
        calendar: &Calendar,
        asking: &Asking,
        duel: Option<&Duel>,
        s: &CruelerSettings,
    ) -> Option<(Self, u32)> {
        let (round, phase_no) = (calendar.round, calendar.phase_no);
        let turn = asking.turn as u8;
        let (timer, secs) = match phase {
            CruelerPhase::Interlude => (Self::Interlude { round, phase_no }, s.interlude_secs),
            CruelerPhase::Predation => (
                Self::Ask {
                    round,
                    phase_no,
                    second: asking.second,
                    turn,
                },
                s.ask_secs,
            ),
            CruelerPhase::Duel => (
                Self::Duel {
                    round,
                    phase_no,
                    turn,
                    throws: duel.map_or(0, |d| d.throws.len() as u8),
                },
                s.duel_secs,
            ),
            CruelerPhase::Idle | CruelerPhase::GameOver => return None,
        };
        (secs > 0).then_some((timer, secs))
    }
}
