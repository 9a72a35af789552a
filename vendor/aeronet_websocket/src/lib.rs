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

/// Foodweb's patch (vendor/README.md): functions called each time a
/// session receives a frame, so an app that waits for input between
/// updates wakes at once rather than on its next tick.
type RecvHook = alloc::boxed::Box<dyn Fn() -> bool + Send + Sync>;
static RECV_HOOKS: std::sync::Mutex<Vec<RecvHook>> = std::sync::Mutex::new(Vec::new());

/// Calls `hook` after every frame any session receives (from the task
/// that received it), until it returns `false` (its app is gone); in a
/// browser also when a socket opens, closes or fails.
pub fn add_recv_hook(hook: impl Fn() -> bool + Send + Sync + 'static) {
    RECV_HOOKS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .push(alloc::boxed::Box::new(hook));
}

pub(crate) fn received() {
    RECV_HOOKS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .retain(|hook| hook());
}

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
