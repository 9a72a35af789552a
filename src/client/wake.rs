//! Drawing only on change (issue 67): the app updates when something
//! happens, and at least once a second (keep-alives and time-outs hold),
//! never over and over while nothing changes: a phone waiting for its
//! friends stays cool, and three pages fit on a test machine's two cores.
//!
//! What wakes it (Bevy's reactive `WinitSettings`):
//! - input: winit's events (window, pointer, keys);
//! - a message: datagrams and WebSocket frames (`foodweb_netcode::wake`'s
//!   watcher on the desktop, the vendored `aeronet_websocket`'s hook in a
//!   browser);
//! - a time asked for ([`Alarm`]): the in-app hall's next due time
//!   (`HallDue`: a bot's move, a deadline), a clock's next second, a
//!   card's dwell, a hint's end, a breathing frame's next step;
//! - drawing again at once (Bevy's `RequestRedraw`): a motion under way
//!   (`scene`), messages just sent or received (the in-app hall answers a
//!   frame or two later), assets loading, a replay playing, egui's own
//!   repaints.
//!
//! An update that asked for nothing at once leaves the app idle: [`Idle`]
//! says so in the screen's account, which the input tests wait on.
//!
//! In a browser the keys typed on a phone go to bevy_egui's hidden input
//! (its "text agent"), not to winit's canvas: `text_agent` wakes the app
//! after each. A browser page still draws every frame (Bevy's default):
//! asleep between changes, a phone's page measured 5 updates in 3 s in an
//! idle lobby, but a name typed the moment the lobby opened went in front
//! of the old one (issue 67, step 5).
//! `?wake_log=1` (`FOODWEB_WAKE_LOG=1` on the desktop) logs each update
//! that asked for another at once, with what egui was told.

use std::sync::Arc;
use std::time::Duration;

use bevy::ecs::system::SystemParam;
use bevy::platform::time::Instant;
use bevy::prelude::*;
use bevy::window::RequestRedraw;
use bevy::winit::{EventLoopProxyWrapper, WinitUserEvent};
use bevy_egui::{EguiContext, egui};
use foodweb_netcode::client::{ClientModel, ClientTraffic, LinkState, Session};
use foodweb_netcode::server::{HallDue, HallTraffic};

use super::Screen;
use super::assets::{ArtLoad, FontLoad};

/// The longest the app sleeps: lightyear's keep-alives and time-outs are
/// counted in updates.
pub const LONGEST_SLEEP: Duration = Duration::from_secs(1);

/// Updates drawn after the last message sent or received: the in-app
/// hall reads a message, answers, and its client reads the answer, each a
/// frame after the other (one more for what lightyear sends back).
const AFTER_TRAFFIC: u8 = 2;

/// Wakes the app from another thread or a browser's callback.
pub type Waker = Arc<dyn Fn() + Send + Sync>;

/// Wakes the app at a time asked for. Only the earliest time asked for is
/// kept until it comes; asking again each update is cheap.
#[derive(Resource, Clone)]
pub struct Alarm(platform::Alarm);

impl Alarm {
    pub fn at(&self, when: Instant) {
        self.0.at(when);
    }

    pub fn after(&self, wait: Duration) {
        self.at(Instant::now() + wait);
    }

    /// After `secs` seconds (none: at once), as the screens count time.
    pub fn after_secs(&self, secs: f32) {
        self.after(Duration::from_secs_f32(secs.clamp(0.0, 3600.0)));
    }
}

const EGUI_ALARM: &str = "foodweb-alarm";

/// Wakes the app in `wait` from an egui widget (a clock's next second).
pub fn wake_after(ctx: &egui::Context, wait: Duration) {
    if let Some(alarm) = ctx.data(|d| d.get_temp::<Alarm>(egui::Id::new(EGUI_ALARM))) {
        alarm.after(wait);
    }
}

/// Whether the last update left nothing to draw at once, and which update
/// that was (counted from 1).
#[derive(Resource, Default, Debug, Clone, Copy)]
pub struct Idle {
    pub frame: u64,
    pub idle: bool,
}

/// A function that wakes the app, where it runs in a window.
pub fn waker(app: &App) -> Option<Waker> {
    let proxy = (**app.world().get_resource::<EventLoopProxyWrapper>()?).clone();
    Some(Arc::new(move || {
        let _ = proxy.send_event(WinitUserEvent::WakeUp);
    }))
}

#[cfg(not(target_arch = "wasm32"))]
mod platform {
    use bevy::platform::time::Instant;

    /// The netcode's watcher, which also wakes the app at a time.
    #[derive(Clone)]
    pub struct Alarm(pub Option<foodweb_netcode::wake::Wake>);

    impl Alarm {
        pub fn at(&self, when: Instant) {
            if let Some(wake) = &self.0 {
                wake.at(when);
            }
        }
    }

    pub fn alarm(app: &mut bevy::prelude::App, waker: Option<super::Waker>) -> Alarm {
        Alarm(waker.and_then(|wake| foodweb_netcode::wake::wake_on_input(app, move || wake())))
    }
}

#[cfg(target_arch = "wasm32")]
mod platform {
    use std::sync::{Arc, Mutex, PoisonError};

    use bevy::platform::time::Instant;
    use wasm_bindgen::JsCast;
    use wasm_bindgen::closure::Closure;

    /// The page's timer: one `setTimeout` at a time, for the earliest time
    /// asked for.
    #[derive(Clone)]
    pub struct Alarm {
        wake: Option<super::Waker>,
        due: Arc<Mutex<Option<(Instant, i32)>>>,
    }

    impl Alarm {
        pub fn at(&self, when: Instant) {
            let (Some(wake), Some(window)) = (self.wake.clone(), web_sys::window()) else {
                return;
            };
            let mut due = self.due.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some((at, id)) = *due {
                if at <= when {
                    return;
                }
                window.clear_timeout_with_handle(id);
            }
            let ms = when.saturating_duration_since(Instant::now()).as_millis();
            let slot = self.due.clone();
            let ring = Closure::once_into_js(move || {
                *slot.lock().unwrap_or_else(PoisonError::into_inner) = None;
                wake();
            });
            *due = window
                .set_timeout_with_callback_and_timeout_and_arguments_0(
                    ring.unchecked_ref(),
                    ms.min(i32::MAX as u128) as i32,
                )
                .ok()
                .map(|id| (when, id));
        }
    }

    pub fn alarm(_app: &mut bevy::prelude::App, waker: Option<super::Waker>) -> Alarm {
        // A WebSocket frame, or the socket opening or closing, wakes the
        // app (the vendored `aeronet_websocket`).
        if let Some(wake) = waker.clone() {
            aeronet_websocket::add_recv_hook(move || {
                wake();
                true
            });
        }
        Alarm {
            wake: waker,
            due: Arc::new(Mutex::new(None)),
        }
    }
}

/// egui's widgets reach the alarm through their context.
fn give_egui_the_alarm(
    mut contexts: Query<&mut EguiContext, Added<EguiContext>>,
    alarm: Res<Alarm>,
) {
    for mut ctx in &mut contexts {
        let alarm = alarm.clone();
        ctx.get_mut()
            .data_mut(|d| d.insert_temp(egui::Id::new(EGUI_ALARM), alarm));
    }
}

/// bevy_egui tells egui the keyboard's modifiers every update, which egui
/// takes for input and answers by asking to be drawn again at once: an
/// app that never sleeps. egui keeps the modifiers from one update to the
/// next: they are told only when they change.
fn modifiers_only_when_changed(
    mut inputs: Query<(Entity, &mut bevy_egui::EguiInput)>,
    mut before: Local<std::collections::HashMap<Entity, egui::Modifiers>>,
) {
    for (entity, mut input) in &mut inputs {
        let mut now = None;
        input.events.retain(|e| match e {
            egui::Event::ModifiersChanged(m) => {
                now = Some(*m);
                false
            }
            _ => true,
        });
        let Some(now) = now else { continue };
        if before.insert(entity, now) != Some(now) {
            input.events.push(egui::Event::ModifiersChanged(now));
        }
    }
}

/// A press and its release that came between two updates (a quick tap,
/// or any tap on a slow phone: an app asleep until input handles the two
/// together) are given to egui over two passes, as a finger is: a text
/// field places its cursor where it was pressed only while the button is
/// down, and one that saw both at once put it at the start (a name typed
/// after a tap went in front of the old one). The release and what came
/// after it wait for the next update, which is asked for at once; egui is
/// told that update came `TAP_SECS` after the press, however long the
/// update took: a tap is a click only if released within egui's
/// `max_click_duration` (0.8 s) of its press, and a page starved of the
/// processor (three on two cores in the browser test) drew an update a
/// second or more apart, so a tap on the table's sound switch did nothing.
fn one_press_per_pass(
    mut inputs: Query<(Entity, &mut bevy_egui::EguiInput)>,
    mut held: Local<std::collections::HashMap<Entity, HeldRelease>>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    for (entity, mut input) in &mut inputs {
        if let Some((mut earlier, pressed_at)) = held.remove(&entity) {
            earlier.append(&mut input.events);
            input.events = earlier;
            if let (Some(at), Some(now)) = (pressed_at, input.time) {
                input.time = Some(now.min(at + TAP_SECS));
            }
        }
        let is_button = |e: &egui::Event, down: bool| matches!(e, egui::Event::PointerButton { pressed, .. } if *pressed == down);
        let Some(press) = input.events.iter().position(|e| is_button(e, true)) else {
            continue;
        };
        if let Some(release) = input.events[press..]
            .iter()
            .position(|e| is_button(e, false))
        {
            let rest = input.events.split_off(press + release);
            held.insert(entity, (rest, input.time));
            redraw.write(RequestRedraw);
        }
    }
}

/// A tap's release held for the next pass, and its press's pass time.
type HeldRelease = (Vec<egui::Event>, Option<f64>);

/// How long after its press egui is told a tap's release came, when
/// both came between two updates (`one_press_per_pass`).
const TAP_SECS: f64 = 0.05;

/// What the app's own state says of the next update.
#[derive(SystemParam)]
struct Going<'w> {
    screen: Res<'w, State<Screen>>,
    font: Res<'w, State<FontLoad>>,
    art: Res<'w, State<ArtLoad>>,
    hall: Res<'w, HallTraffic>,
    client: Res<'w, ClientTraffic>,
    model: Res<'w, ClientModel>,
    session: Res<'w, Session>,
    due: Res<'w, HallDue>,
}

impl Going<'_> {
    fn loading(&self) -> bool {
        *self.screen.get() == Screen::Loading
            || *self.font.get() == FontLoad::Loading
            || matches!(self.art.get(), ArtLoad::Picker | ArtLoad::Game(_))
    }

    /// A message sent or received, or what it changed.
    fn travelling(&self) -> bool {
        self.hall.0 || self.client.0 || self.model.is_changed() || self.screen.is_changed()
    }
}

/// What the app's own state asks of the next update: at once while
/// something moves, loads or travels, at the hall's due time, and soon
/// while a connection is being made.
fn keep_awake(
    going: Going,
    time: Res<Time<Real>>,
    alarm: Res<Alarm>,
    mut after_traffic: Local<u8>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    if going.travelling() {
        *after_traffic = AFTER_TRAFFIC;
    }
    if going.loading() || *after_traffic > 0 {
        *after_traffic = after_traffic.saturating_sub(1);
        redraw.write(RequestRedraw);
    }
    if let Some(at) = going.due.0 {
        alarm.at(time.startup() + at);
    }
    if going.session.state == LinkState::Connecting {
        // A token fetched, a handshake answered: looked at 20 times a
        // second until connected.
        alarm.after(Duration::from_millis(50));
    }
}

/// Asks for the next update at once: run it under the condition that
/// something is under way (a motion, a replay playing, a tour).
pub fn draw_on(mut redraw: MessageWriter<RequestRedraw>) {
    redraw.write(RequestRedraw);
}

/// After every system that may ask: was anything asked of the next
/// update at once?
fn note_idle(
    mut asked: MessageReader<RequestRedraw>,
    mut idle: ResMut<Idle>,
    mut woken_by: MessageReader<bevy::window::WindowEvent>,
    log: Option<Res<WakeLog>>,
    mut contexts: bevy_egui::EguiContexts,
) {
    idle.frame += 1;
    let asked = asked.read().count();
    idle.idle = asked == 0;
    if log.is_none() {
        return;
    }
    let window = woken_by.read().count();
    // What woke this update, what egui was told and why it asked to be
    // drawn again.
    let egui = contexts.ctx_mut().map_or_else(
        |_| String::new(),
        |ctx| {
            let events = ctx.input(|i| format!("{:?}", i.events));
            format!(
                "egui events {events}, repaint asked at {:?}",
                ctx.repaint_causes()
            )
        },
    );
    warn!(
        "wake log: update {}, {window} window events, asked for {asked} more: {egui}",
        idle.frame
    );
}

/// `FOODWEB_WAKE_LOG=1` (`?wake_log=1` in a browser): each update is
/// logged with the window's events that woke it, whether it asked for
/// another at once and what egui was told, to find what keeps an app from
/// sleeping.
#[derive(Resource)]
struct WakeLog;

/// The systems that ask for the next update at once or at a time, before
/// [`note_idle`].
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct AskToWake;

/// [`Idle`] is up to date: what publishes it runs after.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct IdleNoted;

pub fn plugin(app: &mut App) {
    // Real time is the moment an update begins, not the end of the frame
    // the renderer drew before the app slept: Bevy's renderer hands its
    // own instant to the next update, which after a second asleep is a
    // second old (countdowns, the in-app hall's clock and every time
    // asked for would lag by as much). Without its receiver, the time is
    // read at the update (the renderer's sends then go nowhere).
    app.world_mut()
        .remove_resource::<bevy::time::TimeReceiver>();
    let waker = waker(app);
    let alarm = Alarm(platform::alarm(app, waker));
    if super::web::page_param("wake_log").is_some_and(|v| v == "1") {
        app.insert_resource(WakeLog);
    }
    // The app sleeps between changes, on the desktop and in a browser.
    {
        use bevy::winit::{UpdateMode, WinitSettings};
        app.insert_resource(WinitSettings {
            // Raw device events (mouse motion anywhere on the desktop)
            // wake nothing: the window's own events do.
            focused_mode: UpdateMode::reactive_low_power(LONGEST_SLEEP),
            unfocused_mode: UpdateMode::reactive_low_power(LONGEST_SLEEP),
        });
    }
    app.insert_resource(alarm)
        .init_resource::<Idle>()
        // Everywhere: an app whose egui asks for every update is never
        // idle, and the tests wait for idle.
        .add_systems(
            PreUpdate,
            (modifiers_only_when_changed, one_press_per_pass)
                .after(bevy_egui::EguiPreUpdateSet::ProcessInput)
                .before(bevy_egui::EguiPreUpdateSet::BeginPass),
        )
        .add_systems(Last, (give_egui_the_alarm, keep_awake).in_set(AskToWake))
        .add_systems(Last, note_idle.after(AskToWake).in_set(IdleNoted));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn button(pressed: bool) -> egui::Event {
        egui::Event::PointerButton {
            pos: egui::pos2(192.0, 246.0),
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        }
    }

    /// A tap whose touch began and ended between two updates: egui is
    /// given the press in one pass and the release (with the pointer gone)
    /// in the next, which is asked for at once and told it came a moment
    /// after the press, even when that update came 2.5 s later (a page
    /// starved of the processor): egui counts a release within 0.8 s of
    /// its press as a click. A lone press is left as it is, and an
    /// ordinary update keeps its time.
    #[test]
    fn a_tap_within_one_update_reaches_egui_over_two_passes() {
        let mut world = World::new();
        world.init_resource::<Messages<RequestRedraw>>();
        let moved = egui::Event::PointerMoved(egui::pos2(192.0, 246.0));
        let tap = vec![
            moved.clone(),
            button(true),
            button(false),
            egui::Event::PointerGone,
        ];
        let context = world.spawn(bevy_egui::EguiInput::default()).id();
        // One system, run once an update (what it holds back is its own).
        let system = world.register_system(one_press_per_pass);
        let pass = |world: &mut World, events: Vec<egui::Event>, time: f64| {
            let mut input = world.get_mut::<bevy_egui::EguiInput>(context).unwrap();
            input.events = events;
            input.time = Some(time);
            world.run_system(system).unwrap();
            let asked = world
                .resource_mut::<Messages<RequestRedraw>>()
                .drain()
                .count();
            let input = world.get::<bevy_egui::EguiInput>(context).unwrap();
            (input.events.clone(), input.time, asked)
        };
        let (given, time, asked) = pass(&mut world, tap, 10.0);
        assert_eq!(given, vec![moved.clone(), button(true)]);
        assert_eq!(
            (time, asked),
            (Some(10.0), 1),
            "the next update is asked for"
        );
        let (given, time, asked) = pass(&mut world, vec![], 12.5);
        assert_eq!(given, vec![button(false), egui::Event::PointerGone]);
        assert_eq!(
            time,
            Some(10.0 + TAP_SECS),
            "released a moment after the press"
        );
        let click = egui::InputOptions::default().max_click_duration;
        assert!(
            TAP_SECS < click,
            "within egui's max_click_duration, {click} s"
        );
        assert_eq!(asked, 0);
        let (given, time, _) = pass(&mut world, vec![moved.clone(), button(true)], 13.0);
        assert_eq!(given, vec![moved, button(true)], "a press alone");
        assert_eq!(time, Some(13.0));
    }
}
