//! Connect tokens. netcode admits a client only with a token sealed by the
//! server's private key, so the key stays on the server: made at random on
//! a server's first start, kept in its data folder, never sent. A client
//! asks for a token over HTTP (`GET /token?via=udp|ws&k=<its key>`) on the
//! token port (TCP, the UDP port's number; browsers ask the page's own
//! server), and the server makes one for it (its own client id, a short
//! life, the server's own timeout) and seals it to the key the client sent
//! (`seal.rs`): a token carries its session's keys, so no listener may
//! read one (docs/LAN.md, "Threat model").
//!
//! Before, the key was built into the binary, so anyone could mint tokens
//! that never expired and fill every connection slot; and until issue 34
//! tokens travelled in the clear.

use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, PoisonError};

use bevy_ecs::prelude::Resource;

/// netcode's private key.
pub type Key = [u8; 32];

/// Seconds a token may be used to start connecting.
pub const TOKEN_EXPIRE_SECS: i32 = 30;
/// Seconds of silence after which the server drops a client (and the
/// client gives up): set by the server, in the token.
pub const CLIENT_TIMEOUT_SECS: i32 = 5;
/// Tokens one address may ask for in a burst, and how fast its allowance
/// comes back (one every `TOKEN_REFILL_SECS`).
pub const TOKEN_BURST: f64 = 10.0;
pub const TOKEN_REFILL_SECS: f64 = 3.0;
/// The file in a server's data folder that holds its key.
pub const KEY_FILE: &str = "netcode.key";

// Where a token request names how it will connect and carries keys as
// hex: the sealing's wire format (`seal.rs`), named here too.
pub use crate::seal::{Via, from_hex, to_hex};

/// Why no token was given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("give your key: k=<64 hex digits> (a key made for this request)")]
    BadKey,
    #[error("this server does not listen for {0}")]
    NotListening(&'static str),
    #[error("too many tokens asked from this address: wait a few seconds")]
    TooOften,
    #[error("cannot make a token: {0}")]
    Failed(String),
}

/// The server's key and the tokens it seals with it. Cloned freely (the
/// HTTP threads and the server app share one).
#[derive(Resource, Clone)]
pub struct TokenIssuer(Arc<Inner>);

struct Inner {
    key: Key,
    /// The X25519 key tokens are sealed with (derived from `key`).
    secret: crate::seal::ServerSecret,
    protocol_id: u64,
    state: Mutex<IssuerState>,
}

#[derive(Default)]
struct IssuerState {
    udp_port: Option<u16>,
    ws_port: Option<u16>,
    /// Each address's allowance: tokens left and when it was counted.
    allowance: std::collections::HashMap<IpAddr, (f64, web_time::Instant)>,
}

impl TokenIssuer {
    pub fn new(key: Key, protocol_id: u64) -> Self {
        Self(Arc::new(Inner {
            key,
            secret: crate::seal::ServerSecret::from_netcode_key(&key),
            protocol_id,
            state: Mutex::new(IssuerState::default()),
        }))
    }

    /// An issuer with a key of its own from the system's randomness (a
    /// server with no data folder, a desktop hosting for one evening).
    pub fn random(protocol_id: u64) -> Self {
        let mut key = [0u8; 32];
        getrandom::fill(&mut key).expect("the system gives random bytes");
        Self::new(key, protocol_id)
    }

    /// The key netcode's server checks tokens with. Never sent anywhere.
    pub fn key(&self) -> Key {
        self.0.key
    }

    /// The public key tokens are sealed with: what the join link, its QR
    /// code and the LAN beacon carry, so a client can tell this server from
    /// one in the middle.
    pub fn public_key(&self) -> crate::seal::ServerKey {
        self.0.secret.public()
    }

    /// The pin of `public_key` (`key=` in the join link).
    pub fn pin(&self) -> crate::seal::Pin {
        crate::seal::pin_of(&self.public_key())
    }

    pub fn protocol_id(&self) -> u64 {
        self.0.protocol_id
    }

    fn state(&self) -> std::sync::MutexGuard<'_, IssuerState> {
        self.0.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The ports tokens name, once the server listens on them.
    pub fn set_ports(&self, udp: Option<u16>, ws: Option<u16>) {
        let mut s = self.state();
        s.udp_port = udp;
        s.ws_port = ws;
    }

    /// A token for `peer`, who reached this server at `reached` and will
    /// connect `via` UDP or WebSocket, sealed to the key `client` it sent
    /// (hex): the answer's bytes (`seal::TokenRequest::open` reads them);
    /// or why not (a bad key; that listener is off; this address asked too
    /// often). A bad key costs the address nothing.
    pub fn issue(
        &self,
        reached: IpAddr,
        peer: IpAddr,
        via: Via,
        client: &str,
    ) -> Result<Vec<u8>, Refusal> {
        if from_hex(client).is_none_or(|k| k.len() != 32) {
            return Err(Refusal::BadKey);
        }
        let port = {
            let mut s = self.state();
            let port = match via {
                Via::Udp => s.udp_port,
                Via::WebSocket => s.ws_port,
            }
            .ok_or(Refusal::NotListening(via.key()))?;
            let now = web_time::Instant::now();
            if s.allowance.len() > 4096 {
                // Forget addresses whose allowance is whole again.
                s.allowance.retain(|_, (left, at)| {
                    *left + now.duration_since(*at).as_secs_f64() / TOKEN_REFILL_SECS < TOKEN_BURST
                });
            }
            let (left, at) = s.allowance.entry(peer).or_insert((TOKEN_BURST, now));
            *left = (*left + now.duration_since(*at).as_secs_f64() / TOKEN_REFILL_SECS)
                .min(TOKEN_BURST);
            *at = now;
            if *left < 1.0 {
                return Err(Refusal::TooOften);
            }
            *left -= 1.0;
            port
        };
        let mut id = [0u8; 8];
        getrandom::fill(&mut id).map_err(|e| Refusal::Failed(e.to_string()))?;
        let token = lightyear::netcode::ConnectToken::build(
            SocketAddr::new(reached, port),
            self.0.protocol_id,
            u64::from_le_bytes(id),
            self.0.key,
        )
        .expire_seconds(TOKEN_EXPIRE_SECS)
        .timeout_seconds(CLIENT_TIMEOUT_SECS)
        .generate()
        .map_err(|e| Refusal::Failed(format!("{e:?}")))?;
        let token = token
            .try_into_bytes()
            .map_err(|e| Refusal::Failed(e.to_string()))?;
        self.0
            .secret
            .seal(client, via, &token)
            .map_err(|e| match e {
                crate::seal::SealError::BadKey => Refusal::BadKey,
                crate::seal::SealError::Failed(why) => Refusal::Failed(why),
            })
    }
}

/// The server's key from `dir/netcode.key`, made (at random, readable by
/// its owner only) on the first start.
#[cfg(not(target_family = "wasm"))]
pub fn load_or_create_key(dir: &std::path::Path) -> std::io::Result<Key> {
    use std::io::Write;
    let path = dir.join(KEY_FILE);
    match std::fs::read(&path) {
        Ok(bytes) => {
            return bytes.try_into().map_err(|b: Vec<u8>| {
                std::io::Error::other(format!(
                    "{} holds {} bytes, not a 32-byte key (delete it to make a new one)",
                    path.display(),
                    b.len()
                ))
            });
        }
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
        Err(_) => {}
    }
    std::fs::create_dir_all(dir)?;
    let mut key = [0u8; 32];
    getrandom::fill(&mut key).map_err(|e| std::io::Error::other(e.to_string()))?;
    let tmp = path.with_extension("key.tmp");
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(&tmp)?;
    file.write_all(&key)?;
    file.sync_all()?;
    drop(file);
    std::fs::rename(&tmp, &path)?;
    Ok(key)
}

/// Asks the token port at `server` for a token to connect `via`, over
/// HTTP, sealed to a key made for this request, and opens it: what desktop
/// and headless clients do before each connection. With `pin`, a server
/// that answers with another key is refused.
#[cfg(not(target_family = "wasm"))]
pub fn fetch_token(
    server: SocketAddr,
    via: Via,
    pin: Option<&crate::seal::Pin>,
) -> Result<crate::seal::Opened, String> {
    fetch_token_from(None, server, via, pin)
}

/// `fetch_token` from the local address `source` (a test's guest at
/// 127.0.0.N); `None`: whichever the system picks.
#[cfg(not(target_family = "wasm"))]
pub fn fetch_token_from(
    source: Option<std::net::IpAddr>,
    server: SocketAddr,
    via: Via,
    pin: Option<&crate::seal::Pin>,
) -> Result<crate::seal::Opened, String> {
    use std::io::{Read, Write};
    use std::time::Duration;
    let fail = |e: std::io::Error| format!("no token from {server}: {e}");
    let mut stream = match source {
        None => std::net::TcpStream::connect_timeout(&server, Duration::from_secs(3)),
        Some(ip) => {
            let socket = socket2::Socket::new(
                socket2::Domain::for_address(server),
                socket2::Type::STREAM,
                None,
            )
            .map_err(fail)?;
            socket.bind(&SocketAddr::new(ip, 0).into()).map_err(fail)?;
            socket
                .connect_timeout(&server.into(), Duration::from_secs(3))
                .map(|()| std::net::TcpStream::from(socket))
        }
    }
    .map_err(fail)?;
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .map_err(fail)?;
    let request = crate::seal::TokenRequest::new()?;
    write!(
        stream,
        "GET /token?{} HTTP/1.0\r\nHost: {server}\r\n\r\n",
        request.query(via)
    )
    .map_err(fail)?;
    let mut reply = Vec::new();
    stream
        .take(64 * 1024)
        .read_to_end(&mut reply)
        .map_err(fail)?;
    let reply = String::from_utf8_lossy(&reply);
    let (head, body) = reply
        .split_once("\r\n\r\n")
        .ok_or_else(|| format!("no token from {server}: not an HTTP reply"))?;
    let status = head.lines().next().unwrap_or("");
    if !status.contains(" 200 ") {
        return Err(format!(
            "no token from {server}: {}",
            body.trim().lines().next().unwrap_or(status)
        ));
    }
    let sealed = from_hex(body).ok_or_else(|| format!("no token from {server}: not a token"))?;
    request
        .open(&sealed, via, pin)
        .map_err(|e| format!("no token from {server}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_goes_both_ways_and_refuses_what_is_not_hex() {
        let bytes = [0u8, 1, 0xab, 0xff];
        assert_eq!(from_hex(&to_hex(&bytes)).unwrap(), bytes);
        assert!(from_hex("abc").is_none());
        assert!(from_hex("zz").is_none());
    }

    #[test]
    fn an_address_that_asks_too_often_waits() {
        let issuer = TokenIssuer::random(1);
        issuer.set_ports(Some(5410), None);
        let me: IpAddr = [127, 0, 0, 2].into();
        let here: IpAddr = [127, 0, 0, 1].into();
        let request = crate::seal::TokenRequest::new().unwrap();
        let k = request.key();
        let k = k.as_str();
        // A request without a proper key is refused and costs nothing.
        for _ in 0..2 * TOKEN_BURST as usize {
            let err = issuer.issue(here, me, Via::Udp, "abcd").unwrap_err();
            assert_eq!(err, Refusal::BadKey);
        }
        for _ in 0..TOKEN_BURST as usize {
            let sealed = issuer.issue(here, me, Via::Udp, k).unwrap();
            let opened = request.open(&sealed, Via::Udp, None).unwrap();
            assert_eq!(opened.token.len(), 2048);
            assert_eq!(opened.server, issuer.public_key());
        }
        assert_eq!(issuer.issue(here, me, Via::Udp, k), Err(Refusal::TooOften));
        // Another address is not held up; a listener that is off is said.
        assert!(
            issuer
                .issue(here, [127, 0, 0, 3].into(), Via::Udp, k)
                .is_ok()
        );
        assert!(
            issuer
                .issue(here, [127, 0, 0, 3].into(), Via::WebSocket, k)
                .unwrap_err()
                .to_string()
                .contains("does not listen")
        );
    }

    #[test]
    fn a_key_file_is_made_once_and_a_bad_one_is_refused() {
        let dir = std::env::temp_dir().join(format!("foodweb-key-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let first = load_or_create_key(&dir).unwrap();
        assert_eq!(load_or_create_key(&dir).unwrap(), first);
        std::fs::write(dir.join(KEY_FILE), b"short").unwrap();
        let err = load_or_create_key(&dir).unwrap_err().to_string();
        assert!(err.contains("not a 32-byte key"), "{err}");
        let _ = std::fs::remove_dir_all(dir);
    }
}
