//! Gene Survival's settlement arithmetic, as pure functions over the
//! numbers in `data/rules.ron`: battles, gas, upkeep, gene panels and the
//! final ranking. The table's systems call these; tests check them against
//! the seed's clauses.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

/// The game's numbers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneNumbers {
    pub rounds: u8,
    pub start_hp: i32,
    pub max_hp: i32,
    pub gene_points: u8,
    pub gas_damage: Vec<i32>,
    pub upkeep_from_round: u8,
    pub revive_after_drained: i32,
    pub revive_hp: i32,
    pub place_cubes: Vec<u32>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NumbersError {
    #[error("rules file is not valid RON: {0}")]
    Parse(String),
    #[error("gas_damage has {found} entries for {rounds} rounds")]
    GasRounds { found: usize, rounds: u8 },
    #[error("{0} must be positive")]
    NotPositive(&'static str),
    #[error("start_hp {start} is above max_hp {max}")]
    StartAboveMax { start: i32, max: i32 },
}

impl GeneNumbers {
    pub fn from_ron(text: &str) -> Result<Self, NumbersError> {
        let n: Self = ron::from_str(text).map_err(|e| NumbersError::Parse(e.to_string()))?;
        if n.rounds == 0 {
            return Err(NumbersError::NotPositive("rounds"));
        }
        if n.gas_damage.len() != n.rounds as usize {
            return Err(NumbersError::GasRounds {
                found: n.gas_damage.len(),
                rounds: n.rounds,
            });
        }
        if n.max_hp <= 0 {
            return Err(NumbersError::NotPositive("max_hp"));
        }
        if n.start_hp > n.max_hp {
            return Err(NumbersError::StartAboveMax {
                start: n.start_hp,
                max: n.max_hp,
            });
        }
        if n.gene_points == 0 {
            return Err(NumbersError::NotPositive("gene_points"));
        }
        Ok(n)
    }

    /// Gas damage in `round` (1-based).
    pub fn gas(&self, round: u8) -> i32 {
        self.gas_damage
            .get(round.saturating_sub(1) as usize)
            .copied()
            .unwrap_or(0)
    }

    /// HP lost to upkeep in `round`: 「若只上交其一，则会扣除一点生命值，若都
    /// 未上交，则会扣除两点生命值」; nothing before `upkeep_from_round`.
    pub fn upkeep_loss(&self, round: u8, water: bool, food: bool) -> i32 {
        if round < self.upkeep_from_round {
            return 0;
        }
        i32::from(!water) + i32::from(!food)
    }
}

/// The numbers the game ships with.
pub fn numbers() -> &'static GeneNumbers {
    static N: OnceLock<GeneNumbers> = OnceLock::new();
    N.get_or_init(|| {
        GeneNumbers::from_ron(include_str!("data/rules.ron")).expect("the shipped rules are valid")
    })
}

/// Why a set of genes is refused (set-up and surgery alike).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenesRefusal {
    /// 「点数需全部用完」: every point spent.
    Unspent { points: u8, total: u16 },
    /// Everyone moves every round: speed at least 1.
    NoSpeed,
}

/// A gene panel: strength, speed, carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Genes {
    pub strength: u8,
    pub speed: u8,
    pub carry: u8,
}

impl Genes {
    /// The panel the referee gives a player whose set-up time ran out:
    /// 4 / 3 / 3 of 10 (speed 4, strength 3, carry 3).
    pub fn balanced(points: u8) -> Genes {
        let speed = points.div_ceil(5) * 2;
        let strength = (points - speed.min(points)) / 2;
        Genes {
            strength,
            speed: speed.min(points),
            carry: points - speed.min(points) - strength,
        }
    }

    /// 「点数需全部用完」: every point spent; speed at least 1 (rules.md §1:
    /// everyone must move).
    pub fn check(&self, points: u8) -> Result<(), GenesRefusal> {
        let total = u16::from(self.strength) + u16::from(self.speed) + u16::from(self.carry);
        if total != u16::from(points) {
            return Err(GenesRefusal::Unspent { points, total });
        }
        if self.speed == 0 {
            return Err(GenesRefusal::NoSpeed);
        }
        Ok(())
    }
}

/// HP each fighter loses in one room: 「武力值最高的玩家生命值不变，其余玩家将
/// 扣除与该玩家武力值之差的等量生命值」. Input and output are in the same
/// order; with fewer than two fighters nobody loses anything.
pub fn battle_losses(strengths: &[i32]) -> Vec<i32> {
    if strengths.len() < 2 {
        return vec![0; strengths.len()];
    }
    let top = *strengths.iter().max().expect("two or more fighters");
    strengths.iter().map(|s| top - s).collect()
}

/// How one player stands at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standing {
    pub alive: bool,
    /// HP after gold bars (living players).
    pub hp: i32,
    /// Strength (for a shadow: in life).
    pub strength: u8,
}

/// Places (1 = first) in input order: 「暗影玩家排名在存活玩家之后，若存活玩家
/// 生命值相同，则比较武力，暗影玩家之间比较生前武力」. Players equal on every
/// count share a place.
pub fn places(standings: &[Standing]) -> Vec<u8> {
    let key = |s: &Standing| (s.alive, if s.alive { s.hp } else { 0 }, s.strength);
    standings
        .iter()
        .map(|s| 1 + standings.iter().filter(|o| key(o) > key(s)).count() as u8)
        .collect()
}
