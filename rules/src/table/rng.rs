//! The table's one source of randomness. Everything random at a table (deals,
//! default actions) draws from this resource, so the same seed and the same
//! inputs always give the same game. Its state is part of every snapshot.

use bevy_ecs::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Boxed: a resource is stored with room for 64 of its kind (Bevy's
/// sparse sets), so a generator of 300-odd bytes held inline would keep
/// room for 64 of them in every table. Saved and read the same as the
/// generator itself.
#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableRng(pub Box<ChaCha8Rng>);

impl TableRng {
    pub fn seeded(seed: u64) -> Self {
        Self(Box::new(ChaCha8Rng::seed_from_u64(seed)))
    }
}
