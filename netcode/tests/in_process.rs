//! "Playing locally against bots goes through the same server code
//! in-process": a client in the server's own app (lightyear host-client
//! mode) opens a table with bots and plays it to the end through the hall.

use bevy_app::App;
use foodweb_netcode::client::{ClientModel, LocalServer, NetClientPlugin, Outbox, Session, Target};
use foodweb_netcode::games::{AnySettings, bot_move, my_turn};
use foodweb_netcode::messages::ClientMsg;
use foodweb_netcode::server::{Endpoints, HallServerPlugin, Listeners};
use foodweb_netcode::{Hall, HallConfig};
use foodweb_rules::forest::ForestSettings;
use rand::SeedableRng;

fn host_app() -> App {
    let tick = std::time::Duration::from_secs_f64(1.0 / 60.0);
    let mut app = App::new();
    app.add_plugins(bevy_app::TaskPoolPlugin::default());
    app.add_plugins(foodweb_netcode::lightyear::prelude::server::ServerPlugins {
        tick_duration: tick,
    });
    app.add_plugins(foodweb_netcode::lightyear::prelude::client::ClientPlugins {
        tick_duration: tick,
    });
    app.add_plugins(foodweb_netcode::protocol::ProtocolPlugin);
    let (hall, _) = Hall::open(HallConfig {
        bot_delay_ms: 0,
        ..HallConfig::default()
    })
    .unwrap();
    app.world_mut().insert_non_send(hall);
    app.insert_resource(Listeners::default());
    app.add_plugins((HallServerPlugin, NetClientPlugin));
    // What `App::run` would do before the first update.
    app.finish();
    app.cleanup();
    app
}

/// A host app whose client is connecting to its own in-process server.
fn connected_app() -> App {
    let _ = tracing_subscriber::fmt()
        .with_max_level(tracing_subscriber::filter::LevelFilter::WARN)
        .try_init();
    let mut app = host_app();
    app.update();
    let local = app
        .world()
        .resource::<Endpoints>()
        .local
        .expect("an in-process endpoint");
    app.insert_resource(LocalServer(local));
    app.world_mut()
        .resource_mut::<Session>()
        .connect(Target::InProcess);
    app
}

#[test]
fn a_host_client_plays_a_whole_game_with_bots_in_process() {
    let mut app = connected_app();
    app.world_mut().resource_mut::<Outbox>().0.extend([
        ClientMsg::CreateTable {
            settings: AnySettings::Forest(ForestSettings {
                rounds: 1,
                round_secs: 10,
                ..ForestSettings::timed(1)
            }),
            seats: 3,
            host_seat: false,
            seed: Some(4),
            open_replays: false,
        },
        ClientMsg::FillWithBots {
            kind: "memory".into(),
        },
        ClientMsg::Start,
    ]);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let mut acted = None;
    for _ in 0..20_000 {
        app.update();
        let model = app.world().resource::<ClientModel>().clone();
        if let Some(r) = model.lobby.as_ref().and_then(|l| l.result.clone()) {
            assert_eq!(r.places.len(), 3);
            assert!(
                model.accepted > 0,
                "the person's moves went through the hall"
            );
            assert_eq!(model.rejected, 0, "{:?}", model.last_rejection);
            return;
        }
        if let Some(view) = &model.view
            && my_turn(view)
            && acted != Some(model.revision)
            && let Some(action) = bot_move("memory", view, &mut rng)
        {
            acted = Some(model.revision);
            app.world_mut()
                .resource_mut::<Outbox>()
                .0
                .push(ClientMsg::Act { action });
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    let world = app.world_mut();
    let mut q = world.query::<bevy_ecs::entity::Entity>();
    let ents: Vec<_> = q.iter(world).collect();
    for e in ents {
        let names: Vec<String> = world
            .inspect_entity(e)
            .unwrap()
            .map(|c| c.name().to_string())
            .collect();
        eprintln!("{e:?}: {names:?}");
    }
    let model = app.world().resource::<ClientModel>();
    panic!(
        "the game did not end: connected {:?}, outbox {:?}, model {model:?}",
        app.world().resource::<Session>().state,
        app.world().resource::<Outbox>().0
    );
}

/// Updates the app until `done` holds (or panics saying what did not).
fn until(app: &mut App, what: &str, done: impl Fn(&App) -> bool) {
    for _ in 0..5_000 {
        app.update();
        if done(app) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    panic!("{what}: {:?}", app.world().resource::<ClientModel>());
}

/// What a player does while the link is being made again goes after the
/// place is taken back: a `Leave` queued between the new connection and
/// its `Welcome` leaves the table (it was refused as a stranger's, and the
/// `Resume` then put the player back at the table they had left).
#[test]
fn a_move_queued_while_reconnecting_follows_the_place_taken_back() {
    let mut app = connected_app();
    app.world_mut()
        .resource_mut::<Outbox>()
        .0
        .push(ClientMsg::CreateTable {
            settings: AnySettings::Forest(ForestSettings::timed(1)),
            seats: 3,
            host_seat: false,
            seed: Some(4),
            open_replays: false,
        });
    until(&mut app, "seated at the new table", |a| {
        let m = a.world().resource::<ClientModel>();
        m.place.is_some() && m.token.is_some()
    });
    let first = app
        .world()
        .resource::<ClientModel>()
        .place
        .expect("a place")
        .0;
    // The link is made again; before its `Welcome`, the player leaves.
    app.world_mut()
        .resource_mut::<Session>()
        .connect(Target::InProcess);
    until(&mut app, "connected again", |a| {
        a.world().resource::<Session>().is_connected()
    });
    assert!(
        app.world().resource::<ClientModel>().challenge.is_none(),
        "the test needs the moment before Welcome"
    );
    app.world_mut()
        .resource_mut::<Outbox>()
        .0
        .push(ClientMsg::Leave);
    until(&mut app, "left the table", |a| {
        let m = a.world().resource::<ClientModel>();
        m.challenge.is_some() && m.place.is_none() && a.world().resource::<Outbox>().0.is_empty()
    });
    // Some updates later the player is still not at the table.
    for _ in 0..50 {
        app.update();
    }
    let model = app.world().resource::<ClientModel>();
    assert_eq!(model.place, None, "back at table {first:?}");
    assert_eq!(model.rejected, 0, "{:?}", model.last_rejection);
}

/// Issue 68: a seat is saved under the server's key, "which every desktop
/// host shares" the name of. The app's own server's key is the one it
/// seals tokens with, and the client knows its fingerprint once welcomed.
#[test]
fn the_client_knows_its_servers_key_once_welcomed() {
    let mut app = connected_app();
    until(&mut app, "welcomed", |a| {
        a.world().resource::<ClientModel>().challenge.is_some()
    });
    let issuer = app
        .world()
        .resource::<foodweb_netcode::tokens::TokenIssuer>()
        .public_key();
    let print = foodweb_netcode::seal::fingerprint(&issuer);
    let model = app.world().resource::<ClientModel>();
    assert_eq!(model.server_key.as_deref(), Some(print.as_str()));
    assert_eq!(
        app.world().resource::<Session>().server_print(),
        Some(print)
    );
}
