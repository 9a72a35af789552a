#![cfg_attr(docsrs_aeronet, feature(doc_cfg))]
// Vendored (vendor/README.md): the futures this workspace resolves
// deprecates `try_next`, which crates.io builds only warn about quietly.
#![allow(deprecated)]
#![doc = include_str!("../README.md")]
//!
//! ## Feature flags
#![cfg_attr(feature = "document-features", doc = document_features::document_features!())]

extern crate alloc;

#[cfg(feature = "client")]
pub mod client;
pub mod session;

mod runtime;
pub use runtime::WebSocketRuntime;

cfg_if::cfg_if! {
    if #[cfg(target_family = "wasm")] {
        mod js_error;
        pub use js_error::JsError;
    } else {
        #[cfg(feature = "server")]
        pub mod server;

        pub use {tokio_tungstenite, tokio_tungstenite::tungstenite, rustls, rustls_native_certs};
    }
}
