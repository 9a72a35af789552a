//! How a bot uses its instinct when it has no better idea: at random, when
//! the instinct's own checks allow (the random bot, and the reasoning bot
//! for instincts it has no plan for).

use rand::RngExt;
use rand::seq::{IndexedRandom, SliceRandom};
use rand_chacha::ChaCha8Rng;

use super::data::{Form, InstinctId};
use super::state::*;
use super::view::WanningView;
use crate::table::SeatId;

pub(crate) fn instinct_use(
    view: &WanningView,
    plan: &mut Plan,
    living: &[SeatId],
    rng: &mut ChaCha8Rng,
) -> Option<InstinctUse> {
    let id = view.instinct?;
    if view.instinct_uses_left == Some(0) {
        return None;
    }
    let rested = !view.instinct_resting;
    let other = |rng: &mut ChaCha8Rng| living.choose(rng).copied();
    let n = view.seats.len();
    Some(match id {
        InstinctId::Sturdy if rested => InstinctUse::Sturdy,
        InstinctId::Poison if rested => InstinctUse::Poison,
        InstinctId::Alliance if rested => {
            plan.target = None;
            plan.second = None;
            InstinctUse::Alliance {
                target: other(rng)?,
            }
        }
        InstinctId::Bluff if rested => {
            let t = living
                .iter()
                .copied()
                .filter(|s| Some(*s) != view.instinct_last_target && view.seats[s.index()].hp > 2)
                .collect::<Vec<_>>();
            InstinctUse::Bluff {
                target: *t.choose(rng)?,
            }
        }
        InstinctId::Balance => InstinctUse::Balance,
        InstinctId::Beast => {
            let t = living
                .iter()
                .copied()
                .filter(|s| Some(*s) != plan.target && Some(*s) != plan.second)
                .collect::<Vec<_>>();
            InstinctUse::Beast {
                target: *t.choose(rng)?,
            }
        }
        InstinctId::Diva => {
            plan.target = None;
            plan.second = None;
            InstinctUse::Diva
        }
        InstinctId::Independence => InstinctUse::Independence,
        InstinctId::LastStand if view.hp.is_some_and(|hp| hp <= 3) => InstinctUse::LastStand,
        InstinctId::Ruins if view.radical => InstinctUse::Ruins {
            target: other(rng)?,
        },
        InstinctId::Luck => {
            let target = match view.luck? {
                LuckDraw::Guard if rng.random_bool(0.5) => view.me?,
                _ => other(rng)?,
            };
            InstinctUse::Luck { target }
        }
        InstinctId::Grudge if view.damaged_last > 0 => InstinctUse::Grudge {
            target: other(rng)?,
        },
        InstinctId::Pair | InstinctId::Stand => {
            let t = living
                .iter()
                .copied()
                .filter(|s| Some(*s) != view.instinct_last_target)
                .collect::<Vec<_>>();
            let target = *t.choose(rng)?;
            plan.target = None;
            plan.second = None;
            if id == InstinctId::Pair {
                InstinctUse::Pair { target }
            } else {
                InstinctUse::Stand { target }
            }
        }
        InstinctId::Survive => InstinctUse::Survive,
        InstinctId::Spokesman => random_marks(view, living, rng)?,
        InstinctId::FoolWise
            if view.round > super::data::data().wisdom_from_round(n)
                && view.wisdom_round.is_none_or(|r| r + 1 != view.round) =>
        {
            random_guess(view, rng)?
        }
        InstinctId::Mercy if view.level.is_some_and(|l| l >= 2) => {
            let t = plan.target?;
            if view.seats[t.index()].hp * 2 > n as i32 - 1 {
                return None;
            }
            InstinctUse::Mercy
        }
        _ => return None,
    })
}

/// 外交部發言人: two living seats at random that are not yet marked three
/// times.
fn random_marks(
    view: &WanningView,
    living: &[SeatId],
    rng: &mut ChaCha8Rng,
) -> Option<InstinctUse> {
    let open: Vec<SeatId> = living
        .iter()
        .copied()
        .filter(|s| !view.marks.iter().any(|(m, k)| m == s && *k >= 3))
        .collect();
    let two: Vec<SeatId> = open.sample(rng, 2).copied().collect();
    if two.len() < 2 {
        return None;
    }
    Some(InstinctUse::Mark {
        a: two[0],
        b: two[1],
    })
}

/// 大智若愚: a random guess that fits the deal (its own level in its own
/// place, every level as often as dealt).
fn random_guess(view: &WanningView, rng: &mut ChaCha8Rng) -> Option<InstinctUse> {
    let n = view.seats.len();
    let me = view.me?;
    let own = view.level?;
    let mut rest: Vec<u8> = super::data::data().levels_for(n);
    let at = rest.iter().position(|l| *l == own)?;
    rest.remove(at);
    rest.shuffle(rng);
    let mut levels = Vec::with_capacity(n);
    for i in 0..n {
        levels.push(if i == me.index() { own } else { rest.pop()? });
    }
    let forms = (0..n)
        .map(|_| {
            if rng.random_bool(0.5) {
                Form::At
            } else {
                Form::Pt
            }
        })
        .collect();
    Some(InstinctUse::FoolWise { levels, forms })
}
