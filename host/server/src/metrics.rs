//! `/metrics`: Prometheus text. Counters kept here (requests, runs ended by
//! status and backend, run latency), gauges read when scraped (live runs,
//! pending approvals, store size).

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;
use std::time::Duration;

/// Upper bounds (seconds) of the run latency histogram's buckets.
const BUCKETS: [f64; 10] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0, 30.0];

#[derive(Default)]
struct Counts {
    requests: BTreeMap<(String, u16), u64>,
    runs: BTreeMap<(String, String), u64>,
    latency: BTreeMap<String, ([u64; BUCKETS.len()], u64, f64)>,
}

/// The server's counters.
#[derive(Default)]
pub struct Metrics {
    counts: Mutex<Counts>,
}

/// What a scrape reads at the moment it happens.
pub struct Gauges {
    /// Runs live per backend.
    pub running: BTreeMap<String, u64>,
    /// Pending approvals of open workspaces.
    pub pending_approvals: u64,
    /// Open workspaces.
    pub open_workspaces: u64,
    /// Bytes of the data directory's workspace files.
    pub store_bytes: u64,
}

impl Metrics {
    fn lock(&self) -> std::sync::MutexGuard<'_, Counts> {
        self.counts.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Counts one request by method and status.
    pub fn request(&self, method: &str, status: u16) {
        *self
            .lock()
            .requests
            .entry((method.to_owned(), status))
            .or_default() += 1;
    }

    /// Counts one run's end.
    pub fn run_ended(&self, backend: &str, status: &str, took: Duration) {
        let mut c = self.lock();
        *c.runs
            .entry((backend.to_owned(), status.to_owned()))
            .or_default() += 1;
        let (buckets, count, sum) = c.latency.entry(backend.to_owned()).or_default();
        let secs = took.as_secs_f64();
        for (i, le) in BUCKETS.iter().enumerate() {
            if secs <= *le {
                buckets[i] += 1;
            }
        }
        *count += 1;
        *sum += secs;
    }

    /// The text a scrape gets.
    pub fn render(&self, g: &Gauges) -> String {
        let c = self.lock();
        let mut out = String::new();
        let _ = writeln!(
            out,
            "# HELP computer_http_requests_total HTTP requests by method and status.\n# TYPE computer_http_requests_total counter"
        );
        for ((method, status), n) in &c.requests {
            let _ = writeln!(
                out,
                "computer_http_requests_total{{method=\"{method}\",status=\"{status}\"}} {n}"
            );
        }
        let _ = writeln!(
            out,
            "# HELP computer_runs_total Runs ended, by backend and status.\n# TYPE computer_runs_total counter"
        );
        for ((backend, status), n) in &c.runs {
            let _ = writeln!(
                out,
                "computer_runs_total{{backend=\"{backend}\",status=\"{status}\"}} {n}"
            );
        }
        let _ = writeln!(
            out,
            "# HELP computer_runs_running Runs going on now, by backend.\n# TYPE computer_runs_running gauge"
        );
        for (backend, n) in &g.running {
            let _ = writeln!(out, "computer_runs_running{{backend=\"{backend}\"}} {n}");
        }
        let _ = writeln!(
            out,
            "# HELP computer_run_duration_seconds Run latency, by backend.\n# TYPE computer_run_duration_seconds histogram"
        );
        for (backend, (buckets, count, sum)) in &c.latency {
            for (i, le) in BUCKETS.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "computer_run_duration_seconds_bucket{{backend=\"{backend}\",le=\"{le}\"}} {}",
                    buckets[i]
                );
            }
            let _ = writeln!(
                out,
                "computer_run_duration_seconds_bucket{{backend=\"{backend}\",le=\"+Inf\"}} {count}"
            );
            let _ = writeln!(
                out,
                "computer_run_duration_seconds_sum{{backend=\"{backend}\"}} {sum}"
            );
            let _ = writeln!(
                out,
                "computer_run_duration_seconds_count{{backend=\"{backend}\"}} {count}"
            );
        }
        let gauges = [
            (
                "computer_approvals_pending",
                "Approvals waiting for an answer (open workspaces).",
                g.pending_approvals,
            ),
            (
                "computer_workspaces_open",
                "Workspaces this server has open.",
                g.open_workspaces,
            ),
            (
                "computer_store_bytes",
                "Bytes of the workspace files in the data directory.",
                g.store_bytes,
            ),
        ];
        for (name, help, value) in gauges {
            let _ = writeln!(
                out,
                "# HELP {name} {help}\n# TYPE {name} gauge\n{name} {value}"
            );
        }
        out
    }
}
