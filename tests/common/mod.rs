//! What the end-to-end tests share: a `foodweb serve` process on spare
//! ports and headless `foodweb client` processes.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::net::{TcpListener, UdpSocket};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_foodweb");

/// A UDP port whose TCP twin is free too (the server's token port) and a
/// TCP port for WebSocket, on every interface as the server binds them.
pub fn free_ports() -> (u16, u16) {
    let tcp = TcpListener::bind("0.0.0.0:0").unwrap();
    loop {
        let twin = TcpListener::bind("0.0.0.0:0").unwrap();
        let port = twin.local_addr().unwrap().port();
        if UdpSocket::bind(("0.0.0.0", port)).is_ok() {
            return (port, tcp.local_addr().unwrap().port());
        }
    }
}

/// A TCP port free on every interface, as the server binds its page port.
/// (A port picked on 127.0.0.1 alone may still be held on another loopback
/// address, by an attacker's connection in TIME_WAIT from an earlier test,
/// and then the server cannot listen on 0.0.0.0 with it.)
pub fn free_tcp_port() -> u16 {
    TcpListener::bind("0.0.0.0:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The server's first line of output; the rest is read and dropped by a
/// thread of its own (a closed pipe would end the server at its next line).
fn first_line(child: &mut Child) -> String {
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    line
}

/// `foodweb serve` on `ports` with `data`, quick bots and `extra`
/// arguments (no page server and no bot delay unless they ask for one).
fn serve_command(data: &Path, ports: (u16, u16), extra: &[&str]) -> Command {
    let http: &[&str] = if extra.contains(&"--http-port") {
        &[]
    } else {
        &["--http-port", "0"]
    };
    let quick_bots: &[&str] = if extra.contains(&"--bot-delay-ms") {
        &[]
    } else {
        &["--bot-delay-ms", "0"]
    };
    let mut cmd = Command::new(BIN);
    cmd.arg("serve")
        .args(http)
        .args(quick_bots)
        .args(["--name", "test", "--takeover-secs", "600"])
        .args([
            "--port",
            &ports.0.to_string(),
            "--ws-port",
            &ports.1.to_string(),
        ])
        .arg("--data")
        .arg(data)
        .args(extra)
        .stdout(Stdio::piped());
    cmd
}

pub struct Server {
    pub child: Child,
    /// What the server wrote to stderr (its warnings), for failure messages.
    stderr: std::fs::File,
    pub port: u16,
    pub ws_port: u16,
    pub data: PathBuf,
}

impl Server {
    pub fn start(data: &Path, ports: (u16, u16)) -> Self {
        Self::start_with(data, ports, &[])
    }

    /// The same, with more `serve` arguments.
    pub fn start_with(data: &Path, ports: (u16, u16), extra: &[&str]) -> Self {
        Self::spawn(serve_command(data, ports, extra), data, ports)
    }

    /// Starts `cmd` (a `serve_command`) and waits for its first line.
    fn spawn(mut cmd: Command, data: &Path, ports: (u16, u16)) -> Self {
        let stderr = tempfile::tempfile().unwrap();
        cmd.stderr(stderr.try_clone().unwrap());
        let mut child = cmd.spawn().unwrap();
        let line = first_line(&mut child);
        assert!(line.starts_with("foodweb server"), "server said: {line}");
        Self {
            child,
            stderr,
            port: ports.0,
            ws_port: ports.1,
            data: data.to_path_buf(),
        }
    }

    /// The server's warnings so far (its stderr lines that say
    /// `warning:`), for a failure message.
    pub fn warnings(&self) -> String {
        use std::io::{Read, Seek};
        let mut text = String::new();
        let mut file = &self.stderr;
        let _ = file.seek(std::io::SeekFrom::Start(0));
        let _ = file.read_to_string(&mut text);
        let lines: Vec<&str> = text.lines().filter(|l| l.contains("warning")).collect();
        lines.join("; ")
    }

    pub fn kill(&mut self) {
        let _ = self.child.kill(); // SIGKILL
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

pub fn client(server: &Server, ws: bool, name: &str, out: &Path, extra: &[&str]) -> Child {
    let port = if ws { server.ws_port } else { server.port };
    let mut cmd = Command::new(BIN);
    cmd.args([
        "client",
        "--server",
        &format!("127.0.0.1:{port}"),
        "--name",
        name,
    ]);
    if ws {
        cmd.args(["--ws", "--token-port", &server.port.to_string()]);
    }
    cmd.arg("--summary")
        .arg(out.join(format!("{name}.json")))
        .arg("--record")
        .arg(out.join(format!("{name}.jsonl")))
        .args(if extra.contains(&"--timeout-secs") {
            &[][..]
        } else {
            &["--timeout-secs", "240"][..]
        })
        .args(extra)
        .stdout(Stdio::null())
        // What it says when it gives up, for a failed test to quote.
        .stderr(
            std::fs::File::create(out.join(format!("{name}.err")))
                .map_or_else(|_| Stdio::null(), Stdio::from),
        );
    cmd.spawn().unwrap()
}

pub fn wait_all(children: Vec<Child>, limit: Duration) {
    let start = Instant::now();
    for mut c in children {
        loop {
            if let Some(status) = c.try_wait().unwrap() {
                assert!(status.success(), "a client failed: {status}");
                break;
            }
            if start.elapsed() > limit {
                let _ = c.kill();
                panic!("a client did not finish in {limit:?}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

pub fn summary(out: &Path, name: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(out.join(format!("{name}.json"))).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// Settings of the test games: one round of 20 seconds.
pub const QUICK: [&str; 4] = ["--timing", "quick", "--round-secs", "20"];

/// An attacker's address: 127.0.0.`n` (tests attack from 127.0.0.2 and up,
/// so the server's per-address limits do not fall on real clients).
pub fn attacker(n: u8) -> std::net::IpAddr {
    std::net::IpAddr::V4(std::net::Ipv4Addr::new(127, 0, 0, n))
}

/// A TCP connection to `to` from `from` (bound before connecting).
pub fn tcp_from(
    from: std::net::IpAddr,
    to: std::net::SocketAddr,
) -> std::io::Result<std::net::TcpStream> {
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None)?;
    socket.bind(&std::net::SocketAddr::new(from, 0).into())?;
    socket.connect_timeout(&to.into(), Duration::from_secs(2))?;
    Ok(socket.into())
}

/// An attacker's address in block `block`: 127.0.`block`.`n`.
pub fn attacker_at(block: u8, n: u8) -> std::net::IpAddr {
    std::net::IpAddr::V4(std::net::Ipv4Addr::new(127, 0, block, n))
}

/// `GET /token?via=…&k=…` from `from`, as a client asks (sealed to a key
/// made for the request): the token's bytes once opened, or the HTTP
/// status that refused it.
pub fn fetch_token_from(
    from: std::net::IpAddr,
    token_port: std::net::SocketAddr,
    via: &str,
) -> Result<Vec<u8>, String> {
    use std::io::{Read, Write};
    let via = foodweb_netcode::tokens::Via::parse(via).ok_or("via is udp or ws")?;
    let request = foodweb_netcode::seal::TokenRequest::new()?;
    let mut s = tcp_from(from, token_port).map_err(|e| e.to_string())?;
    s.set_read_timeout(Some(Duration::from_secs(5)))
        .map_err(|e| e.to_string())?;
    write!(
        s,
        "GET /token?{} HTTP/1.1\r\nHost: {token_port}\r\nConnection: close\r\n\r\n",
        request.query(via)
    )
    .map_err(|e| e.to_string())?;
    let mut reply = String::new();
    s.read_to_string(&mut reply).map_err(|e| e.to_string())?;
    let (head, body) = reply.split_once("\r\n\r\n").ok_or("not HTTP")?;
    if !head.starts_with("HTTP/1.1 200") {
        return Err(head.lines().next().unwrap_or("").to_string());
    }
    let sealed = foodweb_netcode::tokens::from_hex(body).ok_or("not a token")?;
    Ok(request.open(&sealed, via, None)?.token)
}

/// A connection request made of a connect token, as a netcode client
/// sends it first.
pub fn request_packet(token: &[u8]) -> Vec<u8> {
    foodweb_netcode::lightyear::netcode::fuzz::request_packet(token)
}

/// A guest speaking netcode over UDP byte by byte (no game client): it
/// joins with a token and then only keeps its connection alive, as an
/// attacker holding the server's places would.
pub struct Guest {
    pub socket: UdpSocket,
    server: std::net::SocketAddr,
    to_server: [u8; 32],
    to_client: [u8; 32],
    sequence: u64,
    /// The server said goodbye.
    gone: bool,
}

impl Guest {
    /// Joins `server` (its UDP port) from `from` with `token`. `None` if
    /// the server did not let it in within a second.
    pub fn join(
        from: std::net::IpAddr,
        server: std::net::SocketAddr,
        token: &[u8],
    ) -> Option<Self> {
        use foodweb_netcode::lightyear::netcode::fuzz;
        let protocol = foodweb_netcode::protocol::PROTOCOL_ID;
        let (to_server, to_client) = fuzz::token_keys(token)?;
        let socket = UdpSocket::bind(std::net::SocketAddr::new(from, 0)).ok()?;
        socket
            .set_read_timeout(Some(Duration::from_millis(100)))
            .ok()?;
        let request = request_packet(token);
        let mut guest = Self {
            socket,
            server,
            to_server,
            to_client,
            sequence: 0,
            gone: false,
        };
        let deadline = Instant::now() + Duration::from_secs(1);
        let mut buf = [0u8; 1500];
        let mut response: Option<Vec<u8>> = None;
        while Instant::now() < deadline {
            let _ = match &response {
                None => guest.socket.send_to(&request, server),
                Some(body) => {
                    let packet = guest.seal(3, body);
                    guest.socket.send_to(&packet, server)
                }
            };
            let Ok((n, _)) = guest.socket.recv_from(&mut buf) else {
                continue;
            };
            match fuzz::open(&buf[..n], protocol, &to_client) {
                // A challenge: answer it with its sequence and token.
                Some((2, _, body)) => response = Some(body),
                // A keep-alive: in.
                Some((4, _, _)) => return Some(guest),
                // Denied, or a disconnect.
                Some((1 | 6, _, _)) => return None,
                _ => {}
            }
        }
        None
    }

    fn seal(&mut self, kind: u8, body: &[u8]) -> Vec<u8> {
        self.sequence += 1;
        foodweb_netcode::lightyear::netcode::fuzz::seal(
            kind,
            self.sequence,
            body,
            foodweb_netcode::protocol::PROTOCOL_ID,
            &self.to_server,
        )
        .expect("a small packet")
    }

    /// A keep-alive; says whether the server still keeps the guest (it
    /// sent a keep-alive or a payload since the last call, and no
    /// disconnect).
    pub fn keep_alive(&mut self) -> bool {
        use foodweb_netcode::lightyear::netcode::fuzz;
        let packet = self.seal(4, &[0; 8]);
        let _ = self.socket.send_to(&packet, self.server);
        let _ = self.socket.set_nonblocking(true);
        let mut buf = [0u8; 1500];
        let mut kept = false;
        while let Ok((n, _)) = self.socket.recv_from(&mut buf) {
            match fuzz::open(
                &buf[..n],
                foodweb_netcode::protocol::PROTOCOL_ID,
                &self.to_client,
            ) {
                Some((4 | 5, _, _)) => kept = true,
                Some((6, _, _)) => self.gone = true,
                _ => {}
            }
        }
        let _ = self.socket.set_nonblocking(false);
        kept && !self.gone
    }

    /// Sends a raw datagram to the server from the guest's address.
    pub fn send_raw(&self, bytes: &[u8]) {
        let _ = self.socket.send_to(bytes, self.server);
    }
}

impl Server {
    /// A server whose open-file limit is `fds` (soft and hard: it cannot
    /// raise it), as on a desktop whose default is 1024.
    #[cfg(unix)]
    pub fn start_with_fd_limit(data: &Path, ports: (u16, u16), fds: u64, extra: &[&str]) -> Self {
        use std::os::unix::process::CommandExt;
        let mut cmd = serve_command(data, ports, extra);
        // SAFETY: setrlimit is async-signal-safe; nothing else runs here.
        unsafe {
            cmd.pre_exec(move || {
                let limit = libc::rlimit {
                    rlim_cur: fds as libc::rlim_t,
                    rlim_max: fds as libc::rlim_t,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        Self::spawn(cmd, data, ports)
    }

    /// File descriptors the server holds now.
    pub fn open_fds(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/fd", self.child.id())).map_or(0, |d| d.count())
    }
}
