//! What the server may hold at once, sized from the file descriptors it may
//! open (issue 33): a guest on the LAN who opens connections and stays
//! silent, or joins and never sits down, meets a bound long before the
//! tables' journals could run out of descriptors or the machine out of
//! memory. docs/LAN.md ("Threat model") lists the figures.

use bevy_ecs::prelude::Resource;

/// Descriptors kept for the server's own files: the tables' journals and
/// records, the syncing thread's handles, the sockets it listens on.
pub const RESERVED_FDS: u64 = 128;

/// Bounds on connections, in all and from one address.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct ServerLimits {
    /// File descriptors the process may hold (its soft limit).
    pub fds: u64,
    /// WebSocket connections open at once, in all and from one address.
    pub ws_total: usize,
    pub ws_per_address: usize,
    /// HTTP connections open at once on each HTTP listener (the page and
    /// the token port), in all and from one address.
    pub http_total: usize,
    pub http_per_address: usize,
    /// Joined netcode clients on each listener (UDP, WebSocket).
    pub max_clients: usize,
    /// Joined netcode clients from one address, on all listeners together.
    pub per_address: usize,
    /// Links from one address still in netcode's handshake.
    pub pending_per_address: usize,
    /// Seconds a link may take to finish netcode's handshake.
    pub handshake_secs: f64,
    /// When a listener has fewer free places than this, the longest joined
    /// clients that never sat at a table make room (oldest first).
    pub headroom: usize,
    /// Seconds a client may stay joined without a table before it may be
    /// asked to make room.
    pub unseated_grace_secs: f64,
    /// Bytes waiting for one connection (sent, not yet acknowledged) past
    /// which it is sent no view until they drain (`backlog`): a few of the
    /// largest views.
    pub hold_views_bytes: usize,
    /// Bytes waiting for one connection past which it is disconnected (it
    /// resumes its seat when it comes back): far past the largest view, so
    /// a slow phone is held, not dropped.
    pub drop_bytes: usize,
}

impl ServerLimits {
    /// The bounds for a process that may hold `fds` descriptors, with at
    /// most `per_address` joined clients from one address.
    pub fn for_fds(fds: u64, per_address: usize) -> Self {
        let spare = fds.saturating_sub(RESERVED_FDS).max(64) as usize;
        let per_address = per_address.max(1);
        // Half the spare descriptors for WebSockets, a quarter for each
        // HTTP listener.
        let ws_total = (spare / 2).clamp(16, 4096);
        let http_total = (spare / 4).clamp(8, 1024);
        let max_clients = ws_total.min(512);
        Self {
            fds,
            ws_total,
            ws_per_address: (per_address * 2).min(ws_total),
            http_total,
            http_per_address: 8.min(http_total),
            max_clients,
            per_address,
            pending_per_address: 4,
            handshake_secs: 3.0,
            headroom: (max_clients / 8).max(2),
            unseated_grace_secs: 10.0,
            hold_views_bytes: 256 * 1024,
            drop_bytes: 16 * 1024 * 1024,
        }
    }
}

impl ServerLimits {
    /// The same with `n` joined clients a listener (and headroom to match).
    pub fn with_max_clients(self, n: usize) -> Self {
        let max_clients = n.max(2);
        Self {
            max_clients,
            headroom: (max_clients / 8).max(2).min(max_clients - 1),
            ..self
        }
    }
}

impl Default for ServerLimits {
    fn default() -> Self {
        Self::for_fds(1024, DEFAULT_PER_ADDRESS)
    }
}

/// Joined clients from one address unless the operator says otherwise:
/// a few devices behind one address, and the tests' clients on loopback.
pub const DEFAULT_PER_ADDRESS: usize = 16;

/// Raises the soft limit on open files as far as the hard limit allows;
/// returns the limit now in force.
#[cfg(unix)]
#[allow(
    clippy::unnecessary_cast,
    reason = "rlim_t is u64 on Linux but not on every Unix"
)]
pub fn raise_fd_limit() -> u64 {
    // SAFETY: getrlimit and setrlimit only read and write the struct given.
    unsafe {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return 1024;
        }
        // Past about a million the bounds above stop growing anyway.
        let want = limit.rlim_max.min(1 << 20);
        if want > limit.rlim_cur {
            let raised = libc::rlimit {
                rlim_cur: want,
                rlim_max: limit.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                return want as u64;
            }
        }
        limit.rlim_cur as u64
    }
}

#[cfg(not(unix))]
pub fn raise_fd_limit() -> u64 {
    // Windows has no such per-process limit on sockets.
    1 << 16
}

/// Gives memory freed by dropped connections back to the system (glibc
/// keeps freed blocks in its arenas otherwise: the resident size stayed in
/// gigabytes after a flood of connections had gone).
pub fn return_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks the allocator's own free lists.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// "caps on connections in total and per address for every listener,
    /// sized from the descriptor and memory budgets": every listener's
    /// total together stays under the descriptors not reserved.
    #[test]
    fn the_listeners_together_fit_in_the_descriptors_left() {
        for fds in [256u64, 1024, 4096, 65_536, 1 << 20] {
            let l = ServerLimits::for_fds(fds, DEFAULT_PER_ADDRESS);
            let held = (l.ws_total + 2 * l.http_total) as u64;
            assert!(
                held + RESERVED_FDS <= fds.max(RESERVED_FDS + 64 + 64),
                "{fds}: {l:?}"
            );
            assert!(l.ws_per_address <= l.ws_total && l.http_per_address <= l.http_total);
            assert!(l.headroom < l.max_clients);
        }
    }
}
