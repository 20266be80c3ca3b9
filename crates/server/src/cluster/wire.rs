//! The messages instances send each other over `NOTIFY`, as text. A message is cut into
//! pieces that fit a notification, each with the header `FROM SEQ I N` (sender, its message
//! number, piece `I` of `N`) and put together again by [`Pieces`]. Bodies:
//! - `c ORIGIN CONN VERSION\n{json}`: connection `CONN` of instance `ORIGIN`, speaking
//!   protocol `VERSION`, asks the table in the JSON (`{"table": …, "ask": …}`);
//! - `o CONN\nTEXT`: the message `TEXT` for local connection `CONN`;
//! - `g CONN`: connection `CONN` of the sender has closed.

use crate::seat::{parse_side, side_name};
use crate::table::{Act, Ask};
use boyi_store::cluster::MAX_PAYLOAD;
use serde_json::{Value, json};
use std::collections::HashMap;

/// A request of connection `conn` of instance `origin` (speaking protocol `version`) about
/// `table`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub origin: String,
    pub conn: u64,
    pub version: u64,
    pub table: String,
    pub ask: Ask,
}

/// A message between instances.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Wire {
    Ask(Request),
    Out { conn: u64, text: String },
    Gone { conn: u64 },
}

impl Wire {
    pub fn encode(&self) -> String {
        match self {
            Wire::Ask(r) => {
                let body = json!({"table": r.table, "ask": ask_json(&r.ask)});
                format!("c {} {} {}\n{body}", r.origin, r.conn, r.version)
            }
            Wire::Out { conn, text } => format!("o {conn}\n{text}"),
            Wire::Gone { conn } => format!("g {conn}"),
        }
    }

    pub fn decode(body: &str) -> Result<Wire, String> {
        let (head, rest) = body.split_once('\n').unwrap_or((body, ""));
        let words: Vec<&str> = head.split(' ').collect();
        let num = |s: &str| s.parse::<u64>().map_err(|_| format!("bad number {s:?}"));
        match words.as_slice() {
            ["c", origin, conn, version] => {
                let v: Value = serde_json::from_str(rest).map_err(|e| e.to_string())?;
                Ok(Wire::Ask(Request {
                    origin: origin.to_string(),
                    conn: num(conn)?,
                    version: num(version)?,
                    table: v["table"].as_str().ok_or("no table")?.to_string(),
                    ask: ask_from_json(&v["ask"])?,
                }))
            }
            ["o", conn] => Ok(Wire::Out {
                conn: num(conn)?,
                text: rest.to_string(),
            }),
            ["g", conn] => Ok(Wire::Gone { conn: num(conn)? }),
            _ => Err(format!("unknown message {head:?}")),
        }
    }
}

fn ask_json(ask: &Ask) -> Value {
    match ask {
        Ask::Watch => json!({"k": "watch"}),
        Ask::Unwatch => json!({"k": "unwatch"}),
        Ask::Join { token, name } => json!({"k": "join", "token": token, "name": name}),
        Ask::Sit { side, name } => {
            json!({"k": "sit", "side": side.map(side_name), "name": name})
        }
        Ask::Invite { token, side } => {
            json!({"k": "invite", "token": token, "side": side_name(*side)})
        }
        Ask::Act { token, act } => {
            let (k, arg) = match act {
                Act::Move(m) => ("move", json!(m)),
                Act::Resign => ("resign", Value::Null),
                Act::OfferDraw => ("offer_draw", Value::Null),
                Act::AnswerDraw(a) => ("answer_draw", json!(a)),
                Act::RequestUndo => ("request_undo", Value::Null),
                Act::AnswerUndo(a) => ("answer_undo", json!(a)),
            };
            json!({"k": "act", "token": token, "act": k, "arg": arg})
        }
    }
}

fn ask_from_json(v: &Value) -> Result<Ask, String> {
    let text = |key: &str| -> Result<String, String> {
        v[key]
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| format!("no {key}"))
    };
    let name = v["name"].as_str().map(str::to_string);
    let yes = || v["arg"].as_bool().ok_or("no answer");
    Ok(match v["k"].as_str().unwrap_or_default() {
        "watch" => Ask::Watch,
        "unwatch" => Ask::Unwatch,
        "join" => Ask::Join {
            token: text("token")?,
            name,
        },
        "sit" => Ask::Sit {
            side: v["side"].as_str().map(parse_side).transpose()?,
            name,
        },
        "invite" => Ask::Invite {
            token: text("token")?,
            side: parse_side(&text("side")?)?,
        },
        "act" => Ask::Act {
            token: text("token")?,
            act: match v["act"].as_str().unwrap_or_default() {
                "move" => Act::Move(v["arg"].as_str().ok_or("no move")?.to_string()),
                "resign" => Act::Resign,
                "offer_draw" => Act::OfferDraw,
                "answer_draw" => Act::AnswerDraw(yes()?),
                "request_undo" => Act::RequestUndo,
                "answer_undo" => Act::AnswerUndo(yes()?),
                other => return Err(format!("unknown act {other:?}")),
            },
        },
        other => return Err(format!("unknown ask {other:?}")),
    })
}

/// Cuts message number `seq` of instance `from` into notification payloads.
pub fn pieces(from: &str, seq: u64, body: &str) -> Vec<String> {
    let room = MAX_PAYLOAD - from.len() - 64;
    let mut parts = Vec::new();
    let mut rest = body;
    while !rest.is_empty() || parts.is_empty() {
        let mut cut = rest.len().min(room);
        while !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        parts.push(&rest[..cut]);
        rest = &rest[cut..];
    }
    let n = parts.len();
    parts
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{from} {seq} {i} {n}\n{p}"))
        .collect()
}

/// Messages being put together from their pieces.
#[derive(Default)]
pub struct Pieces {
    open: HashMap<(String, u64), Vec<Option<String>>>,
}

impl Pieces {
    /// Takes one payload; the sender and the whole body once its last piece is in.
    pub fn take(&mut self, payload: &str) -> Result<Option<(String, String)>, String> {
        let (head, piece) = payload.split_once('\n').unwrap_or((payload, ""));
        let [from, seq, i, n] = head.split(' ').collect::<Vec<_>>()[..] else {
            return Err(format!("bad header {head:?}"));
        };
        let num = |s: &str| {
            s.parse::<usize>()
                .map_err(|_| format!("bad header {head:?}"))
        };
        let (seq, i, n) = (num(seq)? as u64, num(i)?, num(n)?);
        if i >= n || n > 10_000 {
            return Err(format!("bad header {head:?}"));
        }
        if n == 1 {
            return Ok(Some((from.to_string(), piece.to_string())));
        }
        // A sender that died halfway leaves pieces that never complete: keep few.
        if self.open.len() > 1000 {
            self.open.clear();
        }
        let key = (from.to_string(), seq);
        let slots = self
            .open
            .entry(key.clone())
            .or_insert_with(|| vec![None; n]);
        if slots.len() != n {
            return Err(format!("bad header {head:?}"));
        }
        slots[i] = Some(piece.to_string());
        if slots.iter().all(Option::is_some) {
            let body: String = self
                .open
                .remove(&key)
                .unwrap_or_default()
                .into_iter()
                .flatten()
                .collect();
            return Ok(Some((key.0, body)));
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boyi_core::Side;

    #[test]
    fn every_ask_crosses_unchanged() {
        let asks = [
            Ask::Watch,
            Ask::Unwatch,
            Ask::Join {
                token: "t".into(),
                name: Some("Ann \"x\"\n".into()),
            },
            Ask::Sit {
                side: Some(Side::White),
                name: None,
            },
            Ask::Invite {
                token: "t".into(),
                side: Side::Black,
            },
            Ask::Act {
                token: "t".into(),
                act: Act::Move("h8".into()),
            },
            Ask::Act {
                token: "t".into(),
                act: Act::AnswerUndo(false),
            },
            Ask::Act {
                token: "t".into(),
                act: Act::Resign,
            },
        ];
        for ask in asks {
            let w = Wire::Ask(Request {
                origin: "abc".into(),
                conn: 7,
                version: 2,
                table: "tab".into(),
                ask,
            });
            assert_eq!(Wire::decode(&w.encode()), Ok(w));
        }
        let out = Wire::Out {
            conn: 3,
            text: "{\"a\":\n1}".into(),
        };
        assert_eq!(Wire::decode(&out.encode()), Ok(out));
        assert!(Wire::decode("x 1").is_err());
        assert!(Wire::decode("c a b 1\n{}").is_err());
    }

    #[test]
    fn long_messages_are_cut_and_joined() {
        let body: String = "棋".repeat(9000) + "end";
        let parts = pieces("inst", 5, &body);
        assert!(parts.len() > 1);
        assert!(parts.iter().all(|p| p.len() <= MAX_PAYLOAD));
        let mut pieces_in = Pieces::default();
        let mut done = None;
        for p in parts.iter().rev() {
            done = pieces_in.take(p).unwrap();
        }
        assert_eq!(done, Some(("inst".to_string(), body)));
        assert_eq!(
            Pieces::default().take(&pieces("i", 1, "short")[0]).unwrap(),
            Some(("i".into(), "short".into()))
        );
        assert!(Pieces::default().take("i 1 3 2\nx").is_err());
    }
}
