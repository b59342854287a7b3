//! The figures each profile is held to, and where the invalid instances escape.

use crate::measure::*;
use crate::plain::*;
use crate::suite::*;
use provider_rules::{PROFILES, Rules, Slot, sanitize};
use schema_core::Schema;

#[test]
fn every_profile_keeps_valid_instances_valid() {
    let cases = cases();
    assert!(cases.len() > 500, "too few jsts cases: {}", cases.len());
    let mut failed = Vec::new();
    println!(
        "{:<20} {:>7} {:>7} {:>10} {:>20} {:>20} {:>20} {:>20}",
        "profile",
        "schemas",
        "skipped",
        "not-strict",
        "soundness",
        "precision",
        "soundness (encoded)",
        "precision (encoded)"
    );
    let mut encoded_exceptions = Vec::new();
    for rules in PROFILES {
        let t = run(rules, &cases, false);
        let s = pct(t.kept, t.counted);
        let e = if rules.encodings.any() {
            Some(run(rules, &cases, true))
        } else {
            None
        };
        let figure = |a: usize, b: usize| format!("{a:>9}/{b:<5} {:>5.1}%", pct(a, b));
        println!(
            "{:<20} {:>7} {:>7} {:>10} {} {} {} {}",
            rules.name(),
            t.schemas,
            t.skipped,
            t.not_strict,
            figure(t.kept, t.counted),
            figure(t.still_rejected, t.rejected),
            e.as_ref()
                .map_or(format!("{:>20}", "-"), |e| figure(e.kept, e.counted)),
            e.as_ref().map_or(format!("{:>20}", "-"), |e| figure(
                e.still_rejected,
                e.rejected
            )),
        );
        for x in &t.exceptions {
            println!("    exception: {x}");
        }
        if s < target(rules) && rules.name() != "gemini-code-assist" {
            failed.push(format!(
                "{}: soundness {s:.2}% under {}%",
                rules.name(),
                target(rules)
            ));
        }
        if let Some(e) = e {
            let se = pct(e.kept, e.counted);
            // Strict profiles with encodings count more schemas than without (the encodings
            // make more of them strict-compatible): they are held to the target, except
            // anthropic-strict, whose 4 exceptions are a root tuple (`prefixItems`) the
            // profile does not take, kept in shape at the root and reported lossy. Every
            // strict exception must be reported lossy.
            let floor = if rules.strict { 99.9 } else { s - 0.05 };
            if se < floor && rules.name() != "anthropic-strict" {
                failed.push(format!(
                    "{}: soundness with encodings {se:.2}% under {floor:.2}%",
                    rules.name()
                ));
            }
            if rules.strict && e.unreported > 0 {
                failed.push(format!(
                    "{}: {} valid instances rejected with encodings and no lossy change reported",
                    rules.name(),
                    e.unreported
                ));
            }
            encoded_exceptions.push((rules.name(), e));
        }
    }
    for (name, e) in &encoded_exceptions {
        for x in &e.exceptions {
            println!("    {name} exception with encodings: {x}");
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// Where the invalid instances escape: per suite file (keyword), the invalid instances the
/// Gemini-proto profiles' results still accept, with encodings, largest first.
#[test]
fn gemini_escapes_by_keyword() {
    let cases = cases();
    for rules in [&Rules::GEMINI, &Rules::VERTEX] {
        let t = run(rules, &cases, true);
        let mut rows: Vec<_> = t.escapes.iter().filter(|(_, (_, e))| *e > 0).collect();
        rows.sort_by(|a, b| b.1.1.cmp(&a.1.1).then(a.0.cmp(b.0)));
        println!(
            "{} (encoded): {} of {} invalid instances escape",
            rules.name(),
            t.rejected - t.still_rejected,
            t.rejected
        );
        for (file, (n, e)) in rows {
            println!("    {e:>4} of {n:>4}  {file}");
        }
        // `JSTS_ESCAPES=1` lists every escaped instance.
        if std::env::var_os("JSTS_ESCAPES").is_some() {
            for x in &t.escaped {
                println!("    escaped: {x}");
            }
        }
        // Floors at what the Gemini-proto profiles reach (issue 16 asks for 80 %; what is left
        // is listed in BENCHMARKS.md with why the proto cannot say it): a regression fails.
        let precision = pct(t.still_rejected, t.rejected);
        let soundness = pct(t.kept, t.counted);
        // gemini 618 of 746, vertex 626 (Vertex keeps `additionalProperties`: maps stay maps,
        // but its closed objects are exact; no NULL type: "absent" is a property that accepts
        // no value).
        let floor = if rules.name() == "gemini" { 82.7 } else { 83.8 };
        assert!(
            precision >= floor && soundness >= 99.9,
            "{}: precision {precision:.1}%, soundness {soundness:.1}% with encodings",
            rules.name()
        );
        let closed = run_where(
            rules,
            &cases,
            Reading {
                encode: true,
                closed: true,
            },
            |_| true,
        );
        println!(
            "{} (encoded), objects read as closed: soundness {}/{} {:.1}%, precision {}/{} {:.1}%",
            rules.name(),
            closed.kept,
            closed.counted,
            pct(closed.kept, closed.counted),
            closed.still_rejected,
            closed.rejected,
            pct(closed.still_rejected, closed.rejected)
        );
    }
}

/// Known gap (issue 3 asks for 97 % overall): Code Assist has no unions and wants a `type`
/// on every node, so "any value" (`{}`, `true`, `uniqueItems` alone, an open tuple's rest),
/// mixed-type enums and type lists collapse to one type, and the suite is full of them (every
/// exception is printed by `every_profile_keeps_valid_instances_valid`).
///
/// So the dialect is measured twice:
/// - where the union-capable `gemini` profile needs no `anyOf` for a case (its any-value is
///   an `anyOf` of every type), Code Assist is held to the 97 %: there the dialect
///   loses nothing to the missing unions and every loss would be ours;
/// - over every case, a floor guards what one type per node reaches today, so a regression
///   fails. Raising it needs live evidence that Code Assist accepts a typeless node or `anyOf`.
#[test]
fn gemini_code_assist_keeps_its_floor() {
    let rules = &Rules::GEMINI_CODE_ASSIST;
    let cases = cases();
    let all = run(rules, &cases, false);
    let s = pct(all.kept, all.counted);
    let union_free = run_where(
        rules,
        &cases,
        Reading {
            encode: false,
            closed: false,
        },
        |c| {
            let g = sanitize(&Schema::from_value(&c.schema), &Rules::GEMINI, Slot::Schema);
            !has_union(&g.schema.to_value())
        },
    );
    let u = pct(union_free.kept, union_free.counted);
    println!(
        "gemini-code-assist soundness {s:.2}% overall ({}/{}), {u:.2}% where gemini needs no union ({}/{} over {} schemas; issue target {}%)",
        all.kept,
        all.counted,
        union_free.kept,
        union_free.counted,
        union_free.schemas,
        target(rules)
    );
    for e in &union_free.exceptions {
        println!("    exception without a union: {e}");
    }
    assert!(
        u >= target(rules),
        "gemini-code-assist soundness where no union is needed fell to {u:.2}%"
    );
    assert!(s >= 75.0, "gemini-code-assist soundness fell to {s:.2}%");
}
