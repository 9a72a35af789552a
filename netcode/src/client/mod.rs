//! The client side of the protocol: one connection to a server (remote
//! over UDP or WebSocket, or the server in this very app), the messages
//! queued for it, and the [`ClientModel`] built from what it sent back.
//! It reconnects by itself and takes its seat back with its token.

pub mod headless;
mod model;

pub use model::{AwaySeats, ClientModel, HallClock};

use std::net::SocketAddr;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_time::{Real, Time};
use lightyear::prelude::client::*;
use lightyear::prelude::*;

use crate::messages::{ClientMsg, PROTOCOL_VERSION, ServerMsg};
use crate::protocol::TableChannel;

/// Where to connect.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    /// The server in this app (host mode, local play).
    InProcess,
    /// A server's UDP address (its token port is TCP on the same one).
    Udp(SocketAddr),
    /// A WebSocket server: `ws://` + the address, with the token port
    /// (TCP, by default the server's UDP port number) to ask first.
    WebSocket {
        addr: SocketAddr,
        tokens: SocketAddr,
    },
    /// A WebSocket server by URL (`ws://host:port`): what a browser uses
    /// to reach the server that served its page, whose name it may not be
    /// able to turn into an address; `tokens` is where the page asks for a
    /// token (`/token` on the page's own server).
    WebSocketUrl { url: String, tokens: String },
}

/// Where a token comes from, and what it becomes once it is here (opened,
/// with the key of the server that sealed it).
type TokenSlot = std::sync::Arc<std::sync::Mutex<Option<Result<crate::seal::Opened, String>>>>;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkState {
    Idle,
    Connecting,
    Connected,
    /// Lost or refused; retried after a pause when `auto_reconnect`.
    Lost(String),
}

/// The one connection of this app.
#[derive(Resource)]
pub struct Session {
    pub target: Option<Target>,
    pub state: LinkState,
    pub auto_reconnect: bool,
    entity: Option<Entity>,
    /// Real-time seconds at which to try again.
    retry_at: Option<f64>,
    /// The token being fetched for the next connection, and for which
    /// target.
    token_fetch: Option<(Target, TokenSlot)>,
    /// Times a connection was made (1 after the first).
    pub connections: u32,
    /// The last connect token the server issued us (netcode's bytes).
    pub last_token: Option<Vec<u8>>,
    /// The pin the server's key must have (from the join link, the LAN
    /// beacon or the command line): a server that answers with another
    /// key is not connected to.
    pub pin: Option<crate::seal::Pin>,
    /// The local address to connect from (a test's guest at 127.0.0.N,
    /// UDP only); `None`: whichever the system picks.
    pub source: Option<std::net::IpAddr>,
    /// The key of the server that sealed our last token: the lobby shows
    /// its fingerprint for the players to compare with the host's.
    pub server_key: Option<crate::seal::ServerKey>,
    /// Messages queued before a reconnection, held until our place is
    /// taken back (its proof needs the connection's challenge, which comes
    /// in `Welcome`).
    held: Vec<ClientMsg>,
    /// This connection has a place to take back and no `Welcome` yet:
    /// only `Hello` goes, and whatever is queued meanwhile follows the
    /// `Resume`, in the order it was queued.
    awaiting_welcome: bool,
    /// Real-time seconds at which to ask the hall's clock next, and how
    /// many times this connection asked.
    ping_at: f64,
    pings: u32,
}

impl Default for Session {
    fn default() -> Self {
        Self {
            target: None,
            state: LinkState::Idle,
            auto_reconnect: true,
            entity: None,
            retry_at: None,
            token_fetch: None,
            connections: 0,
            last_token: None,
            pin: None,
            source: None,
            server_key: None,
            held: Vec::new(),
            awaiting_welcome: false,
            ping_at: 0.0,
            pings: 0,
        }
    }
}

impl Session {
    /// Connects to `target` (dropping any connection there was), taking
    /// whatever key the server shows.
    pub fn connect(&mut self, target: Target) {
        self.connect_pinned(target, None);
    }

    /// Connects to `target`, if the server's key has `pin` (when given).
    pub fn connect_pinned(&mut self, target: Target, pin: Option<crate::seal::Pin>) {
        self.target = Some(target);
        self.pin = pin;
        self.server_key = None;
        self.state = LinkState::Connecting;
        self.retry_at = Some(0.0);
    }

    /// Makes the connection again at once, to the same server with the
    /// same pin, keeping the place to take back: a page back from the
    /// background, whose link may have died while it slept (issue 68).
    pub fn reconnect_now(&mut self) {
        if self.target.is_some() {
            self.state = LinkState::Connecting;
            self.token_fetch = None;
            self.retry_at = Some(0.0);
        }
    }

    pub fn disconnect(&mut self) {
        self.target = None;
        self.state = LinkState::Idle;
        self.retry_at = None;
        self.token_fetch = None;
    }

    pub fn is_connected(&self) -> bool {
        self.state == LinkState::Connected
    }

    /// The fingerprint of the key of the server we are connected to (or
    /// connecting to, once it showed its key): what a saved seat is kept
    /// under (issue 68: every desktop host has the same name, never the
    /// same key).
    pub fn server_print(&self) -> Option<String> {
        self.server_key.as_ref().map(crate::seal::fingerprint)
    }

    /// The client entity of the current connection, if any.
    pub fn entity(&self) -> Option<Entity> {
        self.entity
    }
}

/// Messages for the server, sent at the end of the frame (kept while the
/// connection is down, and sent once it is back).
#[derive(Resource, Default)]
pub struct Outbox(pub Vec<ClientMsg>);

/// The messages received this frame, in order, after the model took them.
#[derive(Resource, Default)]
pub struct Inbox(pub Vec<ServerMsg>);

/// Whether this update received or sent a message: an app that updates
/// only on change draws again while messages travel (issue 67).
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientTraffic(pub bool);

/// The name sent in `Hello` on every (re)connection.
#[derive(Resource, Clone)]
pub struct PlayerName(pub String);

/// The in-process server endpoint a host client links to, when this app
/// also runs the server.
#[derive(Resource, Clone, Copy)]
pub struct LocalServer(pub Entity);

pub struct NetClientPlugin;

impl Plugin for NetClientPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Session>()
            .init_resource::<Outbox>()
            .init_resource::<Inbox>()
            .init_resource::<ClientTraffic>()
            .init_resource::<ClientModel>()
            .add_systems(PreUpdate, keep_connected)
            .add_systems(Update, receive)
            .add_systems(PostUpdate, (ping, send).chain())
            .add_observer(on_connected)
            .add_observer(on_disconnected);
        if !app.world().contains_resource::<PlayerName>() {
            app.insert_resource(PlayerName("Player".into()));
        }
    }
}

/// Starts asking for a token for `target` (a thread natively, a fetch in
/// a browser), sealed to a key made for the request and opened if the
/// server's key has `pin`; the slot fills when the answer is in.
fn start_token_fetch(
    target: &Target,
    pin: Option<crate::seal::Pin>,
    source: Option<std::net::IpAddr>,
) -> Result<TokenSlot, String> {
    let slot = TokenSlot::default();
    #[cfg(not(target_family = "wasm"))]
    {
        use crate::tokens::Via;
        let (from, via) = match target {
            Target::Udp(addr) => (*addr, Via::Udp),
            Target::WebSocket { tokens, .. } => (*tokens, Via::WebSocket),
            Target::WebSocketUrl { .. } => {
                return Err("a WebSocket URL is for browsers: give an address".into());
            }
            Target::InProcess => return Err("the server in this app needs no token".into()),
        };
        let filled = slot.clone();
        std::thread::Builder::new()
            .name("token".into())
            .spawn(move || {
                let got = crate::tokens::fetch_token_from(source, from, via, pin.as_ref());
                *filled.lock().unwrap_or_else(|e| e.into_inner()) = Some(got);
            })
            .map_err(|e| e.to_string())?;
    }
    #[cfg(target_family = "wasm")]
    {
        let _ = source;
        let url = match target {
            Target::WebSocketUrl { tokens, .. } => tokens.clone(),
            Target::WebSocket { tokens, .. } => format!("http://{tokens}/token"),
            Target::Udp(_) => return Err("a browser has no UDP: join by WebSocket".into()),
            Target::InProcess => return Err("the server in this app needs no token".into()),
        };
        let filled = slot.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let got = web_fetch_token(&url, pin.as_ref()).await;
            *filled.lock().unwrap_or_else(|e| e.into_inner()) = Some(got);
        });
    }
    Ok(slot)
}

/// A browser's `fetch` of a token from the token URL `base` (`…/token`),
/// sealed to a key made for this request.
#[cfg(target_family = "wasm")]
async fn web_fetch_token(
    base: &str,
    pin: Option<&crate::seal::Pin>,
) -> Result<crate::seal::Opened, String> {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    let via = crate::tokens::Via::WebSocket;
    let request = crate::seal::TokenRequest::new()?;
    let url = format!("{base}?{}", request.query(via));
    let url = url.as_str();
    let fail = |e: wasm_bindgen::JsValue| format!("no token from {base}: {e:?}");
    let window = web_sys::window().ok_or_else(|| "no window".to_string())?;
    let response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(fail)?;
    let response: web_sys::Response = response
        .dyn_into()
        .map_err(|_| format!("no token from {base}: not a response"))?;
    let text = JsFuture::from(response.text().map_err(fail)?)
        .await
        .map_err(fail)?
        .as_string()
        .unwrap_or_default();
    if !response.ok() {
        return Err(format!("no token from {base}: {}", text.trim()));
    }
    let sealed = crate::tokens::from_hex(&text)
        .ok_or_else(|| format!("no token from {base}: not a token"))?;
    request
        .open(&sealed, via, pin)
        .map_err(|e| format!("no token from {base}: {e}"))
}

/// The client entity for a remote target, admitted by `token`.
fn spawn_remote(
    commands: &mut Commands,
    target: &Target,
    token: &[u8],
    source: Option<std::net::IpAddr>,
) -> Result<Entity, String> {
    let token = lightyear::netcode::ConnectToken::try_from_bytes(token)
        .map_err(|e| format!("the server sent a bad token: {e:?}"))?;
    #[cfg(target_family = "wasm")]
    let _ = source;
    // netcode's own pace for the handshake's packets and the client's
    // keep-alives: a client asleep sends one an update at most.
    let netcode = NetcodeClient::new(Authentication::Token(token), NetcodeConfig::default())
        .map_err(|e| e.to_string())?;
    match target {
        #[cfg(not(target_family = "wasm"))]
        Target::Udp(_) => Ok(commands
            .spawn((
                Name::new("udp client"),
                netcode,
                LocalAddr(std::net::SocketAddr::new(
                    source.unwrap_or(std::net::Ipv4Addr::UNSPECIFIED.into()),
                    0,
                )),
                UdpIo::default(),
            ))
            .id()),
        Target::WebSocket { addr, .. } => {
            Ok(websocket_client(commands, netcode, format!("ws://{addr}")))
        }
        Target::WebSocketUrl { url, .. } => Ok(websocket_client(commands, netcode, url.clone())),
        _ => Err("not a remote server".into()),
    }
}

fn keep_connected(
    time: Res<Time<Real>>,
    mut session: ResMut<Session>,
    (local, issuer): (
        Option<Res<LocalServer>>,
        Option<Res<crate::tokens::TokenIssuer>>,
    ),
    mut commands: Commands,
) {
    let now = time.elapsed_secs_f64();
    // A token came: connect with it (if the target is still the one it
    // was asked for).
    if let Some((for_target, slot)) = session.token_fetch.as_ref() {
        let Some(got) = slot.lock().unwrap_or_else(|e| e.into_inner()).take() else {
            return;
        };
        let for_target = for_target.clone();
        session.token_fetch = None;
        if session.target.as_ref() != Some(&for_target) {
            if session.target.is_some() {
                session.retry_at = Some(now);
            }
            return;
        }
        if let Ok(opened) = &got {
            session.last_token = Some(opened.token.clone());
            session.server_key = Some(opened.server);
        }
        match got.and_then(|opened| {
            spawn_remote(&mut commands, &for_target, &opened.token, session.source)
        }) {
            Ok(entity) => {
                session.entity = Some(entity);
                commands.trigger(Connect { entity });
            }
            Err(e) => {
                session.state = LinkState::Lost(e);
                if session.auto_reconnect {
                    session.retry_at = Some(now + 1.0);
                }
            }
        }
        return;
    }
    let Some(at) = session.retry_at else { return };
    if now < at {
        return;
    }
    session.retry_at = None;
    if let Some(old) = session.entity.take() {
        commands.entity(old).try_despawn();
    }
    let Some(target) = session.target.clone() else {
        return;
    };
    session.state = LinkState::Connecting;
    if target != Target::InProcess {
        // A remote server: first a token from it, then the connection.
        match start_token_fetch(&target, session.pin, session.source) {
            Ok(slot) => session.token_fetch = Some((target, slot)),
            Err(e) => {
                session.state = LinkState::Lost(e);
                session.retry_at = Some(now + 1.0);
            }
        }
        return;
    }
    let Some(local) = local else {
        session.state = LinkState::Lost("this app runs no server".to_string());
        session.retry_at = Some(now + 1.0);
        return;
    };
    // The app's own server: its key is the one it seals tokens with.
    session.server_key = issuer.map(|i| i.public_key());
    let entity = commands
        .spawn((
            Name::new("host client"),
            Client,
            LinkOf { server: local.0 },
            Link::default(),
            Linked,
        ))
        .id();
    session.entity = Some(entity);
    commands.trigger(Connect { entity });
}

/// A client entity talking to `url` over WebSocket (TLS-less: a LAN).
fn websocket_client(commands: &mut Commands, netcode: NetcodeClient, url: String) -> Entity {
    #[cfg(not(target_family = "wasm"))]
    let config = ClientConfig::builder().with_no_encryption().disable_nagle();
    #[cfg(target_family = "wasm")]
    let config = ClientConfig;
    commands
        .spawn((
            Name::new("websocket client"),
            netcode,
            WebSocketClientIo::from_url(config, url),
        ))
        .id()
}

fn on_connected(
    trigger: On<Add, Connected>,
    clients: Query<(), With<Client>>,
    mut session: ResMut<Session>,
    name: Res<PlayerName>,
    mut model: ResMut<ClientModel>,
    mut outbox: ResMut<Outbox>,
) {
    if session.entity != Some(trigger.entity) || clients.get(trigger.entity).is_err() {
        return;
    }
    session.state = LinkState::Connected;
    session.connections += 1;
    session.pings = 0;
    session.ping_at = 0.0;
    // Say who we are first. With a place to take back, what was queued
    // waits for `Welcome`, whose challenge the proof needs (`receive`).
    let mut first = vec![ClientMsg::Hello {
        name: name.0.clone(),
        version: PROTOCOL_VERSION,
    }];
    model.bypass_change_detection().challenge = None;
    // A `Hello` an earlier connection never sent is not said twice.
    let queued = std::mem::take(&mut outbox.0)
        .into_iter()
        .filter(|m| !matches!(m, ClientMsg::Hello { .. }));
    session.awaiting_welcome = model.token.is_some();
    if session.awaiting_welcome {
        session.held.extend(queued);
    } else {
        first.extend(queued);
    }
    outbox.0 = first;
}

fn on_disconnected(
    trigger: On<Add, Disconnected>,
    disconnected: Query<&Disconnected, With<Client>>,
    time: Res<Time<Real>>,
    mut session: ResMut<Session>,
) {
    if session.entity != Some(trigger.entity) {
        return;
    }
    let Ok(d) = disconnected.get(trigger.entity) else {
        return;
    };
    // The required `Disconnected` added at spawn is not a loss.
    if session.state == LinkState::Connecting && matches!(d.reason, DisconnectedReason::Unknown) {
        return;
    }
    session.state = LinkState::Lost(format!("{:?}", d.reason));
    if session.auto_reconnect && session.target.is_some() {
        session.retry_at = Some(time.elapsed_secs_f64() + 1.0);
    }
}

/// Pings of a connection a second apart at first (a good estimate
/// soon), then one every `PING_EVERY_SECS`.
const QUICK_PINGS: u32 = 5;
const PING_EVERY_SECS: f64 = 15.0;

/// Asks the hall's clock now and then (`Ping`), once welcomed: the
/// countdowns of every device run from the hall's clock (`HallClock`).
fn ping(
    time: Res<Time<Real>>,
    mut session: ResMut<Session>,
    model: Res<ClientModel>,
    mut outbox: ResMut<Outbox>,
) {
    let now = time.elapsed_secs_f64();
    if session.state != LinkState::Connected || model.challenge.is_none() || now < session.ping_at {
        return;
    }
    session.pings += 1;
    session.ping_at = now
        + if session.pings < QUICK_PINGS {
            1.0
        } else {
            PING_EVERY_SECS
        };
    outbox.0.push(ClientMsg::Ping {
        sent_ms: (now * 1000.0) as u64,
    });
}

fn receive(
    time: Res<Time<Real>>,
    mut session: ResMut<Session>,
    mut receivers: Query<&mut MessageReceiver<ServerMsg>, With<Client>>,
    mut model: ResMut<ClientModel>,
    (mut inbox, mut outbox): (ResMut<Inbox>, ResMut<Outbox>),
    mut traffic: ResMut<ClientTraffic>,
) {
    inbox.0.clear();
    traffic.set_if_neq(ClientTraffic(false));
    let Some(entity) = session.entity else { return };
    let Ok(mut receiver) = receivers.get_mut(entity) else {
        return;
    };
    let now_ms = time.elapsed_secs_f64() * 1000.0;
    for msg in receiver.receive() {
        if let ServerMsg::Pong { sent_ms, hall_ms } = msg {
            // The hall's clock read again: nothing on the screen changes
            // with it but the next second a clock shows, so it neither
            // marks the model changed nor counts as traffic (an idle app
            // stays asleep, issue 67).
            model
                .bypass_change_detection()
                .hall_clock
                .pong(sent_ms, hall_ms, now_ms);
            inbox.0.push(msg);
            continue;
        }
        traffic.0 = true;
        model.apply(&msg);
        if matches!(msg, ServerMsg::Welcome { .. }) {
            model.server_key = session.server_print();
            // Take our place back, proved for this connection; then what
            // was held.
            let mut first: Vec<ClientMsg> = model.resume().into_iter().collect();
            first.append(&mut session.held);
            first.append(&mut outbox.0);
            outbox.0 = first;
            session.awaiting_welcome = false;
        }
        inbox.0.push(msg);
    }
}

fn send(
    session: Res<Session>,
    mut outbox: ResMut<Outbox>,
    mut senders: Query<&mut MessageSender<ClientMsg>, With<Connected>>,
    mut traffic: ResMut<ClientTraffic>,
) {
    if session.state != LinkState::Connected {
        return;
    }
    let Some(entity) = session.entity else { return };
    let Ok(mut sender) = senders.get_mut(entity) else {
        return;
    };
    if session.awaiting_welcome {
        // A move sent before our place is taken back would be judged as a
        // stranger's (a `Leave` refused, then the place taken back).
        let (hello, rest): (Vec<ClientMsg>, Vec<ClientMsg>) = outbox
            .0
            .drain(..)
            .partition(|m| matches!(m, ClientMsg::Hello { .. }));
        outbox.0 = rest;
        for msg in hello {
            sender.send::<TableChannel>(msg);
        }
        return;
    }
    // A `Ping` alone asks for no drawing: its `Pong` changes nothing shown.
    if outbox
        .0
        .iter()
        .any(|m| !matches!(m, ClientMsg::Ping { .. }))
    {
        traffic.0 = true;
    }
    for msg in outbox.0.drain(..) {
        sender.send::<TableChannel>(msg);
    }
}
