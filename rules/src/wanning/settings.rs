//! Wanning Beast Chess's type, its table settings and house rules, and its
//! clocks: what every phase's systems read, in a file that imports none of
//! them.

use serde::{Deserialize, Serialize};

use super::state::*;
use crate::table::{GameSettings, Rejection, check_grace};

pub struct WanningGame;

/// How a ban vote becomes a ban (rules.md §1). The seed's 「被選擇x次的本能
/// 有 2n/x 的概率被禁用」 cannot be a probability (it exceeds 1); both
/// readings here make more votes likelier.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum BanOdds {
    /// x/n: an instinct every player names is banned for certain.
    #[default]
    VotesPerPlayer,
    /// x/2n: each vote is one of the 2n cast.
    VotesPerVote,
}

/// 殺戮's 「一回合不可使用」 (rules.md §4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum SlaughterRest {
    /// Not in round 1.
    #[default]
    NotFirstRound,
    /// Not in two rounds in a row.
    NotTwiceInARow,
}

/// What form 笨鳥先飛 counts as (rules.md §1): the seed gives it none
/// (it is in neither of the appendix's lists).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum EarlyBirdForm {
    /// The drawn instinct's form, for the AT/PT announcement and wisdom.
    #[default]
    Drawn,
    /// Neither: it is left out of the announcement, and no form guess
    /// about its owner is right.
    Neither,
}

/// How often 垂死抗爭 may be used (rules.md §6): the seed gives a
/// condition (「剩余血量小于等于3」) and 「持續兩回合」, but no limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum LastStandUses {
    /// Once a game.
    #[default]
    Once,
    /// Whenever its condition holds, as the seed reads.
    Unlimited,
}

/// Table settings (rules.md §8).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WanningSettings {
    pub ban_odds: BanOdds,
    /// Whether two players may pick the same instinct (the seed is
    /// silent; each knows only their own).
    pub same_instinct: bool,
    pub early_bird_form: EarlyBirdForm,
    pub slaughter_rest: SlaughterRest,
    /// 強健 rests a round after each use (a house rule: the seed gives
    /// 「條件：無」).
    pub sturdy_rest: bool,
    pub last_stand: LastStandUses,
    /// The last round: then the game ends (rules.md §7).
    pub round_cap: u8,
    /// Seconds for the ban, the pick and the peek, each. 0 = no limit.
    pub setup_secs: u32,
    /// Seconds for a round's orders. 0 = no limit.
    pub orders_secs: u32,
    /// Seconds each clock of a move waits before it runs down, so every
    /// device has shown what just happened (`table::after_grace`); 0 for
    /// tables saved before it and by default (the apps open tables with
    /// 3).
    #[serde(default)]
    pub grace_secs: u32,
    /// Lines of private talk a player may send in one round (issue 70):
    /// 「任意兩名玩家可以自由交流」 is a conversation between people, not a
    /// stream. Tables saved before it read the most allowed.
    #[serde(default = "most_talk_per_round")]
    pub talk_per_round: u16,
    /// Lines of private talk a player may send in the whole game.
    #[serde(default = "most_talk_per_game")]
    pub talk_per_game: u16,
    /// The end reveals every player's animal, level and instinct, and who
    /// won how (issue 71; rules.md §7): on by default, and for tables
    /// saved before it.
    #[serde(default = "on")]
    pub reveal_at_end: bool,
}

fn on() -> bool {
    true
}

/// The most `talk_per_round` may be.
pub const MAX_TALK_PER_ROUND: u16 = 200;
/// The most `talk_per_game` may be.
pub const MAX_TALK_PER_GAME: u16 = 1000;
/// Lines one player may send within `TALK_WINDOW_MS` of table time: a
/// line to each other player at once, not a flood.
pub const TALK_BURST: usize = 10;
pub const TALK_WINDOW_MS: u64 = 10_000;

fn most_talk_per_round() -> u16 {
    MAX_TALK_PER_ROUND
}

fn most_talk_per_game() -> u16 {
    MAX_TALK_PER_GAME
}

impl Default for WanningSettings {
    fn default() -> Self {
        Self {
            ban_odds: BanOdds::VotesPerPlayer,
            same_instinct: true,
            early_bird_form: EarlyBirdForm::Drawn,
            slaughter_rest: SlaughterRest::NotFirstRound,
            sturdy_rest: false,
            last_stand: LastStandUses::Once,
            round_cap: 12,
            setup_secs: 90,
            orders_secs: 120,
            grace_secs: 0,
            talk_per_round: 40,
            talk_per_game: 200,
            reveal_at_end: true,
        }
    }
}

impl GameSettings for WanningSettings {
    fn check(&self) -> Result<(), Rejection> {
        check_grace(self.grace_secs)?;
        if !(1..=50).contains(&self.round_cap) {
            return Err(Rejection::new(
                "the round cap is 1 to 50",
                "回合上限須為 1 到 50",
            ));
        }
        if !(1..=MAX_TALK_PER_ROUND).contains(&self.talk_per_round)
            || !(1..=MAX_TALK_PER_GAME).contains(&self.talk_per_game)
        {
            return Err(Rejection::new(
                format!(
                    "talk is 1 to {MAX_TALK_PER_ROUND} lines a round and 1 to {MAX_TALK_PER_GAME} a game"
                ),
                format!(
                    "私聊須為每回合 1 到 {MAX_TALK_PER_ROUND} 句、每局 1 到 {MAX_TALK_PER_GAME} 句"
                ),
            ));
        }
        for secs in [self.setup_secs, self.orders_secs] {
            if secs != 0 && !(5..=3600).contains(&secs) {
                return Err(Rejection::new(
                    "each time limit is off (0) or 5 s to 1 hour",
                    "每個時限須為 0（不限時）或 5 秒到 1 小時",
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

/// Which clock runs: one per wait, so a new wait starts a fresh clock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WanningTimer {
    Ban,
    Pick,
    Peek,
    Orders(u8),
}

impl WanningTimer {
    pub(crate) fn now(phase: WanningPhase, round: u8, s: &WanningSettings) -> Option<(Self, u32)> {
        let (t, secs) = match phase {
            WanningPhase::Ban => (Self::Ban, s.setup_secs),
            WanningPhase::Pick => (Self::Pick, s.setup_secs),
            WanningPhase::Peek => (Self::Peek, s.setup_secs),
            WanningPhase::Orders => (Self::Orders(round), s.orders_secs),
            WanningPhase::Idle | WanningPhase::GameOver => return None,
        };
        (secs > 0).then_some((t, secs))
    }
}
