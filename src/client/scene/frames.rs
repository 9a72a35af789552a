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
    /// The last update counted.
    counted: Option<f32>,
}

fn record(time: Res<Time<Real>>, settling: Res<Settling>, log: Option<ResMut<FrameLog>>) {
    let Some(mut log) = log else { return };
    let now = time.elapsed_secs();
    log.frames
        .push((time.delta_secs() * 1000.0, settling.moving));
    // Each update counts once: from its arrival to the first frame with
    // nothing moving (a newer update first ends the older's motion).
    if settling.update_at.is_some() && settling.update_at != log.counted {
        log.pending = settling.update_at;
        log.counted = settling.update_at;
    }
    if let Some(at) = log.pending
        && !settling.moving
        && now > at
    {
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
    let text = format!(
        "frames during motion: {}\nmedian frame ms: {:.1}\nworst frame ms: {:.1}\nupdates: {}\nupdate to settled, median ms: {:.0}\nupdate to settled, worst ms: {:.0}\n",
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

pub fn plugin(app: &mut App) {
    if let Ok(path) = std::env::var("FOODWEB_FRAMES") {
        app.insert_resource(FrameLog {
            path,
            frames: Vec::new(),
            settled: Vec::new(),
            pending: None,
            counted: None,
        });
    }
    app.add_systems(Last, (record, write_out).chain());
}
