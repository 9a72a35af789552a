//! The lobby's list of tables (issue 70). Every connection not at a table
//! is sent the list when it changes, but no more often than
//! `HallConfig::list_every_ms`: when many tables open or fill at once
//! (a busy server, or a guest opening tables as fast as it may), each
//! lobby connection is sent one list a period, the latest, rather than
//! one a change. A connection that has not taken what it was sent
//! (`Hall::hold_views`) is sent no list until it has, then only the
//! latest: lists in between are coalesced, never queued, so an answer to
//! what it asks never waits behind them.

use super::{ClientKey, Hall};
use crate::messages::ServerMsg;

/// By default, the lobby's list goes out at most this often: a table
/// opened shows in every lobby within a quarter of a second.
pub const LIST_EVERY_MS: u64 = 250;

impl Hall {
    /// Marks the list due for every lobby connection once the period
    /// since the last list has passed, and sends it to each due one whose
    /// views are not held. A change within the period waits for it (the
    /// next update sends it).
    pub(super) fn send_lists(&mut self, keys: &[ClientKey]) {
        let quiet = self
            .list_sent_at
            .is_none_or(|at| self.now >= at.saturating_add(self.config.list_every_ms));
        if self.tables_changed && quiet {
            self.tables_changed = false;
            self.list_sent_at = Some(self.now);
            for c in self.clients.values_mut().filter(|c| c.place.is_none()) {
                c.list_due = true;
            }
        }
        let due: Vec<ClientKey> = keys
            .iter()
            .copied()
            .filter(|k| {
                let c = &self.clients[k];
                c.list_due && c.place.is_none() && !c.held_back
            })
            .collect();
        if due.is_empty() {
            return;
        }
        let tables = self.summaries();
        for k in due {
            if let Some(c) = self.clients.get_mut(&k) {
                c.list_due = false;
            }
            self.outbox.push((
                k,
                ServerMsg::Tables {
                    tables: tables.clone(),
                },
            ));
        }
    }

    /// When a list held back by the period is due (`Hall::next_due`).
    pub(super) fn next_list_due(&self) -> Option<u64> {
        let at = self.list_sent_at?;
        self.tables_changed
            .then(|| at.saturating_add(self.config.list_every_ms))
    }
}
