//! Benchmark 4, scaling: the cost per byte must stay flat.
//!
//! - body size: 1 corpus tool plus 1 KB … 10 MB of conversation, warm and cold;
//! - tool count: 1 … 500 tools (a fixed mix of ten corpus tools, cycled) plus 1 KB of
//!   conversation, cold (every tool sanitized).
//!
//! Through the real `tower::Service` (current-thread tokio). For each series: a least-squares
//! fit time = a + b·bytes, the largest relative residual, and the ratio of the cost per byte at
//! the largest size to that at a mid size (1.0 = linear; a superlinear term shows as > 1).
//! `cargo bench -p tower-toolschema --bench scaling`.

mod common;

use std::hint::black_box;
use std::sync::OnceLock;
use std::time::Duration;

use bytes::Bytes;
use common::*;
use divan::Bencher;
use tower_layer::Layer;
use tower_toolschema::{CacheConfig, ToolSchema, ToolSchemaLayer};

const PATH: &str = "/v1/chat/completions";
const JSON: &str = "application/json";
const SIZES: [usize; 5] = [1_000, 10_000, 100_000, 1_000_000, 10_000_000];
const TOOLS: [usize; 5] = [1, 10, 50, 100, 500];

fn tools() -> &'static Vec<Tool> {
    static T: OnceLock<Vec<Tool>> = OnceLock::new();
    T.get_or_init(corpus_tools)
}

/// Ten tools spread over the corpus (every 74th), cycled to make the tool-count series: the
/// same mix at every count, so the cost per byte compares like with like.
fn mix() -> &'static Vec<Tool> {
    static T: OnceLock<Vec<Tool>> = OnceLock::new();
    T.get_or_init(|| corpus_tools().into_iter().step_by(74).take(10).collect())
}

fn service(cache: bool) -> ToolSchema<Drain> {
    let l = ToolSchemaLayer::openai().limit(64 << 20);
    let l = if cache {
        l
    } else {
        l.cache(CacheConfig::disabled())
    };
    l.layer(Drain::COUNT)
}

#[divan::bench(args = SIZES)]
fn warm_by_body_size(b: Bencher, size: usize) {
    let (rt, svc, body) = (runtime(), service(true), agent_body(tools(), 1, size));
    b.bench_local(|| call(&rt, &svc, request(PATH, JSON, body.clone())));
}

#[divan::bench(args = TOOLS)]
fn cold_by_tool_count(b: Bencher, n: usize) {
    let (rt, svc, body) = (runtime(), service(false), agent_body(mix(), n, 1_000));
    b.bench_local(|| call(&rt, &svc, request(PATH, JSON, body.clone())));
}

/// Times one request per body; returns (bytes, seconds).
fn series(bodies: &[Bytes], cache: bool) -> Vec<(f64, f64)> {
    let rt = runtime();
    let svc = service(cache);
    bodies
        .iter()
        .map(|body| {
            let budget = Duration::from_millis(if body.len() > 5_000_000 { 1500 } else { 300 });
            let t = best_of(
                3,
                budget,
                &mut [&mut || {
                    black_box(call(&rt, &svc, request(PATH, JSON, body.clone())));
                }],
            );
            (body.len() as f64, t[0].as_secs_f64())
        })
        .collect()
}

/// Least squares on logarithms: t = c·x^k; returns k (1 = linear, > 1 superlinear).
fn exponent(points: &[(f64, f64)]) -> f64 {
    let logs: Vec<(f64, f64)> = points.iter().map(|(x, t)| (x.ln(), t.ln())).collect();
    fit(&logs).1
}

/// Least squares t = a + b·x; returns (a, b, largest |residual| / t).
fn fit(points: &[(f64, f64)]) -> (f64, f64, f64) {
    let n = points.len() as f64;
    let (sx, sy) = points
        .iter()
        .fold((0.0, 0.0), |(sx, sy), (x, y)| (sx + x, sy + y));
    let (mx, my) = (sx / n, sy / n);
    let sxy: f64 = points.iter().map(|(x, y)| (x - mx) * (y - my)).sum();
    let sxx: f64 = points.iter().map(|(x, _)| (x - mx) * (x - mx)).sum();
    let b = sxy / sxx;
    let a = my - b * mx;
    let worst = points
        .iter()
        .map(|(x, y)| ((a + b * x) - y).abs() / y)
        .fold(0.0, f64::max);
    (a, b, worst)
}

fn report(name: &str, what: &str, points: &[(f64, f64)], mid: usize, lines: &mut Vec<String>) {
    for (x, t) in points {
        println!(
            "{name}: {:>10.0} bytes  {:>12}  {:>8.2} ns/byte",
            x,
            fmt(Duration::from_secs_f64(*t)),
            t / x * 1e9
        );
    }
    let (a, b, worst) = fit(points);
    let last = points[points.len() - 1];
    let per_byte = |(x, t): (f64, f64)| t / x;
    let r = per_byte(last) / per_byte(points[mid]);
    // The fixed cost dominates the smallest sizes: the exponent is fitted from the mid size on.
    let k = exponent(&points[mid..]);
    println!(
        "{name}: fit t = {:.1} µs + {:.3} ns/byte · bytes (largest residual {:.1}% of t); t ∝ bytes^{k:.3} from {} bytes on; per-byte cost at {} / at {} bytes: {r:.3}",
        a * 1e6,
        b * 1e9,
        worst * 100.0,
        points[mid].0 as usize,
        what,
        points[mid].0 as usize,
    );
    lines.push(format!("RATIO {name}_per_byte_largest_vs_mid {r:.3}"));
}

fn main() {
    if run_divan() {
        divan::Divan::default()
            .sample_count(10)
            .max_time(Duration::from_secs(2))
            .config_with_args()
            .main();
    }
    let mut lines = Vec::new();
    println!("\n== scaling: cost per byte (tower::Service, current-thread tokio) ==");
    let by_size: Vec<Bytes> = SIZES.iter().map(|s| agent_body(tools(), 1, *s)).collect();
    report(
        "scaling_body_warm",
        "10 MB",
        &series(&by_size, true),
        2,
        &mut lines,
    );
    report(
        "scaling_body_cold",
        "10 MB",
        &series(&by_size, false),
        2,
        &mut lines,
    );
    let by_tools: Vec<Bytes> = TOOLS.iter().map(|n| agent_body(mix(), *n, 1_000)).collect();
    report(
        "scaling_tools_cold",
        "500 tools",
        &series(&by_tools, false),
        2,
        &mut lines,
    );
    for l in lines {
        println!("{l}");
    }
}
