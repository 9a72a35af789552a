//! The one place a Gene Survival action is judged: what each phase
//! accepts (`out_of_phase` names the real reason for the rest), and a check
//! for each move. It reads the world and never changes it.

use bevy_ecs::prelude::*;
use bevy_state::prelude::*;

use super::free::audience;
use super::map::{ItemKind, RoomFunction, RoomId, map};
use super::settings::GeneGame;
use super::settle::{Genes, numbers};
use super::state::*;
use crate::table::{Moves, Rejection, SeatId, Settings};

pub(crate) use crate::table::{Seated, seat_part as part};

/// Whether a seat (its doings) has used as many state-changing cards this
/// round as the table allows (setting `state_cards`; 0 = no limit).
pub fn state_cards_spent(world: &World, doings: &Doings) -> bool {
    let limit = world.resource::<Settings<GeneGame>>().0.state_cards;
    limit > 0 && doings.state_cards >= limit
}

/// Every floor a living player may still vote for.
pub fn open_floors(world: &World) -> Vec<super::map::FloorId> {
    let gassed = &world.resource::<Gassed>().0;
    map()
        .floor_ids()
        .iter()
        .copied()
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

/// The kinds of move, one per action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Prepare,
    Ready,
    Offer,
    Accept,
    Decline,
    Withdraw,
    Move,
    Use,
    Take,
    Draw,
    Surgery,
    Discard,
    Vote,
    EndTurn,
    Chat,
}

impl crate::table::Moves for GeneAction {
    type Move = Move;

    fn kind(&self) -> Move {
        match self {
            GeneAction::Prepare { .. } => Move::Prepare,
            GeneAction::Ready => Move::Ready,
            GeneAction::Offer { .. } => Move::Offer,
            GeneAction::Accept { .. } => Move::Accept,
            GeneAction::Decline { .. } => Move::Decline,
            GeneAction::Withdraw { .. } => Move::Withdraw,
            GeneAction::Move { .. } => Move::Move,
            GeneAction::Use { .. } => Move::Use,
            GeneAction::Take { .. } => Move::Take,
            GeneAction::Draw { .. } => Move::Draw,
            GeneAction::Surgery { .. } => Move::Surgery,
            GeneAction::Discard { .. } => Move::Discard,
            GeneAction::Vote { .. } => Move::Vote,
            GeneAction::EndTurn => Move::EndTurn,
            GeneAction::Chat { .. } => Move::Chat,
        }
    }
}

/// What each phase accepts (rules.md §4 set-up, §5 free phase, §6 action
/// phase); table talk goes on after the game ends.
pub fn moves(phase: GenePhase) -> &'static [Move] {
    match phase {
        GenePhase::Idle => &[],
        GenePhase::Setup => &[Move::Prepare, Move::Chat],
        GenePhase::Free => &[
            Move::Offer,
            Move::Accept,
            Move::Decline,
            Move::Withdraw,
            Move::Discard,
            Move::Ready,
            Move::Chat,
        ],
        GenePhase::Action => &[
            Move::Move,
            Move::Use,
            Move::Take,
            Move::Draw,
            Move::Surgery,
            Move::Discard,
            Move::Vote,
            Move::EndTurn,
            Move::Chat,
        ],
        GenePhase::GameOver => &[Move::Chat],
    }
}

/// The seat a move is judged for, its parts read once.
struct Mover<'w> {
    world: &'w World,
    seat: SeatId,
    hand: &'w Hand,
    panel: &'w Panel,
    vitals: &'w Vitals,
    place: &'w Place,
    doings: &'w Doings,
}

impl<'w> Mover<'w> {
    fn new(world: &'w World, seat: SeatId) -> Self {
        let at = Seated::new(world);
        Self {
            world,
            seat,
            hand: at.get::<Hand>(seat),
            panel: at.get::<Panel>(seat),
            vitals: at.get::<Vitals>(seat),
            place: at.get::<Place>(seat),
            doings: at.get::<Doings>(seat),
        }
    }

    fn room(&self) -> RoomId {
        self.place.0.expect("a player in play has a room")
    }

    /// 「移动完毕后，可进行相应行动」: the action phase's other moves come
    /// after moving.
    fn moved(&self) -> Result<(), Refusal> {
        if self.doings.moved {
            Ok(())
        } else {
            Err(Refusal::MoveFirst)
        }
    }

    /// A draw, or a take instead of one: after moving, once a round, and
    /// not for a shadow (refused with `shadow`).
    fn may_draw(&self, shadow: Refusal) -> Result<(), Refusal> {
        self.moved()?;
        if self.vitals.shadow {
            return Err(shadow);
        }
        if self.doings.drew {
            return Err(Refusal::DrewAlready);
        }
        Ok(())
    }
}

/// The judge: why the action is refused, if it is. The phase's list of
/// moves first, then the move's own check.
pub fn judge(world: &World, seat: SeatId, action: &GeneAction) -> Result<(), Refusal> {
    let phase = *world.resource::<State<GenePhase>>().get();
    if !moves(phase).contains(&action.kind()) {
        return Err(out_of_phase(phase, action).unwrap_or(Refusal::NotNow));
    }
    let me = Mover::new(world, seat);
    if phase == GenePhase::Action {
        // 「将持有的道具卡数量调整至负重范围内」 comes first.
        if me.hand.must_drop > 0 {
            match action {
                GeneAction::Discard { kind } if me.hand.cards.contains(kind) => return Ok(()),
                GeneAction::Discard { .. } => return Err(Refusal::NoSuchCard),
                GeneAction::Chat { .. } => {}
                _ => {
                    let n = me.hand.must_drop;
                    return Err(Refusal::OverCarry { n });
                }
            }
        }
        let active = world.resource::<Calendar>().active();
        if action.kind() != Move::Chat && active != Some(seat) {
            return Err(Refusal::NotYourTurn);
        }
    }
    let offers = world.resource::<TradeOffers>();
    match action {
        GeneAction::Prepare { genes, spawn } => prepare(&me, genes, *spawn),
        GeneAction::Chat { text } => chat(&me, text),
        GeneAction::Offer {
            to,
            give,
            want,
            swap_order,
        } => offer(&me, *to, give, want, *swap_order),
        GeneAction::Accept { from } => {
            let o = offers.to_answer(seat, *from)?;
            let at = Seated::new(world);
            if !(holds_all(&at.get::<Hand>(o.from).cards, &o.give.cards)
                && holds_all(&at.get::<Hand>(o.to).cards, &o.want.cards))
            {
                return Err(Refusal::OfferStale);
            }
            Ok(())
        }
        GeneAction::Decline { from } => offers
            .to_answer(seat, *from)
            .map(|_| ())
            .map_err(Into::into),
        GeneAction::Withdraw { to } => offers
            .to_withdraw(seat, *to)
            .map(|_| ())
            .map_err(Into::into),
        GeneAction::Ready if me.doings.ready => Err(Refusal::ReadyAlready),
        GeneAction::Ready => Ok(()),
        GeneAction::Discard { kind } if phase == GenePhase::Free => {
            // 「若持有的道具卡数量超过自身负重，则需要该阶段结束时调整至负重范围内」:
            // in the free phase only a player over the carry may drop
            // cards, and only down to it; and 「只能在可抽卡的房间进行」.
            if me.hand.cards.len() <= carry(me.panel, me.vitals) {
                return Err(Refusal::FreeDropWithinCarry);
            }
            leave_here(me.place, me.hand, *kind)
        }
        GeneAction::Discard { kind } => {
            me.moved()?;
            leave_here(me.place, me.hand, *kind)
        }
        GeneAction::Move { to } => movement(&me, *to),
        GeneAction::Use { kind, room } => check_use(world, seat, *kind, *room),
        GeneAction::Take { kind } => take_card(&me, *kind),
        GeneAction::Draw { kind } => draw(&me, *kind),
        GeneAction::Surgery { genes } => surgery(&me, genes),
        GeneAction::Vote { floor } => gas_vote(&me, *floor),
        GeneAction::EndTurn => {
            me.moved()?;
            // With every floor gassed there is nothing to vote for
            // (rules.md §5).
            if me.vitals.shadow || open_floors(world).is_empty() {
                Ok(())
            } else {
                Err(Refusal::EndByVoting)
            }
        }
    }
}

/// Every move `seat` might make now (`Game::candidates`), over the pieces
/// a player uses: set-up in each room with the plain panel (4/3/3); in the
/// free phase readiness, each card kind left, an answer to each seat and
/// an offer to each in its plainest form (a swap of order cards, which
/// shadows may make too); in the action phase a move to each room, each
/// card kind used (the rocket launcher aimed at each room), taken, drawn
/// or left, a surgery moving one point from any gene to any other, a vote
/// for each floor, and the turn's end. Table talk names no piece and is
/// left out. The judge picks.
pub fn candidates(world: &World, seat: SeatId) -> Vec<GeneAction> {
    let phase = *world.resource::<State<GenePhase>>().get();
    let seats: Vec<SeatId> = Seated::new(world).seats.iter().map(|(s, _)| s).collect();
    let panel = Seated::new(world).get::<Panel>(seat).genes;
    let mut out = Vec::new();
    for kind in moves(phase) {
        match kind {
            Move::Prepare => {
                let genes = Genes::balanced(numbers().gene_points);
                out.extend(
                    map()
                        .ids()
                        .map(|spawn| GeneAction::Prepare { genes, spawn }),
                );
            }
            Move::Ready => out.push(GeneAction::Ready),
            Move::EndTurn => out.push(GeneAction::EndTurn),
            Move::Offer => out.extend(seats.iter().map(|&to| GeneAction::Offer {
                to,
                give: Vec::new(),
                want: Vec::new(),
                swap_order: true,
            })),
            Move::Accept => out.extend(seats.iter().map(|&from| GeneAction::Accept { from })),
            Move::Decline => out.extend(seats.iter().map(|&from| GeneAction::Decline { from })),
            Move::Withdraw => out.extend(seats.iter().map(|&to| GeneAction::Withdraw { to })),
            Move::Move => out.extend(map().ids().map(|to| GeneAction::Move { to })),
            Move::Use => {
                for kind in ItemKind::ALL {
                    if kind == ItemKind::Rocket {
                        out.extend(map().ids().map(|r| GeneAction::Use {
                            kind,
                            room: Some(r),
                        }));
                    } else {
                        out.push(GeneAction::Use { kind, room: None });
                    }
                }
            }
            Move::Take => out.extend(ItemKind::ALL.map(|kind| GeneAction::Take { kind })),
            Move::Draw => out.extend(ItemKind::ALL.map(|kind| GeneAction::Draw { kind })),
            Move::Discard => out.extend(ItemKind::ALL.map(|kind| GeneAction::Discard { kind })),
            Move::Surgery => out.extend(panel.into_iter().flat_map(one_point_moves)),
            Move::Vote => out.extend(
                map()
                    .floors()
                    .into_iter()
                    .map(|floor| GeneAction::Vote { floor }),
            ),
            Move::Chat => {}
        }
    }
    out
}

/// Every panel one gene point away from `genes` (one taken from a gene
/// that has it, given to another), as a surgery.
fn one_point_moves(genes: Genes) -> Vec<GeneAction> {
    let parts = |g: &Genes| [g.strength, g.speed, g.carry];
    let mut out = Vec::new();
    for from in 0..3 {
        for to in (0..3).filter(|&t| t != from) {
            let mut p = parts(&genes);
            let Some(less) = p[from].checked_sub(1) else {
                continue;
            };
            p[from] = less;
            p[to] += 1;
            let [strength, speed, carry] = p;
            out.push(GeneAction::Surgery {
                genes: Genes {
                    strength,
                    speed,
                    carry,
                },
            });
        }
    }
    out
}

/// Set-up: a panel that spends every point, and a spawn room (not the
/// morgue), once.
fn prepare(me: &Mover, genes: &Genes, spawn: RoomId) -> Result<(), Refusal> {
    if me.panel.genes.is_some() {
        return Err(Refusal::PreparedAlready);
    }
    genes.check(numbers().gene_points).map_err(Refusal::Genes)?;
    if spawn.0 as usize >= map().rooms.len() {
        return Err(Refusal::NoSuchRoom);
    }
    if spawn == map().morgue() {
        return Err(Refusal::SpawnInMorgue);
    }
    Ok(())
}

/// Table talk: a line of printable text that reaches somebody.
fn chat(me: &Mover, text: &str) -> Result<(), Refusal> {
    let chars = text.chars().count();
    if chars == 0 || chars > CHAT_CHARS {
        return Err(Refusal::ChatLength);
    }
    if text.chars().any(char::is_control) {
        return Err(Refusal::ChatControl);
    }
    hearers(me.world, me.seat).map(|_| ())
}

/// A trade offered to another player: something changes hands, shadows
/// trade order cards only, and the offerer holds what it gives.
fn offer(
    me: &Mover,
    to: SeatId,
    give: &[ItemKind],
    want: &[ItemKind],
    swap_order: bool,
) -> Result<(), Refusal> {
    let at = Seated::new(me.world);
    if to.index() >= at.seats.0.len() || to == me.seat {
        return Err(Refusal::OfferToAnother);
    }
    if give.is_empty() && want.is_empty() && !swap_order {
        return Err(Refusal::TradesNothing);
    }
    if give.len() > TRADE_CARDS || want.len() > TRADE_CARDS {
        return Err(Refusal::TooManyTradeCards);
    }
    let them = at.get::<Vitals>(to);
    if (me.vitals.shadow || them.shadow) && !(give.is_empty() && want.is_empty()) {
        return Err(Refusal::ShadowTradesCards);
    }
    if !holds_all(&me.hand.cards, give) {
        return Err(Refusal::OfferNotHeld);
    }
    Ok(())
}

/// Movement: once a round, to a room within speed, leaving this one.
fn movement(me: &Mover, to: RoomId) -> Result<(), Refusal> {
    if me.doings.moved {
        return Err(Refusal::MovedAlready);
    }
    let reach = map().destinations(me.room(), speed(me.panel, me.doings), me.vitals.shadow);
    if !reach.contains(&to) {
        return Err(Refusal::OutOfReach);
    }
    Ok(())
}

/// Taking a card left lying here, instead of drawing (the living only).
fn take_card(me: &Mover, kind: ItemKind) -> Result<(), Refusal> {
    me.may_draw(Refusal::ShadowTakes)?;
    let piles = &me.world.resource::<Piles>().0;
    if !piles.get(&me.room()).is_some_and(|p| p.contains(&kind)) {
        return Err(Refusal::NotLyingHere);
    }
    Ok(())
}

/// Drawing a card this room gives, once a round, while the supply lasts.
fn draw(me: &Mover, kind: ItemKind) -> Result<(), Refusal> {
    me.may_draw(Refusal::ShadowDraws)?;
    if !map().room(me.room()).draws.contains(&kind) {
        return Err(Refusal::RoomDoesNotGive);
    }
    if !me.world.resource::<Supply>().0.contains(&kind) {
        return Err(Refusal::NoneLeft);
    }
    Ok(())
}

/// Surgery, in the surgery, once a round: a valid panel that moves 1 to
/// `SURGERY_POINTS` points.
fn surgery(me: &Mover, genes: &Genes) -> Result<(), Refusal> {
    me.moved()?;
    let old = me.panel.genes.expect("prepared");
    if me.vitals.shadow {
        return Err(Refusal::ShadowUsesRoom);
    }
    if map().room(me.room()).function != Some(RoomFunction::Surgery) {
        return Err(Refusal::NotInSurgery);
    }
    if me.panel.operated {
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

/// The gas vote (the living): a floor that is not gassed yet.
fn gas_vote(me: &Mover, floor: super::map::FloorId) -> Result<(), Refusal> {
    me.moved()?;
    if me.vitals.shadow {
        return Err(Refusal::ShadowVotes);
    }
    if !map().floor_ids().contains(&floor) {
        return Err(Refusal::NoSuchFloor);
    }
    if me.world.resource::<Gassed>().0.contains(&floor) {
        return Err(Refusal::FloorGassed);
    }
    Ok(())
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
            if state_cards_spent(world, part::<Doings>(world, seat)) =>
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
