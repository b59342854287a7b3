//! For every built-in profile: `sanitize` never panics, its output passes the profile's
//! `check_schema` (unless the report says it is not strict-compatible), a second pass changes
//! nothing, and the report is empty exactly when nothing changed.
#![no_main]

use libfuzzer_sys::fuzz_target;
use provider_rules::{PROFILES, Slot, check_schema, sanitize};
use schema_core::Schema;

fuzz_target!(|data: &[u8]| {
    let Ok(schema) = Schema::from_slice(data) else {
        return;
    };
    // The slot is taken from the input so both are explored without doubling the work.
    let slot = if data.len().is_multiple_of(2) {
        Slot::Parameters
    } else {
        Slot::Schema
    };
    for rules in PROFILES {
        let out = sanitize(&schema, rules, slot);
        assert_eq!(
            out.report.is_empty(),
            out.schema == schema,
            "{}: report empty = {} but unchanged = {}\n in: {}\nout: {}",
            rules.name(),
            out.report.is_empty(),
            out.schema == schema,
            schema,
            out.schema
        );
        if out.report.strict_compatible {
            let v: Vec<_> = check_schema(&out.schema, rules, slot)
                .into_iter()
                .filter(|v| !out.report.is_unfixable(v))
                .collect();
            assert!(
                v.is_empty(),
                "{}: check after sanitize: {}\n in: {}\nout: {}",
                rules.name(),
                v.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join("; "),
                schema,
                out.schema
            );
        }
        let again = sanitize(&out.schema, rules, slot);
        assert!(
            again.schema == out.schema,
            "{}: not idempotent\n in:    {}\n once:  {}\n twice: {}",
            rules.name(),
            schema,
            out.schema,
            again.schema
        );
        assert!(
            again.report.is_empty(),
            "{}: second pass reported {:?}",
            rules.name(),
            again.report.changes
        );
        // What goes on the wire parses back to the same tree.
        let wire = out.schema.to_json_string();
        let back = Schema::from_str(&wire).expect("own output parses");
        assert!(
            back == out.schema,
            "{}: wire form differs: {wire}",
            rules.name()
        );
    }
});
