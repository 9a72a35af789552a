//! The one place Forest Showdown input is judged: which moves each phase
//! accepts, and a small check for each. It reads the world and never
//! changes it, so a refused action leaves the table as it was. Refusals
//! are typed; their words are at the bottom.

use bevy_ecs::prelude::*;
use bevy_state::prelude::*;

use super::deck::{CardId, deck};
use super::state::*;
use crate::table::{Moves, SeatId, Seats};

/// The kinds of move, one per action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    AskShowdown,
    Challenge,
    PlayCard,
}

impl crate::table::Moves for ForestAction {
    type Move = Move;

    fn kind(&self) -> Move {
        match self {
            ForestAction::AskShowdown { .. } => Move::AskShowdown,
            ForestAction::Challenge { .. } => Move::Challenge,
            ForestAction::PlayCard { .. } => Move::PlayCard,
        }
    }
}

/// What each phase accepts (seed: "Play", "Showdown").
pub fn moves(phase: ForestPhase) -> &'static [Move] {
    match phase {
        ForestPhase::Turn => &[Move::AskShowdown, Move::Challenge],
        ForestPhase::Showdown => &[Move::PlayCard],
        ForestPhase::Idle | ForestPhase::GameOver => &[],
    }
}

/// Why a move is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    NotStarted,
    GameOver,
    ShowdownUnderWay,
    ChallengeOnYourTurn,
    NoShowdown,
    NotYourTurn,
    UnknownSeat(SeatId),
    NotYourself,
    HoldsNoCards(SeatId),
    OpeningShowdown,
    NotHolding(CardId),
    Card(ChallengeRefusal),
    NotInShowdown,
    AlreadyLaid,
}

fn hand(world: &World, seat: SeatId) -> &[CardId] {
    let entity = world.resource::<SeatEntities>().get(seat);
    &world.get::<Hand>(entity).expect("every seat has a hand").0
}

fn check_target(world: &World, seat: SeatId, target: SeatId) -> Result<(), Refusal> {
    if !world.resource::<Seats>().contains(target) {
        return Err(Refusal::UnknownSeat(target));
    }
    if target == seat {
        return Err(Refusal::NotYourself);
    }
    if hand(world, target).is_empty() {
        return Err(Refusal::HoldsNoCards(target));
    }
    Ok(())
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

/// The verdict on a move, typed (`news::refusal` words it).
pub fn judge(world: &World, seat: SeatId, action: &ForestAction) -> Result<(), Refusal> {
    let phase = *world.resource::<State<ForestPhase>>().get();
    match phase {
        ForestPhase::Idle => return Err(Refusal::NotStarted),
        ForestPhase::GameOver => return Err(Refusal::GameOver),
        ForestPhase::Turn | ForestPhase::Showdown => {}
    }
    if !moves(phase).contains(&action.kind()) {
        return Err(match action.kind() {
            Move::AskShowdown => Refusal::ShowdownUnderWay,
            Move::Challenge => Refusal::ChallengeOnYourTurn,
            Move::PlayCard => Refusal::NoShowdown,
        });
    }
    match *action {
        ForestAction::AskShowdown { target } => ask_showdown(world, seat, target),
        ForestAction::Challenge {
            target,
            named,
            with,
        } => challenge(world, seat, target, named, with),
        ForestAction::PlayCard { card } => play_card(world, seat, card),
    }
}

/// Every move `seat` might make now (`Game::candidates`): a showdown
/// asked of any seat; a challenge of any seat, naming any card, with any
/// card of its hand; any card laid in a showdown. The judge picks.
pub fn candidates(world: &World, seat: SeatId) -> Vec<ForestAction> {
    let phase = *world.resource::<State<ForestPhase>>().get();
    let seats: Vec<SeatId> = world.resource::<Seats>().ids().collect();
    let mut out = Vec::new();
    for kind in moves(phase) {
        match kind {
            Move::AskShowdown => {
                out.extend(
                    seats
                        .iter()
                        .map(|&target| ForestAction::AskShowdown { target }),
                );
            }
            Move::Challenge => {
                for &with in hand(world, seat) {
                    for named in deck().ids() {
                        out.extend(seats.iter().map(|&target| ForestAction::Challenge {
                            target,
                            named,
                            with,
                        }));
                    }
                }
            }
            Move::PlayCard => out.extend(deck().ids().map(|card| ForestAction::PlayCard { card })),
        }
    }
    out
}

fn ask_showdown(world: &World, seat: SeatId, target: SeatId) -> Result<(), Refusal> {
    if world.resource::<Turn>().active != seat {
        return Err(Refusal::NotYourTurn);
    }
    check_target(world, seat, target)
}

fn challenge(
    world: &World,
    seat: SeatId,
    target: SeatId,
    named: CardId,
    with: CardId,
) -> Result<(), Refusal> {
    let turn = world.resource::<Turn>();
    if turn.active != seat {
        return Err(Refusal::NotYourTurn);
    }
    if turn.opening {
        return Err(Refusal::OpeningShowdown);
    }
    check_target(world, seat, target)?;
    if !hand(world, seat).contains(&with) {
        return Err(Refusal::NotHolding(with));
    }
    challenge_cards(
        with,
        named,
        turn.death_decay_challenges > 0,
        turn.death_decay_captures > 0,
    )
    .map_err(Refusal::Card)
}

fn play_card(world: &World, seat: SeatId, card: CardId) -> Result<(), Refusal> {
    let Some(pending) = world.resource::<Showdown>().0.as_ref() else {
        return Err(Refusal::NoShowdown);
    };
    match pending.choice(seat) {
        None => Err(Refusal::NotInShowdown),
        Some(Some(_)) => Err(Refusal::AlreadyLaid),
        Some(None) if !hand(world, seat).contains(&card) => Err(Refusal::NotHolding(card)),
        Some(None) => Ok(()),
    }
}
