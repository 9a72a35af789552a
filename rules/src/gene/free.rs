//! The free phase (rules.md §5): players talk, trade cards and order
//! cards, leave surplus cards, and say when they are ready; then the
//! action phase begins in order-card order.

use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemParam;
use bevy_state::prelude::*;

use super::map::{ItemKind, map};
use super::state::*;
use crate::table::{Accepted, SeatEntities, SeatId};

type Acts<'w, 's> = MessageReader<'w, 's, Accepted<GeneAction>>;

pub fn ready(mut acts: Acts, seats: Res<SeatEntities>, mut doings: Query<&mut Doings>) {
    for a in acts.read() {
        if a.action == GeneAction::Ready {
            doings.get_mut(seats.get(a.seat)).expect("a seat").ready = true;
        }
    }
}

/// An offer replaces any earlier one to the same player.
pub fn offer(mut acts: Acts, mut offers: ResMut<TradeOffers>, mut news: MessageWriter<GeneNews>) {
    for a in acts.read() {
        let GeneAction::Offer {
            to,
            give,
            want,
            swap_order,
        } = &a.action
        else {
            continue;
        };
        let side = |cards: &Vec<ItemKind>| Goods {
            cards: cards.clone(),
            order_card: *swap_order,
        };
        let offer = Offer {
            from: a.seat,
            to: *to,
            give: side(give),
            want: side(want),
        };
        news.write(GeneNews::Offered(offer.clone()));
        offers.put(offer);
    }
}

/// A trade is accepted: the cards change hands, order cards too if it
/// says so, and offers it leaves unmeetable lapse.
pub fn accept(
    mut acts: Acts,
    seats: Res<SeatEntities>,
    mut offers: ResMut<TradeOffers>,
    mut hands: Query<&mut Hand>,
    mut calendar: ResMut<Calendar>,
    mut news: MessageWriter<GeneNews>,
) {
    for a in acts.read() {
        let GeneAction::Accept { from } = a.action else {
            continue;
        };
        let o = offers.remove(from, a.seat).expect("judged");
        for (giver, taker, goods) in [(o.from, o.to, &o.give), (o.to, o.from, &o.want)] {
            let cards = &goods.cards;
            for k in cards {
                take(
                    &mut hands.get_mut(seats.get(giver)).expect("a seat").cards,
                    *k,
                );
                hands
                    .get_mut(seats.get(taker))
                    .expect("a seat")
                    .cards
                    .push(*k);
            }
        }
        let orders = o.swaps_order().then(|| {
            for s in &mut calendar.order {
                if *s == o.from {
                    *s = o.to;
                } else if *s == o.to {
                    *s = o.from;
                }
            }
            let card = |me: SeatId| {
                calendar
                    .order
                    .iter()
                    .position(|s| *s == me)
                    .map_or(0, |n| n as u8 + 1)
            };
            (card(o.from), card(o.to))
        });
        news.write(GeneNews::Traded {
            offer: o.clone(),
            orders,
        });
        let held = |s: SeatId| hands.get(seats.get(s)).expect("a seat").cards.clone();
        let lapsed = offers.lapse(|x| {
            holds_all(&held(x.from), &x.give.cards) && holds_all(&held(x.to), &x.want.cards)
        });
        for x in lapsed {
            news.write(GeneNews::OfferLapsed { a: x.from, b: x.to });
        }
    }
}

pub fn decline(mut acts: Acts, mut offers: ResMut<TradeOffers>, mut news: MessageWriter<GeneNews>) {
    for a in acts.read() {
        if let GeneAction::Decline { from } = a.action {
            offers.remove(from, a.seat);
            news.write(GeneNews::Declined { from, by: a.seat });
        }
    }
}

pub fn withdraw(
    mut acts: Acts,
    mut offers: ResMut<TradeOffers>,
    mut news: MessageWriter<GeneNews>,
) {
    for a in acts.read() {
        if let GeneAction::Withdraw { to } = a.action {
            offers.remove(a.seat, to);
            news.write(GeneNews::Withdrawn { from: a.seat, to });
        }
    }
}

/// A card left in the room (free phase: only down to the carry; action
/// phase: after moving, or to get back within the carry).
pub fn discard(
    mut acts: Acts,
    seats: Res<SeatEntities>,
    mut players: Query<(&mut Hand, &Place)>,
    mut piles: ResMut<Piles>,
) {
    for a in acts.read() {
        let GeneAction::Discard { kind } = a.action else {
            continue;
        };
        let (mut hand, place) = players.get_mut(seats.get(a.seat)).expect("a seat");
        let room = place.0.expect("placed");
        take(&mut hand.cards, kind);
        hand.must_drop = hand.must_drop.saturating_sub(1);
        piles.0.entry(room).or_default().push(kind);
    }
}

/// Who hears `seat` talk now, or nobody. In the action phase the player in
/// the action room talks to no one, and those who have acted wait in the
/// meeting room: 「行动结束的玩家将进入会议室等候，无法与未行动的玩家交换信息」.
pub fn audience(
    phase: GenePhase,
    seat: SeatId,
    active: Option<SeatId>,
    acted: impl Fn(SeatId) -> bool,
    seats: impl Iterator<Item = SeatId>,
) -> Option<Vec<SeatId>> {
    match phase {
        GenePhase::Action => {
            if active == Some(seat) {
                return None;
            }
            let mine = acted(seat);
            Some(
                seats
                    .filter(|&s| acted(s) == mine && active != Some(s))
                    .collect(),
            )
        }
        _ => Some(seats.collect()),
    }
}

/// Table talk, delivered to whoever hears it.
pub fn chat(
    mut acts: Acts,
    phase: Res<State<GenePhase>>,
    seats: Res<SeatEntities>,
    calendar: Res<Calendar>,
    doings: Query<&Doings>,
    mut news: MessageWriter<GeneNews>,
) {
    for a in acts.read() {
        let GeneAction::Chat { text } = &a.action else {
            continue;
        };
        let to = match phase.get() {
            GenePhase::Action => Some(
                audience(
                    GenePhase::Action,
                    a.seat,
                    calendar.active(),
                    |s| doings.get(seats.get(s)).is_ok_and(|d| d.acted),
                    seats.iter().map(|(s, _)| s),
                )
                .unwrap_or_default(),
            ),
            _ => None,
        };
        news.write(GeneNews::Chat {
            from: a.seat,
            text: text.clone(),
            to,
        });
    }
}

/// What the end of the free phase touches.
#[derive(SystemParam)]
pub struct FreeEnd<'w, 's> {
    seats: Res<'w, SeatEntities>,
    players: Query<
        'w,
        's,
        (
            &'static mut Hand,
            &'static Panel,
            &'static Vitals,
            &'static Place,
        ),
    >,
    offers: ResMut<'w, TradeOffers>,
    supply: ResMut<'w, Supply>,
    piles: ResMut<'w, Piles>,
    calendar: Res<'w, Calendar>,
    news: MessageWriter<'w, GeneNews>,
    next: ResMut<'w, NextState<GenePhase>>,
}

impl FreeEnd<'_, '_> {
    /// Unanswered offers lapse, and whoever still carries too much loses
    /// the oldest surplus (rules.md §5): left lying in a room that gives
    /// cards, handed back to the supply anywhere else.
    pub fn end(&mut self) {
        self.offers.0.clear();
        for (seat, e) in self.seats.iter() {
            let (mut hand, panel, vitals, place) = self.players.get_mut(e).expect("a seat");
            let Some(room) = place.0 else { continue };
            let over = hand.cards.len().saturating_sub(carry(panel, vitals));
            let cards: Vec<_> = hand.cards.drain(..over).collect();
            if cards.is_empty() {
                continue;
            }
            if map().room(room).draws.is_empty() {
                self.supply.0.extend(cards.iter().copied());
                self.news.write(GeneNews::SurplusReturned { seat, cards });
            } else {
                self.piles
                    .0
                    .entry(room)
                    .or_default()
                    .extend(cards.iter().copied());
                self.news.write(GeneNews::SurplusLeft { seat, cards, room });
            }
        }
        self.news.write(GeneNews::ActionPhase {
            order: self.calendar.order.clone(),
        });
        self.next.set(GenePhase::Action);
    }
}

/// Everyone is ready: the action phase begins.
pub fn end_when_ready(doings: Query<&Doings>, mut end: FreeEnd) {
    if doings.iter().all(|d| d.ready) {
        end.end();
    }
}
