//! Gene Survival on the table core: settings and clocks, the schedule of
//! its phases (one system per move, the settlement as one chain), the view,
//! and the entry points the core calls.

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use rand::RngExt;
use rand::seq::{IndexedRandom, SliceRandom};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::action::{self, Hands};
use super::free;
use super::items::items;
use super::map::{FloorId, ItemKind, RoomId, map};
use super::moves::{self, part};
use super::scenario::{GeneCheck, GeneFact, GeneSetup};
use super::settle::{Genes, numbers, places as rank};
use super::state::*;
use super::{news, settlement, setup};
use crate::bot::Bot;
use crate::game_id::GameId;
use crate::table::{
    Accepted, ActionLog, DeadlinePassed, Deadlines, Game, GameResult, LogEntry, Rejection,
    SeatEntities, SeatId, Seats, Settings, TableClock, TableRng, TableSet,
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
    pub fn traces(fact: &GeneFact) -> Vec<crate::scenario::Trace> {
        use crate::scenario::Trace;
        match *fact {
            GeneFact::Hp(s, hp) => vec![Trace::of_seat(s, &[], hp).per_seat(&["hp"])],
            GeneFact::Room(s, room) => vec![Trace::of_seat(s, &["room"], room)],
            GeneFact::Genes(s, genes) => vec![Trace::of_seat(s, &["genes"], genes)],
            GeneFact::Holds(s, kind) => vec![Trace::of_seat(s, &["hand"], kind)],
            // The seat's own card, or its place in the order the table sees.
            GeneFact::OrderCard(s, n) => {
                let mut t = vec![Trace::of_seat(s, &["order_card"], n)];
                if n > 0 {
                    t.push(Trace::of_seat(SeatId(n - 1), &[], s).per_seat(&["order"]));
                }
                t
            }
            GeneFact::Lying(room, kind) => vec![Trace::within("room", room, &["lying"], kind)],
            GeneFact::Vote(s, floor) => vec![Trace::of_seat(s, &["vote"], floor)],
        }
    }
}

impl GeneTimer {
    /// Whether this clock is the one running now.
    fn current(&self, phase: GenePhase, calendar: &Calendar) -> bool {
        match (self, phase) {
            (GeneTimer::Setup, GenePhase::Setup) => true,
            (GeneTimer::Free { round }, GenePhase::Free) => *round == calendar.round,
            (
                GeneTimer::Turn { round, turn } | GeneTimer::Drop { round, turn },
                GenePhase::Action,
            ) => *round == calendar.round && usize::from(*turn) == calendar.turn,
            _ => false,
        }
    }
}

/// The clocks that should run now: each is set if it is new, and any other
/// is dropped. One per phase (per turn in the action phase), and beside a
/// turn's the over-the-carry choice's.
fn sync_clock(
    phase: Res<State<GenePhase>>,
    calendar: Res<Calendar>,
    settings: Res<Settings<GeneGame>>,
    seats: Res<SeatEntities>,
    hands: Query<&Hand>,
    clock: Res<TableClock>,
    mut deadlines: ResMut<Deadlines<GeneTimer>>,
) {
    let s = &settings.0;
    let (round, turn) = (calendar.round, calendar.turn as u8);
    let phase = *phase.get();
    let mut wanted = match phase {
        GenePhase::Setup => vec![(GeneTimer::Setup, s.setup_secs)],
        GenePhase::Free => vec![(GeneTimer::Free { round }, s.free_secs)],
        GenePhase::Action => vec![(GeneTimer::Turn { round, turn }, s.turn_secs)],
        GenePhase::Idle | GenePhase::GameOver => Vec::new(),
    };
    let dropping = calendar
        .active()
        .is_some_and(|a| hands.get(seats.get(a)).is_ok_and(|h| h.must_drop > 0));
    if phase == GenePhase::Action && dropping {
        wanted.push((GeneTimer::Drop { round, turn }, s.drop_secs));
    }
    wanted.retain(|(_, secs)| *secs > 0);
    deadlines
        .pending
        .retain(|d| wanted.iter().any(|(t, _)| *t == d.timer));
    for (timer, secs) in wanted {
        if deadlines.get(&timer).is_none() {
            deadlines.set(timer, clock.now_ms + u64::from(secs) * 1000);
        }
    }
}

/// The clocks that ran out this step and still run (rules.md §10).
fn ran_out(
    passed: &mut MessageReader<DeadlinePassed<GeneTimer>>,
    phase: GenePhase,
    calendar: &Calendar,
    clock: &TableClock,
    log: &mut ActionLog<GeneAction>,
) -> Vec<GeneTimer> {
    let mut out = Vec::new();
    for DeadlinePassed { timer } in passed.read() {
        if timer.current(phase, calendar) {
            log.entries.push(LogEntry::Auto {
                at_ms: clock.now_ms,
                what: format!("time ran out: {timer:?}"),
            });
            out.push(timer.clone());
        }
    }
    out
}

/// Set-up's clock ran out: the referee prepares whoever has not.
#[allow(clippy::too_many_arguments)]
fn setup_clock(
    mut passed: MessageReader<DeadlinePassed<GeneTimer>>,
    calendar: Res<Calendar>,
    clock: Res<TableClock>,
    mut log: ResMut<ActionLog<GeneAction>>,
    seats: Res<SeatEntities>,
    mut players: Query<(&mut Panel, &mut Place)>,
    mut rng: ResMut<TableRng>,
    mut news: MessageWriter<GeneNews>,
) {
    let out = ran_out(&mut passed, GenePhase::Setup, &calendar, &clock, &mut log);
    if !out.is_empty() {
        setup::setup_time_up(&seats, &mut players, &mut rng, &mut news);
    }
}

/// The free phase's clock ran out: everyone is ready.
fn free_clock(
    mut passed: MessageReader<DeadlinePassed<GeneTimer>>,
    calendar: Res<Calendar>,
    clock: Res<TableClock>,
    mut log: ResMut<ActionLog<GeneAction>>,
    mut doings: Query<&mut Doings>,
    mut news: MessageWriter<GeneNews>,
) {
    let out = ran_out(&mut passed, GenePhase::Free, &calendar, &clock, &mut log);
    if !out.is_empty() {
        news.write(GeneNews::FreeTimeUp);
        for mut d in &mut doings {
            d.ready = true;
        }
    }
}

/// A turn's clock ran out: the surplus is left, a player who has not moved
/// is moved to a room in reach, and the turn ends (no vote is cast). The
/// carry choice's clock: the oldest surplus is left.
#[allow(clippy::too_many_arguments)]
fn turn_clock(
    mut passed: MessageReader<DeadlinePassed<GeneTimer>>,
    calendar: Res<Calendar>,
    clock: Res<TableClock>,
    mut log: ResMut<ActionLog<GeneAction>>,
    mut hands: Hands,
    mut rng: ResMut<TableRng>,
    mut acts: MessageWriter<Accepted<GeneAction>>,
    mut ended: MessageWriter<TurnEnded>,
) {
    let out = ran_out(&mut passed, GenePhase::Action, &calendar, &clock, &mut log);
    let Some(seat) = calendar.active() else {
        return;
    };
    for timer in out {
        if let GeneTimer::Drop { .. } = timer {
            hands.drop_oldest(seat);
            continue;
        }
        hands.news.write(GeneNews::TurnTimeUp { seat });
        let (must_drop, moved, to) = {
            let (hand, doings, panel, vitals, place) =
                hands.players.get(hands.seats.get(seat)).expect("a seat");
            let options = map().destinations(
                place.0.expect("placed"),
                speed(panel, doings),
                vitals.shadow,
            );
            (hand.must_drop > 0, doings.moved, options)
        };
        if must_drop {
            hands.drop_oldest(seat);
        }
        if !moved {
            // Everyone must move: the referee picks a room in reach.
            if let Some(&to) = to.choose(&mut rng.0) {
                acts.write(Accepted {
                    seat,
                    action: GeneAction::Move { to },
                });
            }
        }
        ended.write(TurnEnded);
    }
}

/// Gene Survival's schedule: each phase's moves under `in_state`, the
/// clocks' defaults, then the turn order and the settlement's seven steps
/// as one chain, in the seed's order.
pub struct GenePlugin;

impl Plugin for GenePlugin {
    fn build(&self, app: &mut App) {
        use GenePhase::*;
        let count = app.world().resource::<Seats>().count();
        let seats = SeatEntities::spawn(app.world_mut(), count);
        for (_, e) in seats.iter() {
            app.world_mut().entity_mut(e).insert((
                Panel::default(),
                Vitals::default(),
                Place::default(),
                SeenPile::default(),
                Hand::default(),
                Doings::default(),
                Battles::default(),
            ));
        }
        app.insert_resource(seats)
            .init_resource::<Calendar>()
            .init_resource::<Gassed>()
            .init_resource::<Supply>()
            .init_resource::<Piles>()
            .init_resource::<Secrets>()
            .init_resource::<TradeOffers>()
            .init_resource::<Report>()
            .init_resource::<Settling>()
            .add_message::<GeneNews>()
            .add_message::<TurnEnded>()
            .add_systems(
                Update,
                (
                    setup_clock.run_if(in_state(Setup)),
                    free_clock.run_if(in_state(Free)),
                    turn_clock.run_if(in_state(Action)),
                )
                    .in_set(TableSet::Deadlines),
            )
            .add_systems(
                Update,
                (
                    setup::prepare.run_if(in_state(Setup)),
                    (
                        free::ready,
                        free::offer,
                        free::accept,
                        free::decline,
                        free::withdraw,
                    )
                        .run_if(in_state(Free)),
                    free::discard.run_if(in_state(Free).or_else(in_state(Action))),
                    free::chat,
                    (
                        action::movement,
                        action::draw,
                        action::take_card,
                        action::use_card,
                        action::surgery,
                        action::gas_vote,
                        action::end_turn,
                    )
                        .run_if(in_state(Action)),
                )
                    .in_set(TableSet::Apply),
            )
            .add_systems(
                Update,
                remember_piles
                    .in_set(TableSet::Apply)
                    .after(free::discard)
                    .after(action::movement)
                    .after(action::draw)
                    .after(action::take_card)
                    .after(action::use_card)
                    .after(action::surgery)
                    .after(action::end_turn)
                    .after(setup::prepare),
            )
            .add_systems(
                Update,
                (
                    setup::begin_when_prepared.run_if(in_state(Setup)),
                    free::end_when_ready.run_if(in_state(Free)),
                    action::next_turn.run_if(on_message::<TurnEnded>),
                    (
                        settlement::surgery,
                        settlement::room_battles,
                        settlement::gas_vote,
                        settlement::upkeep,
                        settlement::rockets,
                        settlement::state_changes,
                        settlement::revivals,
                    )
                        .chain()
                        // Checked before each step: once one player is
                        // left living, the later steps are not settled.
                        .distributive_run_if(settlement::undecided)
                        .run_if(settlement::settling_any),
                    settlement::end_settlement.run_if(settlement::settling_any),
                    settlement::next_round.run_if(settlement::next_round_due),
                )
                    .chain()
                    .in_set(TableSet::Settle),
            )
            .add_systems(Update, sync_clock.in_set(TableSet::Clocks))
            .add_systems(Update, news::narrate.in_set(TableSet::Narrate));
    }
}

/// Each seat that acted this step sees its room as it leaves it (what its
/// view shows of the room until it acts again).
fn remember_piles(
    mut acts: MessageReader<Accepted<GeneAction>>,
    seats: Res<SeatEntities>,
    piles: Res<Piles>,
    mut players: Query<(&Place, &mut SeenPile)>,
) {
    for act in acts.read() {
        let Ok((place, mut seen)) = players.get_mut(seats.get(act.seat)) else {
            continue;
        };
        let now = place
            .0
            .and_then(|r| piles.0.get(&r).cloned())
            .unwrap_or_default();
        if seen.0 != now {
            seen.0 = now;
        }
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
        let mut supply: Vec<ItemKind> = items()
            .items
            .iter()
            .flat_map(|i| std::iter::repeat_n(i.kind, i.supply as usize))
            .collect();
        supply.shuffle(&mut world.resource_mut::<TableRng>().0);
        world.insert_resource(Supply(supply));
        match setup {
            Some(setup) => setup.apply(world)?,
            None => {
                world.write_message(GeneNews::Opening);
                world
                    .resource_mut::<NextState<GenePhase>>()
                    .set(GenePhase::Setup);
            }
        }
        Ok(())
    }

    fn check(world: &World, seat: SeatId, action: &GeneAction) -> Result<(), Rejection> {
        moves::check(world, seat, action)
    }

    fn capture(world: &World) -> GeneState {
        let seats = world.resource::<SeatEntities>();
        GeneState {
            seats: seats
                .iter()
                .map(|(s, _)| SeatState {
                    panel: part::<Panel>(world, s).clone(),
                    vitals: part::<Vitals>(world, s).clone(),
                    place: part::<Place>(world, s).clone(),
                    hand: part::<Hand>(world, s).clone(),
                    doings: part::<Doings>(world, s).clone(),
                    battles: part::<Battles>(world, s).clone(),
                    seen: part::<SeenPile>(world, s).clone(),
                })
                .collect(),
            calendar: world.resource::<Calendar>().clone(),
            gassed: world.resource::<Gassed>().clone(),
            supply: world.resource::<Supply>().clone(),
            piles: world.resource::<Piles>().clone(),
            secrets: world.resource::<Secrets>().clone(),
            offers: world.resource::<TradeOffers>().clone(),
            report: world.resource::<Report>().clone(),
        }
    }

    fn restore(world: &mut World, state: GeneState) {
        let seats = world.resource::<SeatEntities>().clone();
        for ((_, e), s) in seats.iter().zip(state.seats) {
            world.entity_mut(e).insert((
                s.panel, s.vitals, s.place, s.hand, s.doings, s.battles, s.seen,
            ));
        }
        world.insert_resource(Settling::default());
        world.insert_resource(state.calendar);
        world.insert_resource(state.gassed);
        world.insert_resource(state.supply);
        world.insert_resource(state.piles);
        world.insert_resource(state.secrets);
        world.insert_resource(state.offers);
        world.insert_resource(state.report);
    }

    fn view(world: &World, seat: Option<SeatId>) -> GeneView {
        view(world, seat)
    }

    fn to_act(world: &World) -> Vec<SeatId> {
        to_act(world)
    }

    fn result(world: &World) -> Option<GameResult> {
        result(world)
    }

    fn verify(world: &World, check: &GeneCheck) -> Result<(), String> {
        super::scenario::verify(world, check)
    }
}

/// Seats the table waits on.
pub(crate) fn to_act(world: &World) -> Vec<SeatId> {
    let at = moves::Seated::new(world);
    let all = at.seats.iter().map(|(s, _)| s);
    match phase(world) {
        GenePhase::Setup => all
            .filter(|&s| at.get::<Panel>(s).genes.is_none())
            .collect(),
        // Not yet ready, or asked to answer a trade.
        GenePhase::Free => {
            let offers = world.resource::<TradeOffers>();
            all.filter(|&s| !at.get::<Doings>(s).ready || offers.waiting_on(s))
                .collect()
        }
        GenePhase::Action => world.resource::<Calendar>().active().into_iter().collect(),
        GenePhase::Idle | GenePhase::GameOver => Vec::new(),
    }
}

/// Final places (1 = first), once over.
pub fn places(world: &World) -> Vec<u8> {
    let at = moves::Seated::new(world);
    let seats = at.seats;
    let everyone_shadow = seats.iter().all(|(s, _)| at.get::<Vitals>(s).shadow);
    let standings: Vec<super::settle::Standing> = seats
        .iter()
        .map(|(s, _)| {
            let v = at.get::<Vitals>(s);
            super::settle::Standing {
                alive: !v.shadow || everyone_shadow,
                hp: if everyone_shadow {
                    v.last_round_hp
                } else {
                    v.hp
                },
                strength: at.get::<Panel>(s).genes.map_or(0, |g| g.strength),
            }
        })
        .collect();
    rank(&standings)
}

pub(crate) fn result(world: &World) -> Option<GameResult> {
    if phase(world) != GenePhase::GameOver {
        return None;
    }
    let places = places(world);
    let cubes = &numbers().place_cubes;
    let scores = places
        .iter()
        .map(|&p| i64::from(*cubes.get(p as usize - 1).unwrap_or(&0)))
        .collect();
    Some(GameResult { scores, places })
}

/// Kinds of card lying in the seat's room.
fn lying_here(world: &World, seat: SeatId) -> Vec<ItemKind> {
    let Some(r) = part::<Place>(world, seat).0 else {
        return Vec::new();
    };
    let kinds: std::collections::BTreeSet<ItemKind> = world
        .resource::<Piles>()
        .0
        .get(&r)
        .into_iter()
        .flatten()
        .copied()
        .collect();
    kinds.into_iter().collect()
}

/// Kinds of card the seat's room gives that the supply still has.
fn kinds_here(world: &World, seat: SeatId) -> Vec<ItemKind> {
    let Some(r) = part::<Place>(world, seat).0 else {
        return Vec::new();
    };
    let present: std::collections::BTreeSet<ItemKind> =
        world.resource::<Supply>().0.iter().copied().collect();
    map()
        .room(r)
        .draws
        .iter()
        .copied()
        .filter(|k| present.contains(k))
        .collect()
}

pub fn view(world: &World, seat: Option<SeatId>) -> GeneView {
    let phase = phase(world);
    let at = moves::Seated::new(world);
    let seats = at.seats;
    let calendar = world.resource::<Calendar>();
    let every = |f: &dyn Fn(SeatId) -> bool| seats.iter().map(|(s, _)| f(s)).collect::<Vec<_>>();
    let to_act = seat.is_some_and(|s| to_act(world).contains(&s));
    let mine = seat.map(|s| {
        (
            at.get::<Panel>(s),
            at.get::<Vitals>(s),
            at.get::<Place>(s),
            at.get::<Hand>(s),
            at.get::<Doings>(s),
        )
    });
    let moved = mine.is_some_and(|m| m.4.moved);
    GeneView {
        me: seat,
        names: world.resource::<Seats>().names.clone(),
        phase,
        round: calendar.round,
        hp: seats
            .iter()
            .map(|(s, _)| at.get::<Vitals>(s).public_hp)
            .collect(),
        shadows: every(&|s| at.get::<Vitals>(s).shadow),
        gassed: world.resource::<Gassed>().0.clone(),
        to_act,
        genes: mine.and_then(|m| m.0.genes),
        room: mine.and_then(|m| m.2.0),
        hand: mine.map(|m| m.3.cards.clone()).unwrap_or_default(),
        moved,
        drew: mine.is_some_and(|m| m.4.drew),
        ready: mine.is_some_and(|m| m.4.ready),
        changed_state: seat.is_some_and(|s| moves::state_cards_spent(world, s)),
        must_drop: mine.map_or(0, |m| m.3.must_drop),
        can_discard: match (seat, mine.and_then(|m| m.3.cards.first())) {
            (Some(s), Some(&kind)) => moves::check(world, s, &GeneAction::Discard { kind }).is_ok(),
            _ => false,
        },
        destinations: match (mine, to_act && phase == GenePhase::Action && !moved) {
            (Some((panel, vitals, place, _, doings)), true) => {
                action::destinations(place, panel, vitals, doings)
            }
            _ => Vec::new(),
        },
        can_draw: match (seat, mine) {
            (Some(s), Some(m)) if to_act && moved && !m.4.drew && !m.1.shadow => {
                kinds_here(world, s)
            }
            _ => Vec::new(),
        },
        can_take: match (seat, mine) {
            (Some(s), Some(m)) if to_act && moved && !m.4.drew && !m.1.shadow => {
                lying_here(world, s)
            }
            _ => Vec::new(),
        },
        open_floors: moves::open_floors(world),
        result: result(world),
        order_card: seat
            .and_then(|s| calendar.order.iter().position(|o| *o == s))
            .map(|n| n as u8 + 1),
        order: if matches!(phase, GenePhase::Action) {
            calendar.order.clone()
        } else {
            Vec::new()
        },
        acted: every(&|s| at.get::<Doings>(s).acted),
        active: match phase {
            GenePhase::Action => calendar.active(),
            _ => None,
        },
        offers: match seat {
            Some(s) => world.resource::<TradeOffers>().involving(s),
            None => Vec::new(),
        },
        // The room as the viewer last saw it: live while it acts there, else
        // as it was after its last act (issue 35 E).
        lying: match (seat, mine.and_then(|m| m.2.0)) {
            (Some(_), Some(r)) if to_act => world
                .resource::<Piles>()
                .0
                .get(&r)
                .cloned()
                .unwrap_or_default(),
            (Some(s), Some(_)) => part::<SeenPile>(world, s).0.clone(),
            _ => Vec::new(),
        },
        reach: match mine {
            Some((panel, vitals, place, _, doings))
                if place.0.is_some() && phase != GenePhase::GameOver =>
            {
                let from = place.0.expect("checked");
                map()
                    .reachable(from, speed(panel, doings), vitals.shadow)
                    .into_iter()
                    .filter(|(r, _)| *r != from)
                    .collect()
            }
            _ => Vec::new(),
        },
        speed: mine.map_or(0, |m| speed(m.0, m.4)),
        carry: mine.map_or(0, |m| carry(m.0, m.1)),
        drained: mine.map_or(0, |m| m.1.drained),
        immune: mine.is_some_and(|m| m.1.immune),
        vote: mine.and_then(|m| m.4.vote),
        audience: seat
            .and_then(|s| moves::hearers(world, s).ok())
            .unwrap_or_default(),
        deadline_ms: world
            .resource::<Deadlines<GeneTimer>>()
            .pending
            .iter()
            .map(|d| d.at_ms)
            .min(),
        now_ms: world.resource::<TableClock>().now_ms,
        settlement: world.resource::<Report>().0.clone(),
        fought: seat
            .map(|s| at.get::<Battles>(s).0.clone())
            .unwrap_or_default(),
    }
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
    fn me(&self) -> Option<SeatId> {
        self.me
    }
    fn round(&self) -> u8 {
        self.round
    }
    fn to_act(&self) -> bool {
        self.to_act
    }
    fn result(&self) -> Option<&GameResult> {
        self.result.as_ref()
    }
}
