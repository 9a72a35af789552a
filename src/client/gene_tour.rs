//! The Gene Survival screenshot tour: with `FOODWEB_TOUR` naming a folder
//! and `FOODWEB_TOUR_GAME=gene`, plays a game against five bots the way a
//! player would (the seat's moves chosen by the survivor bot from the
//! seat's own view) and saves `gene-setup.png`, `gene-trade.png`,
//! `gene-action.png` (the map with the rooms in reach), `gene-settlement.png`
//! (a settlement played out on the map), `gene-zh.png` and
//! `gene-game-over.png`, then quits. `FOODWEB_TOUR_SUFFIX` is added to each
//! name.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use foodweb_netcode::client::{ClientModel, Outbox};
use foodweb_netcode::games::{AnyAction, AnyView, bot_move};
use foodweb_netcode::messages::ClientMsg;
use foodweb_rules::gene::{GeneAction, GenePhase, GeneTiming, ItemKind, RoomId, map};
use foodweb_rules::table::SeatId;
use foodweb_rules::{GameId, Lang};
use rand::SeedableRng;

use super::net::SeatSide;
use super::screens::TableSetup;
use super::screens::gene_table::GeneUi;
use super::{Screen, UserSettings};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Step {
    Start,
    Setup,
    Trade,
    Action,
    Settlement,
    Chinese,
    GameOver,
    Quit,
}

#[derive(Resource)]
struct GeneTour {
    dir: PathBuf,
    suffix: String,
    step: Step,
    wait: f32,
    /// Seconds left before the tour gives up on a step.
    patience: f32,
    rng: rand_chacha::ChaCha8Rng,
    /// The last model revision the seat acted on.
    acted_at: u64,
    /// A picture to take once the wait is over (the screen has settled).
    shot: Option<&'static str>,
}

fn begin(mut commands: Commands) {
    let (Ok(dir), Ok(game)) = (
        std::env::var("FOODWEB_TOUR"),
        std::env::var("FOODWEB_TOUR_GAME"),
    ) else {
        return;
    };
    if game != "gene" {
        return;
    }
    commands.insert_resource(GeneTour {
        dir: dir.into(),
        suffix: std::env::var("FOODWEB_TOUR_SUFFIX").unwrap_or_default(),
        step: Step::Start,
        wait: 2.5,
        patience: 600.0,
        rng: rand_chacha::ChaCha8Rng::seed_from_u64(5),
        acted_at: 0,
        shot: None,
    });
}

fn shoot(commands: &mut Commands, tour: &GeneTour, name: &str) {
    let path = tour.dir.join(format!("{name}{}.png", tour.suffix));
    commands
        .spawn(Screenshot::primary_window())
        .observe(save_to_disk(path));
}

fn act(outbox: &mut Outbox, action: GeneAction) {
    outbox.0.push(ClientMsg::Act {
        action: AnyAction::Gene(action),
    });
}

#[allow(clippy::too_many_arguments)]
fn run(
    mut commands: Commands,
    time: Res<Time<Real>>,
    tour: Option<ResMut<GeneTour>>,
    screen: Res<State<Screen>>,
    mut next: ResMut<NextState<Screen>>,
    mut settings: ResMut<UserSettings>,
    mut setup: ResMut<TableSetup>,
    model: Res<ClientModel>,
    mut outbox: ResMut<Outbox>,
    mut ui: ResMut<GeneUi>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(mut tour) = tour else { return };
    if *screen.get() == Screen::Loading {
        return;
    }
    let dt = time.delta_secs();
    tour.wait -= dt;
    tour.patience -= dt;
    if tour.patience < 0.0 {
        error!("gene tour: gave up at {:?}", tour.step);
        exit.write(AppExit::error());
        return;
    }
    if tour.wait > 0.0 {
        return;
    }
    if let Some(name) = tour.shot.take() {
        shoot(&mut commands, &tour, name);
        tour.wait = 0.5;
        return;
    }
    let view = model.gene_view().cloned();
    match tour.step {
        Step::Start => {
            settings.lang = Lang::En;
            *setup = TableSetup::for_game(GameId::Gene, "Ann".into());
            setup.seats = 6;
            setup.seed = 11;
            setup.gene_timing = GeneTiming::Untimed;
            next.set(Screen::Setup);
            super::screens::request_start(&mut commands);
            tour.step = Step::Setup;
            tour.wait = 4.0;
        }
        Step::Setup => {
            let Some(v) = view else { return };
            if v.phase != GenePhase::Setup {
                return;
            }
            ui.spawn = map().by_key("e2-office");
            tour.step = Step::Trade;
            tour.wait = 1.0;
            // The picture shows the panel editor and the chosen room.
            tour.shot = Some("gene-setup");
        }
        Step::Trade => {
            let Some(v) = view else { return };
            match v.phase {
                GenePhase::Setup if v.to_act => {
                    let spawn = ui.spawn.or(map().by_key("e2-office")).unwrap_or(RoomId(0));
                    act(
                        &mut outbox,
                        GeneAction::Prepare {
                            genes: foodweb_rules::gene::Genes {
                                strength: 4,
                                speed: 3,
                                carry: 3,
                            },
                            spawn,
                        },
                    );
                    tour.wait = 1.0;
                }
                GenePhase::Free => {
                    ui.trade.open = true;
                    ui.trade.to = Some(SeatId(2));
                    ui.trade.want = vec![ItemKind::Water, ItemKind::Food];
                    ui.trade.swap_order = true;
                    tour.step = Step::Action;
                    tour.wait = 1.0;
                    tour.shot = Some("gene-trade");
                }
                _ => {}
            }
        }
        Step::Action => {
            let Some(v) = view else { return };
            ui.trade.open = false;
            if v.phase == GenePhase::Free && v.to_act && !v.ready {
                act(&mut outbox, GeneAction::Ready);
                tour.wait = 0.5;
                return;
            }
            if v.phase == GenePhase::Action && v.to_act && !v.moved {
                tour.step = Step::Settlement;
                tour.wait = 0.5;
                tour.shot = Some("gene-action");
            }
        }
        Step::Settlement => {
            let Some(v) = view else { return };
            if v.round >= 2 && !v.settlement.is_empty() {
                // A few lines into the settlement's playback.
                tour.step = Step::Chinese;
                tour.wait = 5.0;
                tour.shot = Some("gene-settlement");
                return;
            }
            play_my_seat(&mut tour, &model, &mut outbox);
        }
        Step::Chinese => {
            if settings.lang == Lang::En {
                settings.lang = Lang::Zh;
                tour.wait = 1.0;
                return;
            }
            let Some(v) = view else { return };
            if v.phase == GenePhase::Action && v.to_act && !v.moved {
                tour.step = Step::GameOver;
                tour.wait = 0.5;
                tour.shot = Some("gene-zh");
                return;
            }
            play_my_seat(&mut tour, &model, &mut outbox);
        }
        Step::GameOver => {
            let Some(v) = view else { return };
            if v.result.is_some() {
                tour.step = Step::Quit;
                tour.wait = 20.0;
                return;
            }
            play_my_seat(&mut tour, &model, &mut outbox);
        }
        Step::Quit => {
            if tour.patience > 5.0 {
                tour.shot = Some("gene-game-over");
                tour.patience = 4.0;
                tour.wait = 1.0;
                return;
            }
            exit.write(AppExit::Success);
        }
    }
}

/// The seat plays as the survivor bot would, from its own view only, once
/// per new view.
fn play_my_seat(tour: &mut GeneTour, model: &ClientModel, outbox: &mut Outbox) {
    let Some(view) = &model.view else { return };
    if tour.acted_at == model.revision || !matches!(view, AnyView::Gene(v) if v.to_act) {
        return;
    }
    if let Some(action) = bot_move("survivor", view, &mut tour.rng) {
        outbox.0.push(ClientMsg::Act { action });
        tour.acted_at = model.revision;
        tour.wait = 0.3;
    }
}

/// Moves the pointer to a corner, so no tooltip covers the pictures.
fn park_pointer(mut windows: Query<&mut Window>, tour: Option<Res<GeneTour>>) {
    if tour.is_none() {
        return;
    }
    for mut window in &mut windows {
        if window.cursor_position() != Some(Vec2::new(2.0, 2.0)) {
            window.set_cursor_position(Some(Vec2::new(2.0, 2.0)));
        }
    }
}

pub fn plugin(app: &mut App) {
    app.add_systems(Startup, begin)
        .add_systems(Update, (park_pointer, run).chain());
}
