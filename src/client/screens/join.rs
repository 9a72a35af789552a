//! Join a LAN game: the servers heard on this network, or an address
//! typed by hand (or the host's link, whose `key=` pins the server's key).

use std::net::SocketAddr;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use foodweb_netcode::discovery::{DISCOVERY_PORT, Discovery};

use crate::client::net::{Session, Target};
use crate::client::{I18n, Screen, theme, widgets};
use crate::lan::LAN_PORT;

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
                            let pin = s
                                .beacon
                                .key
                                .as_deref()
                                .and_then(foodweb_netcode::seal::parse_pin);
                            join = Some((s.addr, pin));
                        }
                    }
                }
                _ => {
                    ui.label(egui::RichText::new(i18n.t("join-no-listen")).color(theme::MUTED));
                }
            }
            ui.add_space(24.0);
            ui.label(i18n.t("join-address"));
            let field = widgets::line_field(
                ui,
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
                    Some(found) => join = Some(found),
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
    if let Some((addr, pin)) = join {
        form.error = false;
        session.connect_pinned(Target::Udp(addr), pin);
        next.set(Screen::Lobby);
    }
    Ok(())
}

/// `host:port`, or a bare host with the default port; or the host's link
/// (`http://host:8080/?key=…`, what its lobby shows and its QR code
/// holds), whose `key` pins the server's key (and `udp`, if given, its
/// port).
fn parse_address(text: &str) -> Option<(SocketAddr, Option<foodweb_netcode::seal::Pin>)> {
    use std::net::ToSocketAddrs;
    let text = text.trim();
    let (host, pin) = match text
        .strip_prefix("http://")
        .or_else(|| text.strip_prefix("https://"))
    {
        Some(rest) => {
            let (authority, tail) = rest.split_once('/').unwrap_or((rest, ""));
            let query = tail.split_once('?').map_or("", |(_, q)| q);
            let query = query.split('#').next().unwrap_or("");
            let param = |name: &str| {
                query
                    .split('&')
                    .find_map(|kv| kv.strip_prefix(name)?.strip_prefix('='))
            };
            // A link's `key` that does not read is a bad link, not none.
            let pin = match param("key") {
                Some(k) => Some(foodweb_netcode::seal::parse_pin(k)?),
                None => None,
            };
            let port = match param("udp") {
                Some(p) => p.parse::<u16>().ok()?,
                None => LAN_PORT,
            };
            let name = authority
                .rsplit_once(':')
                .filter(|(_, p)| p.chars().all(|c| c.is_ascii_digit()))
                .map_or(authority, |(h, _)| h);
            (format!("{name}:{port}"), pin)
        }
        None if text.contains(':') => (text.to_string(), None),
        None => (format!("{text}:{LAN_PORT}"), None),
    };
    let addr = host.to_socket_addrs().ok()?.find(|a| a.is_ipv4())?;
    Some((addr, pin))
}

pub fn plugin(app: &mut App) {
    app.init_resource::<JoinForm>()
        .add_systems(OnEnter(Screen::Join), listen)
        .add_systems(OnExit(Screen::Join), stop_listening)
        .add_systems(EguiPrimaryContextPass, draw.run_if(in_state(Screen::Join)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_or_the_hosts_link_is_understood() {
        let at = |s: &str| SocketAddr::from(([192, 168, 1, 20], s.parse::<u16>().unwrap()));
        assert_eq!(parse_address("192.168.1.20"), Some((at("5410"), None)));
        assert_eq!(
            parse_address(" 192.168.1.20:6000 "),
            Some((at("6000"), None))
        );
        let pin = "00112233445566778899aabbccddeeff";
        let want = foodweb_netcode::seal::parse_pin(pin);
        assert_eq!(
            parse_address(&format!("http://192.168.1.20:8080/?ws=5411&key={pin}")),
            Some((at("5410"), want))
        );
        assert_eq!(
            parse_address(&format!("http://192.168.1.20:8080/?key={pin}&udp=7000")),
            Some((at("7000"), want))
        );
        assert_eq!(
            parse_address("http://192.168.1.20:8080/"),
            Some((at("5410"), None))
        );
        // A link whose key does not read is refused, not joined unpinned.
        assert_eq!(parse_address("http://192.168.1.20:8080/?key=12"), None);
        assert_eq!(parse_address("not an address at all"), None);
    }
}
