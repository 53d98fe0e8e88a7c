//! The closed sets of values the run tables store as TEXT: a run's status,
//! what it does when interrupted, and a journal row's kind and status.
//!
//! Each enum is stored as the same string the tables always held (no
//! migration): `as_str` gives it, `FromStr` reads it back, and the rusqlite
//! `ToSql`/`FromSql` impls use both. A stored value that is none of them
//! reads as a clear error ([`UnknownValue`]), never a panic.

use std::fmt;
use std::str::FromStr;

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};
use serde::{Deserialize, Serialize};

/// A stored (or given) string that is not one of an enum's values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownValue {
    /// What was being read, e.g. `run status`.
    pub what: &'static str,
    /// The value found.
    pub value: String,
    /// The values it may take.
    pub expected: &'static [&'static str],
}

impl fmt::Display for UnknownValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown {} {:?} (expected one of: {})",
            self.what,
            self.value,
            self.expected.join(", ")
        )
    }
}

impl std::error::Error for UnknownValue {}

/// Defines `as_str`, `ALL`, `Display`, `FromStr`, `ToSql` and `FromSql` for
/// a fieldless enum from its variant ↔ string table.
macro_rules! stored_enum {
    ($ty:ident, $what:literal, { $($variant:ident => $text:literal),+ $(,)? }) => {
        impl $ty {
            /// Every value, in declaration order.
            pub const ALL: &'static [$ty] = &[$($ty::$variant),+];
            const NAMES: &'static [&'static str] = &[$($text),+];

            /// The string stored for this value.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($ty::$variant => $text),+
                }
            }
        }

        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.pad(self.as_str())
            }
        }

        impl FromStr for $ty {
            type Err = UnknownValue;

            fn from_str(s: &str) -> Result<Self, UnknownValue> {
                match s {
                    $($text => Ok($ty::$variant),)+
                    _ => Err(UnknownValue {
                        what: $what,
                        value: s.to_owned(),
                        expected: $ty::NAMES,
                    }),
                }
            }
        }

        impl ToSql for $ty {
            fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
                Ok(ToSqlOutput::from(self.as_str()))
            }
        }

        impl FromSql for $ty {
            fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
                value
                    .as_str()?
                    .parse()
                    .map_err(|e: UnknownValue| FromSqlError::Other(Box::new(e)))
            }
        }
    };
}

/// Where a run is: under way, parked at an interrupt, or ended (and how).
///
/// The runtime's run results use it too (`RunResult::status`); a result is
/// never `Running`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    /// Under way (or its process died and `recover` has not seen it yet).
    Running,
    /// Parked at an interrupt until the application answers.
    Waiting,
    /// Ended normally (exit code 0).
    Completed,
    /// Ended with an error or a non-zero exit code.
    Failed,
    /// Killed by the application.
    Cancelled,
    /// Stopped by its timeout.
    TimedOut,
}

stored_enum!(RunStatus, "run status", {
    Running => "running",
    Waiting => "waiting",
    Completed => "completed",
    Failed => "failed",
    Cancelled => "cancelled",
    TimedOut => "timed_out",
});

impl RunStatus {
    /// Whether the run has ended for good (neither running nor waiting).
    pub fn is_ended(self) -> bool {
        !matches!(self, RunStatus::Running | RunStatus::Waiting)
    }
}

/// What happens to a run that is interrupted: by an approval gate, a crash
/// or a restart of the host process.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnInterrupt {
    /// Journal every host call; resume by re-running from the start with
    /// recorded results. Approvals need this.
    #[default]
    Replay,
    /// No journal: an interrupted run is marked failed.
    Fail,
}

stored_enum!(OnInterrupt, "on_interrupt", {
    Replay => "replay",
    Fail => "fail",
});

/// What kind of host call a journal row records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryKind {
    /// A workspace call (`read`, `write`, ...); the result is the encoded WIT result.
    Fs,
    /// A module call (`ws:NAME.FUNCTION`).
    Module,
    /// A clock reading (`monotonic`, `wall`).
    Clock,
    /// An outgoing HTTP request of a command (`METHOD URL`). No response is
    /// recorded: an idempotent request stays `started` (a replay sends it
    /// again), any other is `unsafe` before it is sent (a replay refuses).
    Http,
}

stored_enum!(EntryKind, "journal entry kind", {
    Fs => "fs",
    Module => "module",
    Clock => "clock",
    Http => "http",
});

/// What became of a journalled call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryStatus {
    /// The result is recorded: replay returns it without executing.
    Done,
    /// A module call began and has no result: replay executes it again.
    Started,
    /// A module call passed unsafe-to-repeat and has no result: replay
    /// must not execute it again.
    Unsafe,
}

stored_enum!(EntryStatus, "journal entry status", {
    Done => "done",
    Started => "started",
    Unsafe => "unsafe",
});

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<T>(all: &[T])
    where
        T: Copy + PartialEq + fmt::Debug + FromStr<Err = UnknownValue> + fmt::Display,
    {
        for v in all {
            assert_eq!(v.to_string().parse::<T>().unwrap(), *v);
        }
    }

    #[test]
    fn every_value_reads_back() {
        round_trip(RunStatus::ALL);
        round_trip(OnInterrupt::ALL);
        round_trip(EntryKind::ALL);
        round_trip(EntryStatus::ALL);
        assert_eq!(RunStatus::TimedOut.as_str(), "timed_out");
        assert_eq!(
            format!("{:<9}|", RunStatus::Failed),
            "failed   |",
            "padding is honoured"
        );
        assert_eq!(
            serde_json::to_value(RunStatus::TimedOut).unwrap(),
            "timed_out",
            "serde spells it as stored"
        );
    }

    #[test]
    fn an_unknown_value_is_a_clear_error() {
        let e = "paused".parse::<RunStatus>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown run status \"paused\" (expected one of: running, waiting, completed, \
             failed, cancelled, timed_out)"
        );
        let c = rusqlite::Connection::open_in_memory().unwrap();
        let e = c
            .query_row("SELECT 'later'", [], |r| r.get::<_, OnInterrupt>(0))
            .unwrap_err();
        assert!(
            e.to_string().contains("unknown on_interrupt \"later\""),
            "{e}"
        );
    }
}
