//! Forest Showdown: the screens, then a short game, then a LAN lobby.
//!
//! Its tour (`dev` feature): the steps `tour.rs` runs for it.

use foodweb_netcode::games::{AnyAction, AnySettings};
use foodweb_netcode::messages::ClientMsg;
use foodweb_rules::GameId;
use foodweb_rules::forest::{ForestAction, ForestGame, ForestPhase, ForestTiming, deck};
use foodweb_rules::table::SeatId;

use super::panels::TableUi;
use super::setup::ForestForm;
use crate::client::Screen;
use crate::client::net::SeatSide;
use crate::client::tour::*;

fn forest_setup(c: &mut Ctx) {
    c.set_up(GameId::Forest);
    c.setup.seed = 7;
    // A short game, so the tour reaches the score screen.
    let clocks = &mut c.form::<ForestForm>().settings;
    clocks.round_secs = 45;
    clocks.turn_secs = 15;
    clocks.showdown_secs = 10;
}

fn forest_start(c: &mut Ctx) {
    c.setup.your_name = "Ann".into();
    crate::client::screens::request_start(&mut c.commands);
}

fn forest_table_open(c: &Ctx) -> bool {
    c.model.view_of::<ForestGame>().is_some()
}

/// Asks the next seat for a showdown and lays down the first card; the bot
/// answers, and the reveal is on screen for the picture.
fn forest_showdown(c: &mut Ctx) {
    let Some(card) = c
        .model
        .view_of::<ForestGame>()
        .and_then(|v| v.hand.first().copied())
    else {
        return;
    };
    c.act(AnyAction::Forest(ForestAction::AskShowdown {
        target: SeatId(1),
    }));
    c.act(AnyAction::Forest(ForestAction::PlayCard { card }));
}

fn forest_my_turn(c: &Ctx) -> bool {
    c.model
        .view_of::<ForestGame>()
        .is_some_and(|v| v.me == Some(v.active) && v.phase == ForestPhase::Turn && !v.opening_turn)
}

/// Picks a challenge in the table screen (as a player would: a card the
/// table has seen, and a taking card that eats it), so the picture shows
/// the challenge filled in.
fn forest_challenge(c: &mut Ctx) {
    let Some(view) = c.model.view_of::<ForestGame>() else {
        return;
    };
    let legal = |with, named| view.challenge_cards(with, named).is_ok();
    let others: Vec<_> = view.opponents_with_cards().collect();
    let mut choice = None;
    for s in &others {
        for &named in &s.known {
            if let Some(&with) = view.hand.iter().find(|&&w| legal(w, named)) {
                choice = Some((s.seat, named, with));
            }
        }
    }
    if choice.is_none()
        && let (Some(s), Some(&with)) = (others.first(), view.hand.first())
    {
        choice = deck()
            .ids()
            .find(|&n| legal(with, n))
            .map(|n| (s.seat, n, with));
    }
    if let Some((target, named, with)) = choice {
        c.ui::<TableUi>(move |ui| {
            ui.target = Some(target);
            ui.named = Some(named);
            ui.selected = Some(with);
        });
    }
}

fn forest_over(c: &Ctx) -> bool {
    c.model
        .view_of::<ForestGame>()
        .is_some_and(|v| v.result.is_some())
}

fn lan_table(c: &mut Ctx) {
    c.outbox.0.push(ClientMsg::CreateTable {
        settings: AnySettings::Forest(ForestTiming::Quick.settings()),
        seats: 4,
        host_seat: true,
        seed: None,
        open_replays: false,
    });
    c.outbox.0.push(ClientMsg::SetBot {
        seat: SeatId(2),
        kind: Some("memory".into()),
        name: None,
    });
}

pub const STEPS: &[Step] = &[
    step(now, english, 1.0, Some("title-en")),
    step(now, chinese, 1.5, Some("title-zh")),
    step(now, |c| c.next.set(Screen::Picker), 1.5, Some("picker")),
    step(now, forest_setup, 1.5, Some("setup")),
    step(now, forest_start, 6.0, None),
    step(forest_table_open, nothing, 0.5, Some("table")),
    step(now, forest_showdown, 4.0, Some("showdown")),
    step(forest_my_turn, forest_challenge, 0.5, Some("challenge")),
    step(now, english, 1.5, Some("table-en")),
    step(now, chinese, 0.1, None),
    step(forest_over, nothing, 2.0, Some("game-over")),
    step(now, replay_open, 1.0, None),
    step(replay_loaded, replay_middle, 2.0, Some("replay")),
    step(now, replay_save, 0.5, None),
    step(now, replay_close, 0.5, None),
    step(now, host_lan, 2.5, Some("lobby")),
    step(now, past_replay, 1.0, None),
    step(replay_loaded, replay_middle, 2.0, Some("past-replay")),
    step(now, replay_close, 1.5, Some("lobby-after-replay")),
    step(now, lan_table, 1.5, Some("lobby-table")),
    step(now, |c| c.next.set(Screen::Join), 3.0, Some("join")),
    step(now, saved_replays, 1.5, Some("saved-replays")),
];
