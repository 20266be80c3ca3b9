//! The camera page's path: a phone or computer camera pointed at a real board sends a few
//! frames a second, and the server follows the game on it with the watch loop of `boyi watch`
//! ([`boyi_vision::watch`] with [`referee::GameReferee`]), one session per page.
//!
//! - `POST /api/camera?game=gomoku|connect6&as=black|white[&mode=suggest|play][&size=N]`
//!   `[&level=ID][&settle=K]` starts a session: `{"session": ID, …}`. The game's level
//!   `level` (the default level if none) suggests the moves of colour `as` (any legal turn is
//!   taken), or with `mode=play` plays them (they must be placed as shown).
//! - `POST /api/camera/{session}` with one frame (JPEG or PNG) as the body: the frame is read,
//!   given to the session's watch loop, and answered with the board read in it, the loop's
//!   events, the game followed so far and the suggested move with its place in the frame.
//! - `DELETE /api/camera/{session}` ends the session.
//!
//! Bounds of their own, apart from `/api/photo`'s: frames per second and sessions per address
//! ([`crate::limits::Limits`]), sessions in all, reads at once, and the photo's pixel bound.
//! A session nobody sent a frame to for [`IDLE`] is dropped.

pub mod referee;

use crate::AppState;
use crate::limits::{Bucket, Limits};
use crate::photo::failure;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use boyi_core::Point as BoardPoint;
use boyi_engines::{BuildContext, GamePlayers, Limits as SearchLimits};
use boyi_games::GameKind;
use boyi_games::connect6::Connect6;
use boyi_games::gomoku::Gomoku;
use boyi_vision::Stone;
use boyi_vision::watch::{Event, State as WatchState, WatchOptions, Watcher, colour};
use image::RgbImage;
use referee::{GameReferee, event_json, pixel_json};
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, TryLockError};
use std::time::{Duration, Instant};

/// Largest frame accepted (bytes).
pub const MAX_FRAME_BYTES: usize = 4 << 20;
/// Camera sessions in all; each holds a player.
pub const MAX_SESSIONS: usize = 16;
/// Frames read at once, over all sessions; more get "busy".
pub const CONCURRENT_READS: usize = 2;
/// A session without frames for this long is dropped.
pub const IDLE: Duration = Duration::from_secs(120);
/// Frames in a row that must agree before a board counts as settled, unless asked.
pub const DEFAULT_SETTLE: usize = 3;

/// The camera sessions.
pub struct Cameras {
    sessions: Mutex<HashMap<String, Arc<Session>>>,
    reads: tokio::sync::Semaphore,
}

impl Default for Cameras {
    fn default() -> Self {
        Cameras {
            sessions: Mutex::new(HashMap::new()),
            reads: tokio::sync::Semaphore::new(CONCURRENT_READS),
        }
    }
}

struct Session {
    ip: IpAddr,
    /// When the last frame (or the start) came.
    seen: Mutex<Instant>,
    frames: Mutex<Bucket>,
    follow: Mutex<Box<dyn Follow>>,
}

/// What a session's start asks for.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartQuery {
    pub game: String,
    #[serde(rename = "as")]
    pub me: String,
    #[serde(default)]
    pub size: Option<usize>,
    #[serde(default)]
    pub level: Option<String>,
    #[serde(default)]
    pub settle: Option<usize>,
    /// `suggest` (default): the player's moves are suggestions, any legal turn is taken;
    /// `play`: the computer plays colour `as`, its moves must be placed as shown.
    #[serde(default)]
    pub mode: Option<String>,
}

fn lock<T: ?Sized>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// `POST /api/camera?…`: starts a session.
pub async fn start(
    State(app): State<Arc<AppState>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: axum::http::HeaderMap,
    query: Result<Query<StartQuery>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let Ok(Query(q)) = query else {
        return failure(
            StatusCode::BAD_REQUEST,
            "say what the camera watches: /api/camera?game=gomoku (or connect6)&as=black (or white), optionally &size=N&level=ID&settle=K",
        );
    };
    let follow = match follower(&q) {
        Ok(f) => f,
        Err(e) => return failure(StatusCode::UNPROCESSABLE_ENTITY, &e),
    };
    let ip = crate::limits::client_ip(&app.trusted_proxies, peer, &headers);
    let id = match app.cameras.open(ip, &app.limits, follow) {
        Ok(id) => id,
        Err(e) => return failure(StatusCode::TOO_MANY_REQUESTS, &e),
    };
    crate::reply::json_response(json!({
        "v": crate::protocol::VERSION,
        "session": id,
        "game": q.game,
        "as": q.me,
        "mode": q.mode.as_deref().unwrap_or("suggest"),
        "settle": q.settle.unwrap_or(DEFAULT_SETTLE),
        "frames_per_second": app.limits.camera_frames_per_second,
    }))
}

/// `POST /api/camera/{session}`: one frame.
pub async fn frame(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Response {
    let Some(session) = app.cameras.get(&id) else {
        return failure(StatusCode::NOT_FOUND, &unknown(&id));
    };
    if !lock(&session.frames).take() {
        return failure(
            StatusCode::TOO_MANY_REQUESTS,
            &format!(
                "more than {} frames a second; this frame was not read",
                app.limits.camera_frames_per_second
            ),
        );
    }
    *lock(&session.seen) = Instant::now();
    let body = match body {
        Ok(b) => b,
        Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            return failure(
                StatusCode::PAYLOAD_TOO_LARGE,
                &format!("the frame is larger than {} MiB", MAX_FRAME_BYTES >> 20),
            );
        }
        Err(e) => return failure(StatusCode::BAD_REQUEST, &e.body_text()),
    };
    if body.is_empty() {
        return failure(
            StatusCode::UNPROCESSABLE_ENTITY,
            "no frame was sent (the request body is empty)",
        );
    }
    let Ok(_permit) = app.cameras.reads.try_acquire() else {
        return failure(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is reading other frames; this one was skipped",
        );
    };
    let max_pixels = app.limits.photo_max_pixels;
    let read = tokio::task::spawn_blocking(move || {
        let mut follow = match session.follow.try_lock() {
            Ok(f) => f,
            Err(TryLockError::Poisoned(e)) => e.into_inner(),
            Err(TryLockError::WouldBlock) => {
                return Err((
                    StatusCode::TOO_MANY_REQUESTS,
                    "the previous frame of this session is still being read; send the next when it is answered".to_string(),
                ));
            }
        };
        let (img, scale) = crate::photo::decode(&body, max_pixels)
            .map_err(|e| (StatusCode::UNPROCESSABLE_ENTITY, e.replace("photo", "frame")))?;
        Ok(follow.frame(&img, scale))
    })
    .await;
    match read {
        Ok(Ok(mut v)) => {
            v["v"] = crate::protocol::VERSION.into();
            crate::reply::json_response(v)
        }
        Ok(Err((status, e))) => failure(status, &e),
        Err(e) => failure(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()),
    }
}

/// `DELETE /api/camera/{session}`.
pub async fn stop(State(app): State<Arc<AppState>>, Path(id): Path<String>) -> Response {
    if lock(&app.cameras.sessions).remove(&id).is_none() {
        return failure(StatusCode::NOT_FOUND, &unknown(&id));
    }
    crate::reply::json_response(json!({"v": crate::protocol::VERSION, "stopped": id}))
}

fn unknown(id: &str) -> String {
    let shown: String = id.chars().take(40).collect();
    format!(
        "no camera session {shown:?}: it was stopped, or sent no frame for {} s; start again",
        IDLE.as_secs()
    )
}

impl Cameras {
    /// Opens a session for `ip`, within the limits: its id.
    fn open(&self, ip: IpAddr, limits: &Limits, follow: Box<dyn Follow>) -> Result<String, String> {
        let mut sessions = lock(&self.sessions);
        sweep(&mut sessions);
        let mine = sessions.values().filter(|s| s.ip == ip).count();
        if mine >= limits.camera_sessions_per_ip {
            return Err(format!(
                "your address already has {mine} camera session(s), the most it may hold; stop one first"
            ));
        }
        if sessions.len() >= MAX_SESSIONS {
            return Err("the server follows as many cameras as it can; try again later".into());
        }
        let id = crate::seat::new_token();
        let session = Session {
            ip,
            seen: Mutex::new(Instant::now()),
            frames: Mutex::new(Bucket::new(
                limits.camera_frames_per_second,
                limits.camera_frame_burst.max(1.0),
            )),
            follow: Mutex::new(follow),
        };
        sessions.insert(id.clone(), Arc::new(session));
        Ok(id)
    }

    fn get(&self, id: &str) -> Option<Arc<Session>> {
        let mut sessions = lock(&self.sessions);
        sweep(&mut sessions);
        sessions.get(id).cloned()
    }
}

/// Drops the sessions idle for [`IDLE`] (with their players).
fn sweep(sessions: &mut HashMap<String, Arc<Session>>) {
    let now = Instant::now();
    sessions.retain(|_, s| now.duration_since(*lock(&s.seen)) < IDLE);
}

/// The watch loop of the game asked for, with its level as the player.
fn follower(q: &StartQuery) -> Result<Box<dyn Follow>, String> {
    let kind: GameKind = q.game.parse().map_err(|e| format!("{e}"))?;
    let me = match q.me.as_str() {
        "black" => Stone::Black,
        "white" => Stone::White,
        other => return Err(format!("as={other:?}: the player is black or white")),
    };
    if let Some(n) = q.size
        && !(5..=25).contains(&n)
    {
        return Err(format!("board size {n} must be 5 to 25"));
    }
    let settle = q.settle.unwrap_or(DEFAULT_SETTLE);
    if !(1..=20).contains(&settle) {
        return Err(format!("settle={settle} must be 1 to 20 frames"));
    }
    let place_reply = match q.mode.as_deref() {
        None | Some("suggest") => false,
        Some("play") => true,
        Some(other) => return Err(format!("mode={other:?}: suggest or play")),
    };
    let opts = WatchOptions {
        size: q.size,
        me,
        settle,
        place_reply,
    };
    match kind {
        GameKind::Gomoku => following::<Gomoku>(kind, q.level.as_deref(), opts),
        GameKind::Connect6 => following::<Connect6>(kind, q.level.as_deref(), opts),
        other => Err(format!(
            "the camera follows games played by placing stones (gomoku, connect6), not {}",
            other.name()
        )),
    }
}

fn following<G: GamePlayers>(
    kind: GameKind,
    level: Option<&str>,
    opts: WatchOptions,
) -> Result<Box<dyn Follow>, String> {
    let level = match level {
        Some(id) => boyi_engines::levels::find(kind.name(), id)?,
        None => boyi_engines::levels::default_level(kind.name())
            .ok_or_else(|| format!("{} has no levels", kind.name()))?,
    };
    let spec = level.spec.strip_prefix("boyi:").unwrap_or(level.spec);
    let player = boyi_engines::build::<G>(spec, BuildContext::default())
        .map_err(|e| format!("level {}: {e}", level.id))?;
    // A level searches its spec's own depth; the cap only bounds a slow machine.
    let cap = Duration::from_millis(crate::seat::LEVEL_CAP_MS);
    let referee = GameReferee::new(kind, player, SearchLimits::default(), Some(cap));
    Ok(Box::new(Following {
        watcher: Watcher::new(opts, referee),
        moves: Vec::new(),
        result: None,
        reply_pixels: Vec::new(),
    }))
}

/// One session's game, as the frames show it.
trait Follow: Send {
    /// Reads one frame (decoded at `scale` of the size sent) and answers with what it shows
    /// and what the game is now.
    fn frame(&mut self, img: &RgbImage, scale: f64) -> Value;
}

struct Following<G: GamePlayers> {
    watcher: Watcher<GameReferee<G>>,
    /// The turns seen played: `{"side", "move"}`.
    moves: Vec<Value>,
    result: Option<String>,
    /// Where the suggested move's stones go in the last frame read, in the frame's pixels.
    reply_pixels: Vec<(f64, f64)>,
}

impl<G: GamePlayers> Follow for Following<G> {
    fn frame(&mut self, img: &RgbImage, scale: f64) -> Value {
        let unscale = |(x, y): (f64, f64)| (x / scale, y / scale);
        let (read, mut events, unread) =
            match boyi_vision::read_board(img, &self.watcher.read_options()) {
                Ok(read) => {
                    let events = self.watcher.read(&read);
                    (Some(read), events, None)
                }
                Err(e) => {
                    self.watcher.no_board();
                    (None, Vec::new(), Some(format!("no board read: {e}")))
                }
            };
        for e in &mut events {
            match e {
                Event::Reply { pixels, .. } => {
                    for p in pixels.iter_mut() {
                        *p = unscale(*p);
                    }
                }
                Event::Move { side, text, .. } => self
                    .moves
                    .push(json!({"side": colour(*side), "move": text})),
                Event::Result { text } => self.result = Some(text.clone()),
                _ => {}
            }
        }
        let state = self.watcher.state().clone();
        let reply = match &state {
            WatchState::Placing { text, points } => {
                if let Some(r) = &read {
                    self.reply_pixels = points
                        .iter()
                        .map(|&(c, row)| {
                            let p = r.at(c, row);
                            unscale((p.x, p.y))
                        })
                        .collect();
                }
                let n = read
                    .as_ref()
                    .map_or(0, |r| r.size)
                    .max(self.watcher.referee().size());
                let names: Vec<String> = points
                    .iter()
                    .map(|&(c, r)| {
                        BoardPoint {
                            col: c as u8,
                            row: (n - 1 - r) as u8,
                        }
                        .to_string()
                    })
                    .collect();
                json!({"move": text, "points": names, "pixel": pixel_json(&self.reply_pixels)})
            }
            _ => Value::Null,
        };
        let history = self.watcher.referee().history();
        let mut v = json!({
            "state": state_name(&state),
            "read": read.as_ref().map(|r| json!({
                "size": r.size,
                "position": r.position_rows(),
                "corners": pixel_json(&r.corners().map(unscale)),
            })),
            "events": events.iter().map(event_json).collect::<Vec<_>>(),
            "position": history.map(|h| h.current().to_text()),
            "to_move": history.map(|h| crate::seat::side_name(h.current().side_to_move())),
            "moves": self.moves,
            "reply": reply,
            "result": self.result,
        });
        if let Some(why) = unread {
            v["unread"] = why.into();
        }
        v
    }
}

fn state_name(s: &WatchState) -> &'static str {
    match s {
        WatchState::Settling => "settling",
        WatchState::Opponent => "opponent",
        WatchState::Placing { .. } => "placing",
        WatchState::Over => "over",
    }
}
