//! The order of work in one step of a table, and the plugin that sets up the
//! game-agnostic parts of every table.

use std::marker::PhantomData;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::ScheduleLabel;
use bevy_state::prelude::*;

use super::{
    Accepted, ActionLog, ActionRequest, Announcements, DeadlinePassed, Deadlines, Game, TableClock,
    Verdicts, judge_requests,
};

/// One step of a table runs these in order, in `Update`.
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
}

/// What runs once a step's phase changes are made (`OnExit`, `OnEnter`):
/// the clocks the table's phase now needs, then the narrator, which puts
/// the step's events into words. So no announcement lags an input behind.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Aftermath;

#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AfterSet {
    /// Deadlines are set for the phase the table is in now.
    Clocks,
    /// Events become announcements and private notes (only at tables
    /// someone reads: see [`Narrating`]).
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
        // table applies its changes itself (`Table::settle_phases`).
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
                )
                    .chain(),
            )
            .add_systems(Update, judge_requests::<G>.in_set(TableSet::Judge))
            .init_schedule(Aftermath)
            .configure_sets(
                Aftermath,
                (
                    AfterSet::Clocks,
                    AfterSet::Narrate.run_if(resource_exists::<Narrating>),
                )
                    .chain(),
            );
    }
}
