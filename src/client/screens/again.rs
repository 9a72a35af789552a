//! "Play again" (issue 69): the game-over summary offers it to those who
//! played; pressed, the seat moves to the next table of the same settings
//! and people (`ClientMsg::PlayAgain`), and until its game starts the
//! table screen shows who is back, who is not yet, and when it starts on
//! the hall's clock (bots then take the seats of those not back). Its
//! owner may start it at once.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use fluent_bundle::FluentValue;
use foodweb_netcode::client::ClientModel;
use foodweb_netcode::messages::{ClientMsg, Role, SeatKind};

use super::table::{Summary, TableFrame, TableScreen};
use crate::client::net::send;
use crate::client::reach::{self, Does};
use crate::client::replay::Replaying;
use crate::client::{theme, widgets};

/// Whether the summary offers "Play again": to a seat or the host seat
/// that played the game, not in a lesson or a replay.
pub fn offered(model: &ClientModel, replaying: bool) -> bool {
    !replaying
        && model.lesson.is_none()
        && matches!(model.place, Some((_, Role::Player(_) | Role::Host)))
}

fn offer(model: Res<ClientModel>, replay: Res<Replaying>, mut summary: ResMut<Summary>) {
    let again = offered(&model, replay.on);
    if summary.again != again {
        summary.again = again;
    }
}

/// Seconds until the next table starts by itself, on the hall's clock.
fn starts_in(model: &ClientModel, until: u64, now_secs: f64) -> Option<u64> {
    let hall_now = model.hall_clock.hall_now_ms(now_secs * 1000.0)?;
    Some(((until as f64 - hall_now).max(0.0) / 1000.0).ceil() as u64)
}

/// The waiting room of the next table.
fn room(mut contexts: EguiContexts, mut frame: TableFrame, time: Res<Time<Real>>) -> Result {
    let Some(lobby) = frame.model.again_waiting().cloned() else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let secs = lobby
        .again_until
        .and_then(|until| starts_in(&frame.model, until, time.elapsed_secs_f64()));
    if secs.is_some_and(|s| s > 0) {
        // Wake for the next second's figure.
        crate::client::wake::wake_after(ctx, std::time::Duration::from_millis(250));
    }
    let owner = frame
        .model
        .my_seat()
        .is_some_and(|s| lobby.owner == Some(s))
        || (lobby.host_runs && matches!(frame.model.place, Some((_, Role::Host))));
    let i18n = &*frame.i18n;
    let mut screen = widgets::screen(ctx);
    let (mut start, mut leave) = (false, false);
    egui::CentralPanel::default().show(&mut screen, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(24.0);
            ui.heading(i18n.t("again-heading"));
            ui.add_space(12.0);
            for s in &lobby.seats {
                let (word, colour) = match s.kind {
                    SeatKind::Kept => (i18n.t("again-not-back"), theme::MUTED),
                    SeatKind::Person { .. } => (i18n.t("again-back"), theme::ACCENT),
                    _ => (i18n.t("again-bot"), theme::MUTED),
                };
                ui.label(
                    egui::RichText::new(format!("{}. {} · {word}", s.seat, i18n.name(&s.name)))
                        .color(colour),
                );
            }
            ui.add_space(12.0);
            if let Some(secs) = secs {
                ui.label(i18n.ta("again-starts-in", &[("secs", FluentValue::from(secs))]));
            }
            ui.add_space(12.0);
            if owner {
                let b = widgets::menu_button(ui, &i18n.t("again-start-now"), true);
                reach::control(&b, "again-start", Does::Move);
                start = b.clicked();
            }
            let b = ui.button(i18n.t("table-leave"));
            reach::control(&b, "table-leave", Does::Move);
            leave = b.clicked();
        });
    });
    frame.claim_rest(ctx, None);
    if start {
        send(&mut frame.outbox, ClientMsg::Start);
    }
    if leave {
        frame.leave();
    }
    Ok(())
}

pub fn plugin(app: &mut App) {
    app.add_systems(Update, offer.run_if(in_state(crate::client::Screen::Table)))
        .add_systems(
            EguiPrimaryContextPass,
            room.run_if(in_state(TableScreen::Connecting)),
        );
}

#[cfg(test)]
mod tests {
    use super::*;
    use foodweb_rules::table::SeatId;

    /// Issue 69: "everyone who presses it within a minute sits again": the
    /// summary offers it to whoever played, never to a watcher, a lesson
    /// or a replay.
    #[test]
    fn play_again_is_offered_to_those_who_played() {
        let at = |role| ClientModel {
            place: Some((3, role)),
            ..ClientModel::default()
        };
        assert!(offered(&at(Role::Player(SeatId(2))), false));
        assert!(offered(&at(Role::Host), false));
        assert!(!offered(&at(Role::Spectator), false));
        assert!(!offered(&at(Role::Player(SeatId(2))), true), "a replay");
        let mut lesson = at(Role::Player(SeatId(0)));
        lesson.lesson = Some(Default::default());
        assert!(!offered(&lesson, false));
    }

    /// The next table starts by itself when its minute is up: every device
    /// counts the seconds on the hall's clock (issue 69's one clock).
    #[test]
    fn the_wait_is_counted_on_the_halls_clock() {
        let device = |own_minus_hall_ms: f64| {
            let mut m = ClientModel::default();
            let sent = 10_000.0 + own_minus_hall_ms;
            m.hall_clock.pong(sent as u64, 10_010, sent + 20.0);
            m
        };
        let (a, b) = (device(-4_000.0), device(900_000.0));
        // Hall time 20 s; the table starts at 62.5 s.
        assert_eq!(
            starts_in(&a, 62_500, (20_000.0 - 4_000.0) / 1000.0),
            Some(43)
        );
        assert_eq!(
            starts_in(&b, 62_500, (20_000.0 + 900_000.0) / 1000.0),
            Some(43)
        );
        assert_eq!(starts_in(&ClientModel::default(), 62_500, 20.0), None);
    }
}
