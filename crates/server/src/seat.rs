//! Tables' setup: seats (a person holding a secret token, or the computer), clock and options,
//! and the checks that turn a request into a valid setup.

use boyi_core::Side;
use rand::Rng;
use serde::{Deserialize, Serialize};

/// Longest player name accepted.
pub const MAX_NAME: usize = 32;
/// Longest a level's move may take (its depth decides; this only bounds a slow machine), in
/// milliseconds.
pub const LEVEL_CAP_MS: u64 = 30_000;
/// Longest base time of a clock, in milliseconds (3 hours).
pub const MAX_BASE_MS: u64 = 3 * 3600 * 1000;
/// Largest increment, in milliseconds (10 minutes).
pub const MAX_INC_MS: u64 = 600_000;

/// Base time and increment per move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockSpec {
    pub base_ms: u64,
    #[serde(default)]
    pub inc_ms: u64,
}

impl ClockSpec {
    pub fn check(&self) -> Result<(), String> {
        if self.base_ms == 0 || self.base_ms > MAX_BASE_MS {
            return Err(format!(
                "clock base_ms must be between 1 and {MAX_BASE_MS} (got {})",
                self.base_ms
            ));
        }
        if self.inc_ms > MAX_INC_MS {
            return Err(format!(
                "clock inc_ms must be at most {MAX_INC_MS} (got {})",
                self.inc_ms
            ));
        }
        Ok(())
    }
}

/// How a table is played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct TableOptions {
    /// `None`: no clock.
    pub clock: Option<ClockSpec>,
    /// Whether moves may be taken back.
    pub undo: bool,
    /// Both people share one screen (undo and draw need no second consent).
    pub local: bool,
    /// The hash of the creator's token ([`token_hash`]), which may make new invitation links
    /// for the table's human seats. Never sent to anyone; tables made before it have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creator: Option<String>,
}

impl TableOptions {
    /// The options as everyone may see them: without the creator's token hash.
    pub fn public(&self) -> serde_json::Value {
        serde_json::json!({"clock": self.clock, "undo": self.undo, "local": self.local})
    }
}

/// Spent tokens a seat remembers, to tell a visitor why theirs no longer works.
pub const SPENT_KEPT: usize = 4;

/// Who sits on one side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum SeatKind {
    /// A person. Claimed: someone holds the seat and moves with `token`. Unclaimed: `token`
    /// is an invitation, good for one `join` that gives the joiner a token of their own; the
    /// lobby offers the seat unless the invitation replaced a lost seat (`reinvited`).
    Human {
        token: String,
        claimed: bool,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        reinvited: bool,
        /// Invitation tokens already used (the latest few).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        used: Vec<String>,
        /// Holders' tokens a new invitation replaced (the latest few).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        revoked: Vec<String>,
    },
    /// A built-in player spec (`boyi:alphabeta?depth=3`) with its thinking time per move; a
    /// `level` seat searches its spec's own depth, and `think_ms` only bounds it.
    Computer {
        player: String,
        think_ms: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        level: Option<String>,
    },
}

impl SeatKind {
    /// A person's seat held by `token`.
    pub fn held(token: String) -> SeatKind {
        SeatKind::Human {
            token,
            claimed: true,
            reinvited: false,
            used: Vec::new(),
            revoked: Vec::new(),
        }
    }

    /// A person's seat waiting for whoever uses the invitation `token`.
    pub fn invitation(token: String) -> SeatKind {
        SeatKind::Human {
            token,
            claimed: false,
            reinvited: false,
            used: Vec::new(),
            revoked: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    pub name: String,
    #[serde(flatten)]
    pub kind: SeatKind,
}

impl Seat {
    /// The token that moves for this seat: none while it waits for its invitation.
    pub fn holder(&self) -> Option<&str> {
        match &self.kind {
            SeatKind::Human {
                token,
                claimed: true,
                ..
            } => Some(token),
            _ => None,
        }
    }

    /// The invitation token of a seat waiting for its person.
    pub fn invitation(&self) -> Option<&str> {
        match &self.kind {
            SeatKind::Human {
                token,
                claimed: false,
                ..
            } => Some(token),
            _ => None,
        }
    }

    pub fn is_computer(&self) -> bool {
        matches!(self.kind, SeatKind::Computer { .. })
    }

    /// Whether the lobby offers the seat: an invitation nobody used that replaced no one.
    pub fn is_open(&self) -> bool {
        matches!(
            self.kind,
            SeatKind::Human {
                claimed: false,
                reinvited: false,
                ..
            }
        )
    }

    /// The seat as everyone may see it: no token.
    pub fn public(&self, side: Side, label: &str) -> serde_json::Value {
        let mut v = serde_json::json!({
            "side": side_name(side),
            "label": label,
            "name": self.name,
        });
        match &self.kind {
            SeatKind::Human {
                claimed, reinvited, ..
            } => {
                v["kind"] = "human".into();
                v["open"] = (!claimed && !reinvited).into();
                v["invited"] = (!claimed && *reinvited).into();
            }
            SeatKind::Computer {
                player,
                think_ms,
                level,
            } => {
                v["kind"] = "computer".into();
                v["player"] = player.as_str().into();
                v["think_ms"] = (*think_ms).into();
                if let Some(l) = level {
                    v["level"] = l.as_str().into();
                }
            }
        }
        v
    }
}

/// What a client asks for one seat when creating a table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatRequest {
    /// `human` or `computer`.
    pub kind: String,
    #[serde(default)]
    pub name: Option<String>,
    /// Computer seats: the built-in player spec, `boyi:` optional.
    #[serde(default)]
    pub player: Option<String>,
    /// Computer seats: one of the game's levels (`club`), instead of a player.
    #[serde(default)]
    pub level: Option<String>,
    #[serde(default)]
    pub think_ms: Option<u64>,
    /// Human seats: `false` leaves the seat open for an invited person (or anyone in the
    /// lobby); default `true`, the creator holds it.
    #[serde(default)]
    pub hold: Option<bool>,
}

/// `black` / `white`: the protocol's names of the sides.
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::Black => "black",
        Side::White => "white",
    }
}

pub fn parse_side(text: &str) -> Result<Side, String> {
    match text {
        "black" => Ok(Side::Black),
        "white" => Ok(Side::White),
        other => Err(format!("unknown side {other:?} (expected black or white)")),
    }
}

/// A new secret: 128 random bits in hex.
pub fn new_token() -> String {
    let bits: u128 = rand::rng().random();
    format!("{bits:032x}")
}

/// A new table id: 10 characters from an unambiguous alphabet.
pub fn new_table_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let mut rng = rand::rng();
    (0..10)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// A token as the table keeps the creator's: SHA-256 in hex, so the stored options never
/// hold the token itself.
pub fn token_hash(token: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Whether two tokens are equal, in time independent of where they differ.
pub fn same_token(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// A player name as given, checked: trimmed, at most [`MAX_NAME`] characters, no control
/// characters. The page shows names as text, never as markup.
pub fn check_name(name: Option<&str>, default: &str) -> Result<String, String> {
    let name = name.map(str::trim).unwrap_or("");
    if name.is_empty() {
        return Ok(default.to_string());
    }
    if name.chars().count() > MAX_NAME {
        return Err(format!("name is longer than {MAX_NAME} characters"));
    }
    if name.chars().any(char::is_control) {
        return Err("name contains control characters".into());
    }
    Ok(name.to_string())
}

/// Normalises a built-in player spec to `boyi:<name>[?options]`.
pub fn normalise_spec(spec: &str) -> Result<String, String> {
    let body = spec.strip_prefix("boyi:").unwrap_or(spec);
    if body.is_empty() || spec.len() > 200 {
        return Err(format!("player spec {spec:?} is empty or too long"));
    }
    if spec.contains(':') && !spec.starts_with("boyi:") {
        return Err(format!(
            "player {spec:?}: only built-in players (boyi:...) and the engines configured on the server (engine:NAME) can sit at a table"
        ));
    }
    Ok(format!("boyi:{body}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        assert_eq!(check_name(None, "Black").unwrap(), "Black");
        assert_eq!(check_name(Some("  Ann "), "x").unwrap(), "Ann");
        assert_eq!(
            check_name(Some("<b>x</b>"), "x").unwrap(),
            "<b>x</b>",
            "kept as text; the page escapes it"
        );
        assert!(check_name(Some(&"a".repeat(33)), "x").is_err());
        assert!(check_name(Some("a\u{7}b"), "x").is_err());
    }

    #[test]
    fn tokens_compare_and_differ() {
        let (a, b) = (new_token(), new_token());
        assert_eq!(a.len(), 32);
        assert!(same_token(&a, &a.clone()));
        assert!(!same_token(&a, &b));
        assert!(!same_token(&a, ""));
        assert_eq!(new_table_id().len(), 10);
    }

    #[test]
    fn specs_and_clocks_are_checked() {
        assert_eq!(normalise_spec("random").unwrap(), "boyi:random");
        assert_eq!(
            normalise_spec("boyi:alphabeta?depth=2").unwrap(),
            "boyi:alphabeta?depth=2"
        );
        assert!(normalise_spec("cmd:rm -rf").is_err());
        assert!(
            ClockSpec {
                base_ms: 0,
                inc_ms: 0
            }
            .check()
            .is_err()
        );
        assert!(
            ClockSpec {
                base_ms: 1000,
                inc_ms: MAX_INC_MS + 1
            }
            .check()
            .is_err()
        );
        assert!(
            ClockSpec {
                base_ms: 60_000,
                inc_ms: 2000
            }
            .check()
            .is_ok()
        );
    }
}
