//! What waits for each connection is bounded (issue 70): a guest that does
//! not take what it is sent (a slow phone, a silent attacker) makes no
//! queue grow without end. Past `ServerLimits::hold_views_bytes` waiting
//! for it, the hall sends it no view until the queue has drained, then
//! only the latest (`Hall::hold_views`); past `drop_bytes` it is
//! disconnected, and it resumes its seat when it comes back.

use bevy_ecs::prelude::*;
#[cfg(not(target_family = "wasm"))]
use lightyear::prelude::{server::*, *};

#[cfg(not(target_family = "wasm"))]
use crate::hall::Hall;
#[cfg(not(target_family = "wasm"))]
use crate::limits::ServerLimits;

/// Links whose queue passed `ServerLimits::drop_bytes`: the guard
/// (`server::guard_links`) disconnects them.
#[derive(Resource, Default, Debug)]
pub struct OverQueued(pub Vec<Entity>);

/// The links whose views the hall holds now.
#[cfg(not(target_family = "wasm"))]
#[derive(Default)]
pub struct Held(std::collections::HashSet<Entity>);

/// Bytes sent to `link` and not yet acknowledged, on every channel.
#[cfg(not(target_family = "wasm"))]
pub fn waiting_bytes(transport: &Transport) -> usize {
    transport
        .channel_sends()
        .map(|(_, c)| c.pending_bytes())
        .sum()
}

/// Every remote connection that joined, with its transport.
#[cfg(not(target_family = "wasm"))]
type RemoteLinks<'w, 's> =
    Query<'w, 's, (Entity, &'static Transport), (With<ClientOf>, With<PeerAddr>, With<Connected>)>;

/// Measures each remote connection's queue: holds its views past the
/// first bound, lets them go once it is down to a quarter of it, and
/// marks it for disconnection past the second. Not in a browser, whose
/// hall has no remote connection.
#[cfg(not(target_family = "wasm"))]
pub fn bound_queues(
    links: RemoteLinks,
    limits: Res<ServerLimits>,
    mut hall: NonSendMut<Hall>,
    mut held: Local<Held>,
    mut over: ResMut<OverQueued>,
) {
    for (link, transport) in &links {
        let waiting = waiting_bytes(transport);
        let key = link.to_bits();
        if waiting > limits.drop_bytes {
            over.0.push(link);
        }
        if waiting > limits.hold_views_bytes {
            if held.0.insert(link) {
                hall.hold_views(key, true);
            }
        } else if waiting <= limits.hold_views_bytes / 4 && held.0.remove(&link) {
            hall.hold_views(key, false);
        }
    }
    held.0.retain(|&l| links.contains(l));
}
