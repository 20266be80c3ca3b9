//! HTTP routes: the page and its assets (embedded at compile time), the WebSocket endpoint,
//! the lobby, game metadata, and stored games for replay and download (in every record
//! format Boyi writes for the game: `/api/games/{id}/record?format=pgn-wxf`).

use crate::AppState;
use crate::games::ServerGame;
use crate::reply::json_response;
use axum::Router;
use axum::extract::{ConnectInfo, Path, Query, State, WebSocketUpgrade};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use boyi_engines::registry::PLAYERS;
use boyi_games::{GameKind, with_game};
use boyi_records::Format;
use boyi_store::live::LiveGame;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;

const INDEX: &str = include_str!("../assets/index.html");

/// The page's files under `/assets/`: name, type and content, compiled into the binary. The
/// scripts are ES modules importing each other by these names.
const ASSETS: &[(&str, &str, &str)] = &[
    ("style.css", CSS, include_str!("../assets/style.css")),
    (
        "icon.svg",
        "image/svg+xml",
        include_str!("../assets/icon.svg"),
    ),
    ("js/main.js", JS, include_str!("../assets/js/main.js")),
    ("js/dom.js", JS, include_str!("../assets/js/dom.js")),
    ("js/i18n.js", JS, include_str!("../assets/js/i18n.js")),
    ("js/local.js", JS, include_str!("../assets/js/local.js")),
    ("js/conn.js", JS, include_str!("../assets/js/conn.js")),
    ("js/router.js", JS, include_str!("../assets/js/router.js")),
    ("js/sound.js", JS, include_str!("../assets/js/sound.js")),
    (
        "js/position.js",
        JS,
        include_str!("../assets/js/position.js"),
    ),
    ("js/board.js", JS, include_str!("../assets/js/board.js")),
    ("js/picker.js", JS, include_str!("../assets/js/picker.js")),
    ("js/widgets.js", JS, include_str!("../assets/js/widgets.js")),
    ("js/lobby.js", JS, include_str!("../assets/js/lobby.js")),
    ("js/newgame.js", JS, include_str!("../assets/js/newgame.js")),
    ("js/table.js", JS, include_str!("../assets/js/table.js")),
    (
        "js/tablepanel.js",
        JS,
        include_str!("../assets/js/tablepanel.js"),
    ),
    ("js/replay.js", JS, include_str!("../assets/js/replay.js")),
    ("js/review.js", JS, include_str!("../assets/js/review.js")),
    (
        "js/analysis.js",
        JS,
        include_str!("../assets/js/analysis.js"),
    ),
    ("js/photo.js", JS, include_str!("../assets/js/photo.js")),
    ("js/camera.js", JS, include_str!("../assets/js/camera.js")),
    ("js/rules.js", JS, include_str!("../assets/js/rules.js")),
    (
        "js/rulestext.js",
        JS,
        include_str!("../assets/js/rulestext.js"),
    ),
];
const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";

/// Only the page's own scripts and styles run; no inline script, so a name that slipped
/// through as markup still could not execute.
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' ws: wss:; frame-ancestors 'none'";

pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { asset(INDEX, "text/html; charset=utf-8") }),
        )
        .route("/assets/{*path}", get(asset_file))
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
        .route("/api/camera", post(crate::camera::start))
        .route(
            "/api/camera/{session}",
            post(crate::camera::frame)
                .delete(crate::camera::stop)
                .layer(axum::extract::DefaultBodyLimit::max(
                    crate::camera::MAX_FRAME_BYTES,
                )),
        )
        .route("/api/games/{id}", get(game))
        .route("/api/games/{id}/record", get(record))
        .with_state(state)
}

async fn asset_file(Path(path): Path<String>) -> Response {
    match ASSETS.iter().find(|(name, _, _)| *name == path) {
        Some((_, kind, body)) => asset(body, kind),
        None => error(StatusCode::NOT_FOUND, &format!("no asset {path:?}")),
    }
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

fn error(status: StatusCode, message: &str) -> Response {
    (status, json_response(json!({"error": message}))).into_response()
}

async fn upgrade(
    ws: WebSocketUpgrade,
    State(app): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Response {
    let ip = crate::limits::client_ip(&app.trusted_proxies, peer, &headers);
    if let Err(e) = app.connections.admit(ip, app.hub.connections_elsewhere()) {
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
        .map(|p| {
            let options: Vec<Value> = p
                .options
                .iter()
                .filter(|o| !o.tuning)
                .map(|o| json!({"name": o.name, "help": o.describe(), "default": o.default_text()}))
                .collect();
            json!({"name": format!("boyi:{}", p.name), "help": p.help_line(), "options": options})
        })
        .chain(engines.listed::<G>())
        .collect();
    let levels: Vec<Value> = boyi_engines::levels::levels(G::NAME)
        .iter()
        .map(|l| json!({"id": l.id, "spec": l.spec}))
        .collect();
    json!({
        "name": G::NAME,
        "levels": levels,
        "default_level": boyi_engines::levels::default_level(G::NAME).map(|l| l.id),
        "variants": G::VARIANTS,
        "sizes": G::SIZES,
        "sides": [G::side_name(boyi_core::Side::Black), G::side_name(boyi_core::Side::White)],
        "first": crate::seat::side_name(
            G::start(&G::Variant::default(), None).map(|p| p.side_to_move()).unwrap_or(boyi_core::Side::Black)),
        "players": players,
        "formats": formats(G::NAME),
    })
}

/// The record formats a game downloads in, Boyi's own first: `{name, label, extension}`.
fn formats(game: &str) -> Vec<Value> {
    let Ok(kind) = game.parse::<GameKind>() else {
        return Vec::new();
    };
    Format::for_game(kind)
        .iter()
        .map(|f| json!({"name": f.name(), "label": format_label(*f), "extension": f.extension()}))
        .collect()
}

fn format_label(f: Format) -> &'static str {
    match f {
        Format::Boyi => "Boyi (.boyi)",
        Format::Sgf => "SGF (.sgf)",
        Format::Psq => "Gomocup (.psq)",
        Format::C6 => "Connect6 championship text (.c6)",
        Format::Pgn => "PGN, ICCS moves (.pgn)",
        Format::PgnWxf => "PGN, WXF moves (.pgn)",
        Format::PgnChinese => "PGN, Chinese moves (.pgn)",
        Format::Xqf => "XQStudio (.xqf)",
        Format::Jiu => "Jiu dataset text (.jiu)",
        Format::RenLib => "RenLib (.lib)",
        Format::Arena => "arena text",
    }
}

/// The games, their variants and sizes, their levels (weakest first, with the one offered
/// first), the built-in players of each and the configured external engines that can play
/// it.
pub fn meta(engines: &crate::external::Engines) -> Value {
    let games: Vec<Value> = GameKind::ALL
        .into_iter()
        .filter_map(|k| with_game!(k, G => meta_of::<G>(engines)).ok())
        .collect();
    json!({"v": crate::protocol::VERSION, "games": games})
}

fn load(app: &AppState, id: &str) -> Result<LiveGame, Box<Response>> {
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

/// Every position of a stored game (the start first) and its moves as the page lists them.
fn replay<G: ServerGame>(row: &LiveGame) -> Result<(Vec<String>, Vec<Value>), String> {
    let rec = &row.record;
    let mut pos: G = boyi_records::start_position(rec).map_err(|e| e.to_string())?;
    let mut positions = vec![pos.to_text()];
    let mut moves = Vec::with_capacity(rec.moves.len());
    for m in &rec.moves {
        let mv = pos.parse_move(&m.text).map_err(|e| e.to_string())?;
        let mut v = json!({
            "text": m.text,
            "side": crate::seat::side_name(pos.side_to_move()),
            "ms": m.time_ms,
        });
        for (k, t) in pos.notations(&mv) {
            v[k] = t.into();
        }
        moves.push(v);
        pos.play(&mv);
        positions.push(pos.to_text());
    }
    Ok((positions, moves))
}

/// The options without the creator's token hash.
fn public_options(mut options: Value) -> Value {
    if let Some(o) = options.as_object_mut() {
        o.remove("creator");
    }
    options
}

/// A stored game for replay: setup, moves, every position, result.
async fn game(State(app): State<Arc<AppState>>, Path(id): Path<String>) -> Response {
    let row = match load(&app, &id) {
        Ok(r) => r,
        Err(r) => return *r,
    };
    let rec = &row.record;
    let replayed =
        with_game!(rec.game, G => replay::<G>(&row)).unwrap_or_else(|e| Err(e.to_string()));
    let (positions, moves) = match replayed {
        Ok(p) => p,
        Err(e) => return error(StatusCode::INTERNAL_SERVER_ERROR, &e),
    };
    let seats: Value = serde_json::from_str(&row.seats).unwrap_or_default();
    let options: Value = serde_json::from_str(&row.options).unwrap_or_default();
    json_response(json!({
        "v": crate::protocol::VERSION,
        "table": row.table,
        "game": rec.game.name(),
        "variant": rec.variant,
        "start": positions[0],
        "options": public_options(options),
        "seats": crate::store::public_seats(&seats),
        "moves": moves,
        "positions": positions,
        "result": rec.result.as_ref().map(|r| json!({
            "winner": r.winner().map(crate::seat::side_name),
            "reason": r.text(),
        })),
        "formats": formats(rec.game.name()),
    }))
}

/// What a download asks for.
#[derive(serde::Deserialize)]
struct RecordQuery {
    /// A record format's name (`boyi`, `sgf`, `pgn-wxf`, ...); Boyi's own by default.
    format: Option<String>,
}

/// A stored game as a record file of the format asked for.
async fn record(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(q): Query<RecordQuery>,
) -> Response {
    let row = match load(&app, &id) {
        Ok(r) => r,
        Err(r) => return *r,
    };
    let mut rec = row.record;
    let format = match q.format.as_deref().map(Format::parse).transpose() {
        Ok(f) => f.unwrap_or(Format::Boyi),
        Err(e) => return error(StatusCode::BAD_REQUEST, &e.to_string()),
    };
    if !Format::for_game(rec.game).contains(&format) {
        let msg = format!("{} records are not written as {}", rec.game, format.name());
        return error(StatusCode::BAD_REQUEST, &msg);
    }
    rec.tags.insert("Table".into(), row.table.clone());
    let bytes = match boyi_records::write(std::slice::from_ref(&rec), format) {
        Ok(b) => b,
        Err(e) => {
            let msg = format!("this game cannot be written as {}: {e}", format.name());
            return error(StatusCode::UNPROCESSABLE_ENTITY, &msg);
        }
    };
    let mut r = bytes.into_response();
    let h = r.headers_mut();
    let kind = if format.is_binary() {
        "application/octet-stream"
    } else {
        "text/plain; charset=utf-8"
    };
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    if let Ok(v) = HeaderValue::from_str(&format!(
        "attachment; filename=\"boyi-{}-{}.{}\"",
        rec.game,
        row.table,
        format.extension()
    )) {
        h.insert(header::CONTENT_DISPOSITION, v);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::{ASSETS, INDEX};
    use std::collections::HashMap;

    /// The modules a script imports (`import … from './x.js'`), as asset names.
    fn imports(body: &str) -> Vec<String> {
        body.lines()
            .filter(|l| l.starts_with("import "))
            .filter_map(|l| l.split("from './").nth(1))
            .filter_map(|rest| rest.split('\'').next())
            .map(|m| format!("js/{m}"))
            .collect()
    }

    #[test]
    fn every_imported_module_is_served_and_imports_have_no_circle() {
        let served: HashMap<&str, &str> = ASSETS.iter().map(|(n, _, b)| (*n, *b)).collect();
        assert!(INDEX.contains("/assets/js/main.js") && served.contains_key("js/main.js"));
        let graph: HashMap<&str, Vec<String>> = ASSETS
            .iter()
            .filter(|(n, _, _)| n.ends_with(".js"))
            .map(|(n, _, b)| (*n, imports(b)))
            .collect();
        for (name, deps) in &graph {
            for d in deps {
                assert!(
                    served.contains_key(d.as_str()),
                    "{name} imports {d}, not served"
                );
            }
        }
        // Depth-first search: a module met again while still on the path is a circle.
        fn visit<'a>(
            n: &'a str,
            graph: &'a HashMap<&str, Vec<String>>,
            state: &mut HashMap<&'a str, bool>,
            path: &mut Vec<&'a str>,
        ) {
            match state.get(n) {
                Some(true) => return,
                Some(false) => panic!("import circle: {} -> {n}", path.join(" -> ")),
                None => {}
            }
            state.insert(n, false);
            path.push(n);
            for d in &graph[n] {
                visit(d, graph, state, path);
            }
            path.pop();
            state.insert(n, true);
        }
        let mut state = HashMap::new();
        for name in graph.keys() {
            visit(name, &graph, &mut state, &mut Vec::new());
        }
        // Every served script is reached from main.js (none is left over).
        let mut reached = vec!["js/main.js".to_string()];
        let mut i = 0;
        while i < reached.len() {
            for d in &graph[reached[i].as_str()] {
                if !reached.contains(d) {
                    reached.push(d.clone());
                }
            }
            i += 1;
        }
        assert_eq!(reached.len(), graph.len(), "scripts main.js never loads");
    }
}
