//! Wanning Beast Chess's data, read from `data/wanning.ron` and checked:
//! the animals and their levels, the levels dealt at each player count,
//! the numbers that depend on the player count, and the 24 instincts.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::text::Bilingual;

/// The fewest and most players.
pub const PLAYERS: std::ops::RangeInclusive<usize> = 4..=10;

/// The 24 instincts (seed 「5.本能」, in its order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum InstinctId {
    Sturdy,
    Rage,
    Bloodlust,
    LastStand,
    Ruins,
    Luck,
    EarlyBird,
    Grudge,
    Foresight,
    Spokesman,
    Vigilance,
    Poison,
    Alliance,
    Bluff,
    Pair,
    Balance,
    Beast,
    FoolWise,
    Survive,
    Diva,
    Stand,
    Independence,
    Omens,
    Mercy,
}

/// An instinct's form (appendix 6.3): announced after the pick as which
/// was picked more often, and what wisdom guesses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Form {
    At,
    Pt,
}

/// An instinct's type (appendix 6.4): what a peek after the pick tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Kind {
    Information,
    Defence,
    Attack,
    AllRound,
    /// 笨鳥先飛: 「類型：由隨機得到的本能決定」.
    Drawn,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Animal {
    pub key: String,
    pub level: u8,
    pub name: Bilingual,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelRow {
    pub players: usize,
    /// Players of levels 1, 2, 3 and 4.
    pub counts: (u8, u8, u8, u8),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InstinctInfo {
    pub id: InstinctId,
    pub name: Bilingual,
    /// `None` for 笨鳥先飛, which is in neither of the appendix's lists.
    pub form: Option<Form>,
    pub kind: Kind,
    pub quote: Bilingual,
    /// What it does, in a line: for its card at the table (rules.md §6
    /// gives it in full).
    pub effect: Bilingual,
    /// Uses a game, by player count (`None`: no limit).
    #[serde(default)]
    pub uses: Option<Bands>,
    /// 「一回合冷卻」: not in two rounds in a row.
    #[serde(default)]
    pub rest: bool,
    /// The number the effect names, by player count.
    #[serde(default)]
    pub number: Option<Bands>,
}

/// A value by player count: `(from, to, value)` bands covering 4 to 10.
pub type Bands = Vec<(usize, usize, u8)>;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WanningData {
    pub animals: Vec<Animal>,
    pub levels: Vec<LevelRow>,
    pub slaughter_uses: Bands,
    pub wisdom_from_round: Bands,
    pub brutal_threshold: Bands,
    pub instincts: Vec<InstinctInfo>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DataError {
    #[error("data file is not valid RON: {0}")]
    Parse(String),
    #[error("no animal of level {0}")]
    NoAnimal(u8),
    #[error("animal '{0}' has level {1}: levels are 1 to 4")]
    BadLevel(String, u8),
    #[error("the level table has no row for {0} players")]
    NoLevelRow(usize),
    #[error("the level table for {players} players deals {dealt} levels")]
    LevelCount { players: usize, dealt: usize },
    #[error("{table}: no value for {players} players")]
    Gap { table: &'static str, players: usize },
    #[error("instinct {0:?} is listed {1} times (each exactly once)")]
    Instinct(InstinctId, usize),
    #[error("instinct {0:?}: its uses or number have no value for {1} players")]
    InstinctGap(InstinctId, usize),
}

impl WanningData {
    pub fn from_ron(text: &str) -> Result<Self, DataError> {
        let d: Self = ron::from_str(text).map_err(|e| DataError::Parse(e.to_string()))?;
        for a in &d.animals {
            if !(1..=4).contains(&a.level) {
                return Err(DataError::BadLevel(a.key.clone(), a.level));
            }
        }
        for level in 1..=4 {
            if !d.animals.iter().any(|a| a.level == level) {
                return Err(DataError::NoAnimal(level));
            }
        }
        for players in PLAYERS {
            let row = d
                .levels
                .iter()
                .find(|r| r.players == players)
                .ok_or(DataError::NoLevelRow(players))?;
            let (a, b, c, e) = row.counts;
            let dealt = (a + b + c + e) as usize;
            if dealt != players || a == 0 || b == 0 || c == 0 || e == 0 {
                return Err(DataError::LevelCount { players, dealt });
            }
            for (table, bands) in [
                ("slaughter_uses", &d.slaughter_uses),
                ("wisdom_from_round", &d.wisdom_from_round),
                ("brutal_threshold", &d.brutal_threshold),
            ] {
                if band(bands, players).is_none() {
                    return Err(DataError::Gap { table, players });
                }
            }
        }
        for id in ALL_INSTINCTS {
            let n = d.instincts.iter().filter(|i| i.id == id).count();
            if n != 1 {
                return Err(DataError::Instinct(id, n));
            }
        }
        for i in &d.instincts {
            for bands in [&i.uses, &i.number].into_iter().flatten() {
                if let Some(p) = PLAYERS.clone().find(|p| band(bands, *p).is_none()) {
                    return Err(DataError::InstinctGap(i.id, p));
                }
            }
        }
        Ok(d)
    }

    /// The levels dealt at `players`, one per player, lowest first.
    pub fn levels_for(&self, players: usize) -> Vec<u8> {
        let row = self
            .levels
            .iter()
            .find(|r| r.players == players)
            .expect("checked: a row for every count");
        let (a, b, c, d) = row.counts;
        [(1, a), (2, b), (3, c), (4, d)]
            .into_iter()
            .flat_map(|(level, n)| std::iter::repeat_n(level, n as usize))
            .collect()
    }

    /// How many players of `level` are dealt at `players`.
    pub fn count_of(&self, players: usize, level: u8) -> usize {
        self.levels_for(players)
            .iter()
            .filter(|l| **l == level)
            .count()
    }

    pub fn animals_of(&self, level: u8) -> Vec<usize> {
        (0..self.animals.len())
            .filter(|&i| self.animals[i].level == level)
            .collect()
    }

    pub fn instinct(&self, id: InstinctId) -> &InstinctInfo {
        self.instincts
            .iter()
            .find(|i| i.id == id)
            .expect("checked: every instinct listed")
    }

    /// An instinct's uses a game at `players` (`None`: no limit).
    pub fn uses(&self, id: InstinctId, players: usize) -> Option<u8> {
        self.instinct(id)
            .uses
            .as_ref()
            .map(|b| band(b, players).expect("checked"))
    }

    /// The number an instinct's effect names at `players`.
    pub fn number(&self, id: InstinctId, players: usize) -> Option<u8> {
        self.instinct(id)
            .number
            .as_ref()
            .map(|b| band(b, players).expect("checked"))
    }

    pub fn slaughter_uses(&self, players: usize) -> u8 {
        band(&self.slaughter_uses, players).expect("checked")
    }

    pub fn wisdom_from_round(&self, players: usize) -> u8 {
        band(&self.wisdom_from_round, players).expect("checked")
    }

    pub fn brutal_threshold(&self, players: usize) -> u8 {
        band(&self.brutal_threshold, players).expect("checked")
    }
}

/// The value of a band table at a player count.
pub fn band(bands: &Bands, players: usize) -> Option<u8> {
    bands
        .iter()
        .find(|(from, to, _)| (*from..=*to).contains(&players))
        .map(|(_, _, v)| *v)
}

/// Every instinct, in the seed's order.
pub const ALL_INSTINCTS: [InstinctId; 24] = [
    InstinctId::Sturdy,
    InstinctId::Rage,
    InstinctId::Bloodlust,
    InstinctId::LastStand,
    InstinctId::Ruins,
    InstinctId::Luck,
    InstinctId::EarlyBird,
    InstinctId::Grudge,
    InstinctId::Foresight,
    InstinctId::Spokesman,
    InstinctId::Vigilance,
    InstinctId::Poison,
    InstinctId::Alliance,
    InstinctId::Bluff,
    InstinctId::Pair,
    InstinctId::Balance,
    InstinctId::Beast,
    InstinctId::FoolWise,
    InstinctId::Survive,
    InstinctId::Diva,
    InstinctId::Stand,
    InstinctId::Independence,
    InstinctId::Omens,
    InstinctId::Mercy,
];

/// The data the game ships with.
pub fn data() -> &'static WanningData {
    static D: OnceLock<WanningData> = OnceLock::new();
    D.get_or_init(|| {
        WanningData::from_ron(include_str!("data/wanning.ron")).expect("shipped data is valid")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The seed's table: 「4人局：一級一名，二級一名，三級一名，四級一名 ……
    /// 10人局：一級三名，二級兩名，三級三名，四級兩名」.
    #[test]
    fn the_seeds_level_table() {
        let d = data();
        assert_eq!(d.levels_for(4), vec![1, 2, 3, 4]);
        assert_eq!(d.levels_for(5), vec![1, 1, 2, 3, 4]);
        assert_eq!(d.levels_for(7), vec![1, 1, 2, 2, 3, 3, 4]);
        assert_eq!(d.levels_for(9), vec![1, 1, 1, 2, 2, 3, 3, 4, 4]);
        assert_eq!(d.levels_for(10), vec![1, 1, 1, 2, 2, 3, 3, 3, 4, 4]);
        for n in PLAYERS {
            assert_eq!(d.levels_for(n).len(), n);
        }
    }

    /// Appendix 6.3: twelve AT instincts and eleven PT (笨鳥先飛 has none).
    #[test]
    fn the_appendix_forms() {
        let d = data();
        let count = |f| d.instincts.iter().filter(|i| i.form == Some(f)).count();
        assert_eq!(count(Form::At), 12);
        assert_eq!(count(Form::Pt), 11);
        assert_eq!(d.instinct(InstinctId::EarlyBird).form, None);
        assert_eq!(d.instinct(InstinctId::Foresight).kind, Kind::Information);
    }

    #[test]
    fn bad_data_is_refused_with_a_reason() {
        let text =
            include_str!("data/wanning.ron").replace("(players: 6, counts: (2, 2, 1, 1)),", "");
        assert_eq!(WanningData::from_ron(&text), Err(DataError::NoLevelRow(6)));
        let text = include_str!("data/wanning.ron").replace("(2, 2, 1, 1)", "(2, 2, 2, 1)");
        assert!(matches!(
            WanningData::from_ron(&text),
            Err(DataError::LevelCount { players: 6, .. })
        ));
        assert!(matches!(
            WanningData::from_ron("("),
            Err(DataError::Parse(_))
        ));
    }
}
