//! Bounds per client: how many connections one address may hold and open per minute, how
//! many messages a connection may send per second (a token bucket), and what one connection
//! and all together may make the server compute (see [`crate::budget`]).

use axum::http::HeaderMap;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Mutex;
use std::time::Instant;

/// The limits, all configurable (`boyi serve` has defaults for people; the load test raises
/// them).
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Connections one address may hold at once.
    pub connections_per_ip: usize,
    /// New connections one address may open per minute.
    pub connects_per_minute: f64,
    /// Messages a connection may send per second, on average.
    pub messages_per_second: f64,
    /// Messages a connection may send at once after a quiet time.
    pub message_burst: f64,
    /// Largest message accepted and answered; larger ones get an error.
    pub max_message_bytes: usize,
    /// Most pixels a photo may have to be decoded (`/api/photo`); checked from its header.
    pub photo_max_pixels: u64,
    /// Computer seats one connection may have in games in progress.
    pub computer_seats_per_connection: usize,
    /// Computer seats in games in progress on the whole server.
    pub computer_seats: usize,
    /// Analyses one connection may run at once.
    pub analyses_per_connection: usize,
    /// Analyses running at once on the whole server.
    pub analyses: usize,
    /// Longest thinking time per move of a computer seat or an analysis, in milliseconds.
    pub max_think_ms: u64,
    /// Frames a camera session may send per second, on average (`/api/camera`).
    pub camera_frames_per_second: f64,
    /// Frames a camera session may send at once after a quiet time.
    pub camera_frame_burst: f64,
    /// Camera sessions one address may hold at once.
    pub camera_sessions_per_ip: usize,
    /// Connections on all instances of a cluster together (no bound by default).
    pub total_connections: usize,
    /// Computer seats in games in progress on all instances of a cluster together (no
    /// bound by default).
    pub total_computer_seats: usize,
}

/// The machine's cores, the unit of the server-wide bounds.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            connections_per_ip: 32,
            connects_per_minute: 120.0,
            messages_per_second: 20.0,
            message_burst: 60.0,
            max_message_bytes: 16 * 1024,
            photo_max_pixels: boyi_vision::MAX_PIXELS,
            computer_seats_per_connection: 4,
            computer_seats: 4 * cores(),
            analyses_per_connection: 1,
            analyses: cores(),
            max_think_ms: 30_000,
            camera_frames_per_second: 4.0,
            camera_frame_burst: 8.0,
            camera_sessions_per_ip: 2,
            total_connections: usize::MAX,
            total_computer_seats: usize::MAX,
        }
    }
}

/// A token bucket: `rate` tokens per second up to `burst`.
#[derive(Debug, Clone)]
pub struct Bucket {
    tokens: f64,
    rate: f64,
    burst: f64,
    at: Instant,
}

impl Bucket {
    pub fn new(rate: f64, burst: f64) -> Bucket {
        Bucket {
            tokens: burst,
            rate,
            burst,
            at: Instant::now(),
        }
    }

    /// Takes one token if there is one.
    pub fn take(&mut self) -> bool {
        let now = Instant::now();
        let dt = now.duration_since(self.at).as_secs_f64();
        self.at = now;
        self.tokens = (self.tokens + dt * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Connections per address.
pub struct Connections {
    limits: Limits,
    per_ip: Mutex<Held>,
}

/// Connections held per address, and in all.
type Held = HashMap<IpAddr, (usize, Bucket)>;

fn open_in(map: &Held) -> usize {
    map.values().map(|e| e.0).sum()
}

impl Connections {
    pub fn new(limits: Limits) -> Connections {
        Connections {
            limits,
            per_ip: Mutex::new(HashMap::new()),
        }
    }

    /// Connections open now.
    pub fn open(&self) -> usize {
        open_in(&self.per_ip.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Admits a new connection from `ip`, or says why not; `elsewhere` connections are open
    /// on the other instances of a cluster. Each admitted connection must be
    /// [`Connections::release`]d.
    pub fn admit(&self, ip: IpAddr, elsewhere: usize) -> Result<(), String> {
        let mut map = self.per_ip.lock().unwrap_or_else(|e| e.into_inner());
        let l = self.limits;
        if open_in(&map) + elsewhere >= l.total_connections {
            return Err(format!(
                "the site is full ({} connections); try again later",
                l.total_connections
            ));
        }
        let entry = map.entry(ip).or_insert_with(|| {
            let per_sec = l.connects_per_minute / 60.0;
            (0, Bucket::new(per_sec, l.connects_per_minute.max(1.0)))
        });
        if entry.0 >= l.connections_per_ip {
            return Err(format!(
                "too many connections from your address (at most {})",
                l.connections_per_ip
            ));
        }
        if !entry.1.take() {
            return Err("too many new connections from your address; wait a moment".into());
        }
        entry.0 += 1;
        Ok(())
    }

    pub fn release(&self, ip: IpAddr) {
        let mut map = self.per_ip.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(e) = map.get_mut(&ip) {
            e.0 = e.0.saturating_sub(1);
        }
    }
}

/// The client's address: the peer's, or, when the peer is a trusted load balancer, the
/// last address its `X-Forwarded-For` adds.
pub fn client_ip(trusted: &[IpAddr], peer: SocketAddr, headers: &HeaderMap) -> IpAddr {
    if !trusted.contains(&peer.ip()) {
        return peer.ip();
    }
    headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .next_back()
        .and_then(|a| a.trim().parse().ok())
        .unwrap_or(peer.ip())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_and_connection_caps_hold() {
        let mut b = Bucket::new(0.0, 3.0);
        assert!(b.take() && b.take() && b.take());
        assert!(!b.take());
        let c = Connections::new(Limits {
            connections_per_ip: 2,
            ..Limits::default()
        });
        let ip: IpAddr = "127.0.0.1".parse().unwrap();
        assert!(c.admit(ip, 0).is_ok() && c.admit(ip, 0).is_ok());
        assert!(c.admit(ip, 0).unwrap_err().contains("too many connections"));
        c.release(ip);
        assert!(c.admit(ip, 0).is_ok());
        assert_eq!(c.open(), 2);
        let site = Connections::new(Limits {
            total_connections: 3,
            ..Limits::default()
        });
        let other: IpAddr = "10.0.0.1".parse().unwrap();
        assert!(site.admit(ip, 1).is_ok() && site.admit(other, 1).is_ok());
        assert!(site.admit(other, 1).unwrap_err().contains("full"));
        assert!(
            site.admit(other, 0).is_ok(),
            "the other instances closed theirs"
        );
    }

    #[test]
    fn a_trusted_balancer_names_the_client_and_nobody_else_can() {
        let balancer: SocketAddr = "10.0.0.2:5000".parse().unwrap();
        let trusted = ["10.0.0.2".parse().unwrap()];
        let mut h = HeaderMap::new();
        h.insert("x-forwarded-for", "6.6.6.6, 1.2.3.4".parse().unwrap());
        // The balancer appends the address it saw; what came before is the client's claim.
        assert_eq!(client_ip(&trusted, balancer, &h).to_string(), "1.2.3.4");
        let stranger: SocketAddr = "5.5.5.5:1".parse().unwrap();
        assert_eq!(client_ip(&trusted, stranger, &h).to_string(), "5.5.5.5");
        assert_eq!(client_ip(&[], balancer, &h).to_string(), "10.0.0.2");
        h.insert(
            "x-forwarded-for",
            "1.2.3.4, not-an-address".parse().unwrap(),
        );
        assert_eq!(client_ip(&trusted, balancer, &h).to_string(), "10.0.0.2");
    }
}
