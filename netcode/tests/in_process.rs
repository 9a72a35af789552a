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

#[test]
fn a_host_client_plays_a_whole_game_with_bots_in_process() {
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
