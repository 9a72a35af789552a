//! The table's one source of randomness. Everything random at a table (deals,
//! default actions) draws from this resource, so the same seed and the same
//! inputs always give the same game. Its state is part of every snapshot.

use bevy_ecs::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableRng(pub ChaCha8Rng);

impl TableRng {
    pub fn seeded(seed: u64) -> Self {
        Self(ChaCha8Rng::seed_from_u64(seed))
    }
}
