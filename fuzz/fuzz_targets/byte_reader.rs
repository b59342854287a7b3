//! schema-core's byte reader against the serde_json parser it stands in for: `Schema::parse`
//! (byte reader first, serde_json where it gives up) and the serde_json parser alone agree on
//! every input: both accept or both reject (with the same error), and they give the same tree
//! (structure and text) and the same diagnostics.
//!
//! The depth limit is taken from the input's length (64, 3 or 1), so the reader's own depth
//! cut is explored without changing what a seed means.
#![no_main]

use libfuzzer_sys::fuzz_target;
use schema_core::{ParseOptions, Parsed, Schema, SchemaError};

fn show(r: Result<Parsed, SchemaError>) -> String {
    match r {
        Ok(p) => format!(
            "{:?} {:?} {}",
            p.schema,
            p.diagnostics,
            p.schema.to_json_string()
        ),
        Err(e) => format!("error {e}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let max_depth = [64, 3, 1][data.len() % 3];
    let opts = ParseOptions {
        max_depth,
        ..ParseOptions::default()
    };
    let ours = show(Schema::parse(data, &opts));
    let judge = show(Schema::parse_serde_only(data, &opts));
    assert!(
        ours == judge,
        "the byte reader and serde_json disagree (max_depth {max_depth})\n input: {}\n ours:  {ours}\n judge: {judge}",
        String::from_utf8_lossy(data)
    );
});
