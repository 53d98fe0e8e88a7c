//! The console at `/`: plain HTML, CSS and JavaScript embedded in the
//! binary (no build step, no framework). It asks for a token, keeps it in
//! the browser's session storage and calls the same API as everyone else.

use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

const INDEX: &str = include_str!("index.html");
const APP_JS: &str = include_str!("app.js");
const APP_CSS: &str = include_str!("app.css");

/// `GET /`.
pub async fn index() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        INDEX,
    )
        .into_response()
}

/// `GET /console/{file}`.
pub async fn asset(Path(file): Path<String>) -> Response {
    let (kind, body) = match file.as_str() {
        "app.js" => ("text/javascript; charset=utf-8", APP_JS),
        "app.css" => ("text/css; charset=utf-8", APP_CSS),
        _ => return (StatusCode::NOT_FOUND, "no such file").into_response(),
    };
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}
