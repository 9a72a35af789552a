//! What a client knows, built only from the messages the server sent it.
//! The desktop screens and the headless client both read this; neither
//! can see more than the server chose to send.

use bevy_ecs::prelude::*;
use foodweb_rules::Bilingual;
use foodweb_rules::table::{Announcement, PrivateNote, SeatId};

use crate::games::AnyView;
use crate::messages::*;

#[derive(Resource, Clone, Debug, Default)]
pub struct ClientModel {
    /// The server's name once it welcomed us.
    pub server: Option<String>,
    /// The fingerprint of its key, as the connection showed it (not as
    /// the server says: `Session::server_print`), set with `Welcome`.
    pub server_key: Option<String>,
    pub name: String,
    pub tables: Vec<TableSummary>,
    /// The table we are at and how.
    pub place: Option<(TableId, Role)>,
    /// The token that takes our place back (kept across reconnects), and
    /// the table it is for.
    pub token: Option<String>,
    pub token_table: Option<TableId>,
    /// This connection's challenge (from `Welcome`): seat proofs are made
    /// for it.
    pub challenge: Option<String>,
    pub lobby: Option<LobbyState>,
    pub view: Option<AnyView>,
    pub revision: u64,
    /// Every seat's view, for the host seat only.
    pub host_views: Vec<AnyView>,
    pub public: Vec<Announcement>,
    pub notes: Vec<PrivateNote>,
    pub last_rejection: Option<Bilingual>,
    /// The code that takes our table's open host seat: sent to the table's
    /// owner only.
    pub host_code: Option<(TableId, String)>,
    pub accepted: u64,
    pub rejected: u64,
    /// Bumped by every message, so screens can tell something changed.
    pub changes: u64,
    /// The replay of our table, as far as its parts have come, and how
    /// many steps it has in all.
    pub replay: Option<(crate::replay::Replay, u32)>,
    /// The lesson at our table, if it is one (`Learn`).
    pub lesson: Option<foodweb_rules::lesson::LessonNow>,
    /// The hall's clock (milliseconds) when our view was made
    /// (`View::hall_ms`).
    pub view_hall_ms: Option<u64>,
    /// How far the hall's clock is from ours, from the round trips of
    /// `Ping` (`HallClock::pong`, fed by the connection).
    pub hall_clock: HallClock,
}

/// Samples of the hall's clock against ours kept at most: the newest, of
/// which the one of the shortest round trip is believed.
const CLOCK_SAMPLES: usize = 8;

/// An estimate of the hall's clock from the client's own (NTP's way): each
/// `Pong` says the hall's time somewhere between our send and our
/// receipt, so the hall was at `hall_ms` about half a round trip before we
/// read it, give or take half the round trip. Of the latest samples, the
/// one with the shortest round trip is the best.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HallClock {
    /// (round trip, hall minus ours), milliseconds, newest last.
    samples: Vec<(f64, f64)>,
}

impl HallClock {
    /// A `Pong` for a `Ping` sent at `sent_ms` came back at `now_ms` (our
    /// clock) saying the hall's clock was `hall_ms`.
    pub fn pong(&mut self, sent_ms: u64, hall_ms: u64, now_ms: f64) {
        let sent = sent_ms as f64;
        if now_ms < sent {
            return;
        }
        let rtt = now_ms - sent;
        let offset = hall_ms as f64 - (sent + now_ms) / 2.0;
        if self.samples.len() == CLOCK_SAMPLES {
            self.samples.remove(0);
        }
        self.samples.push((rtt, offset));
    }

    /// The hall's clock minus ours, if any `Pong` came.
    pub fn offset_ms(&self) -> Option<f64> {
        self.best().map(|(_, offset)| offset)
    }

    fn best(&self) -> Option<(f64, f64)> {
        self.samples
            .iter()
            .copied()
            .min_by(|a, b| a.0.total_cmp(&b.0))
    }

    /// The hall's clock at our `now_ms`, if known.
    pub fn hall_now_ms(&self, now_ms: f64) -> Option<f64> {
        self.offset_ms().map(|offset| now_ms + offset)
    }
}

/// Seats whose person is away (`ClientModel::away_seats`), as one word a
/// screen's layout can compare.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AwaySeats(u64);

impl AwaySeats {
    pub fn contains(self, seat: SeatId) -> bool {
        seat.index() < 64 && self.0 & 1 << seat.index() != 0
    }

    pub fn iter(self) -> impl Iterator<Item = SeatId> {
        (0..64u8).map(SeatId).filter(move |&s| self.contains(s))
    }
}

impl FromIterator<SeatId> for AwaySeats {
    fn from_iter<T: IntoIterator<Item = SeatId>>(seats: T) -> Self {
        AwaySeats(
            seats
                .into_iter()
                .filter(|s| s.index() < 64)
                .fold(0, |bits, s| bits | 1 << s.index()),
        )
    }
}

impl ClientModel {
    /// `Resume` for our place, proved for this connection, once the server
    /// welcomed us (and if we have a place to take back).
    pub fn resume(&self) -> Option<ClientMsg> {
        let (token, table, challenge) = (
            self.token.as_ref()?,
            self.token_table?,
            self.challenge.as_ref()?,
        );
        Some(ClientMsg::Resume {
            table,
            proof: crate::seal::seat_proof(token, challenge, table, crate::seal::ProofFor::Resume),
        })
    }

    /// The seats of our running table whose person is away: a bot stands
    /// in for them after the table's delay, and their plates say so (issue
    /// 68). None in a replay.
    pub fn away_seats(&self) -> AwaySeats {
        let Some(lobby) = self.lobby.as_ref() else {
            return AwaySeats::default();
        };
        if self.replay.is_some() || self.place.is_none_or(|(t, _)| t != lobby.id) {
            return AwaySeats::default();
        }
        (0..lobby.seats.len().min(64) as u8)
            .map(SeatId)
            .filter(|&s| lobby.away(s))
            .collect()
    }

    /// The proof, for this connection, of a past seat's `token` at
    /// `table` (`GetReplay::past`).
    pub fn past_seat(&self, table: TableId, token: &str) -> Option<PastSeat> {
        Some(PastSeat {
            table,
            proof: crate::seal::seat_proof(
                token,
                self.challenge.as_ref()?,
                table,
                crate::seal::ProofFor::Replay,
            ),
        })
    }

    /// Our table's seating. When it changed (someone readied, sat, left),
    /// what was refused spoke of how it was (issue 66: "not ready yet:
    /// Bob, 小陈" stayed red after both were ready).
    fn set_lobby(&mut self, lobby: &LobbyState) {
        if self.lobby.as_ref() != Some(lobby) {
            self.last_rejection = None;
        }
        self.lobby = Some(lobby.clone());
    }

    pub fn apply(&mut self, msg: &ServerMsg) {
        self.changes += 1;
        // A refusal is news until the next thing that went through.
        if matches!(
            msg,
            ServerMsg::Joined { .. } | ServerMsg::Left | ServerMsg::Accepted
        ) {
            self.last_rejection = None;
        }
        match msg {
            ServerMsg::ReplayPart {
                game,
                viewer,
                head,
                finished,
                total,
                from,
                steps,
                ..
            } => {
                // A first part (with its head) starts afresh; a later part
                // is kept only if it follows what we have.
                if let Some(head) = head {
                    self.replay = Some((
                        crate::replay::Replay::from_head(
                            *game,
                            *viewer,
                            *finished,
                            (**head).clone(),
                        ),
                        *total,
                    ));
                }
                if let Some((r, t)) = self.replay.as_mut()
                    && r.viewer == *viewer
                    && r.game == *game
                    && *from as usize == r.steps.len()
                {
                    r.steps.extend(steps.iter().cloned());
                    r.finished = *finished;
                    *t = *total;
                }
            }
            ServerMsg::Welcome {
                server,
                name,
                challenge,
                ..
            } => {
                self.server = Some(server.clone());
                self.name = name.clone();
                self.challenge = Some(challenge.clone());
            }
            ServerMsg::Tables { tables } => self.tables = tables.clone(),
            ServerMsg::Joined { table, role, token } => {
                if self.place.map(|(t, _)| t) != Some(*table) {
                    self.clear_table();
                }
                self.place = Some((*table, *role));
                if token.is_some() {
                    self.token = token.clone();
                    self.token_table = Some(*table);
                }
            }
            ServerMsg::Left => {
                self.place = None;
                self.token = None;
                self.token_table = None;
                self.clear_table();
            }
            ServerMsg::Lobby(lobby) => self.set_lobby(lobby),
            ServerMsg::View {
                revision,
                view,
                hall_ms,
                ..
            } => {
                self.revision = *revision;
                self.view = Some(view.clone());
                self.view_hall_ms = Some(*hall_ms);
            }
            ServerMsg::HostView {
                revision,
                seats,
                public,
                hall_ms,
                ..
            } => {
                self.revision = *revision;
                self.host_views = seats.clone();
                self.view = Some(public.clone());
                self.view_hall_ms = Some(*hall_ms);
            }
            ServerMsg::Named { name } => self.name = name.clone(),
            // The connection times it (`HallClock::pong`): the model has
            // no clock of its own.
            ServerMsg::Pong { .. } => {}
            ServerMsg::Feed {
                public_from,
                public,
                notes_from,
                notes,
                ..
            } => {
                self.public.truncate(*public_from as usize);
                self.public.extend(public.iter().cloned());
                self.notes.truncate(*notes_from as usize);
                self.notes.extend(notes.iter().cloned());
            }
            ServerMsg::Lesson { table, now } => {
                if self.place.map(|(t, _)| t) == Some(*table) {
                    self.lesson = Some(now.clone());
                }
            }
            ServerMsg::HostCode { table, code } => {
                self.host_code = Some((*table, code.clone()));
            }
            ServerMsg::Accepted => {
                self.accepted += 1;
                self.last_rejection = None;
            }
            ServerMsg::Rejected { reason } => {
                self.rejected += 1;
                self.last_rejection = Some(reason.clone());
            }
        }
    }

    fn clear_table(&mut self) {
        self.lobby = None;
        self.view = None;
        self.revision = 0;
        self.host_views.clear();
        self.public.clear();
        self.notes.clear();
        self.replay = None;
        self.lesson = None;
        self.view_hall_ms = None;
    }

    /// "Play again" was asked: the finished game's view, talk and lobby
    /// go; the place stays until the next table's `Joined`.
    pub fn await_next_table(&mut self) {
        self.clear_table();
        self.changes += 1;
    }

    /// The next table after "Play again", not started yet: its people
    /// coming back (issue 69).
    pub fn again_waiting(&self) -> Option<&crate::messages::LobbyState> {
        self.lobby
            .as_ref()
            .filter(|l| !l.started && l.again_until.is_some())
    }

    pub fn my_seat(&self) -> Option<foodweb_rules::table::SeatId> {
        match self.place {
            Some((_, Role::Player(seat))) => Some(seat),
            _ => None,
        }
    }

    /// Whether this client runs its table before the start (bots, start):
    /// the owner's seat, or the host seat the owner moved to.
    pub fn is_owner(&self) -> bool {
        let host_runs = matches!(self.place, Some((_, Role::Host)))
            && self.lobby.as_ref().is_some_and(|l| l.host_runs);
        host_runs
            || (self.my_seat().is_some()
                && self.lobby.as_ref().and_then(|l| l.owner) == self.my_seat())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::AnySettings;
    use foodweb_rules::GameId;

    fn lobby(ready: bool) -> ServerMsg {
        ServerMsg::Lobby(LobbyState {
            id: 1,
            settings: AnySettings::default_for(GameId::Forest).unwrap(),
            seats: vec![crate::messages::SeatInfo {
                seat: foodweb_rules::table::SeatId(0),
                name: "Bob".into(),
                kind: crate::messages::SeatKind::Person {
                    ready,
                    connected: true,
                    stand_in: false,
                },
            }],
            host: None,
            owner: None,
            started: false,
            result: None,
            bot_kinds: Vec::new(),
            spectators: 0,
            paused: false,
            unsaved: None,
            host_runs: false,
            open_replays: false,
            again_until: None,
        })
    }

    /// A refusal stands while the table stays as it was, and goes when
    /// the table changes (issue 66).
    #[test]
    fn a_refusal_goes_when_the_table_changes() {
        let mut m = ClientModel::default();
        m.apply(&lobby(false));
        m.apply(&ServerMsg::Rejected {
            reason: Bilingual::new("not ready yet: Bob", "还没准备好：Bob"),
        });
        m.apply(&lobby(false));
        assert!(
            m.last_rejection.is_some(),
            "the same table: the refusal stands"
        );
        m.apply(&lobby(true));
        assert!(
            m.last_rejection.is_none(),
            "Bob is ready: the refusal is old news"
        );
    }

    /// Issue 68: "while the person is away the seat shows as away on the
    /// plates". A person's seat whose connection went, in a running game
    /// at our table, is away; not before the start, after the end, nor at
    /// another table.
    #[test]
    fn a_seat_is_away_while_its_person_is_gone_from_a_running_game() {
        let person = |connected| crate::messages::SeatKind::Person {
            ready: true,
            connected,
            stand_in: !connected,
        };
        let running = |started: bool, result: Option<foodweb_rules::table::GameResult>| {
            let ServerMsg::Lobby(mut l) = lobby(true) else {
                unreachable!()
            };
            l.started = started;
            l.result = result;
            l.seats = (0..3)
                .map(|i| crate::messages::SeatInfo {
                    seat: foodweb_rules::table::SeatId(i),
                    name: format!("P{i}").into(),
                    kind: if i == 0 {
                        crate::messages::SeatKind::Bot {
                            kind: "random".into(),
                        }
                    } else {
                        person(i != 2)
                    },
                })
                .collect();
            l
        };
        let mut m = ClientModel {
            place: Some((1, Role::Player(foodweb_rules::table::SeatId(1)))),
            ..ClientModel::default()
        };
        m.lobby = Some(running(true, None));
        assert_eq!(
            m.away_seats(),
            [SeatId(2)].into_iter().collect::<AwaySeats>(),
            "seat 2's person is gone"
        );
        m.lobby = Some(running(false, None));
        assert_eq!(
            m.away_seats(),
            AwaySeats::default(),
            "before the start a seat left is open"
        );
        let over = foodweb_rules::table::GameResult {
            scores: vec![0; 3],
            places: vec![1; 3],
        };
        m.lobby = Some(running(true, Some(over)));
        assert_eq!(m.away_seats(), AwaySeats::default(), "the game is over");
        m.lobby = Some(running(true, None));
        m.place = Some((2, Role::Spectator));
        assert_eq!(
            m.away_seats(),
            AwaySeats::default(),
            "another table's lobby"
        );
    }
}
