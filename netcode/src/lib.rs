//! Foodweb networking and persistence: the hall every kind of play goes
//! through (lobby, seats, bots, saving), the messages it speaks, the table
//! store, and the lightyear server and client that carry those messages
//! over a LAN.

pub mod bench;
pub mod client;
pub mod discovery;
pub mod games;
pub mod hall;
pub mod messages;
pub mod protocol;
pub mod server;
pub mod store;

pub use hall::{ClientKey, Hall, HallConfig};
pub use store::{StoreError, TableStore};

/// The lightyear this crate speaks, for apps that add its plugins.
pub use lightyear;
