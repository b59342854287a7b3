//! A fixed workload for a profiler: every schema of the corpora (the JSON-Schema-Test-Suite's
//! 2020-12 and draft-07 schemas and the MCP tools' `inputSchema`s, as compact JSON) through one
//! entry point, `reps` times, inside [`work`] (for `valgrind --tool=callgrind
//! --toggle-collect='sanitize_corpus::work'`).
//!
//! `cargo run --release -p provider-rules --example sanitize_corpus -- PROFILE [MODE] [SLOT]
//! [unchanged] [REPS]`: `MODE` is `slice` ([`provider_rules::sanitize_slice`], the default),
//! `into` ([`provider_rules::sanitize_into`]), `tree` ([`provider_rules::sanitize`] on a
//! parsed tree) or `value` (a `serde_json::Value` round trip of the same bytes, the
//! baseline); `SLOT` is `parameters` (the default) or `schema`; with `unchanged`, only the
//! schemas the profile leaves as they are (chosen by the report, outside `work`). It prints
//! how many schemas it ran, how many need no change, and how many of those are
//! strict-compatible.

use provider_rules::{Slot, profile, sanitize, sanitize_into, sanitize_slice};
use schema_core::Schema;
use std::hint::black_box;

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/corpus");

/// The `.json` files of a corpus directory, sorted.
fn files(dir: &str) -> Vec<std::path::PathBuf> {
    let mut f: Vec<_> = std::fs::read_dir(format!("{CORPUS}/{dir}"))
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    f.sort();
    f
}

fn read(f: &std::path::Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(f).expect("read")).expect("corpus json")
}

/// Every schema of the corpora, compact.
fn schemas() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for f in files("jsts/draft2020-12")
        .iter()
        .chain(&files("jsts/draft7"))
    {
        for case in read(f).as_array().into_iter().flatten() {
            out.extend(case.get("schema").map(|s| s.to_string().into_bytes()));
        }
    }
    for f in files("mcp") {
        for t in read(&f)["tools"].as_array().into_iter().flatten() {
            out.extend(t.get("inputSchema").map(|s| s.to_string().into_bytes()));
        }
    }
    out
}

/// The measured calls.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Slice,
    Into,
    Tree,
    Value,
}

/// `reps` rounds of `mode` over `schemas` (`trees`: the same, parsed, for [`Mode::Tree`]).
#[inline(never)]
fn work(
    mode: Mode,
    rules: &provider_rules::Rules,
    slot: Slot,
    schemas: &[&Vec<u8>],
    trees: &[Schema],
    reps: u32,
) {
    let mut out = String::new();
    let mut buf = Vec::new();
    for _ in 0..reps {
        match mode {
            Mode::Slice => {
                for s in schemas {
                    let _ = black_box(sanitize_slice(black_box(s), rules, slot));
                }
            }
            Mode::Into => {
                for s in schemas {
                    let _ = black_box(sanitize_into(black_box(s), rules, slot, &mut out));
                }
            }
            Mode::Tree => {
                for t in trees {
                    black_box(sanitize(black_box(t), rules, slot));
                }
            }
            Mode::Value => {
                for s in schemas {
                    if let Ok(v) = serde_json::from_slice::<serde_json::Value>(black_box(s)) {
                        buf.clear();
                        let _ = serde_json::to_writer(&mut buf, &v);
                        black_box(&buf);
                    }
                }
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map_or("openai-strict", String::as_str);
    let rules = profile(name).expect("a built-in profile");
    let arg = |a: &str| args.iter().skip(1).any(|x| x == a);
    let mode = if arg("into") {
        Mode::Into
    } else if arg("tree") {
        Mode::Tree
    } else if arg("value") {
        Mode::Value
    } else {
        Mode::Slice
    };
    let slot = if arg("schema") {
        Slot::Schema
    } else {
        Slot::Parameters
    };
    let reps: u32 = args
        .iter()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(1);
    let all = schemas();
    let results: Vec<_> = all
        .iter()
        .map(|s| sanitize_slice(s, rules, slot).ok())
        .collect();
    let unchanged =
        |r: &Option<provider_rules::Sanitized>| r.as_ref().is_some_and(|d| d.report.is_empty());
    let chosen: Vec<&Vec<u8>> = all
        .iter()
        .zip(&results)
        .filter(|(_, r)| !arg("unchanged") || unchanged(r))
        .map(|(s, _)| s)
        .collect();
    let trees: Vec<Schema> = match mode {
        Mode::Tree => chosen
            .iter()
            .filter_map(|s| Schema::parse(s, &Default::default()).ok().map(|p| p.schema))
            .collect(),
        _ => Vec::new(),
    };
    let same = results.iter().filter(|r| unchanged(r)).count();
    let strict = results
        .iter()
        .filter(|r| unchanged(r) && r.as_ref().is_some_and(|d| d.report.strict_compatible))
        .count();
    work(mode, rules, slot, &chosen, &trees, reps);
    println!(
        "{name} {slot:?}: {} schemas run x {reps}; of all {}, {same} need no change ({strict} strict-compatible)",
        chosen.len(),
        all.len()
    );
}
