//! The interlude between predation phases (rules.md §2, §8): life is
//! given or exchanged, eliminated players give predator cards away, and
//! when every living player is ready the die opens the next predation
//! phase. One system per move.

use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemParam;
use bevy_state::prelude::*;

use super::moves::affordable;
use super::numbers::numbers;
use super::settings::CruelerGame;
use super::state::*;
use crate::table::{Accepted, Offer, SeatEntities, SeatId, Settings, TableRng};

type Acts<'w, 's> = MessageReader<'w, 's, Accepted<CruelerAction>>;

/// Ready: the seat waits for the next predation phase.
pub fn ready(mut acts: Acts, seats: Res<SeatEntities>, mut ready: Query<&mut Ready>) {
    for a in acts.read() {
        if a.action == CruelerAction::Ready {
            ready.get_mut(seats.get(a.seat)).expect("a seat").0 = true;
        }
    }
}

/// An offer of `give` life for `want` (told only to the one it is made to).
pub fn offer_life(
    mut acts: Acts,
    mut offers: ResMut<LifeOffers>,
    mut news: MessageWriter<CruelerNews>,
) {
    for a in acts.read() {
        if let CruelerAction::OfferLife { to, give, want } = a.action {
            offers.put(Offer {
                from: a.seat,
                to,
                give,
                want,
            });
            news.write(CruelerNews::OfferMade {
                from: a.seat,
                to,
                give,
                want,
            });
        }
    }
}

/// A trade is accepted: each side's tokens go over (own tokens first),
/// and offers the trade leaves unaffordable lapse.
pub fn accept(
    mut acts: Acts,
    seats: Res<SeatEntities>,
    mut offers: ResMut<LifeOffers>,
    mut boxes: Query<&mut LifeBox>,
    calendar: Res<Calendar>,
    mut told: Query<&mut Told>,
    mut news: MessageWriter<CruelerNews>,
) {
    for a in acts.read() {
        let CruelerAction::Accept { from } = a.action else {
            continue;
        };
        let o = offers.remove(from, a.seat).expect("judged");
        let mut moved_n = [0u32; 2];
        for (k, (payer, payee, n)) in [(o.from, o.to, o.give), (o.to, o.from, o.want)]
            .into_iter()
            .enumerate()
        {
            let moved = boxes
                .get_mut(seats.get(payer))
                .expect("a seat")
                .take(payer, n as i32);
            moved_n[k] = moved.len() as u32;
            boxes
                .get_mut(seats.get(payee))
                .expect("a seat")
                .0
                .extend(moved);
        }
        let life = |s: SeatId| boxes.get(seats.get(s)).expect("a seat").life();
        for (seat, with, gave, got) in [
            (o.from, o.to, moved_n[0], moved_n[1]),
            (o.to, o.from, moved_n[1], moved_n[0]),
        ] {
            let why = LifeWhy::Traded { with, gave, got };
            let change = calendar.change(why, got as i32 - gave as i32, 0, life(seat));
            tell(&mut told, &seats, &mut news, seat, change);
        }
        let lapsed = offers.lapse(|x| affordable(life(x.from), life(x.to), x));
        for x in lapsed {
            news.write(CruelerNews::OfferLapsed {
                from: x.from,
                to: x.to,
            });
        }
    }
}

pub fn decline(
    mut acts: Acts,
    mut offers: ResMut<LifeOffers>,
    mut news: MessageWriter<CruelerNews>,
) {
    for a in acts.read() {
        if let CruelerAction::Decline { from } = a.action {
            offers.remove(from, a.seat);
            news.write(CruelerNews::Declined { from, by: a.seat });
        }
    }
}

pub fn withdraw(mut acts: Acts, mut offers: ResMut<LifeOffers>) {
    for a in acts.read() {
        if let CruelerAction::Withdraw { to } = a.action {
            offers.remove(a.seat, to);
        }
    }
}

/// An eliminated player gives one of their predator cards to a living
/// player (the table hears that a card was given, only the receiver which).
pub fn give_card(
    mut acts: Acts,
    seats: Res<SeatEntities>,
    mut cards: Query<(&mut PredatorCards, &LifeBox)>,
    calendar: Res<Calendar>,
    mut told: Query<&mut Told>,
    mut news: MessageWriter<CruelerNews>,
) {
    for a in acts.read() {
        let CruelerAction::GiveCard { to, card } = a.action else {
            continue;
        };
        let (mut mine, _) = cards.get_mut(seats.get(a.seat)).expect("a seat");
        let at = mine.0.iter().position(|c| *c == card).expect("judged");
        mine.0.remove(at);
        let (mut theirs, their_life) = cards.get_mut(seats.get(to)).expect("a seat");
        theirs.0.push(card);
        let their_life = their_life.life();
        news.write(CruelerNews::CardGiven {
            from: a.seat,
            to,
            card,
        });
        let given = calendar.change(LifeWhy::CardGiven { to, card }, 0, -1, 0);
        tell(&mut told, &seats, &mut news, a.seat, given);
        let why = LifeWhy::CardReceived { from: a.seat, card };
        let received = calendar.change(why, 0, 1, their_life);
        tell(&mut told, &seats, &mut news, to, received);
    }
}

/// Whom the interlude still waits on: the living who are not ready or
/// have an offer to answer.
pub fn waiting(
    seats: &SeatEntities,
    offers: &LifeOffers,
    players: impl Fn(Entity) -> (bool, bool),
) -> Vec<SeatId> {
    seats
        .iter()
        .filter(|&(s, e)| {
            let (alive, ready) = players(e);
            alive && (!ready || offers.waiting_on(s))
        })
        .map(|(s, _)| s)
        .collect()
}

/// Everything a predation phase's opening touches.
#[derive(SystemParam)]
pub struct Opening<'w, 's> {
    seats: Res<'w, SeatEntities>,
    calendar: Res<'w, Calendar>,
    settings: Res<'w, Settings<CruelerGame>>,
    asking: ResMut<'w, Asking>,
    die: ResMut<'w, Die>,
    offers: ResMut<'w, LifeOffers>,
    players: Query<'w, 's, (&'static Standing, &'static mut Hunger, &'static mut Ready)>,
    news: MessageWriter<'w, CruelerNews>,
    next: ResMut<'w, NextState<CruelerPhase>>,
}

impl Opening<'_, '_> {
    fn alive(&self, seat: SeatId) -> bool {
        self.players
            .get(self.seats.get(seat))
            .expect("a seat")
            .0
            .alive
    }

    /// Starts a predation phase with `first` asked first: the boxes go to
    /// the referee, the asking goes round from `first` over the living.
    pub fn start_at(&mut self, first: SeatId) {
        self.offers.0.clear();
        self.die.0 = Some(first.0 + 1);
        self.news.write(CruelerNews::PredationOpened {
            round: self.calendar.round,
            phase_no: self.calendar.phase_no,
            n: self.calendar.n(),
            first,
        });
        let count = self.seats.0.len();
        let order = (0..count)
            .map(|k| SeatId(((first.index() + k) % count) as u8))
            .filter(|s| self.alive(*s))
            .collect();
        *self.asking = Asking {
            order,
            turn: 0,
            second: false,
        };
        // Who has preyed counts for the round, or afresh each phase.
        let afresh = self.calendar.phase_no == 1 || self.settings.0.starve_by == StarveBy::Phase;
        for (_, mut hunger, mut ready) in &mut self.players {
            if afresh {
                *hunger = Hunger::default();
            }
            ready.0 = false;
        }
        self.next.set(CruelerPhase::Predation);
    }
}

/// When nobody is waited on, the die is thrown: numbers with no living
/// player are thrown again, and the number shown is asked first.
pub fn open_predation(
    mut opening: Opening,
    mut rng: ResMut<TableRng>,
    mut script: Option<ResMut<super::state::ScriptedDice>>,
) {
    let waited = waiting(&opening.seats, &opening.offers, |e| {
        let (standing, _, ready) = opening.players.get(e).expect("a seat");
        (standing.alive, ready.0)
    });
    if !waited.is_empty() {
        return;
    }
    let faces = numbers().die_faces;
    let count = opening.seats.0.len();
    let first = loop {
        let face = super::state::ScriptedDice::throw(script.as_deref_mut(), &mut rng, faces);
        let seat = SeatId(face - 1);
        if seat.index() < count && opening.alive(seat) {
            break seat;
        }
    };
    opening.start_at(first);
}
