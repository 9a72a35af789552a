//! The order of work in one step of a table, and the plugin that sets up the
//! game-agnostic parts of every table.

use std::marker::PhantomData;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::Schedules;
use bevy_state::prelude::*;

use super::{
    Accepted, ActionLog, Announcements, DeadlinePassed, Deadlines, Game, TableClock, apply_moves,
};

/// One step of a table runs these in order, in one schedule (`Update`).
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableSet {
    /// The referee applies defaults for deadlines that passed (only in a
    /// step a deadline passed in).
    Deadlines,
    /// Accepted moves (judged by `Table::submit` before the step, or the
    /// referee's defaults from `Deadlines`) are carried out: only
    /// [`apply_moves`] runs here, and it runs each accepted kind's
    /// [`OnMove`](super::OnMove) schedule (only in a step with a move).
    Apply,
    /// Turns, rounds and the game end are settled.
    Settle,
    /// The phase changes the step asked for are made, with their
    /// `OnExit` and `OnEnter` work ([`apply_phases`]).
    Phases,
    /// Deadlines are set for the phase the table is in now.
    Clocks,
    /// Events become announcements and private notes (only at tables
    /// someone reads: see [`Narrating`]). After the phase changes, so no
    /// announcement lags an input behind.
    Narrate,
}

/// Present at a table whose words someone will read. A simulated game
/// leaves it out, and its narrators do not run.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct Narrating;

/// The table core for game `G`: seats, clock, log, announcements, input.
pub struct TablePlugin<G>(PhantomData<G>);

impl<G> Default for TablePlugin<G> {
    fn default() -> Self {
        Self(PhantomData)
    }
}

impl<G: Game> Plugin for TablePlugin<G> {
    fn build(&self, app: &mut App) {
        // The phase is a Bevy state (`in_state`, `OnEnter`, `OnExit`); the
        // table applies its changes itself (`apply_phases`).
        app.insert_resource(State::new(G::Phase::default()))
            .init_resource::<NextState<G::Phase>>()
            .init_resource::<PhaseSchedules<G::Phase>>()
            .add_message::<Accepted<G::Action>>()
            .add_message::<DeadlinePassed<G::Timer>>()
            .init_resource::<TableClock>()
            .init_resource::<Announcements>()
            .init_resource::<ActionLog<G::Action>>()
            .init_resource::<Deadlines<G::Timer>>()
            .configure_sets(
                Update,
                (
                    // A step does only the work it has: most steps carry
                    // one input and no deadline. A set that waits on a
                    // message also never reads one left from the step
                    // before, when the table was in another phase.
                    TableSet::Deadlines.run_if(on_message::<DeadlinePassed<G::Timer>>),
                    TableSet::Apply.run_if(on_message::<Accepted<G::Action>>),
                    TableSet::Settle,
                    TableSet::Phases,
                    TableSet::Clocks,
                    TableSet::Narrate.run_if(resource_exists::<Narrating>),
                )
                    .chain(),
            )
            .add_systems(Update, apply_moves::<G>.in_set(TableSet::Apply))
            .add_systems(Update, apply_phases::<G>.in_set(TableSet::Phases));
    }
}

/// Makes the phase changes a step asked for, at once, so every input is
/// judged in the phase its predecessor left: the new phase is set, then
/// `OnExit(old)`, `OnTransition { old, new }` and `OnEnter(new)` run, as
/// under Bevy's `StateTransition`. The table drives them itself: a table
/// has one phase type and no computed states, so Bevy's `StateTransition`
/// schedule would be built and run at every step for nothing.
pub fn apply_phases<G: Game>(world: &mut World) {
    for _ in 0..64 {
        let (next, always) = match world.resource::<NextState<G::Phase>>() {
            NextState::Unchanged => break,
            NextState::Pending(next) => (*next, true),
            NextState::PendingIfNeq(next) => (*next, false),
        };
        world.resource_mut::<NextState<G::Phase>>().reset();
        let old = *world.resource::<State<G::Phase>>().get();
        if !always && next == old {
            continue;
        }
        *world.resource_mut::<State<G::Phase>>() = State::new(next);
        run_phase_work::<G>(world, PhaseWork::Exit(old));
        run_phase_work::<G>(world, PhaseWork::Transition(old, next));
        run_phase_work::<G>(world, PhaseWork::Enter(next));
    }
}

/// The work of entering, leaving or changing one phase: `OnEnter`,
/// `OnExit` and `OnTransition`'s schedules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PhaseWork<P> {
    Enter(P),
    Exit(P),
    Transition(P, P),
}

/// The phase schedules a table has used, kept aside from `Schedules`
/// (with `None` for a phase that has no such work): finding a schedule
/// by label and moving it out of `Schedules` and back, as
/// `World::run_schedule` does, cost more than most phases' work. Each is
/// boxed: a `Schedule` is a large struct (close to a KiB), and most phases
/// have no work of some kind, so an empty slot should cost a pointer, not
/// a whole schedule, in every table a hall holds.
#[derive(Resource)]
pub(crate) struct PhaseSchedules<P: States>(Vec<(PhaseWork<P>, Option<Box<Schedule>>)>);

impl<P: States> Default for PhaseSchedules<P> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

/// Runs one phase's `OnEnter`, `OnExit` or `OnTransition` work, if the
/// game has any.
pub(crate) fn run_phase_work<G: Game>(world: &mut World, work: PhaseWork<G::Phase>) {
    // A table's phases are few: a list is the quickest map.
    let known = world
        .resource::<PhaseSchedules<G::Phase>>()
        .0
        .iter()
        .position(|(w, _)| *w == work);
    let i = match known {
        Some(i) => i,
        None => {
            let mut schedules = world.resource_mut::<Schedules>();
            let schedule = match work {
                PhaseWork::Enter(p) => schedules.remove(OnEnter(p)),
                PhaseWork::Exit(p) => schedules.remove(OnExit(p)),
                PhaseWork::Transition(exited, entered) => {
                    schedules.remove(OnTransition { exited, entered })
                }
            };
            let mut kept = world.resource_mut::<PhaseSchedules<G::Phase>>();
            kept.0.push((work, schedule.map(Box::new)));
            kept.0.len() - 1
        }
    };
    // Lent out while it runs (a phase's work that asks for another phase
    // is answered by `apply_phases`' next turn round its loop).
    let lent = world.resource_mut::<PhaseSchedules<G::Phase>>().0[i]
        .1
        .take();
    if let Some(mut schedule) = lent {
        schedule.run(world);
        world.resource_mut::<PhaseSchedules<G::Phase>>().0[i].1 = Some(schedule);
    }
}
