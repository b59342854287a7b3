//! The baseline process for `scripts/bench_cli.sh`: reads a JSON file (or stdin with `-`),
//! round-trips it through `serde_json::Value` and writes it to stdout.
//!
//! ```sh
//! cargo run --release -p tower-toolschema --example value_roundtrip -- body.json > out.json
//! ```
//!
//! Without an argument it prints this usage and exits 2 (it is a benchmark helper, not a demo).

use std::io::{Read, Write};
use std::process::ExitCode;

const USAGE: &str = "usage: value_roundtrip FILE|-  (the baseline of scripts/bench_cli.sh: reads JSON, \
round-trips it through serde_json::Value, writes it to stdout)";

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    match roundtrip(&path) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("value_roundtrip: {path}: {e}\n{USAGE}");
            ExitCode::FAILURE
        }
    }
}

fn roundtrip(path: &str) -> Result<(), Box<dyn std::error::Error>> {
    let input = if path == "-" {
        let mut buf = Vec::new();
        std::io::stdin().read_to_end(&mut buf)?;
        buf
    } else {
        std::fs::read(path)?
    };
    let value: serde_json::Value = serde_json::from_slice(&input)?;
    let out = serde_json::to_vec(&value)?;
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(&out)?;
    stdout.flush()?;
    Ok(())
}
