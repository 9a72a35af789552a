//! What a listener on the LAN cannot read (issue 34; docs/LAN.md, "Threat
//! model"): a connect token travels sealed to a key its client made for
//! that one request, and a seat is taken back by proving its token against
//! a challenge fresh to each connection, never by sending it again.
//!
//! **The token exchange** is one round trip shaped like Noise's `N`
//! pattern, with the server's static key as the only long-lived one:
//!
//! ```text
//! client: e = a fresh X25519 key      GET /token?via=udp&k=hex(E)
//! server: k = HKDF-SHA256(DH(s, E), info = LABEL ‖ E ‖ S)
//!         n = 24 random bytes         200: hex(S ‖ n ‖ XChaCha20-Poly1305(k, n, token, aad = via))
//! client: k = HKDF-SHA256(DH(e, S), …), opens the token
//! ```
//!
//! `s`/`S` is the server's X25519 key, derived from its netcode key (so a
//! server that keeps its data folder keeps its key, and the join link it
//! printed stays good). A passive listener sees `E`, `S`, `n` and the
//! sealed token, and cannot compute `k` without `e` or `s`: the session's
//! netcode keys inside the token stay the client's and the server's.
//! A client that knows `S`'s pin beforehand (the join link and its QR
//! code, the LAN beacon, `foodweb client --server-key`: 16 bytes of its
//! SHA-256) refuses any other key, so an
//! attacker in the middle, who must answer with a key of their own, is
//! found out; one that does not know it takes the first key it is shown,
//! and the lobby shows its fingerprint for the players to compare with the
//! host's screen.
//!
//! **Seat proofs**: the hall gives each connection a random challenge in
//! `Welcome`; `Resume` and a past seat's replay carry
//! `HMAC-SHA256(token, LABEL ‖ purpose ‖ table ‖ challenge)`, which is good
//! for that connection only. The token itself crosses the network once,
//! inside the encrypted session, when the seat is first taken.

use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use hkdf::Hkdf;
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};
use x25519_dalek::{PublicKey, StaticSecret};

/// How the client will connect, which picks the port the token names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    Udp,
    WebSocket,
}

impl Via {
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "udp" => Some(Self::Udp),
            "ws" => Some(Self::WebSocket),
            _ => None,
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            Self::Udp => "udp",
            Self::WebSocket => "ws",
        }
    }
}

/// Hex text of bytes (how a token travels over HTTP).
pub fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Bytes from hex text, or `None` if it is not hex.
pub fn from_hex(text: &str) -> Option<Vec<u8>> {
    let text = text.trim();
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

/// A server's public X25519 key.
pub type ServerKey = [u8; 32];

/// What a join link, its QR code and the LAN beacon carry of a server's
/// key (`key=` + 32 hex digits): the first 16 bytes of its SHA-256, which
/// no one can match with a key of their own (2^128 tries).
pub type Pin = [u8; 16];

/// What the refusal of a server with another key says (the lobby looks
/// for it).
pub const WRONG_KEY: &str = "not the key this client was given";

/// Bytes before the sealed token in an answer: the server's key and the
/// nonce.
const HEAD: usize = 32 + 24;
/// What the token's key is derived for (changing the exchange changes it).
const SEAL_LABEL: &[u8] = b"foodweb 2026 token seal v1";
/// What the server's X25519 key is derived from its netcode key for.
const SERVER_KEY_LABEL: &[u8] = b"foodweb 2026 server x25519 v1";
/// What a seat proof is made for.
const PROOF_LABEL: &[u8] = b"foodweb 2026 seat proof v1";

/// Random bytes from the system (native or browser).
fn random<const N: usize>() -> Result<[u8; N], String> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).map_err(|e| format!("no randomness from the system: {e}"))?;
    Ok(bytes)
}

/// The token's key from the shared secret and both public keys.
fn seal_key(shared: &[u8; 32], client: &[u8; 32], server: &ServerKey) -> chacha20poly1305::Key {
    let mut info = Vec::with_capacity(SEAL_LABEL.len() + 64);
    info.extend_from_slice(SEAL_LABEL);
    info.extend_from_slice(client);
    info.extend_from_slice(server);
    let mut key = chacha20poly1305::Key::default();
    Hkdf::<Sha256>::new(None, shared)
        .expand(&info, &mut key)
        .expect("32 bytes is a valid HKDF-SHA256 length");
    key
}

/// Why a token could not be sealed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SealError {
    /// The client's key is not 32 bytes of hex, or is a low-order point
    /// (whose shared secret an onlooker knows).
    BadKey,
    Failed(String),
}

/// The server's half: its static key and the sealing of tokens.
#[derive(Clone)]
pub struct ServerSecret {
    secret: StaticSecret,
    public: ServerKey,
}

impl ServerSecret {
    /// The server's X25519 key, derived from its netcode key (never sent;
    /// the netcode key is not recoverable from it).
    pub fn from_netcode_key(netcode_key: &[u8; 32]) -> Self {
        let mut bytes = [0u8; 32];
        Hkdf::<Sha256>::new(None, netcode_key)
            .expand(SERVER_KEY_LABEL, &mut bytes)
            .expect("32 bytes is a valid HKDF-SHA256 length");
        let secret = StaticSecret::from(bytes);
        let public = PublicKey::from(&secret).to_bytes();
        Self { secret, public }
    }

    pub fn public(&self) -> ServerKey {
        self.public
    }

    /// `token` sealed to the client's key `client` (hex, as it came in the
    /// request): the answer's bytes.
    pub fn seal(&self, client: &str, via: Via, token: &[u8]) -> Result<Vec<u8>, SealError> {
        let client: [u8; 32] = from_hex(client)
            .and_then(|b| b.try_into().ok())
            .ok_or(SealError::BadKey)?;
        let shared = self.secret.diffie_hellman(&PublicKey::from(client));
        if !shared.was_contributory() {
            return Err(SealError::BadKey);
        }
        let key = seal_key(shared.as_bytes(), &client, &self.public);
        let nonce: [u8; 24] = random().map_err(SealError::Failed)?;
        let sealed = XChaCha20Poly1305::new(&key)
            .encrypt(
                XNonce::from_slice(&nonce),
                Payload {
                    msg: token,
                    aad: via.key().as_bytes(),
                },
            )
            .map_err(|_| SealError::Failed("cannot seal the token".into()))?;
        let mut out = Vec::with_capacity(HEAD + sealed.len());
        out.extend_from_slice(&self.public);
        out.extend_from_slice(&nonce);
        out.extend_from_slice(&sealed);
        Ok(out)
    }
}

/// A client's half of one token request: a key made for it alone.
pub struct TokenRequest {
    secret: StaticSecret,
    public: [u8; 32],
}

/// A token opened, and the key of the server that sealed it.
#[derive(Clone, Debug)]
pub struct Opened {
    pub token: Vec<u8>,
    pub server: ServerKey,
}

impl TokenRequest {
    pub fn new() -> Result<Self, String> {
        let secret = StaticSecret::from(random::<32>()?);
        let public = PublicKey::from(&secret).to_bytes();
        Ok(Self { secret, public })
    }

    /// This request's public key, as the query carries it (hex).
    pub fn key(&self) -> String {
        to_hex(&self.public)
    }

    /// The query that asks for a token sealed to this request's key.
    pub fn query(&self, via: Via) -> String {
        format!("via={}&k={}", via.key(), self.key())
    }

    /// The token in the server's answer (`bytes`, after hex), if the answer
    /// was sealed to this request by a server whose key has `pin` (when
    /// given): anything else is refused with the reason.
    pub fn open(&self, bytes: &[u8], via: Via, pin: Option<&Pin>) -> Result<Opened, String> {
        if bytes.len() <= HEAD {
            return Err("the server's answer is not a sealed token".into());
        }
        let server: ServerKey = bytes[..32].try_into().expect("32 bytes");
        if let Some(pin) = pin
            && *pin != pin_of(&server)
        {
            return Err(format!(
                "the server answered with key {}, {WRONG_KEY}: someone on the network may be in between, so this client does not connect",
                fingerprint(&server),
            ));
        }
        let shared = self.secret.diffie_hellman(&PublicKey::from(server));
        if !shared.was_contributory() {
            return Err("the server's key is not a key".into());
        }
        let key = seal_key(shared.as_bytes(), &self.public, &server);
        let token = XChaCha20Poly1305::new(&key)
            .decrypt(
                XNonce::from_slice(&bytes[32..HEAD]),
                Payload {
                    msg: &bytes[HEAD..],
                    aad: via.key().as_bytes(),
                },
            )
            .map_err(|_| "the token was not sealed for this client".to_string())?;
        Ok(Opened { token, server })
    }
}

/// Letters of a fingerprint: Crockford's base 32 (no I, L, O, U).
const FINGERPRINT_ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// The pin of a server key (the first 16 bytes of its SHA-256).
pub fn pin_of(key: &ServerKey) -> Pin {
    Sha256::digest(key)[..16]
        .try_into()
        .expect("a SHA-256 has 16 bytes and more")
}

/// A server key as people compare it: the first 75 bits of its pin in
/// three groups of Crockford's base 32, `7K2QD-9XMDA-4HPAE`.
pub fn fingerprint(key: &ServerKey) -> String {
    pin_fingerprint(&pin_of(key))
}

/// The fingerprint of the key a pin is of (a join link's `key=`): a page
/// knows its server's fingerprint before it connects.
pub fn pin_fingerprint(pin: &Pin) -> String {
    let mut bits = u128::from_be_bytes(*pin);
    let mut out = String::with_capacity(17);
    for i in 0..15 {
        if i > 0 && i % 5 == 0 {
            out.push('-');
        }
        out.push(FINGERPRINT_ALPHABET[(bits >> 123) as usize] as char);
        bits <<= 5;
    }
    out
}

/// A pin from the text a join link, a beacon or a command line carries
/// (32 hex digits).
pub fn parse_pin(text: &str) -> Option<Pin> {
    from_hex(text)?.try_into().ok()
}

/// What a seat proof opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofFor {
    /// Taking the seat back (`Resume`).
    Resume,
    /// A past seat's replay (`GetReplay::past`).
    Replay,
}

fn proof_mac(token: &str, challenge: &str, table: u32, what: ProofFor) -> Hmac<Sha256> {
    let mut mac = <Hmac<Sha256> as hmac::digest::KeyInit>::new_from_slice(token.as_bytes())
        .expect("HMAC takes a key of any length");
    mac.update(PROOF_LABEL);
    mac.update(&[match what {
        ProofFor::Resume => 1,
        ProofFor::Replay => 2,
    }]);
    mac.update(&table.to_le_bytes());
    mac.update(challenge.as_bytes());
    mac
}

/// The proof, for this connection's `challenge`, that its sender holds a
/// seat's `token` at `table`.
pub fn seat_proof(token: &str, challenge: &str, table: u32, what: ProofFor) -> String {
    to_hex(
        &proof_mac(token, challenge, table, what)
            .finalize()
            .into_bytes(),
    )
}

/// Whether `proof` proves `token` for this challenge and table (compared
/// in constant time).
pub fn proves(token: &str, challenge: &str, table: u32, what: ProofFor, proof: &str) -> bool {
    let Some(proof) = from_hex(proof) else {
        return false;
    };
    proof_mac(token, challenge, table, what)
        .verify_slice(&proof)
        .is_ok()
}

/// A fresh challenge for a connection (hex of 16 random bytes).
pub fn challenge() -> String {
    to_hex(&random::<16>().expect("the system gives random bytes"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server() -> ServerSecret {
        ServerSecret::from_netcode_key(&[7u8; 32])
    }

    #[test]
    fn a_sealed_token_opens_for_its_request_only() {
        let server = server();
        let request = TokenRequest::new().unwrap();
        let k = request.key();
        let k = k.as_str();
        let sealed = server.seal(k, Via::Udp, b"the token").unwrap();
        // The token's bytes are nowhere in what travels.
        assert!(!sealed.windows(9).any(|w| w == b"the token"));
        let opened = request.open(&sealed, Via::Udp, None).unwrap();
        assert_eq!(opened.token, b"the token");
        assert_eq!(opened.server, server.public());
        // Pinned to the right key it opens; to another it is refused
        // before anything is tried.
        let pin = pin_of(&server.public());
        assert!(request.open(&sealed, Via::Udp, Some(&pin)).is_ok());
        let err = request.open(&sealed, Via::Udp, Some(&[1; 16])).unwrap_err();
        assert!(err.contains("in between"), "{err}");
        // Another request, another transport, a changed byte: refused.
        let other = TokenRequest::new().unwrap();
        assert!(other.open(&sealed, Via::Udp, None).is_err());
        assert!(request.open(&sealed, Via::WebSocket, None).is_err());
        let mut bent = sealed.clone();
        *bent.last_mut().unwrap() ^= 1;
        assert!(request.open(&bent, Via::Udp, None).is_err());
        assert!(request.open(&sealed[..HEAD], Via::Udp, None).is_err());
    }

    #[test]
    fn the_same_request_twice_gets_two_nonces() {
        // An attacker who repeats a request must not get two tokens under
        // one key and nonce.
        let server = server();
        let request = TokenRequest::new().unwrap();
        let k = to_hex(&request.public);
        let a = server.seal(&k, Via::Udp, b"one").unwrap();
        let b = server.seal(&k, Via::Udp, b"two").unwrap();
        assert_ne!(a[32..HEAD], b[32..HEAD]);
    }

    #[test]
    fn a_key_that_is_not_a_clients_is_refused() {
        let server = server();
        assert_eq!(server.seal("abc", Via::Udp, b"t"), Err(SealError::BadKey));
        assert_eq!(
            server.seal(&"00".repeat(31), Via::Udp, b"t"),
            Err(SealError::BadKey)
        );
        // The all-zero point makes a shared secret anyone knows.
        assert_eq!(
            server.seal(&"00".repeat(32), Via::Udp, b"t"),
            Err(SealError::BadKey)
        );
    }

    #[test]
    fn the_server_key_follows_the_netcode_key() {
        assert_eq!(server().public(), server().public());
        let other = ServerSecret::from_netcode_key(&[8u8; 32]);
        assert_ne!(other.public(), server().public());
        let print = fingerprint(&server().public());
        assert_eq!(print.len(), 17);
        assert_eq!(print.matches('-').count(), 2);
        assert_ne!(print, fingerprint(&other.public()));
        let pin = pin_of(&server().public());
        // A page that knows only its link's pin knows the fingerprint.
        assert_eq!(pin_fingerprint(&pin), print);
        let hex = to_hex(&pin);
        assert_eq!(hex.len(), 32);
        assert_eq!(parse_pin(&hex), Some(pin));
        assert_eq!(parse_pin(&hex[2..]), None);
        assert_eq!(parse_pin("zz"), None);
    }

    #[test]
    fn a_seat_proof_is_good_for_its_connection_table_and_purpose_only() {
        let token = "00112233445566778899aabbccddeeff";
        let (c1, c2) = (challenge(), challenge());
        assert_ne!(c1, c2);
        let proof = seat_proof(token, &c1, 4, ProofFor::Resume);
        assert!(proves(token, &c1, 4, ProofFor::Resume, &proof));
        // Another connection's challenge, another table, a replay, another
        // token, something that is not hex: refused.
        assert!(!proves(token, &c2, 4, ProofFor::Resume, &proof));
        assert!(!proves(token, &c1, 5, ProofFor::Resume, &proof));
        assert!(!proves(token, &c1, 4, ProofFor::Replay, &proof));
        assert!(!proves("00", &c1, 4, ProofFor::Resume, &proof));
        assert!(!proves(token, &c1, 4, ProofFor::Resume, "zz"));
        assert!(!proves(token, &c1, 4, ProofFor::Resume, ""));
        // The proof does not carry the token.
        assert!(!proof.contains(token));
    }
}
