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
use super::scenario::{CruelerCheck, CruelerSetup};
use super::state::{
    Beast, CruelerAction, CruelerPhase, CruelerState, DuelKind, LifeOffer, Outcome,
};
use crate::bot::Bot;
use crate::game_id::GameId;
use crate::table::{
    Accepted, Announcements, Game, GameResult, Rejection, Said, SeatId, Seats, Settings,
    TableClock, TableRng, TableSet,
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
}

impl Default for CruelerSettings {
    fn default() -> Self {
        Self {
            start_life: 10,
            duel: DuelKind::Beasts,
            wins_needed: 2,
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
        Ok(())
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
    pub reserve: Vec<bool>,
    /// How many predator cards each player holds.
    pub card_counts: Vec<usize>,
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
}

fn apply_actions(
    mut accepted: MessageReader<Accepted<CruelerAction>>,
    mut state: ResMut<CruelerState>,
    mut rng: ResMut<TableRng>,
    mut said: ResMut<Announcements>,
    clock: Res<TableClock>,
    mut next: ResMut<NextState<CruelerPhase>>,
) {
    for Accepted { seat, action } in accepted.read() {
        let mut lines = Vec::new();
        if let Some(p) = state.apply(*seat, action, &mut rng.0, &mut lines) {
            next.set(p);
        }
        said.speak(clock.now_ms, lines);
    }
}

pub struct CruelerPlugin;

impl Plugin for CruelerPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, apply_actions.in_set(TableSet::Apply));
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
    type Timer = ();
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
        let mut lines = vec![Said::All(crate::Bilingual::new(
            format!(
                "Each box holds {} life points. Round 1: between phases life may be given or exchanged; say when you are ready.",
                s.start_life
            ),
            format!(
                "每个生命木盒有 {} 点生命。第 1 轮：捕食阶段之外可以赠送或交换生命；准备好后请示意。",
                s.start_life
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
                .map(|p| p.reserve && nums.reserve(round))
                .collect(),
            card_counts: state.players.iter().map(|p| p.cards.len()).collect(),
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

fn result(world: &World) -> Option<GameResult> {
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
                    return Some(if (o.want as i32) < mine && rng.random_bool(0.5) {
                        CruelerAction::Accept { from: o.from }
                    } else {
                        CruelerAction::Decline { from: o.from }
                    });
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
