//! Crueler World on the table core: settings, the one judge, the systems
//! that apply accepted actions, the view, and a random bot.

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use rand::RngExt;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::numbers::numbers;
use super::scenario::{CruelerCheck, CruelerFact, CruelerSetup};
use super::state::{
    Beast, CruelerAction, CruelerPhase, CruelerState, DuelKind, LifeOffer, Outcome, StarveBy,
};
use crate::bot::Bot;
use crate::game_id::GameId;
use crate::table::{
    Accepted, ActionLog, Announcements, DeadlinePassed, Deadlines, Game, GameResult, LogEntry,
    Rejection, Said, SeatId, Seats, Settings, TableClock, TableRng, TableSet,
};

pub struct CruelerGame;

/// Table settings (rules.md §3 and §5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CruelerSettings {
    /// Life points in each box at the start.
    pub start_life: i32,
    pub duel: DuelKind,
    /// Throws a duelist must win (beast duels).
    pub wins_needed: u8,
    /// Who has preyed, or been preyed upon, counts for the round (the
    /// seed) or afresh each predation phase.
    pub starve_by: StarveBy,
    /// Seconds the asked player has to prey or pass; then they pass.
    /// 0 = no limit.
    pub ask_secs: u32,
    /// Seconds each duelist has to choose a beast for a throw; then the
    /// referee draws one at random. 0 = no limit.
    pub duel_secs: u32,
    /// Seconds an interlude lasts at most; then unanswered offers lapse
    /// and everyone is ready. 0 = no limit.
    pub interlude_secs: u32,
}

impl Default for CruelerSettings {
    fn default() -> Self {
        Self {
            start_life: 10,
            duel: DuelKind::Beasts,
            wins_needed: 2,
            starve_by: StarveBy::Round,
            ask_secs: 60,
            duel_secs: 30,
            interlude_secs: 180,
        }
    }
}

impl CruelerSettings {
    pub fn check(&self) -> Result<(), Rejection> {
        if !(1..=50).contains(&self.start_life) {
            return Err(Rejection::new(
                "starting life is 1 to 50",
                "初始生命值须为 1 到 50",
            ));
        }
        if !(1..=3).contains(&self.wins_needed) {
            return Err(Rejection::new(
                "a duel is won with 1 to 3 throws",
                "决斗须赢 1 到 3 回合",
            ));
        }
        for secs in [self.ask_secs, self.duel_secs, self.interlude_secs] {
            if secs != 0 && !(5..=3600).contains(&secs) {
                return Err(Rejection::new(
                    "each time limit is off (0) or 5 s to 1 hour",
                    "每个时限须为 0（不限时）或 5 秒到 1 小时",
                ));
            }
        }
        Ok(())
    }
}

/// Which clock is running. Each wait has its own key, so a new wait (the
/// next player asked, the next throw) always starts a fresh clock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CruelerTimer {
    Interlude {
        round: u8,
        phase_no: u8,
    },
    Ask {
        round: u8,
        phase_no: u8,
        second: bool,
        turn: u8,
    },
    Duel {
        round: u8,
        phase_no: u8,
        turn: u8,
        throws: u8,
    },
}

impl CruelerTimer {
    /// The clock the table should run now, with its length in seconds.
    fn now(state: &CruelerState, phase: CruelerPhase, s: &CruelerSettings) -> Option<(Self, u32)> {
        let (round, phase_no) = (state.round, state.phase_no);
        let turn = state.turn as u8;
        let (timer, secs) = match phase {
            CruelerPhase::Interlude => (Self::Interlude { round, phase_no }, s.interlude_secs),
            CruelerPhase::Predation => (
                Self::Ask {
                    round,
                    phase_no,
                    second: state.second_ask,
                    turn,
                },
                s.ask_secs,
            ),
            CruelerPhase::Duel => (
                Self::Duel {
                    round,
                    phase_no,
                    turn,
                    throws: state.duel.as_ref().map_or(0, |d| d.throws.len() as u8),
                },
                s.duel_secs,
            ),
            CruelerPhase::Idle | CruelerPhase::GameOver => return None,
        };
        (secs > 0).then_some((timer, secs))
    }
}

/// The one clock that should run now: set if it is new; any other dropped.
fn sync_clock(
    world_state: &CruelerState,
    phase: CruelerPhase,
    settings: &CruelerSettings,
    now_ms: u64,
    deadlines: &mut Deadlines<CruelerTimer>,
) {
    match CruelerTimer::now(world_state, phase, settings) {
        Some((timer, secs)) => {
            deadlines.pending.retain(|d| d.timer == timer);
            if deadlines.get(&timer).is_none() {
                deadlines.set(timer, now_ms + u64::from(secs) * 1000);
            }
        }
        None => deadlines.pending.clear(),
    }
}

/// The duel as one of its two sides sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DuelView {
    pub predator: SeatId,
    pub prey: SeatId,
    pub wins: [u8; 2],
    pub throws: Vec<(Beast, Beast)>,
    /// The viewer has chosen for this throw.
    pub chosen: bool,
}

/// What one seat may know.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CruelerView {
    pub me: Option<SeatId>,
    pub names: Vec<String>,
    pub phase: CruelerPhase,
    pub round: u8,
    pub phase_no: u8,
    /// N of the current (or next) predation phase.
    pub n: i32,
    pub start_life: i32,
    pub alive: Vec<bool>,
    /// Who is in the Nature Reserve (living players only: an out seat
    /// shows nothing of how it fell).
    pub reserve: Vec<bool>,
    pub die: Option<u8>,
    pub asked: Option<SeatId>,
    pub second_ask: bool,
    /// A duel is under way (its sides know who).
    pub dueling: bool,
    pub duel: Option<DuelView>,
    pub to_act: bool,
    pub ready: bool,
    /// The viewer's own life: always known to its owner (rules.md §6).
    pub my_life: Option<i32>,
    /// The viewer's box, token by token marks, between phases only.
    pub my_tokens: Vec<(Option<SeatId>, u32)>,
    pub my_cards: Vec<SeatId>,
    /// Whom the viewer may prey on now.
    pub targets: Vec<SeatId>,
    pub preyed: bool,
    pub preyed_upon: bool,
    pub offers: Vec<LifeOffer>,
    /// Every public result so far.
    pub history: Vec<Outcome>,
    pub result: Option<GameResult>,
    /// When the viewer must act by, if the table waits on it (table time),
    /// and the time now.
    pub my_deadline_ms: Option<u64>,
    pub now_ms: u64,
}

impl CruelerView {
    /// Whether this view shows the fact (scenario `Sees` checks).
    pub fn shows(&self, fact: &CruelerFact) -> bool {
        let mine = |s: SeatId| Some(s) == self.me;
        match *fact {
            CruelerFact::Life(s, life) => {
                (mine(s) && self.my_life == Some(life))
                    || self
                        .result
                        .as_ref()
                        .is_some_and(|r| r.scores.get(s.index()) == Some(&i64::from(life)))
            }
            CruelerFact::Cards(s, n) => mine(s) && self.my_cards.len() == n,
            CruelerFact::Holds(s, card) => mine(s) && self.my_cards.contains(&card),
            CruelerFact::Reserve(s) => self.reserve.get(s.index()) == Some(&true),
            CruelerFact::Dueling(s) => self
                .duel
                .as_ref()
                .is_some_and(|d| d.predator == s || d.prey == s),
            CruelerFact::Asked(s) => self.asked == Some(s),
        }
    }
}

/// What the table's systems need to carry the rules out.
#[derive(bevy_ecs::system::SystemParam)]
struct CruelerTable<'w> {
    state: ResMut<'w, CruelerState>,
    rng: ResMut<'w, TableRng>,
    said: ResMut<'w, Announcements>,
    clock: Res<'w, TableClock>,
    phase: Res<'w, State<CruelerPhase>>,
    next: ResMut<'w, NextState<CruelerPhase>>,
    deadlines: ResMut<'w, Deadlines<CruelerTimer>>,
    settings: Res<'w, Settings<CruelerGame>>,
    log: ResMut<'w, ActionLog<CruelerAction>>,
}

impl CruelerTable<'_> {
    /// Speaks what a step said, moves to its phase and runs its clock.
    fn after(&mut self, lines: Vec<Said>, next: Option<CruelerPhase>) {
        let phase = next.unwrap_or(self.phase());
        if let Some(p) = next {
            NextState::set_if_neq(&mut self.next, p);
        }
        self.said.speak(self.clock.now_ms, lines);
        let now = self.clock.now_ms;
        sync_clock(
            &self.state,
            phase,
            &self.settings.0,
            now,
            &mut self.deadlines,
        );
    }

    /// The phase after this step's changes (the state machine moves at
    /// the next frame).
    fn phase(&self) -> CruelerPhase {
        if self.state.over {
            return CruelerPhase::GameOver;
        }
        *self.phase.get()
    }
}

fn apply_actions(mut accepted: MessageReader<Accepted<CruelerAction>>, mut t: CruelerTable) {
    for Accepted { seat, action } in accepted.read() {
        let mut lines = Vec::new();
        let (state, rng) = (&mut t.state, &mut t.rng);
        let next = state.apply(*seat, action, &mut rng.0, &mut lines);
        t.after(lines, next);
    }
}

/// A clock ran out: the referee moves the game on (rules.md §11).
fn fire_deadlines(mut passed: MessageReader<DeadlinePassed<CruelerTimer>>, mut t: CruelerTable) {
    for DeadlinePassed { timer } in passed.read() {
        let phase = t.phase();
        let current = CruelerTimer::now(&t.state, phase, &t.settings.0).map(|(c, _)| c);
        if current.as_ref() != Some(timer) {
            continue;
        }
        let now = t.clock.now_ms;
        t.log.entries.push(LogEntry::Auto {
            at_ms: now,
            what: format!("time ran out: {timer:?}"),
        });
        let mut lines = Vec::new();
        let (state, rng) = (&mut t.state, &mut t.rng);
        let next = state.time_out(phase, &mut rng.0, &mut lines);
        t.after(lines, next);
    }
}

pub struct CruelerPlugin;

impl Plugin for CruelerPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, fire_deadlines.in_set(TableSet::Deadlines))
            .add_systems(Update, apply_actions.in_set(TableSet::Apply));
    }
}

fn phase(world: &World) -> CruelerPhase {
    *world.resource::<State<CruelerPhase>>().get()
}

impl Game for CruelerGame {
    const ID: GameId = GameId::Crueler;
    type Action = CruelerAction;
    type Settings = CruelerSettings;
    type Phase = CruelerPhase;
    type Timer = CruelerTimer;
    type State = CruelerState;
    type View = CruelerView;
    type Setup = CruelerSetup;
    type Check = CruelerCheck;

    fn build(app: &mut App, _settings: &CruelerSettings) {
        app.add_plugins(CruelerPlugin);
    }

    fn start(world: &mut World, setup: Option<&CruelerSetup>) -> Result<(), Rejection> {
        let s = world.resource::<Settings<CruelerGame>>().0.clone();
        s.check()?;
        let names = world.resource::<Seats>().names.clone();
        let mut state = CruelerState::new(names, s.start_life, s.duel, s.wins_needed);
        state.starve_by = s.starve_by;
        // A scripted table may fill the boxes otherwise: then the opening
        // says nothing of how much each holds.
        let scripted = setup.is_some_and(|u| u.lives.is_some() || u.tokens.is_some());
        let boxes = if scripted {
            crate::Bilingual::new("The life boxes are filled.", "生命木盒已装好。")
        } else {
            crate::Bilingual::new(
                format!("Each box holds {} life points.", s.start_life),
                format!("每个生命木盒有 {} 点生命。", s.start_life),
            )
        };
        let mut lines = vec![Said::All(crate::Bilingual::new(
            format!(
                "{} Round 1: between phases life may be given or exchanged; say when you are ready.",
                boxes.en
            ),
            format!(
                "{}第 1 轮：捕食阶段之外可以赠送或交换生命；准备好后请示意。",
                boxes.zh
            ),
        ))];
        let phase = match setup {
            Some(setup) => {
                let mut rng = world.resource::<TableRng>().0.clone();
                let (phase, more) = setup.apply(&mut state, &mut rng)?;
                world.resource_mut::<TableRng>().0 = rng;
                lines.extend(more);
                phase
            }
            None => CruelerPhase::Interlude,
        };
        let now = world.resource::<TableClock>().now_ms;
        let mut deadlines = Deadlines::<CruelerTimer>::default();
        sync_clock(&state, phase, &s, now, &mut deadlines);
        world.insert_resource(deadlines);
        world.insert_resource(state);
        world.resource_mut::<Announcements>().speak(0, lines);
        world.resource_mut::<NextState<CruelerPhase>>().set(phase);
        Ok(())
    }

    fn check(world: &World, seat: SeatId, action: &CruelerAction) -> Result<(), Rejection> {
        world
            .resource::<CruelerState>()
            .check(phase(world), seat, action)
    }

    fn capture(world: &World) -> CruelerState {
        world.resource::<CruelerState>().clone()
    }

    fn restore(world: &mut World, state: CruelerState) {
        world.insert_resource(state);
    }

    fn view(world: &World, seat: Option<SeatId>) -> CruelerView {
        let state = world.resource::<CruelerState>();
        let phase = phase(world);
        let settings = &world.resource::<Settings<CruelerGame>>().0;
        let mine = seat.map(|s| state.player(s));
        let to_act = seat.is_some_and(|s| state.to_act(phase).contains(&s));
        let between = matches!(phase, CruelerPhase::Interlude | CruelerPhase::GameOver);
        let duel = state.duel.as_ref().and_then(|d| {
            let me = seat?;
            let side = [d.predator, d.prey].iter().position(|s| *s == me)?;
            Some(DuelView {
                predator: d.predator,
                prey: d.prey,
                wins: d.wins,
                throws: d.throws.clone(),
                chosen: d.choice[side].is_some(),
            })
        });
        let nums = numbers();
        let (round, phase_no) = (state.round, state.phase_no);
        CruelerView {
            me: seat,
            names: state.names.clone(),
            phase,
            round,
            phase_no,
            n: nums.n(round, phase_no),
            start_life: settings.start_life,
            alive: state.players.iter().map(|p| p.alive).collect(),
            reserve: state
                .players
                .iter()
                .map(|p| p.alive && p.reserve && nums.reserve(round))
                .collect(),
            die: state.die,
            // The referee asks each player in private (rules.md §9).
            asked: match phase {
                CruelerPhase::Predation | CruelerPhase::Duel => {
                    state.asked().filter(|a| Some(*a) == seat)
                }
                _ => None,
            },
            second_ask: state.second_ask,
            dueling: state.duel.is_some(),
            duel,
            to_act,
            ready: mine.is_some_and(|p| p.ready),
            my_life: mine.filter(|p| p.alive).map(|p| p.life()),
            my_tokens: match mine {
                Some(p) if between => {
                    let mut counts: std::collections::BTreeMap<Option<SeatId>, u32> =
                        Default::default();
                    for t in &p.tokens {
                        *counts.entry(*t).or_default() += 1;
                    }
                    counts.into_iter().collect()
                }
                _ => Vec::new(),
            },
            my_cards: mine.map(|p| p.cards.clone()).unwrap_or_default(),
            targets: match seat {
                Some(s) if to_act && phase == CruelerPhase::Predation => state.targets(s),
                _ => Vec::new(),
            },
            preyed: mine.is_some_and(|p| p.preyed),
            preyed_upon: mine.is_some_and(|p| p.preyed_upon),
            offers: match seat {
                Some(s) => state
                    .offers
                    .iter()
                    .filter(|o| o.from == s || o.to == s)
                    .cloned()
                    .collect(),
                None => Vec::new(),
            },
            history: state.history.clone(),
            result: result(world),
            my_deadline_ms: if to_act {
                world
                    .resource::<Deadlines<CruelerTimer>>()
                    .pending
                    .iter()
                    .map(|d| d.at_ms)
                    .min()
            } else {
                None
            },
            now_ms: world.resource::<TableClock>().now_ms,
        }
    }

    fn to_act(world: &World) -> Vec<SeatId> {
        world.resource::<CruelerState>().to_act(phase(world))
    }

    fn result(world: &World) -> Option<GameResult> {
        result(world)
    }

    fn verify(world: &World, check: &CruelerCheck) -> Result<(), String> {
        super::scenario::verify(world, check)
    }
}

pub(crate) fn result(world: &World) -> Option<GameResult> {
    let state = world.resource::<CruelerState>();
    if !state.over {
        return None;
    }
    Some(GameResult {
        scores: state
            .players
            .iter()
            .map(|p| if p.alive { i64::from(p.life()) } else { 0 })
            .collect(),
        places: state.places(),
    })
}

/// Plays a random legal move.
pub struct RandomBot;

impl Bot<CruelerGame> for RandomBot {
    fn kind(&self) -> &'static str {
        "random"
    }

    fn act(&mut self, view: &CruelerView, rng: &mut ChaCha8Rng) -> Option<CruelerAction> {
        if !view.to_act {
            return None;
        }
        let me = view.me?;
        match view.phase {
            CruelerPhase::Interlude => {
                if let Some(o) = view.offers.iter().find(|o| o.to == me) {
                    let mine = view.my_life.unwrap_or(0);
                    let after = mine - o.want as i32 + o.give as i32;
                    return Some(
                        if (o.want as i32) <= mine && after > 0 && rng.random_bool(0.5) {
                            CruelerAction::Accept { from: o.from }
                        } else {
                            CruelerAction::Decline { from: o.from }
                        },
                    );
                }
                Some(CruelerAction::Ready)
            }
            CruelerPhase::Predation => {
                if let Some(&target) = view.targets.choose(rng)
                    && rng.random_bool(0.5)
                {
                    return Some(CruelerAction::Prey { target });
                }
                Some(CruelerAction::Pass)
            }
            CruelerPhase::Duel => Some(CruelerAction::Choose {
                beast: *Beast::ALL.choose(rng)?,
            }),
            CruelerPhase::Idle | CruelerPhase::GameOver => None,
        }
    }
}
