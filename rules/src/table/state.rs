//! A game's part of a snapshot: each seat's components in seat order, then
//! the table's resources. A game lists them once ([`game_state!`]); taking
//! them from the world and putting them back is the same in every game.

use bevy_ecs::prelude::*;

/// Something of the table a snapshot holds: a resource, or what a game
/// keeps otherwise (an entity of its own).
pub trait TablePart: Sized {
    /// A copy of it as the table holds it now.
    fn take(world: &World) -> Self;
    /// Puts it back in place of what the table holds.
    fn put(self, world: &mut World);
}

/// Makes each listed resource a [`TablePart`].
#[macro_export]
macro_rules! resource_parts {
    ($($t:ty),* $(,)?) => {
        $(
            impl $crate::table::TablePart for $t {
                fn take(world: &::bevy_ecs::world::World) -> Self {
                    world.resource::<$t>().clone()
                }
                fn put(self, world: &mut ::bevy_ecs::world::World) {
                    world.insert_resource(self);
                }
            }
        )*
    };
}

/// A game's snapshot state, listed once: the struct of one seat's
/// components, the struct of the whole table (its `seats`, then its
/// [`TablePart`]s in the order they are saved), and `take` / `put` for
/// both. Missing components are taken as their default.
#[macro_export]
macro_rules! game_state {
    (
        $(#[$sm:meta])*
        pub struct $seat:ident {
            $( $(#[$sfm:meta])* pub $sf:ident : $st:ty ),* $(,)?
        }
        $(#[$gm:meta])*
        pub struct $state:ident {
            pub seats: Vec<$seat2:ident>,
            $( $(#[$gfm:meta])* pub $gf:ident : $gt:ty ),* $(,)?
        }
    ) => {
        $(#[$sm])*
        pub struct $seat {
            $( $(#[$sfm])* pub $sf: $st, )*
        }

        impl $seat {
            /// The seat's components as the table holds them now.
            pub fn take(seat: ::bevy_ecs::world::EntityRef) -> Self {
                Self {
                    $( $sf: seat.get::<$st>().cloned().unwrap_or_default(), )*
                }
            }

            /// Puts the components back on the seat.
            pub fn put(self, seat: &mut ::bevy_ecs::world::EntityWorldMut) {
                seat.insert(( $( self.$sf, )* ));
            }
        }

        $(#[$gm])*
        pub struct $state {
            pub seats: Vec<$seat2>,
            $( $(#[$gfm])* pub $gf: $gt, )*
        }

        impl $crate::table::TablePart for $state {
            /// Everything of the table a snapshot holds, as it is now.
            fn take(world: &::bevy_ecs::world::World) -> Self {
                let seats = world.resource::<$crate::table::SeatEntities>();
                Self {
                    seats: seats.iter().map(|(_, e)| $seat2::take(world.entity(e))).collect(),
                    $( $gf: <$gt as $crate::table::TablePart>::take(world), )*
                }
            }

            /// Puts a snapshot's state back in place of the table's.
            fn put(self, world: &mut ::bevy_ecs::world::World) {
                let seats = world.resource::<$crate::table::SeatEntities>().clone();
                for ((_, e), seat) in seats.iter().zip(self.seats) {
                    seat.put(&mut world.entity_mut(e));
                }
                $( $crate::table::TablePart::put(self.$gf, world); )*
            }
        }
    };
}
