//! Trading between two seats, for every game that lets players trade:
//! one seat offers, the other accepts or declines, the offerer may
//! withdraw. What is traded (life points, cards) and whether a side can
//! pay is the game's; who offered what to whom is kept here, once.

use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

use super::SeatId;

/// `from` offers `give` for `want` of `to`'s.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Offer<T> {
    pub from: SeatId,
    pub to: SeatId,
    pub give: T,
    pub want: T,
}

/// Offers made and not yet answered: at most one from a seat to another
/// (a new offer replaces the older one), in the order they were made.
#[derive(Resource, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Offers<T>(pub Vec<Offer<T>>);

impl<T> Default for Offers<T> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

/// Why a trade move is refused, whatever the goods.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TradeRefusal {
    /// Accept or decline: `from` made the seat no offer.
    NoOfferToYou,
    /// Withdraw: the seat made `to` no offer.
    NoOfferFromYou,
}

impl From<TradeRefusal> for super::Rejection {
    fn from(r: TradeRefusal) -> Self {
        match r {
            TradeRefusal::NoOfferToYou => Self::said("no-offer-to-you", &[]),
            TradeRefusal::NoOfferFromYou => Self::said("no-offer-from-you", &[]),
        }
    }
}

impl<T: Clone + PartialEq> Offers<T> {
    pub fn between(&self, from: SeatId, to: SeatId) -> Option<&Offer<T>> {
        self.0.iter().find(|o| o.from == from && o.to == to)
    }

    /// The offer `from` made to `seat`, for accepting or declining.
    pub fn to_answer(&self, seat: SeatId, from: SeatId) -> Result<&Offer<T>, TradeRefusal> {
        self.between(from, seat).ok_or(TradeRefusal::NoOfferToYou)
    }

    /// The offer `seat` made to `to`, for withdrawing.
    pub fn to_withdraw(&self, seat: SeatId, to: SeatId) -> Result<&Offer<T>, TradeRefusal> {
        self.between(seat, to).ok_or(TradeRefusal::NoOfferFromYou)
    }

    /// Records an offer, replacing an older one between the same two.
    pub fn put(&mut self, offer: Offer<T>) {
        self.remove(offer.from, offer.to);
        self.0.push(offer);
    }

    pub fn remove(&mut self, from: SeatId, to: SeatId) -> Option<Offer<T>> {
        let at = self.0.iter().position(|o| o.from == from && o.to == to)?;
        Some(self.0.remove(at))
    }

    /// Offers waiting on `seat`'s answer.
    pub fn waiting_on(&self, seat: SeatId) -> bool {
        self.0.iter().any(|o| o.to == seat)
    }

    /// The offers `seat` made or received (what that seat may see).
    pub fn involving(&self, seat: SeatId) -> Vec<Offer<T>> {
        self.0
            .iter()
            .filter(|o| o.from == seat || o.to == seat)
            .cloned()
            .collect()
    }

    /// Drops the offers `keep` refuses and returns them, in order.
    pub fn lapse(&mut self, mut keep: impl FnMut(&Offer<T>) -> bool) -> Vec<Offer<T>> {
        let (kept, lapsed) = std::mem::take(&mut self.0)
            .into_iter()
            .partition(|o| keep(o));
        self.0 = kept;
        lapsed
    }

    /// Every offer to or from `seat` goes (the seat left play).
    pub fn drop_seat(&mut self, seat: SeatId) {
        self.0.retain(|o| o.from != seat && o.to != seat);
    }
}
