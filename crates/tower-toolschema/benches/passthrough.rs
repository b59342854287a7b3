//! Benchmark 2, pass-through: requests the layer must not buffer or parse, through the real
//! `tower::Service` on a current-thread tokio runtime, against the bare inner service.
//!
//! - a 1 MB JSON body on a path that carries no tools (`/v1/embeddings`, `ToolSchemaLayer::auto`);
//! - a 1 MB non-JSON body (`application/octet-stream`) on a tool-carrying path.
//!
//! The inner service drains the body and copies it out, as a client writing it to a socket
//! would; the layer's overhead is also given in absolute nanoseconds (with an inner service that
//! only counts the bytes). The `RATIO` is the median of paired samples (one call of each, back to
//! back). Target ≤ 1.02×.
//! `cargo bench -p tower-toolschema --bench passthrough`.

mod common;

use std::hint::black_box;
use std::sync::OnceLock;
use std::time::Duration;

use bytes::Bytes;
use common::*;
use divan::Bencher;
use tower_layer::Layer;
use tower_toolschema::{ToolSchema, ToolSchemaLayer};

const CASES: [(&str, &str, &str); 2] = [
    ("json_no_tools_path", "/v1/embeddings", "application/json"),
    (
        "non_json",
        "/v1/chat/completions",
        "application/octet-stream",
    ),
];

fn body() -> Bytes {
    static B: OnceLock<Bytes> = OnceLock::new();
    B.get_or_init(|| {
        let tools = corpus_tools();
        let b = agent_body(&tools, 0, 1_000_000);
        assert!(b.len() >= 1_000_000);
        b
    })
    .clone()
}

fn layered() -> ToolSchema<Drain> {
    ToolSchemaLayer::auto().layer(Drain::COPY)
}

const ARGS: [&str; 2] = ["json_no_tools_path", "non_json"];

fn case(name: &str) -> (&'static str, &'static str) {
    let c = CASES.iter().find(|c| c.0 == name).expect("case");
    (c.1, c.2)
}

#[divan::bench(args = ARGS)]
fn layer(b: Bencher, name: &str) {
    let (path, ct) = case(name);
    let (rt, svc, body) = (runtime(), layered(), body());
    b.bench_local(|| call(&rt, &svc, request(path, ct, body.clone())));
}

#[divan::bench(args = ARGS)]
fn bare_inner(b: Bencher, name: &str) {
    let (path, ct) = case(name);
    let (rt, body) = (runtime(), body());
    b.bench_local(|| call(&rt, &Drain::COPY, request(path, ct, body.clone())));
}

fn main() {
    // `TS_BENCH_PROFILE=layer` or `bare`: 200 calls of the JSON case only, for a profiler.
    if let Ok(which) = std::env::var("TS_BENCH_PROFILE") {
        let (rt, body) = (runtime(), body());
        let svc = layered();
        for _ in 0..200 {
            let req = request("/v1/embeddings", "application/json", body.clone());
            if which == "layer" {
                black_box(call(&rt, &svc, req));
            } else {
                black_box(call(&rt, &Drain::COPY, req));
            }
        }
        return;
    }
    if run_divan() {
        divan::Divan::default()
            .max_time(Duration::from_secs(2))
            .config_with_args()
            .main();
    }
    let rt = runtime();
    let body = body();
    let svc = layered();
    let svc_count = ToolSchemaLayer::auto().layer(Drain::COUNT);
    let mut lines = Vec::new();
    println!("\n== pass-through: layer vs the bare inner service (drain + copy) ==");
    for (name, path, ct) in CASES {
        // Both services see the same request; the count inner service too, for the overhead.
        let t = best_of(
            7,
            Duration::from_millis(300),
            &mut [
                &mut || {
                    black_box(call(&rt, &svc, request(path, ct, body.clone())));
                },
                &mut || {
                    black_box(call(&rt, &Drain::COPY, request(path, ct, body.clone())));
                },
                &mut || {
                    black_box(call(&rt, &svc_count, request(path, ct, body.clone())));
                },
                &mut || {
                    black_box(call(&rt, &Drain::COUNT, request(path, ct, body.clone())));
                },
            ],
        );
        let paired = paired_ratio(
            4000,
            || {
                black_box(call(&rt, &svc, request(path, ct, body.clone())));
            },
            || {
                black_box(call(&rt, &Drain::COPY, request(path, ct, body.clone())));
            },
        );
        // The same service on both sides: the measurement's own bias (should be 1.0).
        let aa = paired_ratio(
            4000,
            || {
                black_box(call(&rt, &Drain::COPY, request(path, ct, body.clone())));
            },
            || {
                black_box(call(&rt, &Drain::COPY, request(path, ct, body.clone())));
            },
        );
        println!("{name}: A/A (bare vs bare, paired median): {aa:.4}x");
        println!(
            "{name}: {} body | layer {} vs bare {} (best medians: {:.4}x; paired median: {:.4}x) | with a count-only inner service: layer {} vs bare {} (overhead {:.0} ns)",
            mb(body.len()),
            fmt(t[0]),
            fmt(t[1]),
            ratio(t[0], t[1]),
            paired,
            fmt(t[2]),
            fmt(t[3]),
            (t[2].as_secs_f64() - t[3].as_secs_f64()) * 1e9,
        );
        lines.push(format!("RATIO passthrough_{name}_vs_bare {paired:.4}"));
    }
    for l in lines {
        println!("{l}");
    }
}
