//! Seats at a table, numbered from 0 in the order play goes round.

use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

use super::SeatName;
use crate::text::Bilingual;

/// A seat number. Shown to people 1-based ("seat 1" is `SeatId(0)`).
/// In files and on screen a seat is its 1-based number.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SeatId(pub u8);

impl Serialize for SeatId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // u16: seat 256 (SeatId(255)) still has a number.
        s.serialize_u16(u16::from(self.0) + 1)
    }
}

impl<'de> Deserialize<'de> for SeatId {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let n = u16::deserialize(d)?;
        if n == 0 || n > 256 {
            return Err(serde::de::Error::custom("seats are numbered from 1 to 256"));
        }
        Ok(SeatId((n - 1) as u8))
    }
}

impl SeatId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl std::fmt::Display for SeatId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0 + 1)
    }
}

/// Who sits where. Names are public; whether a seat is a bot is public too.
#[derive(Resource, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seats {
    pub names: Vec<SeatName>,
}

impl Seats {
    pub fn numbered(count: usize) -> Self {
        Self {
            names: (1..=count)
                .map(|n| SeatName::Person(format!("P{n}")))
                .collect(),
        }
    }

    pub fn count(&self) -> usize {
        self.names.len()
    }

    pub fn ids(&self) -> impl Iterator<Item = SeatId> + '_ {
        (0..self.names.len()).map(|i| SeatId(i as u8))
    }

    pub fn contains(&self, seat: SeatId) -> bool {
        seat.index() < self.names.len()
    }

    /// The seat's name, `None` for a seat the table does not have.
    pub fn name(&self, seat: SeatId) -> Option<&SeatName> {
        self.names.get(seat.index())
    }

    /// The seat's name with its number, "Ann (1)", in both languages; a
    /// bot named by its kind and number as it is ("memory bot 3").
    pub fn words_numbered(&self, seat: SeatId) -> Bilingual {
        let name = self.words(seat);
        if self.name(seat).is_some_and(SeatName::numbered) {
            return name;
        }
        Bilingual::new(
            format!("{} ({seat})", name.en),
            format!("{} ({seat})", name.zh),
        )
    }

    /// The seat's name in both languages ("?" for a seat the table does
    /// not have).
    pub fn words(&self, seat: SeatId) -> Bilingual {
        self.name(seat)
            .map_or_else(|| Bilingual::new("?", "?"), SeatName::words)
    }

    /// The seat after `seat`, going round the table.
    pub fn next(&self, seat: SeatId) -> SeatId {
        SeatId(((seat.index() + 1) % self.count()) as u8)
    }
}

/// The entity of each seat, indexed by seat: whatever iterates seats goes
/// in seat order through this, never in entity order. Snapshots name seats
/// by [`SeatId`], never by `Entity`.
#[derive(Resource, Clone, Debug, Default)]
pub struct SeatEntities(pub Vec<Entity>);

impl SeatEntities {
    /// Spawns one entity per seat, each carrying its [`SeatId`].
    pub fn spawn(world: &mut World, seats: usize) -> Self {
        Self(
            (0..seats)
                .map(|i| world.spawn(SeatId(i as u8)).id())
                .collect(),
        )
    }

    pub fn get(&self, seat: SeatId) -> Entity {
        self.0[seat.index()]
    }

    /// Seats and their entities, in seat order.
    pub fn iter(&self) -> impl Iterator<Item = (SeatId, Entity)> + '_ {
        self.0
            .iter()
            .enumerate()
            .map(|(i, e)| (SeatId(i as u8), *e))
    }
}

/// A seat's component, read from a world that may not change (a judge, a
/// view). Every seat has its game's components.
pub fn seat_part<T: Component>(world: &World, seat: SeatId) -> &T {
    Seated::new(world).get(seat)
}

/// The seats' components, read with one lookup of the seat index (views
/// and `to_act` read many).
#[derive(Clone, Copy)]
pub struct Seated<'w> {
    world: &'w World,
    pub seats: &'w SeatEntities,
}

impl<'w> Seated<'w> {
    pub fn new(world: &'w World) -> Self {
        Self {
            world,
            seats: world.resource::<SeatEntities>(),
        }
    }

    pub fn get<T: Component>(&self, seat: SeatId) -> &'w T {
        self.world
            .get::<T>(self.seats.get(seat))
            .expect("every seat has its components")
    }
}
