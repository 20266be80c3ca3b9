//! Photo upload: `POST /api/photo?game=<gomoku|connect6|jiu>[&size=N][&to_move=b|w]` with a
//! photo of a real board (JPEG or PNG) as the request body. The board is read with
//! `boyi_vision` (off the async runtime, a few at a time), checked against the game's rules
//! and answered as the game's position text, which the page opens on the analysis board or
//! starts a game from. A photo that is too big, not an image, shows no board, or shows a
//! position the rules cannot reach gets an error that says which.

use crate::AppState;
use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use boyi_core::{Game, Side};
use boyi_games::GameKind;
use boyi_vision::{BoardRead, ReadOptions, Stone};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;

/// Largest photo accepted (bytes).
pub const MAX_BYTES: usize = 8 << 20;
/// Photos read at once; more get "busy".
pub const CONCURRENT_READS: usize = 2;
/// Photos are scaled down to this longest side before reading.
const READ_SIDE: u32 = 1600;
/// Points read with less confidence than this are listed as doubtful.
const DOUBTFUL: f64 = 0.75;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PhotoQuery {
    pub game: String,
    #[serde(default)]
    pub size: Option<usize>,
    #[serde(default)]
    pub to_move: Option<String>,
}

pub(crate) fn failure(status: StatusCode, message: &str) -> Response {
    let body = json!({"v": crate::protocol::VERSION, "error": message}).to_string();
    (
        status,
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        body,
    )
        .into_response()
}

/// The upload handler.
pub async fn upload(
    State(app): State<Arc<AppState>>,
    query: Result<Query<PhotoQuery>, axum::extract::rejection::QueryRejection>,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Response {
    let Ok(Query(q)) = query else {
        return failure(
            StatusCode::BAD_REQUEST,
            "say which game the photo shows: /api/photo?game=gomoku (or connect6, jiu), optionally &size=N&to_move=b|w",
        );
    };
    let body = match body {
        Ok(b) => b,
        Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            return failure(
                StatusCode::PAYLOAD_TOO_LARGE,
                &format!("the photo is larger than {} MiB", MAX_BYTES >> 20),
            );
        }
        Err(e) => return failure(StatusCode::BAD_REQUEST, &e.body_text()),
    };
    let Ok(_permit) = app.photo_reads.try_acquire() else {
        return failure(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is reading other photos; try again in a moment",
        );
    };
    let max_pixels = app.limits.photo_max_pixels;
    match tokio::task::spawn_blocking(move || read(&body, &q, max_pixels)).await {
        Ok(Ok(v)) => crate::reply::json_response(v),
        Ok(Err(e)) => failure(StatusCode::UNPROCESSABLE_ENTITY, &e),
        Err(e) => failure(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()),
    }
}

/// Reads a photo of at most `max_pixels`: the position text and what the reader was unsure
/// of.
pub fn read(bytes: &[u8], q: &PhotoQuery, max_pixels: u64) -> Result<Value, String> {
    let kind: GameKind = q.game.parse().map_err(|e| format!("{e}"))?;
    let to_move = match q.to_move.as_deref() {
        None | Some("") => None,
        Some(s) => Some(Side::from_letter(s).ok_or(format!("to_move {s:?} must be b or w"))?),
    };
    let size = match (kind, q.size) {
        (GameKind::Xiangqi, _) => {
            return Err(
                "photos can be read for gomoku, connect6 and jiu boards, not xiangqi".into(),
            );
        }
        (GameKind::Jiu, Some(n)) if n != 14 => {
            return Err(format!("the jiu board has 14 lines, not {n}"));
        }
        (GameKind::Jiu, _) => Some(14),
        (_, Some(n)) if !(5..=25).contains(&n) => {
            return Err(format!("board size {n} must be 5 to 25"));
        }
        (_, s) => s,
    };
    if bytes.is_empty() {
        return Err("no photo was sent (the request body is empty)".into());
    }
    let (img, _) = decode(bytes, max_pixels)?;
    let board = boyi_vision::read_board(
        &img,
        &ReadOptions {
            size,
            corners: None,
        },
    )
    .map_err(|e| format!("could not read a board in the photo: {e}"))?;
    let position = match kind {
        GameKind::Gomoku => position::<boyi_games::gomoku::Gomoku>(kind, &board, to_move),
        GameKind::Connect6 => position::<boyi_games::connect6::Connect6>(kind, &board, to_move),
        _ => position::<boyi_games::jiu::Jiu>(kind, &board, to_move),
    };
    let doubtful = doubtful(&board);
    let position = position.map_err(|why| {
        let names: Vec<&str> = doubtful.iter().map(|d| d.0.as_str()).collect();
        format!(
            "the photo was read, but not as a {} position: {why}. Least certain points: {}",
            kind.name(),
            names.join(", ")
        )
    })?;
    let (black, white) = counts(&board);
    Ok(json!({
        "v": crate::protocol::VERSION,
        "game": kind.name(),
        "size": board.size,
        "position": position,
        "rows": board.rows(),
        "stones": {"black": black, "white": white},
        "doubtful": doubtful.iter()
            .filter(|d| d.1 < DOUBTFUL)
            .map(|(p, c)| json!({"point": p, "confidence": (c * 1000.0).round() / 1000.0}))
            .collect::<Vec<_>>(),
    }))
}

/// Decodes a JPEG or PNG of at most `max_pixels` (checked from its header before decoding),
/// scaled down for reading: the image and the scale it was read at (1 or less).
pub(crate) fn decode(bytes: &[u8], max_pixels: u64) -> Result<(image::RgbImage, f64), String> {
    let img = boyi_vision::decode_image(bytes, max_pixels).map_err(|e| match e {
        boyi_vision::VisionError::Image { reason, .. } => {
            format!("cannot read the photo: {reason}")
        }
        other => format!("cannot read the photo: {other}"),
    })?;
    let (w, h) = img.dimensions();
    let long = w.max(h);
    if long <= READ_SIDE {
        return Ok((img, 1.0));
    }
    let scale = READ_SIDE as f64 / long as f64;
    let (nw, nh) = (
        ((w as f64 * scale).round() as u32).max(1),
        ((h as f64 * scale).round() as u32).max(1),
    );
    let small = image::imageops::resize(&img, nw, nh, image::imageops::FilterType::Triangle);
    Ok((small, scale))
}

fn counts(board: &BoardRead) -> (usize, usize) {
    let count = |s: Stone| board.points.iter().filter(|p| p.stone == s).count();
    (count(Stone::Black), count(Stone::White))
}
/// The side to move implied by the stone counts, as the rules allow them.
pub(crate) fn implied_side(
    kind: GameKind,
    b: usize,
    w: usize,
    n: usize,
) -> Result<(Side, String), String> {
    let impossible = |rule: &str| {
        Err(format!(
            "{b} black and {w} white stones are impossible ({rule})"
        ))
    };
    match kind {
        GameKind::Gomoku if b == w => Ok((Side::Black, String::new())),
        GameKind::Gomoku if b == w + 1 => Ok((Side::White, String::new())),
        GameKind::Gomoku => impossible("black moves first, one stone a turn"),
        GameKind::Connect6 if b == w + 1 => Ok((Side::White, String::new())),
        GameKind::Connect6 if w == b + 1 || b + w == 0 => Ok((Side::Black, String::new())),
        GameKind::Connect6 => impossible("black places one stone, then two a turn"),
        // Jiu: white places first; once the board is full, battle.
        _ if b + w < n * n && w == b => Ok((Side::White, format!(" place {} 0", b + w))),
        _ if b + w < n * n && w == b + 1 => Ok((Side::Black, format!(" place {} 0", b + w))),
        _ if b.max(w) <= 97 => Ok((Side::Black, format!(" battle {} 0", n * n))),
        _ => impossible("neither side can have more than 97 pieces in battle"),
    }
}

/// The game's position text for the read, checked by the game's own parser.
fn position<G: Game>(
    kind: GameKind,
    board: &BoardRead,
    to_move: Option<Side>,
) -> Result<String, String> {
    let (b, w) = counts(board);
    let (implied, rest) = implied_side(kind, b, w, board.size)?;
    let battle = rest.starts_with(" battle");
    let side = match to_move {
        Some(t) if t != implied && !battle => {
            return Err(format!(
                "{b} black and {w} white stones mean {} to move",
                G::side_name(implied)
            ));
        }
        Some(t) => t,
        None => implied,
    };
    let text = format!("{} {}{rest}", board.position_rows(), side.letter());
    G::from_text(&Default::default(), &text).map_err(|e| e.to_string())?;
    Ok(text)
}

/// The least certain points (board notation, confidence), least certain first.
fn doubtful(board: &BoardRead) -> Vec<(String, f64)> {
    let n = board.size;
    let mut v: Vec<(String, f64)> = board
        .points
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let name = format!("{}{}", (b'a' + (k % n) as u8) as char, n - k / n);
            (name, p.confidence)
        })
        .collect();
    v.sort_by(|a, b| a.1.total_cmp(&b.1));
    v.truncate(5);
    v
}
