//! Replays (issue 21): a game rebuilt from its seed and log shows each
//! seat, at every step, exactly the view the hall sent it during play; a
//! seat's exported replay of an unfinished game holds nothing but its own
//! views; a replay file is checked when read.

mod common;

use std::collections::BTreeMap;

use foodweb_netcode::games::replay;
use foodweb_netcode::games::{AnySettings, AnyView, bot_kinds, bot_move, my_turn, view_over};
use foodweb_netcode::hall::store_id;
use foodweb_netcode::messages::*;
use foodweb_netcode::replay::{REPLAY_FORMAT, Replay, ReplayError, ReplayHead, Viewer};
use foodweb_netcode::{ClientKey, Hall, HallConfig, TableStore};
use foodweb_rules::GameId;
use foodweb_rules::table::SeatId;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Every view each client was sent, by revision.
#[derive(Default)]
struct Sent {
    views: BTreeMap<ClientKey, Vec<(u64, AnyView)>>,
    last: BTreeMap<ClientKey, AnyView>,
    table: Option<TableId>,
    refused: Vec<(ClientKey, String)>,
    parts: Vec<Part>,
    /// The token each client's seat was given.
    tokens: BTreeMap<ClientKey, String>,
    /// Each connection's challenge (from `Welcome`), for seat proofs.
    challenges: BTreeMap<ClientKey, String>,
}

/// A `ReplayPart` as it came.
struct Part {
    to: ClientKey,
    viewer: Viewer,
    head: Option<ReplayHead>,
    total: u32,
    from: u32,
    steps: Vec<foodweb_netcode::replay::ReplayStep>,
}

struct Room {
    hall: Hall,
    now: u64,
    sent: Sent,
}

impl Room {
    fn new(dir: &std::path::Path) -> Self {
        let (hall, problems) = Hall::open(HallConfig {
            name: "replay test".into(),
            bot_delay_ms: 0,
            data_dir: Some(dir.to_path_buf()),
            ..HallConfig::default()
        })
        .unwrap();
        assert!(problems.is_empty(), "{problems:?}");
        Self {
            hall,
            now: 0,
            sent: Sent::default(),
        }
    }

    fn deliver(&mut self) {
        for (to, msg) in self.hall.drain() {
            // Read back as the client's codec reads it (issue 66).
            common::through_the_wire(&msg);
            match msg {
                ServerMsg::View { revision, view, .. } => {
                    self.sent.last.insert(to, view.clone());
                    self.sent
                        .views
                        .entry(to)
                        .or_default()
                        .push((revision, view));
                }
                ServerMsg::Welcome { challenge, .. } => {
                    self.sent.challenges.insert(to, challenge);
                }
                ServerMsg::Joined { table, token, .. } => {
                    self.sent.table = Some(table);
                    if let Some(token) = token {
                        self.sent.tokens.insert(to, token);
                    }
                }
                ServerMsg::Rejected { reason } => {
                    self.sent.refused.push((to, reason.en));
                }
                ServerMsg::ReplayPart {
                    viewer,
                    head,
                    total,
                    from,
                    steps,
                    ..
                } => self.sent.parts.push(Part {
                    to,
                    viewer,
                    head: head.map(|h| *h),
                    total,
                    from,
                    steps,
                }),
                _ => {}
            }
        }
    }

    fn say(&mut self, who: ClientKey, msg: ClientMsg) {
        self.hall.handle(who, msg);
        self.deliver();
    }

    fn tick(&mut self, ms: u64) {
        self.now += ms;
        self.hall.tick(self.now);
        self.deliver();
    }

    /// Ana and Bo at a 4-seat table of `settings`' game, two bots, started.
    fn start(&mut self, settings: AnySettings) -> TableId {
        self.start_with(settings, false)
    }

    /// The same, at a table whose replays are open after the end or not.
    fn start_with(&mut self, settings: AnySettings, open_replays: bool) -> TableId {
        let game = settings.game();
        for (who, name) in [(1, "Ana"), (2, "Bo")] {
            self.hello(who, name);
        }
        self.say(
            1,
            ClientMsg::CreateTable {
                settings,
                seats: 4,
                host_seat: false,
                seed: Some(12),
                open_replays,
            },
        );
        let table = self.sent.table.unwrap();
        self.say(
            2,
            ClientMsg::TakeSeat {
                table,
                seat: Some(SeatId(1)),
            },
        );
        let best = bot_kinds(game)[0];
        self.say(1, ClientMsg::FillWithBots { kind: best.into() });
        self.say(2, ClientMsg::SetReady { ready: true });
        self.say(1, ClientMsg::Start);
        table
    }

    /// Ana and Bo play as the game's best bot until the end, or for
    /// `steps` moves.
    fn play(&mut self, game: GameId, steps: usize) {
        let best = bot_kinds(game)[0];
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut moves = 0;
        for _ in 0..50_000 {
            let mut moved = false;
            for who in [1, 2] {
                let Some(view) = self.sent.last.get(&who).cloned() else {
                    continue;
                };
                if my_turn(&view)
                    && let Some(action) = bot_move(best, &view, &mut rng)
                {
                    self.hall.handle(who, ClientMsg::Act { action });
                    self.deliver();
                    moved = true;
                    moves += 1;
                }
            }
            if moves >= steps || self.sent.last.values().any(view_over) {
                return;
            }
            self.tick(if moved { 10 } else { 500 });
        }
        panic!("the {game} game did not end");
    }
}

/// A room whose table of `settings`' game has been played to its end.
fn finished_game(settings: AnySettings) -> (tempfile::TempDir, Room, TableId) {
    let dir = tempfile::tempdir().unwrap();
    let mut room = Room::new(dir.path());
    let game = settings.game();
    let table = room.start(settings);
    room.play(game, usize::MAX);
    room.tick(1_000);
    (dir, room, table)
}

/// The table as saved: its last snapshot with the journal played on it
/// (as the hall reads it back after a restart).
fn saved_snapshot(dir: &std::path::Path, table: TableId) -> String {
    let store = TableStore::open(dir).unwrap();
    let record = Hall::saved_record(&store, &store_id(table)).unwrap();
    record.snapshot.expect("a started table")
}

/// A view as RON without the moment it was made at: the hall makes a
/// view when it sends it (its `now_ms` is the table's clock then), a
/// replay when the change happened; what the seat sees is the rest.
fn timeless(view: &AnyView) -> String {
    let text = ron::to_string(view).unwrap();
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(i) = rest.find("now_ms:") {
        out.push_str(&rest[..i + "now_ms:".len()]);
        rest = rest[i + "now_ms:".len()..].trim_start_matches(|c: char| c.is_ascii_digit());
    }
    out.push_str(rest);
    out
}

/// Issue 21: "rebuild every step of a recorded game ... and compare each
/// seat's replayed view with the view it was sent during play
/// (identical)".
fn replay_matches_sent_views(settings: AnySettings) {
    let game = settings.game();
    let dir = tempfile::tempdir().unwrap();
    let mut room = Room::new(dir.path());
    let table = room.start(settings);
    room.play(game, usize::MAX);
    room.tick(1_000);
    let snapshot = saved_snapshot(dir.path(), table);
    for (who, seat) in [(1, SeatId(0)), (2, SeatId(1))] {
        let replay = replay(game, &snapshot, Viewer::Seat(seat)).unwrap();
        assert!(replay.finished, "{game}: the replayed game ends");
        let sent = &room.sent.views[&who];
        assert!(
            sent.len() > 10,
            "{game}: only {} views were sent",
            sent.len()
        );
        for (revision, view) in sent {
            let step = replay
                .steps
                .iter()
                .find(|s| s.revision == *revision)
                .unwrap_or_else(|| panic!("{game}: no replay step at revision {revision}"));
            assert_eq!(
                timeless(&step.view),
                timeless(view),
                "{game}, seat {seat}: the replay at revision {revision} is not what was sent"
            );
        }
        // Read back from its file, the same replay.
        assert_eq!(Replay::from_ron(&replay.to_ron()).unwrap(), replay);
    }
}

#[test]
fn replay_matches_sent_views_forest() {
    // One round of 15 s: a whole game in a few hundred ticks (bots at
    // full speed; each move now tells both sides their lines, issue 71,
    // and every saved record holds them all).
    replay_matches_sent_views(AnySettings::Forest(foodweb_rules::forest::ForestSettings {
        rounds: 1,
        round_secs: 15,
        ..foodweb_rules::forest::ForestSettings::timed(1)
    }));
}

#[test]
fn replay_matches_sent_views_crueler() {
    replay_matches_sent_views(AnySettings::default_for(GameId::Crueler).unwrap());
}

#[test]
fn replay_matches_sent_views_gene() {
    replay_matches_sent_views(AnySettings::default_for(GameId::Gene).unwrap());
}

#[test]
fn replay_matches_sent_views_wanning() {
    replay_matches_sent_views(AnySettings::default_for(GameId::Wanning).unwrap());
}

/// "A test shows that an exported seat replay of an unfinished game holds
/// no other seat's secret": exported mid-game, Bo's replay is, step by
/// step, Bo's own view and nothing else (「玩家只能得知自己的等級」): never
/// another seat's level, animal, instinct or talk, never the host's view.
#[test]
fn an_exported_seat_replay_of_an_unfinished_game_holds_only_its_own_views() {
    let dir = tempfile::tempdir().unwrap();
    let mut room = Room::new(dir.path());
    let table = room.start(AnySettings::default_for(GameId::Wanning).unwrap());
    // Through the bans, the picks and the peeks into round 1.
    room.play(GameId::Wanning, 7);
    let snapshot = saved_snapshot(dir.path(), table);
    let exported = replay(GameId::Wanning, &snapshot, Viewer::Seat(SeatId(1)))
        .unwrap()
        .to_ron();
    let bo = Replay::from_ron(&exported).unwrap();
    assert!(!bo.finished, "the game is under way");
    // Its log: the public announcements, Bo's own notes, no record.
    assert!(
        bo.notes.iter().all(|n| n.seat == SeatId(1)),
        "another seat's note"
    );
    assert_eq!(bo.record, None, "the table's record in Bo's file");
    let everything = replay(GameId::Wanning, &snapshot, Viewer::Everything).unwrap();
    let host = match &everything.steps.last().unwrap().view {
        AnyView::Wanning(v) => v.host.clone().expect("the host's view"),
        other => panic!("not a Wanning view: {other:?}"),
    };
    for step in &bo.steps {
        let AnyView::Wanning(v) = &step.view else {
            panic!("not a Wanning view")
        };
        assert_eq!(v.me, Some(SeatId(1)));
        assert!(v.host.is_none(), "the host's view in Bo's replay");
        assert!(
            v.talk
                .iter()
                .all(|l| l.from == SeatId(1) || l.to == SeatId(1))
        );
        if let Some(level) = v.level {
            assert_eq!(level, host.seats[1].level, "Bo's own level");
        }
    }
    // No other seat's secret anywhere in the file: their instincts are
    // named only if Bo's is the same.
    let mine = host.seats[1].instinct;
    for s in host.seats.iter().filter(|s| s.seat != SeatId(1)) {
        if let Some(i) = s.instinct
            && Some(i) != mine
        {
            assert!(
                !exported.contains(&format!("instinct: Some({i:?})")),
                "seat {}'s instinct {i:?} is in Bo's replay",
                s.seat
            );
        }
    }
}

/// A replay file is checked when read: a file of another format, a
/// broken one, or one whose steps are another seat's views is refused with
/// a reason, never opened.
#[test]
fn a_bad_replay_file_is_refused_with_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    let mut room = Room::new(dir.path());
    let table = room.start(AnySettings::default_for(GameId::Wanning).unwrap());
    room.play(GameId::Wanning, 6);
    let snapshot = saved_snapshot(dir.path(), table);
    let good = replay(GameId::Wanning, &snapshot, Viewer::Seat(SeatId(0))).unwrap();
    assert!(matches!(
        Replay::from_ron("not a replay"),
        Err(ReplayError::Parse(_))
    ));
    let mut newer = good.clone();
    newer.format = REPLAY_FORMAT + 1;
    assert_eq!(
        Replay::from_ron(&newer.to_ron()),
        Err(ReplayError::Format(REPLAY_FORMAT + 1))
    );
    // Ann's file claiming to be Bo's.
    let mut forged = good.clone();
    forged.viewer = Viewer::Seat(SeatId(1));
    assert_eq!(
        Replay::from_ron(&forged.to_ron()),
        Err(ReplayError::OtherSeat(0))
    );
    let mut shuffled = good.clone();
    shuffled.steps.swap(0, 1);
    assert_eq!(
        Replay::from_ron(&shuffled.to_ron()),
        Err(ReplayError::Order(1))
    );
    let mut empty = good.clone();
    empty.steps.clear();
    assert_eq!(Replay::from_ron(&empty.to_ron()), Err(ReplayError::Empty));
    // A seat's file may not carry the record, nor another seat's note.
    let mut leaky = good.clone();
    leaky.record = Some(snapshot.clone());
    assert_eq!(
        Replay::from_ron(&leaky.to_ron()),
        Err(ReplayError::RecordInSeatReplay)
    );
    let everything = replay(GameId::Wanning, &snapshot, Viewer::Everything).unwrap();
    let theirs = everything
        .notes
        .iter()
        .find(|n| n.seat != SeatId(0))
        .expect("another seat has a note")
        .clone();
    let mut nosy = good;
    nosy.notes.push(theirs);
    assert_eq!(
        Replay::from_ron(&nosy.to_ron()),
        Err(ReplayError::OtherNote(nosy.notes.len() - 1))
    );
    // A file of everything whose steps its record does not give.
    let mut doctored = everything;
    let last = doctored.steps.len() - 1;
    doctored.steps[last].at_ms += 1;
    assert_eq!(
        Replay::from_ron(&doctored.to_ron()),
        Err(ReplayError::RecordMismatch)
    );
}

impl Room {
    /// A past seat at `table`, proved by `token` on `who`'s connection.
    fn past(&self, who: ClientKey, table: TableId, token: &str) -> Option<PastSeat> {
        let challenge = &self.sent.challenges[&who];
        Some(PastSeat {
            table,
            proof: foodweb_netcode::seal::seat_proof(
                token,
                challenge,
                table,
                foodweb_netcode::seal::ProofFor::Replay,
            ),
        })
    }

    /// The whole replay `who` asks for (of its table, or of a past seat),
    /// part by part: its viewer, its head and its steps.
    fn fetch_replay(
        &mut self,
        who: ClientKey,
        past: Option<PastSeat>,
    ) -> Result<(Viewer, ReplayHead, Vec<foodweb_netcode::replay::ReplayStep>), String> {
        let mut steps = Vec::new();
        let mut first: Option<(Viewer, ReplayHead)> = None;
        loop {
            let refused = self.sent.refused.len();
            self.say(
                who,
                ClientMsg::GetReplay {
                    from: steps.len() as u32,
                    past: past.clone(),
                },
            );
            if self.sent.refused.len() > refused {
                return Err(self.sent.refused.last().unwrap().1.clone());
            }
            let part = self.sent.parts.pop().expect("a part");
            assert_eq!((part.to, part.from as usize), (who, steps.len()));
            assert!(part.steps.len() <= REPLAY_PART_STEPS);
            // The head comes with the first part only.
            assert_eq!(part.head.is_some(), part.from == 0);
            if let Some(head) = part.head {
                first = Some((part.viewer, head));
            }
            assert_eq!(first.as_ref().map(|f| f.0), Some(part.viewer));
            steps.extend(part.steps);
            if steps.len() >= part.total as usize {
                let (viewer, head) = first.unwrap();
                return Ok((viewer, head, steps));
            }
        }
    }

    fn hello(&mut self, who: ClientKey, name: &str) {
        self.hall.connect(who);
        self.say(
            who,
            ClientMsg::Hello {
                name: name.into(),
                version: PROTOCOL_VERSION,
            },
        );
    }
}

/// "The server offers a finished table's replay to the people who sat at
/// it (a message in the lobby protocol)" and "a seat's replay holds only
/// what that seat was sent": Bo asks for his in parts of at most
/// `REPLAY_PART_STEPS` steps and gets exactly his seat's replay, with his
/// own notes and no record; a spectator gets none.
#[test]
fn the_hall_sends_a_seat_its_own_replay_in_parts() {
    let (dir, mut room, table) = finished_game(AnySettings::default_for(GameId::Crueler).unwrap());
    assert!(room.sent.refused.is_empty(), "{:?}", room.sent.refused);
    let (viewer, head, steps) = room.fetch_replay(2, None).unwrap();
    let snapshot = saved_snapshot(dir.path(), table);
    let bo = replay(GameId::Crueler, &snapshot, Viewer::Seat(SeatId(1))).unwrap();
    assert_eq!(viewer, Viewer::Seat(SeatId(1)));
    assert_eq!(steps, bo.steps, "Bo's replay is his seat's");
    assert_eq!(head.record, None, "a seat gets no record of a closed table");
    assert!(!head.notes.is_empty(), "Bo's notes come with his replay");
    assert!(
        head.notes.iter().all(|n| n.seat == SeatId(1)),
        "only Bo's notes"
    );
    // A spectator sat at no seat: no replay.
    room.hello(9, "Fan");
    room.say(9, ClientMsg::Watch { table });
    let why = room.fetch_replay(9, None).unwrap_err();
    assert!(why.contains("sat at the table"), "{why}");
}

/// "for any saved table the player sat at": Bo leaves the finished table,
/// and from the lobby (at no table) asks for its replay with his seat's
/// token: his seat's replay. The token picks the seat (Ana's gives Ana's);
/// a wrong token, or a table that is not there, is refused alike.
#[test]
fn a_past_seat_replays_its_finished_game_with_its_token() {
    let (dir, mut room, table) = finished_game(AnySettings::default_for(GameId::Gene).unwrap());
    room.say(2, ClientMsg::Leave);
    let bo_token = room.sent.tokens[&2].clone();
    let ana_token = room.sent.tokens[&1].clone();
    let snapshot = saved_snapshot(dir.path(), table);
    let (viewer, _, steps) = room
        .fetch_replay(2, room.past(2, table, &bo_token))
        .unwrap();
    assert_eq!(viewer, Viewer::Seat(SeatId(1)));
    let bo = replay(GameId::Gene, &snapshot, Viewer::Seat(SeatId(1))).unwrap();
    assert_eq!(steps, bo.steps);
    let (viewer, _, _) = room
        .fetch_replay(2, room.past(2, table, &ana_token))
        .unwrap();
    assert_eq!(viewer, Viewer::Seat(SeatId(0)), "the token picks the seat");
    let wrong = room
        .fetch_replay(2, room.past(2, table, "0123456789abcdef"))
        .unwrap_err();
    let missing = room
        .fetch_replay(2, room.past(2, table + 40, &bo_token))
        .unwrap_err();
    // Issue 34: a proof made on another connection (Ana's) opens nothing
    // on Bo's, and a proof for resuming is not one for a replay.
    let elsewhere = room
        .fetch_replay(2, room.past(1, table, &bo_token))
        .unwrap_err();
    assert_eq!(elsewhere, missing, "a proof is good on its connection only");
    let resume_proof = PastSeat {
        table,
        proof: foodweb_netcode::seal::seat_proof(
            &bo_token,
            &room.sent.challenges[&2],
            table,
            foodweb_netcode::seal::ProofFor::Resume,
        ),
    };
    assert_eq!(
        room.fetch_replay(2, Some(resume_proof)).unwrap_err(),
        missing
    );
    assert_eq!(
        wrong, missing,
        "a wrong token says no more than a missing table"
    );
    assert!(wrong.contains("sat at the table"), "{wrong}");
}

/// "a finished game may be opened with everything shown (the host seat's
/// view), a setting of the table chosen at creation", and "the full
/// snapshot and log go ... to everyone after the end if the table was
/// created open": while the game runs Bo's replay is his seat's; once it
/// is over, his, a spectator's and a past seat's are everything, with the
/// table's record, and the file checks against it.
#[test]
fn an_open_table_shows_everything_to_everyone_after_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let mut room = Room::new(dir.path());
    let table = room.start_with(AnySettings::default_for(GameId::Wanning).unwrap(), true);
    room.play(GameId::Wanning, 8);
    let (viewer, head, _) = room.fetch_replay(2, None).unwrap();
    assert_eq!(viewer, Viewer::Seat(SeatId(1)), "not before the end");
    assert_eq!(head.record, None);
    room.hello(9, "Fan");
    room.say(9, ClientMsg::Watch { table });
    assert!(room.fetch_replay(9, None).is_err(), "not before the end");
    room.play(GameId::Wanning, usize::MAX);
    room.tick(1_000);
    let snapshot = saved_snapshot(dir.path(), table);
    let all = replay(GameId::Wanning, &snapshot, Viewer::Everything).unwrap();
    // Everything is what the host seat is sent: every seat's own view at
    // every step, and the host's.
    for seat in 0..4 {
        let theirs = replay(GameId::Wanning, &snapshot, Viewer::Seat(SeatId(seat))).unwrap();
        assert_eq!(theirs.steps.len(), all.steps.len());
        for (a, s) in all.steps.iter().zip(&theirs.steps) {
            assert_eq!((a.revision, &a.seats[seat as usize]), (s.revision, &s.view));
        }
    }
    assert!(all.steps.iter().all(|s| match &s.view {
        AnyView::Wanning(v) => v.host.is_some(),
        _ => false,
    }));
    for who in [2, 9] {
        let (viewer, head, steps) = room.fetch_replay(who, None).unwrap();
        assert_eq!(viewer, Viewer::Everything);
        assert_eq!(steps, all.steps);
        let record = head.record.clone().expect("the record, after the end");
        // What a client saves is checked against its record when read.
        let file = Replay {
            format: REPLAY_FORMAT,
            game: GameId::Wanning,
            viewer,
            names: head.names,
            finished: true,
            steps,
            public: head.public,
            notes: head.notes,
            record: Some(record),
        };
        assert_eq!(Replay::from_ron(&file.to_ron()).unwrap(), file);
    }
    room.say(1, ClientMsg::Leave);
    let ana = room.sent.tokens[&1].clone();
    let (viewer, _, _) = room.fetch_replay(1, room.past(1, table, &ana)).unwrap();
    assert_eq!(viewer, Viewer::Everything);
}
