//! Serving the browser client: a small static HTTP server for the built
//! web client (`wasm/dist`), so anyone on the LAN can open a URL (or scan
//! its QR code) and play; the page then connects back to the same server
//! over WebSocket.

use std::path::{Component, Path, PathBuf};

/// The file a request path names inside `root`, or `None` if it would
/// leave the folder (`..`, absolute paths, a link to a file outside it)
/// or does not exist.
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
    if !full.is_file() {
        return None;
    }
    // A link inside the folder may lead out of it (issue 70: a stray
    // `web/link_key -> ../data/netcode.key` served the server's key): the
    // file it names must be under the folder itself.
    let (real, home) = (full.canonicalize().ok()?, root.canonicalize().ok()?);
    if !real.starts_with(&home) {
        refused_link(&full, &real);
        return None;
    }
    Some(full)
}

/// Logs a link out of the web folder, once per link (a guest asking for
/// it again and again must not fill the log).
fn refused_link(link: &Path, to: &Path) {
    static LOGGED: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());
    let Ok(mut logged) = LOGGED.lock() else {
        return;
    };
    if logged.len() < 64 && !logged.iter().any(|l| l == link) {
        logged.push(link.to_path_buf());
        eprintln!(
            "foodweb: not served: {} leads out of the web folder (to {})",
            link.display(),
            to.display()
        );
    }
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

/// Bounds on an HTTP listener, so that guests who open connections and send
/// nothing (or a byte now and then), or read a large file a byte at a time,
/// cannot keep others out or hold its memory (docs/LAN.md, "Threat
/// model"). Connections are tasks on a small runtime of their own: a slow
/// one costs a socket and a few kilobytes, never a thread.
#[derive(Clone, Copy, Debug)]
pub struct WebLimits {
    /// Connections open at once. When all are taken, a new one takes the
    /// place of the oldest whose request has not arrived yet.
    pub max_connections: usize,
    /// Connections open at once from one address.
    pub max_per_ip: usize,
    /// Responses under way at once for one address (the rest of its
    /// connections wait their turn, up to `request_secs`).
    pub responses_per_ip: usize,
    /// How long a request's head may take to arrive, whole, from accept
    /// (and how long a connection waits for its address's turn).
    pub request_secs: u64,
    /// A response slower than `min_bytes_per_sec` over its first
    /// `grace_secs`, or that makes no progress for `grace_secs`, is cut.
    pub grace_secs: u64,
    pub min_bytes_per_sec: u64,
}

impl Default for WebLimits {
    fn default() -> Self {
        Self {
            max_connections: 1024,
            // A browser loads a page's files over about six connections at
            // once; a second tab or device behind one address needs more.
            max_per_ip: 32,
            responses_per_ip: 8,
            request_secs: 5,
            grace_secs: 10,
            // A phone on a weak Wi-Fi still fetches the module (7 MB) in
            // well under ten minutes at this rate.
            min_bytes_per_sec: 16 * 1024,
        }
    }
}

impl From<crate::limits::ServerLimits> for WebLimits {
    fn from(limits: crate::limits::ServerLimits) -> Self {
        Self {
            max_connections: limits.http_total,
            max_per_ip: (limits.http_per_address * 4).min(limits.http_total),
            responses_per_ip: limits.http_per_address,
            ..Self::default()
        }
    }
}

/// What an HTTP listener answers: the web client's files, connect tokens
/// (`GET /token?via=udp|ws`), or both.
#[cfg(not(target_family = "wasm"))]
#[derive(Clone, Default)]
pub struct HttpService {
    pub web_root: Option<PathBuf>,
    pub tokens: Option<crate::tokens::TokenIssuer>,
}

/// Serves `root` over HTTP on `addr` within [`WebLimits::default`], with
/// tokens for the page when given an issuer. Returns the address bound
/// (for port 0).
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

/// Serves `service` over HTTP on `addr` within `limits`, from a thread and
/// a two-thread runtime of its own (hyper for HTTP/1.1, tower-http's
/// `ServeDir` for files: gzip twins, validators, ranges). Returns the
/// address bound (for port 0).
#[cfg(not(target_family = "wasm"))]
pub fn serve_http(
    service: HttpService,
    addr: std::net::SocketAddr,
    limits: WebLimits,
) -> std::io::Result<std::net::SocketAddr> {
    let listener = std::net::TcpListener::bind(addr)?;
    listener.set_nonblocking(true)?;
    let bound = listener.local_addr()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("http")
        .enable_all()
        .build()?;
    std::thread::Builder::new()
        .name("http listener".into())
        .spawn(move || runtime.block_on(http::listen(listener, service, limits)))?;
    Ok(bound)
}

#[cfg(not(target_family = "wasm"))]
mod http {
    use std::collections::HashMap;
    use std::net::{IpAddr, SocketAddr};
    use std::pin::Pin;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, Mutex, PoisonError};
    use std::task::{Context, Poll};
    use std::time::{Duration, Instant};

    use bytes::Bytes;
    use http_body_util::{BodyExt, Full, combinators::UnsyncBoxBody};
    use hyper::{Request, Response, StatusCode, header};
    use hyper_util::rt::{TokioIo, TokioTimer};
    use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
    use tokio::sync::{Notify, Semaphore};

    use std::future::Future;

    use super::{HttpService, WebLimits, resolve};

    type Body = UnsyncBoxBody<Bytes, std::io::Error>;

    /// One open connection, as the listener sees it.
    struct Conn {
        ip: IpAddr,
        opened: Instant,
        /// Its request has arrived: it is no longer a candidate to make
        /// room.
        headed: AtomicBool,
        close: Notify,
    }

    #[derive(Default)]
    struct Open {
        conns: Vec<Arc<Conn>>,
        by_ip: HashMap<IpAddr, usize>,
        /// Responses under way, by address.
        turns: HashMap<IpAddr, Arc<Semaphore>>,
    }

    type Shared = Arc<Mutex<Open>>;

    fn lock(open: &Shared) -> std::sync::MutexGuard<'_, Open> {
        open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A place among the open connections, given back when dropped.
    struct Place {
        open: Shared,
        conn: Arc<Conn>,
    }

    impl Place {
        /// A place for a connection from `ip`, or `None` if its address
        /// has all it may have. When every place is taken, the oldest
        /// connection still waiting for its request is asked to close.
        fn take(open: &Shared, ip: IpAddr, limits: WebLimits) -> Option<Self> {
            let mut o = lock(open);
            let mine = o.by_ip.get(&ip).copied().unwrap_or(0);
            if mine >= limits.max_per_ip {
                return None;
            }
            if o.conns.len() >= limits.max_connections {
                let oldest = o
                    .conns
                    .iter()
                    .filter(|c| !c.headed.load(Ordering::Relaxed))
                    .min_by_key(|c| c.opened)?;
                oldest.close.notify_one();
                // It leaves the list when its task ends; until then the
                // list may hold one more than its bound.
                oldest.headed.store(true, Ordering::Relaxed);
            }
            let conn = Arc::new(Conn {
                ip,
                opened: Instant::now(),
                headed: AtomicBool::new(false),
                close: Notify::new(),
            });
            o.conns.push(conn.clone());
            *o.by_ip.entry(ip).or_default() += 1;
            o.turns
                .entry(ip)
                .or_insert_with(|| Arc::new(Semaphore::new(limits.responses_per_ip)));
            Some(Self {
                open: open.clone(),
                conn,
            })
        }

        fn turns(&self) -> Arc<Semaphore> {
            lock(&self.open).turns[&self.conn.ip].clone()
        }
    }

    impl Drop for Place {
        fn drop(&mut self) {
            let mut o = lock(&self.open);
            o.conns.retain(|c| !Arc::ptr_eq(c, &self.conn));
            let ip = self.conn.ip;
            if let Some(n) = o.by_ip.get_mut(&ip) {
                *n -= 1;
                if *n == 0 {
                    o.by_ip.remove(&ip);
                    o.turns.remove(&ip);
                }
            }
        }
    }

    pub(super) async fn listen(
        listener: std::net::TcpListener,
        service: HttpService,
        limits: WebLimits,
    ) {
        let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
            return;
        };
        let open = Shared::default();
        let service = Arc::new(service);
        loop {
            let (stream, peer) = match listener.accept().await {
                Ok(accepted) => accepted,
                // Out of file descriptors, a peer that reset: go on.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            let Some(place) = Place::take(&open, peer.ip().to_canonical(), limits) else {
                continue;
            };
            let _ = stream.set_nodelay(true);
            tokio::spawn(connection(stream, peer, place, service.clone(), limits));
        }
    }

    /// One connection: its address's turn, then one request and its
    /// response, within the limits.
    async fn connection(
        stream: tokio::net::TcpStream,
        peer: SocketAddr,
        place: Place,
        service: Arc<HttpService>,
        limits: WebLimits,
    ) {
        let local = stream.local_addr().ok();
        let head_time = Duration::from_secs(limits.request_secs);
        let conn = place.conn.clone();
        let turns = place.turns();
        let served = async {
            let Ok(Ok(_turn)) = tokio::time::timeout(head_time, turns.acquire_owned()).await else {
                return;
            };
            let io = TokioIo::new(MinRate::new(stream, limits));
            let handler = hyper::service::service_fn(move |request| {
                conn.headed.store(true, Ordering::Relaxed);
                let service = service.clone();
                async move {
                    Ok::<_, std::convert::Infallible>(answer(request, &service, peer, local).await)
                }
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(head_time)
                .max_buf_size(16 * 1024)
                .keep_alive(false)
                .serve_connection(io, handler)
                .await;
        };
        tokio::select! {
            () = served => {}
            () = place.conn.close.notified() => {}
        }
        drop(place);
    }

    fn text(status: StatusCode, body: impl Into<Bytes>) -> Response<Body> {
        let mut response = Response::new(
            Full::new(body.into())
                .map_err(|never| match never {})
                .boxed_unsync(),
        );
        *response.status_mut() = status;
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            header::HeaderValue::from_static("text/plain; charset=utf-8"),
        );
        response
    }

    async fn answer(
        request: Request<hyper::body::Incoming>,
        service: &HttpService,
        peer: SocketAddr,
        local: Option<SocketAddr>,
    ) -> Response<Body> {
        use tower::ServiceExt;
        if request.method() != hyper::Method::GET && request.method() != hyper::Method::HEAD {
            return text(StatusCode::METHOD_NOT_ALLOWED, "GET or HEAD only");
        }
        if request.uri().path() == "/token" {
            return token(&request, service, peer, local);
        }
        let Some(root) = service.web_root.as_deref() else {
            return text(StatusCode::NOT_FOUND, "not found");
        };
        let path = request.uri().path().to_owned();
        let files = tower_http::services::ServeDir::new(root).precompressed_gzip();
        let Ok(mut response) = files.oneshot(request).await;
        // The page's loading bar counts decoded bytes.
        if response.headers().get(header::CONTENT_ENCODING).is_some()
            && let Some(file) = resolve(root, &path)
            && let Ok(meta) = std::fs::metadata(&file)
            && let Ok(value) = header::HeaderValue::from_str(&meta.len().to_string())
        {
            response.headers_mut().insert("x-decoded-length", value);
        }
        // Kept, and asked about again at each load: a reload or a second
        // visit gets "304 Not Modified" (the file's Last-Modified) for
        // every file that has not changed, not the 7 MB again; a new build
        // is fetched at once.
        response.headers_mut().insert(
            header::CACHE_CONTROL,
            header::HeaderValue::from_static("no-cache"),
        );
        response.map(|body| body.boxed_unsync())
    }

    /// `GET /token?via=udp|ws&k=<hex>`: a connect token sealed to the key
    /// `k` the client made for this request (`seal.rs`), in hex, for
    /// whoever asks from any page (browsers fetch it across origins),
    /// never cached.
    fn token(
        request: &Request<hyper::body::Incoming>,
        service: &HttpService,
        peer: SocketAddr,
        local: Option<SocketAddr>,
    ) -> Response<Body> {
        let Some(issuer) = &service.tokens else {
            return text(StatusCode::NOT_FOUND, "no tokens here");
        };
        let query = request.uri().query().unwrap_or("");
        let param = |name: &str| {
            query
                .split('&')
                .find_map(|kv| kv.strip_prefix(name)?.strip_prefix('='))
        };
        let via = param("via").and_then(crate::tokens::Via::parse);
        let (Some(via), Some(client)) = (via, param("k")) else {
            return text(
                StatusCode::BAD_REQUEST,
                "ask for /token?via=udp or via=ws, with k=<your key, 64 hex digits>",
            );
        };
        // The token names the address the client dialled (its `Host`, when
        // that is an address): behind port forwarding the server's own
        // address is not one the client can reach.
        let host = request
            .headers()
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .unwrap_or("");
        let dialled = host
            .parse::<SocketAddr>()
            .map(|a| a.ip())
            .or_else(|_| host.parse::<IpAddr>())
            .ok();
        let Some(reached) = dialled.or(local.map(|l| l.ip().to_canonical())) else {
            return text(StatusCode::INTERNAL_SERVER_ERROR, "no address");
        };
        let mut response = match issuer.issue(reached, peer.ip().to_canonical(), via, client) {
            Ok(token) => {
                let mut r = Response::new(
                    Full::new(Bytes::from(crate::tokens::to_hex(&token)))
                        .map_err(|never| match never {})
                        .boxed_unsync(),
                );
                r.headers_mut().insert(
                    header::CONTENT_TYPE,
                    header::HeaderValue::from_static("text/plain"),
                );
                r
            }
            Err(why) => {
                use crate::tokens::Refusal;
                let status = match why {
                    Refusal::BadKey => StatusCode::BAD_REQUEST,
                    Refusal::NotListening(_) => StatusCode::NOT_FOUND,
                    Refusal::TooOften => StatusCode::TOO_MANY_REQUESTS,
                    Refusal::Failed(_) => StatusCode::INTERNAL_SERVER_ERROR,
                };
                text(status, why.to_string())
            }
        };
        let headers = response.headers_mut();
        headers.insert(
            header::CACHE_CONTROL,
            header::HeaderValue::from_static("no-store"),
        );
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            header::HeaderValue::from_static("*"),
        );
        response
    }

    /// A connection that fails its writes when the reader is too slow: no
    /// progress for `grace_secs`, or less than `min_bytes_per_sec` on
    /// average once `grace_secs` have passed since the first byte went.
    struct MinRate<S> {
        inner: S,
        grace: Duration,
        min_rate: u64,
        started: Option<Instant>,
        written: u64,
        stall: Option<Pin<Box<tokio::time::Sleep>>>,
    }

    impl<S> MinRate<S> {
        fn new(inner: S, limits: WebLimits) -> Self {
            Self {
                inner,
                grace: Duration::from_secs(limits.grace_secs),
                min_rate: limits.min_bytes_per_sec,
                started: None,
                written: 0,
                stall: None,
            }
        }

        fn too_slow(&self) -> bool {
            self.started.is_some_and(|at| {
                let secs = at.elapsed().as_secs_f64();
                secs > self.grace.as_secs_f64()
                    && (self.written as f64) < self.min_rate as f64 * secs
            })
        }
    }

    fn slow() -> std::io::Error {
        std::io::Error::new(std::io::ErrorKind::TimedOut, "the reader is too slow")
    }

    impl<S: AsyncRead + Unpin> AsyncRead for MinRate<S> {
        fn poll_read(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            buf: &mut ReadBuf<'_>,
        ) -> Poll<std::io::Result<()>> {
            Pin::new(&mut self.inner).poll_read(cx, buf)
        }
    }

    impl<S: AsyncWrite + Unpin> AsyncWrite for MinRate<S> {
        fn poll_write(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            buf: &[u8],
        ) -> Poll<std::io::Result<usize>> {
            if self.too_slow() {
                return Poll::Ready(Err(slow()));
            }
            let this = &mut *self;
            this.started.get_or_insert_with(Instant::now);
            match Pin::new(&mut this.inner).poll_write(cx, buf) {
                Poll::Ready(Ok(n)) => {
                    this.written += n as u64;
                    this.stall = None;
                    Poll::Ready(Ok(n))
                }
                Poll::Pending => {
                    // No progress: wake when the grace runs out, and cut.
                    let grace = this.grace;
                    let stall = this
                        .stall
                        .get_or_insert_with(|| Box::pin(tokio::time::sleep(grace)));
                    match stall.as_mut().poll(cx) {
                        Poll::Ready(()) => Poll::Ready(Err(slow())),
                        Poll::Pending => Poll::Pending,
                    }
                }
                other => other,
            }
        }

        fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
            Pin::new(&mut self.inner).poll_flush(cx)
        }

        fn poll_shutdown(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
        ) -> Poll<std::io::Result<()>> {
            Pin::new(&mut self.inner).poll_shutdown(cx)
        }
    }

    /// Serves one connection whose bytes are `input` (what a client sent)
    /// in memory: the HTTP decoder fuzzed with what a guest could send.
    #[cfg(test)]
    pub(super) fn serve_bytes(input: Vec<u8>, service: HttpService) {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async move {
            use tokio::io::AsyncWriteExt;
            let (mut client, server) = tokio::io::duplex(64 * 1024);
            let service = Arc::new(service);
            let peer = SocketAddr::from(([127, 0, 0, 2], 40000));
            let handler = hyper::service::service_fn(move |request| {
                let service = service.clone();
                async move {
                    Ok::<_, std::convert::Infallible>(answer(request, &service, peer, None).await)
                }
            });
            let serve = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(Duration::from_millis(200))
                .max_buf_size(16 * 1024)
                .keep_alive(false)
                .serve_connection(TokioIo::new(server), handler);
            let send = async move {
                let _ = client.write_all(&input).await;
                let _ = client.shutdown().await;
                // Read whatever comes back, so the server is never blocked.
                let mut sink = Vec::new();
                let _ = tokio::io::AsyncReadExt::read_to_end(&mut client, &mut sink).await;
            };
            let _ = tokio::time::timeout(Duration::from_secs(2), async {
                let _ = tokio::join!(serve, send);
            })
            .await;
        });
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
        let _ = std::fs::remove_dir_all(dir);
    }

    /// Issue 70, 4: "A symlink inside `--web-dir` is followed:
    /// `web/link_key -> ../data/netcode.key` served the server's 32-byte
    /// netcode key". A link to a file outside the folder is not served; a
    /// link within it is.
    #[cfg(unix)]
    #[test]
    fn a_link_out_of_the_folder_is_not_served() {
        let base = std::env::temp_dir().join(format!("foodweb-links-{}", std::process::id()));
        let (web, data) = (base.join("web"), base.join("data"));
        std::fs::create_dir_all(web.join("assets")).unwrap();
        std::fs::create_dir_all(&data).unwrap();
        std::fs::write(data.join("netcode.key"), [7u8; 32]).unwrap();
        std::fs::write(web.join("index.html"), "hi").unwrap();
        std::os::unix::fs::symlink("../data/netcode.key", web.join("link_key")).unwrap();
        std::os::unix::fs::symlink(&data, web.join("assets/data")).unwrap();
        std::os::unix::fs::symlink("index.html", web.join("home.html")).unwrap();
        assert_eq!(resolve(&web, "/link_key"), None);
        assert_eq!(resolve(&web, "/assets/data/netcode.key"), None);
        assert_eq!(resolve(&web, "/home.html"), Some(web.join("home.html")));
        assert_eq!(resolve(&web, "/"), Some(web.join("index.html")));
        let _ = std::fs::remove_dir_all(base);
    }

    #[cfg(not(target_family = "wasm"))]
    mod decode {
        use super::super::{HttpService, http};
        use proptest::prelude::*;

        /// Requests a browser sends, to mutate.
        const REQUESTS: [&str; 5] = [
            "GET / HTTP/1.1\r\nHost: 192.168.1.20:8080\r\nAccept-Encoding: gzip\r\n\r\n",
            "GET /token?via=ws HTTP/1.1\r\nHost: 192.168.1.20:8080\r\n\r\n",
            "GET /token?via=udp&k=5e9a7c1b2f0d8e6a4c3b1a09f8e7d6c5b4a3928170f6e5d4c3b2a19080706050 HTTP/1.1\r\nHost: 192.168.1.20:8080\r\n\r\n",
            "HEAD /assets/x.png HTTP/1.0\r\n\r\n",
            "GET /../etc/passwd HTTP/1.1\r\nRange: bytes=5-2\r\nIf-None-Match: \"x\"\r\n\r\n",
        ];

        fn service() -> HttpService {
            let dir = std::env::temp_dir().join(format!("foodweb-http-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("index.html"), "hi").unwrap();
            let tokens = crate::tokens::TokenIssuer::random(1);
            tokens.set_ports(Some(5410), Some(5411));
            HttpService {
                web_root: Some(dir),
                tokens: Some(tokens),
            }
        }

        proptest! {
            #![proptest_config(ProptestConfig {
                cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(64),
                ..ProptestConfig::default()
            })]

            /// Issue 33: "HTTP requests" and "token requests" get random and
            /// mutated input: hyper's decoder and the service answer or
            /// refuse, never panic.
            #[test]
            fn decode_http_requests(
                pick in 0..REQUESTS.len(),
                flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..6),
                tail in prop::collection::vec(any::<u8>(), 0..200),
                random in any::<bool>(),
            ) {
                let mut bytes = if random { tail.clone() } else { REQUESTS[pick].as_bytes().to_vec() };
                for (at, b) in flips {
                    let i = at.index(bytes.len().max(1));
                    if let Some(x) = bytes.get_mut(i) {
                        *x ^= b;
                    }
                }
                if !random {
                    bytes.extend(tail);
                }
                http::serve_bytes(bytes, service());
            }

            #[test]
            fn decode_hex_tokens(text in ".{0,80}") {
                let _ = crate::tokens::from_hex(&text);
            }
        }
    }

    #[test]
    fn a_url_makes_a_square_qr_code() {
        let rows = qr_modules("http://192.168.1.20:8080/").unwrap();
        assert!(rows.len() >= 21 && rows.iter().all(|r| r.len() == rows.len()));
        let text = qr_text("http://192.168.1.20:8080/").unwrap();
        assert!(text.lines().count() >= 12);
    }
}
