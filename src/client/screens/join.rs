//! Join a LAN game: the servers heard on this network, or an address
//! typed by hand.

use std::net::SocketAddr;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use foodweb_netcode::discovery::{DISCOVERY_PORT, Discovery};

use crate::client::net::{LAN_PORT, Session, Target};
use crate::client::{I18n, Screen, theme, widgets};

#[derive(Resource, Default)]
struct JoinForm {
    address: String,
    error: bool,
}

fn listen(world: &mut World) {
    if !world.contains_non_send::<Discovery>() {
        world.insert_non_send(Discovery::listen(DISCOVERY_PORT));
    }
}

fn stop_listening(world: &mut World) {
    world.remove_non_send::<Discovery>();
}

fn draw(
    mut contexts: EguiContexts,
    i18n: Res<I18n>,
    discovery: Option<NonSendMut<Discovery>>,
    mut form: ResMut<JoinForm>,
    mut session: ResMut<Session>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut screen = widgets::screen(ctx);
    let mut join = None;
    egui::CentralPanel::default().show(&mut screen, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(24.0);
            ui.heading(
                egui::RichText::new(i18n.t("join-title"))
                    .size(32.0)
                    .color(theme::ACCENT),
            );
            ui.add_space(18.0);
            ui.label(egui::RichText::new(i18n.t("join-found")).strong());
            match discovery {
                Some(mut d) if d.is_listening() => {
                    d.poll();
                    let servers: Vec<_> = d.servers().cloned().collect();
                    if servers.is_empty() {
                        ui.label(egui::RichText::new(i18n.t("join-none")).color(theme::MUTED));
                    }
                    for s in servers {
                        let text = format!(
                            "{}  ·  {}  ·  {}",
                            s.beacon.name,
                            s.addr,
                            i18n.ta("join-tables", &[("n", s.beacon.tables.into())])
                        );
                        if widgets::menu_button(ui, &text, true).clicked() {
                            join = Some(s.addr);
                        }
                    }
                }
                _ => {
                    ui.label(egui::RichText::new(i18n.t("join-no-listen")).color(theme::MUTED));
                }
            }
            ui.add_space(24.0);
            ui.label(i18n.t("join-address"));
            let field = ui.add(
                egui::TextEdit::singleline(&mut form.address)
                    .hint_text(format!("192.168.1.20:{LAN_PORT}"))
                    .desired_width(320.0),
            );
            let typed = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if widgets::menu_button(ui, &i18n.t("join-connect"), !form.address.trim().is_empty())
                .clicked()
                || typed
            {
                match parse_address(&form.address) {
                    Some(addr) => join = Some(addr),
                    None => form.error = true,
                }
            }
            if form.error {
                ui.label(egui::RichText::new(i18n.t("join-bad-address")).color(theme::BAD));
            }
            ui.add_space(24.0);
            if widgets::menu_button(ui, &i18n.t("menu-back"), true).clicked() {
                next.set(Screen::Title);
            }
        });
    });
    if let Some(addr) = join {
        form.error = false;
        session.connect(Target::Udp(addr));
        next.set(Screen::Lobby);
    }
    Ok(())
}

/// `host:port`, or a bare host with the default port.
fn parse_address(text: &str) -> Option<SocketAddr> {
    use std::net::ToSocketAddrs;
    let text = text.trim();
    let with_port = if text.contains(':') {
        text.to_string()
    } else {
        format!("{text}:{LAN_PORT}")
    };
    with_port.to_socket_addrs().ok()?.find(|a| a.is_ipv4())
}

pub fn plugin(app: &mut App) {
    app.init_resource::<JoinForm>()
        .add_systems(OnEnter(Screen::Join), listen)
        .add_systems(OnExit(Screen::Join), stop_listening)
        .add_systems(EguiPrimaryContextPass, draw.run_if(in_state(Screen::Join)));
}
