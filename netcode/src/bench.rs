//! How much a hall costs: many 4-seat tables of bots at the normal pace
//! (a move every `bot_delay_ms`), driven on one thread as fast as it goes,
//! with no sockets. `foodweb bench-hall` prints the report.

use std::time::Instant;

use foodweb_rules::GameId;
use foodweb_rules::forest::ForestSettings;
use serde::Serialize;

use crate::games::{AnySettings, bot_kinds};
use crate::hall::{Hall, HallConfig};
use crate::messages::{ClientMsg, PROTOCOL_VERSION};

#[derive(Clone, Debug, Serialize)]
pub struct HallBench {
    pub game: GameId,
    pub tables: usize,
    pub simulated_secs: f64,
    pub wall_secs: f64,
    /// Simulated seconds per wall second on one core.
    pub realtime_factor: f64,
    /// Tables one core keeps up with at the normal pace.
    pub tables_per_core: f64,
    pub actions: u64,
    pub saves: u64,
    pub rss_before_kib: u64,
    pub rss_after_kib: u64,
    pub kib_per_table: f64,
    pub persisted: bool,
}

/// Resident memory of this process, in KiB (0 where /proc is missing).
pub fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map_or(0, |pages| pages * 4)
}

pub fn bench_hall(
    game: GameId,
    tables: usize,
    simulated_secs: f64,
    hz: f64,
    bot_delay_ms: u64,
    data_dir: Option<std::path::PathBuf>,
) -> Result<HallBench, String> {
    let persisted = data_dir.is_some();
    let (mut hall, _) = Hall::open(HallConfig {
        name: "bench".into(),
        bot_delay_ms,
        takeover_ms: 0,
        data_dir,
        max_tables: tables,
        ..HallConfig::default()
    })
    .map_err(|e| e.to_string())?;
    let rss_before_kib = rss_kib();
    // Each table: a person opens it, fills it with bots (the game's best
    // kind), starts it and leaves; with no grace time a bot stands in at
    // once. Forest Showdown plays its quick timing, so rounds end inside
    // a short run.
    let settings = match game {
        GameId::Forest => AnySettings::Forest(ForestSettings::quick()),
        other => AnySettings::default_for(other)
            .ok_or_else(|| format!("{other} is not hosted by this build"))?,
    };
    let bot = bot_kinds(game).first().copied().unwrap_or("random");
    for i in 0..tables as u64 {
        hall.connect(i);
        for msg in [
            ClientMsg::Hello {
                name: format!("P{i}"),
                version: PROTOCOL_VERSION,
            },
            ClientMsg::CreateTable {
                settings: settings.clone(),
                seats: 4,
                host_seat: false,
                seed: Some(i),
                open_replays: false,
            },
            ClientMsg::FillWithBots { kind: bot.into() },
            ClientMsg::Start,
        ] {
            hall.handle(i, msg);
        }
        hall.disconnect(i);
    }
    hall.drain();
    let step_ms = 1000.0 / hz;
    let steps = (simulated_secs * hz) as u64;
    let before = hall.stats.accepted;
    let started = Instant::now();
    for s in 1..=steps {
        hall.tick((s as f64 * step_ms) as u64);
        hall.drain();
    }
    let wall_secs = started.elapsed().as_secs_f64();
    let rss_after_kib = rss_kib();
    let realtime_factor = simulated_secs / wall_secs;
    Ok(HallBench {
        game,
        tables,
        simulated_secs,
        wall_secs,
        realtime_factor,
        tables_per_core: tables as f64 * realtime_factor,
        actions: hall.stats.accepted - before,
        saves: hall.stats.saves,
        rss_before_kib,
        rss_after_kib,
        kib_per_table: rss_after_kib.saturating_sub(rss_before_kib) as f64 / tables as f64,
        persisted,
    })
}
