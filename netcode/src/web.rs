//! Serving the browser client: a small static HTTP server for the built
//! web client (`wasm/dist`), so anyone on the LAN can open a URL (or scan
//! its QR code) and play; the page then connects back to the same server
//! over WebSocket.

use std::path::{Component, Path, PathBuf};

/// The content type browsers need for each kind of file the web client
/// ships (`application/wasm` lets them compile the module while it streams).
pub fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "png" => "image/png",
        "otf" => "font/otf",
        "ttf" => "font/ttf",
        "json" => "application/json",
        "ftl" | "txt" | "md" => "text/plain; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// The file a request path names inside `root`, or `None` if it would
/// leave the folder (`..`, absolute paths) or does not exist.
pub fn resolve(root: &Path, url_path: &str) -> Option<PathBuf> {
    let path = url_path.split(['?', '#']).next().unwrap_or("");
    let path = path.trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    let relative = Path::new(path);
    if relative
        .components()
        .any(|c| !matches!(c, Component::Normal(_)))
    {
        return None;
    }
    let full = root.join(relative);
    full.is_file().then_some(full)
}

/// The QR code of `text` as rows of dark (`true`) and light modules, with
/// no quiet zone.
pub fn qr_modules(text: &str) -> Option<Vec<Vec<bool>>> {
    let code = qrcode::QrCode::new(text.as_bytes()).ok()?;
    let width = code.width();
    let colors = code.to_colors();
    Some(
        colors
            .chunks(width)
            .map(|row| row.iter().map(|c| *c == qrcode::Color::Dark).collect())
            .collect(),
    )
}

/// The QR code drawn with half-block characters for a terminal (two rows
/// of modules per line, with a quiet zone).
pub fn qr_text(text: &str) -> Option<String> {
    let rows = qr_modules(text)?;
    let width = rows.first().map_or(0, Vec::len) + 4;
    let light = vec![false; width];
    let mut padded: Vec<Vec<bool>> = vec![light.clone(), light.clone()];
    for r in rows {
        let mut line = vec![false, false];
        line.extend(r);
        line.extend([false, false]);
        padded.push(line);
    }
    padded.push(light.clone());
    padded.push(light.clone());
    if padded.len() % 2 == 1 {
        padded.push(light);
    }
    let mut out = String::new();
    for pair in padded.chunks(2) {
        for (top, bottom) in pair[0].iter().zip(&pair[1]) {
            // Dark modules print as spaces on a light block background.
            out.push(match (*top, *bottom) {
                (false, false) => '█',
                (false, true) => '▀',
                (true, false) => '▄',
                (true, true) => ' ',
            });
        }
        out.push('\n');
    }
    Some(out)
}

/// The file to send for `path` and how it is encoded: its gzip-compressed
/// twin (`path` + `.gz`, which `wasm/build.sh` writes beside the module)
/// when the browser accepts gzip and the twin exists, else the file itself.
pub fn pick_encoding(path: &Path, accept_encoding: &str) -> (PathBuf, Option<&'static str>) {
    let accepts_gzip = accept_encoding.split(',').any(|e| {
        e.split(';')
            .next()
            .is_some_and(|name| name.trim() == "gzip")
    });
    let mut twin = path.as_os_str().to_owned();
    twin.push(".gz");
    let twin = PathBuf::from(twin);
    if accepts_gzip && twin.is_file() {
        (twin, Some("gzip"))
    } else {
        (path.to_path_buf(), None)
    }
}

/// Serves `root` over HTTP on `addr` from a thread of its own. Returns the
/// address bound (for port 0).
#[cfg(not(target_family = "wasm"))]
pub fn serve_static(
    root: PathBuf,
    addr: std::net::SocketAddr,
) -> std::io::Result<std::net::SocketAddr> {
    let server = tiny_http::Server::http(addr).map_err(std::io::Error::other)?;
    let bound = server
        .server_addr()
        .to_ip()
        .ok_or_else(|| std::io::Error::other("not an IP listener"))?;
    // Several phones fetch the module (megabytes) at once at a party: a few
    // threads, so one slow download does not hold up the rest.
    let server = std::sync::Arc::new(server);
    for worker in 0..WEB_THREADS {
        let server = server.clone();
        let root = root.clone();
        std::thread::Builder::new()
            .name(format!("web client {worker}"))
            .spawn(move || serve_requests(&server, &root))?;
    }
    Ok(bound)
}

/// Threads serving the browser client.
#[cfg(not(target_family = "wasm"))]
const WEB_THREADS: usize = 4;

#[cfg(not(target_family = "wasm"))]
fn serve_requests(server: &tiny_http::Server, root: &Path) {
    for request in server.incoming_requests() {
        let accept = request
            .headers()
            .iter()
            .find(|h| h.field.equiv("Accept-Encoding"))
            .map(|h| h.value.as_str().to_owned())
            .unwrap_or_default();
        let response = match resolve(root, request.url()) {
            Some(path) => {
                let (file, encoding) = pick_encoding(&path, &accept);
                match std::fs::read(&file) {
                    Ok(bytes) => {
                        let header = |name: &str, value: &str| {
                            tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes())
                                .expect("a valid header")
                        };
                        let mut response = tiny_http::Response::from_data(bytes)
                            .with_header(header("Content-Type", content_type(&path)));
                        if let Some(encoding) = encoding {
                            // The page's loading bar counts decoded bytes.
                            let size = std::fs::metadata(&path).map_or(0, |m| m.len());
                            response.add_header(header("Content-Encoding", encoding));
                            response.add_header(header("X-Decoded-Length", &size.to_string()));
                        }
                        response
                    }
                    Err(_) => tiny_http::Response::from_string("unreadable").with_status_code(500),
                }
            }
            None => tiny_http::Response::from_string("not found").with_status_code(404),
        };
        let _ = request.respond(response);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_cannot_leave_the_folder() {
        let dir = std::env::temp_dir().join(format!("foodweb-web-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("assets")).unwrap();
        std::fs::write(dir.join("index.html"), "hi").unwrap();
        std::fs::write(dir.join("assets/a.png"), "png").unwrap();
        assert_eq!(resolve(&dir, "/"), Some(dir.join("index.html")));
        assert_eq!(resolve(&dir, "/?ws=5411"), Some(dir.join("index.html")));
        assert_eq!(
            resolve(&dir, "/assets/a.png"),
            Some(dir.join("assets/a.png"))
        );
        assert_eq!(resolve(&dir, "/../etc/passwd"), None);
        assert_eq!(resolve(&dir, "/assets/../../x"), None);
        assert_eq!(resolve(&dir, "/nothing.js"), None);
        assert_eq!(content_type(Path::new("x.wasm")), "application/wasm");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn the_module_goes_gzipped_to_browsers_that_take_gzip() {
        let dir = std::env::temp_dir().join(format!("foodweb-gz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let wasm = dir.join("foodweb_bg.wasm");
        std::fs::write(&wasm, "module").unwrap();
        std::fs::write(dir.join("foodweb_bg.wasm.gz"), "zipped").unwrap();
        let page = dir.join("index.html");
        std::fs::write(&page, "hi").unwrap();
        let gz = dir.join("foodweb_bg.wasm.gz");
        assert_eq!(
            pick_encoding(&wasm, "gzip, deflate, br"),
            (gz.clone(), Some("gzip"))
        );
        assert_eq!(
            pick_encoding(&wasm, "br;q=1.0, gzip;q=0.8"),
            (gz, Some("gzip"))
        );
        // Not asked for, or no twin: the file as it is.
        assert_eq!(pick_encoding(&wasm, "deflate, br"), (wasm.clone(), None));
        assert_eq!(pick_encoding(&wasm, ""), (wasm, None));
        assert_eq!(pick_encoding(&page, "gzip"), (page, None));
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_url_makes_a_square_qr_code() {
        let rows = qr_modules("http://192.168.1.20:8080/").unwrap();
        assert!(rows.len() >= 21 && rows.iter().all(|r| r.len() == rows.len()));
        let text = qr_text("http://192.168.1.20:8080/").unwrap();
        assert!(text.lines().count() >= 12);
    }
}
