//! Gene Survival's bots: `random` (random legal moves) and
//! `survivor`, which plays to stay alive: a sturdy panel, water and food
//! kept in hand, gas floors avoided, rooms where it lost a battle avoided
//! and rooms where it won sought while strong, medicine when hurt, and its
//! vote cast on a floor it is not on.

use rand::RngExt;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use super::map::{ItemKind, RoomId, map};
use super::settings::GeneGame;
use super::settle::{Genes, numbers};
use super::state::GeneOffer;
use super::state::{GeneAction, GenePhase};
use super::view::GeneView;
use crate::bot::Bot;
use crate::table::SeatId;

pub const BOT_KINDS: [&str; 2] = ["survivor", "random"];

pub fn bot(kind: &str) -> Option<Box<dyn Bot<GeneGame>>> {
    match kind {
        "survivor" => Some(Box::new(SurvivorBot)),
        "random" => Some(Box::new(RandomBot)),
        _ => None,
    }
}

impl crate::bot::Bots for GeneGame {
    fn bot(kind: &str) -> Option<Box<dyn Bot<Self>>> {
        bot(kind)
    }
}

pub struct SurvivorBot;

impl SurvivorBot {
    /// How good a room is to end a move in: not gassed, and gives what the
    /// hand lacks (water and food first).
    fn score(view: &GeneView, room: RoomId) -> i32 {
        let r = map().room(room);
        let mut score = 0;
        if view.gassed.contains(&r.floor) {
            score -= 100;
        }
        // Evidence of who is stronger: a room where this bot lost a battle
        // lately holds someone stronger (avoid it); one where it won holds
        // someone weaker (hunt there while it is strong and healthy).
        let strong = view.genes.is_some_and(|g| g.strength >= 5)
            && view.me.is_some_and(|s| view.hp[s.index()] >= 6);
        for &(round, at, lost) in &view.fought {
            if at != room || round + 2 < view.round {
                continue;
            }
            if lost > 0 {
                score -= 15 * lost;
            } else if strong {
                score += 10;
            }
        }
        let holds = |k| view.hand.iter().filter(|&&h| h == k).count();
        for k in &r.draws {
            score += match k {
                ItemKind::Water | ItemKind::Food if holds(*k) == 0 => 20,
                ItemKind::Medicine if view.me.is_some_and(|s| view.hp[s.index()] < 7) => 12,
                ItemKind::Gold => 4,
                _ => 1,
            };
        }
        score
    }
}

impl SurvivorBot {
    /// What a card is worth to a hand: water and food most while missing.
    fn card_value(kind: ItemKind, hand: &[ItemKind]) -> i32 {
        let held = hand.iter().filter(|&&h| h == kind).count();
        match kind {
            ItemKind::Water | ItemKind::Food if held <= 1 => 6,
            ItemKind::Water | ItemKind::Food => 2,
            ItemKind::Medicine => 4,
            ItemKind::Gold => 3,
            _ => 1,
        }
    }

    /// A hand's worth: the best `carry` cards in it.
    fn hand_value(hand: &[ItemKind], carry: usize) -> i32 {
        let mut values: Vec<i32> = hand.iter().map(|k| Self::card_value(*k, hand)).collect();
        values.sort_unstable_by(|a, b| b.cmp(a));
        values.into_iter().take(carry).sum()
    }
}

impl Bot<GeneGame> for SurvivorBot {
    fn kind(&self) -> &'static str {
        "survivor"
    }

    fn act(&mut self, view: &GeneView, rng: &mut ChaCha8Rng) -> Option<GeneAction> {
        if !view.to_act {
            return None;
        }
        let me = view.me?;
        let shadow = view.shadows[me.index()];
        match view.phase {
            GenePhase::Setup => {
                // Strength wins battles; carry keeps water and food.
                let points = numbers().gene_points;
                let genes = Genes {
                    strength: points - 6,
                    speed: 3,
                    carry: 3,
                };
                let rooms: Vec<RoomId> = map()
                    .spawn_rooms()
                    .filter(|&r| !map().room(r).draws.is_empty())
                    .collect();
                Some(GeneAction::Prepare {
                    genes,
                    spawn: *rooms.choose(rng)?,
                })
            }
            GenePhase::Free => {
                // Answer offers: take a trade that leaves the hand better.
                if let Some(o) = view.offers.iter().find(|o| o.to == me) {
                    let mut after = view.hand.clone();
                    for k in &o.want.cards {
                        if let Some(i) = after.iter().position(|h| h == k) {
                            after.remove(i);
                        }
                    }
                    after.extend(&o.give.cards);
                    let better = o.can_be_met_by(&view.hand)
                        && Self::hand_value(&after, view.carry)
                            > Self::hand_value(&view.hand, view.carry);
                    return Some(if better {
                        GeneAction::Accept { from: o.from }
                    } else {
                        GeneAction::Decline { from: o.from }
                    });
                }
                if view.hand.len() > view.carry && view.can_discard {
                    let worst = view
                        .hand
                        .iter()
                        .copied()
                        .min_by_key(|k| Self::card_value(*k, &view.hand))?;
                    return Some(GeneAction::Discard { kind: worst });
                }
                if view.to_act && !view.ready {
                    return Some(GeneAction::Ready);
                }
                None
            }
            GenePhase::Action if !view.moved => {
                let best = view
                    .destinations
                    .iter()
                    .map(|&r| (Self::score(view, r) * 10 + rng.random_range(0..10), r))
                    .max()?;
                Some(GeneAction::Move { to: best.1 })
            }
            GenePhase::Action if view.must_drop > 0 => {
                let worst = view
                    .hand
                    .iter()
                    .copied()
                    .min_by_key(|k| Self::card_value(*k, &view.hand))?;
                Some(GeneAction::Discard { kind: worst })
            }
            GenePhase::Action => {
                if shadow {
                    return Some(GeneAction::EndTurn);
                }
                let holds = |k| view.hand.contains(&k);
                let want = [
                    ItemKind::Water,
                    ItemKind::Food,
                    ItemKind::Medicine,
                    ItemKind::Gold,
                ];
                if let Some(kind) = want
                    .into_iter()
                    .find(|k| view.can_draw.contains(k) && !(holds(*k) && *k != ItemKind::Gold))
                    .or_else(|| view.can_draw.first().copied())
                {
                    return Some(GeneAction::Draw { kind });
                }
                if let Some(&kind) = [ItemKind::Water, ItemKind::Food]
                    .iter()
                    .find(|k| view.can_take.contains(k) && !holds(**k))
                {
                    return Some(GeneAction::Take { kind });
                }
                if holds(ItemKind::Medicine) && !view.changed_state && view.hp[me.index()] <= 7 {
                    return Some(GeneAction::Use {
                        kind: ItemKind::Medicine,
                        room: None,
                    });
                }
                let here = view.room.map(|r| map().room(r).floor);
                let floors: Vec<_> = view
                    .open_floors
                    .iter()
                    .copied()
                    .filter(|f| Some(*f) != here)
                    .collect();
                match floors.choose(rng).or(view.open_floors.first()) {
                    Some(&floor) => Some(GeneAction::Vote { floor }),
                    None => Some(GeneAction::EndTurn),
                }
            }
            GenePhase::Idle | GenePhase::GameOver => None,
        }
    }
}

/// Plays a random legal move.
pub struct RandomBot;

impl Bot<GeneGame> for RandomBot {
    fn kind(&self) -> &'static str {
        "random"
    }

    fn act(&mut self, view: &GeneView, rng: &mut ChaCha8Rng) -> Option<GeneAction> {
        if !view.to_act {
            return None;
        }
        match view.phase {
            GenePhase::Setup => {
                let points = numbers().gene_points;
                let speed = rng.random_range(1..=points);
                let strength = rng.random_range(0..=points - speed);
                let genes = Genes {
                    strength,
                    speed,
                    carry: points - speed - strength,
                };
                let rooms: Vec<RoomId> = map().spawn_rooms().collect();
                Some(GeneAction::Prepare {
                    genes,
                    spawn: *rooms.choose(rng)?,
                })
            }
            GenePhase::Free => {
                let me = view.me?;
                if let Some(o) = view.offers.iter().find(|o| o.to == me) {
                    return Some(if o.can_be_met_by(&view.hand) && rng.random_bool(0.5) {
                        GeneAction::Accept { from: o.from }
                    } else {
                        GeneAction::Decline { from: o.from }
                    });
                }
                if view.hand.len() > view.carry && view.can_discard {
                    return Some(GeneAction::Discard {
                        kind: *view.hand.choose(rng)?,
                    });
                }
                if view.ready {
                    return None;
                }
                // Now and then an offer: a card of mine for one of anything.
                let shadow = view.shadows[me.index()];
                if !shadow && !view.hand.is_empty() && rng.random_bool(0.15) {
                    let others: Vec<SeatId> = (0..view.hp.len() as u8)
                        .map(SeatId)
                        .filter(|s| *s != me && !view.shadows[s.index()])
                        .collect();
                    if let Some(&to) = others.choose(rng)
                        && view.offers.iter().all(|o| o.to != to)
                    {
                        let kinds = [
                            ItemKind::Water,
                            ItemKind::Food,
                            ItemKind::Gold,
                            ItemKind::Medicine,
                        ];
                        return Some(GeneAction::Offer {
                            to,
                            give: vec![*view.hand.choose(rng)?],
                            want: vec![*kinds.choose(rng)?],
                            swap_order: rng.random_bool(0.2),
                        });
                    }
                }
                Some(GeneAction::Ready)
            }
            GenePhase::Action if !view.moved => {
                if view.hand.contains(&ItemKind::Adrenaline)
                    && !view.changed_state
                    && rng.random_bool(0.5)
                {
                    return Some(GeneAction::Use {
                        kind: ItemKind::Adrenaline,
                        room: None,
                    });
                }
                Some(GeneAction::Move {
                    to: *view.destinations.choose(rng)?,
                })
            }
            GenePhase::Action if view.must_drop > 0 => Some(GeneAction::Discard {
                kind: *view.hand.choose(rng)?,
            }),
            GenePhase::Action => {
                let shadow = view.me.is_some_and(|s| view.shadows[s.index()]);
                if shadow || (view.can_draw.is_empty() && view.open_floors.is_empty()) {
                    return Some(GeneAction::EndTurn);
                }
                if let Some(kind) = view.can_draw.choose(rng) {
                    return Some(GeneAction::Draw { kind: *kind });
                }
                // Now and then a card: a rocket at a random room, or one
                // state-changing card a round.
                let usable: Vec<ItemKind> = view
                    .hand
                    .iter()
                    .copied()
                    .filter(|k| match k {
                        ItemKind::Rocket => true,
                        ItemKind::Medicine | ItemKind::Alcohol => !view.changed_state,
                        _ => false,
                    })
                    .collect();
                if let Some(&kind) = usable.choose(rng)
                    && rng.random_bool(0.3)
                {
                    let room = map().ids().collect::<Vec<_>>().choose(rng).copied();
                    return Some(GeneAction::Use { kind, room });
                }
                Some(GeneAction::Vote {
                    floor: *view.open_floors.choose(rng)?,
                })
            }
            GenePhase::Idle | GenePhase::GameOver => None,
        }
    }
}
