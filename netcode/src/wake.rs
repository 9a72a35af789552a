//! Answering when a message arrives, not on the next tick (issue 22).
//!
//! A headless app (the server, the headless client) runs on this runner
//! rather than Bevy's fixed-rate loop: after each update it waits until
//! its next tick *or* until input arrives, whichever is first, and
//! updates at once. Input is a datagram on one of lightyear's UDP sockets
//! (each is registered with a poller when it is linked, and removed when
//! unlinked) or a frame on a WebSocket session (the vendored
//! `aeronet_websocket` calls a hook from the task that received it). An
//! idle app still updates once a tick, as before; a busy one updates when
//! there is something to read, but never more than once per `MIN_GAP`
//! (a flood of datagrams cannot make it spin).
//!
//! The server also measures what the issue asks of it: from an action's
//! arrival to the send of every view it caused (`Latencies`).

use std::collections::HashMap;
use std::net::UdpSocket;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use bevy_app::PluginsState;
use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use lightyear::prelude::server::ServerUdpIo;
use lightyear::prelude::{Linked, UdpIo};

/// The shortest time between the starts of two updates.
pub const MIN_GAP: Duration = Duration::from_micros(500);

/// What wakes the runner, shared with the observers that register sockets
/// and with the WebSocket hook.
#[derive(Resource, Clone)]
pub struct Wake(Arc<Inner>);

struct Inner {
    poller: polling::Poller,
    /// Each linked UDP socket (a clone of lightyear's), by its entity.
    sockets: Mutex<HashMap<Entity, UdpSocket>>,
    /// When the input this update reads arrived, at the earliest (see
    /// `Wake::arrival`).
    arrival: Mutex<Option<Instant>>,
    /// When the last update had read its sockets: input still waiting
    /// after that came later.
    read_at: Mutex<Option<Instant>>,
}

impl Wake {
    fn new() -> std::io::Result<Self> {
        Ok(Self(Arc::new(Inner {
            poller: polling::Poller::new()?,
            sockets: Mutex::new(HashMap::new()),
            arrival: Mutex::new(None),
            read_at: Mutex::new(None),
        })))
    }

    /// Wakes the runner's current or next wait.
    pub fn notify(&self) {
        let _ = self.0.poller.notify();
    }

    fn register(&self, entity: Entity, socket: &UdpSocket) {
        let Ok(clone) = socket.try_clone() else {
            return;
        };
        let mut sockets = self
            .0
            .sockets
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        self.unregister_locked(&mut sockets, entity);
        // SAFETY: the clone is deleted from the poller before it is
        // dropped (`unregister_locked`), as `Poller::add` requires.
        let added = unsafe {
            self.0.poller.add_with_mode(
                &clone,
                polling::Event::readable(entity.to_bits() as usize),
                polling::PollMode::Level,
            )
        };
        if added.is_ok() {
            sockets.insert(entity, clone);
        }
    }

    fn unregister(&self, entity: Entity) {
        let mut sockets = self
            .0
            .sockets
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        self.unregister_locked(&mut sockets, entity);
    }

    fn unregister_locked(&self, sockets: &mut HashMap<Entity, UdpSocket>, entity: Entity) {
        if let Some(old) = sockets.remove(&entity) {
            let _ = self.0.poller.delete(&old);
        }
    }

    /// Waits until `deadline`, or until input arrives; then notes when the
    /// input the next update reads arrived, at the earliest (so that a
    /// latency measured from it is never less than the true one): when
    /// the wait ended, or, if input was already waiting when the wait
    /// began, when the last update had read its sockets.
    fn wait_until(&self, deadline: Instant, last_update: Instant, events: &mut polling::Events) {
        let began = Instant::now();
        events.clear();
        let woke = match self.0.poller.wait_deadline(events, deadline) {
            Ok(_) => Instant::now(),
            // Nothing to wait on (should not happen): the tick alone.
            Err(_) => {
                std::thread::sleep(deadline.saturating_duration_since(began));
                Instant::now()
            }
        };
        let input = !events.is_empty() || woke < deadline;
        let read_at = self
            .0
            .read_at
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
            .unwrap_or(last_update);
        let arrival = if input && woke.duration_since(began) >= Duration::from_micros(50) {
            woke
        } else {
            read_at
        };
        *self
            .0
            .arrival
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(arrival);
    }

    /// When the input this update reads arrived, at the earliest (`None`
    /// before the first wait).
    pub fn arrival(&self) -> Option<Instant> {
        *self
            .0
            .arrival
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

/// Notes when this update had read its sockets (`Wake::wait_until`).
fn sockets_read(wake: Res<Wake>) {
    *wake
        .0
        .read_at
        .lock()
        .unwrap_or_else(PoisonError::into_inner) = Some(Instant::now());
}

fn link_udp(
    trigger: On<Add, Linked>,
    servers: Query<&ServerUdpIo>,
    clients: Query<&UdpIo>,
    wake: Res<Wake>,
) {
    let entity = trigger.entity;
    let socket = servers
        .get(entity)
        .ok()
        .and_then(|io| io.socket())
        .or_else(|| clients.get(entity).ok().and_then(|io| io.socket()));
    if let Some(socket) = socket {
        wake.register(entity, socket);
    }
}

fn unlink_udp(trigger: On<Remove, Linked>, wake: Res<Wake>) {
    wake.unregister(trigger.entity);
}

/// Runs `app` on the waking runner, ticking at least every `tick`.
pub fn use_waking_runner(app: &mut App, tick: Duration) {
    let wake = match Wake::new() {
        Ok(wake) => wake,
        Err(e) => {
            // No poller on this system: Bevy's fixed-rate loop.
            eprintln!("no I/O poller ({e}); updating {tick:?} apart");
            app.add_plugins(bevy_app::ScheduleRunnerPlugin::run_loop(tick));
            return;
        }
    };
    {
        // The hook holds the poller weakly: once this app is gone, it asks
        // to be dropped.
        let hook = Arc::downgrade(&wake.0);
        aeronet_websocket::add_recv_hook(move || match hook.upgrade() {
            Some(inner) => {
                let _ = inner.poller.notify();
                true
            }
            None => false,
        });
    }
    app.insert_resource(wake.clone())
        .add_observer(link_udp)
        .add_observer(unlink_udp)
        .add_systems(
            PreUpdate,
            sockets_read.after(lightyear::prelude::LinkSystems::Receive),
        );
    app.set_runner(move |mut app: App| {
        if app.plugins_state() != PluginsState::Cleaned {
            while app.plugins_state() == PluginsState::Adding {
                bevy_tasks::tick_global_task_pools_on_main_thread();
            }
            app.finish();
            app.cleanup();
        }
        let mut events = polling::Events::new();
        loop {
            let start = Instant::now();
            app.update();
            if let Some(exit) = app.should_exit() {
                return exit;
            }
            wake.wait_until(start + tick, start, &mut events);
            let earliest = start + MIN_GAP;
            let now = Instant::now();
            if now < earliest {
                std::thread::sleep(earliest - now);
            }
        }
    });
}

/// The server's own latency: for each update that judged an action, the
/// time from the action's arrival (at the earliest, `Wake::arrival`) to the
/// moment every view it caused was handed to the sockets.
#[derive(Resource, Default, Debug)]
pub struct Latencies {
    /// Milliseconds, in order (at most `LATENCIES_KEPT`).
    pub samples_ms: std::collections::VecDeque<f64>,
    /// This update judged an action (set by the hall's pump).
    pub acted: bool,
}

/// Latencies kept at most (the oldest are dropped).
pub const LATENCIES_KEPT: usize = 100_000;

impl Latencies {
    /// The `q` quantile (0..=1) of the samples, nearest rank.
    pub fn quantile(&self, q: f64) -> Option<f64> {
        let mut sorted: Vec<f64> = self.samples_ms.iter().copied().collect();
        sorted.sort_by(f64::total_cmp);
        let last = sorted.len().checked_sub(1)?;
        Some(sorted[((last as f64) * q).round() as usize])
    }
}

/// After lightyear's sends (the last schedule of the update): an update
/// that judged an action took this long from its arrival.
pub fn note_latency(wake: Option<Res<Wake>>, mut latencies: ResMut<Latencies>) {
    if !std::mem::take(&mut latencies.acted) {
        return;
    }
    let Some(arrival) = wake.and_then(|w| w.arrival()) else {
        return;
    };
    if latencies.samples_ms.len() >= LATENCIES_KEPT {
        latencies.samples_ms.pop_front();
    }
    let ms = arrival.elapsed().as_secs_f64() * 1000.0;
    latencies.samples_ms.push_back(ms);
}
