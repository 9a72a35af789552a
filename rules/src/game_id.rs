//! The four games Foodweb hosts.

use serde::{Deserialize, Serialize};

use crate::text::Bilingual;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameId {
    Forest,
    Crueler,
    Wanning,
    Gene,
}

impl GameId {
    pub const ALL: [GameId; 4] = [
        GameId::Forest,
        GameId::Crueler,
        GameId::Wanning,
        GameId::Gene,
    ];

    /// The name used on the command line and in scenario files.
    pub fn key(self) -> &'static str {
        match self {
            GameId::Forest => "forest",
            GameId::Crueler => "crueler",
            GameId::Wanning => "wanning",
            GameId::Gene => "gene",
        }
    }

    pub fn from_key(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|g| g.key() == key)
    }

    pub fn title(self) -> Bilingual {
        match self {
            GameId::Forest => Bilingual::new("Forest Showdown", "森林对决"),
            GameId::Crueler => Bilingual::new("Crueler World", "残酷世界"),
            GameId::Wanning => Bilingual::new("Wanning Beast Chess", "萬寧斗獸棋"),
            GameId::Gene => Bilingual::new("Gene Survival", "基因暗影"),
        }
    }

    pub fn tagline(self) -> Bilingual {
        match self {
            GameId::Forest => Bilingual::new(
                "41-card food-web card game: showdowns, challenges, Death & Decay, timed rounds",
                "41 张食物网卡牌：对决、挑战、死亡与腐朽、计时回合",
            ),
            GameId::Crueler => Bilingual::new(
                "Up to 13 players prey on each other in duels over 4 rounds",
                "最多 13 人在 4 轮中互相捕食决斗",
            ),
            GameId::Wanning => Bilingual::new(
                "4-10 players, hidden levels, 24 instincts, damage, shields and locks",
                "4-10 人，隐藏等级、24 种本能、伤害、护盾与锁定",
            ),
            GameId::Gene => Bilingual::new(
                "6 rounds on a multi-building map: genes, gas votes, battles, shadows",
                "多栋建筑地图上的 6 轮：基因、毒气投票、战斗、暗影",
            ),
        }
    }

    /// Player counts the game supports.
    pub fn seats(self) -> std::ops::RangeInclusive<usize> {
        match self {
            GameId::Forest => 2..=8,
            GameId::Crueler => 4..=13,
            GameId::Wanning => 4..=10,
            GameId::Gene => 4..=9,
        }
    }

    /// Whether the game can be played at a table screen (offered in the
    /// picker and the lobby).
    pub fn playable(self) -> bool {
        matches!(
            self,
            GameId::Forest | GameId::Gene | GameId::Crueler | GameId::Wanning
        )
    }

    /// Whether the game's rules are built: it can be simulated and
    /// scripted (`foodweb sim`, `foodweb scenario`) even before its screen.
    pub fn has_rules(self) -> bool {
        self.playable() || self == GameId::Wanning
    }
}

impl std::fmt::Display for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key())
    }
}
