//! LAN discovery: a server says who it is to the whole LAN once a second
//! (a UDP broadcast), and clients listening on the discovery port list the
//! servers they hear. Joining by a typed address needs none of this.

use std::collections::BTreeMap;
use std::net::{Ipv4Addr, SocketAddr, UdpSocket};
use web_time::{Duration, Instant};

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

use crate::hall::Hall;
use crate::listen::Listeners;

/// The port beacons are sent to.
pub const DISCOVERY_PORT: u16 = 5412;

/// What a server announces.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Beacon {
    /// Always "foodweb": other programs' broadcasts are ignored.
    pub app: String,
    pub version: u32,
    pub name: String,
    pub udp_port: Option<u16>,
    pub ws_port: Option<u16>,
    /// Where clients ask for their connect token: TCP, on this port (the
    /// UDP port's number), over HTTP (`GET /token?via=udp|ws`).
    #[serde(default)]
    pub token_port: Option<u16>,
    /// The pin of the key the server seals tokens with (32 hex digits,
    /// `seal::Pin`): a client that joins from this list refuses a server
    /// that answers with another key. Anyone can send a beacon, so this
    /// guards against a listener, not against someone who forges beacons
    /// (docs/LAN.md, "Threat model").
    #[serde(default)]
    pub key: Option<String>,
    pub tables: u32,
}

impl Beacon {
    pub fn parse(bytes: &[u8]) -> Option<Self> {
        let beacon: Beacon = serde_json::from_slice(bytes).ok()?;
        (beacon.app == "foodweb").then_some(beacon)
    }
}

/// A server heard on the LAN.
#[derive(Clone, Debug, PartialEq)]
pub struct FoundServer {
    pub beacon: Beacon,
    /// Where its UDP listener is.
    pub addr: SocketAddr,
    pub last_heard: Instant,
}

/// Sends a beacon to `to` (broadcast by default) every second while the
/// server listens.
#[derive(Resource)]
pub struct Announcer {
    socket: Option<UdpSocket>,
    pub to: SocketAddr,
    next: Instant,
}

impl Default for Announcer {
    fn default() -> Self {
        let socket = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0)).ok();
        if let Some(s) = &socket {
            let _ = s.set_broadcast(true);
            let _ = s.set_nonblocking(true);
        }
        Self {
            socket,
            to: SocketAddr::from((Ipv4Addr::BROADCAST, DISCOVERY_PORT)),
            next: Instant::now(),
        }
    }
}

fn announce(
    mut announcer: ResMut<Announcer>,
    listeners: Res<Listeners>,
    hall: NonSend<Hall>,
    issuer: Option<Res<crate::tokens::TokenIssuer>>,
) {
    if listeners.udp.is_none() && listeners.ws.is_none() {
        return;
    }
    let now = Instant::now();
    if now < announcer.next {
        return;
    }
    announcer.next = now + Duration::from_secs(1);
    let beacon = Beacon {
        app: "foodweb".into(),
        version: crate::messages::PROTOCOL_VERSION,
        name: hall.config().name.clone(),
        udp_port: listeners.udp.map(|a| a.port()),
        ws_port: listeners.ws.map(|a| a.port()),
        token_port: listeners.udp.map(|a| a.port()),
        key: issuer.map(|i| crate::tokens::to_hex(&i.pin())),
        tables: hall.table_count() as u32,
    };
    let bytes = serde_json::to_vec(&beacon).expect("beacons serialize");
    if let Some(socket) = &announcer.socket {
        // A LAN with no broadcast route just hears nothing.
        let _ = socket.send_to(&bytes, announcer.to);
    }
}

/// Server side: announce this server on the LAN.
pub struct AnnouncePlugin;

impl Plugin for AnnouncePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Announcer>()
            .add_systems(Update, announce);
    }
}

/// Client side: the servers heard lately.
#[derive(Resource)]
pub struct Discovery {
    socket: Option<UdpSocket>,
    found: BTreeMap<SocketAddr, FoundServer>,
}

impl Discovery {
    /// Listens on `port` (shared with other listeners on this machine).
    pub fn listen(port: u16) -> Self {
        Self {
            socket: shared_socket(port).ok(),
            found: BTreeMap::new(),
        }
    }

    pub fn is_listening(&self) -> bool {
        self.socket.is_some()
    }

    /// Reads every beacon that arrived; forgets servers silent for 5 s.
    pub fn poll(&mut self) {
        let Some(socket) = &self.socket else { return };
        let mut buf = [0u8; 2048];
        while let Ok((n, from)) = socket.recv_from(&mut buf) {
            if let Some(beacon) = Beacon::parse(&buf[..n])
                && let Some(port) = beacon.udp_port
            {
                let addr = SocketAddr::new(from.ip(), port);
                self.found.insert(
                    addr,
                    FoundServer {
                        beacon,
                        addr,
                        last_heard: Instant::now(),
                    },
                );
            }
        }
        self.found
            .retain(|_, s| s.last_heard.elapsed() < Duration::from_secs(5));
    }

    pub fn servers(&self) -> impl Iterator<Item = &FoundServer> {
        self.found.values()
    }
}

/// A browser has no UDP: discovery is off there.
#[cfg(target_family = "wasm")]
fn shared_socket(_port: u16) -> std::io::Result<UdpSocket> {
    Err(std::io::ErrorKind::Unsupported.into())
}

#[cfg(not(target_family = "wasm"))]
fn shared_socket(port: u16) -> std::io::Result<UdpSocket> {
    use socket2::{Domain, Protocol, Socket, Type};
    let socket = Socket::new(Domain::IPV4, Type::DGRAM, Some(Protocol::UDP))?;
    socket.set_reuse_address(true)?;
    #[cfg(unix)]
    socket.set_reuse_port(true)?;
    socket.set_broadcast(true)?;
    socket.bind(&SocketAddr::from((Ipv4Addr::UNSPECIFIED, port)).into())?;
    socket.set_nonblocking(true)?;
    Ok(socket.into())
}
