//! The command line: the desktop client with no arguments, `sim` and
//! `scenario` for headless play.

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use foodweb_rules::GameId;
use foodweb_rules::scenario;

pub use args::{CliError, playable_game};
use args::{seconds_up_to_a_day, updates_per_second};

mod args;
pub mod net;
mod outcome;
mod report;
mod sim;
mod sweep;

#[derive(Parser, Debug)]
#[command(
    name = "foodweb",
    version,
    about = "Four party games about who eats whom. With no command, opens the desktop client."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Bots play whole games headless on every core and the results are
    /// counted: one rule variant, or a sweep of one setting's values.
    Sim(sim::SimArgs),
    /// Opens a replay file (saved from a table's replay) in the desktop
    /// client, offline.
    Replay { file: PathBuf },
    /// Runs a scripted table from a RON file and reports every step.
    Scenario {
        file: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Runs the LAN server, headless: many tables, for desktop (UDP) and
    /// browser (WebSocket) clients.
    Serve(net::ServeArgs),
    /// A headless client: joins a server through the lobby and lets a bot
    /// play its seat (for tests and measurements).
    Client(net::ClientArgs),
    /// Measures a server's hall: many 4-seat bot tables at the normal pace
    /// on one thread, no sockets; prints CPU and memory per table as JSON.
    BenchHall {
        /// forest, crueler, gene or wanning.
        #[arg(long, default_value = "forest")]
        game: String,
        /// Tables to run at once (1 to 10,000).
        #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=10_000))]
        tables: u32,
        /// Simulated seconds to run (up to a day).
        #[arg(long, default_value_t = 120.0, value_parser = seconds_up_to_a_day)]
        seconds: f64,
        /// Hall updates per simulated second (1 to 1000).
        #[arg(long, default_value_t = 60.0, value_parser = updates_per_second)]
        hz: f64,
        #[arg(long, default_value_t = 1100, value_parser = clap::value_parser!(u64).range(0..=600_000))]
        bot_delay_ms: u64,
        /// Save tables here as the server does (journal and snapshots).
        #[arg(long)]
        data: Option<PathBuf>,
    },
}

/// Runs a command; returns the process exit code.
pub fn run(command: Command) -> Result<i32, CliError> {
    match command {
        Command::Sim(args) => sim::run(args),
        Command::Replay { file } => {
            let text = std::fs::read_to_string(&file)
                .map_err(|e| CliError(format!("cannot read {}: {e}", file.display())))?;
            let replay = foodweb_netcode::replay::Replay::from_ron(&text).map_err(|e| {
                CliError(format!(
                    "{} is not a replay Foodweb opens: {e}",
                    file.display()
                ))
            })?;
            crate::client::run_with(Some(replay));
            Ok(0)
        }
        Command::Serve(args) => net::serve(args),
        Command::Client(args) => net::client(args),
        Command::BenchHall {
            game,
            tables,
            seconds,
            hz,
            bot_delay_ms,
            data,
        } => {
            let game = playable_game(&game)?;
            let report = foodweb_netcode::bench::bench_hall(
                game,
                tables as usize,
                seconds,
                hz,
                bot_delay_ms,
                data,
            )
            .map_err(CliError)?;
            println!(
                "{}",
                serde_json::to_string_pretty(&report).expect("reports serialize")
            );
            Ok(0)
        }
        Command::Scenario { file, json } => {
            let text = std::fs::read_to_string(&file)
                .map_err(|e| CliError(format!("cannot read {}: {e}", file.display())))?;
            let game = scenario::scenario_game(&text)
                .map_err(|e| CliError(format!("{}: {e}", file.display())))?;
            let failures = match game {
                GameId::Forest => {
                    print_scenario::<foodweb_rules::forest::ForestGame>(&text, json, &file)?
                }
                GameId::Gene => {
                    print_scenario::<foodweb_rules::gene::GeneGame>(&text, json, &file)?
                }
                GameId::Crueler => {
                    print_scenario::<foodweb_rules::crueler::CruelerGame>(&text, json, &file)?
                }
                GameId::Wanning => {
                    print_scenario::<foodweb_rules::wanning::WanningGame>(&text, json, &file)?
                }
            };
            Ok(if failures == 0 { 0 } else { 1 })
        }
    }
}

fn print_scenario<G: foodweb_rules::bot::Bots>(
    text: &str,
    json: bool,
    file: &std::path::Path,
) -> Result<usize, CliError> {
    let (report, _) =
        scenario::run::<G>(text).map_err(|e| CliError(format!("{}: {e}", file.display())))?;
    if json {
        println!(
            "{}",
            serde_json::to_string(&report).expect("reports serialize")
        );
    } else {
        print!("{}", report.to_text());
    }
    Ok(report.failures)
}
