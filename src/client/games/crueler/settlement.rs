//! What just happened to your life (issue 71): each new change to your
//! own life (a trade, a duel you fought, the elimination's bonus, being
//! eliminated, starving) shows in a window over the table, in the words
//! your notes keep (`news::change_line`), with the N that applied and your
//! life before and after. Continue puts it away; it goes by itself a few
//! seconds after the last line came; at the game's end the summary takes
//! the screen. Cards handed in or given are in the notes only.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use foodweb_netcode::client::ClientModel;
use foodweb_rules::GameId;
use foodweb_rules::crueler::news::change_line;
use foodweb_rules::crueler::state::{LifeChange, LifeWhy};
use foodweb_rules::crueler::{CruelerGame, CruelerView};
use foodweb_rules::table::Seats;

use crate::client::net::SeatSide;
use crate::client::reach::{self, Does};
use crate::client::screens::table::TableScreen;
use crate::client::{I18n, Screen, theme, widgets};

/// Seconds the window stays after its last line came.
const HOLD_SECS: f64 = 10.0;

/// The lines showing: from which of the view's life lines, since when.
#[derive(Resource, Default)]
pub struct Playing {
    /// How many of the view's life lines were there when the table was
    /// first seen, or put away since (`None`: not seen yet).
    seen: Option<usize>,
    /// How many there were when the newest came, and when.
    newest: Option<(usize, f64)>,
}

/// The changes to the viewer's life, in order.
fn life_lines(view: &CruelerView) -> Vec<&LifeChange> {
    view.mine.iter().filter(|c| c.of_life()).collect()
}

impl Playing {
    /// Which of the `count` life lines show now (empty: no window). A
    /// page that comes to a table (or back to it, reloaded) shows none of
    /// what came before: its notes keep them.
    fn shown(&mut self, count: usize, over: bool, now: f64) -> std::ops::Range<usize> {
        let seen = *self.seen.get_or_insert(count);
        if over || count <= seen {
            self.newest = None;
            return 0..0;
        }
        if self.newest.is_none_or(|(n, _)| n != count) {
            self.newest = Some((count, now));
        }
        if self.newest.is_some_and(|(_, t)| now - t >= HOLD_SECS) {
            self.put_away(count);
            return 0..0;
        }
        seen..count
    }

    fn put_away(&mut self, count: usize) {
        self.seen = Some(count);
        self.newest = None;
    }
}

/// A line's colour: a loss red, a gain gold.
fn colour(c: &LifeChange) -> egui::Color32 {
    match c.why {
        LifeWhy::Out { .. } => theme::BAD,
        _ if c.life < 0 => theme::BAD,
        _ => theme::ACCENT,
    }
}

/// The window: the new lines, the newest marked, and Continue. Returns
/// whether Continue was pressed.
fn window(ctx: &egui::Context, lines: &[(&LifeChange, String)], i18n: &I18n) -> bool {
    let round = lines.last().map_or(0, |(c, _)| c.round);
    let title = i18n.ta("crueler-settlement", &[("round", round.into())]);
    let (window, narrow) = widgets::settlement_window(ctx, title, 72.0, 340.0);
    let first = if narrow {
        lines.len().saturating_sub(3)
    } else {
        0
    };
    let mut pressed = false;
    window.resizable(false).show(ctx, |ui| {
        for (k, (c, line)) in lines.iter().enumerate().skip(first) {
            let mut text = egui::RichText::new(line);
            if k + 1 == lines.len() {
                text = text.strong().color(colour(c));
            }
            ui.label(text);
        }
        let button = ui.button(i18n.t("table-continue"));
        reach::control(&button, "settlement-continue", Does::Pick);
        pressed = button.clicked();
    });
    pressed
}

/// Shows the viewer's new life lines, and tells the screen's account.
fn play(
    mut contexts: EguiContexts,
    model: Res<ClientModel>,
    i18n: Res<I18n>,
    time: Res<Time<Real>>,
    mut playing: ResMut<Playing>,
    mut said: ResMut<reach::Said>,
) -> Result {
    let Some(view) = model.view_of::<CruelerGame>() else {
        return Ok(());
    };
    let all = life_lines(view);
    let over = view.result.is_some();
    let range = playing.shown(all.len(), over, time.elapsed_secs_f64());
    let seats = Seats {
        names: view.names.clone(),
    };
    let lines: Vec<(&LifeChange, String)> = all[range.clone()]
        .iter()
        .map(|c| (*c, i18n.pick(&change_line(c, &seats)).to_string()))
        .collect();
    let words: Vec<String> = lines.iter().map(|(_, l)| l.clone()).collect();
    if said.settlement != words {
        said.settlement = words;
    }
    if !lines.is_empty() && window(contexts.ctx_mut()?, &lines, &i18n) {
        playing.put_away(range.end);
    }
    Ok(())
}

fn reset(mut commands: Commands, mut said: ResMut<reach::Said>) {
    commands.insert_resource(Playing::default());
    said.settlement.clear();
}

pub fn plugin(app: &mut App) {
    app.init_resource::<Playing>()
        .add_systems(
            EguiPrimaryContextPass,
            play.run_if(in_state(TableScreen::Game(GameId::Crueler))),
        )
        .add_systems(OnExit(Screen::Table), reset);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 71: "Crueler's duel results and starvation with the N that
    /// applied", each told to the seat it changed. A page at the table
    /// from the start shows each new line as it comes; Continue puts it
    /// away and it does not come back; left alone it goes after its hold;
    /// two lines that come together show together; a page that comes to
    /// a table already played (a reload) shows nothing old; the game over,
    /// none (the summary shows).
    #[test]
    fn each_new_change_to_your_life_shows_until_put_away() {
        let mut p = Playing::default();
        assert_eq!(p.shown(0, false, 1.0), 0..0, "nothing yet");
        assert_eq!(p.shown(1, false, 5.0), 0..1, "a duel's line");
        assert_eq!(p.shown(1, false, 5.0 + HOLD_SECS - 0.1), 0..1);
        assert_eq!(p.shown(1, false, 5.0 + HOLD_SECS), 0..0, "held: gone");
        assert_eq!(p.shown(1, false, 30.0), 0..0, "and not again");
        assert_eq!(p.shown(3, false, 40.0), 1..3, "two at once");
        p.put_away(3);
        assert_eq!(p.shown(3, false, 41.0), 0..0, "Continue: gone");
        assert_eq!(p.shown(4, true, 50.0), 0..0, "the game over: the summary");
        let mut reloaded = Playing::default();
        assert_eq!(
            reloaded.shown(4, false, 60.0),
            0..0,
            "a reload: nothing old"
        );
        assert_eq!(reloaded.shown(5, false, 61.0), 4..5, "then the new");
    }
}
