//! Issue 41: what an adversarial review broke, one module per area.

mod lows;
mod open_files;
mod sleeps;
