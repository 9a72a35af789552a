//! Scripted tables: the `foodweb scenario` command, and the format the
//! games' rule tests are written in. The format is documented in
//! `rules/SCENARIOS.md`.

use bevy_ecs::world::World;
use ron::value::RawValue;
use serde::{Deserialize, Serialize};

use crate::game_id::GameId;
use crate::table::{
    Announcement, Game, GameResult, PrivateNote, SeatId, SeatName, Seats, Table, TableConfig,
};
use crate::text::Bilingual;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScenarioError {
    #[error("scenario file is malformed: {0}")]
    Parse(String),
    #[error("unknown game '{0}' (games: forest, crueler, wanning, gene)")]
    UnknownGame(String),
    #[error("{0} is not playable yet")]
    NotPlayable(GameId),
    #[error("scenario cannot start: {0}")]
    Setup(String),
}

/// A scenario set-up a game refuses, with the reason (every game's set-up
/// checks use it).
pub fn setup_error(why: String) -> crate::table::Rejection {
    crate::table::Rejection::new(
        format!("scenario set-up: {why}"),
        format!("场景设定有误：{why}"),
    )
}

/// One line of a script.
#[derive(Clone, Serialize, Deserialize)]
#[serde(bound = "")]
pub enum Step<G: Game> {
    /// A seat acts; the step fails if the action is refused.
    Act(SeatId, G::Action),
    /// A seat tries an action that must be refused.
    Reject(SeatId, G::Action),
    /// As `Reject`, and the reason given must contain the text (either
    /// language): the refusal names the real reason.
    RejectWith(SeatId, G::Action, String),
    /// A seat tries an action, whatever the verdict.
    Try(SeatId, G::Action),
    /// The clock moves on this many milliseconds.
    Wait(u64),
    /// A statement about the table that must hold here.
    Check(G::Check),
    /// Every seat is played by a bot of this kind (`"reasoning"`,
    /// `"random"`, …) from here to the end of the game; the step fails if
    /// the game does not end. The bots' choices come from the scenario's
    /// seed.
    PlayOn(String),
}

#[derive(Deserialize)]
#[serde(bound = "", deny_unknown_fields)]
pub struct Scenario<G: Game> {
    pub game: String,
    #[serde(default)]
    pub title: String,
    /// The rule clause the scenario checks, quoted.
    #[serde(default)]
    pub rule: String,
    pub seed: u64,
    pub players: usize,
    #[serde(default)]
    pub names: Option<Vec<SeatName>>,
    #[serde(default)]
    pub settings: Option<G::Settings>,
    #[serde(default)]
    pub setup: Option<G::Setup>,
    /// Read one at a time (`load_steps`), so that a step the game's types
    /// cannot represent is reported by its number.
    pub steps: Vec<Box<RawValue>>,
}

/// A step as the loader read it.
enum Loaded<G: Game> {
    Step(Step<G>),
    /// A `Reject` whose action the game's types cannot even represent (a
    /// negative gene value, say): refused before it reaches the table, as a
    /// malformed message from a client is.
    RefusedAtLoad {
        text: String,
        reason: String,
    },
}

/// The shape of a `Reject` step, whatever its action holds (only the
/// shape is read).
#[derive(Deserialize)]
#[allow(dead_code)]
enum AnyReject {
    Reject(SeatId, serde::de::IgnoredAny),
}

/// Reads each step: a step that does not parse is refused with its number,
/// unless it is a `Reject` of an action no client could send.
fn load_steps<G: Game>(raw: &[Box<RawValue>]) -> Result<Vec<Loaded<G>>, ScenarioError> {
    raw.iter()
        .enumerate()
        .map(|(i, r)| match r.into_rust::<Step<G>>() {
            Ok(step) => Ok(Loaded::Step(step)),
            Err(e) if r.into_rust::<AnyReject>().is_ok() => Ok(Loaded::RefusedAtLoad {
                text: r.trim().get_ron().to_string(),
                reason: e.to_string(),
            }),
            Err(e) => Err(ScenarioError::Parse(format!("step {}: {e}", i + 1))),
        })
        .collect()
}

#[derive(Clone, Debug, Serialize)]
pub struct StepReport {
    pub index: usize,
    pub step: String,
    /// "accepted", "rejected", "waited", "held", or "FAILED".
    pub outcome: String,
    pub reason: Option<Bilingual>,
    /// Why the step did not go as the script said.
    pub failure: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
#[serde(bound = "")]
pub struct SeatViewReport<G: Game> {
    pub seat: SeatId,
    pub view: G::View,
    pub notes: Vec<PrivateNote>,
}

#[derive(Clone, Debug, Serialize)]
#[serde(bound = "")]
pub struct ScenarioReport<G: Game> {
    pub game: String,
    pub title: String,
    pub rule: String,
    pub seed: u64,
    pub players: usize,
    pub steps: Vec<StepReport>,
    pub announcements: Vec<Announcement>,
    pub public: G::View,
    pub seats: Vec<SeatViewReport<G>>,
    pub result: Option<GameResult>,
    pub hash: String,
    pub failures: usize,
}

/// Which game a scenario file is for.
pub fn scenario_game(text: &str) -> Result<GameId, ScenarioError> {
    #[derive(Deserialize)]
    #[serde(rename = "Scenario")]
    struct Header {
        game: String,
    }
    let header: Header = ron::from_str(text).map_err(|e| ScenarioError::Parse(e.to_string()))?;
    let game = GameId::from_key(&header.game).ok_or(ScenarioError::UnknownGame(header.game))?;
    if !game.has_rules() {
        return Err(ScenarioError::NotPlayable(game));
    }
    Ok(game)
}

fn step_text<G: Game>(step: &Step<G>) -> String {
    ron::to_string(step).unwrap_or_else(|e| format!("<unprintable step: {e}>"))
}

/// Runs a scenario of game `G` and reports every step.
pub fn run<G: crate::bot::Bots>(
    text: &str,
) -> Result<(ScenarioReport<G>, Table<G>), ScenarioError> {
    let scenario: Scenario<G> =
        ron::from_str(text).map_err(|e| ScenarioError::Parse(e.to_string()))?;
    if scenario.game != G::ID.key() {
        return Err(ScenarioError::Parse(format!(
            "game '{}' given to the {} runner",
            scenario.game,
            G::ID
        )));
    }
    let config = config_for(&scenario)?;
    let loaded = load_steps::<G>(&scenario.steps)?;
    let mut table = Table::with_setup(config, scenario.setup.as_ref())
        .map_err(|e| ScenarioError::Setup(e.to_string()))?;
    let mut steps = Vec::new();
    for (index, loaded) in loaded.iter().enumerate() {
        let n = index + 1;
        let report = match loaded {
            Loaded::Step(step) => play_step(&mut table, step, n, scenario.seed),
            Loaded::RefusedAtLoad { text, reason } => StepReport {
                index: n,
                step: text.clone(),
                outcome: "rejected".into(),
                reason: Some(Bilingual::new(
                    format!("refused at load, step {n}: {reason}"),
                    format!("载入时拒绝，第 {n} 步：{reason}"),
                )),
                failure: None,
            },
        };
        steps.push(report);
    }
    let report = final_report(scenario, steps, &table);
    Ok((report, table))
}

/// The table's configuration: the scenario's seed, players, names and
/// settings.
fn config_for<G: Game>(scenario: &Scenario<G>) -> Result<TableConfig<G>, ScenarioError> {
    let mut config = TableConfig::<G>::new(scenario.seed, scenario.players);
    if let Some(names) = &scenario.names {
        if names.len() != scenario.players {
            return Err(ScenarioError::Setup(format!(
                "{} names for {} players",
                names.len(),
                scenario.players
            )));
        }
        config.seats = Seats {
            names: names.clone(),
        };
    }
    if let Some(settings) = &scenario.settings {
        config.settings = settings.clone();
    }
    Ok(config)
}

/// Plays step number `n` on the table and reports how it went.
fn play_step<G: crate::bot::Bots>(
    table: &mut Table<G>,
    step: &Step<G>,
    n: usize,
    seed: u64,
) -> StepReport {
    let mut report = StepReport {
        index: n,
        step: step_text(step),
        outcome: String::new(),
        reason: None,
        failure: None,
    };
    match step {
        Step::Act(seat, action)
        | Step::Reject(seat, action)
        | Step::RejectWith(seat, action, _)
        | Step::Try(seat, action) => {
            let verdict = table.submit(*seat, action.clone());
            report.outcome = if verdict.is_ok() {
                "accepted"
            } else {
                "rejected"
            }
            .into();
            if let Err(r) = &verdict {
                report.reason = Some(r.reason.clone());
            }
            report.failure = match (step, &verdict) {
                (Step::Act(..), Err(r)) => Some(format!("expected acceptance, refused: {r}")),
                (Step::Reject(..) | Step::RejectWith(..), Ok(())) => {
                    Some("expected refusal, accepted".into())
                }
                (Step::RejectWith(_, _, want), Err(r))
                    if !r.reason.en.contains(want.as_str())
                        && !r.reason.zh.contains(want.as_str()) =>
                {
                    Some(format!("refused, but not because of '{want}': {r}"))
                }
                _ => None,
            };
        }
        Step::Wait(ms) => {
            table.advance_by(*ms);
            report.outcome = "waited".into();
        }
        Step::PlayOn(kind) => match play_on(table, kind, seed) {
            Ok(outcome) => report.outcome = outcome,
            Err(failure) => report.failure = Some(failure),
        },
        Step::Check(check) => match G::verify(table.world(), check) {
            Ok(()) => report.outcome = "held".into(),
            Err(e) => report.failure = Some(e),
        },
    }
    if report.failure.is_some() {
        report.outcome = "FAILED".into();
    }
    report
}

/// A `PlayOn` step: bots of `kind` take every seat and play the table on
/// to its end.
fn play_on<G: crate::bot::Bots>(
    table: &mut Table<G>,
    kind: &str,
    seed: u64,
) -> Result<String, String> {
    use rand::SeedableRng;
    let seats = table.config().seats.ids().count();
    let bots: Option<Vec<_>> = (0..seats).map(|_| G::bot(kind)).collect();
    let mut bots = bots.ok_or_else(|| format!("there is no '{kind}' bot for {}", G::ID))?;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0x5ce7_a210);
    let before = table.log().actions();
    crate::sim::play_on(table, &mut bots, &mut rng)
        .map(|_| format!("played on: {} actions", table.log().actions() - before))
        .map_err(|e| format!("the bots could not play on: {e}"))
}

/// The report of a scenario played: its steps, and the table at the end
/// as the public, each seat and the log see it.
fn final_report<G: Game>(
    scenario: Scenario<G>,
    steps: Vec<StepReport>,
    table: &Table<G>,
) -> ScenarioReport<G> {
    let seats: Vec<SeatId> = table.config().seats.ids().collect();
    ScenarioReport {
        game: scenario.game,
        title: scenario.title,
        rule: scenario.rule,
        seed: scenario.seed,
        players: scenario.players,
        failures: steps.iter().filter(|s| s.failure.is_some()).count(),
        steps,
        announcements: table.announcements().public.clone(),
        public: table.public_view(),
        seats: seats
            .into_iter()
            .map(|seat| SeatViewReport {
                seat,
                view: table.view(seat),
                notes: table.announcements().notes_for(seat),
            })
            .collect(),
        result: table.result(),
        hash: table.snapshot().hash(),
    }
}

impl<G: Game> ScenarioReport<G> {
    /// The report for people: steps, announcements, state, views, hash.
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let pretty = |v: &G::View| {
            ron::ser::to_string_pretty(v, ron::ser::PrettyConfig::default().depth_limit(3))
                .unwrap_or_default()
        };
        let mut out = String::new();
        let _ = writeln!(
            out,
            "scenario: {} ({}), seed {}, {} players",
            self.title, self.game, self.seed, self.players
        );
        if !self.rule.is_empty() {
            let _ = writeln!(out, "rule: {}", self.rule);
        }
        let _ = writeln!(out, "\nsteps:");
        for s in &self.steps {
            let _ = write!(out, "  {:>3}. {:<9} {}", s.index, s.outcome, s.step);
            if let Some(r) = &s.reason {
                let _ = write!(out, "  -- {r}");
            }
            if let Some(f) = &s.failure {
                let _ = write!(out, "  !! {f}");
            }
            out.push('\n');
        }
        let _ = writeln!(out, "\nannouncements:");
        for a in &self.announcements {
            let _ = writeln!(
                out,
                "  [{:>7.1}s] {} | {}",
                a.at_ms as f64 / 1000.0,
                a.text.en,
                a.text.zh
            );
        }
        let _ = writeln!(out, "\npublic state:\n{}", pretty(&self.public));
        for s in &self.seats {
            let _ = writeln!(out, "\nseat {} view:\n{}", s.seat, pretty(&s.view));
            for n in &s.notes {
                let _ = writeln!(out, "  note: {} | {}", n.text.en, n.text.zh);
            }
        }
        if let Some(r) = &self.result {
            let _ = writeln!(
                out,
                "\nresult: scores {:?}, places {:?}",
                r.scores, r.places
            );
        }
        let _ = writeln!(out, "\nsnapshot hash: {}", self.hash);
        let _ = writeln!(out, "failures: {}", self.failures);
        out
    }
}

/// What the referee said, as every game's scenarios check it: public
/// announcements and one seat's private notes, in either language.
#[derive(Clone, Copy, Debug)]
pub enum Heard<'a> {
    /// Some public announcement so far contains the text.
    Said(&'a str),
    NotSaid(&'a str),
    /// Some private note to the seat contains the text.
    Told(SeatId, &'a str),
    NotTold(SeatId, &'a str),
    /// The announcements contain these texts in this order.
    SaidInOrder(&'a [String]),
}

/// Whether a `Heard` check holds; if not, what is the case instead.
pub fn verify_heard(world: &World, check: Heard<'_>) -> Result<(), String> {
    let said = world.resource::<crate::table::Announcements>();
    let has = |t: &Bilingual, text: &str| t.en.contains(text) || t.zh.contains(text);
    let public_has = |text: &str| said.public.iter().any(|a| has(&a.text, text));
    let told = |s: SeatId, text: &str| {
        said.private
            .iter()
            .any(|n| n.seat == s && has(&n.text, text))
    };
    let ok = |cond: bool, msg: String| if cond { Ok(()) } else { Err(msg) };
    match check {
        Heard::Said(t) => ok(public_has(t), format!("nobody announced '{t}'")),
        Heard::NotSaid(t) => ok(!public_has(t), format!("'{t}' was announced")),
        Heard::Told(s, t) => ok(told(s, t), format!("seat {s} was not told '{t}'")),
        Heard::NotTold(s, t) => ok(!told(s, t), format!("seat {s} was told '{t}'")),
        Heard::SaidInOrder(texts) => {
            let mut at = 0;
            for text in texts {
                match said.public[at..].iter().position(|a| has(&a.text, text)) {
                    Some(i) => at += i + 1,
                    None => {
                        return Err(format!("'{text}' was not announced after what came before"));
                    }
                }
            }
            Ok(())
        }
    }
}

/// A game's check enum: its own checks, then the ones every game shares
/// (`Score`, what was said and told, what a seat is sent), which
/// [`verify_common_check!`] verifies the same way in every game.
#[macro_export]
macro_rules! check_enum {
    (
        $(#[$m:meta])*
        pub enum $name:ident about $fact:ty {
            $($own:tt)*
        }
    ) => {
        $(#[$m])*
        pub enum $name {
            $($own)*
            /// The game is over and the seat's final score is this (Forest:
            /// total energy; Gene: gold cubes; Crueler: life left; Wanning: 1
            /// for the winning level's players).
            Score($crate::table::SeatId, i64),
            /// What the referee said (`scenario::Heard`): a public
            /// announcement so far contains the text (either language), or
            /// does not.
            Said(String),
            NotSaid(String),
            /// A private note to the seat contains the text, or none does.
            Told($crate::table::SeatId, String),
            NotTold($crate::table::SeatId, String),
            /// The announcements contain these texts in this order.
            SaidInOrder(Vec<String>),
            /// Something the first seat is sent shows the fact (`Trace`), or
            /// nothing does.
            Sees($crate::table::SeatId, $fact),
            NotSees($crate::table::SeatId, $fact),
        }
    };
}

/// The checks every game's scenarios share, verified the same way in
/// every game: `Score`, `Said`, `NotSaid`, `Told`, `NotTold`,
/// `SaidInOrder`, `Sees` and `NotSees` of the game's check enum. A game's
/// `verify` sends them here from one arm of its match, after its own.
#[macro_export]
macro_rules! verify_common_check {
    ($world:expr, $check:expr, $Check:ident, $Game:ty, $View:ty, $result:expr) => {{
        use $crate::scenario::{Heard, verify_heard, verify_sight};
        match $check {
            $Check::Score(s, n) => $crate::scenario::verify_score($result, *s, *n),
            $Check::Said(t) => verify_heard($world, Heard::Said(t)),
            $Check::NotSaid(t) => verify_heard($world, Heard::NotSaid(t)),
            $Check::Told(s, t) => verify_heard($world, Heard::Told(*s, t)),
            $Check::NotTold(s, t) => verify_heard($world, Heard::NotTold(*s, t)),
            $Check::SaidInOrder(t) => verify_heard($world, Heard::SaidInOrder(t)),
            $Check::Sees(v, fact) => {
                verify_sight::<$Game, _>($world, *v, fact, true, <$View>::traces)
            }
            $Check::NotSees(v, fact) => {
                verify_sight::<$Game, _>($world, *v, fact, false, <$View>::traces)
            }
            other => unreachable!("{other:?} is the game's own check"),
        }
    }};
}

/// `Score(seat, n)`: the game is over and the seat's final score is `n`
/// (Forest: total energy; Gene: gold cubes; Crueler: life left).
pub fn verify_score(result: Option<GameResult>, seat: SeatId, want: i64) -> Result<(), String> {
    let Some(result) = result else {
        return Err("the game is not over: there is no score yet".into());
    };
    match result.scores.get(seat.index()) {
        Some(&have) if have == want => Ok(()),
        Some(&have) => Err(format!("seat {seat} scored {have}, not {want}")),
        None => Err(format!("there is no seat {seat}")),
    }
}

/// How a fact would show in what a seat is sent, for `Sees`/`NotSees`:
/// each game's facts say whose they are, which fields would carry them and
/// how a note would word them. The search reads everything the viewer is
/// sent (its whole serialized view, the announcements and its own notes),
/// not the fields a view happens to have, so a `NotSees` about another
/// seat's secret fails the day a view or a note starts to carry it.
#[derive(Clone, Debug)]
pub struct Trace {
    /// What an object (or one around it) must name for its fields to
    /// count: the seat (its `seat` field, or `me` for the viewer's own
    /// view), or another field's value (a room, say).
    pub scope: Scope,
    /// Fields whose value is the fact's, or a list holding it.
    pub fields: &'static [&'static str],
    /// Fields that list one value per seat, in seat order, anywhere in the
    /// view: the scope seat's entry is the fact's.
    pub per_seat: &'static [&'static str],
    pub value: serde_json::Value,
    /// The fields are lists and the value is how long the list is (a
    /// count of cards, say).
    pub count: bool,
    /// Words a note would use for the value (either language); a note
    /// shows the fact if it has one of them and, for a seat's fact, the
    /// seat's name.
    pub words: Vec<String>,
}

#[derive(Clone, Debug)]
pub enum Scope {
    Seat(SeatId),
    /// An object (or one around it) with all these fields so.
    Fields(Vec<(&'static str, serde_json::Value)>),
    /// Any object: the field itself says whose it is (a duel's `prey`).
    Anywhere,
}

impl Trace {
    pub fn of_seat(seat: SeatId, fields: &'static [&'static str], value: impl Serialize) -> Self {
        Self {
            scope: Scope::Seat(seat),
            fields,
            per_seat: &[],
            value: serde_json::to_value(value).expect("facts serialize"),
            count: false,
            words: Vec::new(),
        }
    }

    /// A fact that lies in fields of any object, whoever it is about.
    pub fn anywhere(fields: &'static [&'static str], value: impl Serialize) -> Self {
        Self {
            scope: Scope::Anywhere,
            ..Self::of_seat(SeatId(0), fields, value)
        }
    }

    /// A fact in the fields of an object (or one around it) whose `key`
    /// has this value.
    pub fn within(
        key: &'static str,
        at: impl Serialize,
        fields: &'static [&'static str],
        value: impl Serialize,
    ) -> Self {
        Self {
            scope: Scope::Fields(vec![(
                key,
                serde_json::to_value(at).expect("facts serialize"),
            )]),
            ..Self::of_seat(SeatId(0), fields, value)
        }
    }

    /// Also requires `key` to be `value` in the scope's object.
    pub fn and(mut self, key: &'static str, value: impl Serialize) -> Self {
        if let Scope::Fields(all) = &mut self.scope {
            all.push((key, serde_json::to_value(value).expect("facts serialize")));
        }
        self
    }

    /// The fields are lists `value` long.
    pub fn counted(mut self) -> Self {
        self.count = true;
        self
    }

    pub fn per_seat(mut self, fields: &'static [&'static str]) -> Self {
        self.per_seat = fields;
        self
    }

    pub fn words(mut self, words: impl IntoIterator<Item = String>) -> Self {
        self.words = words.into_iter().collect();
        self
    }

    /// Where in a serialized view the fact shows, if anywhere: a path.
    pub fn in_view(&self, view: &serde_json::Value) -> Option<String> {
        self.search(view, false, "view")
    }

    /// `named`: whether an enclosing object is in scope already.
    fn search(&self, v: &serde_json::Value, named: bool, path: &str) -> Option<String> {
        use serde_json::Value;
        let holds = |x: &Value| match (self.count, x.as_array()) {
            (true, Some(a)) => self.value.as_u64() == Some(a.len() as u64),
            (true, None) => false,
            (false, a) => *x == self.value || a.is_some_and(|a| a.contains(&self.value)),
        };
        match v {
            Value::Object(map) => {
                let seat_key = map.get("seat").or_else(|| map.get("me"));
                let named = match &self.scope {
                    // The nearest object that names a seat decides.
                    Scope::Seat(s) => match seat_key {
                        Some(k) => *k == serde_json::to_value(s).expect("seats serialize"),
                        None => named,
                    },
                    Scope::Fields(all) => {
                        named || all.iter().all(|(k, want)| map.get(*k) == Some(want))
                    }
                    Scope::Anywhere => true,
                };
                for (key, x) in map {
                    let here = format!("{path}.{key}");
                    if named && self.fields.contains(&key.as_str()) && holds(x) {
                        return Some(here);
                    }
                    if let (Scope::Seat(s), true) =
                        (&self.scope, self.per_seat.contains(&key.as_str()))
                        && let Some(entry) = x.as_array().and_then(|a| a.get(s.index()))
                        && holds(entry)
                    {
                        return Some(format!("{here}[{}]", s.index()));
                    }
                    if let Some(found) = self.search(x, named, &here) {
                        return Some(found);
                    }
                }
                None
            }
            Value::Array(items) => items
                .iter()
                .enumerate()
                .find_map(|(i, x)| self.search(x, named, &format!("{path}[{i}]"))),
            _ => None,
        }
    }

    /// Whether a line of text says the fact.
    fn in_text(&self, text: &Bilingual, names: &Seats) -> bool {
        let named = match &self.scope {
            Scope::Seat(s) => {
                let name = names.words(*s);
                !name.en.is_empty() && (text.en.contains(&name.en) || text.zh.contains(&name.zh))
            }
            Scope::Fields(..) | Scope::Anywhere => true,
        };
        named
            && self
                .words
                .iter()
                .any(|w| text.en.contains(w.as_str()) || text.zh.contains(w.as_str()))
    }
}

/// `Sees(viewer, fact)` / `NotSees(viewer, fact)`: whether anything the
/// viewer is sent shows the fact (`Trace`).
pub fn verify_sight<G: Game, F: std::fmt::Debug>(
    world: &World,
    viewer: SeatId,
    fact: &F,
    want: bool,
    traces: impl Fn(&F) -> Vec<Trace>,
) -> Result<(), String> {
    let view = serde_json::to_value(G::view(world, Some(viewer))).expect("views serialize");
    let where_ = traces(fact)
        .iter()
        .find_map(|t| sight(world, viewer, &view, t));
    match (where_, want) {
        (Some(_), true) | (None, false) => Ok(()),
        (None, true) => Err(format!("nothing seat {viewer} is sent shows {fact:?}")),
        (Some(at), false) => Err(format!("seat {viewer} is shown {fact:?}, in {at}")),
    }
}

/// Where `view` (as serialized for `viewer`) or the lines the viewer heard
/// show the trace.
pub fn sight(
    world: &World,
    viewer: SeatId,
    view: &serde_json::Value,
    trace: &Trace,
) -> Option<String> {
    if let Some(at) = trace.in_view(view) {
        return Some(at);
    }
    let names = world.resource::<Seats>();
    let said = world.resource::<crate::table::Announcements>();
    if let Some(a) = said.public.iter().find(|a| trace.in_text(&a.text, names)) {
        return Some(format!("the announcement '{}'", a.text.en));
    }
    said.private
        .iter()
        .filter(|n| n.seat == viewer)
        .find(|n| trace.in_text(&n.text, names))
        .map(|n| format!("its note '{}'", n.text.en))
}
