//! The authoritative server: lightyear listeners (UDP with netcode, and
//! WebSocket for browsers) in front of one [`Hall`]. A host client in the
//! same app (desktop host mode, local play) reaches the same hall through
//! an in-process endpoint, so every kind of play is one path.

use std::collections::HashMap;
use std::time::Duration;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_time::{Real, Time};
use lightyear::prelude::server::*;
use lightyear::prelude::*;

use crate::hall::{ClientKey, Hall};
use crate::messages::{ClientMsg, ServerMsg};
use crate::protocol::TableChannel;
use crate::tokens::TokenIssuer;

pub use crate::listen::Listeners;

/// The server's endpoints once spawned.
#[derive(Resource, Clone, Debug, Default)]
pub struct Endpoints {
    pub udp: Option<Entity>,
    pub ws: Option<Entity>,
    /// Always there: where a host client in this app links.
    pub local: Option<Entity>,
}

/// Connections the hall knows, by key, and back.
#[derive(Resource, Default)]
pub struct Links {
    by_key: HashMap<ClientKey, Entity>,
}

/// The largest WebSocket message a client may send: a client's messages are
/// packets of a few hundred bytes (lightyear splits larger ones), so 64 KiB
/// leaves room and turns away the 16 MiB messages that cost the server
/// hundreds of megabytes.
#[cfg(not(target_family = "wasm"))]
pub const MAX_WS_MESSAGE: usize = 64 * 1024;

/// A WebSocket's read buffer: a client's frames are a few hundred bytes.
#[cfg(not(target_family = "wasm"))]
const WS_BUFFER: usize = 4 * 1024;

/// Serves the hall that was inserted as a non-send resource.
pub struct HallServerPlugin;

impl Plugin for HallServerPlugin {
    fn build(&self, app: &mut App) {
        if !app.world().contains_resource::<TokenIssuer>() {
            app.insert_resource(TokenIssuer::random(crate::protocol::PROTOCOL_ID));
        }
        app.init_resource::<Listeners>()
            .init_resource::<HallDue>()
            .init_resource::<HallTraffic>()
            .init_resource::<Endpoints>()
            .init_resource::<Links>()
            .init_resource::<crate::limits::ServerLimits>()
            .init_resource::<crate::backlog::OverQueued>()
            .add_systems(
                PreUpdate,
                open_endpoints.run_if(resource_changed::<Listeners>),
            )
            .add_systems(Update, (pump, guard_links).chain())
            .add_observer(on_connected)
            .add_observer(on_disconnected);
        // What waits for each remote connection is bounded (`backlog`).
        #[cfg(not(target_family = "wasm"))]
        app.add_systems(
            Update,
            crate::backlog::bound_queues.after(pump).before(guard_links),
        );
        // The server's own latency, from an action's arrival to the send
        // of its views (`wake`), and its report file if asked for.
        #[cfg(not(target_family = "wasm"))]
        app.init_resource::<crate::wake::Latencies>().add_systems(
            Last,
            (crate::wake::note_latency, write_latency_report).chain(),
        );
    }
}

/// Where `foodweb serve --latency-report` writes the server's latency.
#[derive(Resource, Clone, Debug)]
pub struct LatencyReport(pub std::path::PathBuf);

/// Once a second, if actions were judged since: the latency report, as
/// JSON (`actions`, `p50_ms`, `p99_ms`, `max_ms`).
#[cfg(not(target_family = "wasm"))]
fn write_latency_report(
    time: Res<Time<Real>>,
    report: Option<Res<LatencyReport>>,
    latencies: Res<crate::wake::Latencies>,
    mut written: Local<(f64, usize)>,
) {
    let Some(report) = report else { return };
    let now = time.elapsed_secs_f64();
    let count = latencies.samples_ms.len();
    if count == written.1 || now - written.0 < 1.0 {
        return;
    }
    *written = (now, count);
    let json = serde_json::json!({
        "actions": count,
        "p50_ms": latencies.quantile(0.5),
        "p99_ms": latencies.quantile(0.99),
        "max_ms": latencies.quantile(1.0),
    });
    if let Err(e) = std::fs::write(&report.0, json.to_string()) {
        eprintln!("latency report {}: {e}", report.0.display());
    }
}

#[cfg(not(target_family = "wasm"))]
fn netcode_config(issuer: &TokenIssuer, limits: &crate::limits::ServerLimits) -> NetcodeConfig {
    NetcodeConfig {
        max_clients: limits.max_clients,
        protocol_id: issuer.protocol_id(),
        private_key: issuer.key(),
        client_timeout_secs: crate::tokens::CLIENT_TIMEOUT_SECS,
        keep_alive_send_rate: crate::protocol::KEEP_ALIVE_SECS,
        // LAN clients dial the host's LAN address, not the wildcard it binds.
        server_addr_check: false,
        ..Default::default()
    }
}

fn open_endpoints(
    mut commands: Commands,
    listeners: Res<Listeners>,
    issuer: Res<TokenIssuer>,
    limits: Res<crate::limits::ServerLimits>,
    mut ends: ResMut<Endpoints>,
) {
    // A browser serves nobody: only the in-process endpoint exists there.
    #[cfg(not(target_family = "wasm"))]
    issuer.set_ports(
        listeners.udp.map(|a| a.port()),
        listeners.ws.map(|a| a.port()),
    );
    #[cfg(not(target_family = "wasm"))]
    if let Some(addr) = listeners.udp.filter(|_| ends.udp.is_none()) {
        // The token port: TCP with the UDP port's number, on the same
        // address. It always runs with the server.
        let service = crate::web::HttpService {
            web_root: None,
            tokens: Some(issuer.clone()),
        };
        if let Err(e) = crate::web::serve_http(service, addr, crate::web::WebLimits::from(*limits))
        {
            eprintln!("warning: no token port on TCP {addr}: {e} (UDP clients cannot join)");
        }
        let udp = commands
            .spawn((
                Name::new("udp"),
                NetcodeServer::new(netcode_config(&issuer, &limits)),
                LocalAddr(addr),
                ServerUdpIo::default(),
            ))
            .id();
        commands.trigger(Start { entity: udp });
        ends.udp = Some(udp);
    }
    #[cfg(not(target_family = "wasm"))]
    if let Some(addr) = listeners.ws.filter(|_| ends.ws.is_none()) {
        use aeronet_websocket::server::HandshakeLimits;
        use aeronet_websocket::tungstenite::protocol::WebSocketConfig;
        // Small buffers: tungstenite's default 128 KiB read buffer would
        // be held by every connection, silent ones too, and a guest can
        // open many.
        let socket = WebSocketConfig::default()
            .read_buffer_size(WS_BUFFER)
            .write_buffer_size(0)
            .max_message_size(Some(MAX_WS_MESSAGE))
            .max_frame_size(Some(MAX_WS_MESSAGE));
        let handshake = HandshakeLimits {
            max_open: limits.ws_total,
            max_open_per_ip: limits.ws_per_address,
            ..HandshakeLimits::default()
        };
        let config = ServerConfig::builder()
            .with_bind_address(addr)
            .with_no_encryption()
            .with_socket_config(socket)
            .with_handshake_limits(handshake);
        let ws = commands
            .spawn((
                Name::new("websocket"),
                NetcodeServer::new(netcode_config(&issuer, &limits)),
                LocalAddr(addr),
                WebSocketServerIo { config },
            ))
            .id();
        commands.trigger(Start { entity: ws });
        ends.ws = Some(ws);
    }
    #[cfg(target_family = "wasm")]
    let _ = (&listeners, &issuer, &limits);
    if ends.local.is_none() {
        // It has no transport, so it is never linked: `Started` goes on
        // after the spawn, or the link's absence would stop it at once.
        let local = commands
            .spawn((Name::new("in-process"), Server::default()))
            .id();
        commands.entity(local).insert(Started);
        ends.local = Some(local);
    }
}

fn key_of(link: Entity) -> ClientKey {
    link.to_bits()
}

fn on_connected(
    trigger: On<Add, Connected>,
    links_of: Query<Option<&PeerAddr>, With<ClientOf>>,
    mut links: ResMut<Links>,
    mut hall: NonSendMut<Hall>,
) {
    let link = trigger.entity;
    let Ok(peer) = links_of.get(link) else {
        return;
    };
    let key = key_of(link);
    links.by_key.insert(key, link);
    // What one address may open is bounded (`hall::room`); the app's own
    // client has no address.
    hall.connect_from(key, peer.map(|p| p.0.ip().to_canonical()));
}

fn on_disconnected(
    trigger: On<Add, Disconnected>,
    mut links: ResMut<Links>,
    mut hall: NonSendMut<Hall>,
) {
    let key = key_of(trigger.entity);
    if links.by_key.remove(&key).is_some() {
        hall.disconnect(key);
    }
}

/// When the hall's next change is due without a message (`Hall::next_due`),
/// as `Time<Real>`'s elapsed time: an app that updates only on change
/// wakes then (issue 67).
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct HallDue(pub Option<Duration>);

/// Whether the hall read or sent a message this update: an app that
/// updates only on change, with a client of its own hall in it, updates
/// again so that what was sent arrives (issue 67).
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct HallTraffic(pub bool);

/// Reads every client's messages into the hall, moves the hall's clock,
/// and sends what it addressed.
fn pump(
    time: Res<Time<Real>>,
    mut hall: NonSendMut<Hall>,
    (mut due, mut traffic): (ResMut<HallDue>, ResMut<HallTraffic>),
    links: Res<Links>,
    mut inbound: Query<(Entity, &mut MessageReceiver<ClientMsg>), With<ClientOf>>,
    mut outbound: Query<&mut MessageSender<ServerMsg>>,
    #[cfg(not(target_family = "wasm"))] mut latencies: ResMut<crate::wake::Latencies>,
) {
    let mut moved = false;
    for (link, mut receiver) in &mut inbound {
        if !links.by_key.contains_key(&key_of(link)) {
            continue;
        }
        for msg in receiver.receive() {
            moved = true;
            #[cfg(not(target_family = "wasm"))]
            if matches!(msg, ClientMsg::Act { .. }) {
                latencies.acted = true;
            }
            hall.handle(key_of(link), msg);
        }
    }
    hall.tick(time.elapsed().as_millis() as u64);
    for (key, msg) in hall.drain() {
        moved = true;
        if let Some(&link) = links.by_key.get(&key)
            && let Ok(mut sender) = outbound.get_mut(link)
        {
            sender.send::<TableChannel>(msg);
        }
    }
    let next = HallDue(hall.next_due().map(Duration::from_millis));
    due.set_if_neq(next);
    traffic.set_if_neq(HallTraffic(moved));
}

/// Every remote link the guard looks at: its listener, its peer, whether
/// it joined, and its link (to say goodbye through).
type GuardedLinks<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static LinkOf,
        Option<&'static PeerAddr>,
        Has<Connected>,
        &'static mut Link,
    ),
    Without<Client>,
>;

/// When each remote link was first seen, by the guard.
#[derive(Default)]
struct Seen {
    at: HashMap<Entity, f64>,
    /// Links asked to go, not gone yet: counted no more (else each update
    /// would ask more to make the same room).
    leaving: std::collections::HashSet<Entity>,
    /// Links dropped since memory was last given back, and when that was.
    dropped: usize,
    trimmed_at: f64,
}

/// Keeps guests within the bounds (`ServerLimits`, issue 33):
/// - a link that has not finished netcode's handshake within
///   `handshake_secs` is dropped, and one address has at most
///   `pending_per_address` such links (its newest go first);
/// - one address has at most `per_address` joined clients (its newest go);
/// - a listener with fewer than `headroom` free places asks the clients
///   joined longest without ever sitting at a table to make room, so that
///   guests who join and idle cannot keep players out.
///
/// Freed memory goes back to the system once many links have gone.
fn guard_links(
    time: Res<Time<Real>>,
    limits: Res<crate::limits::ServerLimits>,
    hall: NonSend<Hall>,
    mut over: ResMut<crate::backlog::OverQueued>,
    mut seen: Local<Seen>,
    #[cfg_attr(target_family = "wasm", allow(unused_mut))] mut links: GuardedLinks,
    #[cfg(not(target_family = "wasm"))] mut servers: Query<&mut NetcodeServer>,
    mut commands: Commands,
) {
    let now = time.elapsed_secs_f64();
    let before = seen.at.len();
    let mut alive = HashMap::with_capacity(before);
    // Pending links and joined clients by address; joined by listener.
    let mut pending: HashMap<std::net::IpAddr, Vec<(f64, Entity)>> = HashMap::new();
    let mut joined: HashMap<std::net::IpAddr, Vec<(f64, Entity)>> = HashMap::new();
    let mut by_listener: HashMap<Entity, Vec<(f64, Entity)>> = HashMap::new();
    let mut drop = Vec::new();
    let mut leaving = std::mem::take(&mut seen.leaving);
    leaving.retain(|&l| links.contains(l));
    for (link, of, peer, connected, _) in &links {
        let first = *seen.at.get(&link).unwrap_or(&now);
        alive.insert(link, first);
        if leaving.contains(&link) {
            continue;
        }
        let ip = peer.map(|p| p.0.ip().to_canonical());
        if connected {
            if let Some(ip) = ip {
                joined.entry(ip).or_default().push((first, link));
            }
            by_listener
                .entry(of.server)
                .or_default()
                .push((first, link));
        } else if now - first > limits.handshake_secs {
            drop.push((link, false));
        } else if let Some(ip) = ip {
            pending.entry(ip).or_default().push((first, link));
        }
    }
    for list in pending.values_mut() {
        list.sort_by(|a, b| a.0.total_cmp(&b.0));
        drop.extend(
            list.iter()
                .skip(limits.pending_per_address)
                .map(|&(_, l)| (l, false)),
        );
    }
    for list in joined.values_mut() {
        list.sort_by(|a, b| a.0.total_cmp(&b.0));
        drop.extend(
            list.iter()
                .skip(limits.per_address)
                .map(|&(_, l)| (l, true)),
        );
    }
    for list in by_listener.values_mut() {
        let free = limits.max_clients.saturating_sub(list.len());
        if free >= limits.headroom {
            continue;
        }
        list.sort_by(|a, b| a.0.total_cmp(&b.0));
        let idle = list.iter().filter(|&&(first, link)| {
            now - first > limits.unseated_grace_secs && !hall.is_seated(key_of(link))
        });
        drop.extend(idle.take(limits.headroom - free).map(|&(_, l)| (l, true)));
    }
    // Connections that did not take what they were sent (`backlog`).
    drop.extend(over.0.drain(..).map(|l| (l, true)));
    for (link, connected) in drop {
        if !leaving.insert(link) {
            continue;
        }
        if connected {
            // Netcode says goodbye and frees the place now; the link goes
            // once netcode has told the app.
            #[cfg(not(target_family = "wasm"))]
            if let Ok((_, of, _, _, mut l)) = links.get_mut(link)
                && let Ok(mut netcode) = servers.get_mut(of.server)
                && netcode.disconnect_link(link, &mut l).is_ok()
            {
                continue;
            }
            commands
                .entity(link)
                .try_insert(lightyear::connection::client::Disconnecting);
        } else {
            commands.entity(link).try_despawn();
        }
    }
    seen.dropped += before.saturating_sub(alive.len());
    seen.at = alive;
    seen.leaving = leaving;
    if seen.dropped >= 64 && now - seen.trimmed_at > 5.0 {
        seen.dropped = 0;
        seen.trimmed_at = now;
        crate::limits::return_memory();
    }
}

/// A headless server app: lightyear's server plugins, the protocol and the
/// hall, ticking `hz` times a second, sealing tokens with `issuer`'s key.
pub fn server_app(hall: Hall, listeners: Listeners, hz: f64, issuer: TokenIssuer) -> App {
    let (mut app, tick) = crate::headless_app(hz);
    app.add_plugins(ServerPlugins {
        tick_duration: tick,
    });
    app.add_plugins(crate::protocol::ProtocolPlugin);
    app.world_mut().insert_non_send(hall);
    app.insert_resource(issuer);
    app.insert_resource(listeners);
    app.add_plugins((HallServerPlugin, crate::discovery::AnnouncePlugin));
    app
}
