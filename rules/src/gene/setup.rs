//! The set-up and the start of each round (rules.md §2-§4): gene panels
//! and spawn rooms in secret, then order cards and the free phase.

use bevy_ecs::prelude::*;
use bevy_ecs::system::SystemParam;
use bevy_state::prelude::*;
use rand::seq::{IndexedRandom, SliceRandom};

use super::map::{RoomId, map};
use super::settle::{Genes, numbers};
use super::state::*;
use crate::table::{Accepted, SeatEntities, SeatId, TableRng};

/// Set-up: the gene panel and the secret spawn room.
pub fn prepare(
    mut acts: MessageReader<Accepted<GeneAction>>,
    seats: Res<SeatEntities>,
    mut players: Query<(&mut Panel, &mut Place)>,
    mut news: MessageWriter<GeneNews>,
) {
    for a in acts.read() {
        if let GeneAction::Prepare { genes, spawn } = a.action {
            let (mut panel, mut place) = players.get_mut(seats.get(a.seat)).expect("a seat");
            panel.genes = Some(genes);
            place.0 = Some(spawn);
            news.write(GeneNews::Spawned {
                seat: a.seat,
                room: spawn,
            });
        }
    }
}

/// Set-up's clock ran out: the referee gives each player who has not
/// prepared a balanced panel and a random spawn room.
pub fn setup_time_up(
    seats: &SeatEntities,
    players: &mut Query<(&mut Panel, &mut Place)>,
    rng: &mut TableRng,
    news: &mut MessageWriter<GeneNews>,
) {
    let spawns: Vec<RoomId> = map().spawn_rooms().collect();
    for (seat, e) in seats.iter() {
        let (mut panel, mut place) = players.get_mut(e).expect("a seat");
        if panel.genes.is_some() {
            continue;
        }
        let room = *spawns.choose(&mut rng.0).expect("a map has spawn rooms");
        let genes = Genes::balanced(numbers().gene_points);
        panel.genes = Some(genes);
        place.0 = Some(room);
        news.write(GeneNews::SetupTimeUp { seat, genes, room });
    }
}

/// Everything the start of a round touches.
#[derive(SystemParam)]
pub struct RoundStart<'w, 's> {
    pub seats: Res<'w, SeatEntities>,
    pub calendar: ResMut<'w, Calendar>,
    pub rng: ResMut<'w, TableRng>,
    pub doings: Query<'w, 's, (&'static mut Doings, &'static mut Panel, &'static mut Hand)>,
    pub secrets: ResMut<'w, Secrets>,
    pub offers: ResMut<'w, TradeOffers>,
    pub news: MessageWriter<'w, GeneNews>,
    pub next: ResMut<'w, NextState<GenePhase>>,
    pub scripted: Option<ResMut<'w, super::state::ScriptedOrders>>,
}

impl RoundStart<'_, '_> {
    /// Deals order cards for the next round and opens its free phase.
    /// `order`: the cards as a script deals them (else a scenario's next
    /// scripted order, else the generator's).
    pub fn begin(&mut self, order: Option<&[SeatId]>) {
        self.calendar.round += 1;
        let round = self.calendar.round;
        let mut dealt: Vec<SeatId> = self.seats.iter().map(|(s, _)| s).collect();
        dealt.shuffle(&mut self.rng.0);
        let scripted = match order {
            Some(o) => Some(o.to_vec()),
            None => self.scripted.as_mut().and_then(|q| q.0.pop_front()),
        };
        let dealt = scripted.unwrap_or(dealt);
        for (n, s) in dealt.iter().enumerate() {
            self.news.write(GeneNews::OrderCard {
                seat: *s,
                round,
                card: n as u8 + 1,
            });
        }
        self.calendar.order = dealt;
        self.calendar.turn = 0;
        for (mut doings, mut panel, mut hand) in &mut self.doings {
            *doings = Doings::default();
            panel.operated = false;
            hand.must_drop = 0;
        }
        *self.secrets = Secrets::default();
        self.offers.0.clear();
        self.news.write(GeneNews::FreePhase { round });
        NextState::set_if_neq(&mut self.next, GenePhase::Free);
    }
}

/// Everyone has prepared: round 1 begins.
pub fn begin_when_prepared(mut start: RoundStart) {
    if start.doings.iter().all(|(_, p, _)| p.genes.is_some()) {
        start.begin(None);
    }
}
