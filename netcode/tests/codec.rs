//! Every message through the real codec (issue 66: "A seat's replay never
//! loads over the wire ... the client logs
//! `Serialization(Postcard(DeserializeBadOption))`"). Each variant of
//! `ClientMsg` and `ServerMsg`, empty and full, is written and read back by
//! lightyear's codec; the list of variants is serde's own, so a new
//! variant without samples here fails the test. (`tests/replay.rs` and
//! `tests/hall.rs` read back every message the hall sends over whole
//! games of each game the same way.)

mod common;

use std::collections::BTreeMap;

use common::through_the_wire;
use foodweb_netcode::games::{
    AnyAction, AnySettings, AnyView, bot_kinds, bot_move, my_turn, view_over,
};
use foodweb_netcode::messages::*;
use foodweb_netcode::replay::{ReplayHead, ReplayStep, Viewer};
use foodweb_netcode::{ClientKey, Hall, HallConfig};
use foodweb_rules::Bilingual;
use foodweb_rules::GameId;
use foodweb_rules::table::{Amount, Announcement, PrivateNote, SeatId, SeatName};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;

/// The names of an enum's variants, as its `Deserialize` lists them.
fn variants<'de, T: Deserialize<'de>>() -> &'static [&'static str] {
    struct Listing(Option<&'static [&'static str]>);
    #[derive(Debug)]
    struct Listed;
    impl std::fmt::Display for Listed {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("listed")
        }
    }
    impl std::error::Error for Listed {}
    impl serde::de::Error for Listed {
        fn custom<M: std::fmt::Display>(_: M) -> Self {
            Listed
        }
    }
    impl<'de> serde::Deserializer<'de> for &mut Listing {
        type Error = Listed;
        fn deserialize_any<V: serde::de::Visitor<'de>>(self, _: V) -> Result<V::Value, Listed> {
            Err(Listed)
        }
        fn deserialize_enum<V: serde::de::Visitor<'de>>(
            self,
            _: &'static str,
            variants: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Listed> {
            self.0 = Some(variants);
            Err(Listed)
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
            byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map
            struct identifier ignored_any
        }
    }
    let mut listing = Listing(None);
    let _ = T::deserialize(&mut listing);
    listing.0.expect("an enum")
}

/// A message's variant, as `Debug` names it.
fn variant_of(msg: &impl std::fmt::Debug) -> String {
    let text = format!("{msg:?}");
    text.split([' ', '(', '{'])
        .next()
        .unwrap_or_default()
        .to_string()
}

fn bilingual() -> Bilingual {
    Bilingual::new("the rules say so · 完整", "规则如此")
}

/// Every variant of each game's view, empty.
fn empty_views() -> Vec<AnyView> {
    GameId::ALL
        .iter()
        .map(|&g| match g {
            GameId::Forest => AnyView::Forest(Default::default()),
            GameId::Crueler => AnyView::Crueler(Default::default()),
            GameId::Gene => AnyView::Gene(Default::default()),
            GameId::Wanning => AnyView::Wanning(Default::default()),
        })
        .collect()
}

/// Each `ServerMsg` variant with every field at its emptiest.
fn empty_server_msgs() -> Vec<ServerMsg> {
    let view = empty_views().remove(0);
    let mut msgs = vec![
        ServerMsg::Welcome {
            server: String::new(),
            version: 0,
            name: String::new(),
            challenge: String::new(),
        },
        ServerMsg::Tables { tables: Vec::new() },
        ServerMsg::Joined {
            table: 0,
            role: Role::Spectator,
            token: None,
        },
        ServerMsg::Left,
        ServerMsg::HostView {
            table: 0,
            revision: 0,
            seats: Vec::new(),
            public: view.clone(),
            hall_ms: 0,
        },
        ServerMsg::Feed {
            table: 0,
            public_from: 0,
            public: Vec::new(),
            notes_from: 0,
            notes: Vec::new(),
        },
        ServerMsg::HostCode {
            table: 0,
            code: String::new(),
        },
        ServerMsg::ReplayPart {
            table: 0,
            game: GameId::Forest,
            viewer: Viewer::Seat(SeatId(0)),
            head: None,
            finished: false,
            total: 0,
            from: 0,
            steps: Vec::new(),
        },
        ServerMsg::Lesson {
            table: 0,
            now: Default::default(),
        },
        ServerMsg::Accepted,
        ServerMsg::Rejected {
            reason: Bilingual::new("", ""),
        },
        ServerMsg::Named {
            name: String::new(),
        },
        ServerMsg::Pong {
            sent_ms: 0,
            hall_ms: 0,
        },
    ];
    msgs.extend(empty_views().into_iter().map(|view| ServerMsg::View {
        table: 0,
        revision: 0,
        view,
        hall_ms: 0,
    }));
    msgs.push(ServerMsg::Lobby(LobbyState {
        id: 0,
        settings: AnySettings::default_for(GameId::Forest).unwrap(),
        seats: Vec::new(),
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
        again_until: Some(61_000),
    }));
    msgs
}

/// Hand-made values with every field filled, for what a short game does
/// not send by itself (a seat's replay step with and without `seats`).
fn full_server_msgs() -> Vec<ServerMsg> {
    let views = empty_views();
    let step = |seats: Vec<AnyView>| ReplayStep {
        revision: u64::MAX,
        at_ms: u64::MAX,
        view: views[3].clone(),
        seats,
        public: u32::MAX,
        notes: u32::MAX,
    };
    vec![
        ServerMsg::ReplayPart {
            table: u32::MAX,
            game: GameId::Wanning,
            viewer: Viewer::Everything,
            head: Some(Box::new(ReplayHead {
                names: vec![
                    "小陈".into(),
                    SeatName::bot("reasoning", 2),
                    SeatName::Bot {
                        kind: "lesson".into(),
                        number: u16::MAX,
                        name: Some("Bot 3".into()),
                    },
                ],
                public: vec![Announcement {
                    at_ms: 7,
                    text: bilingual(),
                }],
                notes: vec![PrivateNote {
                    at_ms: 8,
                    seat: SeatId(1),
                    text: bilingual(),
                    amounts: vec![Amount::hp(-2), Amount::shields(1)],
                }],
                record: Some("(seed: 1)".into()),
            })),
            finished: true,
            total: 2,
            from: 0,
            steps: vec![step(Vec::new()), step(views.clone())],
        },
        ServerMsg::Rejected {
            reason: bilingual(),
        },
        ServerMsg::Named {
            name: "小陈 2".into(),
        },
        ServerMsg::Pong {
            sent_ms: u64::MAX,
            hall_ms: u64::MAX,
        },
    ]
}

/// Each `ClientMsg` variant, empty and full (`action` a real move).
fn client_msgs(action: AnyAction) -> Vec<ClientMsg> {
    let mut msgs = vec![
        ClientMsg::ListTables,
        ClientMsg::Leave,
        ClientMsg::Start,
        ClientMsg::Act { action },
        ClientMsg::Pace { pace: Pace::Pause },
        ClientMsg::Pace {
            pace: Pace::Hold { secs: u16::MAX },
        },
    ];
    for (text, n, flag) in [
        (String::new(), 0, false),
        ("小陈 · Bob".to_string(), u32::MAX, true),
    ] {
        msgs.extend([
            ClientMsg::Hello {
                name: text.clone(),
                version: n,
            },
            ClientMsg::Resume {
                table: n,
                proof: text.clone(),
            },
            ClientMsg::CreateTable {
                settings: AnySettings::default_for(GameId::Wanning).unwrap(),
                seats: n as u8,
                host_seat: flag,
                seed: flag.then_some(u64::MAX),
                open_replays: flag,
            },
            ClientMsg::TakeSeat {
                table: n,
                seat: flag.then_some(SeatId(9)),
            },
            ClientMsg::TakeHostSeat {
                table: n,
                code: text.clone(),
            },
            ClientMsg::Watch { table: n },
            ClientMsg::SetName { name: text.clone() },
            ClientMsg::SetReady { ready: flag },
            ClientMsg::SetBot {
                seat: SeatId(n as u8),
                kind: flag.then(|| text.clone()),
                name: flag.then(|| text.clone()),
            },
            ClientMsg::FillWithBots { kind: text.clone() },
            ClientMsg::Learn {
                game: GameId::Gene,
                names: if flag { vec![text.clone()] } else { Vec::new() },
            },
            ClientMsg::GetReplay {
                from: n,
                past: flag.then(|| PastSeat {
                    table: n,
                    proof: text.clone(),
                }),
            },
            ClientMsg::Ping { sent_ms: n.into() },
            ClientMsg::PlayAgain,
        ]);
    }
    msgs
}

/// What the hall sends, kept by variant; each client's last view.
fn deliver(
    hall: &mut Hall,
    sent: &mut BTreeMap<String, Vec<ServerMsg>>,
    last: &mut BTreeMap<ClientKey, AnyView>,
) {
    for (to, msg) in hall.drain() {
        if let ServerMsg::View { view, .. } = &msg {
            last.insert(to, view.clone());
        }
        sent.entry(variant_of(&msg)).or_default().push(msg);
    }
}

/// A Wanning table played to its end by two people (as bots play), with a
/// host seat and a watcher, its replay asked for, a lesson opened and a
/// refused message: what the hall sends, by variant.
fn a_played_table() -> (BTreeMap<String, Vec<ServerMsg>>, AnyAction) {
    let (mut hall, problems) = Hall::open(HallConfig {
        name: "codec".into(),
        bot_delay_ms: 0,
        ..HallConfig::default()
    })
    .unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    let mut sent: BTreeMap<String, Vec<ServerMsg>> = BTreeMap::new();
    let mut last: BTreeMap<ClientKey, AnyView> = BTreeMap::new();
    let say = |hall: &mut Hall, who: ClientKey, msg: ClientMsg| hall.handle(who, msg);
    for (who, name) in [(1, "Ana"), (2, "小陈"), (3, "Cy"), (4, "Host")] {
        hall.connect(who);
        say(
            &mut hall,
            who,
            ClientMsg::Hello {
                name: name.into(),
                version: PROTOCOL_VERSION,
            },
        );
    }
    say(
        &mut hall,
        1,
        ClientMsg::CreateTable {
            settings: AnySettings::default_for(GameId::Wanning).unwrap(),
            seats: 4,
            host_seat: true,
            seed: Some(3),
            open_replays: true,
        },
    );
    deliver(&mut hall, &mut sent, &mut last);
    let (table, code) = sent["HostCode"]
        .iter()
        .find_map(|m| match m {
            ServerMsg::HostCode { table, code } => Some((*table, code.clone())),
            _ => None,
        })
        .expect("the owner is shown the host code");
    say(
        &mut hall,
        2,
        ClientMsg::TakeSeat {
            table,
            seat: Some(SeatId(1)),
        },
    );
    say(&mut hall, 4, ClientMsg::TakeHostSeat { table, code });
    say(&mut hall, 3, ClientMsg::Watch { table });
    let best = bot_kinds(GameId::Wanning)[0];
    say(&mut hall, 1, ClientMsg::FillWithBots { kind: best.into() });
    say(&mut hall, 2, ClientMsg::SetReady { ready: true });
    say(&mut hall, 1, ClientMsg::Start);
    say(&mut hall, 2, ClientMsg::Ping { sent_ms: 5 });
    say(&mut hall, 2, ClientMsg::SetName { name: "  ".into() });
    deliver(&mut hall, &mut sent, &mut last);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut action = None;
    let mut now = 0;
    for _ in 0..50_000 {
        for who in [1, 2] {
            if let Some(view) = last.get(&who).filter(|v| my_turn(v)).cloned()
                && let Some(a) = bot_move(best, &view, &mut rng)
            {
                action.get_or_insert_with(|| a.clone());
                say(&mut hall, who, ClientMsg::Act { action: a });
            }
        }
        now += 100;
        hall.tick(now);
        deliver(&mut hall, &mut sent, &mut last);
        if last.values().any(view_over) {
            break;
        }
    }
    assert!(last.values().any(view_over), "the game ended");
    say(
        &mut hall,
        3,
        ClientMsg::GetReplay {
            from: 0,
            past: None,
        },
    );
    say(&mut hall, 1, ClientMsg::Leave);
    hall.connect(5);
    say(
        &mut hall,
        5,
        ClientMsg::Hello {
            name: "Dee".into(),
            version: PROTOCOL_VERSION,
        },
    );
    let others = foodweb_netcode::games::lesson_players(GameId::Forest).expect("a lesson") - 1;
    let names = (1..=others).map(|i| format!("Bot {i}")).collect();
    say(
        &mut hall,
        5,
        ClientMsg::Learn {
            game: GameId::Forest,
            names,
        },
    );
    deliver(&mut hall, &mut sent, &mut last);
    (sent, action.expect("a move was made"))
}

/// "Every message through the real codec: ... hand-made empty and full
/// values of every `ClientMsg` and `ServerMsg` variant".
#[test]
fn every_message_is_read_back_as_it_was_written() {
    let (sent, action) = a_played_table();
    let mut full = sent.clone();
    for msg in full_server_msgs() {
        full.entry(variant_of(&msg)).or_default().push(msg);
    }
    let empty: BTreeMap<String, Vec<ServerMsg>> =
        empty_server_msgs()
            .into_iter()
            .fold(BTreeMap::new(), |mut by, msg| {
                by.entry(variant_of(&msg)).or_default().push(msg);
                by
            });
    for name in variants::<ServerMsg>() {
        for (what, samples) in [("sent or full", &full), ("empty", &empty)] {
            let of = samples.get(*name).filter(|s| !s.is_empty());
            let of = of.unwrap_or_else(|| panic!("no {what} ServerMsg::{name} to try"));
            for msg in of {
                through_the_wire(msg);
            }
        }
    }
    let clients = client_msgs(action);
    for name in variants::<ClientMsg>() {
        let of: Vec<_> = clients.iter().filter(|m| variant_of(*m) == *name).collect();
        assert!(!of.is_empty(), "no ClientMsg::{name} to try");
        for msg in of {
            through_the_wire(msg);
        }
    }
}

/// The test can fail: a field that postcard cannot read back (written
/// only when not empty, as `ReplayStep::seats` was) is caught.
#[test]
fn a_field_left_out_when_empty_is_caught() {
    #[derive(Debug, PartialEq, serde::Serialize, Deserialize)]
    struct Step {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        seats: Vec<u8>,
        public: u32,
    }
    let caught = std::panic::catch_unwind(|| {
        through_the_wire(&Step {
            seats: Vec::new(),
            public: 1,
        })
    });
    assert!(caught.is_err(), "an empty skipped field was read back");
    through_the_wire(&Step {
        seats: vec![1],
        public: 1,
    });
}
