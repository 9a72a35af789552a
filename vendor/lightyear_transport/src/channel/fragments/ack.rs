//! Fragment acknowledgement tracking for channel sends.

use crate::packet::message::{FragmentIndex, MessageId};
use alloc::{vec, vec::Vec};
use bevy_platform::collections::HashMap;
use core::time::Duration;
use tracing::trace;

/// Tracks acknowledgements for the fragments of one or more messages.
#[derive(Debug, PartialEq)]
pub(crate) struct FragmentAckReceiver {
    fragment_messages: HashMap<MessageId, FragmentAckTracker>,
}

impl FragmentAckReceiver {
    pub(crate) fn new() -> Self {
        Self {
            fragment_messages: HashMap::default(),
        }
    }

    pub(crate) fn add_new_fragment_to_wait_for(
        &mut self,
        message_id: MessageId,
        num_fragments: usize,
    ) {
        self.fragment_messages
            .insert(message_id, FragmentAckTracker::new(num_fragments));
    }

    pub(crate) fn discard_message(&mut self, message_id: MessageId) {
        self.fragment_messages.remove(&message_id);
    }

    /// Discard all messages for which the latest ack was received before the cleanup time
    /// (i.e. we probably lost some fragments and we will never get all the acks for this fragmented message)
    ///
    /// If we don't keep track of the last received time, we will never clean up the messages.
    pub(crate) fn cleanup(&mut self, cleanup_time: Duration) {
        self.fragment_messages.retain(|_, c| {
            c.last_received
                .map(|t| t > cleanup_time)
                .unwrap_or_else(|| true)
        })
    }

    /// We receive a fragment ack, and return true if the entire fragment was acked.
    pub(crate) fn receive_fragment_ack(
        &mut self,
        message_id: MessageId,
        fragment_index: FragmentIndex,
        current_time: Option<Duration>,
    ) -> bool {
        let Some(fragment_ack_tracker) = self.fragment_messages.get_mut(&message_id) else {
            trace!(?message_id, "ignoring fragment ACK without pending state");
            return false;
        };

        // completed the fragmented message!
        if fragment_ack_tracker.receive_ack(fragment_index.0 as usize, current_time) {
            self.fragment_messages.remove(&message_id);
            return true;
        }

        false
    }
}

#[derive(Debug, Clone, PartialEq)]
/// Data structure to keep track of when an entire fragment message is acked
struct FragmentAckTracker {
    num_fragments: usize,
    num_received_fragments: usize,
    received: Vec<bool>,
    last_received: Option<Duration>,
}

impl FragmentAckTracker {
    fn new(num_fragments: usize) -> Self {
        Self {
            num_fragments,
            num_received_fragments: 0,
            received: vec![false; num_fragments],
            last_received: None,
        }
    }

    /// Receive a fragment index ack, and return true if the entire fragment was acked.
    fn receive_ack(&mut self, fragment_index: usize, received_time: Option<Duration>) -> bool {
        self.last_received = received_time;

        if !self.received[fragment_index] {
            self.received[fragment_index] = true;
            self.num_received_fragments += 1;
        }

        if self.num_received_fragments == self.num_fragments {
            trace!("Received all fragments ack!");
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_receive_fragments() {
        let mut receiver = FragmentAckReceiver::new();

        receiver.add_new_fragment_to_wait_for(MessageId(0), 2);

        assert!(!receiver.receive_fragment_ack(MessageId(0), FragmentIndex(0), None));
        // receiving the same fragment twice should do nothing
        assert!(!receiver.receive_fragment_ack(MessageId(0), FragmentIndex(0), None));
        // we receive the entire fragment: should return true
        assert!(receiver.receive_fragment_ack(MessageId(0), FragmentIndex(1), None));

        assert!(receiver.fragment_messages.is_empty());
    }

    #[test]
    fn test_cleanup() {
        let mut receiver = FragmentAckReceiver::new();

        receiver.add_new_fragment_to_wait_for(MessageId(0), 2);

        assert!(!receiver.receive_fragment_ack(
            MessageId(0),
            FragmentIndex(0),
            Some(Duration::from_millis(150))
        ));
        receiver.cleanup(Duration::from_millis(170));
        assert!(receiver.fragment_messages.is_empty());
    }

    #[test]
    fn reused_message_id_starts_with_a_fresh_tracker() {
        let mut receiver = FragmentAckReceiver::new();
        let message_id = MessageId(7);

        receiver.add_new_fragment_to_wait_for(message_id, 2);
        assert!(!receiver.receive_fragment_ack(message_id, FragmentIndex(0), None));

        receiver.add_new_fragment_to_wait_for(message_id, 6);
        for fragment_index in 0..5 {
            assert!(!receiver.receive_fragment_ack(
                message_id,
                FragmentIndex(fragment_index),
                None
            ));
        }
        assert!(receiver.receive_fragment_ack(message_id, FragmentIndex(5), None));
        assert!(receiver.fragment_messages.is_empty());
    }
}
