//! Your settlement, line by line (issue 71): each round's changes to your
//! own HP and shields, in the seed's order (「buff獲取->最大受到傷害->護盾->
//! 真實傷害->鎖血->特殊技能」), play out one after another in a window beside
//! the board, in the words your notes keep (`news::change_line`): never
//! who hurt you. Skip shows them all; Continue, or the next settlement,
//! puts it away; played out, it goes by itself a few seconds later.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use foodweb_netcode::client::ClientModel;
use foodweb_rules::GameId;
use foodweb_rules::wanning::news::change_line;
use foodweb_rules::wanning::state::{Change, Why};
use foodweb_rules::wanning::view::Settled;
use foodweb_rules::wanning::{WanningGame, WanningView};

use crate::client::net::SeatSide;
use crate::client::reach::{self, Does};
use crate::client::screens::table::TableScreen;
use crate::client::{I18n, Screen, theme, widgets};

/// Seconds each line shows before the next.
const LINE_SECS: f64 = 1.4;
/// Seconds a settlement played out stays before it goes by itself.
const HOLD_SECS: f64 = 8.0;

/// The settlement playing out, and the last one put away.
#[derive(Resource, Default)]
pub struct Playing {
    /// Its round and when it began.
    playing: Option<(u8, f64)>,
    /// The last settlement put away (or played out).
    seen: u8,
}

impl Playing {
    /// Starts a settlement not seen yet, puts one played out away after
    /// its hold, and says how many of its lines show now (none: no
    /// window).
    fn lines_shown(&mut self, settled: Option<&Settled>, over: bool, now: f64) -> usize {
        let Some(s) = settled.filter(|s| !s.lines.is_empty() && !over) else {
            self.playing = None;
            return 0;
        };
        if s.round > self.seen && self.playing.is_none_or(|(r, _)| r != s.round) {
            self.playing = Some((s.round, now));
        }
        let Some((round, t0)) = self.playing.filter(|(r, _)| *r == s.round) else {
            return 0;
        };
        let len = s.lines.len();
        let elapsed = now - t0;
        if elapsed >= LINE_SECS * len as f64 + HOLD_SECS {
            self.put_away(round);
            return 0;
        }
        ((elapsed / LINE_SECS) as usize + 1).min(len)
    }

    fn put_away(&mut self, round: u8) {
        self.seen = self.seen.max(round);
        self.playing = None;
    }

    /// Shows every line now (its hold starts now).
    fn skip(&mut self, len: usize, now: f64) {
        if let Some(p) = self.playing.as_mut() {
            p.1 = now - LINE_SECS * len as f64;
        }
    }
}

/// The colour a line's change shows in: damage red, shields and help gold.
fn colour(c: &Change) -> egui::Color32 {
    match c.why {
        Why::Damage | Why::TrueDamage | Why::Brutal | Why::Slain | Why::CupDamage => theme::BAD,
        _ => theme::ACCENT,
    }
}

/// The window: the lines shown so far, the newest marked, and Skip or
/// Continue. A phone's board is all its middle: the window shows over
/// the top bar, its last lines only (the notebook has them all).
fn window(ctx: &egui::Context, s: &Settled, lines: &[String], i18n: &I18n) -> Option<bool> {
    let n = lines.len();
    let title = i18n.ta("wanning-settlement", &[("round", s.round.into())]);
    let (window, narrow) = widgets::settlement_window(ctx, title, 72.0, 340.0);
    let window = window.resizable(false);
    let first = if narrow { n.saturating_sub(3) } else { 0 };
    let mut pressed = None;
    window.show(ctx, |ui| {
        for (k, (c, line)) in s.lines.iter().zip(lines).enumerate().skip(first) {
            let mut text = egui::RichText::new(line);
            if k + 1 == n {
                text = text.strong().color(colour(c));
            }
            ui.label(text);
        }
        let done = n >= s.lines.len();
        let (key, name) = if done {
            ("table-continue", "settlement-continue")
        } else {
            ("wanning-skip", "settlement-skip")
        };
        let button = ui.button(i18n.t(key));
        reach::control(&button, name, Does::Pick);
        if button.clicked() {
            pressed = Some(done);
        }
    });
    pressed
}

/// Plays the viewer's newest settlement out, and tells the screen's
/// account its lines as they show.
fn play(
    mut contexts: EguiContexts,
    model: Res<ClientModel>,
    i18n: Res<I18n>,
    time: Res<Time<Real>>,
    mut playing: ResMut<Playing>,
    mut said: ResMut<reach::Said>,
) -> Result {
    let view: Option<&WanningView> = model.view_of::<WanningGame>();
    let settled = view.and_then(|v| v.settled.as_ref());
    let over = view.is_some_and(|v| v.result.is_some());
    let now = time.elapsed_secs_f64();
    let n = playing.lines_shown(settled, over, now);
    let shown: Vec<String> = settled
        .map(|s| {
            s.lines[..n]
                .iter()
                .map(|c| i18n.pick(&change_line(s.round, c)).to_string())
                .collect()
        })
        .unwrap_or_default();
    if said.settlement != shown {
        said.settlement = shown;
    }
    let Some(s) = settled.filter(|_| n > 0) else {
        return Ok(());
    };
    match window(contexts.ctx_mut()?, s, &said.settlement, &i18n) {
        Some(true) => playing.put_away(s.round),
        Some(false) => playing.skip(s.lines.len(), now),
        None => {}
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
            play.run_if(in_state(TableScreen::Game(GameId::Wanning))),
        )
        .add_systems(OnExit(Screen::Table), reset);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settled(round: u8, lines: usize) -> Settled {
        let line = Change {
            why: Why::Damage,
            hp: -1,
            shields: 0,
            hp_after: 2,
            shields_after: 0,
        };
        Settled {
            round,
            lines: vec![line; lines],
            ..Settled::default()
        }
    }

    /// Issue 71: "Wanning settles at once and explains nothing ... rounds
    /// 2-5 then ran by in about 6 seconds". A settlement's lines show one
    /// after another; Skip shows them all; played out, it stays its hold
    /// and then goes; once gone it does not come back, and the next
    /// round's settlement plays in turn; a round that changed nothing, or
    /// the game over (its summary shows), none.
    #[test]
    fn a_settlement_plays_out_line_by_line_and_goes() {
        let mut p = Playing::default();
        let one = settled(1, 3);
        assert_eq!(p.lines_shown(Some(&one), false, 10.0), 1, "the first line");
        assert_eq!(p.lines_shown(Some(&one), false, 10.0 + LINE_SECS), 2);
        assert_eq!(
            p.lines_shown(Some(&one), false, 10.0 + 5.0 * LINE_SECS),
            3,
            "no more than it has"
        );
        let gone = 10.0 + 3.0 * LINE_SECS + HOLD_SECS;
        assert_eq!(
            p.lines_shown(Some(&one), false, gone),
            0,
            "played out and held: gone"
        );
        assert_eq!(
            p.lines_shown(Some(&one), false, gone + 1.0),
            0,
            "and not again"
        );
        let two = settled(2, 4);
        assert_eq!(
            p.lines_shown(Some(&two), false, 50.0),
            1,
            "the next round's begins"
        );
        p.skip(4, 50.5);
        assert_eq!(
            p.lines_shown(Some(&two), false, 50.5),
            4,
            "Skip: every line"
        );
        p.put_away(2);
        assert_eq!(p.lines_shown(Some(&two), false, 51.0), 0, "Continue: gone");
        assert_eq!(
            p.lines_shown(Some(&settled(3, 0)), false, 60.0),
            0,
            "nothing changed: no window"
        );
        assert_eq!(
            p.lines_shown(Some(&settled(4, 2)), true, 70.0),
            0,
            "the game over: the summary"
        );
    }
}
