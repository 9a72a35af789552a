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
use super::scenario::{GeneCheck, GeneFact, GeneSetup};
use super::settle::{Genes, numbers};
use super::state::{GeneAction, GenePhase, GeneState, Offer, SettleLine};
use crate::bot::Bot;
use crate::game_id::GameId;
use crate::table::Said;
use crate::table::{
    Accepted, ActionLog, Announcements, DeadlinePassed, Deadlines, Game, GameResult, LogEntry,
    Rejection, SeatId, Seats, Settings, TableClock, TableRng, TableSet,
};

pub struct GeneGame;

/// Table settings: the clocks (rules.md §10). The numbers (rounds, HP, gas)
/// live in `data/rules.ron`. 0 seconds = no limit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GeneSettings {
    /// To spend gene points and choose a spawn room.
    pub setup_secs: u32,
    /// For each free phase: talk, trade, get ready.
    pub free_secs: u32,
    /// For each player's turn in the action room.
    pub turn_secs: u32,
    /// To choose which cards to leave after a draw, a take or a surgery put
    /// the player over their carry; then the oldest are left (rules.md §6).
    pub drop_secs: u32,
    /// The most medicine, alcohol and adrenaline one player may use in a
    /// round; 0 = no limit (the seed sets none).
    pub state_cards: u8,
}

impl Default for GeneSettings {
    fn default() -> Self {
        GeneTiming::Party.settings()
    }
}

impl GeneSettings {
    pub fn check(&self) -> Result<(), Rejection> {
        for secs in [
            self.setup_secs,
            self.free_secs,
            self.turn_secs,
            self.drop_secs,
        ] {
            if secs != 0 && !(10..=3600).contains(&secs) {
                return Err(Rejection::new(
                    "each time limit is off (0) or 10 s to 1 hour",
                    "每个时限须为 0（不限时）或 10 秒到 1 小时",
                ));
            }
        }
        Ok(())
    }
}

/// The timings a set-up screen offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GeneTiming {
    /// Set-up 3 min, free phase 4 min, a turn 90 s.
    Party,
    /// Set-up 2 min, free phase 90 s, a turn 45 s.
    Brisk,
    /// No clocks: the table waits for everyone.
    Untimed,
}

impl GeneTiming {
    pub const ALL: [GeneTiming; 3] = [GeneTiming::Party, GeneTiming::Brisk, GeneTiming::Untimed];

    pub fn settings(self) -> GeneSettings {
        let (setup_secs, free_secs, turn_secs, drop_secs) = match self {
            GeneTiming::Party => (180, 240, 90, 30),
            GeneTiming::Brisk => (120, 90, 45, 20),
            GeneTiming::Untimed => (0, 0, 0, 0),
        };
        GeneSettings {
            setup_secs,
            free_secs,
            turn_secs,
            drop_secs,
            state_cards: 0,
        }
    }

    pub fn label(self) -> crate::Bilingual {
        use crate::Bilingual;
        match self {
            GeneTiming::Party => Bilingual::new(
                "Party: free phase 4 min, turns 90 s",
                "聚会：自由阶段 4 分钟，每人行动 90 秒",
            ),
            GeneTiming::Brisk => Bilingual::new(
                "Brisk: free phase 90 s, turns 45 s",
                "快速：自由阶段 90 秒，每人行动 45 秒",
            ),
            GeneTiming::Untimed => Bilingual::new("Untimed", "不限时"),
        }
    }
}

/// Which clock is running. Each phase (and each turn) has its own key, so
/// a new phase always starts a fresh clock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GeneTimer {
    Setup,
    Free {
        round: u8,
    },
    Turn {
        round: u8,
        turn: u8,
    },
    /// The player in the action room is over their carry and must choose.
    Drop {
        round: u8,
        turn: u8,
    },
}

/// What one seat may know.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GeneView {
    pub me: Option<SeatId>,
    /// Everyone's name, by seat.
    pub names: Vec<String>,
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
    /// The viewer said it is ready (free phase).
    pub ready: bool,
    /// The viewer may use no more state-changing cards this round.
    pub changed_state: bool,
    /// Cards the viewer must leave in its room before doing anything else
    /// (a draw, a take or a surgery put it over its carry).
    pub must_drop: u8,
    /// Whether the viewer may leave a card in its room now.
    pub can_discard: bool,
    /// Where the viewer may move now.
    pub destinations: Vec<RoomId>,
    pub can_draw: Vec<ItemKind>,
    /// Cards lying in the viewer's room that it may take instead of drawing.
    pub can_take: Vec<ItemKind>,
    pub open_floors: Vec<FloorId>,
    pub result: Option<GameResult>,
    /// The viewer's order card this round (1 = first), once dealt.
    pub order_card: Option<u8>,
    /// The action order, public once the action phase begins (players
    /// walk into the action room one at a time).
    pub order: Vec<SeatId>,
    /// Who has acted this round (public in the action phase).
    pub acted: Vec<bool>,
    /// The player in the action room.
    pub active: Option<SeatId>,
    /// Trades the viewer made or was offered, unanswered.
    pub offers: Vec<Offer>,
    /// Cards lying in the viewer's room (it stands there and sees them).
    pub lying: Vec<ItemKind>,
    /// Where the viewer can get this round and the steps each costs.
    pub reach: Vec<(RoomId, u32)>,
    /// The viewer's speed and carry now (cards included).
    pub speed: u32,
    pub carry: usize,
    /// The viewer, a shadow: HP drained so far; revived: immune this round.
    pub drained: i32,
    pub immune: bool,
    /// The viewer's gas vote this round.
    pub vote: Option<FloorId>,
    /// Who the viewer's words reach now (empty: nobody).
    pub audience: Vec<SeatId>,
    /// When the running clock runs out (table time), and the time now.
    pub deadline_ms: Option<u64>,
    pub now_ms: u64,
    /// The last settlement, line by line (public).
    pub settlement: Vec<SettleLine>,
    /// The viewer's own battles: round, room, HP they cost it.
    pub fought: Vec<(u8, RoomId, i32)>,
}

impl GeneView {
    /// Whether this view shows the fact (scenario `Sees` checks).
    pub fn shows(&self, fact: &GeneFact) -> bool {
        let mine = |s: SeatId| Some(s) == self.me;
        match *fact {
            GeneFact::Hp(s, hp) => self.hp.get(s.index()) == Some(&hp),
            GeneFact::Room(s, room) => mine(s) && self.room == Some(room),
            GeneFact::Genes(s, genes) => mine(s) && self.genes == Some(genes),
            GeneFact::Holds(s, kind) => mine(s) && self.hand.contains(&kind),
            GeneFact::OrderCard(s, n) => {
                (mine(s) && self.order_card == Some(n))
                    || (n > 0
                        && self.order.iter().position(|o| *o == s) == Some(usize::from(n) - 1))
            }
        }
    }
}

/// What the table's systems need to carry the rules out.
#[derive(bevy_ecs::system::SystemParam)]
struct GeneTable<'w> {
    state: ResMut<'w, GeneState>,
    rng: ResMut<'w, TableRng>,
    said: ResMut<'w, Announcements>,
    clock: Res<'w, TableClock>,
    phase: Res<'w, State<GenePhase>>,
    next: ResMut<'w, NextState<GenePhase>>,
    deadlines: ResMut<'w, Deadlines<GeneTimer>>,
    settings: Res<'w, Settings<GeneGame>>,
    log: ResMut<'w, ActionLog<GeneAction>>,
}

impl GeneTable<'_> {
    /// The phase after this step's changes (the state machine moves at
    /// the next frame).
    fn phase(&self) -> GenePhase {
        if self.state.over {
            return GenePhase::GameOver;
        }
        *self.phase.get()
    }

    fn speak(&mut self, lines: Vec<Said>) {
        self.said.speak(self.clock.now_ms, lines);
    }

    /// The clocks that should run now: each is set if it is new, and any
    /// other is dropped. One per phase (per turn in the action phase),
    /// and beside a turn's the over-the-carry choice's.
    fn sync_clock(&mut self, phase: GenePhase) {
        let s = &self.settings.0;
        let round = self.state.round;
        let turn = self.state.turn as u8;
        let mut wanted = match phase {
            GenePhase::Setup => vec![(GeneTimer::Setup, s.setup_secs)],
            GenePhase::Free => vec![(GeneTimer::Free { round }, s.free_secs)],
            GenePhase::Action => vec![(GeneTimer::Turn { round, turn }, s.turn_secs)],
            GenePhase::Idle | GenePhase::GameOver => Vec::new(),
        };
        let dropping = self
            .state
            .active()
            .is_some_and(|a| self.state.player(a).must_drop > 0);
        if phase == GenePhase::Action && dropping {
            wanted.push((GeneTimer::Drop { round, turn }, s.drop_secs));
        }
        wanted.retain(|(_, secs)| *secs > 0);
        self.deadlines
            .pending
            .retain(|d| wanted.iter().any(|(t, _)| *t == d.timer));
        for (timer, secs) in wanted {
            if self.deadlines.get(&timer).is_none() {
                let at = self.clock.now_ms + u64::from(secs) * 1000;
                self.deadlines.set(timer, at);
            }
        }
    }
}

fn apply_actions(mut accepted: MessageReader<Accepted<GeneAction>>, mut t: GeneTable) {
    for Accepted { seat, action } in accepted.read() {
        let mut phase = t.phase();
        let mut lines = Vec::new();
        if let GeneAction::Chat { text } = action {
            let line = crate::Bilingual::new(
                format!("{}: {text}", t.state.name(*seat)),
                format!("{}：{text}", t.state.name(*seat)),
            );
            match phase {
                GenePhase::Action => {
                    for s in t.state.audience(phase, *seat).unwrap_or_default() {
                        lines.push(Said::To(s, line.clone()));
                    }
                }
                _ => lines.push(Said::All(line)),
            }
        } else {
            let (state, rng) = (&mut t.state, &mut t.rng);
            if let Some(p) = state.apply(*seat, action, &mut rng.0, &mut lines) {
                phase = p;
                NextState::set_if_neq(&mut t.next, p);
            }
        }
        t.speak(lines);
        t.sync_clock(phase);
    }
}

/// A clock ran out: the referee moves the game on (rules.md §10).
fn fire_deadlines(mut passed: MessageReader<DeadlinePassed<GeneTimer>>, mut t: GeneTable) {
    for DeadlinePassed { timer } in passed.read() {
        let phase = t.phase();
        let current = match (timer, phase) {
            (GeneTimer::Setup, GenePhase::Setup) => true,
            (GeneTimer::Free { round }, GenePhase::Free) => *round == t.state.round,
            (
                GeneTimer::Turn { round, turn } | GeneTimer::Drop { round, turn },
                GenePhase::Action,
            ) => *round == t.state.round && usize::from(*turn) == t.state.turn,
            _ => false,
        };
        if !current {
            continue;
        }
        let now = t.clock.now_ms;
        t.log.entries.push(LogEntry::Auto {
            at_ms: now,
            what: format!("time ran out: {timer:?}"),
        });
        let mut lines = Vec::new();
        let (state, rng) = (&mut t.state, &mut t.rng);
        let mut next = phase;
        if let GeneTimer::Drop { .. } = timer {
            // The choice ran out: the oldest cards over the carry are left.
            if let Some(seat) = state.active() {
                state.drop_oldest(seat, &mut lines);
            }
        } else if let Some(p) = state.time_out(phase, &mut rng.0, &mut lines) {
            next = p;
            NextState::set_if_neq(&mut t.next, p);
        }
        t.speak(lines);
        t.sync_clock(next);
    }
}

pub struct GenePlugin;

impl Plugin for GenePlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, fire_deadlines.in_set(TableSet::Deadlines))
            .add_systems(Update, apply_actions.in_set(TableSet::Apply));
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
    type Setup = GeneSetup;
    type Check = GeneCheck;

    fn build(app: &mut App, _settings: &GeneSettings) {
        app.add_plugins(GenePlugin);
    }

    fn start(world: &mut World, setup: Option<&GeneSetup>) -> Result<(), Rejection> {
        world.resource::<Settings<GeneGame>>().0.check()?;
        let names = world.resource::<Seats>().names.clone();
        let mut rng = world.resource::<TableRng>().0.clone();
        let mut state = GeneState::new(names.len(), &mut rng);
        state.names = names;
        state.state_cards_limit = world.resource::<Settings<GeneGame>>().0.state_cards;
        let points = numbers().gene_points;
        let (phase, lines) = match setup {
            Some(setup) => (GenePhase::Free, setup.apply(&mut state, &mut rng)?),
            None => (
                GenePhase::Setup,
                vec![Said::All(crate::Bilingual::new(
                    format!(
                        "Spend your {points} gene points and choose your spawn room, in secret."
                    ),
                    format!("请秘密分配 {points} 点基因并选择出生房间。"),
                ))],
            ),
        };
        world.resource_mut::<TableRng>().0 = rng;
        let round = state.round;
        world.insert_resource(state);
        world.resource_mut::<Announcements>().speak(0, lines);
        world.resource_mut::<NextState<GenePhase>>().set(phase);
        let s = world.resource::<Settings<GeneGame>>().0.clone();
        let (timer, secs) = match phase {
            GenePhase::Setup => (GeneTimer::Setup, s.setup_secs),
            _ => (GeneTimer::Free { round }, s.free_secs),
        };
        if secs > 0 {
            let at = world.resource::<TableClock>().now_ms + u64::from(secs) * 1000;
            world.resource_mut::<Deadlines<GeneTimer>>().set(timer, at);
        }
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
            names: state.names.clone(),
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
            ready: mine.is_some_and(|p| p.ready),
            changed_state: seat.is_some_and(|s| state.state_cards_spent(s)),
            must_drop: mine.map_or(0, |p| p.must_drop),
            can_discard: match (seat, mine.and_then(|p| p.hand.first())) {
                (Some(s), Some(&kind)) => {
                    state.check(phase, s, &GeneAction::Discard { kind }).is_ok()
                }
                _ => false,
            },
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
            order_card: seat
                .and_then(|s| state.order.iter().position(|o| *o == s))
                .map(|n| n as u8 + 1),
            order: if matches!(phase, GenePhase::Action) {
                state.order.clone()
            } else {
                Vec::new()
            },
            acted: state.players.iter().map(|p| p.acted).collect(),
            active: match phase {
                GenePhase::Action => state.active(),
                _ => None,
            },
            offers: match seat {
                Some(s) => state
                    .offers
                    .iter()
                    .filter(|o| o.from == s || o.to == s)
                    .cloned()
                    .collect::<Vec<Offer>>(),
                None => Vec::new(),
            },
            lying: mine
                .and_then(|p| p.room)
                .and_then(|r| state.piles.get(&r).cloned())
                .unwrap_or_default(),
            reach: match mine {
                Some(p) if p.room.is_some() && phase != GenePhase::GameOver => {
                    let from = p.room.expect("checked");
                    map()
                        .reachable(from, p.speed(), p.shadow)
                        .into_iter()
                        .filter(|(r, _)| *r != from)
                        .collect()
                }
                _ => Vec::new(),
            },
            speed: mine.map_or(0, |p| p.speed()),
            carry: mine.map_or(0, |p| p.carry()),
            drained: mine.map_or(0, |p| p.drained),
            immune: mine.is_some_and(|p| p.immune),
            vote: mine.and_then(|p| p.vote),
            audience: seat
                .and_then(|s| state.audience(phase, s).ok())
                .unwrap_or_default(),
            deadline_ms: world
                .resource::<Deadlines<GeneTimer>>()
                .pending
                .iter()
                .map(|d| d.at_ms)
                .min(),
            now_ms: world.resource::<TableClock>().now_ms,
            settlement: state.report.clone(),
            fought: mine.map(|p| p.fought.clone()).unwrap_or_default(),
        }
    }

    fn to_act(world: &World) -> Vec<SeatId> {
        world.resource::<GeneState>().to_act(phase(world))
    }

    fn result(world: &World) -> Option<GameResult> {
        result(world)
    }

    fn verify(world: &World, check: &GeneCheck) -> Result<(), String> {
        super::scenario::verify(world, check)
    }
}

pub(crate) fn result(world: &World) -> Option<GameResult> {
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
            GenePhase::Free => {
                let me = view.me?;
                if let Some(o) = view.offers.iter().find(|o| o.to == me) {
                    return Some(if o.can_be_met_by(&view.hand) && rng.random_bool(0.5) {
                        GeneAction::Accept { from: o.from }
                    } else {
                        GeneAction::Decline { from: o.from }
                    });
                }
                if view.hand.len() > view.carry && view.can_discard {
                    return Some(GeneAction::Discard {
                        kind: *view.hand.choose(rng)?,
                    });
                }
                if view.ready {
                    return None;
                }
                // Now and then an offer: a card of mine for one of anything.
                let shadow = view.shadows[me.index()];
                if !shadow && !view.hand.is_empty() && rng.random_bool(0.15) {
                    let others: Vec<SeatId> = (0..view.hp.len() as u8)
                        .map(SeatId)
                        .filter(|s| *s != me && !view.shadows[s.index()])
                        .collect();
                    if let Some(&to) = others.choose(rng)
                        && view.offers.iter().all(|o| o.to != to)
                    {
                        let kinds = [
                            ItemKind::Water,
                            ItemKind::Food,
                            ItemKind::Gold,
                            ItemKind::Medicine,
                        ];
                        return Some(GeneAction::Offer {
                            to,
                            give: vec![*view.hand.choose(rng)?],
                            want: vec![*kinds.choose(rng)?],
                            swap_order: rng.random_bool(0.2),
                        });
                    }
                }
                Some(GeneAction::Ready)
            }
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
            GenePhase::Action if view.must_drop > 0 => Some(GeneAction::Discard {
                kind: *view.hand.choose(rng)?,
            }),
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

impl crate::table::SeatView for GeneView {
    fn to_act(&self) -> bool {
        self.to_act
    }
    fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }
}
