//! Foodweb networking and persistence: the hall every kind of play goes
//! through (lobby, seats, bots, saving), the messages it speaks, the table
//! store, and the lightyear server and client that carry those messages
//! over a LAN.

// Functions stay short enough to read whole (clippy.toml sets the
// length); test code is left out.
#![warn(clippy::too_many_lines)]
#![cfg_attr(test, allow(clippy::too_many_lines))]

pub mod any;
pub mod backlog;
pub mod bench;
pub mod client;
pub mod discovery;
pub mod games;
pub mod hall;
pub mod limits;
pub mod listen;
pub mod messages;
pub mod names;
pub mod protocol;
pub mod replay;
mod replay_file;
pub mod seal;
pub mod server;
pub mod store;
pub mod tokens;
#[cfg(not(target_family = "wasm"))]
pub mod wake;
pub mod web;

pub use hall::{ClientKey, Hall, HallConfig};
pub use store::{JournalSync, StoreError, TableStore};

/// The lightyear this crate speaks, for apps that add its plugins.
pub use lightyear;

/// A windowless app that updates when input arrives and at least `hz`
/// times a second (`wake`), and logs (rather than panics on) errors from
/// systems and observers: network errors are ordinary events.
pub fn headless_app(hz: f64) -> (bevy_app::App, std::time::Duration) {
    let tick = std::time::Duration::from_secs_f64(1.0 / hz);
    let mut app = bevy_app::App::new();
    app.set_error_handler(bevy_ecs::error::warn);
    app.add_plugins(bevy_app::TaskPoolPlugin::default());
    #[cfg(not(target_family = "wasm"))]
    wake::use_waking_runner(&mut app, tick);
    #[cfg(target_family = "wasm")]
    app.add_plugins(bevy_app::ScheduleRunnerPlugin::run_loop(tick));
    (app, tick)
}
