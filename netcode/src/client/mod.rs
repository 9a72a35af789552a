//! The client side of the protocol: one connection to a server (remote
//! over UDP or WebSocket, or the server in this very app), the messages
//! queued for it, and the [`ClientModel`] built from what it sent back.
//! It reconnects by itself and takes its seat back with its token.

pub mod headless;
mod model;

pub use model::ClientModel;

use std::net::SocketAddr;

use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_time::{Real, Time};
use lightyear::prelude::client::*;
use lightyear::prelude::*;

use crate::messages::{ClientMsg, PROTOCOL_VERSION, ServerMsg};
use crate::protocol::{NETCODE_KEY, PROTOCOL_ID, TableChannel};

/// Where to connect.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    /// The server in this app (host mode, local play).
    InProcess,
    Udp(SocketAddr),
    /// A WebSocket server: `ws://` + the address.
    WebSocket(SocketAddr),
    /// A WebSocket server by URL (`ws://host:port`): what a browser uses
    /// to reach the server that served its page, whose name it may not be
    /// able to turn into an address.
    WebSocketUrl(String),
}

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
    /// Times a connection was made (1 after the first).
    pub connections: u32,
}

impl Default for Session {
    fn default() -> Self {
        Self {
            target: None,
            state: LinkState::Idle,
            auto_reconnect: true,
            entity: None,
            retry_at: None,
            connections: 0,
        }
    }
}

impl Session {
    /// Connects to `target` (dropping any connection there was).
    pub fn connect(&mut self, target: Target) {
        self.target = Some(target);
        self.state = LinkState::Connecting;
        self.retry_at = Some(0.0);
    }

    pub fn disconnect(&mut self) {
        self.target = None;
        self.state = LinkState::Idle;
        self.retry_at = None;
    }

    pub fn is_connected(&self) -> bool {
        self.state == LinkState::Connected
    }
}

/// Messages for the server, sent at the end of the frame (kept while the
/// connection is down, and sent once it is back).
#[derive(Resource, Default)]
pub struct Outbox(pub Vec<ClientMsg>);

/// The messages received this frame, in order, after the model took them.
#[derive(Resource, Default)]
pub struct Inbox(pub Vec<ServerMsg>);

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
            .init_resource::<ClientModel>()
            .add_systems(PreUpdate, keep_connected)
            .add_systems(Update, receive)
            .add_systems(PostUpdate, send)
            .add_observer(on_connected)
            .add_observer(on_disconnected);
        if !app.world().contains_resource::<PlayerName>() {
            app.insert_resource(PlayerName("Player".into()));
        }
    }
}

/// A random netcode client id: ids must differ between clients; seats are
/// proved by tokens, not by these.
fn fresh_client_id() -> u64 {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).expect("the system gives random bytes");
    u64::from_le_bytes(bytes)
}

fn keep_connected(
    time: Res<Time<Real>>,
    mut session: ResMut<Session>,
    local: Option<Res<LocalServer>>,
    mut commands: Commands,
) {
    let now = time.elapsed_secs_f64();
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
    let spawned = match target {
        Target::InProcess => match local {
            Some(local) => Ok(commands
                .spawn((
                    Name::new("host client"),
                    Client,
                    LinkOf { server: local.0 },
                    Link::default(),
                    Linked,
                ))
                .id()),
            None => Err("this app runs no server".to_string()),
        },
        #[cfg(target_family = "wasm")]
        Target::Udp(_) => Err("a browser has no UDP: join by WebSocket".to_string()),
        #[cfg(not(target_family = "wasm"))]
        Target::Udp(addr) => netcode_client(addr).map(|netcode| {
            commands
                .spawn((
                    Name::new("udp client"),
                    netcode,
                    LocalAddr("0.0.0.0:0".parse().expect("a valid address")),
                    UdpIo::default(),
                ))
                .id()
        }),
        Target::WebSocket(addr) => netcode_client(addr)
            .map(|netcode| websocket_client(&mut commands, netcode, format!("ws://{addr}"))),
        // Netcode wants an address; with the server's address check off
        // (LAN servers bind the wildcard) a stand-in does.
        Target::WebSocketUrl(url) => netcode_client(SocketAddr::from(([0, 0, 0, 0], 0)))
            .map(|netcode| websocket_client(&mut commands, netcode, url)),
    };
    match spawned {
        Ok(entity) => {
            session.entity = Some(entity);
            commands.trigger(Connect { entity });
        }
        Err(e) => {
            session.state = LinkState::Lost(e);
            session.retry_at = Some(now + 1.0);
        }
    }
}

/// A client entity talking to `url` over WebSocket (TLS-less: a LAN).
fn websocket_client(commands: &mut Commands, netcode: NetcodeClient, url: String) -> Entity {
    #[cfg(not(target_family = "wasm"))]
    let config = ClientConfig::builder().with_no_encryption();
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

fn netcode_client(addr: SocketAddr) -> Result<NetcodeClient, String> {
    let auth = Authentication::Manual {
        server_addr: addr,
        client_id: fresh_client_id(),
        private_key: NETCODE_KEY,
        protocol_id: PROTOCOL_ID,
    };
    NetcodeClient::new(
        auth,
        NetcodeConfig {
            token_expire_secs: -1,
            ..Default::default()
        },
    )
    .map_err(|e| e.to_string())
}

fn on_connected(
    trigger: On<Add, Connected>,
    clients: Query<(), With<Client>>,
    mut session: ResMut<Session>,
    name: Res<PlayerName>,
    model: Res<ClientModel>,
    mut outbox: ResMut<Outbox>,
) {
    if session.entity != Some(trigger.entity) || clients.get(trigger.entity).is_err() {
        return;
    }
    session.state = LinkState::Connected;
    session.connections += 1;
    // Say who we are first; then take our place back if we had one.
    let mut first = vec![ClientMsg::Hello {
        name: name.0.clone(),
        version: PROTOCOL_VERSION,
    }];
    if let Some(token) = &model.token {
        first.push(ClientMsg::Resume {
            token: token.clone(),
        });
    }
    first.append(&mut outbox.0);
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

fn receive(
    session: Res<Session>,
    mut receivers: Query<&mut MessageReceiver<ServerMsg>, With<Client>>,
    mut model: ResMut<ClientModel>,
    mut inbox: ResMut<Inbox>,
) {
    inbox.0.clear();
    let Some(entity) = session.entity else { return };
    let Ok(mut receiver) = receivers.get_mut(entity) else {
        return;
    };
    for msg in receiver.receive() {
        model.apply(&msg);
        inbox.0.push(msg);
    }
}

fn send(
    session: Res<Session>,
    mut outbox: ResMut<Outbox>,
    mut senders: Query<&mut MessageSender<ClientMsg>, With<Connected>>,
) {
    if session.state != LinkState::Connected {
        return;
    }
    let Some(entity) = session.entity else { return };
    let Ok(mut sender) = senders.get_mut(entity) else {
        return;
    };
    for msg in outbox.0.drain(..) {
        sender.send::<TableChannel>(msg);
    }
}
