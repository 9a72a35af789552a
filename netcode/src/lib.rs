//! Foodweb networking and persistence.
//!
//! Today this crate holds the table store: every table's snapshot, written
//! atomically so a crash never leaves a table half-written. The lightyear
//! protocol, the authoritative server, the lobby and LAN discovery arrive
//! with the LAN issue and build on this store.

pub mod store;

pub use store::{StoreError, TableStore};
