//! The one place Forest Showdown input is judged. It reads the world and
//! never changes it, so a refused action leaves the table as it was.

use bevy_ecs::prelude::*;
use bevy_state::prelude::*;

use super::deck::{CardId, deck};
use super::state::*;
use super::table::{card_name, seat_name};
use crate::table::{Rejection, SeatId, Seats};

fn hand(world: &World, seat: SeatId) -> &[CardId] {
    let entity = world.resource::<SeatEntities>().get(seat);
    &world.get::<Hand>(entity).expect("every seat has a hand").0
}

fn check_target(world: &World, seat: SeatId, target: SeatId) -> Result<(), Rejection> {
    let seats = world.resource::<Seats>();
    if !seats.contains(target) {
        return Err(Rejection::unknown_seat(target));
    }
    if target == seat {
        return Err(Rejection::new(
            "choose another player, not yourself",
            "请选择其他玩家，不能选自己",
        ));
    }
    if hand(world, target).is_empty() {
        let t = seat_name(seats, target);
        return Err(Rejection::new(
            format!("{} holds no cards", t.en),
            format!("{}手上没有牌", t.zh),
        ));
    }
    Ok(())
}

fn not_holding(card: CardId) -> Rejection {
    let n = card_name(card);
    Rejection::new(
        format!("you do not hold {}", n.en),
        format!("你手上没有{}", n.zh),
    )
}

/// The card rules of a challenge, which a seat can judge from its own view
/// (tables use it to disable illegal choices, bots to avoid them): the
/// taking card must eat the named card (or be Death & Decay naming one of
/// its takers, `Deck::takes_in_challenge`); Death & Decay challenges once a
/// turn; one Death & Decay captured by challenge a turn.
pub fn challenge_cards(
    with: CardId,
    named: CardId,
    death_decay_challenge_used: bool,
    death_decay_captured: bool,
) -> Result<(), ChallengeRefusal> {
    let d = deck();
    if !d.takes_in_challenge(with, named) {
        return Err(ChallengeRefusal::DoesNotEat { with, named });
    }
    if d.is_death_decay(with) && death_decay_challenge_used {
        return Err(ChallengeRefusal::DeathDecayChallengeUsed);
    }
    if d.is_death_decay(named) && death_decay_captured {
        return Err(ChallengeRefusal::DeathDecayCaptured);
    }
    Ok(())
}

/// Why the card rules refuse a challenge. Typed, so that asking "is this
/// legal?" for every pair of cards (a table greying out choices, a bot
/// choosing) costs no text; the words come only when a refusal is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChallengeRefusal {
    DoesNotEat { with: CardId, named: CardId },
    DeathDecayChallengeUsed,
    DeathDecayCaptured,
}

impl From<ChallengeRefusal> for Rejection {
    fn from(refusal: ChallengeRefusal) -> Self {
        match refusal {
            ChallengeRefusal::DoesNotEat { with, named } => {
                let (w, n) = (card_name(with), card_name(named));
                Rejection::new(
                    format!("{} does not eat {}", w.en, n.en),
                    format!("{}不吃{}", w.zh, n.zh),
                )
            }
            ChallengeRefusal::DeathDecayChallengeUsed => Rejection::new(
                "Death & Decay may be used as a challenging card only once in a turn",
                "每回合只能用一次死亡与腐朽来挑战",
            ),
            ChallengeRefusal::DeathDecayCaptured => Rejection::new(
                "only one Death & Decay card may be captured by challenge in a turn",
                "每回合通过挑战最多只能夺取一张死亡与腐朽",
            ),
        }
    }
}

pub fn check(world: &World, seat: SeatId, action: &ForestAction) -> Result<(), Rejection> {
    let phase = *world.resource::<State<ForestPhase>>().get();
    match phase {
        ForestPhase::Idle => {
            return Err(Rejection::new("the game has not started", "游戏尚未开始"));
        }
        ForestPhase::GameOver => return Err(Rejection::game_over()),
        ForestPhase::Turn | ForestPhase::Showdown => {}
    }
    match *action {
        ForestAction::AskShowdown { target } => {
            if phase != ForestPhase::Turn {
                return Err(Rejection::new(
                    "a showdown is already under way",
                    "一场对决正在进行",
                ));
            }
            if world.resource::<Turn>().active != seat {
                return Err(Rejection::not_your_turn());
            }
            check_target(world, seat, target)
        }
        ForestAction::Challenge {
            target,
            named,
            with,
        } => {
            if phase != ForestPhase::Turn {
                return Err(Rejection::new(
                    "a showdown is under way; challenge on your turn",
                    "对决进行中；请在你的回合挑战",
                ));
            }
            let turn = world.resource::<Turn>();
            if turn.active != seat {
                return Err(Rejection::not_your_turn());
            }
            if turn.opening {
                return Err(Rejection::new(
                    "the round opens with a showdown: ask another player for one",
                    "本轮以对决开局：请向其他玩家发起对决",
                ));
            }
            check_target(world, seat, target)?;
            if !hand(world, seat).contains(&with) {
                return Err(not_holding(with));
            }
            challenge_cards(
                with,
                named,
                turn.death_decay_challenges > 0,
                turn.death_decay_captures > 0,
            )
            .map_err(Rejection::from)
        }
        ForestAction::PlayCard { card } => {
            let showdown = world.resource::<Showdown>();
            let Some(pending) = showdown
                .0
                .as_ref()
                .filter(|_| phase == ForestPhase::Showdown)
            else {
                return Err(Rejection::new(
                    "there is no showdown to play a card in",
                    "当前没有对决可以出牌",
                ));
            };
            match pending.choice(seat) {
                None => Err(Rejection::new(
                    "you are not in this showdown",
                    "你不在这场对决中",
                )),
                Some(Some(_)) => Err(Rejection::new(
                    "you have already laid down your card",
                    "你已经出过牌了",
                )),
                Some(None) if !hand(world, seat).contains(&card) => Err(not_holding(card)),
                Some(None) => Ok(()),
            }
        }
    }
}
