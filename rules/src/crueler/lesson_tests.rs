//! Crueler World's "Learn to play" lesson (issue 38, `lesson.ron`) plays
//! through headless, and the learner takes each kind of move the game
//! teaches a newcomer.

use super::{CruelerAction, CruelerGame};
use crate::lesson::LessonRun;

/// The lesson plays to its end, every scripted move and every check
/// holding, and the learner's own moves are a prey, two beasts chosen, an
/// offer accepted, an offer made, two readies and two passes. Its checks
/// cover rules.md §1 (the die's number is asked first, then round the
/// table: `Asked`), §3 (preying hands in the card engraved with the prey's
/// number: `Lacks`), §5 (the beast duel, first to 2 throws; the winner +N,
/// the loser −N: `Life`), §2 (a loss takes the loser's tokens into the
/// winner's box; life given or exchanged between phases when both agree:
/// `TokensFrom`), §4 (N = 2 in round 1, 3 in round 2), §8 (the loser of a
/// round-1 or round-2 duel enters the Nature Reserve, emptied when the
/// round ends: `Reserve`) and §7 (asked once more, neither having preyed
/// nor been preyed upon, a pass starves: −N, `Said("starved")`).
#[test]
fn the_crueler_lesson_plays_through() {
    let text = super::lesson().expect("Crueler World has a lesson");
    let lesson = LessonRun::<CruelerGame>::parse(text).expect("the lesson file reads");
    let steps = lesson.steps.len();
    let (table, learnt) = LessonRun::play_through(lesson).unwrap_or_else(|e| panic!("{e}"));
    // `play_through` stops only when every step is made; the last checks
    // have the table in round 3's interlude, the learner alive.
    assert!(steps > 0 && !table.is_over(), "the lesson ends mid-game");
    let count = |f: fn(&CruelerAction) -> bool| learnt.iter().filter(|a| f(a)).count();
    assert_eq!(count(|a| matches!(a, CruelerAction::Prey { .. })), 1);
    assert_eq!(count(|a| matches!(a, CruelerAction::Pass)), 2);
    assert_eq!(count(|a| matches!(a, CruelerAction::Choose { .. })), 2);
    assert_eq!(count(|a| matches!(a, CruelerAction::Accept { .. })), 1);
    assert_eq!(count(|a| matches!(a, CruelerAction::OfferLife { .. })), 1);
    assert_eq!(count(|a| matches!(a, CruelerAction::Ready)), 2);
    assert!(
        (8..=12).contains(&learnt.len()),
        "about 8 to 12 steps of the learner's: {}",
        learnt.len()
    );
}
