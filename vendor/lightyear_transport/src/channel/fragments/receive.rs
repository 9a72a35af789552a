//! Fragment validation, reassembly, and decompression for channel receives.

use alloc::{vec, vec::Vec};
use bevy_platform::collections::HashMap;

use crate::channel::receive::ChannelReceiveError;

type Result<T> = core::result::Result<T, ChannelReceiveError>;
#[cfg(feature = "compression_lz4")]
use crate::packet::compression::CompressionAlgorithm;
use crate::packet::compression::{CompressionConfig, decompress_payload};
use crate::packet::error::PacketError;
use crate::packet::message::{FragmentCompression, FragmentData, MessageId};
use crate::packet::packet::FRAGMENT_SIZE;
use bytes::Bytes;
use core::sync::atomic::{AtomicUsize, Ordering};
use core::time::Duration;
use lightyear_core::tick::Tick;
use tracing::trace;

/// The most fragments one message may declare (about 4.6 MB at the default fragment size).
///
/// A message's buffer is allocated when its first fragment arrives, sized by the count that
/// fragment declares, so the count is bounded before anything is allocated: a remote peer that
/// declared 2^40 fragments made the receiver reserve a terabyte and abort the process.
pub const MAX_FRAGMENTS_PER_MESSAGE: usize = 4096;

/// The most bytes one receiver reserves for fragmented messages that are not complete yet.
///
/// Every incomplete message holds its declared size until it completes or is discarded, so
/// without a bound a peer could open many messages and never finish them.
pub const MAX_PENDING_FRAGMENT_BYTES: usize = 8 * 1024 * 1024;

/// Bytes reserved for incomplete fragmented messages by every receiver in the process.
static TOTAL_PENDING_FRAGMENT_BYTES: AtomicUsize = AtomicUsize::new(0);

/// The most bytes all receivers together may reserve for incomplete messages (64 MiB unless
/// [`set_max_total_pending_fragment_bytes`] changed it).
///
/// The per-receiver bound alone lets a server's memory grow with its connections: many peers
/// that each leave messages unfinished would hold gigabytes between them.
static MAX_TOTAL_PENDING_FRAGMENT_BYTES: AtomicUsize = AtomicUsize::new(64 * 1024 * 1024);

/// Sets the bound on bytes reserved by all receivers together for incomplete messages.
pub fn set_max_total_pending_fragment_bytes(bytes: usize) {
    MAX_TOTAL_PENDING_FRAGMENT_BYTES.store(bytes, Ordering::Relaxed);
}

/// Bytes reserved right now by all receivers together for incomplete messages.
pub fn total_pending_fragment_bytes() -> usize {
    TOTAL_PENDING_FRAGMENT_BYTES.load(Ordering::Relaxed)
}

/// Takes `bytes` from the process-wide budget, or says how much would be held.
fn reserve_total(bytes: usize) -> core::result::Result<(), (usize, usize)> {
    let max = MAX_TOTAL_PENDING_FRAGMENT_BYTES.load(Ordering::Relaxed);
    TOTAL_PENDING_FRAGMENT_BYTES
        .fetch_update(Ordering::AcqRel, Ordering::Acquire, |held| {
            held.checked_add(bytes).filter(|&total| total <= max)
        })
        .map(|_| ())
        .map_err(|held| (held.saturating_add(bytes), max))
}

fn release_total(bytes: usize) {
    TOTAL_PENDING_FRAGMENT_BYTES.fetch_sub(bytes, Ordering::AcqRel);
}

/// A receiver dropped with its connection gives its reservations back to the process-wide
/// budget.
impl Drop for FragmentReceiver {
    fn drop(&mut self) {
        release_total(self.pending_bytes);
    }
}

/// `FragmentReceiver` is used to reconstruct fragmented messages
#[derive(Debug)]
pub struct FragmentReceiver {
    fragment_messages: HashMap<MessageId, FragmentConstructor>,
    fragment_size: usize,
    /// Bytes reserved by the constructors in `fragment_messages`.
    pending_bytes: usize,
}

impl FragmentReceiver {
    pub fn new() -> Self {
        Self {
            fragment_messages: HashMap::default(),
            fragment_size: FRAGMENT_SIZE,
            pending_bytes: 0,
        }
    }

    pub(crate) fn set_fragment_size(&mut self, fragment_size: usize) {
        debug_assert!(fragment_size > 0);
        self.fragment_size = fragment_size;
    }

    /// Discard all messages for which the latest fragment was received before the cleanup time
    /// (i.e. we probably lost some fragments and we will never complete the message)
    ///
    /// If we don't keep track of the last received time, we will never clean up the messages.
    pub fn cleanup(&mut self, cleanup_time: Duration) {
        let pending_bytes = &mut self.pending_bytes;
        self.fragment_messages.retain(|_, c| {
            let keep = c
                .last_received
                .map(|t| t > cleanup_time)
                .unwrap_or_else(|| true);
            if !keep {
                *pending_bytes -= c.reserved();
                release_total(c.reserved());
            }
            keep
        })
    }

    /// Receive a fragment of a FragmentData message.
    ///
    /// When we complete the final message by aggregating all fragments, we will return the
    /// `remote_sent_tick` associated with the first fragment received.
    pub fn receive_fragment(
        &mut self,
        fragment: FragmentData,
        remote_sent_tick: Tick,
        current_time: Option<Duration>,
        compression: CompressionConfig,
    ) -> Result<Option<(Tick, Bytes)>> {
        let num_fragments = fragment.num_fragments.0;
        let fragment_index = fragment.fragment_id.0;
        if num_fragments == 0 {
            return Err(ChannelReceiveError::InvalidFragmentCount { num_fragments });
        }
        if num_fragments > MAX_FRAGMENTS_PER_MESSAGE as u64 {
            return Err(ChannelReceiveError::TooManyFragments {
                num_fragments,
                max: MAX_FRAGMENTS_PER_MESSAGE,
            });
        }
        if fragment_index >= num_fragments {
            return Err(ChannelReceiveError::InvalidFragmentIndex {
                fragment_index,
                num_fragments,
            });
        }
        let num_fragments = usize::try_from(num_fragments)
            .map_err(|_| ChannelReceiveError::FragmentedMessageSizeOverflow)?;
        let fragment_index = usize::try_from(fragment_index)
            .map_err(|_| ChannelReceiveError::FragmentedMessageSizeOverflow)?;

        let message_id = fragment.message_id;
        let fragment_compression = fragment.compression;
        if !self.fragment_messages.contains_key(&message_id) {
            let wanted = num_fragments
                .checked_mul(self.fragment_size)
                .and_then(|size| size.checked_add(self.pending_bytes))
                .ok_or(ChannelReceiveError::FragmentedMessageSizeOverflow)?;
            if wanted > MAX_PENDING_FRAGMENT_BYTES {
                return Err(ChannelReceiveError::TooManyPendingFragmentBytes {
                    wanted,
                    max: MAX_PENDING_FRAGMENT_BYTES,
                });
            }
            // Checked against every receiver's reservations before the buffer is made.
            reserve_total(num_fragments * self.fragment_size).map_err(|(wanted, max)| {
                ChannelReceiveError::TooManyPendingFragmentBytes { wanted, max }
            })?;
            let constructor =
                match FragmentConstructor::new(remote_sent_tick, num_fragments, self.fragment_size)
                {
                    Ok(constructor) => constructor,
                    Err(e) => {
                        release_total(num_fragments * self.fragment_size);
                        return Err(e);
                    }
                };
            self.pending_bytes += constructor.reserved();
            self.fragment_messages.insert(message_id, constructor);
        }
        let fragment_message = self
            .fragment_messages
            .get_mut(&message_id)
            .expect("fragment constructor was just inserted");
        if fragment_message.num_fragments != num_fragments {
            return Err(ChannelReceiveError::FragmentCountMismatch {
                expected: fragment_message.num_fragments,
                actual: num_fragments,
            });
        }
        if let Some(fragment_compression) = fragment_compression {
            fragment_message.set_compression(fragment_compression)?;
        } else if fragment_index == 0 {
            return Err(ChannelReceiveError::MissingFragmentCompression);
        }

        // completed the fragmented message!
        if let Some(payload) = fragment_message.receive_fragment(
            fragment_index,
            fragment.bytes.as_ref(),
            current_time,
        )? {
            let fragment_compression = fragment_message
                .compression
                .ok_or(ChannelReceiveError::MissingFragmentCompression)?;
            if let Some(done) = self.fragment_messages.remove(&message_id) {
                self.pending_bytes -= done.reserved();
                release_total(done.reserved());
            }
            let (tick, payload) = payload;
            return decompress_fragment_payload(fragment_compression, payload, compression)
                .map(|payload| Some((tick, payload)));
        }

        Ok(None)
    }
}

#[derive(Debug, Clone)]
/// Data structure to reconstruct a single fragmented message from individual fragments
pub struct FragmentConstructor {
    num_fragments: usize,
    fragment_size: usize,
    num_received_fragments: usize,
    received: Vec<bool>,
    // bytes: Bytes,
    bytes: Vec<u8>,

    tick: Tick,
    compression: Option<FragmentCompression>,
    last_received: Option<Duration>,
}

impl FragmentConstructor {
    pub fn new(tick: Tick, num_fragments: usize, fragment_size: usize) -> Result<Self> {
        let max_message_size = num_fragments
            .checked_mul(fragment_size)
            .ok_or(ChannelReceiveError::FragmentedMessageSizeOverflow)?;
        Ok(Self {
            num_fragments,
            fragment_size,
            num_received_fragments: 0,
            received: vec![false; num_fragments],
            bytes: vec![0; max_message_size],
            tick,
            compression: None,
            last_received: None,
        })
    }

    /// The bytes this message was charged when its first fragment arrived.
    fn reserved(&self) -> usize {
        self.num_fragments * self.fragment_size
    }

    pub fn set_compression(&mut self, compression: FragmentCompression) -> Result<()> {
        if let Some(expected) = self.compression {
            if expected != compression {
                return Err(ChannelReceiveError::FragmentCompressionMismatch {
                    expected: expected.as_str(),
                    actual: compression.as_str(),
                });
            }
        } else {
            self.compression = Some(compression);
        }
        Ok(())
    }

    pub fn receive_fragment(
        &mut self,
        fragment_index: usize,
        bytes: &[u8],
        received_time: Option<Duration>,
    ) -> Result<Option<(Tick, Bytes)>> {
        self.last_received = received_time;

        let is_last_fragment = fragment_index == self.num_fragments - 1;

        if !is_last_fragment && bytes.len() != self.fragment_size {
            return Err(ChannelReceiveError::InvalidNonFinalFragmentSize {
                actual: bytes.len(),
                expected: self.fragment_size,
            });
        }
        if is_last_fragment && bytes.len() > self.fragment_size {
            return Err(ChannelReceiveError::InvalidFinalFragmentSize {
                actual: bytes.len(),
                max: self.fragment_size,
            });
        }

        if !self.received[fragment_index] {
            self.received[fragment_index] = true;
            self.num_received_fragments += 1;

            if is_last_fragment {
                let len = (self.num_fragments - 1)
                    .checked_mul(self.fragment_size)
                    .and_then(|len| len.checked_add(bytes.len()))
                    .ok_or(ChannelReceiveError::FragmentedMessageSizeOverflow)?;
                self.bytes.resize(len, 0);
            }

            let start = fragment_index
                .checked_mul(self.fragment_size)
                .ok_or(ChannelReceiveError::FragmentedMessageSizeOverflow)?;
            let end = start
                .checked_add(bytes.len())
                .ok_or(ChannelReceiveError::FragmentedMessageSizeOverflow)?;
            self.bytes[start..end].copy_from_slice(bytes);
        }

        if self.num_received_fragments == self.num_fragments {
            trace!("Received all fragments!");
            let payload = core::mem::take(&mut self.bytes);
            return Ok(Some((self.tick, payload.into())));
        }

        Ok(None)
    }
}

fn decompress_fragment_payload(
    compression: FragmentCompression,
    payload: Bytes,
    config: CompressionConfig,
) -> Result<Bytes> {
    match compression {
        FragmentCompression::None => Ok(payload),
        FragmentCompression::Lz4 => {
            let config = config_for_fragment_compression(compression, config)?;
            decompress_payload(payload.as_ref(), config)
                .map(Bytes::from)
                .map_err(map_fragment_decompression_error)
        }
    }
}

fn config_for_fragment_compression(
    compression: FragmentCompression,
    config: CompressionConfig,
) -> Result<CompressionConfig> {
    match compression {
        FragmentCompression::None => Ok(config),
        FragmentCompression::Lz4 => {
            #[cfg(feature = "compression_lz4")]
            {
                if config.algorithm == Some(CompressionAlgorithm::Lz4) {
                    Ok(config)
                } else {
                    Err(ChannelReceiveError::UnsupportedFragmentCompression {
                        compression: compression.as_str(),
                    })
                }
            }
            #[cfg(not(feature = "compression_lz4"))]
            {
                Err(ChannelReceiveError::UnsupportedFragmentCompression {
                    compression: compression.as_str(),
                })
            }
        }
    }
}

fn map_fragment_decompression_error(error: PacketError) -> ChannelReceiveError {
    match error {
        PacketError::UnsupportedCompression => {
            ChannelReceiveError::UnsupportedFragmentCompression {
                compression: FragmentCompression::Lz4.as_str(),
            }
        }
        PacketError::DecompressionFailed => ChannelReceiveError::FragmentDecompressionFailed,
        PacketError::DecompressedPayloadTooLarge { actual, limit } => {
            ChannelReceiveError::FragmentDecompressedPayloadTooLarge { actual, limit }
        }
        _ => ChannelReceiveError::FragmentDecompressionFailed,
    }
}

#[cfg(test)]
mod tests {
    use crate::channel::fragments::FragmentSender;
    #[cfg(feature = "compression_lz4")]
    use crate::packet::compression::CompressionScratch;

    use super::*;

    fn forged(message_id: u16, num_fragments: u64) -> FragmentData {
        FragmentData {
            message_id: MessageId(message_id),
            fragment_id: crate::packet::message::FragmentIndex(0),
            num_fragments: crate::packet::message::FragmentIndex(num_fragments),
            compression: Some(FragmentCompression::None),
            bytes: Bytes::from(vec![0u8; FRAGMENT_SIZE]),
        }
    }

    #[test]
    fn a_forged_fragment_count_is_refused_before_allocating() {
        let mut receiver = FragmentReceiver::new();
        let refused = receiver.receive_fragment(
            forged(0, 1 << 40),
            Tick(0),
            None,
            CompressionConfig::DISABLED,
        );
        assert!(matches!(
            refused,
            Err(ChannelReceiveError::TooManyFragments { .. })
        ));
        assert_eq!(receiver.pending_bytes, 0);
    }

    #[test]
    fn incomplete_messages_are_bounded_and_released() {
        let mut receiver = FragmentReceiver::new();
        let per_message = MAX_FRAGMENTS_PER_MESSAGE as u64;
        let mut opened = 0;
        for id in 0..100u16 {
            match receiver.receive_fragment(
                forged(id, per_message),
                Tick(0),
                Some(Duration::from_secs(1)),
                CompressionConfig::DISABLED,
            ) {
                Ok(None) => opened += 1,
                Err(ChannelReceiveError::TooManyPendingFragmentBytes { .. }) => break,
                other => panic!("unexpected {other:?}"),
            }
        }
        assert!(opened >= 1);
        assert!(receiver.pending_bytes <= MAX_PENDING_FRAGMENT_BYTES);
        receiver.cleanup(Duration::from_secs(2));
        assert_eq!(receiver.pending_bytes, 0);
    }

    #[test]
    fn test_receiver() -> Result<()> {
        let mut receiver = FragmentReceiver::new();
        let num_bytes = (FRAGMENT_SIZE as f32 * 1.5) as usize;
        let message_bytes = Bytes::from(vec![1u8; num_bytes]);
        let fragments = FragmentSender::new().build_fragments(MessageId(0), message_bytes.clone());

        assert_eq!(
            receiver.receive_fragment(
                fragments[1].clone(),
                Tick(1),
                None,
                CompressionConfig::DISABLED
            )?,
            None
        );
        assert_eq!(
            receiver.receive_fragment(
                fragments[0].clone(),
                Tick(0),
                None,
                CompressionConfig::DISABLED
            )?,
            Some((Tick(1), message_bytes.clone()))
        );
        Ok(())
    }

    #[test]
    fn reassembles_out_of_order_fragments_with_non_default_size() -> Result<()> {
        let mut sender = FragmentSender::new();
        sender.set_fragment_size(37);
        let message_bytes = Bytes::from(vec![3u8; 100]);
        let fragments = sender.build_fragments(MessageId(4), message_bytes.clone());
        let mut receiver = FragmentReceiver::new();
        receiver.set_fragment_size(37);

        assert_eq!(fragments.len(), 3);
        assert_eq!(
            receiver.receive_fragment(
                fragments[2].clone(),
                Tick(2),
                None,
                CompressionConfig::DISABLED,
            )?,
            None
        );
        assert_eq!(
            receiver.receive_fragment(
                fragments[0].clone(),
                Tick(0),
                None,
                CompressionConfig::DISABLED,
            )?,
            None
        );
        assert_eq!(
            receiver.receive_fragment(
                fragments[1].clone(),
                Tick(1),
                None,
                CompressionConfig::DISABLED,
            )?,
            Some((Tick(2), message_bytes))
        );
        Ok(())
    }

    #[cfg(feature = "compression_lz4")]
    #[test]
    fn compressed_fragments_are_decompressed_after_reassembly() -> Result<()> {
        let compression = CompressionConfig {
            min_payload_size: 0,
            max_decompressed_payload_size: FRAGMENT_SIZE * 4,
            ..CompressionConfig::LZ4
        };
        let mut receiver = FragmentReceiver::new();
        let message_bytes = Bytes::from(vec![7u8; FRAGMENT_SIZE * 3]);
        let fragments = FragmentSender::new().build_fragments_for_message(
            MessageId(1),
            message_bytes.clone(),
            compression,
            &mut CompressionScratch::default(),
        );

        assert!(fragments.len() < 3);
        assert_eq!(fragments[0].compression, Some(FragmentCompression::Lz4));
        assert!(
            fragments
                .iter()
                .skip(1)
                .all(|fragment| fragment.compression.is_none())
        );

        let mut result = None;
        for (index, fragment) in fragments.into_iter().enumerate() {
            result = receiver.receive_fragment(fragment, Tick(index as u32), None, compression)?;
        }

        assert_eq!(result, Some((Tick(0), message_bytes)));
        Ok(())
    }
}
