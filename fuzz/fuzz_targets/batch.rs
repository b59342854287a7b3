//! `sanitize_into` (the `--ndjson` batch path, with its no-change proof) against the full
//! passes (`sanitize_slice`), for every built-in profile and both slots: both fail on the same
//! inputs; `Ok(false)` (nothing to write: the input bytes are the result; where the proof holds
//! the engine never runs) exactly when the full passes report no change; `Ok(true)` exactly
//! when they do, with their output's bytes in the buffer. The buffer is reused across calls,
//! as the batch does: `Ok(false)` leaves it as it was.
#![no_main]

use libfuzzer_sys::fuzz_target;
use provider_rules::{PROFILES, Slot, sanitize_into, sanitize_slice};

fuzz_target!(|data: &[u8]| {
    let mut out = String::from("left from the last line");
    for rules in PROFILES {
        for slot in [Slot::Parameters, Slot::Schema] {
            let before = out.clone();
            let full = sanitize_slice(data, rules, slot);
            let batch = sanitize_into(data, rules, slot, &mut out);
            let (full, changed) = match (full, batch) {
                (Err(a), Err(b)) => {
                    assert_eq!(
                        a.to_string(),
                        b.to_string(),
                        "{}: errors differ",
                        rules.name()
                    );
                    continue;
                }
                (Ok(full), Ok(changed)) => (full, changed),
                (full, batch) => panic!(
                    "{} {slot:?}: one fails, one does not: full {:?}, batch {:?}\n in: {}",
                    rules.name(),
                    full.map(|s| s.schema.to_json_string()),
                    batch,
                    String::from_utf8_lossy(data)
                ),
            };
            assert_eq!(
                changed,
                !full.report.is_empty(),
                "{} {slot:?}: batch says changed = {changed}, the full passes reported {:?}\n in:  {}\n out: {}",
                rules.name(),
                full.report.changes,
                String::from_utf8_lossy(data),
                full.schema
            );
            if changed {
                assert_eq!(
                    out,
                    full.schema.to_json_string(),
                    "{} {slot:?}: batch output differs from the full passes'\n in: {}",
                    rules.name(),
                    String::from_utf8_lossy(data)
                );
            } else {
                assert_eq!(out, before, "{}: Ok(false) wrote the buffer", rules.name());
            }
        }
    }
});
