//! Gene Survival: a game against five bots.
//!
//! Its tour (`dev` feature): the steps `tour.rs` runs for it.

use foodweb_netcode::games::AnyAction;
use foodweb_rules::GameId;
use foodweb_rules::gene::{
    GeneAction, GeneGame, GenePhase, GeneTiming, Genes, ItemKind, RoomId, map,
};
use foodweb_rules::table::SeatId;

use super::panels::GeneUi;
use super::setup::GeneForm;
use crate::client::net::SeatSide;
use crate::client::tour::*;

fn gene_view<'a>(c: &'a Ctx) -> Option<&'a foodweb_rules::gene::GeneView> {
    c.model.view_of::<GeneGame>()
}

fn gene_start(c: &mut Ctx) {
    c.start(GameId::Gene, 6, 11);
    c.form::<GeneForm>().timing = GeneTiming::Untimed;
}

fn gene_setting_up(c: &Ctx) -> bool {
    gene_view(c).is_some_and(|v| v.phase == GenePhase::Setup)
}

/// The picture shows the gene editor and the chosen room.
fn gene_spawn(c: &mut Ctx) {
    c.ui::<GeneUi>(|ui| ui.spawn = map().by_key("e2-office"));
}

fn gene_prepare(c: &mut Ctx) {
    // The room the set-up step chose.
    let spawn = map().by_key("e2-office").unwrap_or(RoomId(0));
    let genes = Genes {
        strength: 4,
        speed: 3,
        carry: 3,
    };
    c.act(AnyAction::Gene(GeneAction::Prepare { genes, spawn }));
}

fn gene_free(c: &Ctx) -> bool {
    gene_view(c).is_some_and(|v| v.phase == GenePhase::Free)
}

fn gene_trade(c: &mut Ctx) {
    c.ui::<GeneUi>(|ui| {
        let trade = &mut ui.trade;
        trade.open = true;
        trade.to = Some(SeatId(2));
        trade.want = vec![ItemKind::Water, ItemKind::Food];
        trade.swap_order = true;
    });
}

fn gene_ready(c: &mut Ctx) {
    c.ui::<GeneUi>(|ui| ui.trade.open = false);
    c.act(AnyAction::Gene(GeneAction::Ready));
}

fn gene_to_move(c: &Ctx) -> bool {
    gene_view(c).is_some_and(|v| v.phase == GenePhase::Action && v.to_act && !v.moved)
}

fn gene_settling(c: &Ctx) -> bool {
    gene_view(c).is_some_and(|v| v.round >= 2 && !v.settlement.is_empty())
}

fn gene_over(c: &Ctx) -> bool {
    gene_view(c).is_some_and(|v| v.result.is_some())
}

pub const STEPS: &[Step] = &[
    step(now, gene_start, 4.0, None),
    step(gene_setting_up, gene_spawn, 1.0, Some("gene-setup")),
    step(now, gene_prepare, 1.0, None),
    step(gene_free, gene_trade, 1.0, Some("gene-trade")),
    step(now, gene_ready, 0.5, None),
    step(gene_to_move, nothing, 0.5, Some("gene-action")),
    // A few lines into the settlement's playback.
    playing(gene_settling, nothing, 5.0, Some("gene-settlement")),
    step(now, chinese, 1.0, None),
    playing(gene_to_move, nothing, 0.5, Some("gene-zh")),
    playing(gene_over, nothing, 20.0, Some("gene-game-over")),
    step(now, replay_open, 1.0, None),
    step(replay_loaded, replay_middle, 2.0, Some("gene-replay")),
    step(now, replay_close, 0.5, None),
];
