//! A Wanning Beast Chess bot that plays random legal moves: bans, pick,
//! peek, attacks and sensing, 殺戮, wisdom guesses, its instinct, 預知,
//! 警惕's guesses. It reads only its view.

use rand::RngExt;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use super::data::{ALL_INSTINCTS, Form, InstinctId};
use super::instinct_play::instinct_use;
use super::settings::WanningGame;
use super::state::*;
use super::view::WanningView;
use crate::bot::Bot;
use crate::table::SeatId;

/// The first is the best player (stand-ins and "fill with bots" take it).
pub const BOT_KINDS: [&str; 2] = ["reasoning", "random"];

pub fn bot(kind: &str) -> Option<Box<dyn Bot<WanningGame>>> {
    match kind {
        "random" => Some(Box::new(RandomBot)),
        "reasoning" => Some(Box::new(super::reasoning::ReasoningBot::default())),
        _ => None,
    }
}

impl crate::bot::Bots for WanningGame {
    fn bot(kind: &str) -> Option<Box<dyn Bot<Self>>> {
        bot(kind)
    }
}

pub struct RandomBot;

impl Bot<WanningGame> for RandomBot {
    fn kind(&self) -> &'static str {
        "random"
    }

    fn act(&mut self, view: &WanningView, rng: &mut ChaCha8Rng) -> Option<WanningAction> {
        if !view.to_act {
            return None;
        }
        let me = view.me?;
        let others: Vec<SeatId> = view
            .seats
            .iter()
            .map(|p| p.seat)
            .filter(|s| *s != me)
            .collect();
        match view.phase {
            WanningPhase::Ban => {
                let pool: Vec<InstinctId> = ALL_INSTINCTS
                    .into_iter()
                    .filter(|i| *i != InstinctId::Foresight)
                    .collect();
                let k = rng.random_range(0..=2);
                let instincts = pool.sample(rng, k).copied().collect();
                Some(WanningAction::Ban { instincts })
            }
            WanningPhase::Pick => {
                let pool: Vec<InstinctId> = ALL_INSTINCTS
                    .into_iter()
                    .filter(|i| !view.banned.contains(i))
                    .collect();
                Some(WanningAction::Pick {
                    instinct: *pool.choose(rng)?,
                })
            }
            WanningPhase::Peek => Some(WanningAction::Peek {
                target: others.choose(rng).copied(),
            }),
            WanningPhase::Orders => {
                if view.foresights_left > 0 && rng.random_bool(0.3) {
                    let all: Vec<SeatId> = view.seats.iter().map(|p| p.seat).collect();
                    return Some(WanningAction::Foresee {
                        a: *all.choose(rng)?,
                        b: *all.choose(rng)?,
                    });
                }
                // 警惕: a guess about last round, before the orders.
                if view.guard_owed && view.orders.is_none() && !view.guessed {
                    return Some(WanningAction::Guard {
                        guess: others
                            .iter()
                            .filter(|s| Some(**s) != view.instinct_last_target)
                            .copied()
                            .collect::<Vec<_>>()
                            .choose(rng)
                            .map(|s| (*s, rng.random_range(1..=4))),
                    });
                }
                Some(WanningAction::Orders(plan(view, me, rng)))
            }
            WanningPhase::Idle | WanningPhase::GameOver => None,
        }
    }
}

fn plan(view: &WanningView, me: SeatId, rng: &mut ChaCha8Rng) -> Plan {
    let living = view.others_living();
    let level = view.level.unwrap_or(1);
    let n = view.seats.len();
    let mut plan = Plan {
        target: living.choose(rng).copied(),
        ..Plan::default()
    };
    // 發怒's second attack: 「自己上一回合血量小於等於最大血量的一半」.
    if view.instinct == Some(InstinctId::Rage)
        && view.last_hp.is_some_and(|hp| {
            let max = n as i32 - 1;
            hp * 2 <= max
        })
        && plan.target.is_some()
    {
        plan.second = living.choose(rng).copied();
    }
    if level == 4 && view.slaughters_left > 0 && view.round >= 2 && rng.random_bool(0.3) {
        plan.slaughter = living.choose(rng).copied();
    }
    // Wisdom, now and then, as a wild guess of the right shape.
    let wisdom_open = match level {
        1 => true,
        2 => view.round >= super::data::data().wisdom_from_round(n),
        _ => false,
    };
    if wisdom_open && !view.wisdom_used && rng.random_bool(0.1) {
        let forms = n / 2 + usize::from(view.round as usize >= n.div_ceil(2));
        let picks: Vec<SeatId> = view
            .seats
            .iter()
            .map(|p| p.seat)
            .filter(|s| *s != me)
            .collect::<Vec<_>>()
            .sample(rng, forms)
            .copied()
            .collect();
        plan.wisdom = Some(Guess {
            levels: (0..n)
                .map(|i| {
                    if i == me.index() {
                        level
                    } else {
                        rng.random_range(1..=4)
                    }
                })
                .collect(),
            forms: picks
                .into_iter()
                .map(|s| {
                    (
                        s,
                        if rng.random_bool(0.5) {
                            Form::At
                        } else {
                            Form::Pt
                        },
                    )
                })
                .collect(),
        });
    }
    if rng.random_bool(0.4) {
        plan.instinct = instinct_use(view, &mut plan, &living, rng);
    }
    // 趨吉避兇 every round.
    if view.instinct == Some(InstinctId::Omens) {
        let ill = if rng.random_bool(0.5) {
            living.choose(rng).copied()
        } else {
            None
        };
        let mixed =
            view.round.is_multiple_of(2) && view.omen_last.is_some_and(|l| l != ill.is_some());
        plan.instinct = Some(InstinctUse::Omens {
            ill,
            curse: mixed.then(|| rng.random_range(1..=4)),
        });
    }
    plan
}

/// A bot for each level: the seat plays its level's kind once it knows its
/// level (the balance table seats bots per level without the referee
/// telling anyone a level).
pub struct LevelBot {
    kinds: [String; 4],
    inner: Option<Box<dyn Bot<WanningGame>>>,
    prefer: Option<InstinctId>,
}

impl LevelBot {
    /// `kinds[l - 1]` plays level `l`; `None` if a kind is unknown.
    pub fn new(kinds: [String; 4]) -> Option<Self> {
        kinds.iter().all(|k| bot(k).is_some()).then_some(Self {
            kinds,
            inner: None,
            prefer: None,
        })
    }

    /// Its reasoning bots pick `id` first when it is not banned.
    pub fn preferring(self, id: Option<InstinctId>) -> Self {
        Self { prefer: id, ..self }
    }
}

impl Bot<WanningGame> for LevelBot {
    fn kind(&self) -> &'static str {
        "by-level"
    }

    fn act(&mut self, view: &WanningView, rng: &mut ChaCha8Rng) -> Option<WanningAction> {
        let level = view.level? as usize;
        let kind = &self.kinds[level - 1];
        let prefer = self.prefer;
        let inner = self.inner.get_or_insert_with(|| match kind.as_str() {
            "reasoning" => Box::new(super::reasoning::ReasoningBot::preferring(prefer)),
            _ => bot(kind).expect("checked kinds"),
        });
        inner.act(view, rng)
    }
}
