//! The floors of the way back's `all` case (`benches/restore.rs`), measured the honest way:
//! each pass over the frames made in the same loop as the client's copy of them, against that
//! copy alone (a scan right before the copy brings a 16 KiB frame into the cache the copy then
//! reads it from, which a pass timed apart does not show); and the layer's response side of
//! `all` over a stream of text alone (no call): the scan and the framing, without the calls.
//!
//! `cargo bench -p tower-toolschema --bench restore_floor` prints `FLOOR` lines (paired medians
//! in one run, as `restore`'s); `TS_BENCH_RESTORE_PROFILE=N`: no timing, N readings of the text
//! stream through the response side of `all`, then N of its bare frames, each its own function
//! (for an instruction profiler).
//!
//! The stream and the request are `restore`'s, built here again: that bench's file is left as
//! it is, since its binary's code layout alone moves its `nothing` ratio by ~9 % (measured).

mod common;

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use common::sse::*;
use common::*;
use tower_toolschema::ToolSchemaLayer;
use tower_toolschema::restore::{RestorePlan, prepare_request};
use tower_toolschema::shapes::Api;

/// `restore`'s text events, about 2 MB of them, without a call, then the end.
fn text_stream() -> Bytes {
    let mut s = String::with_capacity(SIZE + 4096);
    let text = chunk(r#"{"content":"lorem ipsum dolor sit amet, consectetur adipiscing elit "}"#);
    while s.len() < SIZE {
        s.push_str(&text);
    }
    s.push_str(&chunk("{}").replace("\"finish_reason\":null", "\"finish_reason\":\"stop\""));
    s.push_str("data: [DONE]\n\n");
    Bytes::from(s)
}

/// A search of a frame: where its first hit is.
type Find<'a> = &'a dyn Fn(&[u8]) -> Option<usize>;

/// The frames copied out as the client copies them, each first scanned by `find` in the same
/// loop (`None`: the copy alone). Each frame is a `Bytes` of its own, made before and dropped
/// after its copy, as the upstream's are.
#[inline(never)]
fn copy_pass(frames: &[Bytes], find: Option<Find<'_>>) -> usize {
    thread_local! {
        static SINK: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    SINK.with_borrow_mut(|sink| {
        sink.clear();
        let mut hits = 0;
        for f in frames {
            // A frame of its own (a reference count taken and, after the copy, given back).
            let f = Bytes::clone(f);
            if let Some(find) = find {
                let mut at = 0;
                while let Some(k) = f.get(at..).and_then(find) {
                    hits += 1;
                    at += k + 1;
                }
            }
            sink.extend_from_slice(&f);
        }
        black_box(hits);
        black_box(sink.len())
    })
}

#[inline(never)]
fn profile_text_layer(
    rt: &tokio::runtime::Runtime,
    text: &Bytes,
    plan: &Arc<RestorePlan>,
    n: usize,
) {
    for _ in 0..n {
        black_box(response_only(rt, text, Some(plan)));
    }
}

#[inline(never)]
fn profile_text_bare(rt: &tokio::runtime::Runtime, text: &Bytes, n: usize) {
    for _ in 0..n {
        black_box(response_only(rt, text, None));
    }
}

fn main() {
    let rt = runtime();
    let (_, _, plan) = prepare_request(
        ToolSchemaLayer::openai().config(),
        Some(Api::OpenAiChat),
        request_body(true),
    );
    let (plan, text) = (Arc::new(plan), text_stream());
    if let Some(n) = std::env::var("TS_BENCH_RESTORE_PROFILE")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
    {
        profile_text_layer(&rt, &text, &plan, n);
        profile_text_bare(&rt, &text, n);
        return;
    }
    println!(
        "\n== the way back's floors: {} of text events in 16 KiB frames ==",
        mb(text.len())
    );
    let frames = frames(&text);
    let call = memchr::memmem::Finder::new("_call");
    let passes: [(&str, Find<'_>); 3] = [
        ("a byte no event has (memchr 0x01)", &|b| {
            memchr::memchr(1, b)
        }),
        ("every line end (memchr \\n)", &|b| memchr::memchr(b'\n', b)),
        ("the keyword anchor (memmem _call)", &|b| call.find(b)),
    ];
    for (name, find) in passes {
        let r = paired_ratio(
            60,
            || {
                copy_pass(&frames, Some(find));
            },
            || {
                copy_pass(&frames, None);
            },
        );
        let times = best_of(
            3,
            Duration::from_millis(200),
            &mut [
                &mut || {
                    copy_pass(&frames, Some(find));
                },
                &mut || {
                    copy_pass(&frames, None);
                },
            ],
        );
        println!(
            "FLOOR scan + copy in one frame loop, {name}: {r:.3}x of the copy alone ({} vs {}, the scan's added {})",
            fmt(times[0]),
            fmt(times[1]),
            fmt(times[0].saturating_sub(times[1]))
        );
    }
    let r = paired_ratio(
        60,
        || {
            black_box(response_only(&rt, &text, Some(&plan)));
        },
        || {
            black_box(response_only(&rt, &text, None));
        },
    );
    let times = best_of(
        3,
        Duration::from_millis(200),
        &mut [
            &mut || {
                black_box(response_only(&rt, &text, Some(&plan)));
            },
            &mut || {
                black_box(response_only(&rt, &text, None));
            },
        ],
    );
    println!(
        "FLOOR the response side of `all` over text alone (no call): {r:.3}x of the bare frames ({} vs {})",
        fmt(times[0]),
        fmt(times[1])
    );
}
