//! What just happened to you (issue 71), for the games whose changes come
//! one at a time: Crueler World's duels and starving, Forest Showdown's
//! showdowns and challenges. Each new line about the viewer shows in a
//! window over the table, in the words its notes keep, the newest marked;
//! Continue puts it away, or it goes by itself a few seconds after the
//! last line came; at the game's end the summary takes the screen. A page
//! that comes to a table already played (a reload) shows nothing old: its
//! notes keep it.

use std::ops::Range;

use bevy_egui::egui;

use crate::client::reach::{self, Does};
use crate::client::{I18n, widgets};

/// Seconds the window stays after its last line came.
pub const HOLD_SECS: f64 = 10.0;

/// Which of a seat's lines show. Lines are counted within an epoch (a
/// Forest round, whose deal starts them afresh; Crueler's whole game).
#[derive(Default)]
pub struct NewLines {
    /// The epoch and how many lines it had when the table was first seen,
    /// or when the window was last put away (`None`: not seen yet).
    seen: Option<(u8, usize)>,
    /// The epoch and count when the newest line came, and when.
    newest: Option<(u8, usize, f64)>,
}

impl NewLines {
    /// Which of the epoch's `count` lines show now (empty: no window).
    pub fn shown(&mut self, epoch: u8, count: usize, over: bool, now: f64) -> Range<usize> {
        let (seen_epoch, seen) = *self.seen.get_or_insert((epoch, count));
        let from = if seen_epoch == epoch { seen } else { 0 };
        if over || count <= from {
            self.newest = None;
            return 0..0;
        }
        if self.newest.is_none_or(|(e, n, _)| (e, n) != (epoch, count)) {
            self.newest = Some((epoch, count, now));
        }
        if self.newest.is_some_and(|(_, _, t)| now - t >= HOLD_SECS) {
            self.put_away(epoch, count);
            return 0..0;
        }
        from..count
    }

    /// Continue: the lines so far are seen.
    pub fn put_away(&mut self, epoch: u8, count: usize) {
        self.seen = Some((epoch, count));
        self.newest = None;
    }
}

/// The window: `lines` in their colours, the newest strong, and Continue
/// (reach name `settlement-continue`). A phone shows the last three over
/// the top bar. Returns whether Continue was pressed.
pub fn window(
    ctx: &egui::Context,
    title: String,
    lines: &[(String, egui::Color32)],
    i18n: &I18n,
) -> bool {
    let (window, narrow) = widgets::settlement_window(ctx, title, 72.0, 340.0);
    let first = if narrow {
        lines.len().saturating_sub(3)
    } else {
        0
    };
    let mut pressed = false;
    window.resizable(false).show(ctx, |ui| {
        for (k, (line, colour)) in lines.iter().enumerate().skip(first) {
            let mut text = egui::RichText::new(line);
            if k + 1 == lines.len() {
                text = text.strong().color(*colour);
            }
            ui.label(text);
        }
        let button = ui.button(i18n.t("table-continue"));
        reach::control(&button, "settlement-continue", Does::Pick);
        pressed = button.clicked();
    });
    pressed
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 71: "tells each person what happened to them and why". A page
    /// at the table from the start shows each new line as it comes;
    /// Continue puts it away and it does not come back; left alone it goes
    /// after its hold; two lines that come together show together; a new
    /// epoch (a Forest round's deal) starts the count afresh; a page that
    /// comes to a table already played (a reload) shows nothing old; the
    /// game over, none (the summary shows).
    #[test]
    fn each_new_line_shows_until_put_away() {
        let mut p = NewLines::default();
        assert_eq!(p.shown(1, 0, false, 1.0), 0..0, "nothing yet");
        assert_eq!(p.shown(1, 1, false, 5.0), 0..1, "a duel's line");
        assert_eq!(p.shown(1, 1, false, 5.0 + HOLD_SECS - 0.1), 0..1);
        assert_eq!(p.shown(1, 1, false, 5.0 + HOLD_SECS), 0..0, "held: gone");
        assert_eq!(p.shown(1, 1, false, 30.0), 0..0, "and not again");
        assert_eq!(p.shown(1, 3, false, 40.0), 1..3, "two at once");
        p.put_away(1, 3);
        assert_eq!(p.shown(1, 3, false, 41.0), 0..0, "Continue: gone");
        assert_eq!(p.shown(2, 1, false, 42.0), 0..1, "a new round's deal");
        assert_eq!(
            p.shown(2, 2, true, 50.0),
            0..0,
            "the game over: the summary"
        );
        let mut reloaded = NewLines::default();
        assert_eq!(
            reloaded.shown(2, 4, false, 60.0),
            0..0,
            "a reload: nothing old"
        );
        assert_eq!(reloaded.shown(2, 5, false, 61.0), 4..5, "then the new");
    }
}
