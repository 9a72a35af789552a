//! The Crueler World screenshot tour: with `FOODWEB_TOUR` naming a folder
//! and `FOODWEB_TOUR_GAME=crueler`, plays a game against seven bots as a
//! player would (the seat's moves chosen by the survivor bot from the
//! seat's own view, except that it preys when first asked, to show a duel)
//! and saves `crueler-table.png`, `crueler-asked.png`, `crueler-duel.png`,
//! `crueler-zh.png` and `crueler-game-over.png`, then quits.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use foodweb_netcode::client::{ClientModel, Outbox};
use foodweb_netcode::games::{AnyAction, AnyView, bot_move};
use foodweb_netcode::messages::ClientMsg;
use foodweb_rules::crueler::{CruelerAction, CruelerPhase};
use foodweb_rules::{GameId, Lang};
use rand::SeedableRng;

use super::net::SeatSide;
use super::screens::TableSetup;
use super::{Screen, UserSettings};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Step {
    Start,
    Table,
    Asked,
    Duel,
    Chinese,
    GameOver,
    Quit,
}

#[derive(Resource)]
struct CruelerTour {
    dir: PathBuf,
    suffix: String,
    step: Step,
    wait: f32,
    patience: f32,
    rng: rand_chacha::ChaCha8Rng,
    acted_at: u64,
    shot: Option<&'static str>,
}

fn begin(mut commands: Commands) {
    let (Ok(dir), Ok(game)) = (
        std::env::var("FOODWEB_TOUR"),
        std::env::var("FOODWEB_TOUR_GAME"),
    ) else {
        return;
    };
    if game != "crueler" {
        return;
    }
    commands.insert_resource(CruelerTour {
        dir: dir.into(),
        suffix: std::env::var("FOODWEB_TOUR_SUFFIX").unwrap_or_default(),
        step: Step::Start,
        wait: 2.5,
        patience: 600.0,
        rng: rand_chacha::ChaCha8Rng::seed_from_u64(9),
        acted_at: 0,
        shot: None,
    });
}

#[allow(clippy::too_many_arguments)]
fn run(
    mut commands: Commands,
    time: Res<Time<Real>>,
    tour: Option<ResMut<CruelerTour>>,
    screen: Res<State<Screen>>,
    mut next: ResMut<NextState<Screen>>,
    mut settings: ResMut<UserSettings>,
    mut setup: ResMut<TableSetup>,
    model: Res<ClientModel>,
    mut outbox: ResMut<Outbox>,
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
        error!("crueler tour: gave up at {:?}", tour.step);
        exit.write(AppExit::error());
        return;
    }
    if tour.wait > 0.0 {
        return;
    }
    if let Some(name) = tour.shot.take() {
        let path = tour.dir.join(format!("{name}{}.png", tour.suffix));
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(path));
        tour.wait = 0.5;
        return;
    }
    let view = model.crueler_view().cloned();
    match tour.step {
        Step::Start => {
            settings.lang = Lang::En;
            *setup = TableSetup::for_game(GameId::Crueler, "Ann".into());
            setup.seats = 8;
            setup.seed = 21;
            next.set(Screen::Setup);
            super::screens::request_start(&mut commands);
            tour.step = Step::Table;
            tour.wait = 4.0;
        }
        Step::Table => {
            let Some(v) = view else { return };
            if v.phase == CruelerPhase::Interlude {
                tour.shot = Some("crueler-table");
                tour.step = Step::Asked;
                tour.wait = 1.0;
            }
        }
        Step::Asked => {
            let Some(v) = view else { return };
            if v.phase == CruelerPhase::Interlude && v.to_act && !v.ready {
                act(&mut outbox, CruelerAction::Ready);
                tour.wait = 0.5;
                return;
            }
            if v.phase == CruelerPhase::Predation && v.to_act && !v.targets.is_empty() {
                tour.shot = Some("crueler-asked");
                tour.step = Step::Duel;
                tour.wait = 1.0;
                return;
            }
            play_my_seat(&mut tour, &model, &mut outbox);
        }
        Step::Duel => {
            let Some(v) = view else { return };
            if v.phase == CruelerPhase::Predation
                && v.to_act
                && v.duel.is_none()
                && let Some(&target) = v.targets.first()
            {
                act(&mut outbox, CruelerAction::Prey { target });
                tour.wait = 1.0;
                return;
            }
            if let Some(d) = &v.duel
                && !d.chosen
            {
                if d.throws.is_empty() {
                    // Show the first choice, then play it out.
                    act(
                        &mut outbox,
                        CruelerAction::Choose {
                            beast: foodweb_rules::crueler::Beast::Tiger,
                        },
                    );
                    tour.wait = 1.5;
                    return;
                }
                tour.shot = Some("crueler-duel");
                tour.step = Step::Chinese;
                tour.wait = 0.5;
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
            if v.phase == CruelerPhase::Interlude {
                tour.shot = Some("crueler-zh");
                tour.step = Step::GameOver;
                tour.wait = 1.0;
                return;
            }
            play_my_seat(&mut tour, &model, &mut outbox);
        }
        Step::GameOver => {
            let Some(v) = view else { return };
            if v.result.is_some() {
                tour.shot = Some("crueler-game-over");
                tour.step = Step::Quit;
                tour.wait = 2.0;
                return;
            }
            play_my_seat(&mut tour, &model, &mut outbox);
        }
        Step::Quit => {
            exit.write(AppExit::Success);
        }
    }
}

fn act(outbox: &mut Outbox, action: CruelerAction) {
    outbox.0.push(ClientMsg::Act {
        action: AnyAction::Crueler(action),
    });
}

fn play_my_seat(tour: &mut CruelerTour, model: &ClientModel, outbox: &mut Outbox) {
    let Some(view) = &model.view else { return };
    if tour.acted_at == model.revision || !matches!(view, AnyView::Crueler(v) if v.to_act) {
        return;
    }
    if let Some(action) = bot_move("survivor", view, &mut tour.rng) {
        outbox.0.push(ClientMsg::Act { action });
        tour.acted_at = model.revision;
        tour.wait = 0.3;
    }
}

fn park_pointer(mut windows: Query<&mut Window>, tour: Option<Res<CruelerTour>>) {
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
