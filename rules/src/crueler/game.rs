//! Crueler World on the table core: the schedule of its phases (one system
//! per move, the settlement as one chain), its clocks' systems, and the
//! entry points the core calls.

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use rand::RngExt;

use super::moves::{self, Move};
use super::outcome::{result, to_act_into};
use super::scenario::{CruelerCheck, CruelerSetup};
use super::settings::{CruelerGame, CruelerSettings, CruelerTimer};
use super::state::*;
use super::view::CruelerView;
use super::{duel, interlude, news, predation};
use crate::table::{
    Accepted, ActionLog, DeadlinePassed, Deadlines, Game, GameResult, LogEntry, OnMove, Rejection,
    SeatEntities, SeatId, Settings, TableClock, TablePart, TableRng, TableSet, after_grace,
};

/// What the table's clocks read.
#[derive(bevy_ecs::system::SystemParam)]
struct ClockState<'w, 's> {
    phase: Res<'w, State<CruelerPhase>>,
    calendar: Res<'w, Calendar>,
    asking: Res<'w, Asking>,
    duels: Query<'w, 's, &'static Duel>,
    settings: Res<'w, Settings<CruelerGame>>,
}

impl ClockState<'_, '_> {
    fn timer(&self) -> Option<(CruelerTimer, u32)> {
        CruelerTimer::now(
            *self.phase.get(),
            &self.calendar,
            &self.asking,
            self.duels.iter().next(),
            &self.settings.0,
        )
    }
}

/// The one clock that should run now: set if it is new; any other
/// dropped (`TableSet::Clocks`, once the step's phase changes are made).
fn sync_clock(
    state: ClockState,
    clock: Res<TableClock>,
    mut deadlines: ResMut<Deadlines<CruelerTimer>>,
) {
    let starts = after_grace(clock.now_ms, state.settings.0.grace_secs);
    deadlines.run_only(state.timer(), starts);
}

/// A clock ran out (rules.md §12): the referee does what the waiting
/// players did not. In the interlude unanswered offers lapse and everyone
/// is ready; the asked player passes; a duelist who has not chosen gets a
/// beast drawn at random. The referee's moves go to the same systems as
/// the players'.
fn time_up(
    mut passed: MessageReader<DeadlinePassed<CruelerTimer>>,
    state: ClockState,
    clock: Res<TableClock>,
    mut log: ResMut<ActionLog<CruelerAction>>,
    mut offers: ResMut<LifeOffers>,
    mut players: Query<(&Standing, &mut Ready)>,
    mut rng: ResMut<TableRng>,
    mut news: MessageWriter<CruelerNews>,
    mut acts: MessageWriter<Accepted<CruelerAction>>,
) {
    for DeadlinePassed { timer } in passed.read() {
        if state.timer().map(|(t, _)| t).as_ref() != Some(timer) {
            continue;
        }
        log.entries.push(LogEntry::Auto {
            at_ms: clock.now_ms,
            what: format!("time ran out: {timer:?}"),
        });
        match *state.phase.get() {
            CruelerPhase::Interlude => {
                let lapsed = std::mem::take(&mut offers.0)
                    .into_iter()
                    .map(|o| (o.from, o.to))
                    .collect();
                news.write(CruelerNews::InterludeTimeUp { lapsed });
                for (standing, mut ready) in &mut players {
                    if standing.alive {
                        ready.0 = true;
                    }
                }
            }
            CruelerPhase::Predation => {
                let Some(seat) = state.asking.asked() else {
                    continue;
                };
                news.write(CruelerNews::AskTimeUp { seat });
                acts.write(Accepted {
                    seat,
                    action: CruelerAction::Pass,
                });
            }
            CruelerPhase::Duel => {
                let Some(d) = state.duels.iter().next() else {
                    continue;
                };
                for (side, seat) in [d.predator, d.prey].into_iter().enumerate() {
                    if d.choice[side].is_some() {
                        continue;
                    }
                    let beast = Beast::ALL[rng.0.random_range(0..Beast::ALL.len())];
                    news.write(CruelerNews::BeastDrawn { seat, beast });
                    acts.write(Accepted {
                        seat,
                        action: CruelerAction::Choose { beast },
                    });
                }
            }
            CruelerPhase::Idle | CruelerPhase::GameOver => {}
        }
    }
}

/// Crueler World's schedule: each phase's moves under `in_state`, then
/// the settlement in the rules' order, then clocks and words.
pub struct CruelerPlugin;

impl Plugin for CruelerPlugin {
    fn build(&self, app: &mut App) {
        use CruelerPhase::*;
        let count = app.world().resource::<crate::table::Seats>().count();
        let seats = SeatEntities::spawn(app.world_mut(), count);
        for (_, e) in seats.iter() {
            app.world_mut().entity_mut(e).insert((
                LifeBox::default(),
                PredatorCards::default(),
                Standing::default(),
                Hunger::default(),
                InReserve::default(),
                Ready::default(),
                Told::default(),
            ));
        }
        app.insert_resource(seats)
            .init_resource::<Calendar>()
            .init_resource::<Die>()
            .init_resource::<Asking>()
            .init_resource::<History>()
            .init_resource::<Fallen>()
            .init_resource::<Dueling>()
            .init_resource::<LifeOffers>()
            .add_message::<CruelerNews>()
            .add_message::<Answered>()
            .add_message::<PhaseOver>()
            .add_systems(Update, time_up.in_set(TableSet::Deadlines))
            // Each move's system, run only in a step that accepted it.
            .add_systems(
                OnMove(Move::Ready),
                interlude::ready.run_if(in_state(Interlude)),
            )
            .add_systems(
                OnMove(Move::OfferLife),
                interlude::offer_life.run_if(in_state(Interlude)),
            )
            .add_systems(
                OnMove(Move::Accept),
                interlude::accept.run_if(in_state(Interlude)),
            )
            .add_systems(
                OnMove(Move::Decline),
                interlude::decline.run_if(in_state(Interlude)),
            )
            .add_systems(
                OnMove(Move::Withdraw),
                interlude::withdraw.run_if(in_state(Interlude)),
            )
            .add_systems(
                OnMove(Move::GiveCard),
                interlude::give_card.run_if(in_state(Interlude).or_else(in_state(Predation))),
            )
            .add_systems(
                OnMove(Move::Prey),
                predation::prey.run_if(in_state(Predation)),
            )
            .add_systems(
                OnMove(Move::Pass),
                predation::pass.run_if(in_state(Predation)),
            )
            .add_systems(OnMove(Move::Choose), duel::choose.run_if(in_state(Duel)))
            .add_systems(
                Update,
                (
                    interlude::open_predation.run_if(in_state(Interlude)),
                    duel::roll_dice.run_if(duel::with_dice),
                    // Each runs when it is due: its parameters cost more
                    // than the check.
                    duel::throw.run_if(in_state(Duel).and_then(duel::both_chosen)),
                    duel::settle.run_if(duel::decided),
                    predation::last_one_standing
                        .run_if(in_state(Predation).or_else(in_state(Duel))),
                    predation::next_to_ask.run_if(on_message::<Answered>),
                    predation::end_phase.run_if(on_message::<PhaseOver>),
                )
                    .chain()
                    .in_set(TableSet::Settle),
            )
            .add_systems(OnEnter(GameOver), predation::open_boxes)
            .add_systems(Update, sync_clock.in_set(TableSet::Clocks))
            .add_systems(Update, news::narrate.in_set(TableSet::Narrate));
    }
}

impl Game for CruelerGame {
    crate::game_types!(Crueler, CruelerPlugin);

    fn start(world: &mut World, setup: Option<&CruelerSetup>) -> Result<(), Rejection> {
        let s = world.resource::<Settings<CruelerGame>>().0.clone();
        let seats = world.resource::<SeatEntities>().clone();
        for (me, e) in seats.iter() {
            let mut seat = world.entity_mut(e);
            seat.insert((
                LifeBox(vec![Some(me); s.start_life.max(0) as usize]),
                PredatorCards(seats.iter().map(|(s, _)| s).filter(|s| *s != me).collect()),
            ));
        }
        // A scripted table may fill the boxes otherwise: then the opening
        // says nothing of how much each holds.
        let scripted = setup.is_some_and(|u| u.lives.is_some() || u.tokens.is_some());
        world.write_message(CruelerNews::Opening {
            start_life: (!scripted).then_some(s.start_life),
        });
        match setup {
            Some(setup) => setup.apply(world)?,
            None => world
                .resource_mut::<NextState<CruelerPhase>>()
                .set(CruelerPhase::Interlude),
        }
        Ok(())
    }

    fn check(world: &World, seat: SeatId, action: &CruelerAction) -> Result<(), Rejection> {
        moves::check(world, seat, action).map_err(Rejection::from)
    }

    fn candidates(world: &World, seat: SeatId) -> Vec<CruelerAction> {
        moves::candidates(world, seat)
    }

    fn view_into(world: &World, seat: Option<SeatId>, waiting: &[SeatId], into: &mut CruelerView) {
        super::view::view_into(world, seat, waiting, into);
    }

    fn to_act_into(world: &World, into: &mut Vec<SeatId>) {
        to_act_into(world, into);
    }

    fn result(world: &World) -> Option<GameResult> {
        result(world)
    }

    fn verify(world: &World, check: &CruelerCheck) -> Result<(), String> {
        super::scenario::verify(world, check)
    }
}

/// The duel under way is an entity of its own: a snapshot holds its
/// [`Duel`], and putting it back ends any duel of the table's past.
impl TablePart for Option<Duel> {
    fn take(world: &World) -> Self {
        moves::duel(world).cloned()
    }

    fn put(self, world: &mut World) {
        if let Some(old) = world.resource::<Dueling>().0 {
            world.despawn(old);
        }
        let duel = self.map(|d| world.spawn(d).id());
        world.insert_resource(Dueling(duel));
    }
}
