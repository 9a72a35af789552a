//! What one seat is sent (or the host, with `None`): its own secrets and
//! what the rules announce, nothing more.

use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

use super::free::audience;
use super::map::{FloorId, ItemKind, RoomId, map};
use super::moves::{self, part};
use super::outcome::{phase, result};
use super::settings::GeneTimer;
use super::settle::Genes;
use super::state::*;
use crate::table::{Deadlines, GameResult, SeatId, SeatName, Seats, TableClock, refill};

/// What one seat may know.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GeneView {
    pub me: Option<SeatId>,
    /// Everyone's name, by seat.
    pub names: Vec<SeatName>,
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
    /// The viewer's own lines of the last settlement: each change to its
    /// HP, why, and its HP after (what its notes said).
    pub mine: Vec<GeneChange>,
    /// Once the game is over, at a table that reveals its end: every seat
    /// in seat order (`table::end_revealed`); before, empty.
    pub revealed: Vec<GeneRevealed>,
    /// How the places were decided, with `revealed`.
    pub ranked_by: Option<RankedBy>,
}

/// One seat as the end reveals it (issue 71; rules.md §8): its gene
/// panel, the gold bars that became HP, the HP it was ranked by, its
/// place and its gold cubes (金魔方).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GeneRevealed {
    pub seat: SeatId,
    pub genes: Option<Genes>,
    /// Gold bars turned to HP after round 6 (「一金条可兑换一点生命值」).
    pub gold: i32,
    /// The HP it was ranked by: after the gold bars; when every player
    /// became a shadow, its HP at the end of the last round it ended
    /// alive (「根据各自生前一轮的生命值进行排名」).
    pub hp: i32,
    pub shadow: bool,
    pub place: u8,
    pub cubes: i64,
}

/// How the places were decided (rules.md §8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RankedBy {
    /// 「若任意轮次中只剩1名玩家存活，则该玩家直接获胜，游戏立即结束」.
    LastLiving(SeatId),
    /// After round 6: the living by HP (gold bars included), ties by
    /// strength; then the shadows, by their strength in life.
    Hp,
    /// 「若游戏途中所有玩家都成为暗影，则根据各自生前一轮的生命值进行排名」.
    AllShadows,
}

/// Every seat revealed, and how the places were decided, once the game
/// is over at a table that reveals its end; else nothing.
fn reveal_into(world: &World, at: &moves::Seated, view: &mut GeneView) {
    view.revealed.clear();
    view.ranked_by = None;
    if !crate::table::end_revealed::<super::GeneGame>(world) {
        return;
    }
    let Some(result) = result(world) else {
        return;
    };
    let all_shadows = at.seats.iter().all(|(s, _)| at.get::<Vitals>(s).shadow);
    view.ranked_by = Some(
        match view.settlement.iter().find_map(|l| match l.fact {
            SettleFact::LastLiving(s) => Some(s),
            _ => None,
        }) {
            Some(s) => RankedBy::LastLiving(s),
            None if all_shadows => RankedBy::AllShadows,
            None => RankedBy::Hp,
        },
    );
    view.revealed.extend(at.seats.iter().map(|(s, _)| {
        let v = at.get::<Vitals>(s);
        let gold = at
            .get::<Told>(s)
            .0
            .iter()
            .map(|c| match c.why {
                GeneWhy::Gold { bars } => bars,
                _ => 0,
            })
            .sum();
        GeneRevealed {
            seat: s,
            genes: at.get::<Panel>(s).genes,
            gold,
            hp: if all_shadows { v.last_round_hp } else { v.hp },
            shadow: v.shadow,
            place: result.places[s.index()],
            cubes: result.scores[s.index()],
        }
    }));
}

/// Kinds of card lying in room `r`, each once, in order.
fn lying_kinds(world: &World, r: RoomId, into: &mut Vec<ItemKind>) {
    refill(
        into,
        world
            .resource::<Piles>()
            .0
            .get(&r)
            .into_iter()
            .flatten()
            .copied(),
    );
    into.sort_unstable();
    into.dedup();
}

/// Kinds of card room `r` gives that the supply still has.
fn kinds_here(world: &World, r: RoomId, into: &mut Vec<ItemKind>) {
    let supply = &world.resource::<Supply>().0;
    refill(
        into,
        map()
            .room(r)
            .draws
            .iter()
            .copied()
            .filter(|k| supply.contains(k)),
    );
}

/// What a seat may know ([`Game::view`](crate::table::Game::view)), written
/// over a view the caller already holds: every list keeps its room (a bot
/// reads its seat's view at every move), and each seat's parts are read
/// once.
pub fn view_into(world: &World, seat: Option<SeatId>, waiting: &[SeatId], view: &mut GeneView) {
    let phase = phase(world);
    let at = moves::Seated::new(world);
    let calendar = world.resource::<Calendar>();
    let to_act = seat.is_some_and(|s| waiting.contains(&s));
    // Everyone's public HP, shadow and whether they acted, in seat order.
    view.hp.clear();
    view.shadows.clear();
    view.acted.clear();
    for (s, _) in at.seats.iter() {
        let vitals = at.get::<Vitals>(s);
        view.hp.push(vitals.public_hp);
        view.shadows.push(vitals.shadow);
        view.acted.push(at.get::<Doings>(s).acted);
    }
    view.names.clone_from(&world.resource::<Seats>().names);
    view.me = seat;
    view.phase = phase;
    view.round = calendar.round;
    let gassed = &world.resource::<Gassed>().0;
    view.gassed.clone_from(gassed);
    view.to_act = to_act;
    view.settlement.clone_from(&world.resource::<Report>().0);
    reveal_into(world, &at, view);
    refill(
        &mut view.open_floors,
        map()
            .floor_ids()
            .iter()
            .copied()
            .filter(|f| !gassed.contains(f)),
    );
    // Only a finished game has a result (and reading it asks the phase).
    view.result = match phase {
        GenePhase::GameOver => result(world),
        _ => None,
    };
    view.order_card = seat
        .and_then(|s| calendar.order.iter().position(|o| *o == s))
        .map(|n| n as u8 + 1);
    match phase {
        GenePhase::Action => view.order.clone_from(&calendar.order),
        _ => view.order.clear(),
    }
    view.active = match phase {
        GenePhase::Action => calendar.active(),
        _ => None,
    };
    view.deadline_ms = world
        .resource::<Deadlines<GeneTimer>>()
        .pending
        .iter()
        .map(|d| d.at_ms)
        .min();
    view.now_ms = world.resource::<TableClock>().now_ms;
    match seat {
        Some(s) => own_secrets(world, at, s, phase, to_act, view),
        None => no_secrets(view),
    }
}

/// The viewer's own part of its view: its genes, place, hand, doings and
/// what it may do now.
fn own_secrets(
    world: &World,
    at: moves::Seated,
    s: SeatId,
    phase: GenePhase,
    to_act: bool,
    view: &mut GeneView,
) {
    let (panel, vitals, place, hand, doings) = (
        at.get::<Panel>(s),
        at.get::<Vitals>(s),
        at.get::<Place>(s),
        at.get::<Hand>(s),
        at.get::<Doings>(s),
    );
    view.genes = panel.genes;
    view.room = place.0;
    view.hand.clone_from(&hand.cards);
    view.moved = doings.moved;
    view.drew = doings.drew;
    view.ready = doings.ready;
    view.changed_state = moves::state_cards_spent(world, doings);
    view.must_drop = hand.must_drop;
    view.can_discard = hand
        .cards
        .first()
        .is_some_and(|&kind| moves::judge(world, s, &GeneAction::Discard { kind }).is_ok());
    view.destinations.clear();
    view.can_draw.clear();
    view.can_take.clear();
    view.lying.clear();
    view.reach.clear();
    if let Some(r) = place.0 {
        if to_act && phase == GenePhase::Action && !doings.moved {
            view.destinations.extend(
                map()
                    .reach(r, speed(panel, doings), vitals.shadow)
                    .filter(|&(to, _)| to != r)
                    .map(|(to, _)| to),
            );
        }
        if to_act && doings.moved && !doings.drew && !vitals.shadow {
            kinds_here(world, r, &mut view.can_draw);
            lying_kinds(world, r, &mut view.can_take);
        }
        // The room as the viewer last saw it: live while it acts there,
        // else as it was after its last act (issue 35 E).
        match to_act {
            true => view.lying.extend(
                world
                    .resource::<Piles>()
                    .0
                    .get(&r)
                    .into_iter()
                    .flatten()
                    .copied(),
            ),
            false => view.lying.clone_from(&part::<SeenPile>(world, s).0),
        }
        if phase != GenePhase::GameOver {
            view.reach.extend(
                map()
                    .reach(r, speed(panel, doings), vitals.shadow)
                    .filter(|(to, _)| *to != r),
            );
        }
    }
    refill(
        &mut view.offers,
        world
            .resource::<TradeOffers>()
            .0
            .iter()
            .filter(|o| o.from == s || o.to == s)
            .cloned(),
    );
    view.speed = speed(panel, doings);
    view.carry = carry(panel, vitals);
    view.drained = vitals.drained;
    view.immune = vitals.immune;
    view.vote = doings.vote;
    // Who hears the viewer: the seats' acted flags were just read.
    let acted = &view.acted;
    match audience(
        phase,
        s,
        // The player in the action room (only asked in the action phase).
        view.active,
        |o| acted[o.index()],
        at.seats.iter().map(|(o, _)| o),
    ) {
        Some(hearers) => view.audience = hearers,
        None => view.audience.clear(),
    }
    view.fought.clone_from(&at.get::<Battles>(s).0);
    view.mine.clone_from(&at.get::<Told>(s).0);
}

/// A spectator's view holds no seat's secrets.
fn no_secrets(view: &mut GeneView) {
    view.genes = None;
    view.room = None;
    view.hand.clear();
    view.moved = false;
    view.drew = false;
    view.ready = false;
    view.changed_state = false;
    view.must_drop = 0;
    view.can_discard = false;
    view.destinations.clear();
    view.can_draw.clear();
    view.can_take.clear();
    view.offers.clear();
    view.lying.clear();
    view.reach.clear();
    view.speed = 0;
    view.carry = 0;
    view.drained = 0;
    view.immune = false;
    view.vote = None;
    view.audience.clear();
    view.fought.clear();
    view.mine.clear();
}

crate::seat_view!(GeneView);
