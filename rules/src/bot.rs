//! Bots sit at empty seats. A bot sees only its seat's view, as a person
//! would: it cannot read the table's world.

use rand_chacha::ChaCha8Rng;

use crate::table::Game;

/// A game's bots by kind: what a scenario's `PlayOn` and the hall seat.
pub trait Bots: Game + Sized {
    /// A bot of this kind (`None`: no such kind).
    fn bot(kind: &str) -> Option<Box<dyn Bot<Self>>>;
}

pub trait Bot<G: Game>: Send {
    /// The bot's kind, as reports name it ("random", "memory").
    fn kind(&self) -> &'static str;
    /// What to do, given the seat's view; `None` when there is nothing to do.
    fn act(&mut self, view: &G::View, rng: &mut ChaCha8Rng) -> Option<G::Action>;
}
