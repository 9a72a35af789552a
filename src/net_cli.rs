//! `foodweb serve` (the LAN server, headless) and `foodweb client` (a
//! headless client that joins through the lobby and lets a bot play).

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Args;
use foodweb_netcode::client::Target;
use foodweb_netcode::client::headless::{Part, Plan, headless_app};
use foodweb_netcode::games::{AnySettings, bot_kinds};
use foodweb_netcode::server::{Listeners, server_app};
use foodweb_netcode::{Hall, HallConfig};
use foodweb_rules::forest::ForestTiming;

use crate::cli::{CliError, playable_game};

/// The UDP port a server listens on unless told otherwise (the one a
/// desktop hosting a LAN game uses).
pub const DEFAULT_PORT: u16 = crate::client::LAN_PORT;
/// The WebSocket port a server listens on unless told otherwise.
pub const DEFAULT_WS_PORT: u16 = crate::client::LAN_WS_PORT;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// UDP port for desktop clients.
    #[arg(long, default_value_t = DEFAULT_PORT)]
    pub port: u16,
    /// WebSocket port for browsers (and any client given --ws).
    #[arg(long, default_value_t = DEFAULT_WS_PORT)]
    pub ws_port: u16,
    /// Where tables are saved; a restart with the same folder resumes them.
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// The name LAN players see.
    #[arg(long, default_value = "Foodweb")]
    pub name: String,
    /// Milliseconds a bot waits before it acts.
    #[arg(long, default_value_t = 1100)]
    pub bot_delay_ms: u64,
    /// Seconds a person's seat may stay empty before a bot plays it.
    #[arg(long, default_value_t = 60)]
    pub takeover_secs: u64,
    /// Server updates per second.
    #[arg(long, default_value_t = 60.0)]
    pub hz: f64,
    /// HTTP port serving the browser client (0: off).
    #[arg(long, default_value_t = 8080)]
    pub http_port: u16,
    /// The built browser client (`wasm/build.sh` makes it).
    #[arg(long, default_value = "wasm/dist")]
    pub web_dir: PathBuf,
}

#[derive(Args, Debug)]
pub struct ClientArgs {
    /// The server's address, host:port (the UDP port, or the WebSocket port with --ws).
    #[arg(long)]
    pub server: SocketAddr,
    /// Connect over WebSocket instead of UDP.
    #[arg(long)]
    pub ws: bool,
    #[arg(long, default_value = "Bot player")]
    pub name: String,
    /// Open a table of this game (otherwise take a seat at an open one).
    #[arg(long)]
    pub create: Option<String>,
    #[arg(long, default_value_t = 4)]
    pub seats: u8,
    /// With --create: persons to wait for (this client included) before
    /// filling the other seats with bots and starting.
    #[arg(long, default_value_t = 1)]
    pub people: usize,
    /// With --create: the bot kind for the other seats.
    #[arg(long, default_value = "memory")]
    pub bots: String,
    #[arg(long)]
    pub seed: Option<u64>,
    /// With --create: three-rounds, four-rounds, long or quick.
    #[arg(long, default_value = "quick")]
    pub timing: String,
    /// With --create: overrides the round length, in seconds.
    #[arg(long)]
    pub round_secs: Option<u32>,
    /// With --create: the table has a host seat.
    #[arg(long)]
    pub host_seat: bool,
    /// Join this table (default: the first with an open seat).
    #[arg(long)]
    pub table: Option<u32>,
    /// Take the host seat of the first table that has one open.
    #[arg(long, conflicts_with_all = ["create", "watch"])]
    pub host: bool,
    /// Watch the first table.
    #[arg(long, conflicts_with = "create")]
    pub watch: bool,
    /// The bot kind that chooses this seat's moves.
    #[arg(long, default_value = "memory")]
    pub play: String,
    /// Illegal actions to send (a few each frame) while playing.
    #[arg(long, default_value_t = 0)]
    pub chaos: u32,
    /// Write every received message here, one JSON object a line.
    #[arg(long)]
    pub record: Option<PathBuf>,
    /// Write a JSON summary here at the end.
    #[arg(long)]
    pub summary: Option<PathBuf>,
    #[arg(long, default_value_t = 600.0)]
    pub timeout_secs: f64,
}

pub fn serve(args: ServeArgs) -> Result<i32, CliError> {
    let data = match args.data {
        Some(dir) => dir,
        None => directories::ProjectDirs::from("", "", "foodweb")
            .map(|d| d.data_dir().join("tables"))
            .ok_or_else(|| CliError("no data folder found: give one with --data".into()))?,
    };
    let config = HallConfig {
        name: args.name.clone(),
        bot_delay_ms: args.bot_delay_ms,
        takeover_ms: args.takeover_secs * 1000,
        data_dir: Some(data.clone()),
    };
    let (hall, problems) = Hall::open(config).map_err(|e| CliError(e.to_string()))?;
    for p in &problems {
        eprintln!("warning: {p} (left as it is)");
    }
    std::net::UdpSocket::bind(("0.0.0.0", args.port))
        .map_err(|e| CliError(format!("cannot listen on UDP port {}: {e}", args.port)))?;
    std::net::TcpListener::bind(("0.0.0.0", args.ws_port)).map_err(|e| {
        CliError(format!(
            "cannot listen on WebSocket port {}: {e}",
            args.ws_port
        ))
    })?;
    println!(
        "foodweb server '{}': UDP port {}, WebSocket port {}, {} table(s) resumed from {}",
        args.name,
        args.port,
        args.ws_port,
        hall.table_count(),
        data.display()
    );
    if args.http_port != 0 {
        serve_web(&args.web_dir, args.http_port, args.ws_port)?;
    }
    let listeners = Listeners {
        udp: Some(SocketAddr::from(([0, 0, 0, 0], args.port))),
        ws: Some(SocketAddr::from(([0, 0, 0, 0], args.ws_port))),
    };
    server_app(hall, listeners, args.hz).run();
    Ok(0)
}

pub fn client(args: ClientArgs) -> Result<i32, CliError> {
    let part = if let Some(key) = &args.create {
        let game = playable_game(key)?;
        if !bot_kinds(game).contains(&args.bots.as_str()) {
            return Err(CliError(format!(
                "unknown {game} bot '{}' (bots: {})",
                args.bots,
                bot_kinds(game).join(", ")
            )));
        }
        let settings = match game {
            foodweb_rules::GameId::Forest => {
                let timing = match args.timing.as_str() {
                    "three-rounds" => ForestTiming::ThreeRounds,
                    "four-rounds" => ForestTiming::FourRounds,
                    "long" => ForestTiming::Long,
                    "quick" => ForestTiming::Quick,
                    other => {
                        return Err(CliError(format!(
                            "unknown timing '{other}' (three-rounds, four-rounds, long, quick)"
                        )));
                    }
                };
                let mut s = timing.settings();
                if let Some(secs) = args.round_secs {
                    s.round_secs = secs;
                }
                AnySettings::Forest(s)
            }
            foodweb_rules::GameId::Gene => {
                use foodweb_rules::gene::GeneTiming;
                let timing = match args.timing.as_str() {
                    // The Forest default name stands for "the default".
                    "party" | "three-rounds" => GeneTiming::Party,
                    "brisk" => GeneTiming::Brisk,
                    "untimed" => GeneTiming::Untimed,
                    other => {
                        return Err(CliError(format!(
                            "unknown timing '{other}' (party, brisk, untimed)"
                        )));
                    }
                };
                AnySettings::Gene(timing.settings())
            }
            foodweb_rules::GameId::Crueler => {
                use foodweb_rules::crueler::{CruelerSettings, DuelKind};
                let duel = match args.timing.as_str() {
                    "beasts" | "three-rounds" => DuelKind::Beasts,
                    "dice" => DuelKind::Dice,
                    other => {
                        return Err(CliError(format!("unknown duel '{other}' (beasts, dice)")));
                    }
                };
                AnySettings::Crueler(CruelerSettings {
                    duel,
                    ..CruelerSettings::default()
                })
            }
            other => return Err(CliError(format!("{other} is not playable yet"))),
        };
        Part::Create {
            settings,
            seats: args.seats,
            people: args.people,
            bots: args.bots.clone(),
            seed: args.seed,
            host_seat: args.host_seat,
        }
    } else if args.host {
        Part::Host
    } else if args.watch {
        Part::Watch
    } else {
        Part::Join { table: args.table }
    };
    let plan = Plan {
        name: args.name,
        target: if args.ws {
            Target::WebSocket(args.server)
        } else {
            Target::Udp(args.server)
        },
        part,
        play: args.play,
        chaos: args.chaos,
        record: args.record,
        summary: args.summary,
        timeout_secs: args.timeout_secs,
        seed: args.seed.unwrap_or(7),
    };
    let exit = headless_app(plan).run();
    Ok(if exit.is_success() { 0 } else { 1 })
}

/// Serves the built browser client and prints the address to open, with
/// its QR code. A missing build is reported, not fatal: desktop players
/// can still join.
fn serve_web(dir: &std::path::Path, port: u16, ws_port: u16) -> Result<(), CliError> {
    if !dir.join("index.html").is_file() {
        eprintln!(
            "note: no browser client in {} (build it with wasm/build.sh); serving desktop players only",
            dir.display()
        );
        return Ok(());
    }
    // A taken HTTP port costs the browsers, not the game: say so, go on.
    let addr = SocketAddr::from(([0, 0, 0, 0], port));
    if let Err(e) = foodweb_netcode::web::serve_static(dir.to_path_buf(), addr) {
        eprintln!("warning: cannot serve the browser client on HTTP port {port}: {e}");
        return Ok(());
    }
    let host = crate::client::lan_ip().unwrap_or_else(|| "127.0.0.1".parse().expect("an address"));
    let url = web_url(host, port, ws_port);
    println!("browser players: open {url}");
    if let Some(qr) = foodweb_netcode::web::qr_text(&url) {
        println!("{qr}");
    }
    Ok(())
}

/// The address a phone opens: the page, told which WebSocket port to use.
pub fn web_url(host: std::net::IpAddr, port: u16, ws_port: u16) -> String {
    if ws_port == DEFAULT_WS_PORT {
        format!("http://{host}:{port}/")
    } else {
        format!("http://{host}:{port}/?ws={ws_port}")
    }
}
