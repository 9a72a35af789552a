//! Forest Showdown's rule variants (seed, "Timing").

use serde::{Deserialize, Serialize};

use crate::table::{GameSettings, Rejection, check_grace};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ForestSettings {
    /// Rounds to play. Seed: "Play 3 or 4 rounds of 20 minutes each", or
    /// the "Long Version", which is one round of 45 minutes.
    pub rounds: u8,
    /// Length of each round in seconds.
    pub round_secs: u32,
    /// Seconds the player whose turn it is has to challenge or ask for a
    /// showdown; then the table asks the next player for a showdown on
    /// their behalf. 0 = no limit.
    pub turn_secs: u32,
    /// Seconds each side of a showdown has to choose a card; then a random
    /// card from their hand is played. 0 = no limit.
    pub showdown_secs: u32,
    /// Once the round's time is up, a turn or a showdown card with no limit
    /// (`turn_secs` or `showdown_secs` 0) gets this many seconds, so the
    /// round's end does not wait on one player's goodwill.
    pub overtime_secs: u32,
    /// Seed: players dealt one card fewer "will be awarded 5 extra energy
    /// points at the beginning of the game or round".
    pub short_hand_bonus: i64,
    /// Seconds each clock of a move waits before it runs down, so every
    /// device has shown what just happened (`table::after_grace`); 0 for
    /// tables saved before it and by default (the apps open tables with
    /// 3).
    #[serde(default)]
    pub grace_secs: u32,
    /// The end reveals the table: every seat's counted hand of each round,
    /// card by card (issue 71; rules.md §7): on by default, and for tables
    /// saved before it (the struct's default).
    pub reveal_at_end: bool,
}

impl Default for ForestSettings {
    fn default() -> Self {
        Self::timed(3)
    }
}

/// The named timings a table set-up screen offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ForestTiming {
    ThreeRounds,
    FourRounds,
    Long,
    Quick,
}

impl ForestTiming {
    pub const ALL: [ForestTiming; 4] = [
        ForestTiming::ThreeRounds,
        ForestTiming::FourRounds,
        ForestTiming::Long,
        ForestTiming::Quick,
    ];

    pub fn settings(self) -> ForestSettings {
        match self {
            ForestTiming::ThreeRounds => ForestSettings::timed(3),
            ForestTiming::FourRounds => ForestSettings::timed(4),
            ForestTiming::Long => ForestSettings::long(),
            ForestTiming::Quick => ForestSettings::quick(),
        }
    }

    pub fn label(self) -> crate::text::Bilingual {
        use crate::text::Bilingual;
        match self {
            ForestTiming::ThreeRounds => {
                Bilingual::new("Timed: 3 rounds of 20 min", "计时：3 轮，每轮 20 分钟")
            }
            ForestTiming::FourRounds => {
                Bilingual::new("Timed: 4 rounds of 20 min", "计时：4 轮，每轮 20 分钟")
            }
            ForestTiming::Long => Bilingual::new("Long: one 45 min game", "长局：一局 45 分钟"),
            ForestTiming::Quick => Bilingual::new("Quick: one 5 min round", "快速：一轮 5 分钟"),
        }
    }
}

impl ForestSettings {
    pub fn timed(rounds: u8) -> Self {
        Self {
            rounds,
            round_secs: 20 * 60,
            turn_secs: 90,
            showdown_secs: 30,
            overtime_secs: 30,
            short_hand_bonus: 5,
            grace_secs: 0,
            reveal_at_end: true,
        }
    }

    pub fn long() -> Self {
        Self {
            rounds: 1,
            round_secs: 45 * 60,
            ..Self::timed(1)
        }
    }

    pub fn quick() -> Self {
        Self {
            rounds: 1,
            round_secs: 5 * 60,
            turn_secs: 45,
            showdown_secs: 20,
            ..Self::timed(1)
        }
    }
}

impl GameSettings for ForestSettings {
    fn check(&self) -> Result<(), Rejection> {
        check_grace(self.grace_secs)?;
        if !(1..=10).contains(&self.rounds) {
            return Err(Rejection::new(
                format!("{} rounds: choose 1 to 10", self.rounds),
                format!("{} 轮：请选择 1 到 10 轮", self.rounds),
            ));
        }
        if self.round_secs < 10 {
            return Err(Rejection::new(
                "a round must last at least 10 seconds",
                "每轮至少 10 秒",
            ));
        }
        if !(5..=600).contains(&self.overtime_secs) {
            return Err(Rejection::new(
                "the time allowed once the round is up is 5 s to 10 min",
                "本轮时间到后的限时须为 5 秒到 10 分钟",
            ));
        }
        if self.short_hand_bonus < 0 {
            return Err(Rejection::new(
                "the short-hand bonus cannot be negative",
                "少牌奖励不能为负数",
            ));
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
