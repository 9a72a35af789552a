//! The order of work in one step of a table, and the plugin that sets up the
//! game-agnostic parts of every table.

use std::marker::PhantomData;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_state::prelude::*;

use super::{
    Accepted, ActionLog, ActionRequest, Announcements, DeadlinePassed, Deadlines, Game, TableClock,
    Verdicts, judge_requests,
};

/// One step of a table runs these in order, in one schedule (`Update`).
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableSet {
    /// The referee applies defaults for deadlines that passed.
    Deadlines,
    /// Requests are judged; only [`judge_requests`] runs here.
    Judge,
    /// Accepted actions are carried out by the game's systems.
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
            .add_message::<ActionRequest<G::Action>>()
            .add_message::<Accepted<G::Action>>()
            .add_message::<DeadlinePassed<G::Timer>>()
            .init_resource::<TableClock>()
            .init_resource::<Announcements>()
            .init_resource::<Verdicts>()
            .init_resource::<ActionLog<G::Action>>()
            .init_resource::<Deadlines<G::Timer>>()
            .configure_sets(
                Update,
                (
                    TableSet::Deadlines,
                    TableSet::Judge,
                    TableSet::Apply,
                    TableSet::Settle,
                    TableSet::Phases,
                    TableSet::Clocks,
                    TableSet::Narrate.run_if(resource_exists::<Narrating>),
                )
                    .chain(),
            )
            .add_systems(Update, judge_requests::<G>.in_set(TableSet::Judge))
            .add_systems(Update, apply_phases::<G>.in_set(TableSet::Phases));
    }
}

/// Makes the phase changes a step asked for, at once, so every input is
/// judged in the phase its predecessor left: the new phase is set, then
/// `OnExit(old)`, `OnTransition { old, new }` and `OnEnter(new)` run, as
/// under Bevy's `StateTransition`. The table drives them itself: building
/// `StateTransition`'s schedule for every table cost a sixth of a
/// simulated game, and a table has one phase type and no computed states.
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
        world.insert_resource(State::new(next));
        let _ = world.try_run_schedule(OnExit(old));
        let _ = world.try_run_schedule(OnTransition {
            exited: old,
            entered: next,
        });
        let _ = world.try_run_schedule(OnEnter(next));
    }
}
