//! Per schema, as `toolschema sanitize --ndjson` works: every corpus MCP tool's `inputSchema`
//! (compact JSON) through [`provider_rules::sanitize_into`] with one reused output buffer,
//! against a `serde_json::Value` round trip of the same bytes into a reused buffer.
//!
//! For each schema and method: the best of 3 rounds of `TS_BENCH_REPS` (default 20) back-to-back
//! calls, the two methods interleaved round by round; the figure is the median over the schemas
//! (the method of `crates/toolschema-py/bench/compare.py`, which times the Python peers).
//! `cargo bench -p provider-rules --bench per_schema` prints the medians and `RATIO` lines;
//! `TS_BENCH_PROFILE=NAME` runs one profile (any built-in one), `TS_BENCH_REPS=N` sets the calls per round,
//! `TS_BENCH_UNCHANGED=1` times only the schemas that need no change for the profile (for a
//! profiler: `sanitize_into` then runs on those only).
//!
//! A second `RATIO` line per profile takes the median over the schemas that need no change
//! for that profile only (parse and check, nothing rewritten, nothing written). The
//! `slice` lines time [`provider_rules::sanitize_slice`] on the same schemas (the whole
//! result: what the service layer, the CLI's slots and the Python package call), interleaved
//! with the other two.

use provider_rules::{Rules, Slot, profile, sanitize_into};
use std::hint::black_box;
use std::time::Instant;

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/corpus/mcp");

fn corpus_schemas() -> Vec<Vec<u8>> {
    let mut files: Vec<_> = std::fs::read_dir(CORPUS)
        .expect("corpus dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let doc: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&f).expect("read")).expect("corpus json");
        for t in doc["tools"].as_array().into_iter().flatten() {
            if let Some(s) = t.get("inputSchema") {
                out.push(serde_json::to_vec(s).expect("json"));
            }
        }
    }
    out
}

/// Nanoseconds per call of each `f`: the best of 3 rounds of `reps` calls.
fn per_call<const N: usize>(reps: u32, mut rounds: [&mut dyn FnMut(); N]) -> [f64; N] {
    let mut best = [f64::INFINITY; N];
    for _ in 0..3 {
        for (i, f) in rounds.iter_mut().enumerate() {
            let t = Instant::now();
            for _ in 0..reps {
                f();
            }
            best[i] = best[i].min(t.elapsed().as_nanos() as f64 / f64::from(reps));
        }
    }
    best
}

fn mb_of(v: &[f64]) -> f64 {
    median(v.to_vec())
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let reps: u32 = std::env::var("TS_BENCH_REPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let schemas = corpus_schemas();
    let bytes: usize = schemas.iter().map(Vec::len).sum();
    let sizes = median(schemas.iter().map(|s| s.len() as f64).collect());
    println!(
        "\n== per schema: {} corpus MCP inputSchemas, {bytes} bytes (median {sizes} bytes), best of 3 x {reps} calls each ==",
        schemas.len()
    );
    let mut lines = Vec::new();
    // `TS_BENCH_PROFILE=gemini`: that profile only, any built-in one (for a profiler, or a
    // profile not benched by default: `groq-strict`).
    let only = std::env::var("TS_BENCH_PROFILE").ok();
    let names: Vec<&str> = match only.as_deref() {
        Some(o) => vec![o],
        None => vec!["gemini", "vertex", "openai-strict", "openai", "anthropic"],
    };
    for name in names {
        let rules: &Rules = profile(name).expect("built-in profile");
        let mut ours = Vec::new();
        let mut base = Vec::new();
        // The same figures for the schemas this profile leaves as they are.
        let mut same = Vec::new();
        let mut same_base = Vec::new();
        let (mut slice, mut same_slice) = (Vec::new(), Vec::new());
        let mut out = String::new();
        let mut vbuf = Vec::new();
        let unchanged_only = std::env::var_os("TS_BENCH_UNCHANGED").is_some_and(|v| v == "1");
        let chosen: Vec<&Vec<u8>> = schemas
            .iter()
            // Chosen by the report (not by `sanitize_into`, which a profiler counts).
            .filter(|s| {
                !unchanged_only
                    || provider_rules::sanitize_slice(s, rules, Slot::Parameters)
                        .is_ok_and(|d| d.report.is_empty())
            })
            .collect();
        for s in chosen {
            let [a, b, c] = per_call(
                reps,
                [
                    &mut || {
                        let _ = black_box(sanitize_into(
                            black_box(s),
                            rules,
                            Slot::Parameters,
                            &mut out,
                        ));
                    },
                    &mut || {
                        let v: serde_json::Value =
                            serde_json::from_slice(black_box(s)).expect("json");
                        vbuf.clear();
                        serde_json::to_writer(&mut vbuf, &v).expect("json");
                        black_box(&vbuf);
                    },
                    &mut || {
                        let _ = black_box(provider_rules::sanitize_slice(
                            black_box(s),
                            rules,
                            Slot::Parameters,
                        ));
                    },
                ],
            );
            ours.push(a);
            base.push(b);
            slice.push(c);
            if matches!(
                sanitize_into(s, rules, Slot::Parameters, &mut out),
                Ok(false)
            ) {
                same.push(a);
                same_base.push(b);
                same_slice.push(c);
            }
        }
        let unchanged = same.len();
        let ms = median(slice) / mb_of(&base);
        let (m, mb) = (median(ours), median(base));
        println!(
            "{name:>14}: median {:.2} µs per schema | Value round trip {:.2} µs: {:.2}x | target 3 µs: {:.2}x",
            m / 1e3,
            mb / 1e3,
            m / mb,
            m / 3e3
        );
        lines.push(format!(
            "RATIO per_schema_{name}_median_vs_value_roundtrip {:.3}",
            m / mb
        ));
        lines.push(format!(
            "RATIO per_schema_{name}_median_vs_3us {:.3}",
            m / 3e3
        ));
        lines.push(format!(
            "RATIO per_schema_{name}_slice_median_vs_value_roundtrip {ms:.3}"
        ));
        if unchanged > 0 {
            let (u, ub) = (median(same), median(same_base));
            println!(
                "{name:>14}: {unchanged} schemas need no change: median {:.2} µs | Value round trip {:.2} µs: {:.2}x | target 1.1x",
                u / 1e3,
                ub / 1e3,
                u / ub
            );
            lines.push(format!(
                "RATIO per_schema_{name}_unchanged_median_vs_value_roundtrip {:.3}",
                u / ub
            ));
            lines.push(format!(
                "RATIO per_schema_{name}_slice_unchanged_median_vs_value_roundtrip {:.3}",
                median(same_slice) / ub
            ));
        }
    }
    for l in lines {
        println!("{l}");
    }
}
