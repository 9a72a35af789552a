//! Room for real tables (issue 70): what a guest can make the hall keep
//! without playing. Lessons are not tables (in memory, one per
//! connection) and have bounds of their own; tables that have not started
//! are bounded per address; one where nobody has done anything for a
//! while closes, and at the table cap the oldest idle one makes room for
//! a new table, as joined-but-idle guests make room for connections
//! (`server::guard_links`). A table under way is never asked to.

use std::net::IpAddr;

use super::{ClientKey, Hall, HallTable, reject};
use crate::messages::TableId;
use foodweb_rules::table::Rejection;

/// By default, an unstarted table idle this long makes room for a new one
/// when the hall holds all the tables it may (`HallConfig::room_idle_ms`):
/// long enough for a party to gather round a table it has just opened.
pub const ROOM_IDLE_MS: u64 = 60_000;

impl Hall {
    /// The tables that count against `HallConfig::max_tables`: all but
    /// lessons and games that have ended (their people may still be
    /// reading the summary; a server that has seen its cap's worth of
    /// games still opens tables).
    fn table_places_taken(&self) -> usize {
        self.tables
            .values()
            .filter(|t| !t.lesson && !t.is_over())
            .count()
    }

    /// Refused when the hall holds all the tables it may and none of
    /// those not yet started has been idle for `HallConfig::room_idle_ms`; otherwise
    /// the one idle longest closes to make room.
    pub(super) fn room_for_a_table(&mut self) -> Result<(), Rejection> {
        let max = self.config.max_tables;
        if self.table_places_taken() < max {
            return Ok(());
        }
        let (now, room_idle) = (self.now, self.config.room_idle_ms);
        let idlest = self
            .tables
            .values()
            .filter(|t| closable(t) && now.saturating_sub(t.active_at) >= room_idle)
            .min_by_key(|t| (t.active_at, t.id))
            .map(|t| t.id);
        match idlest {
            Some(tid) => {
                let mins = (now.saturating_sub(self.tables[&tid].active_at) / 60_000).max(1);
                self.close_unstarted(
                    tid,
                    reject(
                        format!(
                            "table {tid} closed to make room for a new one: nobody there had done anything for {mins} min"
                        ),
                        format!("第 {tid} 桌已关闭，为新桌腾出位置：{mins} 分钟内桌上无人操作"),
                    ),
                );
                Ok(())
            }
            None => Err(reject(
                format!("this server has {max} tables already: join one, or wait for one to end"),
                format!("这个服务器已有 {max} 张桌子：加入其中一张，或等一张结束"),
            )),
        }
    }

    /// Refused when the sender's address already has as many tables
    /// waiting to start as it may (`HallConfig::unstarted_per_address`).
    pub(super) fn room_for_an_unstarted_table(&self, client: ClientKey) -> Result<(), Rejection> {
        let Some(addr) = self.address(client) else {
            return Ok(());
        };
        let max = self.config.unstarted_per_address;
        let waiting = self
            .tables
            .values()
            .filter(|t| !t.lesson && !t.started() && self.opener_address(t) == Some(addr))
            .count();
        if waiting >= max {
            return Err(reject(
                format!(
                    "{waiting} tables opened from your address are waiting to start: start or leave one first"
                ),
                format!("从你的地址开的 {waiting} 张桌子都还没开始：请先开始或离开其中一张"),
            ));
        }
        Ok(())
    }

    /// Refused past the hall's bound on lessons, or its bound on lessons
    /// from one address.
    pub(super) fn room_for_a_lesson(&self, client: ClientKey) -> Result<(), Rejection> {
        let lessons = || self.tables.values().filter(|t| t.lesson);
        let max = self.config.max_lessons;
        if lessons().count() >= max {
            return Err(reject(
                format!("this server has {max} lessons under way: try again in a few minutes"),
                format!("这个服务器正在进行 {max} 个教学局：请几分钟后再试"),
            ));
        }
        if let Some(addr) = self.address(client) {
            let max = self.config.lessons_per_address;
            let here = lessons()
                .filter(|t| self.opener_address(t) == Some(addr))
                .count();
            if here >= max {
                return Err(reject(
                    format!("{here} lessons are under way from your address: finish one first"),
                    format!("你的地址正在进行 {here} 个教学局：请先完成其中一个"),
                ));
            }
        }
        Ok(())
    }

    /// Closes every table that has not started and where nobody has done
    /// anything for `HallConfig::idle_table_ms`.
    pub(super) fn close_idle_tables(&mut self, now: u64) {
        let idle = self.config.idle_table_ms;
        let due: Vec<TableId> = self
            .tables
            .values()
            .filter(|t| closable(t) && now.saturating_sub(t.active_at) >= idle)
            .map(|t| t.id)
            .collect();
        for tid in due {
            let mins = (idle / 60_000).max(1);
            self.close_unstarted(
                tid,
                reject(
                    format!(
                        "table {tid} closed: it did not start, and nobody there did anything for {mins} min"
                    ),
                    format!("第 {tid} 桌已关闭：它没有开始，{mins} 分钟内桌上无人操作"),
                ),
            );
        }
    }

    /// When the next table not started closes for being idle.
    pub(super) fn next_idle_due(&self) -> Option<u64> {
        let idle = self.config.idle_table_ms;
        self.tables
            .values()
            .filter(|t| closable(t))
            .map(|t| t.active_at.saturating_add(idle))
            .min()
    }

    /// Something was done at the sender's table: it is not idle.
    pub(super) fn table_active(&mut self, client: ClientKey) {
        let now = self.now;
        if let Some((tid, _)) = self.place(client)
            && let Some(t) = self.tables.get_mut(&tid)
        {
            t.active_at = now;
        }
    }

    /// Everyone at `tid` is told `why` and goes back to the lobby; the
    /// table is gone.
    fn close_unstarted(&mut self, tid: TableId, why: Rejection) {
        let Some(t) = self.tables.get(&tid) else {
            return;
        };
        let mut people: Vec<ClientKey> = t.seats.iter().filter_map(|s| s.client).collect();
        people.extend(t.host.as_ref().and_then(|h| h.client));
        people.extend(t.spectators.iter().copied());
        for client in people {
            if self.place(client).map(|(t, _)| t) != Some(tid) {
                continue;
            }
            self.back_to_lobby(client, Some(&why));
        }
        // Seats whose people are away (a table read back at start).
        self.drop_table(tid);
    }

    /// Where a connection comes from, if over the network.
    fn address(&self, client: ClientKey) -> Option<IpAddr> {
        self.clients.get(&client).and_then(|c| c.addr)
    }

    /// The address of whoever opened and runs `t`: its owner's, or its
    /// host's when the host seat runs it.
    fn opener_address(&self, t: &HallTable) -> Option<IpAddr> {
        let runner = match t.owner {
            Some(seat) => t.seats.get(seat.index()).and_then(|s| s.client),
            None => t.host.as_ref().and_then(|h| h.client),
        };
        runner.and_then(|c| self.address(c))
    }
}

/// A table idleness may close: an ordinary one not started, without
/// seats kept for "Play again" (those have their own minute).
fn closable(t: &HallTable) -> bool {
    !t.lesson && !t.started() && t.kept.is_none()
}
