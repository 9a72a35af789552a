//! A hosted game's types on the wire: its actions, views and settings
//! travel inside the `Any*` enums, one variant per playable game, so a
//! message that names a game the server does not host cannot even be
//! decoded. All of it comes from one list, `hosted_games!`.

use foodweb_rules::GameId;
use foodweb_rules::crueler::{self, CruelerGame};
use foodweb_rules::forest::{self, ForestGame};
use foodweb_rules::gene::{self, GeneGame};
use foodweb_rules::table::{Game, Rejection, SeatId, SeatView};
use foodweb_rules::wanning::{self, WanningGame};
use serde::{Deserialize, Serialize};

/// Every game this build hosts, once: the `GameId` variant, the `Game`
/// type and its bots module, handed to the macro named. From this one list
/// come the `Any*` enums that carry a game's types on the wire and the
/// `HostGame` impls (`wire_types!`, here), and the registry the hall asks
/// for tables (`games.rs`). Adding a game to the server is one line here.
macro_rules! hosted_games {
    ($then:ident) => {
        $then! {
            Forest: ForestGame, forest::bots;
            Gene: GeneGame, gene::bots;
            Crueler: CruelerGame, crueler::bots;
            Wanning: WanningGame, wanning::bots;
        }
    };
}
pub(crate) use hosted_games;

/// The wire types and `HostGame` impls of the listed games.
macro_rules! wire_types {
    ($($id:ident: $game:ty, $bots:path;)*) => {
        /// An action of any hosted game.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        pub enum AnyAction {
            $($id(<$game as Game>::Action),)*
        }

        /// One seat's view (or a spectator's) of any hosted game.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        pub enum AnyView {
            $($id(Box<<$game as Game>::View>),)*
        }

        /// The rule variant a table is created with.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        pub enum AnySettings {
            $($id(<$game as Game>::Settings),)*
        }

        impl AnySettings {
            pub fn game(&self) -> GameId {
                match self {
                    $(AnySettings::$id(_) => GameId::$id,)*
                }
            }

            /// Whether the variant is one the game can be played with (the
            /// check the game makes when a table starts).
            pub fn check(&self) -> Result<(), Rejection> {
                match self {
                    $(AnySettings::$id(s) => foodweb_rules::table::GameSettings::check(s),)*
                }
            }

            /// The seconds each clock of a move waits (`table::after_grace`).
            pub fn grace_secs_mut(&mut self) -> &mut u32 {
                match self {
                    $(AnySettings::$id(s) => foodweb_rules::table::GameSettings::grace_secs_mut(s),)*
                }
            }

            /// The default variant of a game, if this build hosts it.
            pub fn default_for(game: GameId) -> Option<Self> {
                match game {
                    $(GameId::$id => Some(AnySettings::$id(Default::default())),)*
                    #[allow(unreachable_patterns)]
                    _ => None,
                }
            }
        }

        impl AnyView {
            pub fn game(&self) -> GameId {
                match self {
                    $(AnyView::$id(_) => GameId::$id,)*
                }
            }

            /// What every view tells, whatever the game.
            pub fn seat(&self) -> &dyn SeatView {
                match self {
                    $(AnyView::$id(v) => v.as_ref(),)*
                }
            }

            /// Whose view this is (`None`: the public or the host's view).
            pub fn viewer(&self) -> Option<SeatId> {
                self.seat().me()
            }
        }

        $(
            impl HostGame for $game {
                fn wrap_action(action: Self::Action) -> AnyAction {
                    AnyAction::$id(action)
                }
                fn unwrap_action(action: &AnyAction) -> Option<&Self::Action> {
                    #[allow(irrefutable_let_patterns)]
                    if let AnyAction::$id(a) = action { Some(a) } else { None }
                }
                fn wrap_view(view: Self::View) -> AnyView {
                    AnyView::$id(Box::new(view))
                }
                fn unwrap_view(view: &AnyView) -> Option<&Self::View> {
                    #[allow(irrefutable_let_patterns)]
                    if let AnyView::$id(v) = view { Some(v) } else { None }
                }
                fn wrap_settings(settings: Self::Settings) -> AnySettings {
                    AnySettings::$id(settings)
                }
                fn unwrap_settings(settings: &AnySettings) -> Option<&Self::Settings> {
                    #[allow(irrefutable_let_patterns)]
                    if let AnySettings::$id(s) = settings { Some(s) } else { None }
                }
                fn bot_kinds() -> &'static [&'static str] {
                    use $bots as bots;
                    &bots::BOT_KINDS
                }
            }
        )*

    };
}

hosted_games!(wire_types);

/// What the hall needs of a game beyond the rules: how its types travel
/// inside the `Any*` enums, and which bots can take its seats.
pub trait HostGame: Game<View: for<'de> Deserialize<'de>> + foodweb_rules::bot::Bots {
    fn wrap_action(action: Self::Action) -> AnyAction;
    fn unwrap_action(action: &AnyAction) -> Option<&Self::Action>;
    fn wrap_view(view: Self::View) -> AnyView;
    fn unwrap_view(view: &AnyView) -> Option<&Self::View>;
    fn wrap_settings(settings: Self::Settings) -> AnySettings;
    fn unwrap_settings(settings: &AnySettings) -> Option<&Self::Settings>;
    fn bot_kinds() -> &'static [&'static str];
}
