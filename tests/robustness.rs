//! The robustness suite (issue 15): a real `foodweb serve` on loopback is
//! attacked as a hostile guest at a party would, from 127.0.0.2 and up,
//! while real clients play from 127.0.0.1. After every attack the server is
//! still running, a UDP and a WebSocket client can still connect and play a
//! game to its end, and its resident memory is back within 32 MiB of the
//! server at rest. docs/LAN.md ("Threat model") lists each limit.

mod common;

use std::io::{Read, Write};
use std::net::{IpAddr, SocketAddr};
use std::process::Child;
use std::time::{Duration, Instant};

use common::*;

/// The first round and rounds two and three each start dozens of processes
/// or connections, and rounds two and three time what a fresh guest gets:
/// they take turns, so none starves another's clients (libtest runs a
/// binary's tests side by side). Round two's fresh page once failed while
/// the first round's attacks ran beside it (2026-12-07).
static HEAVY: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// "resident memory after each attack is back within 32 MiB of the server
/// at rest"
const MEMORY_SLACK_KIB: u64 = 32 * 1024;

fn rss_kib(server: &Server) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.child.id())).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .expect("VmRSS in /proc/PID/status")
}

fn alive(server: &mut Server) -> bool {
    server.child.try_wait().unwrap().is_none()
}

/// A two-person game: one person over UDP opens it, one over WebSocket
/// joins; two bots fill it. Returns the clients, to be waited for.
fn game(server: &Server, out: &std::path::Path, tag: &str) -> Vec<Child> {
    let mut create = vec![
        "--create", "forest", "--seats", "4", "--people", "2", "--seed", "5",
    ];
    create.extend(["--timing", "quick", "--round-secs", "12"]);
    vec![
        client(server, false, &format!("Udp{tag}"), out, &create),
        client(server, true, &format!("Ws{tag}"), out, &[]),
    ]
}

fn finished(out: &std::path::Path, tag: &str) {
    for name in [format!("Udp{tag}"), format!("Ws{tag}")] {
        let s = summary(out, &name);
        assert_eq!(s["finished"], true, "{name}: {s}");
    }
}

/// After an attack: the server runs, a new UDP and WebSocket game
/// finishes, and memory is back near where it was at rest.
fn still_whole(
    server: &mut Server,
    out: &std::path::Path,
    rest: u64,
    attack: &str,
    report: &mut Vec<String>,
) {
    assert!(alive(server), "the server died under: {attack}");
    let peak = rss_kib(server);
    wait_all(game(server, out, attack), Duration::from_secs(90));
    finished(out, attack);
    // Give the server a moment to let go of what the attack left.
    let deadline = Instant::now() + Duration::from_secs(15);
    let mut after = rss_kib(server);
    while after > rest + MEMORY_SLACK_KIB && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(250));
        after = rss_kib(server);
    }
    report.push(format!(
        "{attack}: memory at rest {} MiB, right after {} MiB, after a game {} MiB",
        rest / 1024,
        peak / 1024,
        after / 1024
    ));
    assert!(
        after <= rest + MEMORY_SLACK_KIB,
        "{attack}: {} MiB resident after, {} MiB at rest",
        after / 1024,
        rest / 1024
    );
}

/// Issue 15, items 1, 2, 5 and 3's limits, each against one server:
/// "reproduces each attack above against a real `foodweb serve` and shows
/// that the server keeps running, a real UDP and a real WebSocket client
/// can still connect and finish a game during and after it, and resident
/// memory after each attack is back within 32 MiB of the server at rest."
#[test]
fn a_hostile_guest_cannot_crash_starve_or_bloat_the_server() {
    let _turn = HEAVY.lock().unwrap_or_else(|e| e.into_inner());
    let data = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let mut server = Server::start(data.path(), free_ports());
    let ws = SocketAddr::from(([127, 0, 0, 1], server.ws_port));
    let token_port = SocketAddr::from(([127, 0, 0, 1], server.port));
    std::thread::sleep(Duration::from_millis(500));
    let rest = rss_kib(&server);
    let mut report = Vec::new();

    // A game runs through all the attacks (started before they begin).
    let during = game(&server, out.path(), "During");
    let started = Instant::now();
    while !data.path().join("table-1.journal").exists() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the game did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }

    // 1. "a fragment packet that claims 2^40 fragments" from a client
    //    holding a real token.
    let forger = client(
        &server,
        false,
        "Forger",
        out.path(),
        &["--watch", "--forge-fragments", "512", "--timeout-secs", "8"],
    );
    let _ = wait_forger(forger);
    let forged = summary(out.path(), "Forger");
    assert!(forged["forged_sent"].as_u64().unwrap() >= 512, "{forged}");
    still_whole(&mut server, out.path(), rest, "fragments", &mut report);

    // 2. Connections that never send the upgrade, to the WebSocket port and
    //    the token port, from many addresses, far past the handshake limits.
    let mut idle = Vec::new();
    for n in 2..42u8 {
        for _ in 0..50 {
            for to in [ws, token_port] {
                if let Ok(s) = tcp_from(attacker(n), to) {
                    idle.push(s);
                }
            }
        }
    }
    let opened = idle.len();
    assert!(opened >= 2000, "only {opened} connections opened");
    // While they hang on, real clients still get in.
    still_whole(
        &mut server,
        out.path(),
        rest,
        "idle connections",
        &mut report,
    );
    drop(idle);
    report.push(format!("idle connections: {opened} opened"));

    // 3. "30,000 unfinished handshakes": connection requests from 30,000
    //    addresses and ports, none with a token the server sealed. Each new
    //    address costs the server a link until it is dropped (10 s).
    let udp = SocketAddr::from(([127, 0, 0, 1], server.port));
    let mut request = vec![0u8; 1078];
    request[1..14].copy_from_slice(b"NETCODE 1.02\0");
    let mut sent = 0;
    for n in 2..32u8 {
        for _ in 0..1000 {
            let Ok(socket) = std::net::UdpSocket::bind(SocketAddr::new(attacker(n), 0)) else {
                continue;
            };
            if socket.send_to(&request, udp).is_ok() {
                sent += 1;
            }
        }
    }
    assert!(sent >= 29_000, "only {sent} handshakes sent");
    std::thread::sleep(Duration::from_secs(11));
    still_whole(&mut server, out.path(), rest, "udp handshakes", &mut report);
    report.push(format!("udp handshakes: {sent} sent from 30 addresses"));

    // 4. Tokens: one address gets a burst and then waits.
    let mut granted = 0;
    let mut refused = 0;
    for _ in 0..40 {
        match token_from(attacker(50), token_port) {
            Some(200) => granted += 1,
            Some(429) => refused += 1,
            other => panic!("token port answered {other:?}"),
        }
    }
    assert!(
        granted <= 11 && refused >= 29,
        "{granted} granted, {refused} refused"
    );
    report.push(format!(
        "tokens from one address: {granted} granted, {refused} refused"
    ));

    // 5. Eight parallel 16 MiB WebSocket messages.
    let big: Vec<_> = (0..8u8)
        .map(|i| {
            std::thread::spawn(move || {
                let stream = tcp_from(attacker(60 + i), ws).unwrap();
                let url = format!("ws://{ws}");
                let Ok((mut socket, _)) = tungstenite::client(url, stream) else {
                    return;
                };
                let huge = vec![7u8; 16 * 1024 * 1024];
                let _ = socket.send(tungstenite::Message::Binary(huge.into()));
                let _ = socket.read();
            })
        })
        .collect();
    for t in big {
        let _ = t.join();
    }
    still_whole(
        &mut server,
        out.path(),
        rest,
        "16 MiB messages",
        &mut report,
    );

    wait_all(during, Duration::from_secs(120));
    finished(out.path(), "During");
    assert!(alive(&mut server), "the server died");
    for line in &report {
        println!("{line}");
    }
    server.kill();
}

/// The forger exits when its time is up (it only watches); its exit code
/// does not matter, its summary does.
fn wait_forger(mut child: Child) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            return child.wait().unwrap();
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The HTTP status of `GET /token?via=udp&k=…` asked from `from`.
fn token_from(from: IpAddr, to: SocketAddr) -> Option<u16> {
    let request = foodweb_netcode::seal::TokenRequest::new().ok()?;
    let mut s = tcp_from(from, to).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    write!(
        s,
        "GET /token?{} HTTP/1.0\r\n\r\n",
        request.query(foodweb_netcode::tokens::Via::Udp)
    )
    .ok()?;
    let mut reply = String::new();
    s.read_to_string(&mut reply).ok()?;
    reply.split_whitespace().nth(1)?.parse().ok()
}

/// The scale (tools/attack-server.sh) when FOODWEB_ATTACK_SCALE is
/// `full`; a small one otherwise, within the suite's budget.
fn scale(small: usize, full: usize) -> usize {
    if std::env::var("FOODWEB_ATTACK_SCALE").as_deref() == Ok("full") {
        full
    } else {
        small
    }
}

/// A WebSocket that finished the upgrade from `from` (and says nothing).
fn upgraded_from(
    from: IpAddr,
    ws: SocketAddr,
) -> Option<tungstenite::WebSocket<std::net::TcpStream>> {
    let stream = tcp_from(from, ws).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(3))).ok()?;
    tungstenite::client(format!("ws://{ws}"), stream)
        .ok()
        .map(|(socket, _)| socket)
}

/// Issue 33, items 1 to 6, against one server with a small pool of places
/// (`--max-clients`, `--max-per-address`): "Each attack above ... leaves
/// the server up; a real UDP player and a real WebSocket player can join
/// and finish a game during and after it; ... resident memory is back
/// within 32 MiB of its baseline" once the attackers stop.
#[test]
fn round_two_a_guest_cannot_end_fill_or_outlast_the_server() {
    let _turn = HEAVY.lock().unwrap_or_else(|e| e.into_inner());
    let data = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let web = tempfile::tempdir().unwrap();
    std::fs::write(web.path().join("index.html"), "<html>Foodweb</html>").unwrap();
    let big: Vec<u8> = (0..4 << 20)
        .map(|i: u32| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    std::fs::write(web.path().join("big.bin"), &big).unwrap();
    let http_port = free_tcp_port();
    let pool = scale(24, 256).to_string();
    let per_address = scale(4, 16).to_string();
    let http = http_port.to_string();
    let web_dir = web.path().to_str().unwrap().to_string();
    let mut server = Server::start_with(
        data.path(),
        free_ports(),
        &[
            "--http-port",
            &http,
            "--web-dir",
            &web_dir,
            "--max-clients",
            &pool,
            "--max-per-address",
            &per_address,
        ],
    );
    let udp = SocketAddr::from(([127, 0, 0, 1], server.port));
    let ws = SocketAddr::from(([127, 0, 0, 1], server.ws_port));
    let page = SocketAddr::from(([127, 0, 0, 1], http_port));
    std::thread::sleep(Duration::from_millis(500));
    if let Err(why) = page_from(attacker_at(4, 9), page) {
        panic!(
            "no page before the attacks: {why}; the server's warnings: {}",
            server.warnings()
        );
    }
    let rest = rss_kib(&server);
    let mut report = Vec::new();
    let during = game(&server, out.path(), "During2");
    let t0 = Instant::now();

    // 1. "Fetch a token ... send the connection request, then one packet
    //    whose prefix byte declares a sequence length of 9 to 15": before
    //    joining, once joined, and inside WebSocket frames.
    let mut noise = vec![0x96u8];
    noise.extend((0..40u8).map(|i| i.wrapping_mul(91)));
    let token = fetch_token_from(attacker_at(1, 2), udp, "udp").unwrap();
    let socket = std::net::UdpSocket::bind(SocketAddr::new(attacker_at(1, 2), 0)).unwrap();
    socket.send_to(&request_packet(&token), udp).unwrap();
    std::thread::sleep(Duration::from_millis(100));
    for len in 9u8..16 {
        noise[0] = len << 4 | 6;
        socket.send_to(&noise, udp).unwrap();
    }
    let token = fetch_token_from(attacker_at(1, 3), udp, "udp").unwrap();
    let guest = Guest::join(attacker_at(1, 3), udp, &token).expect("a guest joins");
    for len in 9u8..16 {
        noise[0] = len << 4 | 6;
        guest.send_raw(&noise);
    }
    let token = fetch_token_from(attacker_at(1, 4), udp, "ws").unwrap();
    if let Some(mut socket) = upgraded_from(attacker_at(1, 4), ws) {
        let _ = socket.send(tungstenite::Message::Binary(request_packet(&token).into()));
        std::thread::sleep(Duration::from_millis(100));
        let _ = socket.send(tungstenite::Message::Binary(noise.clone().into()));
    }
    std::thread::sleep(Duration::from_millis(300));
    assert!(alive(&mut server), "one datagram ended the server");
    report.push(format!(
        "prefix 0x96..0xf6: the server stays up ({:.0} s in)",
        t0.elapsed().as_secs_f64()
    ));

    // 5. "After its first connection left, the same token connected 6 more
    //    times, from 6 other addresses": one token, one connection.
    drop(guest);
    let token = fetch_token_from(attacker_at(1, 5), udp, "udp").unwrap();
    let first = Guest::join(attacker_at(1, 5), udp, &token);
    assert!(first.is_some(), "a fresh token joins");
    drop(first);
    let reused = (6..12u8)
        .filter(|&n| Guest::join(attacker_at(1, n), udp, &token).is_some())
        .count();
    assert_eq!(reused, 0, "a used token connected again");
    assert!(
        Guest::join(attacker_at(1, 5), udp, &token).is_none(),
        "a used token connected again from its own address"
    );

    // 4. "30 addresses, each fetching its 10 tokens and keeping the
    //    connections alive with keep-alives only, took all 256 slots".
    let addresses = scale(8, 30) as u8;
    let joins: Vec<_> = (2..2 + addresses)
        .map(|n| {
            std::thread::spawn(move || {
                let mut mine = Vec::new();
                for _ in 0..10 {
                    let Ok(token) = fetch_token_from(attacker_at(2, n), udp, "udp") else {
                        break;
                    };
                    if let Some(g) = Guest::join(attacker_at(2, n), udp, &token) {
                        mine.push(g);
                    }
                }
                mine
            })
        })
        .collect();
    let mut guests: Vec<Guest> = joins.into_iter().flat_map(|t| t.join().unwrap()).collect();
    let joined = guests.len();
    // Which the server still keeps, a few keep-alives later (it sends
    // one a second to each joined client).
    for _ in 0..4 {
        for g in &mut guests {
            g.keep_alive();
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    let mut kept = vec![false; guests.len()];
    for _ in 0..5 {
        for (g, k) in guests.iter_mut().zip(&mut kept) {
            *k |= g.keep_alive();
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    let held = kept.iter().filter(|&&k| k).count();
    let pool_size: usize = pool.parse().unwrap();
    let per: usize = per_address.parse().unwrap();
    assert!(
        held > 0 && held <= pool_size && held <= per * addresses as usize,
        "{held} of {joined} joined guests held"
    );
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let keeper = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                for g in &mut guests {
                    g.keep_alive();
                }
                std::thread::sleep(Duration::from_millis(500));
            }
        })
    };
    // A real player gets in while they hold on (the idle guests make
    // room once they have idled their grace).
    still_whole(
        &mut server,
        out.path(),
        rest + 64 * 1024,
        "udp places",
        &mut report,
    );
    report.push(format!(
        "udp places: {joined} idle guests joined from {addresses} addresses, {held} held ({:.0} s in)",
        t0.elapsed().as_secs_f64()
    ));

    // 2 and 3. "WebSockets that finish the upgrade and then stay silent":
    // the server holds a bounded number, and lets them go.
    let flooders = scale(8, 64) as u8;
    let per = scale(40, 300);
    let floods: Vec<_> = (2..2 + flooders)
        .map(|n| {
            std::thread::spawn(move || {
                let mut held = Vec::new();
                for _ in 0..per {
                    if let Some(s) = upgraded_from(attacker_at(3, n), ws) {
                        held.push(s);
                    }
                }
                std::thread::sleep(Duration::from_secs(2));
                held.len()
            })
        })
        .collect();
    let upgraded: usize = floods.into_iter().map(|t| t.join().unwrap()).sum();
    report.push(format!(
        "silent websockets: {upgraded} upgraded from {flooders} addresses, {} descriptors open after ({:.0} s in)",
        server.open_fds(),
        t0.elapsed().as_secs_f64()
    ));
    assert!(alive(&mut server));

    // 6. Slow readers of a large file, and a slowloris on the token and
    //    WebSocket ports: a fresh address still gets the page and tokens.
    let readers: Vec<_> = (0..scale(16, 32))
        .filter_map(|i| {
            let from = attacker_at(4, 2 + (i % 2) as u8);
            let s =
                socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).ok()?;
            s.set_recv_buffer_size(4096).ok()?;
            s.bind(&SocketAddr::new(from, 0).into()).ok()?;
            s.connect(&page.into()).ok()?;
            let mut s: std::net::TcpStream = s.into();
            write!(s, "GET /big.bin HTTP/1.1\r\nHost: {page}\r\n\r\n").ok()?;
            Some(s)
        })
        .collect();
    let mut loris = Vec::new();
    for n in 2..2 + scale(24, 64) as u8 {
        for to in [token_port_of(&server), ws] {
            for _ in 0..scale(8, 16) {
                if let Ok(mut s) = tcp_from(attacker_at(5, n), to) {
                    let _ = s.write_all(b"G");
                    loris.push(s);
                }
            }
        }
    }
    std::thread::sleep(Duration::from_secs(1));
    let started = Instant::now();
    let got_page = page_from(attacker_at(4, 9), page);
    let page_secs = started.elapsed().as_secs_f64();
    if let Err(why) = got_page {
        panic!(
            "a fresh address got no page: {why}; the server holds {} descriptors; its warnings: {}",
            server.open_fds(),
            server.warnings()
        );
    }
    assert!(page_secs < 2.0, "the page took {page_secs:.1} s");
    let fresh = (2..26u8)
        .filter(|&n| fetch_token_from(attacker_at(6, n), token_port_of(&server), "udp").is_ok())
        .count();
    assert_eq!(fresh, 24, "only {fresh} of 24 fresh addresses got a token");
    report.push(format!(
        "slow readers {} and slowloris {}: a fresh page in {page_secs:.2} s, {fresh}/24 fresh tokens",
        readers.len(),
        loris.len()
    ));
    // The slow readers are cut once they fall under the minimum rate: the
    // server lets go of their sockets.
    drop(loris);
    let during_fds = server.open_fds();
    std::thread::sleep(Duration::from_secs(14));
    let after_fds = server.open_fds();
    report.push(format!(
        "slow readers: the server held {during_fds} descriptors while they read, {after_fds} after the minimum rate's grace ({:.0} s in)",
        t0.elapsed().as_secs_f64()
    ));
    assert!(
        after_fds + readers.len() / 2 <= during_fds,
        "the slow readers were not cut: {during_fds} then {after_fds} descriptors"
    );
    drop(readers);

    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    keeper.join().unwrap();
    still_whole(
        &mut server,
        out.path(),
        rest,
        "round two, after",
        &mut report,
    );
    wait_all(during, Duration::from_secs(120));
    finished(out.path(), "During2");
    for line in &report {
        println!("{line}");
    }
    server.kill();
}

fn token_port_of(server: &Server) -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], server.port))
}

/// Whether `GET /` from `from` is answered 200 within 5 s.
/// The page from `from`, or what went wrong and after how long (so that a
/// failure says whether the connection, the request or the answer failed).
fn page_from(from: IpAddr, page: SocketAddr) -> Result<(), String> {
    let started = Instant::now();
    let at = || format!("{:.2} s", started.elapsed().as_secs_f64());
    let mut s = tcp_from(from, page).map_err(|e| format!("connect: {e} after {}", at()))?;
    let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
    write!(
        s,
        "GET / HTTP/1.1\r\nHost: {page}\r\nConnection: close\r\n\r\n"
    )
    .map_err(|e| format!("request: {e} after {}", at()))?;
    let mut reply = Vec::new();
    let read = s.read_to_end(&mut reply);
    let reply = String::from_utf8_lossy(&reply);
    if reply.starts_with("HTTP/1.1 200") && reply.contains("Foodweb") {
        return Ok(());
    }
    let head = reply.lines().next().unwrap_or("");
    Err(format!(
        "answer {head:?} ({} bytes, read {:?}) after {}",
        reply.len(),
        read.err().map(|e| e.kind()),
        at()
    ))
}

/// Issue 33, item 2: "With a soft limit of 1024 open files ... WebSockets
/// that finish the upgrade and then stay silent ... filled every
/// descriptor" and the journal lost lines. With the same limit, the
/// server keeps descriptors for its files, and after kill -9 the table
/// loads with every accepted move.
#[test]
fn round_two_a_full_descriptor_table_loses_no_move() {
    let data = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let mut server = Server::start_with_fd_limit(data.path(), free_ports(), 1024, &[]);
    let ws = SocketAddr::from(([127, 0, 0, 1], server.ws_port));
    let players = game(&server, out.path(), "Fd");
    let started = Instant::now();
    while !data.path().join("table-1.journal").exists() {
        assert!(started.elapsed() < Duration::from_secs(30), "no game");
        std::thread::sleep(Duration::from_millis(50));
    }
    // "8 pending per address from 8 addresses", again and again.
    let mut most = 0;
    let floods: Vec<_> = (2..10u8)
        .map(|n| {
            std::thread::spawn(move || {
                let mut held = Vec::new();
                let until = Instant::now() + Duration::from_secs(8);
                while Instant::now() < until {
                    match upgraded_from(attacker_at(7, n), ws) {
                        Some(s) => held.push(s),
                        None => std::thread::sleep(Duration::from_millis(20)),
                    }
                }
                held.len()
            })
        })
        .collect();
    let until = Instant::now() + Duration::from_secs(8);
    while Instant::now() < until {
        most = most.max(server.open_fds());
        std::thread::sleep(Duration::from_millis(100));
    }
    let upgraded: usize = floods.into_iter().map(|t| t.join().unwrap()).sum();
    assert!(
        (most as u64) < 1024 - foodweb_netcode::limits::RESERVED_FDS / 2,
        "the server held {most} descriptors of 1024"
    );
    println!(
        "descriptors: at most {most} of 1024 held while {upgraded} silent websockets were upgraded"
    );
    // kill -9 mid-game: every move a player was told was accepted is in
    // the journal, which reads back whole.
    server.kill();
    for p in players {
        let mut p = p;
        let _ = p.kill();
        let _ = p.wait();
    }
    let (hall, problems) = foodweb_netcode::Hall::open(foodweb_netcode::HallConfig {
        data_dir: Some(data.path().to_path_buf()),
        ..foodweb_netcode::HallConfig::default()
    })
    .unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    assert!(hall.notices().is_empty(), "{:?}", hall.notices());
    assert_eq!(hall.table_count(), 1);
}

/// `foodweb serve`'s bound on tables waiting to start from one address.
fn unstarted_per_address() -> usize {
    foodweb_netcode::HallConfig::default().unstarted_per_address
}
/// Round three's server: an unstarted table idle this long makes room.
const ROOM_IDLE_SECS: u64 = 3;

/// What a client received so far, as its record says.
fn record_of(out: &std::path::Path, name: &str) -> String {
    std::fs::read_to_string(out.join(format!("{name}.jsonl"))).unwrap_or_default()
}

/// The kind of each message in a client's record ("Welcome", "Tables", ...).
fn kinds_of(record: &str) -> String {
    record
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .map(|v| match &v["msg"] {
            serde_json::Value::Object(m) => m.keys().next().cloned().unwrap_or_default(),
            other => other.as_str().unwrap_or_default().to_string(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Round three's guests who hold places, and what they were given; they
/// are ended when it is dropped (a failed assertion leaves none behind).
struct Held {
    children: Vec<Child>,
    /// Each guest's name, and whether it holds a lesson.
    names: Vec<(String, bool)>,
    lessons: usize,
    tables: usize,
    refused: usize,
}

impl Drop for Held {
    fn drop(&mut self) {
        for c in &mut self.children {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// On each of `addresses` addresses, `per_address` connections: half hold
/// a lesson, half sit at a table they open and never start. They come a
/// few at a time from each address (the server takes 4 handshakes at once
/// from one), each let in or refused before the next come. Every lesson
/// is held (8 from one address may be); an address's tables past
/// `unstarted_per_address()` are refused, saying why.
fn hold_places(server: &Server, out: &std::path::Path, addresses: u8, per_address: usize) -> Held {
    let mut held = Held {
        children: Vec::new(),
        names: Vec::new(),
        lessons: 0,
        tables: 0,
        refused: 0,
    };
    for first in (0..per_address).step_by(3) {
        let mut batch = Vec::new();
        for a in 0..addresses {
            let at = attacker_at(5, a + 1).to_string();
            for c in first..(first + 3).min(per_address) {
                let name = format!("Holder{a}x{c}");
                let lesson = c % 2 == 0;
                let part: &[&str] = if lesson {
                    &["--learn", "forest"]
                } else {
                    &["--create", "forest", "--people", "4"]
                };
                // Ten updates a second: hundreds of them idle on two cores.
                let mut args = vec!["--from", at.as_str(), "--hz", "10", "--timeout-secs", "240"];
                args.extend(part);
                held.children.push(client(server, false, &name, out, &args));
                batch.push((name, lesson));
            }
        }
        let deadline = Instant::now() + Duration::from_secs(30);
        for (name, lesson) in &batch {
            loop {
                let record = record_of(out, name);
                if record.contains("\"Joined\"") {
                    *if *lesson {
                        &mut held.lessons
                    } else {
                        &mut held.tables
                    } += 1;
                    break;
                }
                if record.contains("\"Rejected\"") {
                    assert!(
                        !lesson
                            && record
                                .contains("tables opened from your address are waiting to start"),
                        "{name} was refused: {record}"
                    );
                    held.refused += 1;
                    break;
                }
                assert!(
                    Instant::now() < deadline,
                    "{name} was neither let in nor refused in 30 s: {} messages ({}); it said: {}",
                    record.lines().count(),
                    kinds_of(&record),
                    std::fs::read_to_string(out.join(format!("{name}.err"))).unwrap_or_default()
                );
                std::thread::sleep(Duration::from_millis(100));
            }
        }
        held.names.extend(batch);
    }
    let tables_each = per_address / 2;
    assert_eq!(
        held.lessons,
        addresses as usize * (per_address - tables_each)
    );
    assert_eq!(
        held.tables,
        addresses as usize * tables_each.min(unstarted_per_address())
    );
    assert_eq!(
        held.refused,
        addresses as usize * tables_each.saturating_sub(unstarted_per_address())
    );
    held
}

/// Lines `seat` said at Wanning table `table` that the server kept: its
/// saved record replayed, as that seat's own view holds them.
fn talk_kept(
    data: &std::path::Path,
    table: foodweb_netcode::messages::TableId,
    seat: foodweb_rules::table::SeatId,
) -> usize {
    use foodweb_netcode::games::{AnyView, replay_table};
    let store = foodweb_netcode::TableStore::open(data).unwrap();
    let id = foodweb_netcode::hall::store_id(table);
    let record = foodweb_netcode::Hall::saved_record(&store, &id).unwrap();
    let snapshot = record.snapshot.expect("the flood's table started");
    let game = replay_table(foodweb_rules::GameId::Wanning, &snapshot).unwrap();
    let AnyView::Wanning(view) = game.view(Some(seat)) else {
        panic!("table {table} is not a Wanning table")
    };
    view.talk.iter().filter(|l| l.from == seat).count()
}

/// Issue 70, the third round, at a small scale (the with
/// tools/attack-server.sh): "A seated Wanning player sends 782-byte
/// private lines to another player as fast as the server takes them"
/// while another table plays; "28 addresses × 10 connections each open a
/// guided lesson (or an ordinary table they sit at and never start)" while
/// a real player opens a table. The flood's lines past the table's bounds
/// are refused, the victim's game and the other table's go to their end;
/// the real player's table opens and plays to its end; memory comes back.
#[test]
fn round_three_talk_lessons_and_waiting_tables_crowd_out_no_one() {
    let _turn = HEAVY.lock().unwrap_or_else(|e| e.into_inner());
    let data = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let (addresses, per_address) = (scale(2, 28) as u8, scale(12, 10));
    // The cap is what the holders can hold: every address's tables up
    // to the per-address bound (4 waiting to start).
    let max_tables =
        (addresses as usize * (per_address / 2).min(unstarted_per_address())).to_string();
    let room_idle = ROOM_IDLE_SECS.to_string();
    let latency = out.path().join("latency.json");
    let mut server = Server::start_with(
        data.path(),
        free_ports(),
        &[
            "--max-tables",
            &max_tables,
            "--room-idle-secs",
            &room_idle,
            "--latency-report",
            latency.to_str().unwrap(),
        ],
    );
    std::thread::sleep(Duration::from_millis(500));
    let rest = rss_kib(&server);
    let mut report = Vec::new();
    let t0 = Instant::now();

    // 1. The talk flood, at a Wanning table of two people and two bots,
    //    while a Forest table plays.
    let lines = scale(400, 4379);
    let lines_arg = lines.to_string();
    let from = |block, n| attacker_at(block, n).to_string();
    let (flooder_at, victim_at) = (from(4, 1), from(4, 2));
    // The flood's table is the server's first; the victim sits there, and
    // the table starts, before the table beside it opens.
    let mut flood = vec![client(
        &server,
        false,
        "Flooder",
        out.path(),
        &[
            "--from",
            &flooder_at,
            "--create",
            "wanning",
            "--seats",
            "4",
            "--people",
            "2",
            "--bots",
            "reasoning",
            "--seed",
            "11",
            "--flood-talk",
            &lines_arg,
            "--timeout-secs",
            "120",
        ],
    )];
    std::thread::sleep(Duration::from_millis(1500));
    flood.push(client(
        &server,
        false,
        "Victim",
        out.path(),
        &[
            "--from",
            &victim_at,
            "--table",
            "1",
            "--timeout-secs",
            "120",
        ],
    ));
    std::thread::sleep(Duration::from_millis(1500));
    let beside = game(&server, out.path(), "BesideFlood");
    let peak_flood = {
        let mut peak = 0;
        let mut children = flood;
        children.extend(beside);
        let start = Instant::now();
        while children.iter_mut().any(|c| c.try_wait().unwrap().is_none()) {
            peak = peak.max(rss_kib(&server));
            assert!(
                start.elapsed() < Duration::from_secs(150),
                "the flood's games did not end"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
        peak
    };
    finished(out.path(), "BesideFlood");
    let victim = summary(out.path(), "Victim");
    assert_eq!(victim["finished"], true, "the victim's game: {victim}");
    let flooder = summary(out.path(), "Flooder");
    let rejected = flooder["rejected"].as_u64().unwrap();
    // The flooder talks from round 2 while it lives and the game lasts
    // (how many it sends depends on how fast the rounds go).
    let said = flooder["said"].as_u64().unwrap();
    assert!(said > 10, "{flooder}");
    // 「任意兩名玩家可以自由交流」, within the table's bounds: 10 lines in 10
    // seconds, 200 a game by default. What the server kept is counted from
    // its record: refusals sent after the game ended, as the flooder left,
    // never reach it.
    assert!(rejected > 0, "no line of {said} was refused");
    // The summary names the seat as people do, 1-based (`SeatId`'s serde).
    let seat: foodweb_rules::table::SeatId =
        serde_json::from_value(flooder["seat"].clone()).expect("the flooder sat");
    let kept = talk_kept(data.path(), 1, seat);
    let most = usize::from(foodweb_rules::wanning::WanningSettings::default().talk_per_game);
    assert!(
        kept > 0 && kept <= most,
        "{kept} of the flooder's {said} lines kept"
    );
    // Figures, not assertions (speed is a benchmark's to judge): the
    // server's own action-to-view latency over every table, and the table
    // beside the flood's as its people measured it.
    std::thread::sleep(Duration::from_millis(1200));
    let served: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&latency).unwrap_or_default())
            .unwrap_or_default();
    let beside_p99 = summary(out.path(), "UdpBesideFlood")["latency_p99_ms"].clone();
    report.push(format!(
        "talk flood of {said} lines: {kept} kept, {rejected} refusals heard, the victim's game and the table beside it ended; the server's p99 {} ms (max {}) over {} actions, the table beside it p99 {beside_p99} ms; the victim received {} messages, {} KiB; peak memory {} MiB ({:.0} s in)",
        served["p99_ms"],
        served["max_ms"],
        served["actions"],
        victim["messages_received"],
        victim["bytes_received"].as_u64().unwrap_or(0) / 1024,
        peak_flood / 1024,
        t0.elapsed().as_secs_f64()
    ));

    // 2. Lessons and tables never started, from many addresses, hold the
    //    table cap (the flood's tables have ended: they hold no place);
    //    a real player opens a table once one of theirs has been idle for
    //    the server's `--room-idle-secs`, and plays it to its end.
    let held = hold_places(&server, out.path(), addresses, per_address);
    assert!(alive(&mut server), "the server died under the holders");
    std::thread::sleep(Duration::from_secs(ROOM_IDLE_SECS + 1));
    let crowded = client(
        &server,
        false,
        "Crowded",
        out.path(),
        &[
            "--create",
            "forest",
            "--seats",
            "4",
            "--people",
            "1",
            "--seed",
            "5",
            "--timing",
            "quick",
            "--round-secs",
            "12",
        ],
    );
    wait_all(vec![crowded], Duration::from_secs(90));
    let s = summary(out.path(), "Crowded");
    assert_eq!(s["finished"], true, "the real player's table: {s}");
    // The one idle longest made room, and its people were told why.
    let made_room: Vec<_> = held
        .names
        .iter()
        .filter(|(name, _)| record_of(out.path(), name).contains("closed to make room"))
        .collect();
    assert_eq!(made_room.len(), 1, "{made_room:?}");
    let (connections, lessons, tables, refused) =
        (held.names.len(), held.lessons, held.tables, held.refused);
    drop(held);
    // The server hears they are gone when netcode's timeout (5 s) passes;
    // till then their tables' open seats would take the next joiner.
    std::thread::sleep(Duration::from_secs(6));
    report.push(format!(
        "{} connections from {addresses} addresses: {} lessons and {} tables held (the cap), {} tables refused by the per-address bound; a real table opened as the idlest made room, and played to its end ({:.0} s in)",
        connections,
        lessons,
        tables,
        refused,
        t0.elapsed().as_secs_f64()
    ));
    still_whole(&mut server, out.path(), rest, "round three", &mut report);
    for line in &report {
        println!("{line}");
    }
    server.kill();
}
