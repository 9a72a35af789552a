//! Every table the desktop client plays goes through a server: the one in
//! this app for local play and LAN hosting (lightyear host-client mode: the
//! player's connection is a client entity linked to the in-process server
//! endpoint), or a remote one joined over UDP. Screens read only the
//! [`ClientModel`] the server's messages built, and send [`ClientMsg`]s.

use std::net::SocketAddr;

use bevy::prelude::*;
use foodweb_netcode::client::{ClientModel, LocalServer, NetClientPlugin, Outbox, PlayerName};
use foodweb_netcode::games::HostGame;
use foodweb_netcode::lightyear;
use foodweb_netcode::messages::ClientMsg;
use foodweb_netcode::protocol::ProtocolPlugin;
use foodweb_netcode::server::{Endpoints, HallServerPlugin, Listeners};
use foodweb_netcode::{Hall, HallConfig};

pub use foodweb_netcode::client::{LinkState, Session, Target};

use crate::lan::{LAN_PORT, LAN_WS_PORT, lan_addresses};

/// A seat's side of the table for the screens: the view of game `G`, if
/// the seat is at a table of that game.
pub trait SeatSide {
    fn view_of<G: HostGame>(&self) -> Option<&G::View>;
}

impl SeatSide for ClientModel {
    fn view_of<G: HostGame>(&self) -> Option<&G::View> {
        G::unwrap_view(self.view.as_ref()?)
    }
}

/// Sends a message to whichever server the session is connected to.
pub fn send(outbox: &mut Outbox, msg: ClientMsg) {
    outbox.0.push(msg);
}

/// Starts listening on the LAN (host mode). Returns the addresses others
/// should join, best first, or why the ports cannot be had.
pub fn host_on_lan(listeners: &mut Listeners) -> Result<Vec<SocketAddr>, String> {
    if listeners.udp.is_none() {
        // Ask first: a port taken by another program must be a message on
        // screen, not a failure inside the network stack.
        std::net::UdpSocket::bind(("0.0.0.0", LAN_PORT))
            .map_err(|e| format!("UDP {LAN_PORT}: {e}"))?;
        // The token port: TCP with the UDP port's number.
        std::net::TcpListener::bind(("0.0.0.0", LAN_PORT))
            .map_err(|e| format!("TCP {LAN_PORT}: {e}"))?;
        std::net::TcpListener::bind(("0.0.0.0", LAN_WS_PORT))
            .map_err(|e| format!("TCP {LAN_WS_PORT}: {e}"))?;
        listeners.udp = Some(SocketAddr::from(([0, 0, 0, 0], LAN_PORT)));
        listeners.ws = Some(SocketAddr::from(([0, 0, 0, 0], LAN_WS_PORT)));
    }
    Ok(lan_addresses(LAN_PORT))
}

/// The HTTP port the host serves the browser client on.
#[cfg(not(target_arch = "wasm32"))]
pub const WEB_PORT: u16 = 8080;

/// Serves the built browser client (`wasm/build.sh`; `FOODWEB_WEB_DIR`
/// names another folder) while hosting, and returns the URL to open, or
/// `None` when there is no build or the port is taken.
#[cfg(not(target_arch = "wasm32"))]
pub fn serve_web_client(tokens: foodweb_netcode::tokens::TokenIssuer) -> Option<String> {
    let dir = std::env::var("FOODWEB_WEB_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| {
            let manifest =
                std::env::var("CARGO_MANIFEST_DIR").unwrap_or(env!("CARGO_MANIFEST_DIR").into());
            std::path::Path::new(&manifest).join("wasm/dist")
        });
    if !dir.join("index.html").is_file() {
        return None;
    }
    let pin = tokens.pin();
    let bound = foodweb_netcode::web::serve_static(
        dir,
        SocketAddr::from(([0, 0, 0, 0], WEB_PORT)),
        Some(tokens),
    )
    .ok()?;
    let ip = crate::lan::lan_ip().unwrap_or(std::net::IpAddr::from([127, 0, 0, 1]));
    Some(crate::lan::web_url(ip, bound.port(), LAN_WS_PORT, &pin))
}

/// A browser serves nothing.
#[cfg(target_arch = "wasm32")]
pub fn serve_web_client(_tokens: foodweb_netcode::tokens::TokenIssuer) -> Option<String> {
    None
}

fn link_local_server(
    ends: Res<Endpoints>,
    local: Option<Res<LocalServer>>,
    mut commands: Commands,
) {
    if local.is_none()
        && let Some(local) = ends.local
    {
        commands.insert_resource(LocalServer(local));
    }
}

/// The name we go by: the one chosen, or "Player" in our language (the
/// server numbers it if another seat has it: "Player 2").
fn name_from_settings(
    settings: Res<super::UserSettings>,
    i18n: Res<super::I18n>,
    mut name: ResMut<PlayerName>,
) {
    let wanted = match settings.name.trim() {
        "" => i18n.t("default-player-name"),
        chosen => chosen.to_string(),
    };
    if name.0 != wanted {
        name.0 = wanted;
    }
}

/// The local hall's bot pace from its setting, if any and sound.
fn bot_delay_ms(given: Option<&str>) -> u64 {
    let default = HallConfig::default().bot_delay_ms;
    match given.map(|s| s.trim().parse::<u64>()) {
        None => default,
        Some(Ok(ms)) if ms <= 10_000 => ms,
        Some(_) => {
            warn!(
                "bot_delay_ms {:?} is not a number of milliseconds from 0 to 10000: bots keep {default} ms",
                given.unwrap_or_default()
            );
            default
        }
    }
}

/// The running table whose seat we just left (the table screen's
/// `leave_seat`): until the server's `Left` comes, the lobby does not
/// follow its game back to the table (`lobby::follow_start`).
#[derive(Resource, Default)]
pub struct LeftRunning(pub Option<u32>);

/// "Play again" was pressed: the table screen is entered afresh for the
/// next table (everything kept for one table is put away) without leaving
/// the seat, which moves to the next table (`table::leave_table`).
#[derive(Resource, Default)]
pub struct PlayingAgain(pub bool);

pub fn plugin(app: &mut App) {
    app.init_resource::<LeftRunning>()
        .init_resource::<PlayingAgain>();
    let tick = std::time::Duration::from_secs_f64(1.0 / 60.0);
    app.add_plugins(lightyear::prelude::server::ServerPlugins {
        tick_duration: tick,
    })
    .add_plugins(lightyear::prelude::client::ClientPlugins {
        tick_duration: tick,
    })
    .add_plugins(ProtocolPlugin);
    // The bots' pace at local tables: FOODWEB_BOT_DELAY_MS on the desktop,
    // `?bot_delay_ms=` in the browser (the screenshot tours and the browser
    // test speed bots up; a person's table keeps the default). A value that
    // is not a number of milliseconds up to 10 s is said and ignored.
    let bot_delay_ms = bot_delay_ms(super::web::page_param("bot_delay_ms").as_deref());
    let (hall, _) = Hall::open(HallConfig {
        name: "Foodweb desktop".into(),
        bot_delay_ms,
        ..HallConfig::default()
    })
    .expect("a hall with no data folder always opens");
    app.world_mut().insert_non_send(hall);
    app.add_plugins((HallServerPlugin, NetClientPlugin));
    // A browser has no UDP broadcast: it neither announces nor hears.
    #[cfg(not(target_arch = "wasm32"))]
    app.add_plugins(foodweb_netcode::discovery::AnnouncePlugin);
    app.add_systems(
        Update,
        link_local_server.run_if(resource_changed::<Endpoints>),
    )
    .add_systems(
        Update,
        name_from_settings.run_if(
            resource_changed::<super::UserSettings>.or_else(resource_changed::<super::I18n>),
        ),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_pace_that_is_not_milliseconds_keeps_the_default() {
        let default = HallConfig::default().bot_delay_ms;
        assert_eq!(bot_delay_ms(None), default);
        assert_eq!(bot_delay_ms(Some("400")), 400);
        assert_eq!(bot_delay_ms(Some("0")), 0);
        for bad in ["", "fast", "-5", "1.5", "10001", "99999999999999999999"] {
            assert_eq!(bot_delay_ms(Some(bad)), default, "{bad:?}");
        }
    }
}
