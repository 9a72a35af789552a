//! The title screen: play against bots, host or join a LAN game,
//! language and text size, quit.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::client::net::{Session, Target, host_on_lan, serve_web_client};
use crate::client::reach::{self, Does};
use crate::client::screens::{HostedAt, WebAt};
use crate::client::settings::MotionLevel;
use crate::client::{I18n, LaunchedAt, Screen, UserSettings, theme, web, widgets};
use foodweb_netcode::server::Listeners;
use foodweb_rules::Lang;

fn announce_start_up(launched: Res<LaunchedAt>) {
    info!(
        "title screen reached {:.2} s after launch",
        launched.0.elapsed().as_secs_f32()
    );
}

#[allow(clippy::too_many_arguments)]
fn draw(
    mut contexts: EguiContexts,
    i18n: Res<I18n>,
    mut settings: ResMut<UserSettings>,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
    mut listeners: ResMut<Listeners>,
    mut hosted: ResMut<HostedAt>,
    mut web_at: ResMut<WebAt>,
    mut session: ResMut<Session>,
    issuer: Res<foodweb_netcode::tokens::TokenIssuer>,
    mut host_error: Local<Option<String>>,
    mut replays: ResMut<crate::client::replay::ReplayPicker>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut screen = widgets::screen(ctx);
    egui::CentralPanel::default().show(&mut screen, |ui| {
        let top = (ui.available_height() * 0.14).max(12.0);
        // Whatever the text size and the window, every control can be
        // reached (issue 66), and a bar says when some are below.
        ui.spacing_mut().scroll = egui::style::ScrollStyle::solid();
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.vertical_centered(|ui| {
                ui.add_space(top);
                // Smaller on a phone, so the name keeps to one line.
                let narrow = widgets::narrow(ui.ctx());
                heading(ui, &i18n, narrow);
                ui.add_space(36.0);
                play_buttons(ui, &i18n, &settings, &mut next, &mut hosted, &mut session);
                lan_buttons(
                    ui,
                    &i18n,
                    &mut next,
                    &mut listeners,
                    &mut hosted,
                    &mut web_at,
                    &mut session,
                    &issuer,
                    &mut host_error,
                );
                if menu(ui, &i18n, "menu-replays") {
                    replays.ask();
                }
                if !web::IN_BROWSER && menu(ui, &i18n, "menu-quit") {
                    exit.write(AppExit::Success);
                }
                ui.add_space(28.0);
                preferences(ui, &i18n, &mut settings, narrow);
            })
        });
    });
    Ok(())
}

/// A menu button worded by `key`, which names it in the screen's account
/// too; whether it was pressed.
fn menu(ui: &mut egui::Ui, i18n: &I18n, key: &str) -> bool {
    let button = widgets::menu_button(ui, &i18n.t(key), true);
    reach::control(&button, key, Does::Move);
    button.clicked()
}

/// Draws the game's name and its tagline.
fn heading(ui: &mut egui::Ui, i18n: &I18n, narrow: bool) {
    ui.label(
        egui::RichText::new("Foodweb · 食物网")
            .size(if narrow { 40.0 } else { 56.0 })
            .color(theme::ACCENT),
    );
    ui.label(
        egui::RichText::new(i18n.t("app-tagline"))
            .size(22.0)
            .color(theme::MUTED),
    );
}

/// Draws the play buttons: the page's own server in a browser, then bots.
fn play_buttons(
    ui: &mut egui::Ui,
    i18n: &I18n,
    settings: &UserSettings,
    next: &mut ResMut<NextState<Screen>>,
    hosted: &mut ResMut<HostedAt>,
    session: &mut ResMut<Session>,
) {
    // In a browser the page's own server comes first: its lobby, and
    // before it our seat there, if we may still have one (issue 68: the
    // page goes back by itself when it opens; this is for a return to
    // the title).
    if let Some((url, tokens)) = web::page_server() {
        let pin = web::page_pin();
        let seated = pin.is_some_and(|pin| {
            settings.may_have_seat_at(&foodweb_netcode::seal::pin_fingerprint(&pin))
        });
        let back = seated && menu(ui, i18n, "menu-back-to-table");
        let play_here = widgets::menu_button(ui, &i18n.t("menu-play-here"), true);
        web::publish_target("play-here", &play_here);
        if play_here.clicked() || back {
            hosted.0.clear();
            session.connect_pinned(Target::WebSocketUrl { url, tokens }, pin);
            next.set(Screen::Lobby);
        }
    }
    let play_local = widgets::menu_button(ui, &i18n.t("menu-play-local"), true);
    web::publish_target("play-local", &play_local);
    reach::control(&play_local, "play-local", Does::Move);
    if play_local.clicked() {
        next.set(Screen::Picker);
    }
}

/// Draws the LAN buttons (host, with why hosting failed, and join); none
/// in a browser.
fn lan_buttons(
    ui: &mut egui::Ui,
    i18n: &I18n,
    next: &mut ResMut<NextState<Screen>>,
    listeners: &mut ResMut<Listeners>,
    hosted: &mut ResMut<HostedAt>,
    web_at: &mut ResMut<WebAt>,
    session: &mut ResMut<Session>,
    issuer: &foodweb_netcode::tokens::TokenIssuer,
    host_error: &mut Option<String>,
) {
    if !web::IN_BROWSER && menu(ui, i18n, "menu-host-lan") {
        // The server in this app starts listening on the LAN, and
        // this player joins it like everyone else.
        match host_on_lan(listeners) {
            Ok(addresses) => {
                hosted.0 = addresses;
                if web_at.0.is_none() {
                    web_at.0 = serve_web_client(issuer.clone()).and_then(|url| {
                        let qr = foodweb_netcode::web::qr_modules(&url)?;
                        Some((url, qr))
                    });
                }
                session.connect(Target::InProcess);
                next.set(Screen::Lobby);
            }
            Err(e) => *host_error = Some(e),
        }
    }
    // While this app hosts, the title says so, and how to stop.
    if !hosted.0.is_empty() {
        ui.add(
            egui::Label::new(egui::RichText::new(i18n.t("menu-hosting")).color(theme::ACCENT))
                .wrap(),
        );
    }
    if let Some(e) = host_error.as_ref() {
        ui.label(
            egui::RichText::new(i18n.ta("menu-host-failed", &[("why", e.clone().into())]))
                .color(theme::BAD),
        );
    }
    if !web::IN_BROWSER && menu(ui, i18n, "menu-join-lan") {
        next.set(Screen::Join);
    }
}

/// Draws the language, text size, motion and sound settings, a line each
/// on a phone, and keeps what changed.
fn preferences(ui: &mut egui::Ui, i18n: &I18n, settings: &mut ResMut<UserSettings>, narrow: bool) {
    let mut lang = settings.lang;
    let largest = theme::largest_ui_scale(theme::window_at_scale_one(ui.ctx()));
    let mut scale = settings.ui_scale.min(largest);
    let mut motion = settings.motion;
    let (mut sound, mut volume) = (settings.sound, settings.volume);
    if narrow {
        // A phone: one setting a line, each centred.
        for row in 0..4 {
            ui.horizontal(|ui| {
                let width = [230.0, 260.0, 250.0, 250.0][row];
                ui.add_space(((ui.available_width() - width) / 2.0).max(0.0));
                match row {
                    0 => language_choice(ui, i18n, &mut lang),
                    1 => text_size_choice(ui, i18n, &mut scale, largest),
                    2 => motion_choice(ui, i18n, &mut motion),
                    _ => sound_choice(ui, i18n, &mut sound, &mut volume),
                }
            });
        }
    } else {
        ui.horizontal(|ui| {
            let width = 420.0;
            ui.add_space(((ui.available_width() - width) / 2.0).max(0.0));
            language_choice(ui, i18n, &mut lang);
            ui.add_space(18.0);
            text_size_choice(ui, i18n, &mut scale, largest);
        });
        ui.horizontal(|ui| {
            ui.add_space(((ui.available_width() - 520.0) / 2.0).max(0.0));
            motion_choice(ui, i18n, &mut motion);
            ui.add_space(18.0);
            sound_choice(ui, i18n, &mut sound, &mut volume);
        });
    }
    if sound != settings.sound {
        settings.sound = sound;
    }
    if volume != settings.volume {
        settings.volume = volume;
    }
    if motion != settings.motion {
        settings.motion = motion;
    }
    if lang != settings.lang {
        settings.lang = lang;
    }
    if scale != settings.ui_scale.min(largest) {
        settings.ui_scale = scale;
    }
}

/// Draws the language switch with its label.
fn language_choice(ui: &mut egui::Ui, i18n: &I18n, lang: &mut Lang) {
    ui.label(i18n.t("menu-language"));
    widgets::language_switch(ui, lang);
}

/// Draws the text sizes this window has room for, with their label: one
/// that would push a screen's controls off the window is not offered
/// (`theme::largest_ui_scale`).
fn text_size_choice(ui: &mut egui::Ui, i18n: &I18n, scale: &mut f32, largest: f32) {
    ui.label(i18n.t("menu-ui-scale"));
    for size in theme::UI_SCALES.into_iter().filter(|s| *s <= largest) {
        let percent = (size * 100.0).round() as u32;
        let choice = ui.selectable_label((*scale - size).abs() < 0.01, format!("{percent}%"));
        reach::control(&choice, &format!("text-size-{percent}"), Does::Pick);
        if choice.clicked() {
            *scale = size;
        }
    }
}

/// Draws the motion levels to choose from, with their label.
fn motion_choice(ui: &mut egui::Ui, i18n: &I18n, motion: &mut MotionLevel) {
    ui.label(i18n.t("menu-motion"));
    for (level, key) in [
        (MotionLevel::Full, "menu-motion-full"),
        (MotionLevel::Reduced, "menu-motion-reduced"),
        (MotionLevel::Off, "menu-motion-off"),
    ] {
        ui.selectable_value(motion, level, i18n.t(key));
    }
}

/// Draws the sound switch and its volume (issue 39): apart from the
/// motion, so a still table can still be heard.
fn sound_choice(ui: &mut egui::Ui, i18n: &I18n, on: &mut bool, volume: &mut u8) {
    let switch = ui.checkbox(on, i18n.t("menu-sound"));
    // A desktop build without the `audio` feature plays nothing: it says
    // so, rather than a switch that seems to do nothing.
    #[cfg(not(any(feature = "audio", target_arch = "wasm32")))]
    let switch = switch.on_hover_text(i18n.t("menu-sound-not-built"));
    reach::control(&switch, "sound", Does::Pick);
    let slider = ui.add_enabled(
        *on,
        egui::Slider::new(volume, 0..=100)
            .show_value(false)
            .text(i18n.t("menu-volume")),
    );
    reach::control(&slider, "volume", Does::Pick);
}

pub fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Title), announce_start_up)
        .add_systems(EguiPrimaryContextPass, draw.run_if(in_state(Screen::Title)));
}
