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

pub struct Server {
    pub child: Child,
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
        let mut child = Command::new(BIN)
            .args([
                "serve",
                "--http-port",
                "0",
                "--name",
                "test",
                "--bot-delay-ms",
                "0",
                "--takeover-secs",
                "600",
            ])
            .args([
                "--port",
                &ports.0.to_string(),
                "--ws-port",
                &ports.1.to_string(),
            ])
            .arg("--data")
            .arg(data)
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert!(line.starts_with("foodweb server"), "server said: {line}");
        Self {
            child,
            port: ports.0,
            ws_port: ports.1,
            data: data.to_path_buf(),
        }
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
        .stderr(Stdio::null());
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
