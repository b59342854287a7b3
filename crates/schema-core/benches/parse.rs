//! Parse + serialize of the whole corpus (every MCP `inputSchema`/`outputSchema` and every
//! JSON-Schema-Test-Suite `schema`) with schema-core, against a bare serde_json round trip
//! (`from_slice::<Value>` + `to_writer`) of the same bytes, each serializing into one buffer
//! reused across schemas.
//!
//! `cargo bench -p schema-core --bench parse` runs divan's measurements, then times both in one
//! interleaved loop and prints `RATIO schema_core_parse_serialize_vs_serde_value <x>`
//! (`TS_BENCH_RATIOS_ONLY=1`: the loop and the `RATIO` line only).

#[path = "../tests/common/mod.rs"]
mod common;

use divan::{Bencher, black_box};
use schema_core::{ParseOptions, Schema};
use std::sync::LazyLock;
use std::time::{Duration, Instant};

/// The corpus schemas as compact byte slices, prepared once.
static CORPUS: LazyLock<Vec<Vec<u8>>> = LazyLock::new(|| {
    common::all()
        .into_iter()
        .map(|s| s.text.into_bytes())
        .collect()
});

/// Parse (with diagnostics), then serialize into one buffer reused across schemas (as the
/// engine's batch entry and `--ndjson` do).
fn schema_core_round_trip(corpus: &[Vec<u8>]) -> usize {
    let opts = ParseOptions::default();
    let mut n = 0;
    let mut out = String::new();
    for bytes in corpus {
        let parsed = Schema::parse(bytes, &opts).expect("corpus is valid JSON");
        out.clear();
        parsed.schema.write_json(&mut out);
        n += black_box(&out).len();
    }
    n
}

/// The same with a `Value`: `from_slice` + `to_writer` into one reused buffer.
fn serde_value_round_trip(corpus: &[Vec<u8>]) -> usize {
    let mut n = 0;
    let mut out = Vec::new();
    for bytes in corpus {
        let v: serde_json::Value = serde_json::from_slice(bytes).expect("corpus is valid JSON");
        out.clear();
        serde_json::to_writer(&mut out, &v).expect("a Value serializes");
        n += black_box(&out).len();
    }
    n
}

/// schema-core: parse (with diagnostics) and serialize every corpus schema.
#[divan::bench]
fn schema_core_parse_serialize(b: Bencher) {
    let corpus = &*CORPUS;
    b.counter(divan::counter::BytesCount::new(
        corpus.iter().map(Vec::len).sum::<usize>(),
    ))
    .bench(|| schema_core_round_trip(corpus));
}

/// The baseline: `serde_json::from_slice::<Value>` + `serde_json::to_vec` of the same bytes.
#[divan::bench]
fn serde_value_parse_serialize(b: Bencher) {
    let corpus = &*CORPUS;
    b.counter(divan::counter::BytesCount::new(
        corpus.iter().map(Vec::len).sum::<usize>(),
    ))
    .bench(|| serde_value_round_trip(corpus));
}

/// schema-core's serializer alone, over the corpus parsed up front.
#[divan::bench]
fn schema_core_serialize(b: Bencher) {
    let parsed: Vec<Schema> = CORPUS
        .iter()
        .map(|bytes| Schema::from_slice(bytes).expect("corpus is valid JSON"))
        .collect();
    b.bench(|| {
        parsed
            .iter()
            .map(|s| black_box(s.to_vec()).len())
            .sum::<usize>()
    });
}

/// serde_json's serializer alone, over the corpus parsed into `Value`s up front.
#[divan::bench]
fn serde_value_serialize(b: Bencher) {
    let parsed: Vec<serde_json::Value> = CORPUS
        .iter()
        .map(|bytes| serde_json::from_slice(bytes).expect("corpus is valid JSON"))
        .collect();
    b.bench(|| {
        parsed
            .iter()
            .map(|v| black_box(serde_json::to_vec(v).expect("a Value serializes")).len())
            .sum::<usize>()
    });
}

/// Times both in one interleaved loop (so that load on the machine hits both alike) and
/// returns the ratio of their best rounds.
fn ratio() -> f64 {
    let corpus = &*CORPUS;
    let mut best_core = Duration::MAX;
    let mut best_serde = Duration::MAX;
    const ROUNDS: usize = 30;
    const PER_ROUND: usize = 5;
    for _ in 0..ROUNDS {
        let t = Instant::now();
        for _ in 0..PER_ROUND {
            black_box(schema_core_round_trip(corpus));
        }
        best_core = best_core.min(t.elapsed());
        let t = Instant::now();
        for _ in 0..PER_ROUND {
            black_box(serde_value_round_trip(corpus));
        }
        best_serde = best_serde.min(t.elapsed());
    }
    let bytes: usize = corpus.iter().map(Vec::len).sum();
    println!(
        "corpus: {} schemas, {bytes} bytes; best of {ROUNDS} rounds of {PER_ROUND} passes: \
         schema-core {best_core:?}, serde_json Value {best_serde:?}",
        corpus.len()
    );
    best_core.as_secs_f64() / best_serde.as_secs_f64()
}

fn main() {
    // `TS_BENCH_PROFILE=core` / `=value`: one pass of one side only, for a profiler
    // (`valgrind --tool=callgrind --toggle-collect='parse::schema_core_round_trip'`).
    match std::env::var("TS_BENCH_PROFILE").as_deref() {
        Ok("core") => {
            black_box(schema_core_round_trip(&CORPUS));
            return;
        }
        Ok("value") => {
            black_box(serde_value_round_trip(&CORPUS));
            return;
        }
        _ => {}
    }
    // `TS_BENCH_RATIOS_ONLY=1` (as in the other crates' benches): only the `RATIO` line.
    if std::env::var_os("TS_BENCH_RATIOS_ONLY").is_none() {
        divan::main();
    }
    println!(
        "RATIO schema_core_parse_serialize_vs_serde_value {:.2}",
        ratio()
    );
}
