//! Frame times while the table moves (`dev` feature): with `FOODWEB_FRAMES`
//! naming a file, every frame's time is written there with whether a
//! motion ran, and each update's time until its last motion ended, so the
//! figures of issue 19 (median and worst frame during an animation, newest
//! state shown within 300 ms) come from a real run under Xvfb.

use std::io::Write;

use bevy::prelude::*;

use super::Settling;

#[derive(Resource)]
struct FrameLog {
    path: String,
    /// (frame milliseconds, a motion ran)
    frames: Vec<(f32, bool)>,
    /// Milliseconds from an update to its last motion's end.
    settled: Vec<f32>,
    pending: Option<f32>,
    seen: Option<f32>,
}

fn record(time: Res<Time<Real>>, settling: Res<Settling>, log: Option<ResMut<FrameLog>>) {
    let Some(mut log) = log else { return };
    let now = time.elapsed_secs();
    log.frames
        .push((time.delta_secs() * 1000.0, settling.moving));
    // A newer update supersedes one still moving: its pieces jumped to
    // their places when it came (`finish_motions`).
    if settling.update_at.is_some() && settling.update_at != log.seen {
        if let Some(at) = log.pending {
            let superseded = settling.update_at.unwrap_or(at);
            log.settled.push((superseded - at) * 1000.0);
        }
        log.pending = settling.update_at;
        log.seen = settling.update_at;
    }
    if let Some(at) = log.pending
        && !settling.moving
    {
        // Shown this frame: the time since the update, plus this frame.
        log.settled.push((now - at) * 1000.0);
        log.pending = None;
    }
}

fn percentile(sorted: &[f32], p: f32) -> f32 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() - 1) as f32 * p).round() as usize]
}

fn write_out(log: Option<Res<FrameLog>>, mut exits: MessageReader<AppExit>) {
    let (Some(log), Some(_)) = (log, exits.read().next()) else {
        return;
    };
    let mut moving: Vec<f32> = log.frames.iter().filter(|f| f.1).map(|f| f.0).collect();
    moving.sort_by(f32::total_cmp);
    let mut settled = log.settled.clone();
    settled.sort_by(f32::total_cmp);
    let mut all: Vec<f32> = log.frames.iter().map(|f| f.0).collect();
    all.sort_by(f32::total_cmp);
    let text = format!(
        "frames: {}, median ms: {:.1}\nframes during motion: {}\nmedian frame ms: {:.1}\nworst frame ms: {:.1}\nupdates: {}\nupdate to settled, median ms: {:.0}\nupdate to settled, worst ms: {:.0}\n",
        all.len(),
        percentile(&all, 0.5),
        moving.len(),
        percentile(&moving, 0.5),
        moving.last().copied().unwrap_or(0.0),
        settled.len(),
        percentile(&settled, 0.5),
        settled.last().copied().unwrap_or(0.0),
    );
    if let Ok(mut f) = std::fs::File::create(&log.path) {
        let _ = f.write_all(text.as_bytes());
    }
}

/// With `FOODWEB_FILM` naming a folder: every frame of the first motions
/// saved as `film-<motion>-<frame>.png`, for the docs' frame sequences.
#[derive(Resource)]
struct Film {
    dir: std::path::PathBuf,
    motion: usize,
    frame: usize,
    was_moving: bool,
}

/// Motions filmed, and frames kept of each.
const FILM_MOTIONS: usize = 60;
const FILM_FRAMES: usize = 24;

fn film(mut commands: Commands, settling: Res<Settling>, film: Option<ResMut<Film>>) {
    use bevy::render::view::screenshot::{Screenshot, save_to_disk};
    let Some(mut film) = film else { return };
    if settling.moving && !film.was_moving {
        film.motion += 1;
        film.frame = 0;
    }
    film.was_moving = settling.moving;
    if !settling.moving || film.motion > FILM_MOTIONS || film.frame >= FILM_FRAMES {
        return;
    }
    let path = film
        .dir
        .join(format!("film-{:03}-{:02}.png", film.motion, film.frame));
    film.frame += 1;
    commands
        .spawn(Screenshot::primary_window())
        .observe(save_to_disk(path));
}

pub fn plugin(app: &mut App) {
    if let Ok(dir) = std::env::var("FOODWEB_FILM") {
        let _ = std::fs::create_dir_all(&dir);
        app.insert_resource(Film {
            dir: dir.into(),
            motion: 0,
            frame: 0,
            was_moving: false,
        });
    }
    app.add_systems(Last, film);
    if let Ok(path) = std::env::var("FOODWEB_FRAMES") {
        app.insert_resource(FrameLog {
            path,
            frames: Vec::new(),
            settled: Vec::new(),
            pending: None,
            seen: None,
        });
    }
    app.add_systems(Last, (record, write_out).chain());
}
