//! Who holds which card, and what the table has seen: the seats' `Hand`
//! and `Known` components, and the clocks of a turn. Shared by the phase
//! systems (`turn.rs`, `showdown.rs`, `round.rs`).

use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemParam;

use super::ForestGame;
use super::deck::{CardId, deck};
use super::state::*;
use crate::table::{Deadlines, SeatEntities, SeatId, Settings, TableClock, after_grace};

pub(crate) fn remove_one(cards: &mut Vec<CardId>, card: CardId) -> bool {
    match cards.iter().position(|&c| c == card) {
        Some(i) => {
            cards.remove(i);
            true
        }
        None => false,
    }
}

fn insert_sorted(cards: &mut Vec<CardId>, card: CardId) {
    let at = cards.partition_point(|&c| c <= card);
    cards.insert(at, card);
}

/// The seats' cards, in seat order.
#[derive(SystemParam)]
pub struct Holdings<'w, 's> {
    pub entities: Res<'w, SeatEntities>,
    pub cards: Query<'w, 's, (&'static mut Hand, &'static mut Known)>,
    told: Query<'w, 's, &'static mut Told>,
}

impl Holdings<'_, '_> {
    /// Tells `seat` of a change to its own hand (`cards` and `energy`
    /// gained, or lost), or of a meeting that left it as it was: kept on
    /// the seat (its screen's lines) and put into words for it.
    pub fn tell(
        &mut self,
        news: &mut MessageWriter<ForestNews>,
        seat: SeatId,
        why: ForestWhy,
        (cards, energy): (i32, i32),
    ) {
        let change = ForestChange {
            why,
            cards,
            energy,
            energy_after: deck().energy(self.hand(seat)),
        };
        let e = self.entities.get(seat);
        self.told.get_mut(e).expect("a seat").push(change);
        news.write(ForestNews::Changed { seat, change });
    }

    pub fn hand(&self, seat: SeatId) -> &[CardId] {
        &self
            .cards
            .get(self.entities.get(seat))
            .expect("every seat has cards")
            .0
            .0
    }

    pub fn count(&self) -> usize {
        self.entities.0.len()
    }

    /// How many seats hold any card.
    pub fn holding(&self) -> usize {
        self.entities
            .iter()
            .filter(|&(s, _)| !self.hand(s).is_empty())
            .count()
    }

    /// The next seat after `seat`, going round, that holds any card.
    pub fn next_with_cards(&self, seat: SeatId) -> Option<SeatId> {
        let count = self.count();
        (1..count)
            .map(|k| SeatId(((seat.index() + k) % count) as u8))
            .find(|&s| !self.hand(s).is_empty())
    }

    /// The table sees `seat` hold `card`.
    pub fn reveal(&mut self, seat: SeatId, card: CardId) {
        let (_, mut known) = self.cards.get_mut(self.entities.get(seat)).unwrap();
        if !known.0.contains(&card) {
            insert_sorted(&mut known.0, card);
        }
    }

    /// `card` goes from `from` to `to` in view of the table.
    pub fn give(&mut self, from: SeatId, to: SeatId, card: CardId) {
        {
            let (mut hand, mut known) = self.cards.get_mut(self.entities.get(from)).unwrap();
            let held = remove_one(&mut hand.0, card);
            debug_assert!(held, "a card that changes hands is held");
            remove_one(&mut known.0, card);
        }
        let (mut hand, mut known) = self.cards.get_mut(self.entities.get(to)).unwrap();
        insert_sorted(&mut hand.0, card);
        insert_sorted(&mut known.0, card);
    }
}

/// The clocks of a round (seed: "Timing"; rules.md §7).
#[derive(SystemParam)]
pub struct Clocks<'w> {
    pub deadlines: ResMut<'w, Deadlines<ForestTimer>>,
    pub clock: Res<'w, TableClock>,
    pub settings: Res<'w, Settings<ForestGame>>,
    pub round: ResMut<'w, Round>,
}

impl Clocks<'_> {
    /// The turn's time limit: the setting, or once the round's time is up
    /// and the setting is "no limit", the overtime limit.
    pub fn turn_secs(&self) -> u32 {
        let s = &self.settings.0;
        match s.turn_secs {
            0 if self.round.time_up => s.overtime_secs,
            secs => secs,
        }
    }

    /// A showdown card's time limit, as `turn_secs`.
    pub fn showdown_secs(&self) -> u32 {
        let s = &self.settings.0;
        match s.showdown_secs {
            0 if self.round.time_up => s.overtime_secs,
            secs => secs,
        }
    }

    /// Sets `timer` to run out `secs` from now (0: no limit).
    pub fn set(&mut self, timer: ForestTimer, secs: u32) {
        if secs == 0 {
            self.deadlines.cancel(&timer);
        } else {
            // The round's own time is the seed's; a move's clock waits
            // the table's grace.
            let grace = match timer {
                ForestTimer::RoundTime => 0,
                _ => self.settings.0.grace_secs,
            };
            let at = after_grace(self.clock.now_ms, grace) + u64::from(secs) * 1000;
            self.deadlines.set(timer, at);
        }
    }
}
