//! The action phase (rules.md §6-§7): one at a time in order-card order,
//! each player walks into the action room, moves (every player must),
//! then draws or takes a card, uses cards, has surgery, and the living end
//! their turn by the gas vote.

use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemParam;

use super::map::{ItemKind, map};
use super::state::*;
use crate::table::{Accepted, SeatEntities, SeatId};

type Acts<'w, 's> = MessageReader<'w, 's, Accepted<GeneAction>>;

/// A seat's cards and where it stands, for what happens to its hand.
#[derive(SystemParam)]
pub struct Hands<'w, 's> {
    pub seats: Res<'w, SeatEntities>,
    pub players: Query<
        'w,
        's,
        (
            &'static mut Hand,
            &'static mut Doings,
            &'static mut Panel,
            &'static Vitals,
            &'static Place,
        ),
    >,
    pub piles: ResMut<'w, Piles>,
    pub news: MessageWriter<'w, GeneNews>,
}

impl Hands<'_, '_> {
    /// A drawn or taken card reaches the hand (the turn's one draw), the
    /// player is told, and the carry is checked.
    pub fn receive(&mut self, seat: SeatId, kind: ItemKind, took: bool) {
        {
            let (mut hand, mut doings, ..) =
                self.players.get_mut(self.seats.get(seat)).expect("a seat");
            hand.cards.push(kind);
            doings.drew = true;
        }
        self.news.write(GeneNews::Received {
            seat,
            card: kind,
            took,
        });
        self.over_carry(seat);
    }

    /// After a draw, a take or a surgery: 「将持有的道具卡数量调整至负重范围内，
    /// 多出的道具卡将丢弃在该房间」. The player chooses what to leave, unless
    /// every card held is of one kind (then the surplus is left at once).
    pub fn over_carry(&mut self, seat: SeatId) {
        let (mut hand, _, panel, vitals, _) =
            self.players.get_mut(self.seats.get(seat)).expect("a seat");
        let surplus = hand.cards.len().saturating_sub(carry(&panel, vitals));
        if surplus == 0 {
            return;
        }
        if hand.cards.iter().all(|k| *k == hand.cards[0]) {
            self.drop_oldest(seat);
            return;
        }
        hand.must_drop = surplus as u8;
        self.news.write(GeneNews::OverCarry { seat, surplus });
    }

    /// Leaves the oldest cards over the carry in the player's room (the
    /// referee's default when the player does not choose in time).
    pub fn drop_oldest(&mut self, seat: SeatId) {
        let (mut hand, _, panel, vitals, place) =
            self.players.get_mut(self.seats.get(seat)).expect("a seat");
        hand.must_drop = 0;
        let Some(room) = place.0 else { return };
        let over = hand.cards.len().saturating_sub(carry(&panel, vitals));
        let cards: Vec<ItemKind> = hand.cards.drain(..over).collect();
        if cards.is_empty() {
            return;
        }
        self.piles
            .0
            .entry(room)
            .or_default()
            .extend(cards.iter().copied());
        self.news
            .write(GeneNews::DroppedOldest { seat, cards, room });
    }
}

/// Everyone must move: to a room within speed, leaving the one they are in.
pub fn movement(
    mut acts: Acts,
    seats: Res<SeatEntities>,
    mut players: Query<(&mut Place, &mut Doings)>,
    mut news: MessageWriter<GeneNews>,
) {
    for a in acts.read() {
        let GeneAction::Move { to } = a.action else {
            continue;
        };
        let (mut place, mut doings) = players.get_mut(seats.get(a.seat)).expect("a seat");
        place.0 = Some(to);
        doings.moved = true;
        news.write(GeneNews::Moved {
            seat: a.seat,
            room: to,
        });
    }
}

/// A card this room gives, from the supply.
pub fn draw(mut acts: Acts, mut supply: ResMut<Supply>, mut hands: Hands) {
    for a in acts.read() {
        let GeneAction::Draw { kind } = a.action else {
            continue;
        };
        let at = supply.0.iter().position(|k| *k == kind).expect("judged");
        supply.0.remove(at);
        hands.receive(a.seat, kind, false);
    }
}

/// A card lying in this room, instead of drawing.
pub fn take_card(mut acts: Acts, mut hands: Hands) {
    for a in acts.read() {
        let GeneAction::Take { kind } = a.action else {
            continue;
        };
        let room = {
            let (.., place) = hands.players.get(hands.seats.get(a.seat)).expect("a seat");
            place.0.expect("placed")
        };
        let pile = hands.piles.0.entry(room).or_default();
        let at = pile.iter().position(|k| *k == kind).expect("judged");
        pile.remove(at);
        hands.receive(a.seat, kind, true);
    }
}

/// A card used: medicine, alcohol and adrenaline change the player's state
/// (settled at step 6); the rocket launcher names a room (step 5).
pub fn use_card(
    mut acts: Acts,
    seats: Res<SeatEntities>,
    mut players: Query<(&mut Hand, &mut Doings)>,
    mut secrets: ResMut<Secrets>,
    mut news: MessageWriter<GeneNews>,
) {
    for a in acts.read() {
        let GeneAction::Use { kind, room } = a.action else {
            continue;
        };
        let (mut hand, mut d) = players.get_mut(seats.get(a.seat)).expect("a seat");
        take(&mut hand.cards, kind);
        if matches!(
            kind,
            ItemKind::Medicine | ItemKind::Alcohol | ItemKind::Adrenaline
        ) {
            d.state_cards += 1;
        }
        match kind {
            ItemKind::Medicine => d.state_change += 3,
            ItemKind::Alcohol => {
                d.extra_strength += 2;
                d.state_change -= 1;
            }
            ItemKind::Adrenaline => {
                d.extra_speed += 2;
                d.state_change += 1;
            }
            ItemKind::Rocket => secrets.rockets.extend(room),
            ItemKind::Water | ItemKind::Food | ItemKind::Gold => {}
        }
        news.write(GeneNews::Used {
            seat: a.seat,
            card: kind,
        });
    }
}

/// A new gene panel in the surgery; a smaller carry leaves the surplus.
pub fn surgery(mut acts: Acts, mut secrets: ResMut<Secrets>, mut hands: Hands) {
    for a in acts.read() {
        let GeneAction::Surgery { genes } = a.action else {
            continue;
        };
        let e = hands.seats.get(a.seat);
        let (_, _, mut panel, _, _) = hands.players.get_mut(e).expect("a seat");
        panel.genes = Some(genes);
        panel.operated = true;
        secrets.surgery = true;
        hands.news.write(GeneNews::Operated {
            seat: a.seat,
            genes,
        });
        hands.over_carry(a.seat);
    }
}

/// The gas vote ends a living player's turn (rules.md §5).
pub fn gas_vote(
    mut acts: Acts,
    seats: Res<SeatEntities>,
    mut doings: Query<&mut Doings>,
    mut ended: MessageWriter<TurnEnded>,
) {
    for a in acts.read() {
        if let GeneAction::Vote { floor } = a.action {
            doings.get_mut(seats.get(a.seat)).expect("a seat").vote = Some(floor);
            ended.write(TurnEnded);
        }
    }
}

/// A shadow (or the living, once every floor is gassed) ends the turn.
pub fn end_turn(mut acts: Acts, mut ended: MessageWriter<TurnEnded>) {
    for a in acts.read() {
        if a.action == GeneAction::EndTurn {
            ended.write(TurnEnded);
        }
    }
}

/// The turn is over: the next player walks in; after the last, the
/// settlement.
pub fn next_turn(
    seats: Res<SeatEntities>,
    mut calendar: ResMut<Calendar>,
    mut doings: Query<&mut Doings>,
    mut settling: ResMut<Settling>,
) {
    if let Some(s) = calendar.active() {
        doings.get_mut(seats.get(s)).expect("a seat").acted = true;
    }
    calendar.turn += 1;
    if calendar.turn >= calendar.order.len() {
        *settling = Settling {
            on: true,
            ..Default::default()
        };
    }
}

/// Which rooms a seat can reach, from its components.
pub fn destinations(
    place: &Place,
    panel: &Panel,
    vitals: &Vitals,
    doings: &Doings,
) -> Vec<super::map::RoomId> {
    map().destinations(
        place.0.expect("placed"),
        speed(panel, doings),
        vitals.shadow,
    )
}
