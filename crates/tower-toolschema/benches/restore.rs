//! The way back: a 2 MB streamed (SSE) OpenAI Chat response with 50 tool calls, through the
//! layer, against the bare upstream service; the client reads the whole body.
//!
//! - `nothing`: the request's 50 tools have valid names and no strict tool: nothing to
//!   restore, the body passes untouched (target ≤ 1.05×);
//! - `all`: every tool is renamed (a dot in its name) and strict with optional properties: every
//!   call's name is mapped back and its fragments held and decoded (target ≤ 1.5×).
//!
//! The `RATIO` is the median of paired samples (one call of each, back to back): the whole
//! layer (request side, call, response side) against the bare upstream, as the issue asks.
//! Beside it, `response side alone`: the same frames read through the layer's response body
//! with the request's plan (built once, outside the timing) against the bare frames, and the
//! medians of both whole exchanges, so the request side's share can be read off.
//! `cargo bench -p tower-toolschema --bench restore` (`TS_BENCH_RATIOS_ONLY=1`: the ratios
//! only; `TS_BENCH_RESTORE_CASE=nothing` or `all`: one case).
//!
//! First, the `FLOOR` lines: the cheapest exact passes over the 2 MB that a restorer of every
//! call must make (whatever it does, it reads each byte once to know whether a call is in it),
//! timed against the bare exchange in the same run. A pass that alone costs half the bare
//! exchange leaves nothing of the `all` target's 1.5× for the calls.

mod common;

use std::convert::Infallible;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use common::sse::*;
use common::*;
use divan::Bencher;
use http::Request;
use http_body::Body;
use http_body_util::{BodyExt, Full};
use tower::ServiceExt;
use tower_layer::Layer;
use tower_toolschema::ToolSchemaLayer;
use tower_toolschema::restore::{RestorePlan, prepare_request};
use tower_toolschema::shapes::Api;

/// The stream, about 2 MB: text deltas around 50 calls (under the names the layer sends: `_`
/// for `.`), each call's arguments in three fragments with strict nulls.
fn stream() -> Bytes {
    let mut s = String::with_capacity(SIZE + 4096);
    let text = chunk(r#"{"content":"lorem ipsum dolor sit amet, consectetur adipiscing elit "}"#);
    let per_call = SIZE / CALLS;
    for i in 0..CALLS {
        let start = s.len();
        while s.len() - start < per_call {
            s.push_str(&text);
        }
        s.push_str(&chunk(&format!(
            r#"{{"tool_calls":[{{"index":{i},"id":"call_{i}","type":"function","function":{{"name":"srv_tool_{i}","arguments":""}}}}]}}"#
        )));
        for frag in [
            r#"{\"q\":\"rust\","#,
            r#"\"cursor\":null,"#,
            r#"\"limit\":null}"#,
        ] {
            s.push_str(&chunk(&format!(
                r#"{{"tool_calls":[{{"index":{i},"function":{{"arguments":"{frag}"}}}}]}}"#
            )));
        }
    }
    s.push_str(&chunk("{}").replace("\"finish_reason\":null", "\"finish_reason\":\"tool_calls\""));
    s.push_str("data: [DONE]\n\n");
    Bytes::from(s)
}

/// The upstream: reads the request, answers the stream in frames of 16 KiB (slices, no copy).
#[derive(Clone)]
struct Upstream(Bytes);

impl<B> tower::Service<Request<B>> for Upstream
where
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: std::fmt::Debug,
{
    type Response = http::Response<Chunked>;
    type Error = Infallible;
    type Future =
        std::pin::Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(
        &mut self,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Infallible>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: Request<B>) -> Self::Future {
        let stream = self.0.clone();
        Box::pin(async move {
            let _ = req.into_body().collect().await.expect("request body");
            Ok(http::Response::builder()
                .header("content-type", "text/event-stream")
                .body(Chunked::new(&stream, 16 << 10))
                .expect("response"))
        })
    }
}

fn req(body: &Bytes) -> Request<Full<Bytes>> {
    Request::post("/v1/chat/completions")
        .header("content-type", "application/json")
        .body(Full::new(body.clone()))
        .expect("request")
}

/// One exchange through `svc`; the client reads every frame and copies it out (as it would to
/// a socket or a parser: a per-byte cost both sides share). Returns the bytes read.
fn exchange<S, RB>(rt: &tokio::runtime::Runtime, svc: &S, body: &Bytes) -> usize
where
    S: tower::Service<Request<Full<Bytes>>, Response = http::Response<RB>> + Clone,
    S::Error: std::fmt::Debug,
    RB: Body<Data = Bytes>,
    RB::Error: std::fmt::Debug,
{
    let res = rt
        .block_on(svc.clone().oneshot(req(body)))
        .expect("service");
    drain(rt, res.into_body())
}

#[divan::bench(args = [false, true])]
fn layer(b: Bencher, all: bool) {
    let (rt, up, body) = (runtime(), Upstream(stream()), request_body(all));
    let svc = ToolSchemaLayer::openai().layer(up);
    b.bench_local(|| exchange(&rt, &svc, &body));
}

#[divan::bench]
fn bare(b: Bencher) {
    let (rt, up, body) = (runtime(), Upstream(stream()), request_body(false));
    b.bench_local(|| exchange(&rt, &up, &body));
}

/// [`main`]'s `TS_BENCH_RESTORE_PROFILE` runs: `n` of each, after one warm-up of each.
fn profile_runs<S, RB>(rt: &tokio::runtime::Runtime, svc: &S, up: &Upstream, body: &Bytes, n: usize)
where
    S: tower::Service<Request<Full<Bytes>>, Response = http::Response<RB>> + Clone,
    S::Error: std::fmt::Debug,
    RB: Body<Data = Bytes>,
    RB::Error: std::fmt::Debug,
{
    #[inline(never)]
    fn profile_layer<S, RB>(rt: &tokio::runtime::Runtime, svc: &S, body: &Bytes, n: usize)
    where
        S: tower::Service<Request<Full<Bytes>>, Response = http::Response<RB>> + Clone,
        S::Error: std::fmt::Debug,
        RB: Body<Data = Bytes>,
        RB::Error: std::fmt::Debug,
    {
        for _ in 0..n {
            black_box(exchange(rt, svc, body));
        }
    }
    #[inline(never)]
    fn profile_response(
        rt: &tokio::runtime::Runtime,
        stream: &Bytes,
        plan: &Arc<RestorePlan>,
        n: usize,
    ) {
        for _ in 0..n {
            black_box(response_only(rt, stream, Some(plan)));
        }
    }
    #[inline(never)]
    fn profile_bare(rt: &tokio::runtime::Runtime, up: &Upstream, body: &Bytes, n: usize) {
        for _ in 0..n {
            black_box(exchange(rt, up, body));
        }
    }
    let (_, _, plan) = prepare_request(
        ToolSchemaLayer::openai().config(),
        Some(Api::OpenAiChat),
        body.clone(),
    );
    let plan = Arc::new(plan);
    black_box(exchange(rt, svc, body));
    black_box(response_only(rt, &up.0, Some(&plan)));
    black_box(exchange(rt, up, body));
    profile_layer(rt, svc, body, n);
    profile_response(rt, &up.0, &plan, n);
    profile_bare(rt, up, body, n);
}

/// A search of a frame: where its first hit is.
type Find<'a> = &'a dyn Fn(&[u8]) -> Option<usize>;

/// One pass over every frame: the number of hits of `find` (each search resumes after a hit).
fn pass(frames: &[Bytes], find: Find<'_>) -> usize {
    let mut hits = 0;
    for f in frames {
        let mut at = 0;
        while let Some(k) = f.get(at..).and_then(find) {
            hits += 1;
            at += k + 1;
        }
    }
    black_box(hits)
}

/// The `FLOOR` lines: each exact pass over the frames against the bare exchange (paired median
/// ratio, and both medians).
fn floors(rt: &tokio::runtime::Runtime, up: &Upstream) {
    let frames = frames(&up.0);
    let body = request_body(false);
    let call = memchr::memmem::Finder::new("_call");
    let passes: [(&str, Find<'_>); 3] = [
        // A byte no event has: one load and compare of every byte, no hit.
        ("a byte no event has (memchr 0x01)", &|b| {
            memchr::memchr(1, b)
        }),
        // Every line end: what reading each event's frame needs.
        ("every line end (memchr \\n)", &|b| memchr::memchr(b'\n', b)),
        // The keyword scan's anchor, as the triage searches it.
        ("the keyword anchor (memmem _call)", &|b| call.find(b)),
    ];
    for (name, find) in passes {
        let r = paired_ratio(
            60,
            || {
                pass(&frames, find);
            },
            || {
                black_box(exchange(rt, up, &body));
            },
        );
        let times = best_of(
            3,
            Duration::from_millis(200),
            &mut [
                &mut || {
                    pass(&frames, find);
                },
                &mut || {
                    black_box(exchange(rt, up, &body));
                },
            ],
        );
        println!(
            "FLOOR scan, {name}: {r:.3}x of the bare exchange ({} vs {}): bare + it = {:.3}x",
            fmt(times[0]),
            fmt(times[1]),
            1.0 + r
        );
    }
}

fn main() {
    if run_divan() {
        divan::Divan::default()
            .max_time(Duration::from_secs(2))
            .config_with_args()
            .main();
    }
    let rt = runtime();
    let up = Upstream(stream());
    let size = up.0.len();
    println!(
        "\n== the way back: a {} SSE response with {CALLS} tool calls, layer vs bare ==",
        mb(size)
    );
    // `TS_BENCH_RESTORE_CASE=nothing` (or `all`) measures one case only (to profile it).
    let only = std::env::var("TS_BENCH_RESTORE_CASE").ok();
    // `TS_BENCH_RESTORE_PROFILE=N`: no timing, N exchanges through the layer, N of the response
    // side alone and N bare, each kind its own function (for an instruction profiler: a
    // function's inclusive cost over N is the cost of one).
    let profile = std::env::var("TS_BENCH_RESTORE_PROFILE")
        .ok()
        .and_then(|n| n.parse::<usize>().ok());
    if profile.is_none() {
        floors(&rt, &up);
    }
    for (name, all, target) in [("nothing", false, 1.05), ("all", true, 1.5)] {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let body = request_body(all);
        let svc = ToolSchemaLayer::openai().layer(up.clone());
        if let Some(n) = profile {
            profile_runs(&rt, &svc, &up, &body, n);
            continue;
        }
        // Sanity: the restored stream is not the upstream's when there is something to restore.
        let restored = exchange(&rt, &svc, &body);
        let bare = exchange(&rt, &up, &body);
        assert!(
            all != (restored == bare),
            "{name}: restored {restored} vs bare {bare} bytes"
        );
        let r = paired_ratio(
            60,
            || {
                black_box(exchange(&rt, &svc, &body));
            },
            || {
                black_box(exchange(&rt, &up, &body));
            },
        );
        println!("RATIO restore_{name}: {r:.3}x (target <= {target}x)");
        let times = best_of(
            3,
            Duration::from_millis(300),
            &mut [
                &mut || {
                    black_box(exchange(&rt, &svc, &body));
                },
                &mut || {
                    black_box(exchange(&rt, &up, &body));
                },
            ],
        );
        println!(
            "  medians: layer {}, bare {} (the request side and the response side together: {})",
            fmt(times[0]),
            fmt(times[1]),
            fmt(times[0].saturating_sub(times[1]))
        );
        // The response side alone: the plan the request side made, the same frames.
        let (_, _, plan) = prepare_request(
            ToolSchemaLayer::openai().config(),
            Some(Api::OpenAiChat),
            body.clone(),
        );
        let plan = Arc::new(plan);
        let r = paired_ratio(
            60,
            || {
                black_box(response_only(&rt, &up.0, Some(&plan)));
            },
            || {
                black_box(response_only(&rt, &up.0, None));
            },
        );
        println!("  response side alone: {r:.3}x (the layer's response body vs the bare frames)");
    }
}
