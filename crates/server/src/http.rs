//! HTTP routes: the page and its assets (embedded at compile time), the WebSocket endpoint,
//! the lobby, game metadata, and stored games for replay and download.

use crate::AppState;
use crate::games::ServerGame;
use crate::store::GameRow;
use axum::Router;
use axum::extract::{ConnectInfo, Path, State, WebSocketUpgrade};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use boyi_core::Game;
use boyi_engines::registry::PLAYERS;
use boyi_games::{GameKind, with_game};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;

const INDEX: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
const BOARDS_JS: &str = include_str!("../assets/boards.js");
const STYLE: &str = include_str!("../assets/style.css");
const ICON: &str = include_str!("../assets/icon.svg");

/// Only the page's own scripts and styles run; no inline script, so a name that slipped
/// through as markup still could not execute.
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' ws: wss:; frame-ancestors 'none'";

pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { asset(INDEX, "text/html; charset=utf-8") }),
        )
        .route(
            "/assets/app.js",
            get(|| async { asset(APP_JS, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/assets/boards.js",
            get(|| async { asset(BOARDS_JS, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/assets/style.css",
            get(|| async { asset(STYLE, "text/css; charset=utf-8") }),
        )
        .route(
            "/assets/icon.svg",
            get(|| async { asset(ICON, "image/svg+xml") }),
        )
        .route("/ws", get(upgrade))
        .route("/api/lobby", get(lobby))
        .route(
            "/api/meta",
            get(|State(app): State<Arc<AppState>>| async move { json_response(meta(&app.hub.engines)) }),
        )
        .route(
            "/api/photo",
            post(crate::photo::upload)
                .layer(axum::extract::DefaultBodyLimit::max(crate::photo::MAX_BYTES)),
        )
        .route("/api/games/{id}", get(game))
        .route("/api/games/{id}/record", get(record))
        .with_state(state)
}

fn asset(body: &'static str, kind: &'static str) -> Response {
    let mut r = body.into_response();
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    r
}

pub(crate) fn json_response(v: Value) -> Response {
    let mut r = v.to_string().into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r
}

fn error(status: StatusCode, message: &str) -> Response {
    (status, json_response(json!({"error": message}))).into_response()
}

async fn upgrade(
    ws: WebSocketUpgrade,
    State(app): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
) -> Response {
    let ip = peer.ip();
    if let Err(e) = app.connections.admit(ip) {
        return error(StatusCode::TOO_MANY_REQUESTS, &e);
    }
    // Frames beyond four times the answered limit are refused by the socket itself.
    let cap = app.limits.max_message_bytes * 4;
    ws.max_message_size(cap)
        .max_frame_size(cap)
        .on_upgrade(move |socket| crate::ws::run(socket, app, ip))
}

async fn lobby(State(app): State<Arc<AppState>>) -> Response {
    json_response(app.hub.lobby())
}

fn meta_of<G: ServerGame>(engines: &crate::external::Engines) -> Value {
    let players: Vec<Value> = PLAYERS
        .iter()
        .chain(G::players())
        .map(|(n, h)| json!({"name": format!("boyi:{n}"), "help": h}))
        .chain(engines.listed::<G>())
        .collect();
    json!({
        "name": G::NAME,
        "variants": G::VARIANTS,
        "sizes": G::SIZES,
        "sides": [G::side_name(boyi_core::Side::Black), G::side_name(boyi_core::Side::White)],
        "first": crate::seat::side_name(
            G::start(&G::Variant::default(), None).map(|p| p.side_to_move()).unwrap_or(boyi_core::Side::Black)),
        "players": players,
    })
}

/// The games, their variants and sizes, the built-in players of each and the configured
/// external engines that can play it.
pub fn meta(engines: &crate::external::Engines) -> Value {
    let games: Vec<Value> = GameKind::ALL
        .into_iter()
        .filter_map(|k| with_game!(k, G => meta_of::<G>(engines)).ok())
        .collect();
    json!({"v": crate::protocol::VERSION, "games": games})
}

fn load(app: &AppState, id: &str) -> Result<GameRow, Box<Response>> {
    app.hub
        .store
        .load(id)
        .map_err(|e| Box::new(error(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string())))?
        .ok_or_else(|| {
            Box::new(error(
                StatusCode::NOT_FOUND,
                &format!("unknown game {id:?}"),
            ))
        })
}

/// The positions of a stored game, one per move played (the start first).
fn positions<G: Game>(row: &GameRow) -> Result<Vec<String>, String> {
    let variant: G::Variant = row.variant.parse().map_err(|e| format!("{e}"))?;
    let mut pos = G::from_text(&variant, &row.start).map_err(|e| e.to_string())?;
    let mut out = vec![pos.to_text()];
    for m in &row.moves {
        let mv = pos.parse_move(&m.text).map_err(|e| e.to_string())?;
        pos.play(&mv);
        out.push(pos.to_text());
    }
    Ok(out)
}

fn public_seats(row: &GameRow) -> Value {
    let mut seats = row.seats.clone();
    if let Some(a) = seats.as_array_mut() {
        for s in a {
            if let Some(o) = s.as_object_mut() {
                o.remove("token");
            }
        }
    }
    seats
}

/// A stored game for replay: setup, moves, every position, result.
async fn game(State(app): State<Arc<AppState>>, Path(id): Path<String>) -> Response {
    let row = match load(&app, &id) {
        Ok(r) => r,
        Err(r) => return *r,
    };
    let kind: Result<GameKind, _> = row.game.parse();
    let positions = match kind {
        Ok(k) => with_game!(k, G => positions::<G>(&row)).unwrap_or_else(|e| Err(e.to_string())),
        Err(e) => Err(e.to_string()),
    };
    let positions = match positions {
        Ok(p) => p,
        Err(e) => return error(StatusCode::INTERNAL_SERVER_ERROR, &e),
    };
    json_response(json!({
        "v": crate::protocol::VERSION,
        "table": row.id,
        "game": row.game,
        "variant": row.variant,
        "start": row.start,
        "options": row.options,
        "seats": public_seats(&row),
        "moves": row.moves,
        "positions": positions,
        "result": row.winner.as_ref().map(|w| json!({
            "winner": if w == "draw" { Value::Null } else { w.as_str().into() },
            "reason": row.reason,
        })),
    }))
}

/// A stored game as a text record: tag lines, the start position and the move list.
pub fn record_text(row: &GameRow) -> String {
    let name = |i: usize| row.seats[i]["name"].as_str().unwrap_or("?").to_string();
    let result = match (&row.winner, &row.reason) {
        (Some(w), Some(r)) => format!("{w} ({r})"),
        (Some(w), None) => w.clone(),
        _ => "unfinished".into(),
    };
    let moves: Vec<&str> = row.moves.iter().map(|m| m.text.as_str()).collect();
    let mut text = String::new();
    for (k, v) in [
        ("Game", row.game.clone()),
        ("Variant", row.variant.clone()),
        ("Table", row.id.clone()),
        ("Black", name(0)),
        ("White", name(1)),
        ("Result", result),
        ("Start", row.start.clone()),
    ] {
        text.push_str(&format!("[{k} {:?}]\n", v));
    }
    text.push('\n');
    text.push_str(&moves.join(","));
    text.push('\n');
    text
}

async fn record(State(app): State<Arc<AppState>>, Path(id): Path<String>) -> Response {
    let row = match load(&app, &id) {
        Ok(r) => r,
        Err(r) => return *r,
    };
    let mut r = record_text(&row).into_response();
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    if let Ok(v) = HeaderValue::from_str(&format!(
        "attachment; filename=\"boyi-{}-{}.txt\"",
        row.game, row.id
    )) {
        h.insert(header::CONTENT_DISPOSITION, v);
    }
    r
}
