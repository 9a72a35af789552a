//! A showdown (seed: "Showdown"): two players each lay a card face down;
//! both are revealed together, and the card that eats the other takes it.

use bevy_ecs::prelude::*;
use rand::seq::IndexedRandom;

use super::cards::{Clocks, Holdings};
use super::deck::{CardId, deck};
use super::state::*;
use crate::table::{Accepted, ActionLog, DeadlinePassed, LogEntry, SeatId, TableClock, TableRng};

/// Who takes what when two cards meet in a showdown. Seed: "If both cards
/// 'eat' each other, or, if neither card 'eats' the other then it is a
/// stand-off", and the cards that take Death & Decay "In a Showdown ...
/// provide a stand-off with Death & Decay".
pub fn showdown_outcome(asker: CardId, target: CardId) -> ShowdownOutcome {
    match meeting(asker, target) {
        Meeting::Eats => ShowdownOutcome::AskerTakes,
        Meeting::Eaten => ShowdownOutcome::TargetTakes,
        Meeting::Mutual | Meeting::Neither | Meeting::DecayTaker => ShowdownOutcome::StandOff,
    }
}

/// How the seat's card `mine` meets `theirs` (rules.md §4 and §6): Death
/// & Decay and one of its takers, each eating the other, one eating the
/// other, or neither.
pub fn meeting(mine: CardId, theirs: CardId) -> Meeting {
    let d = deck();
    let dd_and_taker = |a: CardId, b: CardId| d.is_death_decay(a) && d.takes_death_decay(b);
    if dd_and_taker(mine, theirs) || dd_and_taker(theirs, mine) {
        return Meeting::DecayTaker;
    }
    match (d.eats(mine, theirs), d.eats(theirs, mine)) {
        (true, true) => Meeting::Mutual,
        (true, false) => Meeting::Eats,
        (false, true) => Meeting::Eaten,
        (false, false) => Meeting::Neither,
    }
}

/// A card's energy, as an amount.
pub fn energy_of(card: CardId) -> i32 {
    deck().energy(&[card]) as i32
}

/// A card laid face down for the showdown.
fn lay(showdown: &mut Showdown, seat: SeatId, card: CardId, news: &mut MessageWriter<ForestNews>) {
    if let Some(slot) = showdown.0.as_mut().and_then(|p| p.choice_mut(seat)) {
        *slot = Some(card);
    }
    news.write(ForestNews::CardLaid { seat, card });
}

pub fn play_card(
    mut acts: MessageReader<Accepted<ForestAction>>,
    mut showdown: ResMut<Showdown>,
    mut news: MessageWriter<ForestNews>,
) {
    for a in acts.read() {
        if let ForestAction::PlayCard { card } = a.action {
            lay(&mut showdown, a.seat, card, &mut news);
        }
    }
}

/// A side whose clock ran out plays a random card from its hand.
pub fn time_up(
    mut passed: MessageReader<DeadlinePassed<ForestTimer>>,
    mut showdown: ResMut<Showdown>,
    holdings: Holdings,
    mut rng: ResMut<TableRng>,
    clock: Res<TableClock>,
    mut log: ResMut<ActionLog<ForestAction>>,
    mut news: MessageWriter<ForestNews>,
) {
    for DeadlinePassed { timer } in passed.read() {
        if *timer != ForestTimer::ShowdownCard {
            continue;
        }
        let Some(pending) = showdown.0.clone() else {
            continue;
        };
        for seat in [pending.asker, pending.target] {
            if pending.choice(seat) != Some(None) {
                continue;
            }
            let Some(&card) = holdings.hand(seat).choose(&mut rng.0) else {
                continue;
            };
            news.write(ForestNews::RandomCard { seat });
            log.entries.push(LogEntry::Auto {
                at_ms: clock.now_ms,
                what: format!("seat {seat} timed out: random showdown card"),
            });
            lay(&mut showdown, seat, card, &mut news);
        }
    }
}

/// Whether both cards of the showdown are down ([`reveal`]'s condition).
pub fn both_laid(showdown: Res<Showdown>) -> bool {
    showdown
        .0
        .as_ref()
        .is_some_and(|p| p.asker_card.is_some() && p.target_card.is_some())
}

/// Both cards are down: both are revealed together. Seed: "At the end of
/// a Showdown play passes to the next player no matter who wins the
/// Showdown."
pub fn reveal(
    mut showdown: ResMut<Showdown>,
    mut holdings: Holdings,
    mut clocks: Clocks,
    mut turn: ResMut<Turn>,
    mut reveals: ResMut<Reveals>,
    mut news: MessageWriter<ForestNews>,
) {
    let Some(PendingShowdown {
        asker,
        target,
        asker_card: Some(ac),
        target_card: Some(tc),
    }) = showdown.0.clone()
    else {
        return;
    };
    showdown.0 = None;
    clocks.deadlines.cancel(&ForestTimer::ShowdownCard);
    holdings.reveal(asker, ac);
    holdings.reveal(target, tc);
    let outcome = showdown_outcome(ac, tc);
    match outcome {
        ShowdownOutcome::AskerTakes => holdings.give(target, asker, tc),
        ShowdownOutcome::TargetTakes => holdings.give(asker, target, ac),
        ShowdownOutcome::StandOff => {}
    }
    let reveal = ShowdownReveal {
        asker,
        target,
        asker_card: ac,
        target_card: tc,
        outcome,
    };
    news.write(ForestNews::ShowdownRevealed(reveal.clone()));
    reveals.showdown = Some(reveal);
    // Each side is told what it gained or lost, and why.
    let gain = |c: CardId| (1, energy_of(c));
    let loss = |c: CardId| (-1, -energy_of(c));
    let (to_asker, to_target) = match outcome {
        ShowdownOutcome::AskerTakes => (gain(tc), loss(tc)),
        ShowdownOutcome::TargetTakes => (loss(ac), gain(ac)),
        ShowdownOutcome::StandOff => ((0, 0), (0, 0)),
    };
    for (seat, other, mine, theirs, by) in [
        (asker, target, ac, tc, to_asker),
        (target, asker, tc, ac, to_target),
    ] {
        let why = ForestWhy::Showdown {
            other,
            mine,
            theirs,
            meeting: meeting(mine, theirs),
        };
        holdings.tell(&mut news, seat, why, by);
    }
    turn.over = true;
}
