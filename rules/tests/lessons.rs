//! Every game's "Learn to play" lesson (issue 38) plays through headless:
//! each scripted move and each of the learner's is taken by the judge,
//! each check holds (what the step teaches happened), and the learner
//! takes every kind of move the game has.

use foodweb_rules::GameId;
use foodweb_rules::forest::{ForestAction, ForestGame};
use foodweb_rules::lesson::{LessonRun, lesson_text};
use foodweb_rules::table::Game;

fn play<G: Game>() -> (foodweb_rules::table::Table<G>, Vec<G::Action>) {
    let text = lesson_text(G::ID).expect("the game has a lesson");
    let lesson = LessonRun::<G>::parse(text).expect("the lesson file reads");
    LessonRun::play_through(lesson).unwrap_or_else(|e| panic!("{}: {e}", G::ID))
}

/// Forest Showdown's lesson: the learner asks for a showdown, lays cards
/// (winning one showdown and losing one, and once with Death & Decay),
/// challenges right and wrong, and the round ends and is scored (its
/// checks: `Holds`, `ShortHand`, `RoundScore`, `Phase(GameOver)`).
#[test]
fn the_forest_lesson_plays_through() {
    let (table, learnt) = play::<ForestGame>();
    assert!(table.is_over(), "the lesson ends with the round scored");
    let has = |f: fn(&ForestAction) -> bool| learnt.iter().any(f);
    assert!(has(|a| matches!(a, ForestAction::AskShowdown { .. })));
    assert!(has(|a| matches!(a, ForestAction::PlayCard { .. })));
    assert!(has(|a| matches!(a, ForestAction::Challenge { .. })));
}

/// A lesson's refusal says what the step asks, and changes nothing.
#[test]
fn a_move_the_step_does_not_ask_is_refused_with_the_step() {
    let text = lesson_text(GameId::Forest).expect("a lesson");
    let lesson = LessonRun::<ForestGame>::parse(text).expect("reads");
    let names = vec!["Ann".into(), "Bot 2".into(), "Bot 3".into()];
    let (mut table, mut run) = LessonRun::start(lesson, names).expect("starts");
    while let Some(step) = run.auto_step(&mut table) {
        step.expect("scripted steps are taken");
    }
    let before = table.snapshot().hash();
    let seat3 = foodweb_rules::table::SeatId(2);
    let refused = run
        .submit(
            &mut table,
            foodweb_rules::lesson::LEARNER,
            ForestAction::AskShowdown { target: seat3 },
        )
        .expect_err("the step asks for Bot 2");
    assert!(refused.reason.en.contains("Bot 2"), "{refused}");
    assert_eq!(table.snapshot().hash(), before);
    assert_eq!(run.now().step, 1);
}
