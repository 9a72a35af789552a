//! Issue 33: "every decoder a guest can reach (netcode packets, transport
//! fragments, message decoding, token requests, HTTP requests, WebSocket
//! frames) gets a proptest of random and mutated inputs". A decoder given
//! bytes from the network returns an error or a value; it never panics and
//! never allocates what the bytes merely claim.
//!
//! `cargo test` runs a short version (the proptest default of 256 cases
//! each, or `PROPTEST_CASES`). A million cases per decoder, outside CI:
//!
//! ```text
//! PROPTEST_CASES=1000000 cargo test -p foodweb-netcode --test decode
//! ```
//!
//! (HTTP requests and hex tokens are fuzzed in `web.rs`'s own tests:
//! `PROPTEST_CASES=1000000 cargo test -p foodweb-netcode --lib decode_`).

use std::io::{Cursor, Read, Write};
use std::net::IpAddr;

use foodweb_netcode::lightyear::netcode::fuzz::{self, Side};
use foodweb_netcode::lightyear::prelude::{ChannelRegistry, PriorityConfig, Transport};
use foodweb_netcode::messages::ClientMsg;
use foodweb_netcode::protocol::TableChannel;
use foodweb_netcode::tokens::{TokenIssuer, Via};
use foodweb_netcode::{Hall, HallConfig};
use proptest::prelude::*;

const PROTOCOL: u64 = 0x466f_6f64_7765_6231;

/// Bytes near a valid input: `valid` with some bytes flipped, cut short or
/// lengthened, or random bytes after its first few.
fn mutated(valid: Vec<u8>) -> impl Strategy<Value = Vec<u8>> {
    let len = valid.len();
    (
        prop::collection::vec((0..len.max(1), any::<u8>()), 0..8),
        0..=len,
        prop::collection::vec(any::<u8>(), 0..64),
        any::<bool>(),
    )
        .prop_map(move |(flips, cut, tail, extend)| {
            let mut out = valid.clone();
            for (at, byte) in flips {
                if let Some(b) = out.get_mut(at) {
                    *b ^= byte;
                }
            }
            if extend {
                out.extend(tail);
            } else {
                out.truncate(cut);
            }
            out
        })
}

/// A real connect token's connection request, as a client sends it first.
fn request_packet(issuer: &TokenIssuer) -> Vec<u8> {
    let here: IpAddr = [127, 0, 0, 1].into();
    let request = foodweb_netcode::seal::TokenRequest::new().unwrap();
    let k = request.key();
    let k = k.as_str();
    let sealed = issuer.issue(here, here, Via::Udp, k).expect("a token");
    let token = request.open(&sealed, Via::Udp, None).expect("it opens");
    fuzz::request_packet(&token.token)
}

fn issuer() -> TokenIssuer {
    let issuer = TokenIssuer::new([9; 32], PROTOCOL);
    issuer.set_ports(Some(5410), Some(5411));
    issuer
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

proptest! {
    /// Issue 33, item 1: "a packet whose prefix byte declares a sequence
    /// length of 9 to 15 (for example 0x96 followed by 40 random bytes)"
    /// ended the server. Any prefix, any body: an error, not a panic.
    #[test]
    fn decode_netcode_packets_from_random_bytes(
        prefix in any::<u8>(),
        body in prop::collection::vec(any::<u8>(), 0..1400),
        key in any::<[u8; 32]>(),
    ) {
        let mut packet = vec![prefix];
        packet.extend(body);
        for side in [Side::Server, Side::Client] {
            let _ = fuzz::read_packet(&packet, PROTOCOL, now(), key, side);
        }
    }

    /// Issue 34: a token's answer comes from whoever answers the client's
    /// request (someone in the middle, too): random and mutated answers
    /// are refused, never a panic; only the untouched one opens.
    #[test]
    fn decode_sealed_token_answers(
        random in prop::collection::vec(any::<u8>(), 0..3000),
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..4),
        pinned in any::<bool>(),
    ) {
        let issuer = issuer();
        let request = foodweb_netcode::seal::TokenRequest::new().unwrap();
        let k = request.key();
        let k = k.as_str();
        let here: IpAddr = [127, 0, 0, 1].into();
        let pin = pinned.then(|| issuer.pin());
        prop_assert!(request.open(&random, Via::Udp, pin.as_ref()).is_err());
        let sealed = issuer.issue(here, here, Via::Udp, k).unwrap();
        let mut bent = sealed.clone();
        for (at, b) in flips {
            let i = at.index(bent.len());
            bent[i] ^= b;
        }
        let opened = request.open(&bent, Via::Udp, pin.as_ref());
        prop_assert_eq!(opened.is_ok(), bent == sealed);
    }

    /// A real connection request, mutated: only the untouched one is read.
    #[test]
    fn decode_mutated_connection_requests(bytes in mutated(request_packet(&issuer()))) {
        let issuer = issuer();
        let valid = request_packet(&issuer);
        let read = fuzz::read_packet(&bytes, PROTOCOL, now(), issuer.key(), Side::Server);
        if bytes.len() == valid.len() && bytes[..] == valid[..] {
            prop_assert!(read);
        }
    }

    /// Bodies sealed with the session key (what a connected peer can send):
    /// every kind's decoder reads random content without a panic.
    #[test]
    fn decode_sealed_bodies_of_every_kind(
        kind in 0u8..16,
        sequence in any::<u64>(),
        body in prop::collection::vec(any::<u8>(), 0..1200),
        key in any::<[u8; 32]>(),
    ) {
        if let Some(packet) = fuzz::seal(kind, sequence, &body, PROTOCOL, &key) {
            for side in [Side::Server, Side::Client] {
                let _ = fuzz::read_packet(&packet, PROTOCOL, now(), key, side);
            }
        }
    }

    /// Transport packets (header, fragments, single messages) into a
    /// server's receivers, then each message decoded as a `ClientMsg`.
    #[test]
    fn decode_transport_packets(
        packets in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..1300), 1..8),
    ) {
        let (registry, mut transport) = transport();
        for packet in packets {
            let _ = foodweb_netcode::lightyear::transport::plugin::read_packet_for_fuzzing(
                &mut transport,
                registry,
                packet.into(),
            );
        }
        for receiver in transport.channel_receives_mut() {
            while let Some((_, bytes, _)) = receiver.read_message() {
                let _ = postcard::from_bytes::<ClientMsg>(&bytes);
            }
        }
    }

    /// Transport packets that carry a fragment header with random counts,
    /// indices and sizes (the 2^40-fragment attack and its neighbours).
    #[test]
    fn decode_transport_fragments(
        head in prop::collection::vec(any::<u8>(), 0..12),
        varints in prop::collection::vec(any::<u64>(), 0..6),
        tail in prop::collection::vec(any::<u8>(), 0..1200),
    ) {
        let (registry, mut transport) = transport();
        // A DataFragment packet type byte, then whatever follows.
        let mut packet = vec![1u8];
        packet.extend(head);
        for v in varints {
            let mut n = v;
            loop {
                let byte = (n & 0x7f) as u8;
                n >>= 7;
                if n == 0 {
                    packet.push(byte);
                    break;
                }
                packet.push(byte | 0x80);
            }
        }
        packet.extend(tail);
        let _ = foodweb_netcode::lightyear::transport::plugin::read_packet_for_fuzzing(
            &mut transport,
            registry,
            packet.into(),
        );
    }

    /// Random bytes as a client's message, and whatever decodes judged by a
    /// hall with a game in play: refused or done, never a panic.
    #[test]
    fn decode_client_messages_and_judge_them(
        messages in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..96), 1..12),
    ) {
        let mut hall = playing_hall();
        for bytes in messages {
            if let Ok(msg) = postcard::from_bytes::<ClientMsg>(&bytes) {
                hall.handle(7, msg);
            }
            hall.tick(1_000);
            let _ = hall.drain();
        }
    }

    /// Real messages, mutated.
    #[test]
    fn decode_mutated_client_messages(
        bytes in prop::sample::select(sample_messages()).prop_flat_map(mutated),
    ) {
        let mut hall = playing_hall();
        if let Ok(msg) = postcard::from_bytes::<ClientMsg>(&bytes) {
            hall.handle(7, msg);
            hall.tick(1_000);
            let _ = hall.drain();
        }
    }

    /// WebSocket frames as the server reads them, within its message limit:
    /// random bytes after a real handshake, and real frames mutated.
    #[test]
    fn decode_websocket_frames(
        frames in prop::collection::vec(
            prop::sample::select(sample_frames()).prop_flat_map(mutated),
            1..6,
        ),
        noise in prop::collection::vec(any::<u8>(), 0..256),
    ) {
        let mut wire = Vec::new();
        for f in frames {
            wire.extend(f);
        }
        wire.extend(noise);
        read_frames(wire);
    }
}

/// The server's channels (one app builds them, once: an app per case
/// would start a runtime per case and run out of file descriptors), and a
/// fresh transport that receives on them.
fn transport() -> (&'static ChannelRegistry, Transport) {
    static REGISTRY: std::sync::OnceLock<ChannelRegistry> = std::sync::OnceLock::new();
    let registry = REGISTRY.get_or_init(|| {
        let mut app = bevy_app::App::new();
        app.add_plugins(foodweb_netcode::lightyear::prelude::server::ServerPlugins {
            tick_duration: std::time::Duration::from_millis(16),
        });
        app.add_plugins(foodweb_netcode::protocol::ProtocolPlugin);
        app.finish();
        app.world_mut()
            .remove_resource::<ChannelRegistry>()
            .expect("the protocol registers its channels")
    });
    let mut transport = Transport::new(PriorityConfig::default());
    transport.add_channel_receive_from_registry::<TableChannel>(registry);
    (registry, transport)
}

/// A hall where client 7 sits at a started Forest table with bots.
fn playing_hall() -> Hall {
    use foodweb_netcode::games::AnySettings;
    let (mut hall, _) = Hall::open(HallConfig {
        bot_delay_ms: 0,
        ..HallConfig::default()
    })
    .unwrap();
    for msg in [
        ClientMsg::Hello {
            name: "Fuzz".into(),
            version: foodweb_netcode::messages::PROTOCOL_VERSION,
        },
        ClientMsg::CreateTable {
            settings: AnySettings::Forest(foodweb_rules::forest::ForestSettings::timed(1)),
            seats: 3,
            host_seat: false,
            seed: Some(1),
            open_replays: false,
        },
        ClientMsg::FillWithBots {
            kind: "random".into(),
        },
        ClientMsg::Start,
    ] {
        hall.handle(7, msg);
    }
    let _ = hall.drain();
    hall
}

fn sample_messages() -> Vec<Vec<u8>> {
    let msgs = [
        ClientMsg::Hello {
            name: "Ann".into(),
            version: foodweb_netcode::messages::PROTOCOL_VERSION,
        },
        ClientMsg::ListTables,
        ClientMsg::FillWithBots {
            kind: "memory".into(),
        },
        ClientMsg::Start,
        ClientMsg::SetName { name: "Bo".into() },
    ];
    msgs.iter()
        .map(|m| postcard::to_allocvec(m).unwrap())
        .collect()
}

/// A client's masked binary frames, as a browser sends them.
fn sample_frames() -> Vec<Vec<u8>> {
    [&b"\x00"[..], &[7u8; 200][..], &[1u8; 70_000][..]]
        .iter()
        .map(|payload| {
            let mut frame = vec![0x82u8];
            let len = payload.len();
            if len < 126 {
                frame.push(0x80 | len as u8);
            } else if len < 65_536 {
                frame.push(0x80 | 126);
                frame.extend((len as u16).to_be_bytes());
            } else {
                frame.push(0x80 | 127);
                frame.extend((len as u64).to_be_bytes());
            }
            let mask = [1u8, 2, 3, 4];
            frame.extend(mask);
            frame.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
            frame
        })
        .collect()
}

/// A stream that reads `input` and swallows what is written.
struct Wire(Cursor<Vec<u8>>);

impl Read for Wire {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(buf)
    }
}

impl Write for Wire {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Reads frames as the server's WebSocket does (its limits:
/// `server::MAX_WS_MESSAGE`) until the input ends or is refused.
fn read_frames(wire: Vec<u8>) {
    use aeronet_websocket::tungstenite::protocol::{Role, WebSocket, WebSocketConfig};
    let limit = foodweb_netcode::server::MAX_WS_MESSAGE;
    let config = WebSocketConfig::default()
        .max_message_size(Some(limit))
        .max_frame_size(Some(limit));
    let mut socket =
        WebSocket::from_raw_socket(Wire(Cursor::new(wire)), Role::Server, Some(config));
    for _ in 0..64 {
        if socket.read().is_err() {
            break;
        }
    }
}

/// Item 1 at its root: the datagram the issue names is refused.
#[test]
fn the_datagram_that_ended_the_server_is_refused() {
    let mut packet = vec![0x96u8];
    packet.extend((0..40u8).map(|i| i.wrapping_mul(37)));
    for len in 9u8..16 {
        packet[0] = len << 4 | 6;
        for side in [Side::Server, Side::Client] {
            assert!(!fuzz::read_packet(&packet, PROTOCOL, now(), [3; 32], side));
        }
    }
    // Sealed with the session key too: still refused, before decryption.
    let sealed = fuzz::seal(6, 1, &[0; 8], PROTOCOL, &[3; 32]).unwrap();
    let mut forged = sealed.clone();
    forged[0] = 0x96;
    assert!(!fuzz::read_packet(
        &forged,
        PROTOCOL,
        now(),
        [3; 32],
        Side::Server
    ));
    // And the same packet with an honest prefix is read: the check refuses
    // only what is malformed.
    assert!(fuzz::read_packet(
        &sealed,
        PROTOCOL,
        now(),
        [3; 32],
        Side::Server
    ));
}
