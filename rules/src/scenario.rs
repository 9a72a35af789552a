//! Scripted tables: the `foodweb scenario` command, and the format the
//! games' rule tests are written in. The format is documented in
//! `rules/SCENARIOS.md`.

use serde::{Deserialize, Serialize};

use crate::game_id::GameId;
use crate::table::{
    Announcement, Game, GameResult, PrivateNote, SeatId, Seats, Table, TableConfig,
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

/// One line of a script.
#[derive(Clone, Serialize, Deserialize)]
#[serde(bound = "")]
pub enum Step<G: Game> {
    /// A seat acts; the step fails if the action is refused.
    Act(SeatId, G::Action),
    /// A seat tries an action that must be refused.
    Reject(SeatId, G::Action),
    /// A seat tries an action, whatever the verdict.
    Try(SeatId, G::Action),
    /// The clock moves on this many milliseconds.
    Wait(u64),
    /// A statement about the table that must hold here.
    Check(G::Check),
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
    pub names: Option<Vec<String>>,
    #[serde(default)]
    pub settings: Option<G::Settings>,
    #[serde(default)]
    pub setup: Option<G::Setup>,
    pub steps: Vec<Step<G>>,
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
pub fn run<G: Game>(text: &str) -> Result<(ScenarioReport<G>, Table<G>), ScenarioError> {
    let scenario: Scenario<G> =
        ron::from_str(text).map_err(|e| ScenarioError::Parse(e.to_string()))?;
    if scenario.game != G::ID.key() {
        return Err(ScenarioError::Parse(format!(
            "game '{}' given to the {} runner",
            scenario.game,
            G::ID
        )));
    }
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
    let mut table = Table::with_setup(config, scenario.setup.as_ref())
        .map_err(|e| ScenarioError::Setup(e.to_string()))?;
    let mut steps = Vec::new();
    for (index, step) in scenario.steps.iter().enumerate() {
        let mut report = StepReport {
            index: index + 1,
            step: step_text(step),
            outcome: String::new(),
            reason: None,
            failure: None,
        };
        match step {
            Step::Act(seat, action) | Step::Reject(seat, action) | Step::Try(seat, action) => {
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
                    (Step::Reject(..), Ok(())) => Some("expected refusal, accepted".into()),
                    _ => None,
                };
            }
            Step::Wait(ms) => {
                table.advance_by(*ms);
                report.outcome = "waited".into();
            }
            Step::Check(check) => match G::verify(table.world(), check) {
                Ok(()) => report.outcome = "held".into(),
                Err(e) => report.failure = Some(e),
            },
        }
        if report.failure.is_some() {
            report.outcome = "FAILED".into();
        }
        steps.push(report);
    }
    let seats: Vec<SeatId> = table.config().seats.ids().collect();
    let report = ScenarioReport {
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
    };
    Ok((report, table))
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
