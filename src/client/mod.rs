//! The desktop client. Screens draw a seat's view, never a table's world:
//! every table, local or on the LAN, is played through a server (see
//! `net`), so the same screens serve both.

mod assets;
mod autoplay;
mod game_setup;
mod games;
mod i18n;
mod lesson;
mod net;
mod page_status;
pub mod reach;
mod rejoin;
mod replay;
mod scene;
mod screens;
mod settings;
mod sound;
mod text_agent;
mod theme;
#[cfg(feature = "dev")]
mod tour;
mod wake;
mod web;
mod widgets;

use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy_egui::EguiPlugin;

pub use i18n::I18n;
pub use settings::UserSettings;

/// Which screen is showing.
#[derive(States, Default, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Screen {
    #[default]
    Loading,
    Title,
    Picker,
    Setup,
    /// Joining a LAN game: servers heard, or an address.
    Join,
    /// A server's lobby (hosted here or joined).
    Lobby,
    Table,
}

/// When the process started, to report start-up time to the title screen.
#[derive(Resource)]
pub struct LaunchedAt(pub bevy::platform::time::Instant);

/// 1280x720 unless `FOODWEB_WINDOW` says otherwise (e.g. `1920x1080`).
fn window_size() -> WindowResolution {
    let parsed = std::env::var("FOODWEB_WINDOW").ok().and_then(|s| {
        let (w, h) = s.split_once('x')?;
        Some((w.parse::<u32>().ok()?, h.parse::<u32>().ok()?))
    });
    let (w, h) = parsed.unwrap_or((1280, 720));
    WindowResolution::new(w, h)
}

#[cfg(feature = "dev")]
fn dev_plugins(app: &mut App) {
    app.add_plugins(tour::plugin);
}

#[cfg(not(feature = "dev"))]
fn dev_plugins(_: &mut App) {}

/// Vsync unless `FOODWEB_PRESENT=novsync` (for measuring frame times).
fn present_mode() -> bevy::window::PresentMode {
    match std::env::var("FOODWEB_PRESENT").as_deref() {
        Ok("novsync") => bevy::window::PresentMode::AutoNoVsync,
        _ => bevy::window::PresentMode::AutoVsync,
    }
}

pub fn run() {
    run_with(None);
}

/// The client; with a replay, that replay opens offline once the title
/// screen shows (`foodweb replay FILE`).
pub fn run_with(offline: Option<foodweb_netcode::replay::Replay>) {
    let launched = bevy::platform::time::Instant::now();
    let mut app = App::new();
    if let Some(replay) = offline {
        app.insert_resource(replay::Offline(Some(replay)));
    }
    app.insert_resource(LaunchedAt(launched))
        .insert_resource(ClearColor(theme::BACKGROUND))
        .add_plugins(
            DefaultPlugins
                .set(WindowPlugin {
                    primary_window: Some(Window {
                        title: "Foodweb · 食物网".into(),
                        resolution: window_size(),
                        present_mode: present_mode(),
                        // In a browser: the page's canvas, filling it.
                        #[cfg(target_arch = "wasm32")]
                        canvas: Some("#bevy".into()),
                        #[cfg(target_arch = "wasm32")]
                        fit_canvas_to_parent: true,
                        ..default()
                    }),
                    ..default()
                })
                .set(AssetPlugin {
                    file_path: assets::asset_dir(),
                    // Over HTTP, asking for a .meta beside every asset
                    // only costs round trips.
                    #[cfg(target_arch = "wasm32")]
                    meta_check: bevy::asset::AssetMetaCheck::Never,
                    ..default()
                }),
        )
        .add_plugins(EguiPlugin::default())
        .init_state::<Screen>()
        .add_plugins((
            settings::plugin,
            i18n::plugin,
            assets::plugin,
            scene::plugin,
            games::plugin,
            theme::plugin,
            screens::plugin,
            net::plugin,
            autoplay::plugin,
            page_status::plugin,
            reach::plugin,
            replay::plugin,
            lesson::plugin,
            sound::plugin,
        ))
        // Draws only on change; the text agent's typing wakes it.
        .add_plugins((wake::plugin, text_agent::plugin, rejoin::plugin))
        // Development aids, out of release builds: the screenshot tours.
        .add_plugins(dev_plugins)
        .add_systems(Startup, |mut commands: Commands| {
            // Sprites and text are smooth already: multisampling would only
            // multiply the work of every pixel (a software renderer's frame
            // time, issue 19).
            commands.spawn((Camera2d, Msaa::Off));
        })
        .run();
}
