//! Answering when a message arrives, not on the next tick (issue 22).
//!
//! A headless app (the server, the headless client) runs on this runner
//! rather than Bevy's fixed-rate loop: after each update it waits until
//! its next tick *or* until input arrives, whichever is first, and
//! updates at once. Input is a datagram on one of lightyear's UDP sockets
//! (each is registered with a poller when it is linked, and removed when
//! unlinked; a thread of the runner's own waits on the poller) or a frame
//! on a WebSocket session (the vendored `aeronet_websocket` calls a hook
//! from the task that received it). An idle app still updates once a
//! tick, as before; a busy one updates when there is something to read,
//! but never more than once per `MIN_GAP` (a flood of datagrams cannot
//! make it spin).
//!
//! The watcher thread and the hook stamp the moment input arrives, even
//! while an update is running, so the server can measure what the issue
//! asks of it: from an action's arrival to the send of every view it
//! caused (`Latencies`).
//!
//! An app on another loop (the desktop client, on winit's: issue 67) gets
//! the same watcher through [`wake_on_input`]: it calls the app's own
//! wake-up on input, and at the times the app asks for ([`Wake::at`]).

use std::collections::{HashMap, HashSet};
use std::net::UdpSocket;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use bevy_app::PluginsState;
use bevy_app::prelude::*;
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::{InternedScheduleLabel, SingleThreadedExecutor};
use lightyear::prelude::server::ServerUdpIo;
use lightyear::prelude::{Linked, UdpIo};

/// The shortest time between the starts of two updates.
pub const MIN_GAP: Duration = Duration::from_micros(500);

/// What wakes the runner, shared with the observers that register sockets,
/// the watcher thread and the WebSocket hook.
#[derive(Resource, Clone)]
pub struct Wake(Arc<Inner>);

struct Inner {
    poller: polling::Poller,
    /// Each linked UDP socket (a clone of lightyear's), by its entity, and
    /// whether its interest must be armed again after each read (where
    /// the system has no edge-triggered polling).
    sockets: Mutex<HashMap<Entity, (UdpSocket, bool)>>,
    state: Mutex<State>,
    /// Signalled when input arrives.
    input: Condvar,
    /// The runner is done: the watcher thread ends.
    stop: AtomicBool,
    /// What wakes an app on another loop (`wake_on_input`).
    on_input: Option<Box<dyn Fn() + Send + Sync>>,
    /// The earliest time such an app asked to be woken at (`Wake::at`).
    due: Mutex<Option<Instant>>,
}

#[derive(Default)]
struct State {
    /// When the earliest input not yet read arrived.
    waiting_since: Option<Instant>,
    /// When the input this update reads arrived, at the earliest.
    arrival: Option<Instant>,
    /// When the last update began to read its input.
    read_began: Option<Instant>,
}

impl Wake {
    fn new(on_input: Option<Box<dyn Fn() + Send + Sync>>) -> std::io::Result<Self> {
        Ok(Self(Arc::new(Inner {
            poller: polling::Poller::new()?,
            sockets: Mutex::new(HashMap::new()),
            state: Mutex::new(State::default()),
            input: Condvar::new(),
            stop: AtomicBool::new(false),
            on_input,
            due: Mutex::new(None),
        })))
    }

    /// Wakes the app at `when` at the latest (an app on another loop: a
    /// countdown's next second, a bot's move). Only the earliest time
    /// asked for is kept until it comes.
    pub fn at(&self, when: Instant) {
        let mut due = lock(&self.0.due);
        if due.is_none_or(|d| when < d) {
            *due = Some(when);
            let _ = self.0.poller.notify();
        }
    }

    fn register(&self, entity: Entity, socket: &UdpSocket) {
        let Ok(clone) = socket.try_clone() else {
            return;
        };
        let mut sockets = lock(&self.0.sockets);
        self.unregister_locked(&mut sockets, entity);
        let key = entity.to_bits() as usize;
        // SAFETY: the clone is deleted from the poller before it is
        // dropped (`unregister_locked`), as `Poller::add` requires.
        let add = |mode| unsafe {
            self.0
                .poller
                .add_with_mode(&clone, polling::Event::readable(key), mode)
        };
        let rearm = if add(polling::PollMode::Edge).is_ok() {
            false
        } else if add(polling::PollMode::Oneshot).is_ok() {
            true
        } else {
            return;
        };
        sockets.insert(entity, (clone, rearm));
    }

    fn unregister(&self, entity: Entity) {
        let mut sockets = lock(&self.0.sockets);
        self.unregister_locked(&mut sockets, entity);
    }

    fn unregister_locked(&self, sockets: &mut HashMap<Entity, (UdpSocket, bool)>, entity: Entity) {
        if let Some((old, _)) = sockets.remove(&entity) {
            let _ = self.0.poller.delete(&old);
        }
    }

    /// Waits until `deadline`, or until input has arrived.
    fn wait_until(&self, deadline: Instant) {
        let mut state = lock(&self.0.state);
        while state.waiting_since.is_none() {
            let Some(left) = deadline.checked_duration_since(Instant::now()) else {
                return;
            };
            state = self
                .0
                .input
                .wait_timeout(state, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    /// When the input this update reads arrived, at the earliest (so that
    /// a latency measured from it never understates the true one); `None`
    /// before the first update.
    pub fn arrival(&self) -> Option<Instant> {
        lock(&self.0.state).arrival
    }
}

impl Inner {
    fn arrived(&self, at: Instant) {
        {
            let mut state = lock(&self.state);
            state.waiting_since.get_or_insert(at);
            self.input.notify_one();
        }
        if let Some(wake) = &self.on_input {
            wake();
        }
    }

    /// The watcher thread: stamps each datagram's arrival on a linked
    /// socket until the runner stops, and wakes an app on another loop at
    /// the time it asked for.
    fn watch(&self) {
        let mut events = polling::Events::new();
        while !self.stop.load(Ordering::Acquire) {
            events.clear();
            let due = *lock(&self.due);
            let timeout = due.map(|d| d.saturating_duration_since(Instant::now()));
            if self.poller.wait(&mut events, timeout).is_err() {
                std::thread::sleep(MIN_GAP);
                continue;
            }
            if !events.is_empty() {
                self.arrived(Instant::now());
            }
            let mut due = lock(&self.due);
            if due.is_some_and(|d| d <= Instant::now()) {
                *due = None;
                drop(due);
                if let Some(wake) = &self.on_input {
                    wake();
                }
            }
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// First thing in an update, before any input is read: what has arrived
/// so far is read now, and arrived when it was stamped. Input read with no
/// stamp (it came as the read began, before the watcher saw it) arrived
/// after the last read began.
fn read_begins(wake: Res<Wake>) {
    let now = Instant::now();
    let mut state = lock(&wake.0.state);
    state.arrival = state.waiting_since.take().or(state.read_began);
    state.read_began = Some(now);
}

/// After the read, where polling is one-shot: each socket is watched
/// again (a datagram that came between the read and this is stamped now,
/// a few microseconds late).
fn rearm_sockets(wake: Res<Wake>) {
    for (entity, (socket, rearm)) in lock(&wake.0.sockets).iter() {
        if *rearm {
            let _ = wake.0.poller.modify_with_mode(
                socket,
                polling::Event::readable(entity.to_bits() as usize),
                polling::PollMode::Oneshot,
            );
        }
    }
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

/// Runs every schedule of `app` on the runner's thread (those made since
/// the last call too). A headless app's systems are small: handing them
/// to the task pool's threads and waiting for them cost more than running
/// them, and on a busy machine a woken thread may not run for a while,
/// which an answer must not wait for.
fn on_one_thread(app: &mut App, done: &mut HashSet<InternedScheduleLabel>) {
    let Some(mut schedules) = app.world_mut().get_resource_mut::<Schedules>() else {
        return;
    };
    for (_, schedule) in schedules.iter_mut() {
        if done.insert(schedule.label()) {
            schedule.set_executor(SingleThreadedExecutor::new());
        }
    }
}

/// Watches `app`'s sockets and WebSocket sessions for `wake`.
fn watch_input(app: &mut App, wake: &Wake) {
    // The hook holds the runner's state weakly: once this app is gone, it
    // asks to be dropped.
    let hook = Arc::downgrade(&wake.0);
    aeronet_websocket::add_recv_hook(move || match hook.upgrade() {
        Some(inner) => {
            inner.arrived(Instant::now());
            true
        }
        None => false,
    });
    app.insert_resource(wake.clone())
        .add_observer(link_udp)
        .add_observer(unlink_udp)
        .add_systems(First, read_begins)
        .add_systems(
            PreUpdate,
            rearm_sockets.after(lightyear::prelude::LinkSystems::Receive),
        );
}

/// Calls `wake` (from another thread) when a datagram arrives on one of
/// `app`'s UDP sockets, when one of its WebSocket sessions receives a
/// frame, and at the times asked for with the [`Wake`] resource's `at`:
/// for an app on a loop of its own that sleeps between updates (the
/// desktop client on winit's). `None` where the system has no poller
/// (the app then only wakes on its own).
pub fn wake_on_input(app: &mut App, wake: impl Fn() + Send + Sync + 'static) -> Option<Wake> {
    let waker = Wake::new(Some(Box::new(wake)))
        .map_err(|e| eprintln!("no I/O poller ({e}): input waits for the next update"))
        .ok()?;
    watch_input(app, &waker);
    // The watcher lasts as long as the process (one app in it).
    let inner = waker.0.clone();
    let spawned = std::thread::Builder::new()
        .name("foodweb-wake".into())
        .spawn(move || inner.watch());
    if let Err(e) = spawned {
        eprintln!("no thread to watch input ({e}): input waits for the next update");
    }
    Some(waker)
}

/// Runs `app` on the waking runner, ticking at least every `tick`.
pub fn use_waking_runner(app: &mut App, tick: Duration) {
    let wake = match Wake::new(None) {
        Ok(wake) => wake,
        Err(e) => {
            // No poller on this system: Bevy's fixed-rate loop.
            eprintln!("no I/O poller ({e}); updating {tick:?} apart");
            app.add_plugins(bevy_app::ScheduleRunnerPlugin::run_loop(tick));
            return;
        }
    };
    watch_input(app, &wake);
    app.set_runner(move |mut app: App| {
        if app.plugins_state() != PluginsState::Cleaned {
            while app.plugins_state() == PluginsState::Adding {
                bevy_tasks::tick_global_task_pools_on_main_thread();
            }
            app.finish();
            app.cleanup();
        }
        let mut single = HashSet::new();
        on_one_thread(&mut app, &mut single);
        let watcher = {
            let inner = wake.0.clone();
            std::thread::Builder::new()
                .name("foodweb-wake".into())
                .spawn(move || inner.watch())
        };
        let exit = loop {
            let start = Instant::now();
            app.update();
            if let Some(exit) = app.should_exit() {
                break exit;
            }
            on_one_thread(&mut app, &mut single);
            wake.wait_until(start + tick);
            let earliest = start + MIN_GAP;
            let now = Instant::now();
            if now < earliest {
                std::thread::sleep(earliest - now);
            }
        };
        wake.0.stop.store(true, Ordering::Release);
        let _ = wake.0.poller.notify();
        if let Ok(watcher) = watcher {
            let _ = watcher.join();
        }
        exit
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    /// An app on another loop asks to be woken at a time: its wake-up
    /// comes then (not before), once, and a later time asked for after an
    /// earlier one waits for the earlier (issue 67: a countdown's next
    /// second, a bot's move in the in-app hall).
    #[test]
    fn an_app_on_another_loop_is_woken_at_the_time_it_asked_for() {
        let mut app = App::new();
        let (woke, wakes) = mpsc::channel();
        let wake = wake_on_input(&mut app, move || {
            let _ = woke.send(Instant::now());
        })
        .expect("a poller on this system");
        let asked = Instant::now();
        wake.at(asked + Duration::from_millis(300));
        wake.at(asked + Duration::from_millis(150));
        let first = wakes
            .recv_timeout(Duration::from_secs(5))
            .expect("woken at the earlier time");
        assert!(first >= asked + Duration::from_millis(150), "woken early");
        assert!(
            wakes.recv_timeout(Duration::from_millis(400)).is_err(),
            "the later time asked for was replaced by the earlier"
        );
    }

    /// A datagram on a watched socket wakes the app at once.
    #[test]
    fn a_datagram_wakes_an_app_on_another_loop() {
        let mut app = App::new();
        let (woke, wakes) = mpsc::channel();
        let wake = wake_on_input(&mut app, move || {
            let _ = woke.send(());
        })
        .expect("a poller on this system");
        let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
        let entity = app.world_mut().spawn_empty().id();
        wake.register(entity, &socket);
        assert!(wakes.recv_timeout(Duration::from_millis(200)).is_err());
        let sender = UdpSocket::bind("127.0.0.1:0").unwrap();
        sender
            .send_to(b"hello", socket.local_addr().unwrap())
            .unwrap();
        wakes
            .recv_timeout(Duration::from_secs(5))
            .expect("woken by the datagram");
    }
}
