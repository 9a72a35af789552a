//! The table core, shared by every game: a table is a headless Bevy `App`
//! running one game, driven one input at a time.

mod announce;
mod clock;
mod game;
mod input;
mod log;
mod name;
mod rejection;
mod rng;
mod schedule;
mod seat;
mod snapshot;
mod state;
mod trade;

pub use announce::{Amount, Announcement, Announcements, Measure, PrivateNote, Said};
pub use clock::{
    Deadline, DeadlinePassed, Deadlines, MAX_GRACE_SECS, TableClock, USUAL_GRACE_SECS, after_grace,
    check_grace,
};
pub use game::{Game, GameResult, GameSettings, Moves, SeatView, end_revealed, legal, refill};
pub use input::{Accepted, OnMove, apply_moves};
pub use log::{ActionLog, LogEntry};
pub use name::{SeatName, bot_kind_words};
pub use rejection::Rejection;
pub use rng::TableRng;
pub use schedule::{Narrating, TablePlugin, TableSet, apply_phases};
use schedule::{PhaseWork, run_phase_work};
pub use seat::{SeatEntities, SeatId, Seated, Seats, seat_part};
pub use snapshot::{SNAPSHOT_FORMAT, SnapshotError, TableSnapshot};
pub use state::TablePart;
pub use trade::{Offer, Offers, TradeRefusal};

use bevy_app::{App, Update};
use bevy_ecs::change_detection::Tick;
use bevy_ecs::message::MessageRegistry;
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::{Schedules, SingleThreadedExecutor};
use bevy_state::prelude::*;
use serde::{Deserialize, Serialize};

/// Runs `f` with a system parameter over the world: a game's set-up and
/// scripts use the same parameters as its systems.
pub fn with_param<P: bevy_ecs::system::SystemParam + 'static, R>(
    world: &mut World,
    f: impl FnOnce(P::Item<'_, '_>) -> R,
) -> R {
    let mut state = bevy_ecs::system::SystemState::<P>::new(world);
    let r = f(state
        .get_mut(world)
        .expect("the table has what the parameter needs"));
    state.apply(world);
    r
}

/// How a table is set up: seed, seats and the game's rule variant.
#[derive(Serialize, Deserialize)]
#[serde(bound = "")]
pub struct TableConfig<G: Game> {
    pub seed: u64,
    pub seats: Seats,
    pub settings: G::Settings,
}

impl<G: Game> Clone for TableConfig<G> {
    fn clone(&self) -> Self {
        Self {
            seed: self.seed,
            seats: self.seats.clone(),
            settings: self.settings.clone(),
        }
    }
}

impl<G: Game> std::fmt::Debug for TableConfig<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TableConfig")
            .field("seed", &self.seed)
            .field("seats", &self.seats)
            .field("settings", &self.settings)
            .finish()
    }
}

impl<G: Game> TableConfig<G> {
    pub fn new(seed: u64, players: usize) -> Self {
        Self {
            seed,
            seats: Seats::numbered(players),
            settings: G::Settings::default(),
        }
    }
}

/// The settings a table was built with, readable by the game's systems.
#[derive(Resource)]
pub struct Settings<G: Game>(pub G::Settings);

/// One table of game `G`.
pub struct Table<G: Game> {
    app: App,
    /// The step's schedule ([`TableSet`]), kept aside from `Schedules`:
    /// `World::run_schedule` would find it by label and move it out and
    /// back in every step.
    update: Schedule,
    config: TableConfig<G>,
    /// The game's world as built, before the deal: what a reused table
    /// starts again from ([`Table::reset`]).
    pristine: G::State,
    /// The change tick at the end of the last step (message upkeep).
    last_step: Tick,
    /// The table's message types, kept aside from the world: the upkeep
    /// of every step would otherwise take the registry out of the world
    /// and put it back (`World::resource_scope`), which moves the entity
    /// a resource now is, and cost a tenth of a simulated game.
    messages: MessageRegistry,
    /// The final result, once the game is over (it cannot change then;
    /// a hall asks for it every tick).
    over: Option<GameResult>,
    /// Steps run so far: whoever saw the table at one count sees it
    /// unchanged while the count stands ([`Table::steps`]).
    steps: u64,
    /// What a hall reads of every table at every tick, noted after each
    /// step ([`Table::note`]): the clock, the earliest deadline and the
    /// log's length change only in a step or a clock move, while a hall
    /// asks for them every tick: read from a note, not looked up in the
    /// world each time.
    noted: Noted,
}

/// A table's clock, earliest deadline and log length, as of its last step.
#[derive(Clone, Debug, Default)]
struct Noted {
    now_ms: u64,
    next_deadline: Option<u64>,
    log_len: usize,
    /// Who the table waits on ([`Game::to_act`] reads no clock).
    to_act: Vec<SeatId>,
}

/// How many deadline defaults one clock move may fire before the table
/// gives up (a game that keeps setting deadlines in the past is a bug).
const MAX_DEADLINES_PER_MOVE: usize = 10_000;

impl<G: Game> Table<G> {
    /// A new table, dealt from the config's seed.
    pub fn new(config: TableConfig<G>) -> Result<Self, Rejection> {
        Self::with_setup(config, None)
    }

    /// A new table; a scripted `setup` replaces the deal.
    pub fn with_setup(config: TableConfig<G>, setup: Option<&G::Setup>) -> Result<Self, Rejection> {
        Self::open(config, setup, true)
    }

    /// A table nobody reads: its narrator never runs, so it keeps no
    /// announcements and spends nothing on words (`foodweb sim`).
    pub fn quiet(config: TableConfig<G>) -> Result<Self, Rejection> {
        Self::open(config, None, false)
    }

    fn open(
        config: TableConfig<G>,
        setup: Option<&G::Setup>,
        narrate: bool,
    ) -> Result<Self, Rejection> {
        if !G::ID.seats().contains(&config.seats.count()) {
            let range = G::ID.seats();
            return Err(Rejection::new(
                format!(
                    "{} takes {} to {} players, not {}",
                    G::ID.title().en,
                    range.start(),
                    range.end(),
                    config.seats.count()
                ),
                format!(
                    "{}需要 {} 到 {} 名玩家，而不是 {} 名",
                    G::ID.title().zh,
                    range.start(),
                    range.end(),
                    config.seats.count()
                ),
            ));
        }
        config.settings.check()?;
        let mut table = Self::assemble(config, narrate);
        G::start(table.app.world_mut(), setup)?;
        // The opening step: no input, so only the phase the start asked
        // for, its clocks and its words.
        table.step();
        Ok(table)
    }

    fn assemble(config: TableConfig<G>, narrate: bool) -> Self {
        // `App::empty`: a table needs no `Main` schedule and no reflection
        // registry (`App::new` would build one for every table, and a hall
        // holds many).
        let mut app = App::empty();
        app.add_plugins(TablePlugin::<G>::default())
            .insert_resource(config.seats.clone())
            .insert_resource(TableRng::seeded(config.seed))
            .insert_resource(Settings::<G>(config.settings.clone()));
        if narrate {
            app.insert_resource(Narrating);
        }
        G::build(&mut app, &config.settings);
        app.finish();
        app.cleanup();
        // A table's systems are few and small: threads cost more than they give.
        for (_, schedule) in app.world_mut().resource_mut::<Schedules>().iter_mut() {
            schedule.set_executor(SingleThreadedExecutor::new());
        }
        // Enter the initial phase.
        let initial = *app.world().resource::<State<G::Phase>>().get();
        run_phase_work::<G>(app.world_mut(), PhaseWork::Enter(initial));
        // The table runs its one schedule itself (`step`).
        let update = app
            .world_mut()
            .resource_mut::<Schedules>()
            .remove(Update)
            .expect("the table plugin adds systems to Update");
        let last_step = app.world_mut().change_tick();
        let pristine = G::capture(app.world());
        // Every message type was registered while the table was built.
        let messages = app
            .world_mut()
            .remove_resource::<MessageRegistry>()
            .expect("the table plugin adds messages");
        Self {
            app,
            update,
            config,
            pristine,
            last_step,
            messages,
            over: None,
            steps: 0,
            noted: Noted::default(),
        }
    }

    /// Notes what a hall reads of the table at every tick (after a step,
    /// or anything else that changes the world).
    fn note(&mut self) {
        let world = self.app.world();
        let noted = &mut self.noted;
        noted.now_ms = world.resource::<TableClock>().now_ms;
        noted.next_deadline = world
            .resource::<Deadlines<G::Timer>>()
            .pending
            .iter()
            .map(|d| d.at_ms)
            .min();
        noted.log_len = world.resource::<ActionLog<G::Action>>().entries.len();
        // Written over the last step's list, keeping its room.
        G::to_act_into(world, &mut noted.to_act);
    }

    /// Starts a new game at this table, with the same seats and rule
    /// variant and a new seed: the world is laid out again as built and
    /// dealt afresh, but the schedule, built once, is kept. A reused table
    /// plays exactly the game a new one would (`foodweb sim` plays game
    /// after game at one table: building a table's schedule costs more
    /// than a short game).
    pub fn reset(&mut self, config: TableConfig<G>) -> Result<(), Rejection> {
        if config.seats.count() != self.config.seats.count()
            || config.settings != self.config.settings
        {
            return Err(Rejection::new(
                "a table is reused only for the same seats and rules",
                "只有座位和规则相同时才能重开一局",
            ));
        }
        let world = self.app.world_mut();
        world.insert_resource(config.seats.clone());
        world.insert_resource(TableRng::seeded(config.seed));
        world.insert_resource(TableClock::default());
        world.insert_resource(Announcements::default());
        world.insert_resource(ActionLog::<G::Action>::default());
        world.insert_resource(Deadlines::<G::Timer>::default());
        world.insert_resource(State::new(G::Phase::default()));
        world.insert_resource(NextState::<G::Phase>::default());
        G::restore(world, self.pristine.clone());
        // Every message of the last game is dropped (two updates).
        for _ in 0..2 {
            self.messages.run_updates(world, self.last_step);
            self.last_step = world.change_tick();
        }
        self.config = config;
        self.over = None;
        G::start(self.app.world_mut(), None)?;
        self.step();
        Ok(())
    }

    pub fn config(&self) -> &TableConfig<G> {
        &self.config
    }

    pub fn world(&self) -> &World {
        self.app.world()
    }

    pub fn now_ms(&self) -> u64 {
        self.noted.now_ms
    }

    /// How many entries the log holds (moves and the referee's notes).
    pub fn log_len(&self) -> usize {
        self.noted.log_len
    }

    pub fn phase(&self) -> G::Phase {
        *self.world().resource::<State<G::Phase>>().get()
    }

    /// A seat asks to act. On `Err`, nothing at the table changed: the
    /// judge only reads the world, and a refused request runs no step.
    pub fn submit(&mut self, seat: SeatId, action: G::Action) -> Result<(), Rejection> {
        input::judge::<G>(self.app.world_mut(), seat, action)?;
        self.step();
        Ok(())
    }

    /// Moves the clock forward to `now_ms`, firing every deadline on the way
    /// at its own time, earliest first. The clock never goes back.
    pub fn advance_to(&mut self, now_ms: u64) {
        for _ in 0..MAX_DEADLINES_PER_MOVE {
            // Nothing falls due: the common case, read from the note.
            if self.noted.next_deadline.is_none_or(|at| at > now_ms) {
                break;
            }
            let due = self
                .world()
                .resource::<Deadlines<G::Timer>>()
                .next_due(now_ms);
            let Some(deadline) = due else { break };
            let world = self.app.world_mut();
            world
                .resource_mut::<Deadlines<G::Timer>>()
                .cancel(&deadline.timer);
            let clock = &mut world.resource_mut::<TableClock>();
            clock.now_ms = clock.now_ms.max(deadline.at_ms);
            world.write_message(DeadlinePassed {
                timer: deadline.timer,
            });
            self.step();
        }
        if now_ms > self.noted.now_ms {
            self.app.world_mut().resource_mut::<TableClock>().now_ms = now_ms;
            self.noted.now_ms = now_ms;
        }
    }

    pub fn advance_by(&mut self, ms: u64) {
        let target = self.now_ms() + ms;
        self.advance_to(target);
    }

    /// The earliest pending deadline, if any.
    pub fn next_deadline(&self) -> Option<u64> {
        self.noted.next_deadline
    }

    /// One step: the table's one schedule, `Update` ([`TableSet`]:
    /// deadlines, judge, the phase's systems, settlement, phase changes,
    /// clocks, words). Only it runs: a table has no frame, so
    /// `App::update`'s other schedules (`First`, `PreUpdate`, `PostUpdate`,
    /// `Last` ...) would cost time for nothing.
    fn step(&mut self) {
        self.steps += 1;
        let world = self.app.world_mut();
        self.update.run(world);
        if self.over.is_none() {
            self.over = G::result(world);
        }
        // Messages live two steps, as under `App::update`'s `First`.
        self.messages.run_updates(world, self.last_step);
        self.last_step = world.change_tick();
        world.clear_trackers();
        self.note();
    }

    /// How many steps the table has run: nothing at the table (but its
    /// clock) changes between two reads that give the same count.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    pub fn view(&self, seat: SeatId) -> G::View {
        G::view(self.world(), Some(seat))
    }

    pub fn public_view(&self) -> G::View {
        G::view(self.world(), None)
    }

    pub fn to_act(&self) -> Vec<SeatId> {
        self.noted.to_act.clone()
    }

    /// Who the table waits on, in seat order ([`Table::to_act`], borrowed).
    pub fn waiting(&self) -> &[SeatId] {
        &self.noted.to_act
    }

    /// The seat's view written over `into` ([`Game::view_into`]).
    pub fn view_into(&self, seat: SeatId, into: &mut G::View) {
        G::view_into(self.world(), Some(seat), &self.noted.to_act, into);
    }

    /// What `seat` may do now, as the judge sees it ([`legal`]).
    pub fn legal(&self, seat: SeatId) -> Vec<G::Action> {
        legal::<G>(self.world(), seat)
    }

    pub fn result(&self) -> Option<GameResult> {
        self.over.clone()
    }

    pub fn is_over(&self) -> bool {
        self.over.is_some()
    }

    pub fn announcements(&self) -> &Announcements {
        self.world().resource::<Announcements>()
    }

    pub fn log(&self) -> &ActionLog<G::Action> {
        self.world().resource::<ActionLog<G::Action>>()
    }

    pub fn snapshot(&self) -> TableSnapshot<G> {
        let world = self.world();
        TableSnapshot {
            format: SNAPSHOT_FORMAT,
            game: G::ID,
            config: self.config.clone(),
            clock_ms: world.resource::<TableClock>().now_ms,
            rng: world.resource::<TableRng>().clone(),
            phase: self.phase(),
            deadlines: world.resource::<Deadlines<G::Timer>>().clone(),
            log: world.resource::<ActionLog<G::Action>>().clone(),
            announcements: world.resource::<Announcements>().clone(),
            state: G::capture(world),
        }
    }

    /// Rebuilds a table exactly as a snapshot left it.
    pub fn restore(snapshot: TableSnapshot<G>) -> Self {
        let mut table = Self::assemble(snapshot.config, true);
        let world = table.app.world_mut();
        world.insert_resource(TableClock {
            now_ms: snapshot.clock_ms,
        });
        world.insert_resource(snapshot.rng);
        world.insert_resource(State::new(snapshot.phase));
        world.insert_resource(snapshot.deadlines);
        world.insert_resource(snapshot.log);
        world.insert_resource(snapshot.announcements);
        G::restore(world, snapshot.state);
        table.over = G::result(table.world());
        table.note();
        table
    }

    /// A saved table: restored from its snapshot, or, if the snapshot is
    /// of an older format this build cannot read, played again from its
    /// seed and log to its clock (the same game, since tables are
    /// deterministic). Anything else unreadable is refused.
    pub fn from_saved(text: &str) -> Result<Self, SnapshotError> {
        match TableSnapshot::<G>::from_ron(text) {
            Ok(snapshot) => Ok(Self::restore(snapshot)),
            Err(SnapshotError::Format { found, expected }) if found < expected => {
                let old: snapshot::Replayable<G> =
                    ron::from_str(text).map_err(|e| SnapshotError::Parse(e.to_string()))?;
                if old.game != G::ID {
                    return Err(SnapshotError::WrongGame {
                        found: old.game,
                        expected: G::ID,
                    });
                }
                Self::replay(old.config, None, &old.log, old.clock_ms).map_err(|e| {
                    SnapshotError::Inconsistent(format!(
                        "a format {} snapshot, played again from its seed and log: {e}",
                        old.format
                    ))
                })
            }
            Err(e) => Err(e),
        }
    }

    /// Plays a log again from the config's seed. The result equals the table
    /// that wrote the log.
    pub fn replay(
        config: TableConfig<G>,
        setup: Option<&G::Setup>,
        log: &ActionLog<G::Action>,
        until_ms: u64,
    ) -> Result<Self, ReplayError> {
        let mut table = Self::with_setup(config, setup).map_err(|e| ReplayError {
            entry: 0,
            reason: e,
        })?;
        for (i, entry) in log.entries.iter().enumerate() {
            if let LogEntry::Act {
                at_ms,
                seat,
                action,
            } = entry
            {
                table.advance_to(*at_ms);
                table
                    .submit(*seat, action.clone())
                    .map_err(|reason| ReplayError { entry: i, reason })?;
            }
        }
        table.advance_to(until_ms);
        Ok(table)
    }
}

#[derive(Debug, thiserror::Error)]
#[error("log entry {entry} was refused on replay: {reason}")]
pub struct ReplayError {
    pub entry: usize,
    pub reason: Rejection,
}
