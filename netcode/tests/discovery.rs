//! "Discovery: servers announce themselves on the LAN; the client's join
//! screen lists them." Over loopback, as a LAN broadcast may not reach a
//! test machine's own listeners.

use std::net::UdpSocket;

use foodweb_netcode::discovery::{Beacon, Discovery};

#[test]
fn a_beacon_is_heard_and_listed_with_its_udp_port() {
    let port = UdpSocket::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut heard = Discovery::listen(port);
    assert!(heard.is_listening());
    let beacon = Beacon {
        app: "foodweb".into(),
        version: 1,
        name: "Kitchen".into(),
        udp_port: Some(5410),
        ws_port: Some(5411),
        token_port: Some(5410),
        key: Some("00112233445566778899aabbccddeeff".into()),
        tables: 2,
    };
    let sender = UdpSocket::bind("127.0.0.1:0").unwrap();
    sender
        .send_to(&serde_json::to_vec(&beacon).unwrap(), ("127.0.0.1", port))
        .unwrap();
    // Someone else's broadcast on the same port is ignored.
    sender
        .send_to(b"{\"app\":\"other\"}", ("127.0.0.1", port))
        .unwrap();
    let mut servers = Vec::new();
    for _ in 0..100 {
        heard.poll();
        servers = heard.servers().cloned().collect();
        if !servers.is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(servers.len(), 1);
    assert_eq!(servers[0].beacon, beacon);
    assert_eq!(servers[0].addr, "127.0.0.1:5410".parse().unwrap());
}
