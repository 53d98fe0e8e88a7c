//! Result rows and their Markdown rendering.

use std::time::Duration;

use serde::Serialize;

#[derive(Serialize)]
pub struct Row {
    pub work: String,
    /// Median time of the workspace side.
    pub computer_us: f64,
    /// Median time of the native side, if there is one.
    pub native_us: Option<f64>,
    pub target: String,
}

impl Row {
    pub fn ratio(&self) -> Option<f64> {
        self.native_us.map(|n| self.computer_us / n.max(0.001))
    }
}

pub fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// Median of repeated measurements.
pub fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn fmt_us(v: f64) -> String {
    if v >= 10_000.0 {
        format!("{:.1} ms", v / 1000.0)
    } else {
        format!("{v:.0} µs")
    }
}

pub fn markdown(rows: &[Row]) {
    println!("| work | computer | reference | ratio | target |");
    println!("|---|---:|---:|---:|---|");
    for r in rows {
        let native = r.native_us.map_or("–".to_string(), fmt_us);
        let ratio = r.ratio().map_or("–".to_string(), |x| format!("{x:.2}x"));
        println!(
            "| {} | {} | {native} | {ratio} | {} |",
            r.work,
            fmt_us(r.computer_us),
            r.target
        );
    }
}
