//! Entry points for fuzzing the decoders a peer reaches (Foodweb's patch):
//! every byte of a received packet comes from the network, so reading one
//! must return an error, never panic. Tests outside the crate feed these
//! random and mutated packets.

use alloc::vec::Vec;

use lightyear_link::recv_payload_from_bytes;

use crate::crypto::{Key, chacha_encrypt};
use crate::packet::{Packet, sequence_len};
use crate::{MAC_BYTES, MAX_PKT_BUF_SIZE};

/// Which side reads the packet: each accepts its own kinds.
#[derive(Clone, Copy, Debug)]
pub enum Side {
    Server,
    Client,
}

/// Reads `bytes` as `side` would a packet from its peer, with the session
/// key `key`. Returns whether it was accepted as a packet.
pub fn read_packet(bytes: &[u8], protocol_id: u64, now: u64, key: Key, side: Side) -> bool {
    let allowed = match side {
        Side::Server => {
            1 << Packet::REQUEST
                | 1 << Packet::RESPONSE
                | 1 << Packet::KEEP_ALIVE
                | 1 << Packet::PAYLOAD
                | 1 << Packet::DISCONNECT
        }
        Side::Client => {
            1 << Packet::DENIED
                | 1 << Packet::CHALLENGE
                | 1 << Packet::KEEP_ALIVE
                | 1 << Packet::PAYLOAD
                | 1 << Packet::DISCONNECT
        }
    };
    let payload = recv_payload_from_bytes(bytes::Bytes::copy_from_slice(bytes));
    let mut replay = crate::replay::ReplayProtection::new();
    Packet::read(payload, protocol_id, now, key, Some(&mut replay), allowed).is_ok()
}

/// A packet of kind `kind` (its low four bits) with sequence `sequence`
/// whose encrypted body is `body`, sealed with `key` as a peer holding the
/// session key would: what gets past decryption to the body's decoders.
/// `None` if it would not fit in a packet.
pub fn seal(kind: u8, sequence: u64, body: &[u8], protocol_id: u64, key: &Key) -> Option<Vec<u8>> {
    let prefix = sequence_len(sequence) << 4 | (kind & 0xF);
    let mut out = Vec::with_capacity(1 + 8 + body.len() + MAC_BYTES);
    out.push(prefix);
    for shift in 0..sequence_len(sequence) {
        out.push(((sequence >> (u64::from(shift) * 8)) & 0xFF) as u8);
    }
    let start = out.len();
    out.extend_from_slice(body);
    out.extend_from_slice(&[0; MAC_BYTES]);
    if out.len() > MAX_PKT_BUF_SIZE {
        return None;
    }
    let aead = Packet::aead(protocol_id, prefix).ok()?;
    chacha_encrypt(&mut out[start..], Some(&aead), sequence, key).ok()?;
    Some(out)
}

/// Opens a packet sealed with `key` (a peer's view of what it received):
/// its kind, sequence and decrypted body, or `None` if it does not open.
/// With [`seal`], what a test needs to speak netcode byte by byte.
pub fn open(packet: &[u8], protocol_id: u64, key: &Key) -> Option<(u8, u64, Vec<u8>)> {
    let prefix = *packet.first()?;
    let (sequence_len, kind) = Packet::get_prefix(prefix);
    if !(1..=8).contains(&sequence_len) || packet.len() < 1 + sequence_len + MAC_BYTES {
        return None;
    }
    let mut sequence = [0u8; 8];
    sequence[..sequence_len].copy_from_slice(&packet[1..1 + sequence_len]);
    let sequence = u64::from_le_bytes(sequence);
    let mut body = packet[1 + sequence_len..].to_vec();
    let aead = Packet::aead(protocol_id, prefix).ok()?;
    crate::crypto::chacha_decrypt(&mut body, Some(&aead), sequence, key).ok()?;
    body.truncate(body.len() - MAC_BYTES);
    Some((kind, sequence, body))
}

/// A connect token's session keys: client to server, server to client.
pub fn token_keys(token: &[u8]) -> Option<(Key, Key)> {
    let token = crate::token::ConnectToken::try_from_bytes(token).ok()?;
    Some((token.client_to_server_key, token.server_to_client_key))
}

/// The connection request a client sends first, made of the bytes of a
/// connect token (its public part carries the request's fields).
pub fn request_packet(token: &[u8]) -> Vec<u8> {
    let mut request = Vec::with_capacity(1078);
    request.push(Packet::REQUEST);
    for range in [0..21, 29..37, 37..61, 61..1085] {
        // version and protocol id, expiry, nonce, sealed private part
        request.extend_from_slice(token.get(range).unwrap_or_default());
    }
    request
}
