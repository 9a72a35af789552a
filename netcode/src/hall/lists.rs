//! The lobby's list of tables (issue 70). Every connection not at a table
//! is sent the list when it changes, but no more often than
//! `HallConfig::list_every_ms`, and the lists together take no more than
//! `HallConfig::list_bytes_per_sec` of the server's sending: when many
//! tables open or fill at once before many guests (a busy server, or
//! guests opening tables as fast as they may), each lobby connection is
//! sent the latest list less often, rather than one a change. With 100
//! tables and 168 guests in the lobby, four lists a second were 16 MB/s;
//! the server's socket, busy sending them, dropped what guests sent (a
//! `CreateTable` arrived 30 s late). A connection that has not taken what
//! it was sent (`Hall::hold_views`) is sent no list until it has, then
//! only the latest: lists in between are coalesced, never queued.
//! Lessons are not listed: they are one person's, not tables to join or
//! watch (`hall/room.rs`).

use super::{ClientKey, Hall};
use crate::messages::{ServerMsg, TableSummary};

/// By default, the lobby's list goes out at most this often: a table
/// opened shows in every lobby within a quarter of a second.
pub const LIST_EVERY_MS: u64 = 250;

/// By default, the lobby's lists together take at most this many bytes a
/// second: a party's few tables go out every `LIST_EVERY_MS`; a server
/// with a hundred tables and as many guests in its lobby sends each its
/// list every few seconds.
pub const LIST_BYTES_PER_SEC: u64 = 512 * 1024;

impl Hall {
    /// Marks the list due for every lobby connection once the last list's
    /// period has passed, and sends it to each due one whose views are
    /// not held. A change within the period waits for it (the next update
    /// sends it: `next_list_due`).
    pub(super) fn send_lists(&mut self, keys: &[ClientKey]) {
        let quiet = self.next_list_at.is_none_or(|at| self.now >= at);
        if self.tables_changed && quiet {
            self.tables_changed = false;
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
        let period = self.list_period(&tables, due.len());
        self.next_list_at = Some(self.now.saturating_add(period));
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

    /// How long until the next list may go, after `tables` went to
    /// `receivers` connections: `list_every_ms`, or longer when those
    /// bytes need longer under `list_bytes_per_sec`.
    fn list_period(&self, tables: &[TableSummary], receivers: usize) -> u64 {
        let budget = self.config.list_bytes_per_sec;
        let every = self.config.list_every_ms;
        if budget == 0 {
            return every;
        }
        let bytes = postcard::to_allocvec(tables).map_or(0, |b| b.len() as u64);
        every.max(bytes.saturating_mul(receivers as u64).saturating_mul(1000) / budget)
    }

    /// When a list held back by the period is due (`Hall::next_due`).
    pub(super) fn next_list_due(&self) -> Option<u64> {
        let at = self.next_list_at?;
        self.tables_changed.then_some(at)
    }

    /// The lobby's list: every table from `listed_from` on but lessons.
    pub(super) fn summaries(&self) -> Vec<TableSummary> {
        self.tables
            .range(self.listed_from..)
            .filter(|(_, t)| !t.lesson)
            .map(|(_, t)| t.summary())
            .collect()
    }
}
