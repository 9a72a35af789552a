//! Rounds (seed: "Timing", "Scoring"): the deal, the round's clock, and
//! the count of energy at its end.

use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemParam;
use rand::seq::SliceRandom;

use super::cards::{Clocks, remove_one};
use super::deck::{CardId, deck};
use super::state::*;
use super::turn::TurnStart;
use crate::table::{ActionLog, DeadlinePassed, LogEntry, SeatEntities, SeatId, TableRng};

/// Everything a deal touches.
#[derive(SystemParam)]
pub struct Dealer<'w, 's> {
    entities: Res<'w, SeatEntities>,
    seats: Query<'w, 's, (&'static mut Hand, &'static mut Known, &'static mut Scores)>,
    told: Query<'w, 's, &'static mut Told>,
    showdown: ResMut<'w, Showdown>,
    reveals: ResMut<'w, Reveals>,
    rng: ResMut<'w, TableRng>,
    start: TurnStart<'w>,
    scripted: Option<ResMut<'w, ScriptedDeals>>,
}

impl Dealer<'_, '_> {
    /// Deals a round: all cards (seed: "Deal out all the cards"), or the
    /// scripted setup. Players dealt fewer cards get the short-hand bonus.
    pub fn deal(&mut self, first: SeatId, setup: Option<&ForestSetup>) {
        let count = self.entities.0.len();
        let mut hands: Vec<Vec<CardId>> = vec![Vec::new(); count];
        let mut rest = deck().all_cards();
        let deal_rest = match setup {
            Some(s) => {
                for (i, h) in s.hands.iter().enumerate() {
                    for &c in h {
                        remove_one(&mut rest, c);
                        hands[i].push(c);
                    }
                }
                s.deal_rest.unwrap_or(true)
            }
            None => true,
        };
        if deal_rest {
            rest.shuffle(&mut self.rng.0);
            for card in rest {
                // One at a time, round the table from the first player, to
                // whoever holds fewest.
                let fewest = (0..count)
                    .map(|k| (first.index() + k) % count)
                    .min_by_key(|&i| hands[i].len())
                    .unwrap();
                hands[fewest].push(card);
            }
        }
        let most = hands.iter().map(Vec::len).max().unwrap_or(0);
        let round = &mut self.start.clocks.round;
        round.number += 1;
        round.first = first;
        round.time_up = false;
        let number = round.number;
        let mut short = Vec::new();
        for ((seat, e), mut cards) in self.entities.iter().zip(hands) {
            cards.sort();
            let is_short = cards.len() < most;
            if is_short {
                short.push(seat);
            }
            let (mut hand, mut known, mut scores) = self.seats.get_mut(e).unwrap();
            let was = (hand.0.len() as i32, deck().energy(&hand.0));
            hand.0 = cards.clone();
            known.0.clear();
            scores.short_hand = is_short;
            let energy = deck().energy(&cards);
            // The seat's lines are this round's: the deal is the first.
            let change = ForestChange {
                why: ForestWhy::Dealt {
                    round: number,
                    cards: cards.len() as u8,
                    short: is_short && self.start.clocks.settings.0.short_hand_bonus != 0,
                },
                cards: cards.len() as i32 - was.0,
                energy: (energy - was.1) as i32,
                energy_after: energy,
            };
            self.told.get_mut(e).unwrap().start(change);
            self.start.news.write(ForestNews::Dealt { seat, cards });
            self.start.news.write(ForestNews::Changed { seat, change });
        }
        self.showdown.0 = None;
        *self.reveals = Reveals::default();
        let bonus = self.start.clocks.settings.0.short_hand_bonus;
        self.start
            .news
            .write(ForestNews::RoundDealt { round: number });
        if !short.is_empty() && bonus != 0 {
            self.start.news.write(ForestNews::ShortHand {
                seats: short,
                bonus,
            });
        }
        let secs = self.start.clocks.settings.0.round_secs;
        self.start.clocks.set(ForestTimer::RoundTime, secs);
        self.start.start(first, true);
    }

    /// Seed: "At the end of each round or game each player counts their
    /// energy points", plus the short-hand bonus; "The person with the
    /// most energy points wins that round or game."
    fn end_round(&mut self) {
        self.start.clocks.deadlines.pending.clear();
        self.showdown.0 = None;
        let bonus = self.start.clocks.settings.0.short_hand_bonus;
        let mut scores = Vec::with_capacity(self.entities.0.len());
        for (_, e) in self.entities.iter() {
            let (hand, _, mut s) = self.seats.get_mut(e).unwrap();
            let score = deck().energy(&hand.0) + if s.short_hand { bonus } else { 0 };
            s.rounds.push(score);
            s.hands.push(hand.0.clone());
            scores.push(score);
        }
        let round = self.start.clocks.round.number;
        self.start
            .news
            .write(ForestNews::RoundOver { round, scores });
        if round < self.start.clocks.settings.0.rounds {
            let count = self.entities.0.len();
            let first = SeatId(((self.start.clocks.round.first.index() + 1) % count) as u8);
            // A scenario's next scripted deal, if it gave one.
            let next = self
                .scripted
                .as_mut()
                .and_then(|q| q.0.pop_front())
                .map(|d| ForestSetup {
                    hands: d.hands,
                    deal_rest: d.deal_rest,
                    ..ForestSetup::default()
                });
            self.deal(first, next.as_ref());
        } else {
            self.start.next.set(ForestPhase::GameOver);
            let totals = self
                .entities
                .iter()
                .map(|(_, e)| self.seats.get(e).unwrap().2.total())
                .collect();
            self.start.news.write(ForestNews::GameOver { totals });
        }
    }
}

/// The round is over: energy is counted, and the next round dealt or the
/// game ends.
pub fn end_round(mut dealer: Dealer) {
    dealer.end_round();
}

/// The round's time is up: the turn in progress finishes, then the round
/// ends. A turn or showdown with no limit gets the overtime limit from now
/// (rules.md §7).
pub fn time_up(
    mut passed: MessageReader<DeadlinePassed<ForestTimer>>,
    mut clocks: Clocks,
    showdown: Res<Showdown>,
    mut log: ResMut<ActionLog<ForestAction>>,
    mut news: MessageWriter<ForestNews>,
) {
    for DeadlinePassed { timer } in passed.read() {
        if *timer != ForestTimer::RoundTime {
            continue;
        }
        clocks.round.time_up = true;
        news.write(ForestNews::RoundTimeUp);
        log.entries.push(LogEntry::Auto {
            at_ms: clocks.clock.now_ms,
            what: "round time is up".into(),
        });
        let overtime = clocks.settings.0.overtime_secs;
        let clock = if showdown.0.is_some() {
            ForestTimer::ShowdownCard
        } else {
            ForestTimer::TurnChoice
        };
        if clocks.deadlines.get(&clock).is_none() {
            clocks.set(clock, overtime);
        }
    }
}
