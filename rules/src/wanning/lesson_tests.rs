//! Wanning Beast Chess's "Learn to play" lesson (issue 38,
//! `lesson.ron` beside this file) played through headless: every scripted
//! move and each of the learner's is taken by the judge, every check of
//! the script holds, and the learner (seat 1) takes each kind of move a
//! level-1 player makes. The rules.md clauses it walks through:
//!
//! - §1 Bans: "each player names 0, 1 or 2 different instincts, once";
//!   "an instinct named by x of the n players is banned with probability
//!   x/n" (named by all four: banned).
//! - §1 Pick: "Each player picks one unbanned instinct, in secret"; 強健's
//!   shields: "a player holding 強健 ... gains two shields when the pick
//!   closes".
//! - §1 The forms' announcement: "the table hears which form, AT or PT
//!   ... was picked more often"; Peek: "each player may name one other
//!   player and is told, privately, that player's instinct type".
//! - §3 Attack: "One level lower: 1 damage; two or more levels lower: 2
//!   damage; the same level or higher: nothing"; Sensing: "The player is
//!   told privately the sensed player's object this round: its attack ...
//!   target". The learner is level 1, so its target is sensed; the bots'
//!   attacks on it are the attacks it sees settled.
//! - §4 恐懼: "In round 1 the instincts of level-1 and level-2 players are
//!   invalid".
//! - §5 Shields: "each shield stops one point of ordinary damage, never
//!   true damage"; HP lock; §6 強健: "HP locked at half last round's HP,
//!   rounded down"; 狐假虎威: "2 true damage and 2 shields to them".
//! - §4 智慧: "every level and every form is right" wins "for the
//!   guesser's level after that round's settlement and announcement";
//!   §7: "Each player of the winning level scores 1, the others 0".

use crate::GameId;
use crate::lesson::{LEARNER, Lesson, LessonRun, Teach, lesson_text};
use crate::table::{SeatId, Table};

use super::state::Learned;
use super::{Form, InstinctUse, WanningAction, WanningGame};

fn lesson() -> Lesson<WanningGame> {
    let text = lesson_text(GameId::Wanning).expect("Wanning has a lesson");
    LessonRun::<WanningGame>::parse(text).expect("the lesson file reads")
}

fn play() -> (Table<WanningGame>, Vec<WanningAction>) {
    LessonRun::<WanningGame>::play_through(lesson()).unwrap_or_else(|e| panic!("wanning: {e}"))
}

/// The lesson reaches its end, a level winning (here by the learner's
/// wisdom), and the learner has banned, picked, peeked, sensed, used its
/// instinct and made a wisdom guess, each by its own move; what it was
/// told is what those moves tell a level-1 player.
#[test]
fn the_wanning_lesson_plays_through_to_a_level_winning() {
    let (table, learnt) = play();
    assert!(table.is_over(), "the lesson ends with the game over");
    let view = table.view(LEARNER);
    assert_eq!(view.winner, Some(1), "level 1 wins");
    assert_eq!(view.level, Some(1), "the learner is level 1: it senses");
    let has = |f: &dyn Fn(&WanningAction) -> bool| learnt.iter().any(f);
    assert!(has(
        &|a| matches!(a, WanningAction::Ban { instincts } if !instincts.is_empty())
    ));
    assert!(has(&|a| matches!(a, WanningAction::Pick { .. })));
    assert!(has(&|a| matches!(
        a,
        WanningAction::Peek { target: Some(_) }
    )));
    let orders = |f: &dyn Fn(&super::Plan) -> bool| {
        learnt
            .iter()
            .any(|a| matches!(a, WanningAction::Orders(p) if f(p)))
    };
    assert!(orders(&|p| p.target.is_some()), "a sensing");
    assert!(
        orders(&|p| matches!(p.instinct, Some(InstinctUse::Sturdy))),
        "an instinct used"
    );
    assert!(orders(&|p| p.wisdom.is_some()), "a wisdom guess");
    // What the moves told the learner: the peek's type, two sensings, the
    // wisdom's answer.
    let told = |f: &dyn Fn(&Learned) -> bool| view.learned.iter().any(f);
    assert!(told(&|l| matches!(l, Learned::Peeked { .. })));
    assert_eq!(
        view.learned
            .iter()
            .filter(|l| matches!(l, Learned::Sensed { .. }))
            .count(),
        2
    );
    assert!(told(&|l| matches!(l, Learned::Wisdom { right: true, .. })));
}

/// Each step points at what its move uses on the screen: the seat its
/// move names (`seat:N`, the screen's 0-based numbers), the instinct card
/// it bans or picks, and last the control that sends the move.
#[test]
fn each_step_points_at_what_its_move_uses() {
    for step in lesson().steps {
        let Teach::Do { point, act, say } = step else {
            continue;
        };
        assert!(!say.en.is_empty() && !say.zh.is_empty());
        let seat = |s: SeatId| format!("seat:{}", s.0);
        let (uses, sends): (Vec<String>, &str) = match &act {
            WanningAction::Ban { instincts } => (
                instincts
                    .iter()
                    .map(|i| format!("instinct:{i:?}"))
                    .collect(),
                "ban",
            ),
            WanningAction::Pick { instinct } => (vec![format!("instinct:{instinct:?}")], "pick"),
            WanningAction::Peek { target } => (target.map(seat).into_iter().collect(), "peek"),
            WanningAction::Orders(p) => (
                [p.target, p.second, p.slaughter]
                    .into_iter()
                    .flatten()
                    .map(seat)
                    .collect(),
                "orders",
            ),
            other => panic!("the lesson teaches no {other:?}"),
        };
        for u in &uses {
            assert!(point.contains(u), "{act:?} points at {point:?}, not {u}");
        }
        assert_eq!(point.last().map(String::as_str), Some(sends), "{act:?}");
        if let WanningAction::Orders(p) = &act {
            assert_eq!(
                p.instinct.is_some(),
                point.iter().any(|p| p == "use-instinct"),
                "{act:?}"
            );
            if let Some(g) = &p.wisdom {
                assert!(point.iter().any(|p| p == "wisdom"));
                for (s, form) in &g.forms {
                    let i = s.index();
                    let form = match form {
                        Form::At => "AT",
                        Form::Pt => "PT",
                    };
                    assert!(point.contains(&format!("guess-form:{i}:{form}")));
                    assert!(point.contains(&format!("guess-level:{i}:{}", g.levels[i])));
                }
            }
        }
    }
}
