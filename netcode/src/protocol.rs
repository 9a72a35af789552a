//! The lightyear protocol: one reliable, ordered channel and the two
//! message types, one per direction (a host client in the same app reads
//! its own receiver of each, so they must differ).
//!
//! Registration order fixes the wire ids: client and server must run this
//! same function, and do so after lightyear's plugins.

use std::time::Duration;

use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;
use lightyear::prelude::server::ClientOf;
use lightyear::prelude::*;

use crate::messages::{ClientMsg, ServerMsg};

/// Netcode's protocol id: a client of another protocol is refused at the
/// handshake. Derived from the message version, so versions never mix.
pub const PROTOCOL_ID: u64 = 0xF00D_0000 + crate::messages::PROTOCOL_VERSION as u64;

// netcode's private key is the server's own (crate::tokens): clients are
// admitted by tokens it seals, and never see the key.

/// How often each end of a link pings the other. Lightyear's default is
/// 10 a second each way, which woke a phone's page 20 times a second while
/// nothing happened (issue 67: an app draws only when something does);
/// Foodweb times its own round trips (`HallClock`) and uses lightyear's
/// only for resending lost messages, which an estimate this old serves.
pub const PING_INTERVAL: Duration = Duration::from_secs(10);

/// How long the server waits, having sent a client nothing, before
/// netcode's keep-alive (its default: a tenth of a second, each waking a
/// sleeping page): two go by within the time-out
/// (`tokens::CLIENT_TIMEOUT_SECS`, 5 s). A client keeps netcode's pace: it
/// sends at most one an update.
pub const KEEP_ALIVE_SECS: f64 = 2.0;

/// How long a message on the table channel waits for its acknowledgement
/// before it is sent again, at least (issue 70). Lightyear resends after
/// 1.5 round trips by its own estimate, and with no floor: the estimate is
/// zero until the first ping (`PING_INTERVAL`) and a few microseconds after
/// some (the peer's processing time is taken off), so a lost datagram was
/// never sent again (zero means never) or its messages were sent again
/// every update (a few microseconds). One lost UDP datagram then stalled
/// the ordered channel for good: 4-22 of 280 guests at full scale were
/// never answered. A LAN's round trip is a few milliseconds, a phone's on
/// weak Wi-Fi a few hundred: half a second sends again what was lost,
/// soon enough for a turn-based table, and what a slow phone has not yet
/// acknowledged at most twice a second.
pub const RESEND_AFTER: Duration = Duration::from_millis(500);

/// How long a sent packet waits for its acknowledgement before lightyear
/// counts it lost and forgets which messages it carried. Its default is
/// 1.5 round trips, at least 10 ms: with the estimate at zero (above), a
/// page's acknowledgement, a frame or more later, found the packet already
/// forgotten, its messages were never acknowledged and went again every
/// `RESEND_AFTER` for good (an idle phone's lobby woken 9 times a second).
/// Lightyear's own bound on the wait, 3 s, is the wait.
pub const ACK_WAIT: Duration = Duration::from_secs(3);

/// Every message of a table travels on this channel, in order.
pub struct TableChannel;

pub struct ProtocolPlugin;

impl Plugin for ProtocolPlugin {
    fn build(&self, app: &mut App) {
        app.add_channel::<TableChannel>(ChannelSettings {
            mode: ChannelMode::OrderedReliable(ReliableSettings {
                rtt_resend_min_delay: RESEND_AFTER,
                ..ReliableSettings::default()
            }),
            ..Default::default()
        })
        .add_direction(NetworkDirection::Bidirectional);
        app.register_message::<ClientMsg>()
            .add_direction(NetworkDirection::ClientToServer);
        app.register_message::<ServerMsg>()
            .add_direction(NetworkDirection::ServerToClient);
        app.add_observer(patient_acks);
        app.add_observer(quiet_pings::<Client>)
            .add_observer(quiet_pings::<ClientOf>);
    }
}

/// Each link's packets wait `ACK_WAIT` for their acknowledgement.
fn patient_acks(added: On<Add, Transport>, mut transports: Query<&mut Transport>) {
    if let Ok(mut transport) = transports.get_mut(added.entity) {
        transport.set_packet_nack_settings(PacketNackSettings {
            minimum_timeout: ACK_WAIT,
            maximum_timeout: ACK_WAIT,
            ..PacketNackSettings::default()
        });
    }
}

/// A link's pings at `PING_INTERVAL`, on either end.
fn quiet_pings<C: Component>(link: On<Add, C>, mut commands: Commands) {
    commands
        .entity(link.entity)
        .insert(PingManager::new(PingConfig {
            ping_interval: PING_INTERVAL,
        }));
}
