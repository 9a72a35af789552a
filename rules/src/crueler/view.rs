//! What one seat may know of a Crueler World table (rules.md §6, §9): its
//! own life and box, its cards, the public results; never another seat's
//! life, nor who is asked unless it is the viewer.

use bevy_ecs::prelude::*;
use bevy_state::prelude::*;
use serde::{Deserialize, Serialize};

use super::moves::{duel, targets};
use super::numbers::numbers;
use super::outcome::result;
use super::settings::CruelerGame;
use super::state::*;
use crate::table::{Deadlines, GameResult, SeatId, SeatName, Seated, Seats, Settings, TableClock};

use super::settings::CruelerTimer;

/// The duel as one of its two sides sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DuelView {
    pub predator: SeatId,
    pub prey: SeatId,
    pub wins: [u8; 2],
    pub throws: Vec<(Beast, Beast)>,
    /// The viewer has chosen for this throw.
    pub chosen: bool,
}

/// One seat as the end reveals it (issue 71; rules.md §10): its box's
/// life, its place, and how it fell, if it did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CruelerRevealed {
    pub seat: SeatId,
    /// The life in its box (0 once out).
    pub life: i32,
    pub place: u8,
    /// The order it fell in (1 = first), and how.
    pub fell: Option<u8>,
    pub how: Option<Fall>,
}

/// What one seat may know.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CruelerView {
    pub me: Option<SeatId>,
    pub names: Vec<SeatName>,
    pub phase: CruelerPhase,
    pub round: u8,
    pub phase_no: u8,
    /// N of the current (or next) predation phase.
    pub n: i32,
    pub start_life: i32,
    pub alive: Vec<bool>,
    /// Who is in the Nature Reserve (living players only: an out seat
    /// shows nothing of how it fell).
    pub reserve: Vec<bool>,
    pub die: Option<u8>,
    pub asked: Option<SeatId>,
    pub second_ask: bool,
    /// A duel is under way (its sides know who).
    pub dueling: bool,
    pub duel: Option<DuelView>,
    pub to_act: bool,
    pub ready: bool,
    /// The viewer's own life: always known to its owner (rules.md §6).
    pub my_life: Option<i32>,
    /// The viewer's box, token by token marks, between phases only.
    pub my_tokens: Vec<(Option<SeatId>, u32)>,
    pub my_cards: Vec<SeatId>,
    /// Whom the viewer may prey on now.
    pub targets: Vec<SeatId>,
    pub preyed: bool,
    pub preyed_upon: bool,
    pub offers: Vec<LifeOffer>,
    /// Every public result so far.
    pub history: Vec<Outcome>,
    /// Every change to the viewer's own life and cards, as its notes told
    /// them (issue 71): its screen plays the newest out.
    #[serde(default)]
    pub mine: Vec<LifeChange>,
    /// Every seat as the end reveals it, in seat order, once the game is
    /// over (`table::end_revealed`); before, empty.
    #[serde(default)]
    pub revealed: Vec<CruelerRevealed>,
    pub result: Option<GameResult>,
    /// When the viewer must act by, if the table waits on it (table time),
    /// and the time now.
    pub my_deadline_ms: Option<u64>,
    pub now_ms: u64,
}

/// What a seat may know ([`Game::view`](crate::table::Game::view)), written
/// over a view the caller already holds: the names, the seats' lists, the
/// cards and the history keep their room (a bot reads its seat's view at
/// every move; cloning 13 names and the whole history each time was a third
/// of a simulated game's view).
pub fn view_into(world: &World, seat: Option<SeatId>, waiting: &[SeatId], view: &mut CruelerView) {
    // The seats' entities, looked up once for every seat read below.
    let at = Seated::new(world);
    let phase = *world.resource::<State<CruelerPhase>>().get();
    let calendar = world.resource::<Calendar>();
    let asking = world.resource::<Asking>();
    let seats = world.resource::<Seats>();
    let settings = &world.resource::<Settings<CruelerGame>>().0;
    let to_act = seat.is_some_and(|s| waiting.contains(&s));
    let between = matches!(phase, CruelerPhase::Interlude | CruelerPhase::GameOver);
    let the_duel = duel(world);
    let duel_view = the_duel.and_then(|d| {
        let side = d.side(seat?)?;
        Some(DuelView {
            predator: d.predator,
            prey: d.prey,
            wins: d.wins,
            throws: d.throws.clone(),
            chosen: d.choice[side].is_some(),
        })
    });
    let living = |s: SeatId| at.get::<Standing>(s).alive;
    let reserve_open = numbers().reserve(calendar.round);
    let me_alive = seat.is_some_and(living);
    let mut names = std::mem::take(&mut view.names);
    names.clone_from(&seats.names);
    let mut alive = std::mem::take(&mut view.alive);
    alive.clear();
    alive.extend(seats.ids().map(living));
    let mut reserve = std::mem::take(&mut view.reserve);
    reserve.clear();
    reserve.extend(
        seats
            .ids()
            .zip(&alive)
            .map(|(s, &living)| living && reserve_open && at.get::<InReserve>(s).0),
    );
    let mut my_cards = std::mem::take(&mut view.my_cards);
    match seat {
        Some(s) => my_cards.clone_from(&at.get::<PredatorCards>(s).0),
        None => my_cards.clear(),
    }
    let mut history = std::mem::take(&mut view.history);
    history.clone_from(&world.resource::<History>().0);
    let mut revealed = std::mem::take(&mut view.revealed);
    reveal_into(world, &at, &mut revealed);
    let mut mine = std::mem::take(&mut view.mine);
    match seat {
        Some(s) => mine.clone_from(&at.get::<Told>(s).0),
        None => mine.clear(),
    }
    *view = CruelerView {
        me: seat,
        names,
        phase,
        round: calendar.round,
        phase_no: calendar.phase_no,
        n: calendar.n(),
        start_life: settings.start_life,
        alive,
        reserve,
        die: world.resource::<Die>().0,
        // The referee asks each player in private (rules.md §9).
        asked: match phase {
            CruelerPhase::Predation | CruelerPhase::Duel => {
                asking.asked().filter(|a| Some(*a) == seat)
            }
            _ => None,
        },
        second_ask: asking.second,
        dueling: the_duel.is_some(),
        duel: duel_view,
        to_act,
        ready: seat.is_some_and(|s| at.get::<Ready>(s).0),
        my_life: seat
            .filter(|_| me_alive)
            .map(|s| at.get::<LifeBox>(s).life()),
        my_tokens: match seat {
            Some(s) if between => {
                let mut counts: std::collections::BTreeMap<Option<SeatId>, u32> =
                    Default::default();
                for t in &at.get::<LifeBox>(s).0 {
                    *counts.entry(*t).or_default() += 1;
                }
                counts.into_iter().collect()
            }
            _ => Vec::new(),
        },
        my_cards,
        targets: match seat {
            Some(s) if to_act && phase == CruelerPhase::Predation => targets(world, s),
            _ => Vec::new(),
        },
        preyed: seat.is_some_and(|s| at.get::<Hunger>(s).preyed),
        preyed_upon: seat.is_some_and(|s| at.get::<Hunger>(s).preyed_upon),
        offers: match seat {
            Some(s) => world.resource::<LifeOffers>().involving(s),
            None => Vec::new(),
        },
        history,
        mine,
        revealed,
        result: result(world),
        my_deadline_ms: if to_act {
            world
                .resource::<Deadlines<CruelerTimer>>()
                .pending
                .iter()
                .map(|d| d.at_ms)
                .min()
        } else {
            None
        },
        now_ms: world.resource::<TableClock>().now_ms,
    };
}

/// Every seat as the end reveals it, once the game is over and the
/// table's `reveal_at_end` is on (`table::end_revealed`); else none.
fn reveal_into(world: &World, at: &Seated, into: &mut Vec<CruelerRevealed>) {
    into.clear();
    if !crate::table::end_revealed::<CruelerGame>(world) {
        return;
    }
    let places = super::outcome::places(world);
    into.extend(world.resource::<Seats>().ids().map(|s| {
        let standing = at.get::<Standing>(s);
        CruelerRevealed {
            seat: s,
            life: at.get::<LifeBox>(s).life(),
            place: places[s.index()],
            fell: standing.fell,
            how: standing.how,
        }
    }));
}

crate::seat_view!(CruelerView);
