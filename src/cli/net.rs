//! `foodweb serve` (the LAN server, headless) and `foodweb client` (a
//! headless client that joins through the lobby and lets a bot play).

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Args;
use foodweb_netcode::client::Target;
use foodweb_netcode::client::headless::{Part, Plan, headless_app};
use foodweb_netcode::games::{AnySettings, bot_kinds};
use foodweb_netcode::server::{Listeners, server_app};
use foodweb_netcode::{Hall, HallConfig, JournalSync};
use foodweb_rules::forest::ForestTiming;

use super::args::{CliError, playable_game, seconds_up_to_a_day, updates_per_second};

/// The UDP port a server listens on unless told otherwise (the one a
/// desktop hosting a LAN game uses).
pub const DEFAULT_PORT: u16 = crate::lan::LAN_PORT;
/// The WebSocket port a server listens on unless told otherwise.
pub const DEFAULT_WS_PORT: u16 = crate::lan::LAN_WS_PORT;

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
    /// Milliseconds a bot waits before it acts (up to 10 minutes).
    #[arg(long, default_value_t = 1100, value_parser = clap::value_parser!(u64).range(0..=600_000))]
    pub bot_delay_ms: u64,
    /// Seconds a person's seat may stay empty before a bot plays it (up to a day).
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub takeover_secs: u64,
    /// Seconds "Play again" keeps a seat at the next table for the person
    /// who had it (1 to 3,600).
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=3_600))]
    pub again_secs: u64,
    /// Minutes a table that has not started may sit with nobody doing
    /// anything at it before it closes (1 to 1,440).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=1_440))]
    pub idle_table_mins: u64,
    /// Seconds a table that has not started must have sat with nobody
    /// doing anything at it before, at the table cap, it closes to make
    /// room for a new one (1 to 3,600).
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=3_600))]
    pub room_idle_secs: u64,
    /// The most tables this server holds at once (1 to 10,000).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub max_tables: u32,
    /// Server updates per second (1 to 1000).
    #[arg(long, default_value_t = 60.0, value_parser = updates_per_second)]
    pub hz: f64,
    /// When an accepted move reaches the disk: `after-answer` writes it
    /// before anyone hears of it (a crash or kill of the server loses
    /// nothing) and flushes it to the disk right after, so no answer waits
    /// for the disk; `before-answer` flushes it first (not even a power cut
    /// loses a move; each answer waits for the disk).
    #[arg(long, value_enum, default_value_t = JournalSyncArg::AfterAnswer)]
    pub journal_sync: JournalSyncArg,
    /// Write the server's own latency here, as JSON, once a second while
    /// actions come: from an action's arrival to the send of every view
    /// it caused (`actions`, `p50_ms`, `p99_ms`, `max_ms`).
    #[arg(long)]
    pub latency_report: Option<PathBuf>,
    /// HTTP port serving the browser client (0: off).
    #[arg(long, default_value_t = 8080)]
    pub http_port: u16,
    /// The built browser client (`wasm/build.sh` makes it).
    #[arg(long, default_value = "wasm/dist")]
    pub web_dir: PathBuf,
    /// The address to listen on for UDP, WebSocket and HTTP: every
    /// interface by default, or one network's (e.g. 192.168.1.20).
    #[arg(long, default_value = "0.0.0.0")]
    pub bind: std::net::IpAddr,
    /// Joined clients from one address at once (a few devices behind one
    /// address; docs/LAN.md, "Threat model")
    #[arg(long, default_value_t = foodweb_netcode::limits::DEFAULT_PER_ADDRESS as u32, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub max_per_address: u32,
    /// Joined clients a listener at once (by default sized from the open
    /// files the system allows, up to 512)
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=65_536))]
    pub max_clients: Option<u32>,
}

/// `foodweb serve --journal-sync` (`foodweb_netcode::JournalSync`).
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum JournalSyncArg {
    AfterAnswer,
    BeforeAnswer,
}

impl From<JournalSyncArg> for JournalSync {
    fn from(arg: JournalSyncArg) -> Self {
        match arg {
            JournalSyncArg::AfterAnswer => JournalSync::AfterAnswer,
            JournalSyncArg::BeforeAnswer => JournalSync::BeforeAnswer,
        }
    }
}

#[derive(Args, Debug)]
pub struct ClientArgs {
    /// The server's address, host:port (the UDP port, or the WebSocket port with --ws).
    #[arg(long)]
    pub server: SocketAddr,
    /// Connect over WebSocket instead of UDP.
    #[arg(long)]
    pub ws: bool,
    /// With --ws: the server's token port (TCP; its UDP port number).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    pub token_port: u16,
    /// The server's key as its join link gives it (`key=`, 32 hex
    /// digits): a server that answers with another key is refused.
    #[arg(long, value_parser = parse_server_key)]
    pub server_key: Option<foodweb_netcode::seal::Pin>,
    /// Print the connect token the server issued (hex) on a line of its
    /// own, so tests can craft packets as a real guest would.
    #[arg(long)]
    pub print_token: bool,
    /// The name others see (1 to 24 characters; a person's: not "bot", no
    /// brackets).
    #[arg(long, default_value = "Headless player")]
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
    /// With --create: overrides the round length, in seconds (1 to 3600).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=3600))]
    pub round_secs: Option<u32>,
    /// With --create: the table has a host seat.
    #[arg(long)]
    pub host_seat: bool,
    /// Join this table (default: the first with an open seat).
    #[arg(long)]
    pub table: Option<u32>,
    /// Take the host seat of the first table that has one open, with the
    /// code its owner was shown (`--host CODE`).
    #[arg(long, value_name = "CODE", conflicts_with_all = ["create", "watch"])]
    pub host: Option<String>,
    /// Watch the first table.
    #[arg(long, conflicts_with = "create")]
    pub watch: bool,
    /// The bot kind that chooses this seat's moves.
    #[arg(long, default_value = "memory")]
    pub play: String,
    /// Illegal actions to send (a few each frame) while playing.
    #[arg(long, default_value_t = 0)]
    pub chaos: u32,
    /// At a Wanning table: say a line to every other living player each
    /// round once talk is open.
    #[arg(long)]
    pub talk: bool,
    /// At a Wanning table, send this many lines of talk (784 bytes each)
    /// to one player as fast as the server takes them: the robustness
    /// suite's flood.
    #[arg(long, default_value_t = 0, hide = true)]
    pub flood_talk: u32,
    /// Updates a second at least (1 to 1000): the robustness suite's
    /// guests that only hold a place idle at a few.
    #[arg(long, default_value_t = 120.0, hide = true, value_parser = updates_per_second)]
    pub hz: f64,
    /// Connect from this local address (UDP): the robustness suite's
    /// guests at 127.0.0.N.
    #[arg(long, hide = true)]
    pub from: Option<std::net::IpAddr>,
    /// Open this game's guided lesson and sit in it.
    #[arg(long, value_name = "GAME", conflicts_with_all = ["create", "watch", "host"])]
    pub learn: Option<String>,
    /// Forged fragment packets (each claiming 2^40 fragments) to send once
    /// connected: a robustness test of the server.
    #[arg(long, default_value_t = 0, hide = true)]
    pub forge_fragments: u32,
    /// Write every received message here, one JSON object a line.
    #[arg(long)]
    pub record: Option<PathBuf>,
    /// With --create: seconds each clock of a move waits before it runs
    /// down, so every device has shown what just happened (0 to 30).
    #[arg(long, default_value_t = foodweb_rules::table::USUAL_GRACE_SECS,
          value_parser = clap::value_parser!(u32).range(0..=30))]
    pub grace_secs: u32,
    /// After each game, "Play again" at the next table, this many times.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub play_again: u32,
    /// Write a JSON summary here at the end.
    #[arg(long)]
    pub summary: Option<PathBuf>,
    /// Give up after this many seconds (up to a day).
    #[arg(long, default_value_t = 600.0, value_parser = seconds_up_to_a_day)]
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
        max_tables: args.max_tables as usize,
        journal_sync: args.journal_sync.into(),
        again_ms: args.again_secs * 1000,
        idle_table_ms: args.idle_table_mins * 60_000,
        room_idle_ms: args.room_idle_secs * 1000,
        ..HallConfig::default()
    };
    // As many descriptors as the system allows, and bounds on guests sized
    // from them, before anything is opened.
    let fds = foodweb_netcode::limits::raise_fd_limit();
    let mut limits =
        foodweb_netcode::limits::ServerLimits::for_fds(fds, args.max_per_address as usize);
    if let Some(n) = args.max_clients {
        limits = limits.with_max_clients(n as usize);
    }
    let (hall, problems) = Hall::open(config).map_err(|e| CliError(e.to_string()))?;
    // netcode's key is this server's own, kept beside its tables.
    let key = foodweb_netcode::tokens::load_or_create_key(&data)
        .map_err(|e| CliError(format!("the server's key in {}: {e}", data.display())))?;
    let issuer =
        foodweb_netcode::tokens::TokenIssuer::new(key, foodweb_netcode::protocol::PROTOCOL_ID);
    for p in &problems {
        eprintln!("warning: {p} (left as it is)");
    }
    for n in hall.notices() {
        eprintln!("warning: {n}");
    }
    let udp = SocketAddr::new(args.bind, args.port);
    let ws = SocketAddr::new(args.bind, args.ws_port);
    std::net::UdpSocket::bind(udp)
        .map_err(|e| CliError(format!("cannot listen on UDP {udp}: {e}")))?;
    std::net::TcpListener::bind(udp)
        .map_err(|e| CliError(format!("cannot hand out tokens on TCP {udp}: {e}")))?;
    std::net::TcpListener::bind(ws)
        .map_err(|e| CliError(format!("cannot listen for WebSocket on {ws}: {e}")))?;
    println!(
        "foodweb server '{}': UDP port {}, WebSocket port {}, {} table(s) resumed from {}",
        args.name,
        args.port,
        args.ws_port,
        hall.table_count(),
        data.display()
    );
    if args.http_port != 0 {
        serve_web(
            &args.web_dir,
            args.bind,
            args.http_port,
            args.ws_port,
            &issuer,
            limits,
        )?;
    }
    let listeners = Listeners {
        udp: Some(udp),
        ws: Some(ws),
    };
    eprintln!(
        "note: {fds} open files; at most {} WebSocket connections ({} from one address), {} joined clients a listener ({} from one address)",
        limits.ws_total, limits.ws_per_address, limits.max_clients, limits.per_address
    );
    let mut app = server_app(hall, listeners, args.hz, issuer);
    app.insert_resource(limits);
    if let Some(path) = args.latency_report {
        app.insert_resource(foodweb_netcode::server::LatencyReport(path));
    }
    app.run();
    Ok(0)
}

pub fn client(args: ClientArgs) -> Result<i32, CliError> {
    // The server's own rule (issue 70), told before connecting.
    if let Err(why) = foodweb_netcode::names::valid_person_name(&args.name) {
        return Err(CliError(format!(
            "--name '{}': {}",
            args.name, why.reason.en
        )));
    }
    let all_bots: Vec<&str> = foodweb_rules::GameId::ALL
        .iter()
        .flat_map(|&g| bot_kinds(g).iter().copied())
        .collect();
    if !all_bots.contains(&args.play.as_str()) {
        return Err(CliError(format!(
            "--play '{}': no such bot (bots: {})",
            args.play,
            dedup(&all_bots).join(", ")
        )));
    }
    // The files the client writes are opened now: a missing folder is said
    // before connecting, not found out at the end.
    for (flag, path) in [("--record", &args.record), ("--summary", &args.summary)] {
        if let Some(path) = path {
            std::fs::File::create(path)
                .map_err(|e| CliError(format!("{flag} {}: {e}", path.display())))?;
        }
    }
    let part = if let Some(key) = &args.create {
        create_part(&args, key)?
    } else if let Some(key) = &args.learn {
        Part::Learn {
            game: playable_game(key)?,
        }
    } else if let Some(code) = args.host.clone() {
        Part::Host { code }
    } else if args.watch {
        Part::Watch
    } else {
        Part::Join { table: args.table }
    };
    let plan = Plan {
        name: args.name,
        target: if args.ws {
            Target::WebSocket {
                addr: args.server,
                tokens: SocketAddr::new(args.server.ip(), args.token_port),
            }
        } else {
            Target::Udp(args.server)
        },
        part,
        play: args.play,
        chaos: args.chaos,
        talk: args.talk,
        record: args.record,
        summary: args.summary,
        timeout_secs: args.timeout_secs,
        seed: args.seed.unwrap_or(7),
        print_token: args.print_token,
        pin: args.server_key,
        forge_fragments: args.forge_fragments,
        again: args.play_again,
        source: args.from,
        flood_talk: args.flood_talk,
        hz: args.hz,
    };
    let exit = headless_app(plan).run();
    Ok(if exit.is_success() { 0 } else { 1 })
}

/// `--create`: a new table of the game, with its seats, people, bots and
/// variant checked.
fn create_part(args: &ClientArgs, key: &str) -> Result<Part, CliError> {
    let game = playable_game(key)?;
    let range = game.seats();
    if !range.contains(&(args.seats as usize)) {
        return Err(CliError(format!(
            "--seats {}: {game} takes {} to {} players",
            args.seats,
            range.start(),
            range.end()
        )));
    }
    if args.people == 0 || args.people > args.seats as usize {
        return Err(CliError(format!(
            "--people {}: from 1 to the {} seats",
            args.people, args.seats
        )));
    }
    if !bot_kinds(game).contains(&args.bots.as_str()) {
        return Err(CliError(format!(
            "unknown {game} bot '{}' (bots: {})",
            args.bots,
            bot_kinds(game).join(", ")
        )));
    }
    let mut settings = settings_for(game, args)?;
    *settings.grace_secs_mut() = args.grace_secs;
    Ok(Part::Create {
        settings,
        seats: args.seats,
        people: args.people,
        bots: args.bots.clone(),
        seed: args.seed,
        host_seat: args.host_seat,
    })
}

/// The variant `--timing` names for the game (and `--round-secs`).
fn settings_for(game: foodweb_rules::GameId, args: &ClientArgs) -> Result<AnySettings, CliError> {
    Ok(match game {
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
        foodweb_rules::GameId::Wanning => {
            // One variant; --round-secs sets the orders clock.
            if !matches!(args.timing.as_str(), "quick" | "standard") {
                return Err(CliError(format!(
                    "unknown timing '{}' (Wanning has one: standard)",
                    args.timing
                )));
            }
            let mut s = foodweb_rules::wanning::WanningSettings::default();
            if let Some(secs) = args.round_secs {
                s.orders_secs = secs;
            }
            AnySettings::Wanning(s)
        }
    })
}

/// `--server-key`: the `key=` of a join link.
fn parse_server_key(text: &str) -> Result<foodweb_netcode::seal::Pin, String> {
    foodweb_netcode::seal::parse_pin(text)
        .ok_or_else(|| "give the key= of the server's join link: 32 hex digits".to_string())
}

/// The names once each, in their first order.
fn dedup<'a>(names: &[&'a str]) -> Vec<&'a str> {
    let mut seen = Vec::new();
    for n in names {
        if !seen.contains(n) {
            seen.push(*n);
        }
    }
    seen
}

/// Serves the built browser client and prints the address to open, with
/// its QR code. A missing build is reported, not fatal: desktop players
/// can still join.
fn serve_web(
    dir: &std::path::Path,
    bind: std::net::IpAddr,
    port: u16,
    ws_port: u16,
    issuer: &foodweb_netcode::tokens::TokenIssuer,
    limits: foodweb_netcode::limits::ServerLimits,
) -> Result<(), CliError> {
    if !dir.join("index.html").is_file() {
        eprintln!(
            "note: no browser client in {} (build it with wasm/build.sh); serving desktop players only",
            dir.display()
        );
        return Ok(());
    }
    // A taken HTTP port costs the browsers, not the game: say so, go on.
    let addr = SocketAddr::new(bind, port);
    let service = foodweb_netcode::web::HttpService {
        web_root: Some(dir.to_path_buf()),
        tokens: Some(issuer.clone()),
    };
    if let Err(e) = foodweb_netcode::web::serve_http(service, addr, limits.into()) {
        eprintln!("warning: cannot serve the browser client on HTTP port {port}: {e}");
        return Ok(());
    }
    let host = if bind.is_unspecified() {
        crate::lan::lan_ip().unwrap_or_else(|| "127.0.0.1".parse().expect("an address"))
    } else {
        bind
    };
    let url = crate::lan::web_url(host, port, ws_port, &issuer.pin());
    println!("browser players: open {url}");
    if let Some(qr) = foodweb_netcode::web::qr_text(&url) {
        println!("{qr}");
    }
    Ok(())
}
