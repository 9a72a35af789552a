//! What a game gives the table core: its types and its few entry points.
//! Everything else a game does happens in its own Bevy systems.

use std::fmt::Debug;
use std::hash::Hash;

use bevy_app::App;
use bevy_ecs::prelude::*;
use bevy_state::state::FreelyMutableState;
use serde::{Serialize, de::DeserializeOwned};

use super::{Rejection, SeatId, TablePart};
use crate::game_id::GameId;

/// Where a seat finished. Equal scores share a place.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct GameResult {
    /// Final score of each seat, in seat order.
    pub scores: Vec<i64>,
    /// Place of each seat, 1 = first, in seat order.
    pub places: Vec<u8>,
}

impl GameResult {
    /// Places by score, highest first; equal scores share a place
    /// (10, 7, 7, 3 gives places 1, 2, 2, 4).
    pub fn from_scores(scores: Vec<i64>) -> Self {
        let places = scores
            .iter()
            .map(|s| 1 + scores.iter().filter(|o| *o > s).count() as u8)
            .collect();
        Self { scores, places }
    }

    pub fn winners(&self) -> Vec<SeatId> {
        (0..self.places.len())
            .filter(|&i| self.places[i] == 1)
            .map(|i| SeatId(i as u8))
            .collect()
    }
}

/// What every game's seat view tells whoever holds it, whatever the game.
pub trait SeatView {
    /// Whose view this is (`None`: the public view, a spectator's).
    fn me(&self) -> Option<SeatId>;
    /// The round the table is in (0 before the first).
    fn round(&self) -> u8;
    /// The table is waiting on this seat.
    fn to_act(&self) -> bool;
    /// The final result, once the game is over.
    fn result(&self) -> Option<&GameResult>;
}

/// Writes `items` over `list`, keeping its room (a view written over the
/// one a bot already holds allocates nothing once its lists have grown).
pub fn refill<T>(list: &mut Vec<T>, items: impl IntoIterator<Item = T>) {
    list.clear();
    list.extend(items);
}

/// [`SeatView`] for a view with the fields `me`, `round`, `to_act` and
/// `result`, as every game's has.
#[macro_export]
macro_rules! seat_view {
    ($view:ty) => {
        impl $crate::table::SeatView for $view {
            fn me(&self) -> Option<$crate::table::SeatId> {
                self.me
            }
            fn round(&self) -> u8 {
                self.round
            }
            fn to_act(&self) -> bool {
                self.to_act
            }
            fn result(&self) -> Option<&$crate::table::GameResult> {
                self.result.as_ref()
            }
        }
    };
}

/// The kinds of move a game's actions are (boardgame.io's moves): each
/// phase's judge lists the kinds it accepts, and each kind's systems are a
/// schedule of their own, [`OnMove`](super::OnMove).
pub trait Moves {
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;
    fn kind(&self) -> Self::Move;
}

/// A game's rule variant, as a table is set up with it.
pub trait GameSettings {
    /// Whether the table can be played with it: checked by the table
    /// before the game starts, and by the hall when a table is opened.
    fn check(&self) -> Result<(), Rejection>;
    /// The seconds each clock of a move waits before it runs down
    /// ([`after_grace`](super::after_grace)), in the game's settings.
    fn grace_secs_mut(&mut self) -> &mut u32;
    /// Whether the end reveals the table (issue 71: every seat's secrets
    /// are everyone's once the game is over): a setting, on by default.
    fn reveal_at_end(&self) -> bool {
        true
    }
}

/// What a seat may see once the game is over, for every game (issue 71):
/// with the table's `reveal_at_end` on, everything a seat's secrets held
/// is everyone's (the seats' views carry it; before the end, nothing).
/// The one rule a game's view asks.
pub fn end_revealed<G: Game>(world: &World) -> bool {
    G::result(world).is_some() && world.resource::<super::Settings<G>>().0.reveal_at_end()
}

/// The head of a game's `impl Game`: `ID` (the `GameId` variant `$id`),
/// the associated types, named after the game by convention (`$id` then
/// `Action`, `Settings`, `Phase`, `Timer`, `State`, `View`, `Setup`,
/// `Check`: `ForestAction` …), and `build`, which adds `$plugin`.
#[macro_export]
macro_rules! game_types {
    ($id:ident, $plugin:expr) => {
        $crate::pastey::paste! {
            const ID: $crate::GameId = $crate::GameId::$id;
            type Action = [<$id Action>];
            type Settings = [<$id Settings>];
            type Phase = [<$id Phase>];
            type Timer = [<$id Timer>];
            type State = [<$id State>];
            type View = [<$id View>];
            type Setup = [<$id Setup>];
            type Check = [<$id Check>];

            fn build(app: &mut ::bevy_app::App, _settings: &[<$id Settings>]) {
                app.add_plugins($plugin);
            }
        }
    };
}

pub trait Game: Sized + Send + Sync + 'static {
    const ID: GameId;
    /// What a seat may ask to do.
    type Action: Clone
        + Debug
        + PartialEq
        + Serialize
        + DeserializeOwned
        + Send
        + Sync
        + Moves
        + 'static;
    /// Rule variants chosen when the table is set up.
    type Settings: Clone
        + Debug
        + Default
        + PartialEq
        + Serialize
        + DeserializeOwned
        + Send
        + Sync
        + GameSettings;
    /// The game's phases, a Bevy state.
    type Phase: FreelyMutableState + Copy + Default + Serialize + DeserializeOwned;
    /// The kinds of deadline the game sets.
    type Timer: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static;
    /// Everything of the game's own world that a snapshot must hold
    /// (listed once with `game_state!`).
    type State: Clone + Debug + PartialEq + Serialize + DeserializeOwned + TablePart;
    /// What one seat may know.
    type View: Clone + Debug + Default + Serialize + SeatView;
    /// A scripted start (for example dealt hands), for scenarios and tests.
    type Setup: Clone + Debug + Serialize + DeserializeOwned;
    /// A statement about the table that a scenario can check.
    type Check: Clone + Debug + Serialize + DeserializeOwned;

    /// Adds the game's phases, resources and systems to a table.
    fn build(app: &mut App, settings: &Self::Settings);
    /// Begins a new game: deals, or takes the scripted setup. Setup errors
    /// say what is wrong with the setup.
    fn start(world: &mut World, setup: Option<&Self::Setup>) -> Result<(), Rejection>;
    /// The one place input is judged. It reads the world and cannot change it.
    fn check(world: &World, seat: SeatId, action: &Self::Action) -> Result<(), Rejection>;
    /// What `seat` might ask for now, over the pieces a player uses: every
    /// seat, card, room, floor, beast or instinct the current phase's moves
    /// can name, each compound part (an offer's amounts, a round's other
    /// orders) in one plain form. A superset of what is legal, which
    /// [`legal`] asks the judge; never shown to a seat as it is.
    fn candidates(world: &World, seat: SeatId) -> Vec<Self::Action>;
    /// The game's state as the table holds it now, for a snapshot.
    fn capture(world: &World) -> Self::State {
        Self::State::take(world)
    }
    /// Puts a snapshot's state back in place of the table's.
    fn restore(world: &mut World, state: Self::State) {
        state.put(world);
    }
    /// What `seat` may know; `None` gives what a spectator may know: an
    /// empty view filled by [`Game::view_into`].
    fn view(world: &World, seat: Option<SeatId>) -> Self::View {
        let mut view = Self::View::default();
        Self::view_into(world, seat, &Self::to_act(world), &mut view);
        view
    }
    /// What `seat` may know, written over a view the caller holds, given
    /// who the table waits on ([`Game::to_act`] now, which the table
    /// keeps): the view's lists are filled in place and keep their room,
    /// so a bot that reads its seat's view at every move allocates almost
    /// nothing once its first view is made. Every field is written.
    fn view_into(world: &World, seat: Option<SeatId>, waiting: &[SeatId], into: &mut Self::View);
    /// What the host seat (which sees everything and plays nothing) is
    /// sent besides every seat's view; by default the public view. A game
    /// whose host needs more (Wanning's true HP) fills it in here; it is
    /// never sent to a player's seat.
    fn host_view(world: &World) -> Self::View {
        Self::view(world, None)
    }
    /// Seats the table is waiting on, in seat order: a new list filled by
    /// [`Game::to_act_into`].
    fn to_act(world: &World) -> Vec<SeatId> {
        let mut seats = Vec::new();
        Self::to_act_into(world, &mut seats);
        seats
    }
    /// Seats the table is waiting on, in seat order, written over `into`
    /// (the table notes them after every step, in the same list).
    fn to_act_into(world: &World, into: &mut Vec<SeatId>);
    /// The final result once the game is over.
    fn result(world: &World) -> Option<GameResult>;
    /// Judges a scenario's check against the table.
    fn verify(world: &World, check: &Self::Check) -> Result<(), String>;
}

/// The judge's legal actions for `seat` now: the game's
/// [`Game::candidates`] that [`Game::check`] accepts. What a screen marks
/// as usable must be exactly what these use (each client's tests compare
/// them over whole bot games).
pub fn legal<G: Game>(world: &World, seat: SeatId) -> Vec<G::Action> {
    G::candidates(world, seat)
        .into_iter()
        .filter(|a| G::check(world, seat, a).is_ok())
        .collect()
}
