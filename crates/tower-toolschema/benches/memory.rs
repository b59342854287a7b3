//! Benchmark 5, memory: the peak of live heap bytes while the layer handles a 10 MB body with
//! 500 tools (cold: every tool sanitized; warm: cache hits; cold with the body arriving in
//! 16 KiB frames, which the layer must gather into one buffer), measured with a counting global
//! allocator, against the body's size (target: body + the layer's peak ≤ 3× the body) and
//! against a `serde_json::Value` round trip of the same body.
//! `cargo bench -p tower-toolschema --bench memory`.
// The counting allocator needs `unsafe impl GlobalAlloc`; the rest of this file is safe code.
#![allow(unsafe_code)]

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use bytes::Bytes;
use common::*;
use divan::Bencher;
use tower_layer::Layer;
use tower_toolschema::{CacheConfig, ToolSchema, ToolSchemaLayer};

/// Live heap bytes, and the highest value since the last [`reset_peak`].
static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn add(n: usize) {
    let now = CURRENT.fetch_add(n, Ordering::Relaxed) + n;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

fn sub(n: usize) {
    CURRENT.fetch_sub(n, Ordering::Relaxed);
}

fn reset_peak() -> usize {
    let now = CURRENT.load(Ordering::Relaxed);
    PEAK.store(now, Ordering::Relaxed);
    now
}

/// The system allocator, counting bytes.
struct Counting;

// SAFETY: every method forwards its arguments unchanged to `System`, which upholds the
// `GlobalAlloc` contract; the only addition is updating two atomic counters, which neither
// allocates nor touches the memory handed out.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc` is passed on as is.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            add(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            add(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` and `layout` come from this allocator, i.e. from `System`.
        unsafe { System.dealloc(ptr, layout) };
        sub(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as for `dealloc`; `new_size` is passed on as is.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            // Counted as both blocks alive for a moment, as a moving realloc is.
            add(new_size);
            sub(layout.size());
        }
        p
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

const PATH: &str = "/v1/chat/completions";
const JSON: &str = "application/json";

fn body() -> Bytes {
    static B: OnceLock<Bytes> = OnceLock::new();
    B.get_or_init(|| agent_body(&corpus_tools(), 500, 10_000_000))
        .clone()
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

#[divan::bench]
fn cold_10mb_500_tools(b: Bencher) {
    let (rt, svc, body) = (runtime(), service(false), body());
    b.bench_local(|| call(&rt, &svc, request(PATH, JSON, body.clone())));
}

/// The peak of live bytes above those live before `f` ran.
fn peak_of(f: impl FnOnce()) -> usize {
    let before = reset_peak();
    f();
    PEAK.load(Ordering::Relaxed).saturating_sub(before)
}

fn main() {
    if run_divan() {
        divan::Divan::default()
            .sample_count(10)
            .max_time(Duration::from_secs(2))
            .config_with_args()
            .main();
    }
    let rt = runtime();
    let body = body();
    let n = body.len();
    let (cold, warm) = (service(false), service(true));
    call(&rt, &warm, request(PATH, JSON, body.clone()));
    let cold_peak = peak_of(|| {
        black_box(call(&rt, &cold, request(PATH, JSON, body.clone())));
    });
    let warm_peak = peak_of(|| {
        black_box(call(&rt, &warm, request(PATH, JSON, body.clone())));
    });
    let chunked_peak = peak_of(|| {
        black_box(call(&rt, &cold, chunked_request(PATH, JSON, &body)));
    });
    let value_peak = peak_of(|| {
        let v: serde_json::Value = serde_json::from_slice(&body).expect("json");
        black_box(serde_json::to_vec(&v).expect("json"));
    });
    let x = |peak: usize| (n + peak) as f64 / n as f64;
    println!(
        "\n== memory: peak live heap, 500 tools + 10 MB body ({}) ==",
        mb(n)
    );
    println!(
        "layer cold: +{} above the body: body + peak = {:.3}x the body",
        mb(cold_peak),
        x(cold_peak)
    );
    println!(
        "layer warm: +{} above the body: body + peak = {:.3}x the body",
        mb(warm_peak),
        x(warm_peak)
    );
    println!(
        "layer cold, body in 16 KiB frames (gathered into one buffer to be scanned): +{} above the body: body + peak = {:.3}x the body",
        mb(chunked_peak),
        x(chunked_peak)
    );
    println!(
        "Value round trip: +{} above the body: body + peak = {:.3}x the body",
        mb(value_peak),
        x(value_peak)
    );
    println!("RATIO memory_cold_peak_vs_body {:.3}", x(cold_peak));
    println!("RATIO memory_warm_peak_vs_body {:.3}", x(warm_peak));
    println!(
        "RATIO memory_cold_chunked_peak_vs_body {:.3}",
        x(chunked_peak)
    );
    println!(
        "RATIO memory_cold_peak_vs_value_roundtrip_peak {:.3}",
        cold_peak as f64 / value_peak as f64
    );
}
