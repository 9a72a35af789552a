//! The Forest Showdown table as one system parameter: the moves of the game
//! written once, used by the systems that apply actions, fire deadlines and
//! settle turns and rounds.

use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemParam;
use bevy_state::prelude::*;
use rand::seq::{IndexedRandom, SliceRandom};

use super::ForestGame;
use super::deck::{CardId, deck};
use super::state::*;
use crate::table::{
    ActionLog, Announcements, Deadlines, LogEntry, SeatId, Seats, Settings, TableClock, TableRng,
};
use crate::text::Bilingual;

#[derive(SystemParam)]
pub struct ForestTable<'w, 's> {
    pub seats: Res<'w, Seats>,
    pub entities: Res<'w, SeatEntities>,
    pub cards: Query<'w, 's, (&'static mut Hand, &'static mut Known, &'static mut Scores)>,
    pub round: ResMut<'w, Round>,
    pub turn: ResMut<'w, Turn>,
    pub showdown: ResMut<'w, Showdown>,
    pub reveals: ResMut<'w, Reveals>,
    pub deadlines: ResMut<'w, Deadlines<ForestTimer>>,
    pub clock: Res<'w, TableClock>,
    pub news: ResMut<'w, Announcements>,
    pub rng: ResMut<'w, TableRng>,
    pub settings: Res<'w, Settings<ForestGame>>,
    pub log: ResMut<'w, ActionLog<ForestAction>>,
    pub next: ResMut<'w, NextState<ForestPhase>>,
}

/// "Seat 2 (Bob)" in both languages.
pub fn seat_name(seats: &Seats, seat: SeatId) -> Bilingual {
    Bilingual::new(
        format!("Seat {seat} ({})", seats.name(seat)),
        format!("{seat} 号（{}）", seats.name(seat)),
    )
}

pub fn card_name(card: CardId) -> &'static Bilingual {
    &deck().card(card).name
}

fn cards_text(cards: &[CardId]) -> Bilingual {
    let en: Vec<&str> = cards.iter().map(|&c| card_name(c).en.as_str()).collect();
    let zh: Vec<&str> = cards.iter().map(|&c| card_name(c).zh.as_str()).collect();
    Bilingual::new(en.join(", "), zh.join("、"))
}

fn remove_one(cards: &mut Vec<CardId>, card: CardId) -> bool {
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

/// Who takes what when two cards meet in a showdown. Seed: "If both cards
/// 'eat' each other, or, if neither card 'eats' the other then it is a
/// stand-off", and the cards that take Death & Decay "In a Showdown ...
/// provide a stand-off with Death & Decay".
pub fn showdown_outcome(asker: CardId, target: CardId) -> ShowdownOutcome {
    let d = deck();
    let dd_and_taker = |a: CardId, b: CardId| d.is_death_decay(a) && d.takes_death_decay(b);
    if dd_and_taker(asker, target) || dd_and_taker(target, asker) {
        return ShowdownOutcome::StandOff;
    }
    match (d.eats(asker, target), d.eats(target, asker)) {
        (true, false) => ShowdownOutcome::AskerTakes,
        (false, true) => ShowdownOutcome::TargetTakes,
        _ => ShowdownOutcome::StandOff,
    }
}

impl ForestTable<'_, '_> {
    fn now(&self) -> u64 {
        self.clock.now_ms
    }

    fn name(&self, seat: SeatId) -> Bilingual {
        seat_name(&self.seats, seat)
    }

    fn say(&mut self, text: Bilingual) {
        let now = self.now();
        self.news.say(now, text);
    }

    fn tell(&mut self, seat: SeatId, text: Bilingual) {
        let now = self.now();
        self.news.tell(now, seat, text);
    }

    pub fn hand(&self, seat: SeatId) -> &[CardId] {
        &self
            .cards
            .get(self.entities.get(seat))
            .expect("every seat has cards")
            .0
            .0
    }

    fn seats_with_cards(&self) -> Vec<SeatId> {
        self.seats
            .ids()
            .filter(|&s| !self.hand(s).is_empty())
            .collect()
    }

    /// The next seat after `seat`, going round, that holds any card.
    pub fn next_with_cards(&self, seat: SeatId) -> Option<SeatId> {
        let mut s = seat;
        for _ in 0..self.seats.count() {
            s = self.seats.next(s);
            if s != seat && !self.hand(s).is_empty() {
                return Some(s);
            }
        }
        None
    }

    /// The table sees `seat` hold `card`.
    fn reveal(&mut self, seat: SeatId, card: CardId) {
        let (_, mut known, _) = self.cards.get_mut(self.entities.get(seat)).unwrap();
        if !known.0.contains(&card) {
            insert_sorted(&mut known.0, card);
        }
    }

    /// `card` goes from `from` to `to` in view of the table.
    fn give(&mut self, from: SeatId, to: SeatId, card: CardId) {
        {
            let (mut hand, mut known, _) = self.cards.get_mut(self.entities.get(from)).unwrap();
            let held = remove_one(&mut hand.0, card);
            debug_assert!(held, "a card that changes hands is held");
            remove_one(&mut known.0, card);
        }
        let (mut hand, mut known, _) = self.cards.get_mut(self.entities.get(to)).unwrap();
        insert_sorted(&mut hand.0, card);
        insert_sorted(&mut known.0, card);
    }

    /// The turn's time limit: the setting, or once the round's time is up
    /// and the setting is "no limit", the overtime limit.
    fn turn_secs(&self) -> u32 {
        let s = &self.settings.0;
        match s.turn_secs {
            0 if self.round.time_up => s.overtime_secs,
            secs => secs,
        }
    }

    /// A showdown card's time limit, as `turn_secs`.
    fn showdown_secs(&self) -> u32 {
        let s = &self.settings.0;
        match s.showdown_secs {
            0 if self.round.time_up => s.overtime_secs,
            secs => secs,
        }
    }

    fn set_timer(&mut self, timer: ForestTimer, secs: u32) {
        if secs == 0 {
            self.deadlines.cancel(&timer);
        } else {
            let at = self.now() + u64::from(secs) * 1000;
            self.deadlines.set(timer, at);
        }
    }

    // ----- the deal -------------------------------------------------------

    /// Deals a round: all cards (seed: "Deal out all the cards"), or the
    /// scripted setup. Players dealt fewer cards get the short-hand bonus.
    pub fn deal(&mut self, first: SeatId, setup: Option<&ForestSetup>) {
        let seats: Vec<SeatId> = self.seats.ids().collect();
        let mut hands: Vec<Vec<CardId>> = vec![Vec::new(); seats.len()];
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
                let fewest = (0..seats.len())
                    .map(|k| (first.index() + k) % seats.len())
                    .min_by_key(|&i| hands[i].len())
                    .unwrap();
                hands[fewest].push(card);
            }
        }
        let most = hands.iter().map(Vec::len).max().unwrap_or(0);
        self.round.number += 1;
        self.round.first = first;
        self.round.time_up = false;
        let mut short = Vec::new();
        for (&seat, mut cards) in seats.iter().zip(hands) {
            cards.sort();
            let is_short = cards.len() < most;
            if is_short {
                short.push(seat);
            }
            let note = cards_text(&cards);
            let (mut hand, mut known, mut scores) =
                self.cards.get_mut(self.entities.get(seat)).unwrap();
            hand.0 = cards;
            known.0.clear();
            scores.short_hand = is_short;
            self.tell(
                seat,
                Bilingual::new(
                    format!("You were dealt: {}", note.en),
                    format!("你拿到的牌：{}", note.zh),
                ),
            );
        }
        self.showdown.0 = None;
        *self.reveals = Reveals::default();
        let n = self.round.number;
        let bonus = self.settings.0.short_hand_bonus;
        self.say(Bilingual::new(
            format!("Round {n}: the cards are dealt."),
            format!("第 {n} 轮：发牌完毕。"),
        ));
        if !short.is_empty() && bonus != 0 {
            let names: Vec<Bilingual> = short.iter().map(|&s| self.name(s)).collect();
            let en: Vec<&str> = names.iter().map(|b| b.en.as_str()).collect();
            let zh: Vec<&str> = names.iter().map(|b| b.zh.as_str()).collect();
            self.say(Bilingual::new(
                format!(
                    "One card fewer, +{bonus} energy this round: {}.",
                    en.join(", ")
                ),
                format!("少一张牌，本轮 +{bonus} 能量：{}。", zh.join("、")),
            ));
        }
        let secs = self.settings.0.round_secs;
        self.set_timer(ForestTimer::RoundTime, secs);
        self.start_turn(first, true);
    }

    // ----- turns ----------------------------------------------------------

    fn start_turn(&mut self, active: SeatId, opening: bool) {
        *self.turn = Turn::start(active, opening);
        NextState::set_if_neq(&mut self.next, ForestPhase::Turn);
        let secs = self.turn_secs();
        self.set_timer(ForestTimer::TurnChoice, secs);
        let who = self.name(active);
        self.say(if opening {
            Bilingual::new(
                format!("{}'s turn: it opens with a showdown.", who.en),
                format!("轮到{}：以一场对决开局。", who.zh),
            )
        } else {
            Bilingual::new(format!("{}'s turn.", who.en), format!("轮到{}。", who.zh))
        });
    }

    /// After a step: a finished turn passes on, or the round ends if its
    /// time is up (seed: the game "must be timed to be ended") or fewer than
    /// two players still hold cards.
    pub fn settle_turn(&mut self) {
        if !self.turn.over {
            return;
        }
        self.turn.over = false;
        let active = self.turn.active;
        match self.next_with_cards(active) {
            Some(next) if !self.round.time_up && self.seats_with_cards().len() >= 2 => {
                self.start_turn(next, false)
            }
            _ => self.end_round(),
        }
    }

    pub fn ask_showdown(&mut self, asker: SeatId, target: SeatId) {
        let (a, t) = (self.name(asker), self.name(target));
        self.say(Bilingual::new(
            format!("{} asks {} for a showdown.", a.en, t.en),
            format!("{}向{}发起对决。", a.zh, t.zh),
        ));
        self.deadlines.cancel(&ForestTimer::TurnChoice);
        self.showdown.0 = Some(PendingShowdown {
            asker,
            target,
            asker_card: None,
            target_card: None,
        });
        let secs = self.showdown_secs();
        self.set_timer(ForestTimer::ShowdownCard, secs);
        self.next.set(ForestPhase::Showdown);
    }

    /// A showdown card is laid face down; when both are down, both are
    /// revealed together.
    pub fn play_card(&mut self, seat: SeatId, card: CardId) {
        let Some(pending) = self.showdown.0.as_mut() else {
            return;
        };
        if let Some(slot) = pending.choice_mut(seat) {
            *slot = Some(card);
        }
        let name = card_name(card).clone();
        self.tell(
            seat,
            Bilingual::new(
                format!("You lay down {} for the showdown.", name.en),
                format!("你为对决出了{}。", name.zh),
            ),
        );
        let who = self.name(seat);
        self.say(Bilingual::new(
            format!("{} has chosen a card.", who.en),
            format!("{}已选好牌。", who.zh),
        ));
        self.resolve_showdown();
    }

    fn resolve_showdown(&mut self) {
        let Some(PendingShowdown {
            asker,
            target,
            asker_card: Some(ac),
            target_card: Some(tc),
        }) = self.showdown.0.clone()
        else {
            return;
        };
        self.showdown.0 = None;
        self.deadlines.cancel(&ForestTimer::ShowdownCard);
        self.reveal(asker, ac);
        self.reveal(target, tc);
        let outcome = showdown_outcome(ac, tc);
        let (a, t) = (self.name(asker), self.name(target));
        let (acn, tcn) = (card_name(ac).clone(), card_name(tc).clone());
        let result = match outcome {
            ShowdownOutcome::AskerTakes => {
                self.give(target, asker, tc);
                Bilingual::new(
                    format!("{} takes {}.", a.en, tcn.en),
                    format!("{}吃掉{}。", a.zh, tcn.zh),
                )
            }
            ShowdownOutcome::TargetTakes => {
                self.give(asker, target, ac);
                Bilingual::new(
                    format!("{} takes {}.", t.en, acn.en),
                    format!("{}吃掉{}。", t.zh, acn.zh),
                )
            }
            ShowdownOutcome::StandOff => Bilingual::new(
                "Stand-off: both keep their cards.",
                "僵持：双方各自保留手牌。",
            ),
        };
        self.say(Bilingual::new(
            format!(
                "Showdown: {} plays {}, {} plays {}. {}",
                a.en, acn.en, t.en, tcn.en, result.en
            ),
            format!(
                "对决：{}出{}，{}出{}。{}",
                a.zh, acn.zh, t.zh, tcn.zh, result.zh
            ),
        ));
        self.reveals.showdown = Some(ShowdownReveal {
            asker,
            target,
            asker_card: ac,
            target_card: tc,
            outcome,
        });
        // Seed: "At the end of a Showdown play passes to the next player no
        // matter who wins the Showdown."
        self.turn.over = true;
    }

    /// A challenge that the judge found legal. Seed: right, "The player then
    /// wins the card and is entitled to another turn"; wrong, "the
    /// challenger must give up his challenging card to the person wrongly
    /// challenged and his turn is over".
    pub fn challenge(&mut self, challenger: SeatId, target: SeatId, named: CardId, with: CardId) {
        let d = deck();
        if d.is_death_decay(with) {
            self.turn.death_decay_challenges += 1;
        }
        self.reveal(challenger, with);
        let right = self.hand(target).contains(&named);
        let (c, t) = (self.name(challenger), self.name(target));
        let (nn, wn) = (card_name(named).clone(), card_name(with).clone());
        let ask = Bilingual::new(
            format!(
                "{} challenges {}: \"I want your {}, and I'm taking it with my {}.\"",
                c.en, t.en, nn.en, wn.en
            ),
            format!(
                "{}挑战{}：“我要你的{}，用我的{}来吃。”",
                c.zh, t.zh, nn.zh, wn.zh
            ),
        );
        let result = if right {
            self.give(target, challenger, named);
            self.turn.captures += 1;
            if d.is_death_decay(named) {
                self.turn.death_decay_captures += 1;
            }
            let secs = self.turn_secs();
            self.set_timer(ForestTimer::TurnChoice, secs);
            if self.next_with_cards(challenger).is_none() {
                // Nobody else holds a card: nothing is left to challenge for.
                self.turn.over = true;
            }
            Bilingual::new(
                format!("Right: {} takes {} and goes again.", c.en, nn.en),
                format!("猜对了：{}拿走{}，继续行动。", c.zh, nn.zh),
            )
        } else {
            self.give(challenger, target, with);
            self.turn.over = true;
            Bilingual::new(
                format!(
                    "Wrong: {} gives {} to {}; the turn is over.",
                    c.en, wn.en, t.en
                ),
                format!("猜错了：{}把{}交给{}，回合结束。", c.zh, wn.zh, t.zh),
            )
        };
        self.say(Bilingual::new(
            format!("{} {}", ask.en, result.en),
            format!("{}{}", ask.zh, result.zh),
        ));
        self.reveals.challenge = Some(ChallengeReveal {
            challenger,
            target,
            named,
            with,
            right,
        });
    }

    // ----- deadlines --------------------------------------------------------

    pub fn on_deadline(&mut self, timer: &ForestTimer) {
        let now = self.now();
        match timer {
            ForestTimer::RoundTime => {
                self.round.time_up = true;
                self.say(Bilingual::new(
                    "Time! The turn in progress finishes, then the round ends.",
                    "时间到！当前回合结束后，本轮结束。",
                ));
                self.log.entries.push(LogEntry::Auto {
                    at_ms: now,
                    what: "round time is up".into(),
                });
                // A turn or showdown with no limit gets the overtime limit
                // from now (rules.md §7).
                let overtime = self.settings.0.overtime_secs;
                let clock = if self.showdown.0.is_some() {
                    ForestTimer::ShowdownCard
                } else {
                    ForestTimer::TurnChoice
                };
                if self.deadlines.get(&clock).is_none() {
                    self.set_timer(clock, overtime);
                }
            }
            ForestTimer::TurnChoice if self.round.time_up => {
                // After the round's time, a turn that runs out is over: no
                // showdown is asked on the player's behalf.
                let who = self.name(self.turn.active);
                self.say(Bilingual::new(
                    format!("{} ran out of time; the turn is over.", who.en),
                    format!("{}超时；回合结束。", who.zh),
                ));
                self.log.entries.push(LogEntry::Auto {
                    at_ms: now,
                    what: format!("seat {} timed out after the round's time", self.turn.active),
                });
                self.turn.over = true;
            }
            ForestTimer::TurnChoice => {
                let active = self.turn.active;
                if let Some(target) = self.next_with_cards(active) {
                    let who = self.name(active);
                    self.say(Bilingual::new(
                        format!(
                            "{} ran out of time; the table asks for a showdown for them.",
                            who.en
                        ),
                        format!("{}超时；由系统代为发起对决。", who.zh),
                    ));
                    self.log.entries.push(LogEntry::Auto {
                        at_ms: now,
                        what: format!("seat {active} timed out: showdown with seat {target}"),
                    });
                    self.ask_showdown(active, target);
                } else {
                    self.turn.over = true;
                }
            }
            ForestTimer::ShowdownCard => {
                let Some(pending) = self.showdown.0.clone() else {
                    return;
                };
                for seat in [pending.asker, pending.target] {
                    if pending.choice(seat) == Some(None) {
                        let hand = self.hand(seat).to_vec();
                        let Some(&card) = hand.choose(&mut self.rng.0) else {
                            continue;
                        };
                        let who = self.name(seat);
                        self.say(Bilingual::new(
                            format!("{} ran out of time; a random card is played.", who.en),
                            format!("{}超时；随机出一张牌。", who.zh),
                        ));
                        self.log.entries.push(LogEntry::Auto {
                            at_ms: now,
                            what: format!("seat {seat} timed out: random showdown card"),
                        });
                        self.play_card(seat, card);
                    }
                }
            }
        }
    }

    // ----- rounds -------------------------------------------------------------

    fn scores(&self, seat: SeatId) -> &Scores {
        self.cards
            .get(self.entities.get(seat))
            .expect("every seat has scores")
            .2
    }

    /// "Seat 1 (Ann) wins the round with 35." or "Seat 1 (Ann) and Seat 3
    /// (Cy) share the round, with 35.": the seats with the highest of
    /// `scores` (by seat).
    fn winners_text(&self, scores: &[i64], what: Bilingual) -> Bilingual {
        let top = scores.iter().copied().max().unwrap_or(0);
        let names: Vec<Bilingual> = self
            .seats
            .ids()
            .filter(|s| scores[s.index()] == top)
            .map(|s| self.name(s))
            .collect();
        let en: Vec<&str> = names.iter().map(|b| b.en.as_str()).collect();
        let zh: Vec<&str> = names.iter().map(|b| b.zh.as_str()).collect();
        if names.len() == 1 {
            Bilingual::new(
                format!("{} wins {} with {top}.", en[0], what.en),
                format!("{}以 {top} 点赢得{}。", zh[0], what.zh),
            )
        } else {
            Bilingual::new(
                format!("{} share {}, with {top}.", en.join(" and "), what.en),
                format!("{}以 {top} 点并列赢得{}。", zh.join("、"), what.zh),
            )
        }
    }

    /// Seed: "At the end of each round or game each player counts their
    /// energy points", plus the short-hand bonus.
    fn end_round(&mut self) {
        self.deadlines.pending.clear();
        self.showdown.0 = None;
        let bonus = self.settings.0.short_hand_bonus;
        let n = self.round.number;
        let mut lines_en = Vec::new();
        let mut lines_zh = Vec::new();
        for seat in self.seats.ids().collect::<Vec<_>>() {
            let name = self.name(seat);
            let (hand, _, mut scores) = self.cards.get_mut(self.entities.get(seat)).unwrap();
            let score = deck().energy(&hand.0) + if scores.short_hand { bonus } else { 0 };
            scores.rounds.push(score);
            lines_en.push(format!("{} {score}", name.en));
            lines_zh.push(format!("{} {score}", name.zh));
        }
        // Seed: "The person with the most energy points wins that round or
        // game."
        let round_scores: Vec<i64> = self
            .seats
            .ids()
            .map(|s| *self.scores(s).rounds.last().expect("just scored"))
            .collect();
        let won = self.winners_text(&round_scores, Bilingual::new("the round", "本轮"));
        self.say(Bilingual::new(
            format!(
                "Round {n} is over. Energy: {}. {}",
                lines_en.join(", "),
                won.en
            ),
            format!("第 {n} 轮结束。能量：{}。{}", lines_zh.join("，"), won.zh),
        ));
        if n < self.settings.0.rounds {
            let first = self.seats.next(self.round.first);
            self.deal(first, None);
        } else {
            self.next.set(ForestPhase::GameOver);
            let totals: Vec<i64> = self.seats.ids().map(|s| self.scores(s).total()).collect();
            let won = self.winners_text(&totals, Bilingual::new("the game", "本局"));
            self.say(Bilingual::new(
                format!("The game is over. {}", won.en),
                format!("游戏结束。{}", won.zh),
            ));
        }
    }
}
