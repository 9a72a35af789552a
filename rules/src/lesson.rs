//! Guided first games ("Learn to play", issue 38): a table dealt as a
//! scenario is (seed, players, settings, a scripted deal), and a script it
//! follows, in which the learner (seat 1) takes each kind of action of the
//! game once, told at each step what to do and why, while the other seats
//! play scripted moves. The format is in `rules/SCENARIOS.md` ("Lessons");
//! each game's lesson is `rules/src/<game>/lesson.ron`.
//!
//! The table is a table like any other: its judge judges every move. The
//! lesson only narrows what it takes from the learner to the step's one
//! move, and says so when it refuses another ([`LessonRun::submit`]).
//! `tests/lessons.rs` plays every lesson headless to its end.

use serde::{Deserialize, Serialize};

use crate::game_id::GameId;
use crate::table::{Game, Rejection, SeatId, SeatName, Seats, Table, TableConfig};
use crate::text::Bilingual;

/// A game's lesson file, if it has one (each game's `lesson()`).
pub fn lesson_text(game: GameId) -> Option<&'static str> {
    match game {
        GameId::Forest => crate::forest::lesson(),
        GameId::Crueler => crate::crueler::lesson(),
        GameId::Gene => crate::gene::lesson(),
        GameId::Wanning => crate::wanning::lesson(),
    }
}

/// The learner's seat: the first.
pub const LEARNER: SeatId = SeatId(0);

/// A lesson as its file holds it.
#[derive(Deserialize)]
#[serde(bound = "", deny_unknown_fields)]
pub struct Lesson<G: Game> {
    pub game: String,
    pub seed: u64,
    pub players: usize,
    #[serde(default)]
    pub settings: Option<G::Settings>,
    #[serde(default)]
    pub setup: Option<G::Setup>,
    pub steps: Vec<Teach<G>>,
    /// What to remember, shown when the lesson is over.
    pub summary: Vec<Bilingual>,
}

/// One step of a lesson.
#[derive(Debug, Serialize, Deserialize)]
#[serde(bound = "")]
pub enum Teach<G: Game> {
    /// The learner is told `say` (what to do, and why it matters); the
    /// screen marks what `point` names (its account's names of pieces and
    /// controls, `*` standing for any part, in the order they are used);
    /// the table takes only `act` from the learner.
    Do {
        say: Bilingual,
        point: Vec<String>,
        act: G::Action,
    },
    /// Another seat makes a scripted move.
    Bot(SeatId, G::Action),
    /// The table's clock moves on (deadlines fire: a round's time runs
    /// out).
    Wait(u64),
    /// A statement about the table that holds here (the lesson's test
    /// checks it; it shows what the step taught happened).
    Check(G::Check),
}

/// What the learner's screen is told of the lesson now.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LessonNow {
    /// The step the learner is on (1-based) and how many there are.
    pub step: u16,
    pub steps: u16,
    /// What to do now, and why (empty while the other seats play).
    pub say: Option<Bilingual>,
    /// What the screen marks (names of its account, `*` for any part).
    pub point: Vec<String>,
    /// Every step is done: the summary is shown.
    pub done: bool,
    pub summary: Vec<Bilingual>,
}

/// Whether a screen's name matches a lesson's pattern: `*` stands for any
/// run of characters.
pub fn matches(pattern: &str, name: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or_default();
    let Some(mut rest) = name.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(i) => rest = &rest[i + part.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// A lesson being played at a table: where the script has got to.
pub struct LessonRun<G: Game> {
    lesson: Lesson<G>,
    at: usize,
}

impl<G: Game> LessonRun<G> {
    /// Reads a lesson file.
    pub fn parse(text: &str) -> Result<Lesson<G>, String> {
        let lesson: Lesson<G> = ron::from_str(text).map_err(|e| format!("lesson: {e}"))?;
        if lesson.game != G::ID.key() {
            return Err(format!("lesson for '{}' read as {}", lesson.game, G::ID));
        }
        Ok(lesson)
    }

    /// Deals the lesson's table, its seats named `names` (the learner's
    /// first), and plays the script up to the learner's first move.
    pub fn start(lesson: Lesson<G>, names: Vec<SeatName>) -> Result<(Table<G>, Self), String> {
        if names.len() != lesson.players {
            return Err(format!(
                "{} names for a lesson of {}",
                names.len(),
                lesson.players
            ));
        }
        let mut config = TableConfig::<G>::new(lesson.seed, lesson.players);
        config.seats = Seats { names };
        if let Some(settings) = &lesson.settings {
            config.settings = settings.clone();
        }
        let table = Table::with_setup(config, lesson.setup.as_ref()).map_err(|e| e.to_string())?;
        Ok((table, Self { lesson, at: 0 }))
    }

    /// How many seats the lesson's table has.
    pub fn players(&self) -> usize {
        self.lesson.players
    }

    /// How far the script has got (steps made).
    pub fn position(&self) -> usize {
        self.at
    }

    /// Makes the next step if it is not the learner's: a scripted move, the
    /// clock moved on, a check. `None` when the script waits on the learner
    /// or is over; `Some(Err)` when the table refused a scripted step (the
    /// lesson is broken: its test catches this first).
    pub fn auto_step(&mut self, table: &mut Table<G>) -> Option<Result<(), String>> {
        let step = self.lesson.steps.get(self.at)?;
        let n = self.at + 1;
        let result = match step {
            Teach::Do { .. } => return None,
            Teach::Bot(seat, action) => table
                .submit(*seat, action.clone())
                .map_err(|e| format!("lesson step {n}: seat {seat} {action:?} refused: {e}")),
            Teach::Wait(ms) => {
                table.advance_by(*ms);
                Ok(())
            }
            Teach::Check(check) => G::verify(table.world(), check)
                .map_err(|e| format!("lesson step {n}: {check:?} does not hold: {e}")),
        };
        self.at += 1;
        Some(result)
    }

    /// The learner asks for `action`: taken, and the script moves on, if it
    /// is this step's move and the judge takes it; otherwise refused with
    /// what the step asks (the table unchanged).
    pub fn submit(
        &mut self,
        table: &mut Table<G>,
        seat: SeatId,
        action: G::Action,
    ) -> Result<(), Rejection> {
        let wanted = match self.lesson.steps.get(self.at) {
            Some(Teach::Do { act, say, .. }) if seat == LEARNER => {
                (act == &action).then_some(()).ok_or_else(|| {
                    Rejection::new(
                        format!("Not in this lesson. {}", say.en),
                        format!("这一课不这样走。{}", say.zh),
                    )
                })
            }
            Some(Teach::Do { .. }) | None => Err(Rejection::new(
                "the lesson's table takes no move from this seat now",
                "这一课此刻不接受这个座位的行动",
            )),
            Some(_) => Err(Rejection::new(
                "wait: the other players are moving",
                "请稍候：其他玩家正在行动",
            )),
        };
        wanted?;
        table.submit(seat, action)?;
        self.at += 1;
        Ok(())
    }

    /// What the learner's screen is told now.
    pub fn now(&self) -> LessonNow {
        let is_do = |t: &Teach<G>| matches!(t, Teach::Do { .. });
        let steps = self.lesson.steps.iter().filter(|t| is_do(t)).count();
        let done_before = self.lesson.steps[..self.at.min(self.lesson.steps.len())]
            .iter()
            .filter(|t| is_do(t))
            .count();
        let done = self.at >= self.lesson.steps.len();
        let (say, point) = match self.lesson.steps.get(self.at) {
            Some(Teach::Do { say, point, .. }) => (Some(say.clone()), point.clone()),
            _ => (None, Vec::new()),
        };
        LessonNow {
            step: (done_before + usize::from(!done)).min(steps) as u16,
            steps: steps as u16,
            say,
            point,
            done,
            summary: if done {
                self.lesson.summary.clone()
            } else {
                Vec::new()
            },
        }
    }

    /// Plays the whole lesson headless, the learner making each step's
    /// move: the table at the end, or what went wrong.
    pub fn play_through(lesson: Lesson<G>) -> Result<(Table<G>, Vec<G::Action>), String> {
        let names = (1..=lesson.players)
            .map(|i| SeatName::Person(format!("Seat {i}")))
            .collect();
        let (mut table, mut run) = Self::start(lesson, names)?;
        let mut learnt = Vec::new();
        loop {
            while let Some(step) = run.auto_step(&mut table) {
                step?;
            }
            let Some(Teach::Do { act, .. }) = run.lesson.steps.get(run.at) else {
                break;
            };
            let act = act.clone();
            let n = run.at + 1;
            run.submit(&mut table, LEARNER, act.clone())
                .map_err(|e| format!("lesson step {n}: the learner's {act:?} refused: {e}"))?;
            learnt.push(act);
        }
        Ok((table, learnt))
    }
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn a_star_stands_for_any_part() {
        assert!(matches("seat:1", "seat:1"));
        assert!(!matches("seat:1", "seat:12"));
        assert!(matches("mine:*:red-fox", "mine:31:red-fox"));
        assert!(!matches("mine:*:red-fox", "known:31:red-fox"));
        assert!(matches("known:1:*:grass*", "known:1:7:grasshopper"));
        assert!(matches("*", "anything"));
        assert!(!matches("a*b*c", "a-c"));
    }
}
