//! The JSON replies of the HTTP API (the lobby's lists, photo and camera reads), shared by
//! the routes and the handlers they call.

use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

/// `v` as a response of type `application/json`.
pub fn json_response(v: Value) -> Response {
    let mut r = v.to_string().into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r
}
