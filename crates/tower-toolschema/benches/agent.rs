//! Benchmark 1, the agent request: an OpenAI Chat body (corpus tools plus a conversation of
//! agent turns whose tool calls and results hold keyword-like keys) through the real
//! `tower::Service` (the layer around an inner service that drains the body), on a
//! current-thread tokio runtime.
//!
//! - cold (cache off) against (a) `serde_json::from_slice::<Value>` + `to_vec` of the same body;
//! - warm (every slot a cache hit) against (b) `serde_json::from_slice::<IgnoredAny>`.
//!
//! Targets: cold ≤ 1.0× (a) at 200 KB and ≤ 0.3× (a) at 20 MB; warm ≤ 1.5× (b).
//! `cargo bench -p tower-toolschema --bench agent` (divan's table, then the `RATIO` lines;
//! `TS_BENCH_RATIOS_ONLY=1` skips divan).

mod common;

use std::hint::black_box;
use std::sync::OnceLock;
use std::time::Duration;

use bytes::Bytes;
use common::*;
use divan::Bencher;
use serde::de::IgnoredAny;
use tower_layer::Layer;
use tower_toolschema::{CacheConfig, ToolSchema, ToolSchemaLayer};

const CASES: [(&str, usize, usize); 3] = [
    ("200k", 100, 200_000),
    ("2m", 100, 2_000_000),
    ("20m", 500, 20_000_000),
];
const PATH: &str = "/v1/chat/completions";
const JSON: &str = "application/json";

fn body(case: &str) -> Bytes {
    static TOOLS: OnceLock<Vec<Tool>> = OnceLock::new();
    static B: [OnceLock<Bytes>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let i = CASES.iter().position(|c| c.0 == case).expect("case");
    B[i].get_or_init(|| {
        let (_, n, conv) = CASES[i];
        agent_body(TOOLS.get_or_init(corpus_tools), n, conv)
    })
    .clone()
}

/// The layer under test: OpenAI profiles, a limit above the largest body.
fn layer(cache: bool) -> ToolSchemaLayer {
    let l = ToolSchemaLayer::openai().limit(64 << 20);
    if cache {
        l
    } else {
        l.cache(CacheConfig::disabled())
    }
}

fn service(cache: bool) -> ToolSchema<Drain> {
    layer(cache).layer(Drain::COUNT)
}

fn value_roundtrip(body: &[u8]) -> usize {
    let v: serde_json::Value = serde_json::from_slice(body).expect("json");
    serde_json::to_vec(&v).expect("json").len()
}

fn ignored_any(body: &[u8]) {
    serde_json::from_slice::<IgnoredAny>(body).expect("json");
}

const ARGS: [&str; 3] = ["200k", "2m", "20m"];

#[divan::bench(args = ARGS)]
fn cold_layer(b: Bencher, case: &str) {
    let (rt, svc, body) = (runtime(), service(false), body(case));
    b.bench_local(|| call(&rt, &svc, request(PATH, JSON, body.clone())));
}

#[divan::bench(args = ARGS)]
fn warm_layer(b: Bencher, case: &str) {
    let (rt, svc, body) = (runtime(), service(true), body(case));
    call(&rt, &svc, request(PATH, JSON, body.clone()));
    b.bench_local(|| call(&rt, &svc, request(PATH, JSON, body.clone())));
}

#[divan::bench(args = ARGS)]
fn baseline_a_value_roundtrip(b: Bencher, case: &str) {
    let body = body(case);
    b.bench_local(|| value_roundtrip(black_box(&body)));
}

#[divan::bench(args = ARGS)]
fn baseline_b_ignored_any(b: Bencher, case: &str) {
    let body = body(case);
    b.bench_local(|| ignored_any(black_box(&body)));
}

fn main() {
    // `TS_BENCH_WRITE_BODY=20m:/tmp/body.json`: write that case's body to a file and exit (for
    // `scripts/bench_cli.sh`).
    if let Ok(spec) = std::env::var("TS_BENCH_WRITE_BODY") {
        let (case, path) = spec.split_once(':').expect("case:path");
        std::fs::write(path, body(case)).expect("write body");
        return;
    }
    // `TS_BENCH_PROFILE=cold:200k` (or `warm:20m`, ...): run that case only, for a profiler.
    if let Ok(spec) = std::env::var("TS_BENCH_PROFILE") {
        let (mode, case) = spec.split_once(':').expect("mode:case");
        let (rt, svc, body) = (runtime(), service(mode == "warm"), body(case));
        call(&rt, &svc, request(PATH, JSON, body.clone()));
        for _ in 0..10 {
            black_box(call(&rt, &svc, request(PATH, JSON, body.clone())));
        }
        return;
    }
    if run_divan() {
        divan::Divan::default()
            .sample_count(10)
            .max_time(Duration::from_secs(2))
            .config_with_args()
            .main();
    }
    ratios();
}

fn ratios() {
    let rt = runtime();
    let mut lines = Vec::new();
    println!(
        "\n== agent request: the layer (tower::Service, current-thread tokio) vs baselines =="
    );
    for (case, n_tools, _) in CASES {
        let body = body(case);
        let (cold, warm) = (service(false), service(true));
        // Warm the cache (and check the layer rewrites this body).
        let out = call(&rt, &warm, request(PATH, JSON, body.clone()));
        let budget = Duration::from_millis(if body.len() > 10_000_000 { 1500 } else { 400 });
        let t = best_of(
            5,
            budget,
            &mut [
                &mut || {
                    black_box(call(&rt, &cold, request(PATH, JSON, body.clone())));
                },
                &mut || {
                    black_box(value_roundtrip(black_box(&body)));
                },
                &mut || {
                    black_box(call(&rt, &warm, request(PATH, JSON, body.clone())));
                },
                &mut || ignored_any(black_box(&body)),
            ],
        );
        let (cold_t, a, warm_t, b) = (t[0], t[1], t[2], t[3]);
        println!(
            "{case}: {} body, {n_tools} tools, {} out | cold {} vs (a) Value round trip {}: {:.3}x | warm {} vs (b) IgnoredAny {}: {:.3}x",
            mb(body.len()),
            mb(out),
            fmt(cold_t),
            fmt(a),
            ratio(cold_t, a),
            fmt(warm_t),
            fmt(b),
            ratio(warm_t, b),
        );
        lines.push(format!(
            "RATIO agent_cold_{case}_vs_value_roundtrip {:.3}",
            ratio(cold_t, a)
        ));
        lines.push(format!(
            "RATIO agent_warm_{case}_vs_ignored_any {:.3}",
            ratio(warm_t, b)
        ));
    }
    for l in lines {
        println!("{l}");
    }
}
