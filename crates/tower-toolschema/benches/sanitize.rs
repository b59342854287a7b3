//! Benchmark 3, sanitize alone: every built-in profile over the whole corpus (MCP input and
//! output schemas, and every JSON-Schema-Test-Suite schema), through the layer's default
//! sanitizer (`schema_core` parse, `provider_rules` rewrite, serialize) with no cache: schemas
//! per second and MB/s, and the ratio to a `serde_json::Value` round trip of the same schemas.
//! `cargo bench -p tower-toolschema --bench sanitize` (`TS_BENCH_RATIOS_ONLY=1`: the ratios
//! only; `TS_BENCH_ONCE=gemini` or `value`: no timing, one pass of that profile or of the
//! round trip, after one warm-up pass, for an instruction count with
//! `valgrind --tool=callgrind --toggle-collect=sanitize::once`).

mod common;

use std::hint::black_box;
use std::sync::OnceLock;
use std::time::Duration;

use common::*;
use divan::Bencher;
use tower_toolschema::Profile;
use tower_toolschema::sanitizer::{RulesSanitizer, SchemaSlot, SlotSanitizer};

/// Every built-in profile, from the registry.
fn profiles() -> Vec<&'static str> {
    provider_rules::profile_names().collect()
}

fn schemas() -> &'static Vec<(Vec<u8>, bool)> {
    static S: OnceLock<Vec<(Vec<u8>, bool)>> = OnceLock::new();
    S.get_or_init(corpus_schemas)
}

fn sanitize_all(profile: &Profile) -> usize {
    let mut changed = 0;
    for (schema, params) in schemas() {
        let slot = if *params {
            SchemaSlot::Parameters
        } else {
            SchemaSlot::Schema
        };
        if let Ok(out) = RulesSanitizer.sanitize(black_box(schema), profile, slot) {
            changed += usize::from(out.json.is_some());
        }
    }
    changed
}

fn value_roundtrip_all() -> usize {
    let mut n = 0;
    for (schema, _) in schemas() {
        let v: serde_json::Value = serde_json::from_slice(black_box(schema)).expect("json");
        n += serde_json::to_vec(&v).expect("json").len();
    }
    n
}

#[divan::bench(args = profiles())]
fn sanitize_corpus(b: Bencher, profile: &str) {
    let p = Profile::builtin(profile).expect("profile");
    b.bench_local(|| sanitize_all(&p));
}

#[divan::bench]
fn baseline_value_roundtrip_corpus(b: Bencher) {
    b.bench_local(value_roundtrip_all);
}

/// One pass of `which` (a profile's name, or `value` for the round trip) over the corpus.
#[inline(never)]
fn pass(which: &str) -> usize {
    match which {
        "value" => value_roundtrip_all(),
        name => sanitize_all(&Profile::builtin(name).expect("a built-in profile's name")),
    }
}

/// The measured pass (the warm-up is [`pass`] alone, outside the collected function).
#[inline(never)]
fn once(which: &str) -> usize {
    pass(which)
}

fn main() {
    if let Ok(which) = std::env::var("TS_BENCH_ONCE") {
        black_box(pass(&which));
        println!("one pass of {which}: {}", black_box(once(&which)));
        return;
    }
    if run_divan() {
        divan::Divan::default()
            .sample_count(10)
            .max_time(Duration::from_secs(2))
            .config_with_args()
            .main();
    }
    let n = schemas().len();
    let bytes: usize = schemas().iter().map(|(s, _)| s.len()).sum();
    println!(
        "\n== sanitize alone: {n} schemas, {} (MCP inputSchema/outputSchema + JSON-Schema-Test-Suite) ==",
        mb(bytes)
    );
    let mut lines = Vec::new();
    for name in profiles() {
        let p = Profile::builtin(name).expect("profile");
        let changed = sanitize_all(&p);
        let t = best_of(
            3,
            Duration::from_millis(300),
            &mut [
                &mut || {
                    black_box(sanitize_all(&p));
                },
                &mut || {
                    black_box(value_roundtrip_all());
                },
            ],
        );
        let secs = t[0].as_secs_f64();
        println!(
            "{name:>20}: {} per corpus, {:>9.0} schemas/s, {:>6.1} MB/s, {changed} changed | Value round trip {}: {:.2}x",
            fmt(t[0]),
            n as f64 / secs,
            bytes as f64 / secs / 1e6,
            fmt(t[1]),
            ratio(t[0], t[1]),
        );
        lines.push(format!(
            "RATIO sanitize_{name}_vs_value_roundtrip {:.3}",
            ratio(t[0], t[1])
        ));
    }
    for l in lines {
        println!("{l}");
    }
}
