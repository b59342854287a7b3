//! [`check`]: what a provider would reject, predicted from its [`Rules`] — a linter on its own,
//! and the proof that [`sanitize`](crate::sanitize) did its job.

use crate::RuleId;
use crate::Slot;
use crate::engine::Check;
use crate::keys::property_keys;
use crate::providers::{ErrorTexts, provider_error};
use crate::report::Violation;
use crate::rules::*;
use schema_core::{
    DiagnosticKind, Keyword, ParseOptions, Parsed, Schema, SchemaError, SchemaObject, Value, Visit,
};

/// What `rules`' provider would reject in `schema` (a JSON value), each with where, why and
/// the provider's own error text where known. Empty when the provider would accept it.
///
/// ```
/// use provider_rules::{check, Rules, Slot};
/// let v = serde_json::json!({"type": "object", "properties": {"t": {"type": ["string", "null"]}}});
/// let found = check(&v, &Rules::GEMINI, Slot::Parameters);
/// assert_eq!(found[0].pointer, "/properties/t");
/// assert_eq!(found[0].rule, "type-list");
/// assert!(check(&v, &Rules::OPENAI, Slot::Parameters).is_empty());
/// ```
pub fn check(schema: &serde_json::Value, rules: &Rules, slot: Slot) -> Vec<Violation> {
    check_parsed(
        &Schema::parse_value(schema, &ParseOptions::default()),
        rules,
        slot,
    )
}

/// [`check`] on JSON bytes, at any nesting depth: the schema is read by schema-core's
/// streaming parser, which never recurses past its depth limit, rather than into a
/// `serde_json::Value` (whose reader refuses more than 128 JSON levels: 64 levels of
/// `properties` already). A subschema past the limit is a `depth` violation.
///
/// The error is the parser's: the bytes are not JSON.
///
/// ```
/// use provider_rules::{check_slice, Rules, Slot};
/// let mut text = String::from(r#"{"type":"string"}"#);
/// for _ in 0..70 {
///     text = format!(r#"{{"type":"object","properties":{{"a":{text}}}}}"#);
/// }
/// // Valid JSON, 141 JSON levels deep: read, and found too deep.
/// let found = check_slice(text.as_bytes(), &Rules::GEMINI, Slot::Parameters)?;
/// assert_eq!(found.len(), 1);
/// assert_eq!(found[0].rule, "depth");
/// assert_eq!(found[0].pointer, "/properties/a".repeat(65));
/// assert_eq!(found[0].provider_error, Some("maximum schema depth exceeded"));
/// assert!(check_slice(b"{\"type\": }", &Rules::GEMINI, Slot::Parameters).is_err());
/// # Ok::<(), schema_core::SchemaError>(())
/// ```
pub fn check_slice(bytes: &[u8], rules: &Rules, slot: Slot) -> Result<Vec<Violation>, SchemaError> {
    Ok(check_parsed(
        &Schema::parse(bytes, &ParseOptions::default())?,
        rules,
        slot,
    ))
}

/// [`check`] on what the parser made of a schema: its diagnostics, then the walk.
fn check_parsed(parsed: &Parsed, rules: &Rules, slot: Slot) -> Vec<Violation> {
    let mut out = Vec::new();
    let mut cuts = std::collections::HashSet::new();
    let errors = ErrorTexts::new(rules);
    for d in &parsed.diagnostics {
        let (rule, message) = match d.kind {
            DiagnosticKind::WrongType { .. } => continue, // reported by the walk, per keyword
            DiagnosticKind::DepthLimit { limit } => {
                cuts.insert(d.pointer.as_str());
                (
                    RuleId::Depth,
                    format!(
                        "the schema nests deeper than {limit} levels here (sanitizing cuts the subtree)"
                    ),
                )
            }
            DiagnosticKind::NotASchema { .. } => (RuleId::Root, d.to_string()),
            _ => (RuleId::Malformed, d.to_string()),
        };
        out.push(Violation {
            pointer: d.pointer.clone(),
            rule,
            message,
            provider_error: errors.get(rule),
        });
    }
    // The `{}` the parser left where it cut is not the input's: nothing to say about it.
    out.extend(
        check_schema(&parsed.schema, rules, slot)
            .into_iter()
            .filter(|v| !cuts.contains(&v.pointer.as_str())),
    );
    out
}

/// [`check`] on a parsed schema.
pub fn check_schema(schema: &Schema, rules: &Rules, slot: Slot) -> Vec<Violation> {
    // Type names in another case are types (Google's `"STRING"`); where the provider wants
    // them lower-case, each is named, and the rest is checked as if they were.
    if !has_malformed_type(schema) {
        return check_read(schema, rules, slot);
    }
    let mut read = schema.clone();
    let upper = read.read_type_names_any_case();
    let mut out: Vec<Violation> = Vec::new();
    if !rules.type_names_any_case {
        let provider_error = provider_error(rules, RuleId::TypeCase);
        out.extend(upper.iter().map(|p| Violation {
            pointer: p.clone(),
            rule: RuleId::TypeCase,
            message: "type names must be lower-case (\"string\", not \"STRING\")".to_owned(),
            provider_error,
        }));
    }
    out.extend(check_read(&read, rules, slot));
    out
}

/// Whether a node's `type` is not a type as parsed (an upper-case name, or malformed).
fn has_malformed_type(schema: &Schema) -> bool {
    struct Find(bool);
    impl Visit for Find {
        fn enter(&mut self, _: &str, s: &Schema) -> bool {
            self.0 |= s
                .as_object()
                .is_some_and(|o| matches!(o.get(Keyword::Type), Some(Value::Raw(_))));
            !self.0
        }
    }
    let mut f = Find(false);
    schema.walk(&mut f);
    f.0
}

fn check_read(schema: &Schema, rules: &Rules, slot: Slot) -> Vec<Violation> {
    let mut c = Checker::new(schema, rules, slot);
    for check in crate::engine::checks() {
        if let Check::Root(f) = check {
            f(&mut c, schema);
        }
    }
    if slot == Slot::Parameters {
        c.out.extend(property_keys(schema, rules));
    }
    schema.walk(&mut c);
    c.out
}

/// The checker's context: what the rules' checks ([`crate::engine::ORDER`]) read and write.
pub(crate) struct Checker<'r> {
    pub(crate) rules: &'r Rules,
    /// The slot the schema is checked for.
    pub(crate) slot: Slot,
    /// Whether the root must have `properties`, even an empty map.
    pub(crate) root_properties: bool,
    out: Vec<Violation>,
    /// Where the rules check targets ([`Refs::NonCircular`], [`Refs::Local`]...): the pointers of the circular `$ref`s.
    pub(crate) circular: std::collections::HashSet<String>,
    /// The schema checked, and its references' index (under [`Refs::NonCircular`]).
    root_schema: &'r Schema,
    index: Option<schema_core::RefIndex>,
    /// The provider's error texts, its family found once.
    errors: ErrorTexts<'r>,
}

impl<'r> Checker<'r> {
    /// The context to check `schema` for `rules` in `slot`.
    pub(crate) fn new(schema: &'r Schema, rules: &'r Rules, slot: Slot) -> Checker<'r> {
        let mut c = Checker {
            rules,
            slot,
            root_properties: rules.keeps_root_properties(slot),
            out: Vec::new(),
            circular: Default::default(),
            root_schema: schema,
            index: None,
            errors: ErrorTexts::new(rules),
        };
        if rules.refs.checks_targets() && schema.has_refs() {
            c.circular = schema.circular_refs().into_iter().collect();
            c.index = Some(schema_core::RefIndex::new(schema));
        }
        c
    }

    /// What was found.
    pub(crate) fn into_found(self) -> Vec<Violation> {
        self.out
    }

    /// Whether the `$ref` of the node `o` at `p` resolves nowhere in the schema.
    pub(crate) fn unresolved(&self, p: &str, o: &SchemaObject) -> bool {
        let (Some(index), Some(r)) = (&self.index, o.reference()) else {
            return false;
        };
        let base = index.base_of(index.base_around(p), o);
        index
            .locate_in(&base, r)
            .ok()
            .and_then(|t| schema_core::pointer::segments(&t))
            .and_then(|segs| self.root_schema.pointer_get(&segs))
            .is_none()
    }

    pub(crate) fn push(&mut self, pointer: &str, rule: RuleId, message: String) {
        self.out.push(Violation {
            pointer: pointer.to_owned(),
            rule,
            message,
            provider_error: self.errors.get(rule),
        });
    }
}

impl Visit for Checker<'_> {
    fn enter(&mut self, p: &str, s: &Schema) -> bool {
        let o = s.as_object();
        for check in crate::engine::checks() {
            match (check, o) {
                (Check::Object(f), Some(o)) => f(self, p, o),
                (Check::Node(f), _) => f(self, p, s),
                _ => {}
            }
        }
        true
    }
}
