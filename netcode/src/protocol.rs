//! The lightyear protocol: one reliable, ordered channel and the two
//! message types, one per direction (a host client in the same app reads
//! its own receiver of each, so they must differ).
//!
//! Registration order fixes the wire ids: client and server must run this
//! same function, and do so after lightyear's plugins.

use bevy_app::{App, Plugin};
use lightyear::prelude::*;

use crate::messages::{ClientMsg, ServerMsg};

/// Netcode's protocol id: a client of another protocol is refused at the
/// handshake. Derived from the message version, so versions never mix.
pub const PROTOCOL_ID: u64 = 0xF00D_0000 + crate::messages::PROTOCOL_VERSION as u64;

// netcode's private key is the server's own (crate::tokens): clients are
// admitted by tokens it seals, and never see the key.

/// Every message of a table travels on this channel, in order.
pub struct TableChannel;

pub struct ProtocolPlugin;

impl Plugin for ProtocolPlugin {
    fn build(&self, app: &mut App) {
        app.add_channel::<TableChannel>(ChannelSettings {
            mode: ChannelMode::OrderedReliable(ReliableSettings::default()),
            ..Default::default()
        })
        .add_direction(NetworkDirection::Bidirectional);
        app.register_message::<ClientMsg>()
            .add_direction(NetworkDirection::ClientToServer);
        app.register_message::<ServerMsg>()
            .add_direction(NetworkDirection::ServerToClient);
    }
}
