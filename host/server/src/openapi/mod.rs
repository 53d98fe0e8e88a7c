//! `/openapi.json`: the API's OpenAPI 3.1 description, kept as a JSON file
//! beside this module and checked against real responses by the
//! `serve_openapi` test.

use axum::http::header;
use axum::response::{IntoResponse, Response};

/// The document, as served.
pub const DOCUMENT: &str = include_str!("openapi.json");

/// `GET /openapi.json`.
pub async fn document() -> Response {
    ([(header::CONTENT_TYPE, "application/json")], DOCUMENT).into_response()
}
