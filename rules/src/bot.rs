//! Bots sit at empty seats. A bot sees only its seat's view, as a person
//! would: it cannot read the table's world.

use rand_chacha::ChaCha8Rng;

use crate::table::Game;

pub trait Bot<G: Game>: Send {
    /// The bot's kind, as reports name it ("random", "memory").
    fn kind(&self) -> &'static str;
    /// What to do, given the seat's view; `None` when there is nothing to do.
    fn act(&mut self, view: &G::View, rng: &mut ChaCha8Rng) -> Option<G::Action>;
}
