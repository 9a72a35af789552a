//! What the client knows of the page it runs in, when it runs in a
//! browser: the server that served the page, to play there without anyone
//! typing an address.

/// The WebSocket URL of the server that served this page (`ws://` + the
/// page's host + the `ws` query parameter, 5411 by default) and the URL of
/// its tokens (`/token` on the page's origin); `None` on the desktop or for
/// a page opened from a file.
pub fn page_server() -> Option<(String, String)> {
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
        let port = page_param("ws")
            .and_then(|p| p.parse::<u16>().ok())
            .unwrap_or(crate::lan::LAN_WS_PORT);
        let host = if host.contains(':') {
            format!("[{host}]")
        } else {
            host
        };
        // The page's own server hands out the tokens that admit it.
        let origin = location.origin().ok()?;
        Some((format!("ws://{host}:{port}"), format!("{origin}/token")))
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        None
    }
}

/// The pin of the server's key that the page's address carries (`key=`,
/// from the host's link or QR code): the token must come sealed by that
/// key. A `key` that does not read pins a key no server has, so the page
/// does not connect unpinned by mistake.
pub fn page_pin() -> Option<foodweb_netcode::seal::Pin> {
    let text = page_param("key")?;
    Some(foodweb_netcode::seal::parse_pin(&text).unwrap_or([0; 16]))
}

/// Whether the client runs in a browser (no LAN hosting, no quitting).
pub const IN_BROWSER: bool = cfg!(target_arch = "wasm32");

/// A query parameter of the page's address (`?autoplay=host` gives
/// `Some("host")` for `autoplay`); on the desktop, the environment
/// variable `FOODWEB_` + the name in capitals.
pub fn page_param(name: &str) -> Option<String> {
    #[cfg(target_arch = "wasm32")]
    {
        let search = web_sys::window()?.location().search().ok()?;
        web_sys::UrlSearchParams::new_with_str(&search)
            .ok()?
            .get(name)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::env::var(format!("FOODWEB_{}", name.to_uppercase())).ok()
    }
}

/// Writes `data-<key>="<value>"` on the page's `<body>`, where a browser
/// test (or anyone with the developer tools open) can read what the
/// client shows; a no-op on the desktop. Only what this seat's screen
/// shows anyway goes here.
pub fn publish(key: &str, value: &str) {
    #[cfg(target_arch = "wasm32")]
    if let Some(body) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
    {
        let _ = body.set_attribute(&format!("data-{key}"), value);
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (key, value);
}

/// Writes where a widget is on the page, in CSS pixels, as
/// `data-target-<name>="x,y,width,height"`, so a browser test can press
/// it with the mouse or a finger like a person would.
pub fn publish_target(name: &str, response: &bevy_egui::egui::Response) {
    if !IN_BROWSER {
        return;
    }
    let zoom = response.ctx.zoom_factor();
    let r = response.rect;
    publish(
        &format!("target-{name}"),
        &format!(
            "{:.0},{:.0},{:.0},{:.0}",
            r.min.x * zoom,
            r.min.y * zoom,
            r.width() * zoom,
            r.height() * zoom
        ),
    );
}

/// A new element of the page, of its DOM type.
#[cfg(target_arch = "wasm32")]
fn new_element<T: wasm_bindgen::JsCast>(tag: &str) -> Option<T> {
    use wasm_bindgen::JsCast;
    let document = web_sys::window()?.document()?;
    document.create_element(tag).ok()?.dyn_into().ok()
}

/// Hands `text` to the browser as a file download named `name` (a replay
/// saved from a page).
#[cfg(target_arch = "wasm32")]
pub fn download(name: &str, text: &str) -> Result<(), String> {
    let fail = |what: &str| format!("the browser would not {what}");
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/octet-stream");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_err(|_| fail("make the file"))?;
    let url =
        web_sys::Url::create_object_url_with_blob(&blob).map_err(|_| fail("make the file"))?;
    let link: web_sys::HtmlAnchorElement = new_element("a").ok_or_else(|| fail("make a link"))?;
    link.set_href(&url);
    link.set_download(name);
    link.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// A replay file the player picked from the device, once read.
#[cfg(target_arch = "wasm32")]
static PICKED: std::sync::Mutex<Option<Result<String, String>>> = std::sync::Mutex::new(None);

/// Asks the browser for a file from the device (a saved replay); its text
/// comes later through [`picked_file`].
#[cfg(target_arch = "wasm32")]
pub fn pick_file() -> Result<(), String> {
    use wasm_bindgen::JsCast;
    use wasm_bindgen::closure::Closure;
    let fail = |what: &str| format!("the browser would not {what}");
    let input: web_sys::HtmlInputElement =
        new_element("input").ok_or_else(|| fail("ask for a file"))?;
    input.set_type("file");
    input.set_accept(".ron,text/plain");
    let chosen = input.clone();
    let on_change = Closure::once_into_js(move || {
        let Some(file) = chosen.files().and_then(|f| f.get(0)) else {
            return;
        };
        let Ok(reader) = web_sys::FileReader::new() else {
            return;
        };
        let read = reader.clone();
        let on_load = Closure::once_into_js(move || {
            let text = read
                .result()
                .ok()
                .and_then(|r| r.as_string())
                .ok_or_else(|| "the file could not be read as text".to_string());
            *PICKED.lock().unwrap_or_else(|e| e.into_inner()) = Some(text);
        });
        reader.set_onload(Some(on_load.unchecked_ref()));
        let _ = reader.read_as_text(&file);
    });
    input.set_onchange(Some(on_change.unchecked_ref()));
    input.click();
    Ok(())
}

/// The text of the file the player picked, once, when it has been read.
#[cfg(target_arch = "wasm32")]
pub fn picked_file() -> Option<Result<String, String>> {
    PICKED.lock().unwrap_or_else(|e| e.into_inner()).take()
}

/// When the page was last hidden (the page's clock, milliseconds), and
/// how long it was hidden before it was shown again (not yet taken).
#[cfg(target_arch = "wasm32")]
static HIDDEN_AT: std::sync::Mutex<Option<f64>> = std::sync::Mutex::new(None);
#[cfg(target_arch = "wasm32")]
static BACK_AFTER: std::sync::Mutex<Option<f64>> = std::sync::Mutex::new(None);

/// Watches the page being hidden (a phone's other app, a locked screen,
/// another tab) and shown again, which wakes the app (issue 68).
pub fn watch_visibility(wake: super::wake::Waker) {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::JsCast;
        use wasm_bindgen::closure::Closure;
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let on_change = Closure::<dyn Fn()>::new(move || {
            let Some(window) = web_sys::window() else {
                return;
            };
            let now = window.performance().map_or(0.0, |p| p.now());
            let hidden = window.document().is_some_and(|d| d.hidden());
            let lock = |m: &'static std::sync::Mutex<Option<f64>>| {
                m.lock().unwrap_or_else(|e| e.into_inner())
            };
            if hidden {
                *lock(&HIDDEN_AT) = Some(now);
            } else if let Some(at) = lock(&HIDDEN_AT).take() {
                *lock(&BACK_AFTER) = Some((now - at) / 1000.0);
                wake();
            }
        });
        if document
            .add_event_listener_with_callback(
                "visibilitychange",
                on_change.as_ref().unchecked_ref(),
            )
            .is_ok()
        {
            // The page's for as long as the page lives.
            on_change.forget();
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = wake;
}

/// How long (seconds) the page was hidden, once it is shown again; taken
/// once. Never on the desktop.
pub fn back_in_view() -> Option<f64> {
    #[cfg(target_arch = "wasm32")]
    {
        BACK_AFTER.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        None
    }
}
