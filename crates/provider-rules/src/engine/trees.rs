//! The tree passes of [`ORDER`](super::ORDER): each a pass over the whole tree that no step of a
//! node can be, for the reason its doc gives. The driver ([`super::run_with`]) runs them at
//! their places: the passes before the walk of the PRE and POST steps, then those after it,
//! and last, on the finished result, the depth cap.

use super::passes::NodeStep;
use super::rule::{Pass, Tree, TreeGate};
use super::{
    Cx, closed, draft, objects, presence, property_maps, proto_walk, refs, root, strict, types,
};
use crate::RuleId;
use schema_core::Schema;

/// Whether the tree may hold a value of the wrong JSON type, which is all the passes below
/// before the wrap and the closing look for (a `type` in another case, a property map that
/// is not one, a draft-03 boolean `required`): where it holds none, they are not walked.
fn may_hold_raw(cx: &Cx<'_>) -> bool {
    cx.may_hold_raw()
}

/// Type names in another case read (`"String"`): every later pass and step reads `type`.
pub(crate) static TYPE_NAMES: Tree = Tree {
    ids: &[RuleId::TypeCase],
    pass: Pass::Walk(&[(may_hold_raw as TreeGate, types::read_type_names as NodeStep)]),
};

/// A bare property map wrapped (checked by [`root::BARE_PROPERTIES`]): the root is not yet a
/// schema, and the walk would read the map's names as keywords.
pub(crate) static BARE_PROPERTIES: Tree = Tree {
    ids: &[RuleId::BareProperties],
    pass: Pass::Whole(root::wrap_bare_properties),
};

/// Property maps repaired, then draft-03 boolean `required` promoted, in one walk: the walk
/// reads a map that is not a map of schemas as data (its properties would be lost), and each
/// flag must reach the object it was written in before merges and inlining move the property
/// elsewhere. One walk for both: a map's repair rewrites only the node's own maps; the
/// promotion reads the node's maps and its properties' `required`, which no repair changes.
pub(crate) static MAPS_AND_FLAGS: Tree = Tree {
    ids: &[RuleId::PropertyMapRepaired, RuleId::BooleanRequired],
    pass: Pass::Walk(&[
        (
            |cx: &Cx<'_>| cx.rules.repair_property_maps && cx.may_hold_raw(),
            property_maps::repair as NodeStep,
        ),
        (
            |cx: &Cx<'_>| cx.rules.promote_boolean_required && cx.may_hold_raw(),
            objects::boolean_required,
        ),
    ]),
};

/// `unevaluated*: false` closed: it reads where a node sits (`then`/`else`, `allOf` members
/// are merged into another node), which the Schema-proto rewrites after it change (a
/// conditional becomes a union), so it walks the whole tree before them.
pub(crate) static CLOSED: Tree = Tree {
    ids: &[
        RuleId::AdditionalProperties,
        RuleId::Tuple,
        RuleId::BooleanSchema,
    ],
    pass: Pass::Walk(&[(
        closed::closed_unevaluated_on as TreeGate,
        closed::closed_unevaluated as NodeStep,
    )]),
};

/// The Schema-proto family's rewrites (`if` as a union, `contains` as a count, `oneOf`
/// exclusivity, lone `unevaluated*`, `not` of types; issue 16): they read a node's keywords
/// before merges and inlining change what evaluates.
pub(crate) static PROTO: Tree = Tree {
    ids: &[
        RuleId::Conditional,
        RuleId::OneOf,
        RuleId::Not,
        RuleId::UnsupportedKeyword,
        RuleId::BooleanSchema,
    ],
    pass: Pass::Whole(proto_walk::run),
};

/// A single `dependentRequired` written as a union (issue 16), before merges and inlining.
pub(crate) static PRESENCE: Tree = Tree {
    ids: &[RuleId::DependentSchemas],
    pass: Pass::Walk(&[(presence::run_on as TreeGate, presence::run as NodeStep)]),
};

/// `$ref`s kept or inlined (checked by [`refs::REFS`]): a reference resolves against the whole
/// schema, and the steps must see the targets inlined.
pub(crate) static REFS: Tree = Tree {
    ids: &[RuleId::RefInline, RuleId::RefSiblings],
    pass: Pass::Whole(refs::run),
};

/// The encodings (`encode-*`, when asked for): on the tree with its references resolved.
pub(crate) static ENCODE: Tree = Tree {
    ids: &[
        RuleId::EncodeMap,
        RuleId::EncodeAnyValue,
        RuleId::EncodeEnumText,
        RuleId::EncodeTuple,
        RuleId::EncodeMultiple,
        RuleId::EncodeContains,
    ],
    pass: Pass::Encode,
};

/// 2020-12 declared: only the whole result says whether it needs `$schema`.
pub(crate) static DECLARE_2020: Tree = Tree {
    ids: &[RuleId::Draft2020],
    pass: Pass::Whole(draft::declare_2020),
};

/// Strict size limits: counts over the whole result.
pub(crate) static STRICT_LIMITS: Tree = Tree {
    ids: &[RuleId::StrictIncompatible],
    pass: Pass::Whole(strict_limits),
};

/// [`strict::limits`], which reads the tree.
fn strict_limits(schema: &mut Schema, cx: &mut Cx<'_>) {
    strict::limits(schema, cx);
}

/// The depth cap ([`crate::depth::cap`]): on what every other pass and step made.
pub(crate) static DEPTH: Tree = Tree {
    ids: &[RuleId::Depth],
    pass: Pass::Result(crate::depth::cap),
};

#[cfg(test)]
mod tests {
    use super::super::proto_walk::test_support::sample_texts;
    use super::super::{Cap, Raw, Reads, sanitize_capped};
    use crate::{PROFILES, SanitizeOptions, Slot};
    use schema_core::{DiagnosticKind, Key, ParseOptions, Schema, Transform, Value};

    /// Samples with values of the wrong JSON type, and the corpus.
    fn texts() -> Vec<String> {
        let mut t: Vec<String> = [
            r#"{"type":"String"}"#,
            r#"{"type":"object","properties":{"a":"string","b":{"type":"INTEGER"}}}"#,
            r#"{"type":"object","properties":{"a":{"type":"string","required":true}}}"#,
            r#"{"a":{"type":"string","required":true},"b":{"type":"Number"}}"#,
            r#"{"items":{"type":["String","null"]},"patternProperties":{"^x":3},"required":"a"}"#,
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        t.extend(sample_texts());
        t
    }

    fn wrong_type(text: &str) -> bool {
        Schema::parse(text.as_bytes(), &ParseOptions::default()).is_ok_and(|p| {
            p.diagnostics
                .iter()
                .any(|d| matches!(d.kind, DiagnosticKind::WrongType { .. }))
        })
    }

    /// What the walks skipped for a tree without values of the wrong JSON type rest on: the
    /// parser reports each such value it keeps under a keyword.
    #[test]
    fn the_parser_reports_every_value_of_the_wrong_type() {
        struct Raws(usize);
        impl Transform for Raws {
            fn pre(&mut self, _: &str, s: &mut Schema) {
                if let Some(o) = s.as_object() {
                    self.0 += o
                        .entries()
                        .iter()
                        .filter(|e| matches!(e.key, Key::Known(_)))
                        .filter(|e| matches!(e.value, Value::Raw(_)))
                        .count();
                }
            }
        }
        let mut reported = 0;
        for t in texts() {
            let Ok(mut s) = Schema::from_str(&t) else {
                continue;
            };
            let mut raws = Raws(0);
            s.transform(&mut raws);
            assert!(raws.0 == 0 || wrong_type(&t), "{t}");
            reported += usize::from(raws.0 > 0);
        }
        assert!(reported >= 4, "{reported}");
    }

    /// The passes skipped where the parser reported no value of the wrong type change
    /// nothing there: every sample so parsed sanitizes to the same schema and report with
    /// them, for every profile, in both slots, with and without the encodings.
    #[test]
    fn the_walks_skipped_without_raw_values_would_change_nothing() {
        let mut compared = 0;
        for t in texts().iter().filter(|t| !wrong_type(t)) {
            // The parser's mask of the keywords the tree holds comes with the tree.
            let Ok(parsed) = Schema::parse(t.as_bytes(), &ParseOptions::default()) else {
                continue;
            };
            let (s, held) = (parsed.schema, parsed.keywords);
            for rules in PROFILES {
                for slot in [Slot::Parameters, Slot::Schema] {
                    for options in [SanitizeOptions::default(), SanitizeOptions::ENCODE] {
                        let run = |raw| {
                            sanitize_capped(
                                s.clone(),
                                rules,
                                slot,
                                &options,
                                Cap::On,
                                raw,
                                Reads::Everything,
                            )
                        };
                        let (a, b) = (run(Raw::None(held)), run(Raw::Maybe));
                        assert_eq!(a.schema, b.schema, "{}: {t}", rules.name);
                        assert_eq!(a.report, b.report, "{}: {t}", rules.name);
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 1000, "{compared}");
    }
}
