//! The baseline process for `scripts/bench_cli.sh`: reads a JSON file (or stdin with `-`),
//! round-trips it through `serde_json::Value` and writes it to stdout.
//!
//! ```sh
//! cargo run --release -p tower-toolschema --example value_roundtrip -- body.json > out.json
//! ```

use std::io::{Read, Write};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).unwrap_or_else(|| "-".to_owned());
    let input = if path == "-" {
        let mut buf = Vec::new();
        std::io::stdin().read_to_end(&mut buf)?;
        buf
    } else {
        std::fs::read(&path)?
    };
    let value: serde_json::Value = serde_json::from_slice(&input)?;
    let out = serde_json::to_vec(&value)?;
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(&out)?;
    stdout.flush()?;
    Ok(())
}
