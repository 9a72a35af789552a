//! What the netcode suites share.

use std::fmt::Debug;

use lightyear_serde::reader::Reader;
use lightyear_serde::registry::SerializeFns;
use lightyear_serde::writer::Writer;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// `msg` written and read back by the codec lightyear gives a message the
/// protocol registers (`register_message`: postcard, which is not
/// self-describing, so a field the writer may leave out cannot be read
/// back); the value read must be the value written. Issue 66: "A seat's
/// replay never loads over the wire ... `skip_serializing_if`, which
/// postcard ... cannot read back".
pub fn through_the_wire<M: Serialize + DeserializeOwned + PartialEq + Debug>(msg: &M) {
    let codec = SerializeFns::<M>::default();
    let mut writer = Writer::with_capacity(256);
    (codec.serialize)(msg, &mut writer).unwrap_or_else(|e| panic!("{e:?} writing {}", head(msg)));
    let mut reader = Reader::from(writer.take_written());
    let back = (codec.deserialize)(&mut reader)
        .unwrap_or_else(|e| panic!("{e:?} reading back {}", head(msg)));
    assert_eq!(&back, msg, "read back otherwise than written");
}

/// The start of a message's `Debug` text (a whole replay part is too long
/// to read in a failure).
fn head(msg: &impl Debug) -> String {
    let text = format!("{msg:?}");
    text.chars().take(300).collect()
}
