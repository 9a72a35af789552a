//! What the client knows of the page it runs in, when it runs in a
//! browser: the server that served the page, to play there without anyone
//! typing an address.

/// The WebSocket URL of the server that served this page (`ws://` + the
/// page's host + the `ws` query parameter, 5411 by default); `None` on the
/// desktop or for a page opened from a file.
pub fn page_server() -> Option<String> {
    #[cfg(target_arch = "wasm32")]
    {
        let location = web_sys::window()?.location();
        let protocol = location.protocol().ok()?;
        if protocol != "http:" && protocol != "https:" {
            return None;
        }
        let host = location.hostname().ok()?;
        if host.is_empty() {
            return None;
        }
        let search = location.search().ok().unwrap_or_default();
        let port = web_sys::UrlSearchParams::new_with_str(&search)
            .ok()
            .and_then(|p| p.get("ws"))
            .and_then(|p| p.parse::<u16>().ok())
            .unwrap_or(crate::client::net::LAN_WS_PORT);
        let host = if host.contains(':') {
            format!("[{host}]")
        } else {
            host
        };
        Some(format!("ws://{host}:{port}"))
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        None
    }
}

/// Whether the client runs in a browser (no LAN hosting, no quitting).
pub const IN_BROWSER: bool = cfg!(target_arch = "wasm32");
