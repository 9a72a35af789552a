//! "Leave table" in a game still running asks first (issue 68: it left at
//! once, and the seat could not be taken back): the seat stays ours, a bot
//! plays it while we are away, and we can take it back until the game
//! ends.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::table::{AskingLeave, TableFrame, leaves_a_running_seat};
use crate::client::Screen;
use crate::client::reach::{self, Does};

/// The question, over the table: leave (the seat stays ours for now) or
/// stay.
fn ask(mut contexts: EguiContexts, mut frame: TableFrame) -> Result {
    if !frame.asking_leave.0 {
        return Ok(());
    }
    if !leaves_a_running_seat(&frame.model) {
        frame.asking_leave.0 = false;
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let (mut leave, mut stay) = (false, false);
    let modal = egui::Modal::new(egui::Id::new("table-leave-ask")).show(ctx, |ui| {
        ui.set_max_width((ui.ctx().content_rect().width() - 48.0).clamp(200.0, 420.0));
        ui.label(
            egui::RichText::new(frame.i18n.t("lobby-leave-ask"))
                .strong()
                .size(20.0),
        );
        ui.add_space(6.0);
        ui.label(frame.i18n.t("table-leave-keeps-seat"));
        ui.add_space(10.0);
        ui.horizontal(|ui| {
            let yes = ui.button(frame.i18n.t("lobby-leave"));
            reach::control(&yes, "table-leave-yes", Does::Move);
            let no = ui.button(frame.i18n.t("lobby-stay"));
            reach::control(&no, "table-leave-stay", Does::Move);
            leave = yes.clicked();
            stay = no.clicked();
        });
    });
    if stay || modal.should_close() {
        frame.asking_leave.0 = false;
    }
    if leave {
        frame.asking_leave.0 = false;
        frame.leave_seat();
    }
    Ok(())
}

fn put_away(mut asking: ResMut<AskingLeave>) {
    asking.0 = false;
}

pub fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, ask.run_if(in_state(Screen::Table)))
        .add_systems(OnExit(Screen::Table), put_away);
}
