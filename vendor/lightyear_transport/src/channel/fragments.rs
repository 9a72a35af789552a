//! Transport message fragmentation.

mod ack;
mod receive;
mod send;

pub(crate) use ack::FragmentAckReceiver;
pub(crate) use receive::FragmentReceiver;
pub(crate) use send::FragmentSender;
