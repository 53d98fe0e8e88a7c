//! Failures as the API answers them: an HTTP status and the CLI's `--json`
//! error document, `{"error": {"code": "ENOENT", "message": "..."}}`.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use computer_runtime::ExecError;
use computer_store::{Errno, FsError};
use serde_json::json;

/// A failed request.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// The POSIX-style code (the CLI's vocabulary), or an HTTP-only one
    /// such as `EAUTH`.
    pub code: String,
    /// What went wrong and what to do.
    pub message: String,
}

/// A handler's result.
pub type ApiResult<T> = Result<T, ApiError>;

impl ApiError {
    /// A failure with its status, code and message.
    pub fn new(status: StatusCode, code: &str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            code: code.to_owned(),
            message: message.into(),
        }
    }

    /// 400, `EINVAL`.
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "EINVAL", message)
    }

    /// 404, `ENOENT`.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "ENOENT", message)
    }

    /// 403, `EACCES`: the token may not do this.
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, "EACCES", message)
    }

    /// 500, `EIO`.
    pub fn internal(message: impl std::fmt::Display) -> Self {
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "EIO",
            message.to_string(),
        )
    }
}

/// The HTTP status a store error code answers with.
pub fn status_of(code: &str) -> StatusCode {
    match code {
        "ENOENT" => StatusCode::NOT_FOUND,
        "EEXIST" | "ENOTEMPTY" | "EISDIR" | "ENOTDIR" | "EBUSY" => StatusCode::CONFLICT,
        "EINVAL" | "ENAMETOOLONG" | "ELOOP" => StatusCode::BAD_REQUEST,
        "EPERM" | "EACCES" | "EROFS" => StatusCode::FORBIDDEN,
        "EFBIG" => StatusCode::PAYLOAD_TOO_LARGE,
        "ENOSPC" | "EDQUOT" => StatusCode::INSUFFICIENT_STORAGE,
        "EAGAIN" | "ENOMEM" => StatusCode::SERVICE_UNAVAILABLE,
        "ETIMEDOUT" => StatusCode::GATEWAY_TIMEOUT,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl From<FsError> for ApiError {
    fn from(e: FsError) -> Self {
        let code = e.code.as_str();
        ApiError::new(status_of(code), code, e.message)
    }
}

impl From<ExecError> for ApiError {
    /// The codes `computer exec` reports for the same failures.
    fn from(e: ExecError) -> Self {
        let code = match &e {
            ExecError::Workspace(fs) => fs.code.as_str(),
            ExecError::TooManyRuns { .. } | ExecError::HostMemoryBusy { .. } => "EAGAIN",
            ExecError::RunTooBig { .. } => "ENOMEM",
            ExecError::Cancelled => "ECANCELED",
            ExecError::RunBusy { .. } => "EBUSY",
            ExecError::TooLarge { .. } => "EFBIG",
            ExecError::CommandNotFound { .. } => "ENOENT",
            ExecError::Denied(_) => "EPERM",
            ExecError::Engine(_) | ExecError::Unavailable { .. } => "EIO",
            _ => Errno::EINVAL.as_str(),
        };
        ApiError::new(status_of(code), code, e.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({"error": {"code": self.code, "message": self.message}});
        let mut response = (self.status, Json(body)).into_response();
        if self.status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(
                axum::http::header::WWW_AUTHENTICATE,
                axum::http::HeaderValue::from_static("Bearer"),
            );
        }
        response
    }
}
