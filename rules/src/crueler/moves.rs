//! The judge: which moves each phase accepts, and for each move a small
//! check over the world, read-only (rules.md §2, §8-§10). A refusal is a
//! typed [`Refusal`]; its words are written once, at the bottom.

use bevy_ecs::prelude::*;
use bevy_state::prelude::*;

use super::settings::CruelerGame;
use super::state::*;
use crate::table::{Moves, SeatEntities, SeatId, Settings, TradeRefusal};

/// The kinds of move, one per action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Ready,
    OfferLife,
    Accept,
    Decline,
    Withdraw,
    GiveCard,
    Prey,
    Pass,
    Choose,
}

impl crate::table::Moves for CruelerAction {
    type Move = Move;

    fn kind(&self) -> Move {
        match self {
            CruelerAction::Ready => Move::Ready,
            CruelerAction::OfferLife { .. } => Move::OfferLife,
            CruelerAction::Accept { .. } => Move::Accept,
            CruelerAction::Decline { .. } => Move::Decline,
            CruelerAction::Withdraw { .. } => Move::Withdraw,
            CruelerAction::GiveCard { .. } => Move::GiveCard,
            CruelerAction::Prey { .. } => Move::Prey,
            CruelerAction::Pass => Move::Pass,
            CruelerAction::Choose { .. } => Move::Choose,
        }
    }
}

/// What each phase accepts (rules.md §2: life changes hands only between
/// predation phases; §8: an eliminated player may give predator cards
/// away, but not in the middle of a duel).
pub fn moves(phase: CruelerPhase) -> &'static [Move] {
    use Move::*;
    match phase {
        CruelerPhase::Interlude => &[Ready, OfferLife, Accept, Decline, Withdraw, GiveCard],
        CruelerPhase::Predation => &[Prey, Pass, GiveCard],
        CruelerPhase::Duel => &[Choose],
        CruelerPhase::Idle | CruelerPhase::GameOver => &[],
    }
}

/// The most life one side of a trade may name.
pub const MAX_TRADE: u32 = 50;

/// Why a move is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    GameOver,
    NotYourTurn,
    NotNow,
    OnlyBetweenPhases,
    Eliminated,
    OnlyEliminatedGive,
    NotDuringDuel,
    NameAnother,
    GiveToLiving,
    NoSuchCard,
    UselessCard,
    AlreadyReady,
    TargetOut,
    TradesNothing,
    TooMuch,
    HoldOnly(i64),
    EmptyBox,
    Unaffordable,
    Trade(TradeRefusal),
    CardGone(SeatId),
    InReserve,
    NoDuel,
    NotInDuel,
    ChosenAlready,
    DiceNeedNoChoice,
}

impl From<TradeRefusal> for Refusal {
    fn from(r: TradeRefusal) -> Self {
        Refusal::Trade(r)
    }
}

pub(crate) use crate::table::seat_part as part;

pub(crate) fn alive(world: &World, seat: SeatId) -> bool {
    part::<Standing>(world, seat).alive
}

pub(crate) fn life(world: &World, seat: SeatId) -> i32 {
    part::<LifeBox>(world, seat).life()
}

/// The duel under way, if any.
pub(crate) fn duel(world: &World) -> Option<&Duel> {
    world.get::<Duel>(world.resource::<Dueling>().0?)
}

/// Whether both boxes can pay their side of a life trade and neither ends
/// empty: each side gives from what its box holds, and only a trade that
/// would leave a box with nothing is refused (rules.md §2).
pub fn affordable(from_life: i32, to_life: i32, o: &LifeOffer) -> bool {
    let (from, to) = (i64::from(from_life), i64::from(to_life));
    let (give, want) = (i64::from(o.give), i64::from(o.want));
    give <= from && want <= to && from - give + want > 0 && to + give - want > 0
}

/// Whom `seat` may prey on now, by the cards it holds.
pub fn targets(world: &World, seat: SeatId) -> Vec<SeatId> {
    let reserve = world.resource::<Calendar>().reserve_open();
    let mut t: Vec<SeatId> = part::<PredatorCards>(world, seat)
        .0
        .iter()
        .copied()
        .filter(|&s| s != seat && alive(world, s) && !(reserve && part::<InReserve>(world, s).0))
        .collect();
    t.sort();
    t.dedup();
    t
}

/// The one place a Crueler World action is judged.
pub fn check(world: &World, seat: SeatId, action: &CruelerAction) -> Result<(), Refusal> {
    let phase = *world.resource::<State<CruelerPhase>>().get();
    if moves(phase).is_empty() {
        return Err(Refusal::GameOver);
    }
    let kind = action.kind();
    // An eliminated player only gives predator cards away (rules.md §8).
    if kind != Move::GiveCard && !alive(world, seat) {
        return Err(Refusal::Eliminated);
    }
    if !moves(phase).contains(&kind) {
        return Err(match kind {
            Move::GiveCard if alive(world, seat) => Refusal::OnlyEliminatedGive,
            Move::GiveCard => Refusal::NotDuringDuel,
            Move::OfferLife | Move::Accept => Refusal::OnlyBetweenPhases,
            _ => Refusal::NotNow,
        });
    }
    match *action {
        CruelerAction::Ready => ready(world, seat),
        CruelerAction::OfferLife { to, give, want } => offer_life(world, seat, to, give, want),
        CruelerAction::Accept { from } => accept(world, seat, from),
        CruelerAction::Decline { from } => {
            world.resource::<LifeOffers>().to_answer(seat, from)?;
            Ok(())
        }
        CruelerAction::Withdraw { to } => {
            world.resource::<LifeOffers>().to_withdraw(seat, to)?;
            Ok(())
        }
        CruelerAction::GiveCard { to, card } => give_card(world, seat, to, card),
        CruelerAction::Prey { target } => prey(world, seat, target),
        CruelerAction::Pass => asked(world, seat),
        CruelerAction::Choose { .. } => choose(world, seat),
    }
}

/// Every move `seat` might make now (`Game::candidates`): each seat named
/// as prey, offeree, giver or receiver, each predator card given, each
/// beast; a life offer in its plainest form (asking one point, giving
/// none). The judge picks.
pub fn candidates(world: &World, seat: SeatId) -> Vec<CruelerAction> {
    let phase = *world.resource::<State<CruelerPhase>>().get();
    let seats: Vec<SeatId> = (0..world.resource::<SeatEntities>().0.len())
        .map(|i| SeatId(i as u8))
        .collect();
    let cards = &part::<PredatorCards>(world, seat).0;
    let mut out = Vec::new();
    for kind in moves(phase) {
        match kind {
            Move::Ready => out.push(CruelerAction::Ready),
            Move::Pass => out.push(CruelerAction::Pass),
            Move::Choose => out.extend(Beast::ALL.map(|beast| CruelerAction::Choose { beast })),
            Move::GiveCard => {
                for &card in cards {
                    out.extend(seats.iter().map(|&to| CruelerAction::GiveCard { to, card }));
                }
            }
            _ => {}
        }
        for &s in &seats {
            out.push(match kind {
                Move::Prey => CruelerAction::Prey { target: s },
                Move::OfferLife => CruelerAction::OfferLife {
                    to: s,
                    give: 0,
                    want: 1,
                },
                Move::Accept => CruelerAction::Accept { from: s },
                Move::Decline => CruelerAction::Decline { from: s },
                Move::Withdraw => CruelerAction::Withdraw { to: s },
                _ => break,
            });
        }
    }
    out
}

fn another(world: &World, seat: SeatId, other: SeatId) -> Result<(), Refusal> {
    if other == seat || other.index() >= world.resource::<SeatEntities>().0.len() {
        return Err(Refusal::NameAnother);
    }
    Ok(())
}

fn ready(world: &World, seat: SeatId) -> Result<(), Refusal> {
    if part::<Ready>(world, seat).0 {
        return Err(Refusal::AlreadyReady);
    }
    Ok(())
}

fn offer_life(
    world: &World,
    seat: SeatId,
    to: SeatId,
    give: u32,
    want: u32,
) -> Result<(), Refusal> {
    another(world, seat, to)?;
    if !alive(world, to) {
        return Err(Refusal::TargetOut);
    }
    if give == 0 && want == 0 {
        return Err(Refusal::TradesNothing);
    }
    if want > MAX_TRADE || give > MAX_TRADE {
        return Err(Refusal::TooMuch);
    }
    let mine = i64::from(life(world, seat));
    if i64::from(give) > mine {
        return Err(Refusal::HoldOnly(mine));
    }
    if mine - i64::from(give) + i64::from(want) <= 0 {
        return Err(Refusal::EmptyBox);
    }
    Ok(())
}

fn accept(world: &World, seat: SeatId, from: SeatId) -> Result<(), Refusal> {
    let o = world.resource::<LifeOffers>().to_answer(seat, from)?;
    if !affordable(life(world, o.from), life(world, o.to), o) {
        return Err(Refusal::Unaffordable);
    }
    Ok(())
}

fn give_card(world: &World, seat: SeatId, to: SeatId, card: SeatId) -> Result<(), Refusal> {
    if alive(world, seat) {
        return Err(Refusal::OnlyEliminatedGive);
    }
    another(world, seat, to)?;
    if !alive(world, to) {
        return Err(Refusal::GiveToLiving);
    }
    if !part::<PredatorCards>(world, seat).0.contains(&card) {
        return Err(Refusal::NoSuchCard);
    }
    if card == to || !alive(world, card) {
        return Err(Refusal::UselessCard);
    }
    Ok(())
}

fn asked(world: &World, seat: SeatId) -> Result<(), Refusal> {
    if world.resource::<Asking>().asked() != Some(seat) {
        return Err(Refusal::NotYourTurn);
    }
    Ok(())
}

fn prey(world: &World, seat: SeatId, target: SeatId) -> Result<(), Refusal> {
    asked(world, seat)?;
    another(world, seat, target)?;
    if !alive(world, target) {
        return Err(Refusal::TargetOut);
    }
    if !part::<PredatorCards>(world, seat).0.contains(&target) {
        return Err(Refusal::CardGone(target));
    }
    if world.resource::<Calendar>().reserve_open() && part::<InReserve>(world, target).0 {
        return Err(Refusal::InReserve);
    }
    Ok(())
}

fn choose(world: &World, seat: SeatId) -> Result<(), Refusal> {
    let Some(d) = duel(world) else {
        return Err(Refusal::NoDuel);
    };
    match d.side(seat) {
        None => Err(Refusal::NotInDuel),
        Some(i) if d.choice[i].is_some() => Err(Refusal::ChosenAlready),
        Some(_) if world.resource::<Settings<CruelerGame>>().0.duel == DuelKind::Dice => {
            Err(Refusal::DiceNeedNoChoice)
        }
        Some(_) => Ok(()),
    }
}
