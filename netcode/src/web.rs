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

/// Bounds on the HTTP server, so that guests who open connections and send
/// nothing (or a byte now and then) cannot hold its threads, its file
/// descriptors or its memory (docs/LAN.md, "Threat model"). A connection
/// costs a thread only once its request has arrived whole; until then it
/// waits in a list the listener reads without blocking.
#[derive(Clone, Copy, Debug)]
pub struct WebLimits {
    /// Connections open at once (their request arriving, or being served).
    pub max_connections: usize,
    /// Connections open at once from one address.
    pub max_per_ip: usize,
    /// How long a request's head may take to arrive, whole, from accept.
    pub request_secs: u64,
    /// How long one write to a slow reader may block.
    pub write_secs: u64,
}

impl Default for WebLimits {
    fn default() -> Self {
        Self {
            max_connections: 1024,
            // A browser loads a page's files over about six connections at
            // once; a second tab or device behind one address needs more.
            max_per_ip: 16,
            request_secs: 5,
            write_secs: 60,
        }
    }
}

impl From<crate::limits::ServerLimits> for WebLimits {
    fn from(limits: crate::limits::ServerLimits) -> Self {
        Self {
            max_connections: limits.http_total,
            max_per_ip: limits.http_per_address,
            ..Self::default()
        }
    }
}

/// The largest request head read (request line and headers).
#[cfg(not(target_family = "wasm"))]
const MAX_HEAD: usize = 16 * 1024;

/// Threads serving requests that arrived: several phones fetch the module
/// (megabytes) at once at a party, so one slow download does not hold up
/// the rest.
#[cfg(not(target_family = "wasm"))]
const WEB_THREADS: usize = 16;

/// What an HTTP listener answers: the web client's files, connect tokens
/// (`GET /token?via=udp|ws`), or both.
#[cfg(not(target_family = "wasm"))]
#[derive(Clone, Default)]
pub struct HttpService {
    pub web_root: Option<PathBuf>,
    pub tokens: Option<crate::tokens::TokenIssuer>,
}

/// Serves `root` over HTTP on `addr` from threads of its own, within
/// [`WebLimits::default`], with tokens for the page when given an issuer.
/// Returns the address bound (for port 0).
#[cfg(not(target_family = "wasm"))]
pub fn serve_static(
    root: PathBuf,
    addr: std::net::SocketAddr,
    tokens: Option<crate::tokens::TokenIssuer>,
) -> std::io::Result<std::net::SocketAddr> {
    let service = HttpService {
        web_root: Some(root),
        tokens,
    };
    serve_http(service, addr, WebLimits::default())
}

/// A request whose head arrived whole.
#[cfg(not(target_family = "wasm"))]
struct Request {
    stream: std::net::TcpStream,
    method: String,
    target: String,
    accept_encoding: String,
    /// The `Host` header: the address the client dialled.
    host: String,
    slot: Slot,
}

/// A connection whose request is still arriving.
#[cfg(not(target_family = "wasm"))]
struct Arriving {
    stream: std::net::TcpStream,
    head: Vec<u8>,
    deadline: std::time::Instant,
    slot: Slot,
}

/// Serves `service` over HTTP on `addr` within `limits`. Returns the
/// address bound (for port 0).
#[cfg(not(target_family = "wasm"))]
pub fn serve_http(
    service: HttpService,
    addr: std::net::SocketAddr,
    limits: WebLimits,
) -> std::io::Result<std::net::SocketAddr> {
    use std::sync::{Arc, Mutex, mpsc};
    let listener = std::net::TcpListener::bind(addr)?;
    listener.set_nonblocking(true)?;
    let bound = listener.local_addr()?;
    let open = Arc::new(Mutex::new(OpenConnections::default()));
    let (queue, jobs) = mpsc::sync_channel::<Request>(WEB_THREADS * 4);
    let jobs = Arc::new(Mutex::new(jobs));
    for worker in 0..WEB_THREADS {
        let jobs = jobs.clone();
        let service = service.clone();
        std::thread::Builder::new()
            .name(format!("http {worker}"))
            .spawn(move || {
                loop {
                    let job = jobs.lock().unwrap_or_else(|e| e.into_inner()).recv();
                    let Ok(request) = job else { return };
                    respond(request, &service, limits);
                }
            })?;
    }
    std::thread::Builder::new()
        .name("http listener".into())
        .spawn(move || listen(listener, open, queue, limits))?;
    Ok(bound)
}

/// Accepts connections and reads their requests without blocking; a
/// request that arrived whole goes to a worker.
#[cfg(not(target_family = "wasm"))]
fn listen(
    listener: std::net::TcpListener,
    open: std::sync::Arc<std::sync::Mutex<OpenConnections>>,
    queue: std::sync::mpsc::SyncSender<Request>,
    limits: WebLimits,
) {
    use std::io::{ErrorKind, Read};
    use std::time::{Duration, Instant};
    let mut arriving: Vec<Arriving> = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        // New connections: each takes a place (or is closed at once).
        loop {
            match listener.accept() {
                Ok((stream, peer)) => {
                    let Some(slot) = Slot::take(&open, peer.ip(), limits) else {
                        continue;
                    };
                    if stream.set_nonblocking(true).is_err() {
                        continue;
                    }
                    arriving.push(Arriving {
                        stream,
                        head: Vec::new(),
                        deadline: Instant::now() + Duration::from_secs(limits.request_secs),
                        slot,
                    });
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                // Out of file descriptors, a peer that reset: go on.
                Err(_) => break,
            }
        }
        // What the waiting connections sent.
        let now = Instant::now();
        let mut i = 0;
        while i < arriving.len() {
            let a = &mut arriving[i];
            let mut keep = now < a.deadline;
            let mut ready = None;
            while keep {
                match a.stream.read(&mut chunk) {
                    Ok(0) => keep = false,
                    Ok(n) => {
                        a.head.extend_from_slice(&chunk[..n]);
                        match parse_head(&a.head) {
                            Head::Partial if a.head.len() < MAX_HEAD => {}
                            Head::Partial => keep = false,
                            Head::Bad => keep = false,
                            Head::Complete(method, target, accept, host) => {
                                ready = Some((method, target, accept, host));
                                keep = false;
                            }
                        }
                    }
                    Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                    Err(_) => keep = false,
                }
            }
            if keep {
                i += 1;
                continue;
            }
            let done = arriving.swap_remove(i);
            if let Some((method, target, accept_encoding, host)) = ready {
                let _ = done.stream.set_nonblocking(false);
                let request = Request {
                    stream: done.stream,
                    method,
                    target,
                    accept_encoding,
                    host,
                    slot: done.slot,
                };
                if let Err(std::sync::mpsc::TrySendError::Full(mut r)) = queue.try_send(request) {
                    let _ = reply(&mut r.stream, "503 Service Unavailable", b"busy: try again");
                }
            }
        }
        // Idle: look again soon; busy: at once.
        std::thread::sleep(Duration::from_millis(if arriving.is_empty() {
            20
        } else {
            5
        }));
    }
}

#[cfg(not(target_family = "wasm"))]
enum Head {
    Partial,
    Bad,
    /// Method, target, Accept-Encoding, Host.
    Complete(String, String, String, String),
}

#[cfg(not(target_family = "wasm"))]
fn parse_head(head: &[u8]) -> Head {
    let mut headers = [httparse::EMPTY_HEADER; 48];
    let mut request = httparse::Request::new(&mut headers);
    match request.parse(head) {
        Ok(httparse::Status::Complete(_)) => {
            let header = |name: &str| {
                request
                    .headers
                    .iter()
                    .find(|h| h.name.eq_ignore_ascii_case(name))
                    .map(|h| String::from_utf8_lossy(h.value).into_owned())
                    .unwrap_or_default()
            };
            Head::Complete(
                request.method.unwrap_or("").to_owned(),
                request.path.unwrap_or("").to_owned(),
                header("accept-encoding"),
                header("host"),
            )
        }
        Ok(httparse::Status::Partial) => Head::Partial,
        Err(_) => Head::Bad,
    }
}

/// Connections open, in all and by address.
#[cfg(not(target_family = "wasm"))]
#[derive(Default)]
struct OpenConnections {
    total: usize,
    by_ip: std::collections::HashMap<std::net::IpAddr, usize>,
}

/// One connection's place among the open ones, given back when dropped.
#[cfg(not(target_family = "wasm"))]
struct Slot {
    open: std::sync::Arc<std::sync::Mutex<OpenConnections>>,
    ip: std::net::IpAddr,
}

#[cfg(not(target_family = "wasm"))]
impl Slot {
    fn take(
        open: &std::sync::Arc<std::sync::Mutex<OpenConnections>>,
        ip: std::net::IpAddr,
        limits: WebLimits,
    ) -> Option<Self> {
        let mut o = open.lock().unwrap_or_else(|e| e.into_inner());
        let mine = o.by_ip.get(&ip).copied().unwrap_or(0);
        if o.total >= limits.max_connections || mine >= limits.max_per_ip {
            return None;
        }
        o.total += 1;
        o.by_ip.insert(ip, mine + 1);
        Some(Self {
            open: open.clone(),
            ip,
        })
    }
}

#[cfg(not(target_family = "wasm"))]
impl Drop for Slot {
    fn drop(&mut self) {
        let mut o = self.open.lock().unwrap_or_else(|e| e.into_inner());
        o.total = o.total.saturating_sub(1);
        if let Some(n) = o.by_ip.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                o.by_ip.remove(&self.ip);
            }
        }
    }
}

/// Answers one request (GET and HEAD only), then the connection closes.
#[cfg(not(target_family = "wasm"))]
fn respond(request: Request, service: &HttpService, limits: WebLimits) {
    use std::io::Write;
    let Request {
        mut stream,
        method,
        target,
        accept_encoding,
        host,
        slot,
    } = request;
    let _slot = slot;
    let _ = stream.set_write_timeout(Some(std::time::Duration::from_secs(limits.write_secs)));
    if method != "GET" && method != "HEAD" {
        let _ = reply(&mut stream, "405 Method Not Allowed", b"");
        return;
    }
    let (route, query) = target.split_once('?').unwrap_or((target.as_str(), ""));
    if route == "/token" {
        let _ = answer_token(&mut stream, service, query, &host);
        return;
    }
    let Some(path) = service
        .web_root
        .as_deref()
        .and_then(|root| resolve(root, &target))
    else {
        let _ = reply(&mut stream, "404 Not Found", b"not found");
        return;
    };
    let (file, encoding) = pick_encoding(&path, &accept_encoding);
    let Ok(mut body) = std::fs::File::open(&file) else {
        let _ = reply(&mut stream, "500 Internal Server Error", b"unreadable");
        return;
    };
    let length = body.metadata().map_or(0, |m| m.len());
    let mut extra = String::new();
    if let Some(encoding) = encoding {
        // The page's loading bar counts decoded bytes.
        let size = std::fs::metadata(&path).map_or(0, |m| m.len());
        extra = format!("Content-Encoding: {encoding}\r\nX-Decoded-Length: {size}\r\n");
    }
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: {}\r\nContent-Length: {length}\r\n{extra}Connection: close\r\n\r\n",
        content_type(&path)
    );
    if stream.write_all(head.as_bytes()).is_err() || method == "HEAD" {
        return;
    }
    // Whole files, but not for ever: a reader slower than 16 KB/s after
    // the first minute gives its thread back.
    let deadline = std::time::Instant::now()
        + std::time::Duration::from_secs(limits.write_secs + length / 16_384);
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        use std::io::Read;
        let n = match body.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        if stream.write_all(&chunk[..n]).is_err() || std::time::Instant::now() > deadline {
            return;
        }
    }
    let _ = stream.flush();
}

/// `GET /token?via=udp|ws`: a connect token in hex, for whoever asks from
/// any page (browsers fetch it across origins), never cached.
#[cfg(not(target_family = "wasm"))]
fn answer_token(
    stream: &mut std::net::TcpStream,
    service: &HttpService,
    query: &str,
    host: &str,
) -> std::io::Result<()> {
    use std::io::Write;
    let Some(issuer) = &service.tokens else {
        return reply(stream, "404 Not Found", b"no tokens here");
    };
    let via = query
        .split('&')
        .find_map(|kv| kv.strip_prefix("via="))
        .and_then(crate::tokens::Via::parse);
    let Some(via) = via else {
        return reply(
            stream,
            "400 Bad Request",
            b"ask for /token?via=udp or via=ws",
        );
    };
    // The token names the address the client dialled (its `Host`, when that
    // is an address): behind port forwarding the server's own address is
    // not one the client can reach.
    let dialled = host
        .parse::<std::net::SocketAddr>()
        .map(|a| a.ip())
        .or_else(|_| host.parse::<std::net::IpAddr>());
    let reached = dialled.unwrap_or(stream.local_addr()?.ip().to_canonical());
    let peer = stream.peer_addr()?.ip();
    match issuer.issue(reached, peer, via) {
        Ok(token) => {
            let body = crate::tokens::to_hex(&token);
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nCache-Control: no-store\r\nAccess-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n",
                body.len()
            );
            stream.write_all(head.as_bytes())?;
            stream.write_all(body.as_bytes())
        }
        Err(why) => reply(stream, "429 Too Many Requests", why.as_bytes()),
    }
}

/// A short response with a body, then the connection closes.
#[cfg(not(target_family = "wasm"))]
fn reply(stream: &mut std::net::TcpStream, status: &str, body: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)
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
