//! What one seat is sent (or the host, with `None`): its own secrets and
//! what the rules announce, nothing more.

use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

use super::action;
use super::map::{FloorId, ItemKind, RoomId, map};
use super::moves::{self, part};
use super::outcome::{phase, result};
use super::settings::GeneTimer;
use super::settle::Genes;
use super::state::*;
use crate::table::{Deadlines, GameResult, SeatId, Seats, TableClock};

/// What one seat may know.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GeneView {
    pub me: Option<SeatId>,
    /// Everyone's name, by seat.
    pub names: Vec<String>,
    pub phase: GenePhase,
    pub round: u8,
    /// Everyone's HP as last announced (public after each settlement).
    pub hp: Vec<i32>,
    pub shadows: Vec<bool>,
    pub gassed: Vec<FloorId>,
    pub to_act: bool,
    /// The viewer's own secrets.
    pub genes: Option<Genes>,
    pub room: Option<RoomId>,
    pub hand: Vec<ItemKind>,
    pub moved: bool,
    pub drew: bool,
    /// The viewer said it is ready (free phase).
    pub ready: bool,
    /// The viewer may use no more state-changing cards this round.
    pub changed_state: bool,
    /// Cards the viewer must leave in its room before doing anything else
    /// (a draw, a take or a surgery put it over its carry).
    pub must_drop: u8,
    /// Whether the viewer may leave a card in its room now.
    pub can_discard: bool,
    /// Where the viewer may move now.
    pub destinations: Vec<RoomId>,
    pub can_draw: Vec<ItemKind>,
    /// Cards lying in the viewer's room that it may take instead of drawing.
    pub can_take: Vec<ItemKind>,
    pub open_floors: Vec<FloorId>,
    pub result: Option<GameResult>,
    /// The viewer's order card this round (1 = first), once dealt.
    pub order_card: Option<u8>,
    /// The action order, public once the action phase begins (players
    /// walk into the action room one at a time).
    pub order: Vec<SeatId>,
    /// Who has acted this round (public in the action phase).
    pub acted: Vec<bool>,
    /// The player in the action room.
    pub active: Option<SeatId>,
    /// Trades the viewer made or was offered, unanswered.
    pub offers: Vec<Offer>,
    /// Cards lying in the viewer's room (it stands there and sees them).
    pub lying: Vec<ItemKind>,
    /// Where the viewer can get this round and the steps each costs.
    pub reach: Vec<(RoomId, u32)>,
    /// The viewer's speed and carry now (cards included).
    pub speed: u32,
    pub carry: usize,
    /// The viewer, a shadow: HP drained so far; revived: immune this round.
    pub drained: i32,
    pub immune: bool,
    /// The viewer's gas vote this round.
    pub vote: Option<FloorId>,
    /// Who the viewer's words reach now (empty: nobody).
    pub audience: Vec<SeatId>,
    /// When the running clock runs out (table time), and the time now.
    pub deadline_ms: Option<u64>,
    pub now_ms: u64,
    /// The last settlement, line by line (public).
    pub settlement: Vec<SettleLine>,
    /// The viewer's own battles: round, room, HP they cost it.
    pub fought: Vec<(u8, RoomId, i32)>,
}

/// Kinds of card lying in the seat's room.
fn lying_here(world: &World, seat: SeatId) -> Vec<ItemKind> {
    let Some(r) = part::<Place>(world, seat).0 else {
        return Vec::new();
    };
    let kinds: std::collections::BTreeSet<ItemKind> = world
        .resource::<Piles>()
        .0
        .get(&r)
        .into_iter()
        .flatten()
        .copied()
        .collect();
    kinds.into_iter().collect()
}

/// Kinds of card the seat's room gives that the supply still has.
fn kinds_here(world: &World, seat: SeatId) -> Vec<ItemKind> {
    let Some(r) = part::<Place>(world, seat).0 else {
        return Vec::new();
    };
    let supply = &world.resource::<Supply>().0;
    map()
        .room(r)
        .draws
        .iter()
        .copied()
        .filter(|k| supply.contains(k))
        .collect()
}

/// The names, the viewer's hand and the settlement, copied into the
/// lists `view` holds (their room kept).
fn kept_lists(
    world: &World,
    hand_now: Option<&Hand>,
    view: &mut GeneView,
) -> (Vec<String>, Vec<ItemKind>, Vec<SettleLine>) {
    let mut names = std::mem::take(&mut view.names);
    names.clone_from(&world.resource::<Seats>().names);
    let mut hand = std::mem::take(&mut view.hand);
    match hand_now {
        Some(h) => hand.clone_from(&h.cards),
        None => hand.clear(),
    }
    let mut settlement = std::mem::take(&mut view.settlement);
    settlement.clone_from(&world.resource::<Report>().0);
    (names, hand, settlement)
}

/// What a seat may know ([`Game::view`](crate::table::Game::view)), written
/// over a view the caller already holds: the names, the seats' lists, the
/// hand and the settlement keep their room (a bot reads its seat's view at
/// every move).
pub fn view_into(world: &World, seat: Option<SeatId>, waiting: &[SeatId], view: &mut GeneView) {
    let phase = phase(world);
    let at = moves::Seated::new(world);
    let seats = at.seats;
    let calendar = world.resource::<Calendar>();
    let every = |f: &dyn Fn(SeatId) -> bool| seats.iter().map(|(s, _)| f(s)).collect::<Vec<_>>();
    let to_act = seat.is_some_and(|s| waiting.contains(&s));
    let mine = seat.map(|s| {
        (
            at.get::<Panel>(s),
            at.get::<Vitals>(s),
            at.get::<Place>(s),
            at.get::<Hand>(s),
            at.get::<Doings>(s),
        )
    });
    let moved = mine.is_some_and(|m| m.4.moved);
    let (names, hand, settlement) = kept_lists(world, mine.map(|m| m.3), view);
    *view = GeneView {
        me: seat,
        names,
        phase,
        round: calendar.round,
        hp: seats
            .iter()
            .map(|(s, _)| at.get::<Vitals>(s).public_hp)
            .collect(),
        shadows: every(&|s| at.get::<Vitals>(s).shadow),
        gassed: world.resource::<Gassed>().0.clone(),
        to_act,
        genes: mine.and_then(|m| m.0.genes),
        room: mine.and_then(|m| m.2.0),
        hand,
        moved,
        drew: mine.is_some_and(|m| m.4.drew),
        ready: mine.is_some_and(|m| m.4.ready),
        changed_state: seat.is_some_and(|s| moves::state_cards_spent(world, s)),
        must_drop: mine.map_or(0, |m| m.3.must_drop),
        can_discard: match (seat, mine.and_then(|m| m.3.cards.first())) {
            (Some(s), Some(&kind)) => moves::judge(world, s, &GeneAction::Discard { kind }).is_ok(),
            _ => false,
        },
        destinations: match (mine, to_act && phase == GenePhase::Action && !moved) {
            (Some((panel, vitals, place, _, doings)), true) => {
                action::destinations(place, panel, vitals, doings)
            }
            _ => Vec::new(),
        },
        can_draw: match (seat, mine) {
            (Some(s), Some(m)) if to_act && moved && !m.4.drew && !m.1.shadow => {
                kinds_here(world, s)
            }
            _ => Vec::new(),
        },
        can_take: match (seat, mine) {
            (Some(s), Some(m)) if to_act && moved && !m.4.drew && !m.1.shadow => {
                lying_here(world, s)
            }
            _ => Vec::new(),
        },
        open_floors: moves::open_floors(world),
        result: result(world),
        order_card: seat
            .and_then(|s| calendar.order.iter().position(|o| *o == s))
            .map(|n| n as u8 + 1),
        order: if matches!(phase, GenePhase::Action) {
            calendar.order.clone()
        } else {
            Vec::new()
        },
        acted: every(&|s| at.get::<Doings>(s).acted),
        active: match phase {
            GenePhase::Action => calendar.active(),
            _ => None,
        },
        offers: match seat {
            Some(s) => world.resource::<TradeOffers>().involving(s),
            None => Vec::new(),
        },
        // The room as the viewer last saw it: live while it acts there, else
        // as it was after its last act (issue 35 E).
        lying: match (seat, mine.and_then(|m| m.2.0)) {
            (Some(_), Some(r)) if to_act => world
                .resource::<Piles>()
                .0
                .get(&r)
                .cloned()
                .unwrap_or_default(),
            (Some(s), Some(_)) => part::<SeenPile>(world, s).0.clone(),
            _ => Vec::new(),
        },
        reach: match mine {
            Some((panel, vitals, place, _, doings))
                if place.0.is_some() && phase != GenePhase::GameOver =>
            {
                let from = place.0.expect("checked");
                map()
                    .reach(from, speed(panel, doings), vitals.shadow)
                    .filter(|(r, _)| *r != from)
                    .collect()
            }
            _ => Vec::new(),
        },
        speed: mine.map_or(0, |m| speed(m.0, m.4)),
        carry: mine.map_or(0, |m| carry(m.0, m.1)),
        drained: mine.map_or(0, |m| m.1.drained),
        immune: mine.is_some_and(|m| m.1.immune),
        vote: mine.and_then(|m| m.4.vote),
        audience: seat
            .and_then(|s| moves::hearers(world, s).ok())
            .unwrap_or_default(),
        deadline_ms: world
            .resource::<Deadlines<GeneTimer>>()
            .pending
            .iter()
            .map(|d| d.at_ms)
            .min(),
        now_ms: world.resource::<TableClock>().now_ms,
        settlement,
        fought: seat
            .map(|s| at.get::<Battles>(s).0.clone())
            .unwrap_or_default(),
    };
}

crate::seat_view!(GeneView);
