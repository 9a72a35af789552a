//! Crueler World on the table core: its settings and clocks, the schedule
//! of its phases (one system per move, the settlement as one chain), and
//! the entry points the core calls.

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use rand::RngExt;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::scenario::{CruelerCheck, CruelerSetup};
use super::state::*;
use super::view::CruelerView;
use super::{duel, interlude, moves, news, predation};
use crate::bot::Bot;
use crate::game_id::GameId;
use crate::table::{
    Accepted, ActionLog, DeadlinePassed, Deadlines, Game, GameResult, LogEntry, Rejection,
    SeatEntities, SeatId, Settings, TableClock, TableRng, TableSet,
};

pub struct CruelerGame;

/// Table settings (rules.md §3 and §5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CruelerSettings {
    /// Life points in each box at the start.
    pub start_life: i32,
    pub duel: DuelKind,
    /// Throws a duelist must win (beast duels).
    pub wins_needed: u8,
    /// Who has preyed, or been preyed upon, counts for the round (the
    /// seed) or afresh each predation phase.
    pub starve_by: StarveBy,
    /// Seconds the asked player has to prey or pass; then they pass.
    /// 0 = no limit.
    pub ask_secs: u32,
    /// Seconds each duelist has to choose a beast for a throw; then the
    /// referee draws one at random. 0 = no limit.
    pub duel_secs: u32,
    /// Seconds an interlude lasts at most; then unanswered offers lapse
    /// and everyone is ready. 0 = no limit.
    pub interlude_secs: u32,
}

impl Default for CruelerSettings {
    fn default() -> Self {
        Self {
            start_life: 10,
            duel: DuelKind::Beasts,
            wins_needed: 2,
            starve_by: StarveBy::Round,
            ask_secs: 60,
            duel_secs: 30,
            interlude_secs: 180,
        }
    }
}

impl CruelerSettings {
    pub fn check(&self) -> Result<(), Rejection> {
        if !(1..=50).contains(&self.start_life) {
            return Err(Rejection::new(
                "starting life is 1 to 50",
                "初始生命值须为 1 到 50",
            ));
        }
        if !(1..=3).contains(&self.wins_needed) {
            return Err(Rejection::new(
                "a duel is won with 1 to 3 throws",
                "决斗须赢 1 到 3 回合",
            ));
        }
        for secs in [self.ask_secs, self.duel_secs, self.interlude_secs] {
            if secs != 0 && !(5..=3600).contains(&secs) {
                return Err(Rejection::new(
                    "each time limit is off (0) or 5 s to 1 hour",
                    "每个时限须为 0（不限时）或 5 秒到 1 小时",
                ));
            }
        }
        Ok(())
    }
}

/// Which clock is running. Each wait has its own key, so a new wait (the
/// next player asked, the next throw) always starts a fresh clock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CruelerTimer {
    Interlude {
        round: u8,
        phase_no: u8,
    },
    Ask {
        round: u8,
        phase_no: u8,
        second: bool,
        turn: u8,
    },
    Duel {
        round: u8,
        phase_no: u8,
        turn: u8,
        throws: u8,
    },
}

impl CruelerTimer {
    /// The clock the table should run now, with its length in seconds.
    fn now(
        phase: CruelerPhase,
        calendar: &Calendar,
        asking: &Asking,
        duel: Option<&Duel>,
        s: &CruelerSettings,
    ) -> Option<(Self, u32)> {
        let (round, phase_no) = (calendar.round, calendar.phase_no);
        let turn = asking.turn as u8;
        let (timer, secs) = match phase {
            CruelerPhase::Interlude => (Self::Interlude { round, phase_no }, s.interlude_secs),
            CruelerPhase::Predation => (
                Self::Ask {
                    round,
                    phase_no,
                    second: asking.second,
                    turn,
                },
                s.ask_secs,
            ),
            CruelerPhase::Duel => (
                Self::Duel {
                    round,
                    phase_no,
                    turn,
                    throws: duel.map_or(0, |d| d.throws.len() as u8),
                },
                s.duel_secs,
            ),
            CruelerPhase::Idle | CruelerPhase::GameOver => return None,
        };
        (secs > 0).then_some((timer, secs))
    }
}

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
    match state.timer() {
        Some((timer, secs)) => {
            deadlines.pending.retain(|d| d.timer == timer);
            if deadlines.get(&timer).is_none() {
                deadlines.set(timer, clock.now_ms + u64::from(secs) * 1000);
            }
        }
        None => deadlines.pending.clear(),
    }
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
            .add_systems(
                Update,
                (
                    (
                        interlude::ready,
                        interlude::offer_life,
                        interlude::accept,
                        interlude::decline,
                        interlude::withdraw,
                    )
                        .run_if(in_state(Interlude)),
                    interlude::give_card.run_if(in_state(Interlude).or_else(in_state(Predation))),
                    (predation::prey, predation::pass).run_if(in_state(Predation)),
                    duel::choose.run_if(in_state(Duel)),
                )
                    .in_set(TableSet::Apply),
            )
            .add_systems(
                Update,
                (
                    interlude::open_predation.run_if(in_state(Interlude)),
                    duel::roll_dice.run_if(duel::with_dice),
                    duel::throw.run_if(in_state(Duel)),
                    duel::settle,
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

fn phase(world: &World) -> CruelerPhase {
    *world.resource::<State<CruelerPhase>>().get()
}

impl Game for CruelerGame {
    const ID: GameId = GameId::Crueler;
    type Action = CruelerAction;
    type Settings = CruelerSettings;
    type Phase = CruelerPhase;
    type Timer = CruelerTimer;
    type State = CruelerState;
    type View = CruelerView;
    type Setup = CruelerSetup;
    type Check = CruelerCheck;

    fn build(app: &mut App, _settings: &CruelerSettings) {
        app.add_plugins(CruelerPlugin);
    }

    fn start(world: &mut World, setup: Option<&CruelerSetup>) -> Result<(), Rejection> {
        let s = world.resource::<Settings<CruelerGame>>().0.clone();
        s.check()?;
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

    fn capture(world: &World) -> CruelerState {
        let seats = world.resource::<SeatEntities>();
        let part = |e: Entity| -> SeatState {
            let seat = world.entity(e);
            SeatState {
                life: seat.get::<LifeBox>().cloned().unwrap_or_default(),
                cards: seat.get::<PredatorCards>().cloned().unwrap_or_default(),
                standing: seat.get::<Standing>().cloned().unwrap_or_default(),
                hunger: seat.get::<Hunger>().cloned().unwrap_or_default(),
                reserve: seat.get::<InReserve>().cloned().unwrap_or_default(),
                ready: seat.get::<Ready>().cloned().unwrap_or_default(),
            }
        };
        CruelerState {
            seats: seats.iter().map(|(_, e)| part(e)).collect(),
            calendar: world.resource::<Calendar>().clone(),
            die: world.resource::<Die>().clone(),
            asking: world.resource::<Asking>().clone(),
            duel: moves::duel(world).cloned(),
            offers: world.resource::<LifeOffers>().clone(),
            history: world.resource::<History>().clone(),
            fallen: world.resource::<Fallen>().clone(),
        }
    }

    fn restore(world: &mut World, state: CruelerState) {
        let seats = world.resource::<SeatEntities>().clone();
        for ((_, e), seat) in seats.iter().zip(state.seats) {
            world.entity_mut(e).insert((
                seat.life,
                seat.cards,
                seat.standing,
                seat.hunger,
                seat.reserve,
                seat.ready,
            ));
        }
        // A duel of the table's past (a reused table) is over.
        if let Some(old) = world.resource::<Dueling>().0 {
            world.despawn(old);
        }
        let duel = state.duel.map(|d| world.spawn(d).id());
        world.insert_resource(Dueling(duel));
        world.insert_resource(state.calendar);
        world.insert_resource(state.die);
        world.insert_resource(state.asking);
        world.insert_resource(state.offers);
        world.insert_resource(state.history);
        world.insert_resource(state.fallen);
    }

    fn view(world: &World, seat: Option<SeatId>) -> CruelerView {
        super::view::view(world, seat)
    }

    fn to_act(world: &World) -> Vec<SeatId> {
        to_act(world)
    }

    fn result(world: &World) -> Option<GameResult> {
        result(world)
    }

    fn verify(world: &World, check: &CruelerCheck) -> Result<(), String> {
        super::scenario::verify(world, check)
    }
}

/// Seats the table waits on.
pub(crate) fn to_act(world: &World) -> Vec<SeatId> {
    let seats = world.resource::<SeatEntities>();
    match phase(world) {
        CruelerPhase::Interlude => interlude::waiting(seats, world.resource::<LifeOffers>(), |e| {
            let seat = world.entity(e);
            (
                seat.get::<Standing>().is_some_and(|s| s.alive),
                seat.get::<Ready>().is_some_and(|r| r.0),
            )
        }),
        CruelerPhase::Predation => world.resource::<Asking>().asked().into_iter().collect(),
        CruelerPhase::Duel => match moves::duel(world) {
            Some(d) => [d.predator, d.prey]
                .into_iter()
                .enumerate()
                .filter(|(i, _)| d.choice[*i].is_none())
                .map(|(_, s)| s)
                .collect(),
            None => Vec::new(),
        },
        CruelerPhase::Idle | CruelerPhase::GameOver => Vec::new(),
    }
}

/// Final places (1 = first): the living by life, then the eliminated,
/// the last to fall first. Level players share a place.
pub fn places(world: &World) -> Vec<u8> {
    let seats = world.resource::<SeatEntities>();
    let keys: Vec<(bool, i32, u8)> = seats
        .iter()
        .map(|(s, _)| {
            let standing = moves::part::<Standing>(world, s);
            let life = if standing.alive {
                moves::life(world, s)
            } else {
                0
            };
            (standing.alive, life, standing.fell.unwrap_or(0))
        })
        .collect();
    keys.iter()
        .map(|k| 1 + keys.iter().filter(|o| *o > k).count() as u8)
        .collect()
}

pub(crate) fn result(world: &World) -> Option<GameResult> {
    if phase(world) != CruelerPhase::GameOver {
        return None;
    }
    let seats = world.resource::<SeatEntities>();
    Some(GameResult {
        scores: seats
            .iter()
            .map(|(s, _)| {
                if moves::alive(world, s) {
                    i64::from(moves::life(world, s))
                } else {
                    0
                }
            })
            .collect(),
        places: places(world),
    })
}

/// Plays a random legal move.
pub struct RandomBot;

impl Bot<CruelerGame> for RandomBot {
    fn kind(&self) -> &'static str {
        "random"
    }

    fn act(&mut self, view: &CruelerView, rng: &mut ChaCha8Rng) -> Option<CruelerAction> {
        if !view.to_act {
            return None;
        }
        let me = view.me?;
        match view.phase {
            CruelerPhase::Interlude => {
                if let Some(o) = view.offers.iter().find(|o| o.to == me) {
                    let mine = view.my_life.unwrap_or(0);
                    let after = mine - o.want as i32 + o.give as i32;
                    return Some(
                        if (o.want as i32) <= mine && after > 0 && rng.random_bool(0.5) {
                            CruelerAction::Accept { from: o.from }
                        } else {
                            CruelerAction::Decline { from: o.from }
                        },
                    );
                }
                Some(CruelerAction::Ready)
            }
            CruelerPhase::Predation => {
                if let Some(&target) = view.targets.choose(rng)
                    && rng.random_bool(0.5)
                {
                    return Some(CruelerAction::Prey { target });
                }
                Some(CruelerAction::Pass)
            }
            CruelerPhase::Duel => Some(CruelerAction::Choose {
                beast: *Beast::ALL.choose(rng)?,
            }),
            CruelerPhase::Idle | CruelerPhase::GameOver => None,
        }
    }
}
