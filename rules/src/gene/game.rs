//! Gene Survival on the table core: phases, the one judge, the systems
//! that apply accepted actions, the view, and a random bot. Not yet offered
//! in the game picker or the lobby (`GameId::playable`).

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use rand::RngExt;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::map::{FloorId, ItemKind, RoomId, map};
use super::settle::{Genes, numbers};
use super::state::{GeneAction, GenePhase, GeneState, Said};
use crate::bot::Bot;
use crate::game_id::GameId;
use crate::table::{
    Accepted, Announcements, Game, GameResult, Rejection, SeatId, Seats, TableClock, TableRng,
    TableSet,
};

pub struct GeneGame;

/// Table settings. The numbers (rounds, HP, gas) live in `data/rules.ron`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GeneSettings {}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GeneTimer {}

/// What one seat may know.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GeneView {
    pub me: Option<SeatId>,
    pub phase: GenePhase,
    pub round: u8,
    /// Everyone's HP as last announced (public after each settlement).
    pub hp: Vec<i32>,
    pub shadows: Vec<bool>,
    pub gassed: Vec<FloorId>,
    pub to_act: bool,
    /// The viewer's own secrets.
    pub genes: Option<Genes>,
    pub room: Option<RoomId>,
    pub hand: Vec<ItemKind>,
    pub moved: bool,
    pub drew: bool,
    /// The viewer used its one state-changing card this round.
    pub changed_state: bool,
    /// Where the viewer may move now.
    pub destinations: Vec<RoomId>,
    pub can_draw: Vec<ItemKind>,
    /// Cards lying in the viewer's room that it may take instead of drawing.
    pub can_take: Vec<ItemKind>,
    pub open_floors: Vec<FloorId>,
    pub result: Option<GameResult>,
}

fn apply_actions(
    mut accepted: MessageReader<Accepted<GeneAction>>,
    mut state: ResMut<GeneState>,
    mut rng: ResMut<TableRng>,
    mut said: ResMut<Announcements>,
    clock: Res<TableClock>,
    mut next: ResMut<NextState<GenePhase>>,
) {
    for Accepted { seat, action } in accepted.read() {
        let mut lines = Vec::new();
        if let Some(phase) = state.apply(*seat, action, &mut rng.0, &mut lines) {
            next.set(phase);
        }
        for line in lines {
            match line {
                Said::All(text) => said.say(clock.now_ms, text),
                Said::To(s, text) => said.tell(clock.now_ms, s, text),
            }
        }
    }
}

pub struct GenePlugin;

impl Plugin for GenePlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, apply_actions.in_set(TableSet::Apply));
    }
}

fn phase(world: &World) -> GenePhase {
    *world.resource::<State<GenePhase>>().get()
}

impl Game for GeneGame {
    const ID: GameId = GameId::Gene;
    type Action = GeneAction;
    type Settings = GeneSettings;
    type Phase = GenePhase;
    type Timer = GeneTimer;
    type State = GeneState;
    type View = GeneView;
    type Setup = ();
    type Check = ();

    fn build(app: &mut App, _settings: &GeneSettings) {
        app.add_plugins(GenePlugin);
    }

    fn start(world: &mut World, _setup: Option<&()>) -> Result<(), Rejection> {
        let seats = world.resource::<Seats>().count();
        let state = GeneState::new(seats, &mut world.resource_mut::<TableRng>().0);
        world.insert_resource(state);
        world.resource_mut::<Announcements>().say(
            0,
            crate::Bilingual::new(
                "Spend your 10 gene points and choose your spawn room, in secret.",
                "请秘密分配 10 点基因并选择出生房间。",
            ),
        );
        world
            .resource_mut::<NextState<GenePhase>>()
            .set(GenePhase::Setup);
        Ok(())
    }

    fn check(world: &World, seat: SeatId, action: &GeneAction) -> Result<(), Rejection> {
        world
            .resource::<GeneState>()
            .check(phase(world), seat, action)
    }

    fn capture(world: &World) -> GeneState {
        world.resource::<GeneState>().clone()
    }

    fn restore(world: &mut World, state: GeneState) {
        world.insert_resource(state);
    }

    fn view(world: &World, seat: Option<SeatId>) -> GeneView {
        let state = world.resource::<GeneState>();
        let phase = phase(world);
        let mine = seat.map(|s| state.player(s));
        let moved = mine.is_some_and(|p| p.moved);
        let to_act = seat.is_some_and(|s| state.to_act(phase).contains(&s));
        GeneView {
            me: seat,
            phase,
            round: state.round,
            hp: state.players.iter().map(|p| p.public_hp).collect(),
            shadows: state.players.iter().map(|p| p.shadow).collect(),
            gassed: state.gassed.clone(),
            to_act,
            genes: mine.and_then(|p| p.genes),
            room: mine.and_then(|p| p.room),
            hand: mine.map(|p| p.hand.clone()).unwrap_or_default(),
            moved,
            drew: mine.is_some_and(|p| p.drew),
            changed_state: mine.is_some_and(|p| {
                p.state_change != 0 || p.extra_strength != 0 || p.extra_speed != 0
            }),
            destinations: match (mine, to_act && phase == GenePhase::Action && !moved) {
                (Some(p), true) => map().destinations(p.room.expect("placed"), p.speed(), p.shadow),
                _ => Vec::new(),
            },
            can_draw: match (seat, mine) {
                (Some(s), Some(p)) if to_act && moved && !p.drew && !p.shadow => {
                    state.kinds_here(s)
                }
                _ => Vec::new(),
            },
            can_take: match (seat, mine) {
                (Some(s), Some(p)) if to_act && moved && !p.drew && !p.shadow => {
                    state.lying_here(s)
                }
                _ => Vec::new(),
            },
            open_floors: state.open_floors(),
            result: result(world),
        }
    }

    fn to_act(world: &World) -> Vec<SeatId> {
        world.resource::<GeneState>().to_act(phase(world))
    }

    fn result(world: &World) -> Option<GameResult> {
        result(world)
    }

    fn verify(_world: &World, _check: &()) -> Result<(), String> {
        Ok(())
    }
}

fn result(world: &World) -> Option<GameResult> {
    let state = world.resource::<GeneState>();
    if !state.over {
        return None;
    }
    let places = state.places();
    let cubes = &numbers().place_cubes;
    let scores = places
        .iter()
        .map(|&p| i64::from(*cubes.get(p as usize - 1).unwrap_or(&0)))
        .collect();
    Some(GameResult { scores, places })
}

/// Plays a random legal move.
pub struct RandomBot;

impl Bot<GeneGame> for RandomBot {
    fn kind(&self) -> &'static str {
        "random"
    }

    fn act(&mut self, view: &GeneView, rng: &mut ChaCha8Rng) -> Option<GeneAction> {
        if !view.to_act {
            return None;
        }
        match view.phase {
            GenePhase::Setup => {
                let points = numbers().gene_points;
                let speed = rng.random_range(1..=points);
                let strength = rng.random_range(0..=points - speed);
                let genes = Genes {
                    strength,
                    speed,
                    carry: points - speed - strength,
                };
                let rooms: Vec<RoomId> = map().spawn_rooms().collect();
                Some(GeneAction::Prepare {
                    genes,
                    spawn: *rooms.choose(rng)?,
                })
            }
            GenePhase::Free => Some(GeneAction::Ready),
            GenePhase::Action if !view.moved => {
                if view.hand.contains(&ItemKind::Adrenaline)
                    && !view.changed_state
                    && rng.random_bool(0.5)
                {
                    return Some(GeneAction::Use {
                        kind: ItemKind::Adrenaline,
                        room: None,
                    });
                }
                Some(GeneAction::Move {
                    to: *view.destinations.choose(rng)?,
                })
            }
            GenePhase::Action => {
                let shadow = view.me.is_some_and(|s| view.shadows[s.index()]);
                if shadow || (view.can_draw.is_empty() && view.open_floors.is_empty()) {
                    return Some(GeneAction::EndTurn);
                }
                if let Some(kind) = view.can_draw.choose(rng) {
                    return Some(GeneAction::Draw { kind: *kind });
                }
                // Now and then a card: a rocket at a random room, or one
                // state-changing card a round.
                let usable: Vec<ItemKind> = view
                    .hand
                    .iter()
                    .copied()
                    .filter(|k| match k {
                        ItemKind::Rocket => true,
                        ItemKind::Medicine | ItemKind::Alcohol => !view.changed_state,
                        _ => false,
                    })
                    .collect();
                if let Some(&kind) = usable.choose(rng)
                    && rng.random_bool(0.3)
                {
                    let room = map().ids().collect::<Vec<_>>().choose(rng).copied();
                    return Some(GeneAction::Use { kind, room });
                }
                Some(GeneAction::Vote {
                    floor: *view.open_floors.choose(rng)?,
                })
            }
            GenePhase::Idle | GenePhase::GameOver => None,
        }
    }
}
