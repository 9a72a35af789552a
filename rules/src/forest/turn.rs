//! A turn (seed: "Play"): the active player asks another for a showdown,
//! or challenges, until a wrong challenge or a showdown ends the turn; then
//! play passes to the next player holding cards.

use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemParam;
use bevy_state::prelude::*;

use super::cards::{Clocks, Holdings};
use super::deck::deck;
use super::state::*;
use crate::table::{Accepted, ActionLog, DeadlinePassed, LogEntry, SeatId, TableClock};

type Acts<'w, 's> = MessageReader<'w, 's, Accepted<ForestAction>>;

/// Starting a turn: its clock and its announcement.
#[derive(SystemParam)]
pub struct TurnStart<'w> {
    pub turn: ResMut<'w, Turn>,
    pub clocks: Clocks<'w>,
    pub news: MessageWriter<'w, ForestNews>,
    pub next: ResMut<'w, NextState<ForestPhase>>,
}

impl TurnStart<'_> {
    pub fn start(&mut self, active: SeatId, opening: bool) {
        *self.turn = Turn::start(active, opening);
        NextState::set_if_neq(&mut self.next, ForestPhase::Turn);
        let secs = self.clocks.turn_secs();
        self.clocks.set(ForestTimer::TurnChoice, secs);
        self.news.write(ForestNews::TurnBegins {
            seat: active,
            opening,
        });
    }
}

/// "The first player starts by asking any other player for a Showdown."
pub fn ask_showdown(
    mut acts: Acts,
    mut clocks: Clocks,
    mut showdown: ResMut<Showdown>,
    mut news: MessageWriter<ForestNews>,
    mut next: ResMut<NextState<ForestPhase>>,
) {
    for a in acts.read() {
        let ForestAction::AskShowdown { target } = a.action else {
            continue;
        };
        news.write(ForestNews::ShowdownAsked {
            asker: a.seat,
            target,
        });
        clocks.deadlines.cancel(&ForestTimer::TurnChoice);
        showdown.0 = Some(PendingShowdown {
            asker: a.seat,
            target,
            asker_card: None,
            target_card: None,
        });
        let secs = clocks.showdown_secs();
        clocks.set(ForestTimer::ShowdownCard, secs);
        next.set(ForestPhase::Showdown);
    }
}

/// "I want your `named`, and I'm taking it with my `with`." Seed: right,
/// "The player then wins the card and is entitled to another turn";
/// wrong, "the challenger must give up his challenging card to the person
/// wrongly challenged and his turn is over".
pub fn challenge(
    mut acts: Acts,
    mut holdings: Holdings,
    mut turn: ResMut<Turn>,
    mut clocks: Clocks,
    mut reveals: ResMut<Reveals>,
    mut news: MessageWriter<ForestNews>,
) {
    for a in acts.read() {
        let ForestAction::Challenge {
            target,
            named,
            with,
        } = a.action
        else {
            continue;
        };
        let (challenger, d) = (a.seat, deck());
        if d.is_death_decay(with) {
            turn.death_decay_challenges += 1;
        }
        holdings.reveal(challenger, with);
        let right = holdings.hand(target).contains(&named);
        if right {
            holdings.give(target, challenger, named);
            turn.captures += 1;
            if d.is_death_decay(named) {
                turn.death_decay_captures += 1;
            }
            let secs = clocks.turn_secs();
            clocks.set(ForestTimer::TurnChoice, secs);
            if holdings.next_with_cards(challenger).is_none() {
                // Nobody else holds a card: nothing is left to challenge for.
                turn.over = true;
            }
        } else {
            holdings.give(challenger, target, with);
            turn.over = true;
        }
        let reveal = ChallengeReveal {
            challenger,
            target,
            named,
            with,
            right,
        };
        news.write(ForestNews::Challenged(reveal.clone()));
        reveals.challenge = Some(reveal);
        // Each side is told what it gained or lost, and why.
        let meeting = super::showdown::meeting(with, named);
        let moved = if right { named } else { with };
        let e = super::showdown::energy_of(moved);
        let (to_challenger, to_target) = if right {
            ((1, e), (-1, -e))
        } else {
            ((-1, -e), (1, e))
        };
        for (seat, other, challenging, by) in [
            (challenger, target, true, to_challenger),
            (target, challenger, false, to_target),
        ] {
            let why = ForestWhy::Challenge {
                other,
                challenger: challenging,
                named,
                with,
                right,
                meeting,
            };
            holdings.tell(&mut news, seat, why, by);
        }
    }
}

/// The turn's clock ran out. Before the round's time is up the table asks
/// the next player holding cards for a showdown on the player's behalf;
/// after it, the turn is over (rules.md §7).
pub fn time_up(
    mut passed: MessageReader<DeadlinePassed<ForestTimer>>,
    mut turn: ResMut<Turn>,
    round: Res<Round>,
    holdings: Holdings,
    clock: Res<TableClock>,
    mut log: ResMut<ActionLog<ForestAction>>,
    mut news: MessageWriter<ForestNews>,
    mut acts: MessageWriter<Accepted<ForestAction>>,
) {
    for DeadlinePassed { timer } in passed.read() {
        if *timer != ForestTimer::TurnChoice {
            continue;
        }
        let (active, at_ms) = (turn.active, clock.now_ms);
        if round.time_up {
            news.write(ForestNews::TurnTimedOut { seat: active });
            log.entries.push(LogEntry::Auto {
                at_ms,
                what: format!("seat {active} timed out after the round's time"),
            });
            turn.over = true;
        } else if let Some(target) = holdings.next_with_cards(active) {
            news.write(ForestNews::ShowdownForced { seat: active });
            log.entries.push(LogEntry::Auto {
                at_ms,
                what: format!("seat {active} timed out: showdown with seat {target}"),
            });
            acts.write(Accepted {
                seat: active,
                action: ForestAction::AskShowdown { target },
            });
        } else {
            turn.over = true;
        }
    }
}

/// Whether the turn is over ([`pass_turn`]'s condition).
pub fn turn_over(turn: Res<Turn>) -> bool {
    turn.over
}

/// A finished turn passes on, or the round ends if its time is up (seed:
/// the game "must be timed to be ended") or fewer than two players still
/// hold cards.
pub fn pass_turn(
    mut start: TurnStart,
    holdings: Holdings,
    mut round_over: MessageWriter<RoundOver>,
) {
    if !start.turn.over {
        return;
    }
    start.turn.over = false;
    let active = start.turn.active;
    match holdings.next_with_cards(active) {
        Some(next) if !start.clocks.round.time_up && holdings.holding() >= 2 => {
            start.start(next, false)
        }
        _ => {
            round_over.write(RoundOver);
        }
    }
}
