//! Wanning Beast Chess on the table core: its settings and clocks, the
//! schedule (set-up phases, a round's orders, the settlement as one chain
//! in the seed's order) and the entry points the core calls.

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_state::prelude::*;

use super::moves::{self, Move};
use super::outcome::result;
use super::scenario::{WanningCheck, WanningSetup};
use super::settings::{WanningGame, WanningSettings, WanningTimer};
use super::state::*;
use super::view::WanningView;
use super::{news, round, settle, setup};
use crate::table::{
    DeadlinePassed, Deadlines, Game, GameResult, OnMove, Rejection, SeatEntities, SeatId, Settings,
    TableClock, TableSet, after_grace,
};

/// The one clock that should run now.
fn sync_clock(
    phase: Res<State<WanningPhase>>,
    round: Res<Round>,
    settings: Res<Settings<WanningGame>>,
    clock: Res<TableClock>,
    mut deadlines: ResMut<Deadlines<WanningTimer>>,
) {
    deadlines.run_only(
        WanningTimer::now(*phase.get(), round.0, &settings.0),
        after_grace(clock.now_ms, settings.0.grace_secs),
    );
}

/// A clock ran out (rules.md §8): the referee gives the waiting players'
/// defaults, through the same systems as their own moves.
fn time_up(
    mut passed: MessageReader<DeadlinePassed<WanningTimer>>,
    phase: Res<State<WanningPhase>>,
    round: Res<Round>,
    settings: Res<Settings<WanningGame>>,
    mut out: setup::Defaults,
) {
    let now = WanningTimer::now(*phase.get(), round.0, &settings.0).map(|(t, _)| t);
    for DeadlinePassed { timer } in passed.read() {
        if now.as_ref() == Some(timer) {
            out.give(*phase.get());
        }
    }
}

/// What a seat learns in private goes into its notebook (read by its
/// view), at every table, narrated or not.
fn keep_notes(
    mut news: MessageReader<WanningNews>,
    seats: Res<SeatEntities>,
    round: Res<Round>,
    mut books: Query<&mut Notebook>,
) {
    for n in news.read() {
        let (seat, learned) = match *n {
            WanningNews::Sensed {
                seat,
                target,
                named,
            } => (
                seat,
                Learned::Sensed {
                    round: round.0,
                    target,
                    object: named,
                },
            ),
            WanningNews::Foreseen { seat, a, b, order } => (
                seat,
                Learned::Foreseen {
                    a,
                    b,
                    order: order.into(),
                },
            ),
            WanningNews::Peeked { seat, target, kind } => (seat, Learned::Peeked { target, kind }),
            WanningNews::Wisdom { seat, right } => (
                seat,
                Learned::Wisdom {
                    round: round.0,
                    right,
                },
            ),
            _ => continue,
        };
        books
            .get_mut(seats.get(seat))
            .expect("a seat")
            .0
            .push(learned);
    }
}

/// The schedule: each phase's moves under `in_state`, then the settlement
/// in the seed's order (「buff獲取->最大受到傷害->護盾->真實傷害->鎖血->特殊技能」),
/// then clocks and words.
pub struct WanningPlugin;

impl Plugin for WanningPlugin {
    fn build(&self, app: &mut App) {
        use WanningPhase::*;
        let count = app.world().resource::<crate::table::Seats>().count();
        let seats = SeatEntities::spawn(app.world_mut(), count);
        for (_, e) in seats.iter() {
            app.world_mut().entity_mut(e).insert((
                Beast::default(),
                Life::default(),
                Instinct::default(),
                Abilities::default(),
                Choices::default(),
                super::state::Orders::default(),
                Tally::default(),
                LastTally::default(),
                Notebook::default(),
                Talk::default(),
            ));
        }
        app.insert_resource(seats)
            .init_state_resources()
            .add_message::<WanningNews>()
            .add_systems(Update, time_up.in_set(TableSet::Deadlines))
            // Each move's system, run only in a step that accepted it.
            .add_systems(OnMove(Move::Ban), setup::ban.run_if(in_state(Ban)))
            .add_systems(OnMove(Move::Pick), setup::pick.run_if(in_state(Pick)))
            .add_systems(OnMove(Move::Peek), setup::peek.run_if(in_state(Peek)))
            .add_systems(OnMove(Move::Orders), round::orders.run_if(in_state(Orders)))
            .add_systems(OnMove(Move::Guard), round::guard.run_if(in_state(Orders)))
            .add_systems(OnMove(Move::Foresee), round::foresee)
            .add_systems(OnMove(Move::Say), round::say)
            .add_systems(
                Update,
                (
                    setup::close_bans.run_if(in_state(Ban).and_then(setup::all_banned)),
                    setup::close_picks.run_if(in_state(Pick).and_then(setup::all_picked)),
                    setup::close_peeks.run_if(in_state(Peek).and_then(setup::all_peeked)),
                    (
                        settle::open,
                        settle::invalidations,
                        settle::actions,
                        settle::instincts,
                        settle::last_stand,
                        settle::buffs,
                        settle::max_damage,
                        settle::shields,
                        settle::true_damage,
                        settle::hp_lock,
                        settle::special,
                        settle::wisdom,
                        settle::announce,
                    )
                        .chain()
                        .run_if(in_state(Orders).and_then(round::all_ordered)),
                    // After the settlement, before the phase changes: a
                    // note's round is the round it was learned in.
                    keep_notes,
                )
                    .chain()
                    .in_set(TableSet::Settle),
            )
            .add_systems(OnEnter(Orders), round::dawn)
            .add_systems(Update, sync_clock.in_set(TableSet::Clocks))
            .add_systems(Update, news::narrate.in_set(TableSet::Narrate));
    }
}

trait InitStateResources {
    fn init_state_resources(&mut self) -> &mut Self;
}

impl InitStateResources for App {
    fn init_state_resources(&mut self) -> &mut Self {
        self.init_resource::<Round>()
            .init_resource::<Banned>()
            .init_resource::<Outcome>()
            .init_resource::<LastTargets>()
            .init_resource::<DeathsLastRound>()
            .init_resource::<Sung>()
            .init_resource::<FormCounts>()
            .init_resource::<LastHits>()
            .init_resource::<OmenState>()
    }
}

impl Game for WanningGame {
    crate::game_types!(Wanning, WanningPlugin);

    fn start(world: &mut World, setup: Option<&WanningSetup>) -> Result<(), Rejection> {
        if let Some(s) = setup {
            s.check(world)?;
        }
        let levels = setup.and_then(|s| s.levels.as_deref());
        crate::table::with_param::<setup::Deal<'static, 'static>, _>(world, |mut d| {
            d.deal(levels, setup.is_some());
        });
        if let Some(s) = setup {
            s.apply_after_deal(world);
        }
        Ok(())
    }

    fn check(world: &World, seat: SeatId, action: &WanningAction) -> Result<(), Rejection> {
        moves::judge(world, seat, action).map_err(news::refusal)
    }

    fn candidates(world: &World, seat: SeatId) -> Vec<WanningAction> {
        moves::candidates(world, seat)
    }

    fn view_into(world: &World, seat: Option<SeatId>, waiting: &[SeatId], into: &mut WanningView) {
        super::view::view_into(world, seat, waiting, into);
    }

    fn host_view(world: &World) -> WanningView {
        super::view::host_seat_view(world)
    }

    fn to_act_into(world: &World, into: &mut Vec<SeatId>) {
        moves::to_act_into(world, into);
    }

    fn result(world: &World) -> Option<GameResult> {
        result(world)
    }

    fn verify(world: &World, check: &WanningCheck) -> Result<(), String> {
        super::scenario::verify(world, check)
    }
}
