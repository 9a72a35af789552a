//! Gene Survival on the table core: the schedule of its phases (one system
//! per move, the settlement as one chain), its clocks' systems, and the
//! entry points the core calls.

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use rand::seq::{IndexedRandom, SliceRandom};

use super::action::{self, Hands};
use super::free;
use super::items::items;
use super::map::{ItemKind, map};
use super::moves::{self, Move};
use super::outcome::{result, to_act_into};
use super::scenario::{GeneCheck, GeneSetup};
use super::settings::{GeneGame, GeneSettings, GeneTimer};
use super::state::*;
use super::view::GeneView;
use super::{news, settlement, setup};
use crate::table::{
    Accepted, ActionLog, DeadlinePassed, Deadlines, Game, GameResult, LogEntry, OnMove, Rejection,
    SeatEntities, SeatId, Seats, Settings, TableClock, TableRng, TableSet, after_grace,
};
use settlement::{settling_any, undecided};

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
            let starts = after_grace(clock.now_ms, s.grace_secs);
            deadlines.set(timer, starts + u64::from(secs) * 1000);
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
                Told::default(),
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
            // Each move's system, run only in a step that accepted it.
            .add_systems(
                OnMove(Move::Prepare),
                setup::prepare.run_if(in_state(Setup)),
            )
            .add_systems(OnMove(Move::Ready), free::ready.run_if(in_state(Free)))
            .add_systems(OnMove(Move::Offer), free::offer.run_if(in_state(Free)))
            .add_systems(OnMove(Move::Accept), free::accept.run_if(in_state(Free)))
            .add_systems(OnMove(Move::Decline), free::decline.run_if(in_state(Free)))
            .add_systems(
                OnMove(Move::Withdraw),
                free::withdraw.run_if(in_state(Free)),
            )
            .add_systems(
                OnMove(Move::Discard),
                free::discard.run_if(in_state(Free).or_else(in_state(Action))),
            )
            .add_systems(OnMove(Move::Chat), free::chat)
            .add_systems(
                OnMove(Move::Move),
                action::movement.run_if(in_state(Action)),
            )
            .add_systems(OnMove(Move::Draw), action::draw.run_if(in_state(Action)))
            .add_systems(
                OnMove(Move::Take),
                action::take_card.run_if(in_state(Action)),
            )
            .add_systems(OnMove(Move::Use), action::use_card.run_if(in_state(Action)))
            .add_systems(
                OnMove(Move::Surgery),
                action::surgery.run_if(in_state(Action)),
            )
            .add_systems(
                OnMove(Move::Vote),
                action::gas_vote.run_if(in_state(Action)),
            )
            .add_systems(
                OnMove(Move::EndTurn),
                action::end_turn.run_if(in_state(Action)),
            )
            .add_systems(
                Update,
                (
                    // What a seat that moved sees of its room from now on.
                    remember_piles.run_if(on_message::<Accepted<GeneAction>>),
                    setup::begin_when_prepared.run_if(in_state(Setup)),
                    free::end_when_ready.run_if(in_state(Free)),
                    action::next_turn.run_if(on_message::<TurnEnded>),
                    // Each step's condition is checked before it runs: once
                    // one player is left living, the later steps are not
                    // settled. (Whether a settlement is under way is asked
                    // first: Bevy asks a system's own conditions at every
                    // step, even when a set it is in does not run.)
                    (
                        settlement::surgery.run_if(settling_any.and_then(undecided)),
                        settlement::room_battles.run_if(settling_any.and_then(undecided)),
                        settlement::gas_vote.run_if(settling_any.and_then(undecided)),
                        settlement::upkeep.run_if(settling_any.and_then(undecided)),
                        settlement::rockets.run_if(settling_any.and_then(undecided)),
                        settlement::state_changes.run_if(settling_any.and_then(undecided)),
                        settlement::revivals.run_if(settling_any.and_then(undecided)),
                    )
                        .chain(),
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

impl Game for GeneGame {
    crate::game_types!(Gene, GenePlugin);

    fn start(world: &mut World, setup: Option<&GeneSetup>) -> Result<(), Rejection> {
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

    /// A settlement under way is not part of a snapshot: a restored table
    /// starts with none.
    fn restore(world: &mut World, state: GeneState) {
        world.insert_resource(Settling::default());
        crate::table::TablePart::put(state, world);
    }

    fn candidates(world: &World, seat: SeatId) -> Vec<GeneAction> {
        moves::candidates(world, seat)
    }

    fn view_into(world: &World, seat: Option<SeatId>, waiting: &[SeatId], into: &mut GeneView) {
        super::view::view_into(world, seat, waiting, into);
    }

    fn to_act_into(world: &World, into: &mut Vec<SeatId>) {
        to_act_into(world, into);
    }

    fn result(world: &World) -> Option<GameResult> {
        result(world)
    }

    fn verify(world: &World, check: &GeneCheck) -> Result<(), String> {
        super::scenario::verify(world, check)
    }
}
