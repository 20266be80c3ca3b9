//! The WebSocket messages clients send (docs/protocol.md): JSON objects with `"v"` (1 to 3)
//! and a `"type"`. Parsing is strict: an unknown type or field, a wrong version or a missing field
//! is an error that names it.

use crate::seat::{ClockSpec, SeatRequest};
use serde::Deserialize;
use serde_json::Value;

/// Longest position text accepted.
pub const MAX_POSITION: usize = 2000;

/// The protocol version this server speaks. Version 2 adds `update` messages after a move
/// (a version 1 client still gets the full state). Version 3 makes invitation links
/// single-use (a `join` through one answers with the joiner's own token; older clients
/// cannot join through one) and adds `invite`, `review` and the signal fields.
pub const VERSION: u64 = 3;
/// The oldest client version still accepted.
pub const OLDEST: u64 = 1;

/// A request for a new table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    pub game: String,
    #[serde(default)]
    pub variant: Option<String>,
    #[serde(default)]
    pub size: Option<usize>,
    /// Start from this position text instead of the start position.
    #[serde(default)]
    pub position: Option<String>,
    #[serde(default)]
    pub clock: Option<ClockSpec>,
    #[serde(default)]
    pub undo: Option<bool>,
    #[serde(default)]
    pub local: Option<bool>,
    pub black: SeatRequest,
    pub white: SeatRequest,
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    Create(CreateRequest),
    Watch {
        table: String,
    },
    Unwatch {
        table: String,
    },
    Join {
        table: String,
        token: String,
        #[serde(default)]
        name: Option<String>,
    },
    Sit {
        table: String,
        #[serde(default)]
        side: Option<String>,
        #[serde(default)]
        name: Option<String>,
    },
    Move {
        table: String,
        token: String,
        #[serde(rename = "move")]
        mv: String,
    },
    Resign {
        table: String,
        token: String,
    },
    OfferDraw {
        table: String,
        token: String,
    },
    AnswerDraw {
        table: String,
        token: String,
        accept: bool,
    },
    RequestUndo {
        table: String,
        token: String,
    },
    AnswerUndo {
        table: String,
        token: String,
        accept: bool,
    },
    /// A new invitation link for a human seat, asked by the other seat's holder or the
    /// table's creator.
    Invite {
        table: String,
        token: String,
        side: String,
    },
    Inspect(PositionRequest),
    Analyze(AnalyzeRequest),
    Review(AnalyzeRequest),
    StopAnalysis {},
    Ping {},
}

/// A position to look at: a game, its variant, a start and moves played from it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    #[serde(default)]
    pub id: Option<u64>,
    pub game: String,
    #[serde(default)]
    pub variant: Option<String>,
    #[serde(default)]
    pub size: Option<usize>,
    #[serde(default)]
    pub position: Option<String>,
    #[serde(default)]
    pub moves: Vec<String>,
}

/// A position to analyse with a built-in player (`analyze`), or a game whose every position
/// is reviewed (`review`: the start, then after each move).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyzeRequest {
    #[serde(default)]
    pub id: Option<u64>,
    pub game: String,
    #[serde(default)]
    pub variant: Option<String>,
    #[serde(default)]
    pub size: Option<usize>,
    #[serde(default)]
    pub position: Option<String>,
    #[serde(default)]
    pub moves: Vec<String>,
    #[serde(default)]
    pub player: Option<String>,
    #[serde(default)]
    pub think_ms: Option<u64>,
}

impl AnalyzeRequest {
    pub fn position(&self) -> PositionRequest {
        PositionRequest {
            id: self.id,
            game: self.game.clone(),
            variant: self.variant.clone(),
            size: self.size,
            position: self.position.clone(),
            moves: self.moves.clone(),
        }
    }
}

/// Parses one client message, checking the version first.
pub fn parse(text: &str) -> Result<ClientMsg, String> {
    parse_versioned(text).map(|(_, m)| m)
}

/// Parses one client message; also gives the version it was sent in.
pub fn parse_versioned(text: &str) -> Result<(u64, ClientMsg), String> {
    let mut value: Value =
        serde_json::from_str(text).map_err(|e| format!("malformed message: {e}"))?;
    let Some(obj) = value.as_object_mut() else {
        return Err("malformed message: expected a JSON object".into());
    };
    let version = match obj.remove("v") {
        Some(Value::Number(n)) if n.as_u64().is_some_and(|v| (OLDEST..=VERSION).contains(&v)) => {
            n.as_u64().unwrap_or(VERSION)
        }
        Some(v) => {
            return Err(format!(
                "unsupported protocol version {v} (this server speaks {OLDEST} to {VERSION})"
            ));
        }
        None => return Err(format!("message has no \"v\" (protocol version {VERSION})")),
    };
    if !obj.contains_key("type") {
        return Err("message has no \"type\"".into());
    }
    serde_json::from_value(value)
        .map(|m| (version, m))
        .map_err(|e| format!("bad message: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_parse_strictly() {
        assert!(matches!(
            parse(r#"{"v":1,"type":"move","table":"t","token":"k","move":"h8"}"#),
            Ok(ClientMsg::Move { .. })
        ));
        assert!(matches!(
            parse(r#"{"v":1,"type":"ping"}"#),
            Ok(ClientMsg::Ping {})
        ));
        let err = |s: &str| parse(s).unwrap_err();
        assert!(err("{").starts_with("malformed message"));
        assert!(err("[1]").contains("JSON object"));
        assert!(err(r#"{"type":"ping"}"#).contains("no \"v\""));
        assert!(err(r#"{"v":4,"type":"ping"}"#).contains("version 4"));
        assert!(matches!(
            parse_versioned(r#"{"v":3,"type":"invite","table":"t","token":"k","side":"white"}"#),
            Ok((3, ClientMsg::Invite { .. }))
        ));
        assert!(matches!(
            parse(r#"{"v":3,"type":"review","id":1,"game":"jiu","moves":["g7"]}"#),
            Ok(ClientMsg::Review(_))
        ));
        assert!(matches!(
            parse_versioned(r#"{"v":2,"type":"ping"}"#),
            Ok((2, ClientMsg::Ping {}))
        ));
        assert!(err(r#"{"v":1}"#).contains("no \"type\""));
        assert!(err(r#"{"v":1,"type":"fly"}"#).contains("unknown variant `fly`"));
        assert!(err(r#"{"v":1,"type":"move","table":"t","token":"k"}"#).contains("move"));
        assert!(err(r#"{"v":1,"type":"watch","table":"t","x":1}"#).contains("unknown field"));
        assert!(
            parse(r#"{"v":1,"type":"create","game":"gomoku","black":{"kind":"human"},"white":{"kind":"human"},"oops":1}"#)
                .unwrap_err()
                .contains("unknown field")
        );
    }
}
