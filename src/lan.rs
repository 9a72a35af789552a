//! The LAN's fixed facts, shared by the desktop client and the command
//! line: the ports a hosted game listens on, this machine's address, and
//! the address a phone opens.

use std::net::SocketAddr;

/// The ports a hosted LAN game listens on.
pub const LAN_PORT: u16 = 5410;
pub const LAN_WS_PORT: u16 = 5411;

/// This machine's LAN addresses with `port`: the address a UDP socket would
/// use to reach the LAN, then loopback.
pub fn lan_addresses(port: u16) -> Vec<SocketAddr> {
    let mut out: Vec<SocketAddr> = lan_ip()
        .map(|ip| SocketAddr::new(ip, port))
        .into_iter()
        .collect();
    out.push(SocketAddr::from(([127, 0, 0, 1], port)));
    out
}

/// This machine's address on the LAN, if it has one.
pub fn lan_ip() -> Option<std::net::IpAddr> {
    // Connecting a UDP socket sends nothing; it only picks the route.
    let socket = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
    socket.connect("192.168.0.1:9").ok()?;
    let addr = socket.local_addr().ok()?;
    (!addr.ip().is_unspecified()).then_some(addr.ip())
}

#[cfg(not(target_arch = "wasm32"))]
/// The address a phone opens: the page, told which WebSocket port to use
/// and the pin of the server's key (`key`: a client refuses a server that
/// answers with another, docs/LAN.md "Threat model").
pub fn web_url(
    host: std::net::IpAddr,
    port: u16,
    ws_port: u16,
    pin: &foodweb_netcode::seal::Pin,
) -> String {
    let key = foodweb_netcode::tokens::to_hex(pin);
    if ws_port == LAN_WS_PORT {
        format!("http://{host}:{port}/?key={key}")
    } else {
        format!("http://{host}:{port}/?ws={ws_port}&key={key}")
    }
}
