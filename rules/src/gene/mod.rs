//! Gene Survival (基因暗影, seed: `gene-survival.txt`). Work in progress:
//! the map and its movement rules come first; the rules document is
//! `rules.md` beside this file.

pub mod map;

pub use map::{FloorId, ItemKind, Map, MapError, RoomFunction, RoomId, map};
