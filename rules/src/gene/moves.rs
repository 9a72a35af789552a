//! The one place a Gene Survival action is judged: what each phase
//! accepts (`out_of_phase` names the real reason for the rest), and a check
//! for each move. It reads the world and never changes it.

use bevy_ecs::prelude::*;
use bevy_state::prelude::*;

use super::free::audience;
use super::game::GeneGame;
use super::map::{ItemKind, RoomFunction, RoomId, map};
use super::settle::numbers;
use super::state::*;
use crate::table::{Rejection, SeatId, Settings};

pub(crate) use crate::table::{Seated, seat_part as part};

/// Whether the seat has used as many state-changing cards this round as
/// the table allows (setting `state_cards`; 0 = no limit).
pub fn state_cards_spent(world: &World, seat: SeatId) -> bool {
    let at = Seated::new(world);
    let limit = world.resource::<Settings<GeneGame>>().0.state_cards;
    limit > 0 && at.get::<Doings>(seat).state_cards >= limit
}

/// Every floor a living player may still vote for.
pub fn open_floors(world: &World) -> Vec<super::map::FloorId> {
    let gassed = &world.resource::<Gassed>().0;
    map()
        .floors()
        .into_iter()
        .filter(|f| !gassed.contains(f))
        .collect()
}

/// Who hears `seat` talk now, or why nobody does.
pub fn hearers(world: &World, seat: SeatId) -> Result<Vec<SeatId>, Refusal> {
    let at = Seated::new(world);
    let phase = *world.resource::<State<GenePhase>>().get();
    audience(
        phase,
        seat,
        world.resource::<Calendar>().active(),
        |s| at.get::<Doings>(s).acted,
        at.seats.iter().map(|(s, _)| s),
    )
    .ok_or(Refusal::AloneInActionRoom)
}

/// The one place a Gene Survival action is judged; the refusal in words.
pub fn check(world: &World, seat: SeatId, action: &GeneAction) -> Result<(), Rejection> {
    judge(world, seat, action).map_err(super::news::refusal)
}

/// The judge: why the action is refused, if it is.
pub fn judge(world: &World, seat: SeatId, action: &GeneAction) -> Result<(), Refusal> {
    let at = Seated::new(world);
    let phase = *world.resource::<State<GenePhase>>().get();
    if let Some(refusal) = out_of_phase(phase, action) {
        return Err(refusal);
    }
    let hand = at.get::<Hand>(seat);
    let panel = at.get::<Panel>(seat);
    let vitals = at.get::<Vitals>(seat);
    let place = at.get::<Place>(seat);
    let doings = at.get::<Doings>(seat);
    let calendar = world.resource::<Calendar>();
    if phase == GenePhase::Action && hand.must_drop > 0 {
        // 「将持有的道具卡数量调整至负重范围内」 comes first.
        match action {
            GeneAction::Discard { kind } if hand.cards.contains(kind) => return Ok(()),
            GeneAction::Discard { .. } => {
                return Err(Refusal::NoSuchCard);
            }
            GeneAction::Chat { .. } => {}
            _ => {
                let n = hand.must_drop;
                return Err(Refusal::OverCarry { n });
            }
        }
    }
    let offers = world.resource::<TradeOffers>();
    let count = at.seats.0.len();
    match (phase, action) {
        (GenePhase::Setup, GeneAction::Prepare { genes, spawn }) => {
            if panel.genes.is_some() {
                return Err(Refusal::PreparedAlready);
            }
            genes.check(numbers().gene_points).map_err(Refusal::Genes)?;
            if spawn.0 as usize >= map().rooms.len() {
                return Err(Refusal::NoSuchRoom);
            }
            if *spawn == map().morgue() {
                return Err(Refusal::SpawnInMorgue);
            }
            Ok(())
        }
        (_, GeneAction::Chat { text }) => {
            let chars = text.chars().count();
            if chars == 0 || chars > CHAT_CHARS {
                return Err(Refusal::ChatLength);
            }
            if text.chars().any(char::is_control) {
                return Err(Refusal::ChatControl);
            }
            if phase == GenePhase::Idle {
                return Err(Refusal::NotNow);
            }
            hearers(world, seat).map(|_| ())
        }
        (
            GenePhase::Free,
            GeneAction::Offer {
                to,
                give,
                want,
                swap_order,
            },
        ) => {
            if to.index() >= count || *to == seat {
                return Err(Refusal::OfferToAnother);
            }
            if give.is_empty() && want.is_empty() && !swap_order {
                return Err(Refusal::TradesNothing);
            }
            if give.len() > TRADE_CARDS || want.len() > TRADE_CARDS {
                return Err(Refusal::TooManyTradeCards);
            }
            let them = at.get::<Vitals>(*to);
            if (vitals.shadow || them.shadow) && !(give.is_empty() && want.is_empty()) {
                return Err(Refusal::ShadowTradesCards);
            }
            if !holds_all(&hand.cards, give) {
                return Err(Refusal::OfferNotHeld);
            }
            Ok(())
        }
        (GenePhase::Free, GeneAction::Accept { from }) => {
            let o = offers.to_answer(seat, *from)?;
            if !(holds_all(&at.get::<Hand>(o.from).cards, &o.give.cards)
                && holds_all(&at.get::<Hand>(o.to).cards, &o.want.cards))
            {
                return Err(Refusal::OfferStale);
            }
            Ok(())
        }
        (GenePhase::Free, GeneAction::Decline { from }) => {
            offers.to_answer(seat, *from)?;
            Ok(())
        }
        (GenePhase::Free, GeneAction::Withdraw { to }) => {
            offers.to_withdraw(seat, *to)?;
            Ok(())
        }
        (GenePhase::Free, GeneAction::Discard { kind }) => {
            // 「若持有的道具卡数量超过自身负重，则需要该阶段结束时调整至负重范围内」:
            // in the free phase only a player over the carry may drop
            // cards, and only down to it; and 「只能在可抽卡的房间进行」.
            if hand.cards.len() <= carry(panel, vitals) {
                return Err(Refusal::FreeDropWithinCarry);
            }
            leave_here(place, hand, *kind)
        }
        (GenePhase::Free, GeneAction::Ready) => {
            if doings.ready {
                Err(Refusal::ReadyAlready)
            } else {
                Ok(())
            }
        }
        (GenePhase::Action, a) => {
            if calendar.active() != Some(seat) {
                return Err(Refusal::NotYourTurn);
            }
            match a {
                GeneAction::Move { to } => {
                    if doings.moved {
                        return Err(Refusal::MovedAlready);
                    }
                    let from = place.0.expect("a player in play has a room");
                    if !map()
                        .destinations(from, speed(panel, doings), vitals.shadow)
                        .contains(to)
                    {
                        return Err(Refusal::OutOfReach);
                    }
                    Ok(())
                }
                GeneAction::Use { kind, room } => check_use(world, seat, *kind, *room),
                _ if !doings.moved => Err(Refusal::MoveFirst),
                GeneAction::Take { kind } => {
                    if vitals.shadow {
                        return Err(Refusal::ShadowTakes);
                    }
                    if doings.drew {
                        return Err(Refusal::DrewAlready);
                    }
                    let room = place.0.expect("placed");
                    let piles = &world.resource::<Piles>().0;
                    if !piles.get(&room).is_some_and(|p| p.contains(kind)) {
                        return Err(Refusal::NotLyingHere);
                    }
                    Ok(())
                }
                GeneAction::Surgery { genes } => {
                    let old = panel.genes.expect("prepared");
                    if vitals.shadow {
                        return Err(Refusal::ShadowUsesRoom);
                    }
                    if map().room(place.0.expect("placed")).function != Some(RoomFunction::Surgery)
                    {
                        return Err(Refusal::NotInSurgery);
                    }
                    if panel.operated {
                        return Err(Refusal::SurgeryDone);
                    }
                    genes.check(numbers().gene_points).map_err(Refusal::Genes)?;
                    let moved = old.strength.abs_diff(genes.strength)
                        + old.speed.abs_diff(genes.speed)
                        + old.carry.abs_diff(genes.carry);
                    if moved / 2 > SURGERY_POINTS || moved == 0 {
                        return Err(Refusal::SurgeryPoints);
                    }
                    Ok(())
                }
                GeneAction::Discard { kind } => leave_here(place, hand, *kind),
                GeneAction::Draw { kind } => {
                    if vitals.shadow {
                        return Err(Refusal::ShadowDraws);
                    }
                    if doings.drew {
                        return Err(Refusal::DrewAlready);
                    }
                    let room = map().room(place.0.expect("placed"));
                    if !room.draws.contains(kind) {
                        return Err(Refusal::RoomDoesNotGive);
                    }
                    if !world.resource::<Supply>().0.contains(kind) {
                        return Err(Refusal::NoneLeft);
                    }
                    Ok(())
                }
                GeneAction::Vote { floor } => {
                    if vitals.shadow {
                        return Err(Refusal::ShadowVotes);
                    }
                    if !map().floors().contains(floor) {
                        return Err(Refusal::NoSuchFloor);
                    }
                    if world.resource::<Gassed>().0.contains(floor) {
                        return Err(Refusal::FloorGassed);
                    }
                    Ok(())
                }
                GeneAction::EndTurn => {
                    // With every floor gassed there is nothing to vote for
                    // (rules.md §5).
                    if vitals.shadow || open_floors(world).is_empty() {
                        Ok(())
                    } else {
                        Err(Refusal::EndByVoting)
                    }
                }
                _ => Err(Refusal::NotNow),
            }
        }
        _ => Err(Refusal::NotNow),
    }
}

/// A card may be left only in a room that gives cards (「只能在可抽卡的房间
/// 进行」), and only a card the player holds.
fn leave_here(place: &Place, hand: &Hand, kind: ItemKind) -> Result<(), Refusal> {
    if place.0.is_none_or(|r| map().room(r).draws.is_empty()) {
        return Err(Refusal::LeaveOnlyWhereDrawn);
    }
    if !hand.cards.contains(&kind) {
        return Err(Refusal::NoSuchCard);
    }
    Ok(())
}

fn check_use(
    world: &World,
    seat: SeatId,
    kind: ItemKind,
    room: Option<RoomId>,
) -> Result<(), Refusal> {
    let at = Seated::new(world);
    let vitals = at.get::<Vitals>(seat);
    let doings = at.get::<Doings>(seat);
    if vitals.shadow {
        return Err(Refusal::ShadowHoldsNoCards);
    }
    if !at.get::<Hand>(seat).cards.contains(&kind) {
        return Err(Refusal::NoSuchCard);
    }
    match kind {
        ItemKind::Water | ItemKind::Food | ItemKind::Gold => Err(Refusal::NotUsable),
        ItemKind::Adrenaline if doings.moved => Err(Refusal::AdrenalineAfterMove),
        // 「移动完毕后，可进行相应行动」: cards are used after moving
        // (adrenaline, which adds steps, is the written exception).
        ItemKind::Medicine | ItemKind::Alcohol | ItemKind::Rocket if !doings.moved => {
            Err(Refusal::MoveFirst)
        }
        ItemKind::Medicine | ItemKind::Alcohol | ItemKind::Adrenaline
            if state_cards_spent(world, seat) =>
        {
            let n = world.resource::<Settings<GeneGame>>().0.state_cards;
            Err(Refusal::StateCardsSpent { n })
        }
        ItemKind::Rocket => match room {
            Some(r) if (r.0 as usize) < map().rooms.len() => Ok(()),
            _ => Err(Refusal::RocketNeedsRoom),
        },
        _ => Ok(()),
    }
}
