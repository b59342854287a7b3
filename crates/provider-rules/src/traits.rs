//! What a profile does, in words derived from its rules: the claims `toolschema providers`
//! prints, so a description cannot drift from the profile.

use crate::rules::{
    AdditionalProperties, Enums, MissingItems, NullStyle, Refs, Rules, TypeLists, Unions,
};

/// A claim, and when a profile makes it.
type Claim = (&'static str, fn(&Rules) -> bool);

/// Every claim, in the order printed. Each is checked against what sanitizing does
/// (`tests/registry.rs`).
const CLAIMS: &[Claim] = &[
    ("one type per node", |r| r.type_lists == TypeLists::Split),
    ("nullable for null", |r| r.null_style == NullStyle::Nullable),
    ("string-only enums", |r| r.enums == Enums::Strings),
    ("a type on every node", |r| r.type_required),
    ("items on every array", |r| {
        r.missing_items != MissingItems::Keep
    }),
    ("$ref inlined", |r| r.refs == Refs::Inline),
    ("recursive $ref kept", |r| r.refs == Refs::Local),
    ("allOf merged", Rules::merges_all_of),
    ("unions collapsed to one branch", Rules::collapses_unions),
    ("anyOf standing alone", |r| {
        r.unions == Unions::Alone && !r.collapses_unions()
    }),
    ("additionalProperties dropped", |r| {
        r.additional_properties == AdditionalProperties::Drop
    }),
    ("additionalProperties false on every object", |r| {
        r.additional_properties == AdditionalProperties::ForceFalse
    }),
    ("every property required", |r| r.strict && r.all_required),
    ("properties on the root object", |r| r.root.properties),
    ("no root union", |r| r.root.no_composition),
    ("draft 2020-12", |r| r.draft_2020),
    ("unknown keywords dropped", |r| !r.unknown_keywords),
];

/// The claims `rules` makes, in order.
pub(crate) fn of(rules: &Rules) -> Vec<&'static str> {
    CLAIMS
        .iter()
        .filter(|(_, holds)| holds(rules))
        .map(|(text, _)| *text)
        .collect()
}

impl Rules {
    /// What this profile does, in a few words per rule, derived from its fields (what
    /// `toolschema providers` prints).
    ///
    /// ```
    /// use provider_rules::Rules;
    /// assert!(Rules::VERTEX.traits().contains(&"anyOf standing alone"));
    /// assert!(!Rules::GEMINI_CODE_ASSIST.traits().contains(&"anyOf standing alone"));
    /// assert!(Rules::GEMINI_CODE_ASSIST.traits().contains(&"unions collapsed to one branch"));
    /// ```
    pub fn traits(&self) -> Vec<&'static str> {
        of(self)
    }
}
