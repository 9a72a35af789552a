//! "Play again" (issue 69): after a game, the next table of the same
//! settings and the same people. The first press opens it, linked to the
//! old one; every seat that a person had is kept for that person a while
//! (`HallConfig::again_ms`), bots sit where bots sat, and the table starts
//! by itself once every kept seat is taken again, or when the time is up
//! (bots take the rest), or when its owner starts it. The old table, its
//! replay and its saved file stay as they were.

use foodweb_rules::table::SeatId;

use super::seating::{HostSlot, Kept, Occupant, Seat};
use super::{ClientKey, Hall, HallTable, fresh_seed, fresh_token, reject};
use crate::games::bot_kinds;
use crate::messages::{Role, TableId};
use foodweb_rules::table::Rejection;

impl Hall {
    /// The sender, seated at a finished table (or its host), sits at its
    /// next table: opened by the first of them to ask.
    pub(super) fn play_again(&mut self, client: ClientKey) -> Result<(), Rejection> {
        let (from, role) = self
            .place(client)
            .ok_or_else(|| reject("you are not at a table", "你不在任何一桌"))?;
        let t = &self.tables[&from];
        if t.lesson {
            return Err(reject(
                "a guided game starts again from \"Learn to play\"",
                "教学局请从“学习玩法”重新开始",
            ));
        }
        if !t.is_over() {
            return Err(reject("the game is not over yet", "这局还没结束"));
        }
        let mine = match role {
            Role::Player(seat) => t.seats[seat.index()].client == Some(client),
            Role::Host => t.host.as_ref().is_some_and(|h| h.client == Some(client)),
            Role::Spectator => false,
        };
        if !mine {
            return Err(reject(
                "only those who played can play again: open or join a table in the lobby",
                "只有玩过这局的人才能再来一局：请在大厅开桌或加入",
            ));
        }
        let next = match t.again.filter(|n| self.tables.contains_key(n)) {
            Some(next) => next,
            None => self.open_again(from)?,
        };
        let n = &self.tables[&next];
        let kept = n.kept.as_ref().filter(|_| !n.started());
        let free = match (role, kept) {
            (Role::Player(seat), Some(k)) => k.seats.get(seat.index()).is_some_and(Option::is_some),
            (Role::Host, Some(k)) => k.host.is_some(),
            _ => false,
        };
        if !free {
            return Err(reject(
                "the next game has begun without your seat: join a table in the lobby",
                "下一局已经开始，没有你的座位：请在大厅加入一桌",
            ));
        }
        self.detach(client);
        let name = self.clients[&client].name.clone();
        let token = fresh_token();
        let n = self.tables.get_mut(&next).expect("just found");
        let k = n.kept.as_mut().expect("kept");
        match role {
            Role::Player(seat) => {
                k.seats[seat.index()] = None;
                let name = n.distinct_name(seat.index(), &name);
                let mut sat = Seat::person(name, token.clone(), client);
                if let Occupant::Person { ready, .. } = &mut sat.occupant {
                    // Pressing "Play again" is being ready.
                    *ready = true;
                }
                n.seats[seat.index()] = sat;
                if n.owner.is_none() && !n.host_runs {
                    n.owner = Some(seat);
                }
            }
            _ => {
                k.host = None;
                n.host = Some(HostSlot {
                    name,
                    token: token.clone(),
                    client: Some(client),
                });
            }
        }
        self.attach(client, next, role, Some(token));
        self.table_changed(next);
        if self.tables[&next].kept.as_ref().is_some_and(Kept::is_empty) {
            self.begin_again(next);
        }
        Ok(())
    }

    /// Opens the table that follows `from`: its settings, seats, host
    /// seat and replays; its bots; each person's seat kept for them.
    fn open_again(&mut self, from: TableId) -> Result<TableId, Rejection> {
        self.room_for_a_table()?;
        let id = self.next_table;
        self.next_table += 1;
        let now = self.now;
        let until = now + self.config.again_ms;
        let t = &self.tables[&from];
        let seats = t
            .seats
            .iter()
            .map(|s| match &s.occupant {
                Occupant::Bot { .. } => Seat {
                    occupant: s.occupant.clone(),
                    client: None,
                    away_since: None,
                },
                _ => Seat::open(),
            })
            .collect();
        let kept = Kept {
            seats: t
                .seats
                .iter()
                .map(|s| match &s.occupant {
                    Occupant::Person { name, .. } => Some(name.clone()),
                    _ => None,
                })
                .collect(),
            host: t.host.as_ref().map(|h| h.name.clone()),
            until,
        };
        let mut next = HallTable::new(
            id,
            t.settings.clone(),
            fresh_seed(),
            t.has_host_seat,
            seats,
            t.open_replays,
            now,
        );
        // Its owner is the first to sit again; a table its host ran is
        // run by its host again.
        next.owner = None;
        next.host_runs = t.host_runs && kept.host.is_some();
        next.kept = Some(kept);
        self.tables.insert(id, next);
        self.tables.get_mut(&from).expect("the old table").again = Some(id);
        Ok(id)
    }

    /// What is still kept at `tid` goes, just before it starts: its seats
    /// to the game's best bot; a host seat its host did not come back to
    /// stays empty, as a started table's does (no code is made for it).
    pub(super) fn release_kept(&mut self, tid: TableId) {
        let Some(t) = self.tables.get_mut(&tid) else {
            return;
        };
        let Some(kept) = t.kept.take() else {
            return;
        };
        let best = bot_kinds(t.settings.game())
            .first()
            .copied()
            .unwrap_or("random");
        for (i, name) in kept.seats.iter().enumerate() {
            if name.is_some() && t.seats[i].occupant == Occupant::Open {
                t.seats[i].occupant = Occupant::Bot {
                    kind: best.to_string(),
                    name: None,
                };
            }
        }
        if t.has_host_seat && t.host.is_none() {
            t.host_runs = false;
        }
        if t.owner.is_none() && !t.host_runs {
            t.owner = t
                .seats
                .iter()
                .position(|s| matches!(s.occupant, Occupant::Person { .. }))
                .map(|i| SeatId(i as u8));
        }
        self.table_changed(tid);
    }

    /// Starts a "Play again" table whose kept seats are all taken again or
    /// given to bots.
    fn begin_again(&mut self, tid: TableId) {
        self.release_kept(tid);
        if let Err(e) = self.begin(tid) {
            eprintln!("foodweb: table {tid} could not start again: {e}");
        }
    }

    /// "Play again" tables whose time to sit again is up: bots take the
    /// rest and they start.
    pub(super) fn expire_kept(&mut self, now: u64) {
        let due: Vec<TableId> = self
            .tables
            .values()
            .filter(|t| !t.started() && t.kept.as_ref().is_some_and(|k| now >= k.until))
            .map(|t| t.id)
            .collect();
        for tid in due {
            self.begin_again(tid);
        }
    }

    /// When the next "Play again" table's time is up.
    pub(super) fn next_kept_due(&self) -> Option<u64> {
        self.tables
            .values()
            .filter(|t| !t.started())
            .filter_map(|t| t.kept.as_ref().map(|k| k.until))
            .min()
    }
}
