//! Where the server listens: read by the server, which opens the ports,
//! and by discovery, which announces them.

use std::net::SocketAddr;

use bevy_ecs::prelude::Resource;

/// Where the server listens. Any of them may be off.
#[derive(Resource, Clone, Debug, Default)]
pub struct Listeners {
    pub udp: Option<SocketAddr>,
    pub ws: Option<SocketAddr>,
}
