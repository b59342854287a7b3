//! [`check`]: what a provider would reject, predicted from its [`Rules`] — a linter on its own,
//! and the proof that [`sanitize`](crate::sanitize) did its job.

use crate::RuleId;
use crate::Slot;
use crate::keys::property_keys;
use crate::providers::provider_error;
use crate::report::Violation;
use crate::rules::*;
use schema_core::{
    DiagnosticKind, InstanceType as T, Key, Keyword, Location, ParseOptions, Parsed, Schema,
    SchemaError, SchemaObject, TypeSet, Value, Visit,
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
            provider_error: provider_error(rules, rule),
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
        out.extend(upper.iter().map(|p| Violation {
            pointer: p.clone(),
            rule: RuleId::TypeCase,
            message: "type names must be lower-case (\"string\", not \"STRING\")".to_owned(),
            provider_error: provider_error(rules, RuleId::TypeCase),
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
    let mut c = Checker {
        rules,
        root_properties: rules.keeps_root_properties(slot),
        out: Vec::new(),
        circular: Default::default(),
        root_schema: schema,
        index: None,
    };
    if rules.refs == Refs::NonCircular && schema.has_refs() {
        c.circular = schema.circular_refs().into_iter().collect();
        c.index = Some(schema_core::RefIndex::new(schema));
    }
    if rules.root_shaped(slot) {
        c.root(schema);
    }
    if slot == Slot::Parameters {
        c.bare_properties(schema);
        c.out.extend(property_keys(schema, rules));
    }
    schema.walk(&mut c);
    c.out
}

struct Checker<'r> {
    rules: &'r Rules,
    /// Whether the root must have `properties`, even an empty map.
    root_properties: bool,
    out: Vec<Violation>,
    /// Under [`Refs::NonCircular`]: the pointers of the circular `$ref`s.
    circular: std::collections::HashSet<String>,
    /// The schema checked, and its references' index (under [`Refs::NonCircular`]).
    root_schema: &'r Schema,
    index: Option<schema_core::RefIndex>,
}

impl Checker<'_> {
    /// Whether the `$ref` of the node `o` at `p` resolves nowhere in the schema.
    fn unresolved(&self, p: &str, o: &SchemaObject) -> bool {
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

    fn push(&mut self, pointer: &str, rule: RuleId, message: String) {
        self.out.push(Violation {
            pointer: pointer.to_owned(),
            rule,
            message,
            provider_error: provider_error(self.rules, rule),
        });
    }

    fn root(&mut self, schema: &Schema) {
        let root = self.rules.root;
        let Some(o) = schema.as_object() else {
            if root.object || root.properties || root.no_composition {
                self.push(
                    "",
                    RuleId::Root,
                    "the root is a boolean schema, not an object".to_owned(),
                );
            }
            return;
        };
        if root.object && o.types() != Some(&TypeSet::Single(T::Object)) {
            self.push(
                "",
                RuleId::Root,
                "the root must be type \"object\"".to_owned(),
            );
        }
        if root.properties && o.properties().is_none() {
            self.push(
                "",
                RuleId::RootProperties,
                "the root object must have properties".to_owned(),
            );
        }
        if root.no_composition {
            for kw in [Keyword::AnyOf, Keyword::OneOf, Keyword::AllOf] {
                if o.contains(kw) {
                    self.push("", RuleId::RootUnion, format!("{kw} at the root"));
                }
            }
        }
    }

    /// A tool's parameters written as a bare property map lose their properties (Gemini:
    /// `Unknown name "foo" at '...parameters': Cannot find field.`).
    fn bare_properties(&mut self, schema: &Schema) {
        if self.rules.wrap_bare_properties
            && let Some(o) = schema.as_object()
            && o.bare_properties().is_some()
        {
            self.push(
                "",
                RuleId::BareProperties,
                "the parameters are a bare map of property schemas, without type \"object\" and properties"
                    .to_owned(),
            );
        }
    }

    fn node(&mut self, p: &str, o: &SchemaObject) {
        let r = self.rules;
        for e in o.entries() {
            match (&e.key, &e.value) {
                (Key::Other(name), _) if !r.unknown_keywords => self.push(
                    p,
                    RuleId::UnknownKeyword,
                    format!("keyword {name} is not accepted"),
                ),
                (Key::Known(kw), Value::Raw(_)) => self.push(
                    p,
                    RuleId::MalformedKeyword,
                    format!("{kw} has the wrong JSON type"),
                ),
                (Key::Known(kw), _) if !r.keywords.contains(*kw) => self.push(
                    p,
                    RuleId::UnsupportedKeyword,
                    format!("keyword {kw} is not accepted"),
                ),
                _ => {}
            }
        }
        let types = o.declared_types();
        if r.type_lists == TypeLists::Split && matches!(o.types(), Some(TypeSet::List(_))) {
            self.push(
                p,
                RuleId::TypeList,
                "type must be a single type, not a list".to_owned(),
            );
        }
        if !r.null_type && types == [T::Null] {
            self.push(
                p,
                RuleId::NullType,
                "the provider has no null type".to_owned(),
            );
        }
        if r.unions == Unions::Alone && o.contains(Keyword::AnyOf) && o.len() > 1 {
            self.push(
                p,
                RuleId::AnyOfAlone,
                "anyOf must be the only keyword of its node".to_owned(),
            );
        }
        for kw in [Keyword::AnyOf, Keyword::OneOf, Keyword::AllOf] {
            if o.schemas(kw).is_some_and(<[Schema]>::is_empty) {
                self.push(p, RuleId::EmptyUnion, format!("{kw} has no branch"));
            }
        }
        if r.keywords.contains(Keyword::Enum)
            && let Some(list) = o.enum_values()
        {
            if list.is_empty() {
                self.push(p, RuleId::EnumEmpty, "enum has no value".to_owned());
            }
            if list.iter().any(|v| !r.enums.accepts(v.json_type())) {
                self.push(
                    p,
                    RuleId::EnumValues,
                    format!("enum values must be {:?}", r.enums).to_lowercase(),
                );
            }
            if r.enums == Enums::Strings && !(types.is_empty() || types == [T::String]) {
                self.push(
                    p,
                    RuleId::EnumValues,
                    "enum is only allowed on type string".to_owned(),
                );
            }
            if !r.empty_string_enum && list.iter().any(|v| v.as_json() == "\"\"") {
                self.push(
                    p,
                    RuleId::EnumEmptyString,
                    "enum has an empty string".to_owned(),
                );
            }
        }
        // A root that must have `properties` keeps even an empty map.
        let empty_accepted = r.empty_properties || (p.is_empty() && self.root_properties);
        if !empty_accepted
            && o.schema_map(Keyword::Properties)
                .is_some_and(schema_core::SchemaMap::is_empty)
        {
            self.push(
                p,
                RuleId::PropertiesEmpty,
                "properties must not be empty (leave it out)".to_owned(),
            );
        }
        if !r.default_beside_any_of && o.contains(Keyword::AnyOf) && o.contains(Keyword::Default) {
            self.push(
                p,
                RuleId::DefaultBesideAnyOf,
                "default must not stand beside anyOf".to_owned(),
            );
        }
        let composed =
            o.contains(Keyword::AnyOf) || o.contains(Keyword::OneOf) || o.contains(Keyword::AllOf);
        if r.type_required && !matches!(o.get(Keyword::Type), Some(Value::Type(_))) && !composed {
            self.push(p, RuleId::TypeMissing, "type must be specified".to_owned());
        }
        if r.missing_items != MissingItems::Keep
            && types.contains(&T::Array)
            && !o.contains(Keyword::Items)
            && !o.contains(Keyword::PrefixItems)
        {
            self.push(
                p,
                RuleId::ItemsMissing,
                "an array schema must have items".to_owned(),
            );
        }
        if r.keywords_on_own_type_only
            && let [t] = types
        {
            for e in o.entries() {
                if let Key::Known(kw) = e.key
                    && !crate::rules::format_tolerated(kw, *t)
                    && kw.applies_to().is_some_and(|ts| !ts.contains(t))
                {
                    self.push(
                        p,
                        RuleId::ForeignKeyword,
                        format!("{kw} is not allowed on type {t}"),
                    );
                }
            }
        }
        if r.required_defined
            && let Some(req) = o.required()
        {
            let props = o.properties();
            for n in req {
                if !props.is_some_and(|m| m.contains_key(n)) {
                    self.push(
                        p,
                        RuleId::RequiredUndefined,
                        format!("required property \"{n}\" is not defined"),
                    );
                }
            }
        }
        let is_object =
            types.contains(&T::Object) || (types.is_empty() && o.properties().is_some());
        match r.additional_properties {
            AdditionalProperties::DropFalse => {
                if matches!(
                    o.schema(Keyword::AdditionalProperties),
                    Some(Schema::Bool(false))
                ) {
                    self.push(
                        p,
                        RuleId::AdditionalProperties,
                        "additionalProperties: false is refused".to_owned(),
                    );
                }
            }
            AdditionalProperties::ForceFalse
                if is_object
                    && !matches!(
                        o.schema(Keyword::AdditionalProperties),
                        Some(Schema::Bool(false))
                    ) =>
            {
                self.push(
                    p,
                    RuleId::AdditionalProperties,
                    "every object must set additionalProperties: false".to_owned(),
                );
            }
            _ => {}
        }
        if !r.property_named_properties
            && let Some(inner) = o
                .properties()
                .and_then(|m| m.get("properties"))
                .and_then(Schema::as_object)
        {
            let t = inner.declared_types();
            if t.contains(&T::Object)
                || inner.properties().is_some()
                || inner.contains(Keyword::AdditionalProperties)
            {
                self.push(
                    p,
                    RuleId::PropertyNamedProperties,
                    "an object property named \"properties\" is misread".to_owned(),
                );
            }
        }
        if let (Some(forbidden), Some(pat)) =
            (&r.forbidden_pattern_syntax, o.string(Keyword::Pattern))
            && forbidden.iter().any(|f| pat.contains(f.as_ref()))
        {
            self.push(
                p,
                RuleId::PatternSyntax,
                format!("pattern {pat:?} uses a construct the provider refuses"),
            );
        }
        if let (Some(allowed), Some(f)) = (&r.formats, o.string(Keyword::Format))
            && !allowed.iter().any(|a| a == f)
        {
            self.push(p, RuleId::Format, format!("format {f} is not accepted"));
        }
        if let Some(_r) = o.reference() {
            match r.refs {
                Refs::Inline => self.push(p, RuleId::Ref, "$ref is not accepted".to_owned()),
                Refs::NonCircular => {
                    if self.circular.contains(p) {
                        self.push(p, RuleId::Ref, "a circular $ref is not accepted".to_owned());
                    } else if self.unresolved(p, o) {
                        self.push(
                            p,
                            RuleId::Ref,
                            "$ref points to nothing in the schema".to_owned(),
                        );
                    }
                }
                Refs::NoSiblings => {
                    let extra = o.entries().iter().any(|e| match e.key {
                        Key::Known(k) => !Refs::SIBLINGS.contains(&k),
                        Key::Other(_) => true,
                    });
                    if extra {
                        self.push(
                            p,
                            RuleId::RefSiblings,
                            "$ref must stand without siblings".to_owned(),
                        );
                    }
                }
                Refs::Keep => {}
            }
        }
        let tuple_items = matches!(o.get(Keyword::Items), Some(Value::Schemas(_)));
        match r.tuples {
            Tuples::Fold if o.contains(Keyword::PrefixItems) || tuple_items => {
                self.push(p, RuleId::Tuple, "tuples are not accepted".to_owned())
            }
            Tuples::PrefixItems if tuple_items => self.push(
                p,
                RuleId::Tuple,
                "items must be a schema, not an array (use prefixItems)".to_owned(),
            ),
            _ => {}
        }
        if r.draft_2020 {
            for kw in [Keyword::ExclusiveMinimum, Keyword::ExclusiveMaximum] {
                if matches!(o.get(kw), Some(Value::Bool(_))) {
                    self.push(
                        p,
                        RuleId::Draft2020,
                        format!("{kw} must be a number in 2020-12"),
                    );
                }
            }
            if tuple_items && r.tuples == Tuples::Keep {
                self.push(
                    p,
                    RuleId::Draft2020,
                    "items must be a schema in 2020-12".to_owned(),
                );
            }
        }
        if r.strict && r.all_required && is_object {
            let names: Vec<&String> = o
                .properties()
                .map(|m| m.keys().collect())
                .unwrap_or_default();
            let req = o.required().unwrap_or(&[]);
            if o.properties().is_none() || names.iter().any(|n| !req.contains(n)) {
                self.push(
                    p,
                    RuleId::StrictRequired,
                    "every property must be required".to_owned(),
                );
            }
        }
        if let (Some(max), Some(n)) = (
            r.limits.max_min_items,
            o.number(Keyword::MinItems)
                .and_then(serde_json::Number::as_f64),
        ) && n > f64::from(max)
        {
            self.push(p, RuleId::MinItems, format!("minItems above {max}"));
        }
    }

    fn children(&mut self, p: &str, s: &Schema) {
        if self.rules.boolean_schemas {
            return;
        }
        let has_prefix = s
            .as_object()
            .is_some_and(|o| o.contains(Keyword::PrefixItems));
        let mut found = Vec::new();
        s.for_each_child(|loc, child| {
            let kw = loc.keyword();
            let exempt =
                matches!(
                    kw,
                    Keyword::AdditionalProperties
                        | Keyword::AdditionalItems
                        | Keyword::UnevaluatedItems
                        | Keyword::UnevaluatedProperties
                ) || (kw == Keyword::Items && has_prefix && matches!(loc, Location::Keyword(_)));
            if !exempt && matches!(child, Schema::Bool(_)) {
                let mut cp = p.to_owned();
                loc.push_to(&mut cp);
                found.push(cp);
            }
        });
        for cp in found {
            self.push(
                &cp,
                RuleId::BooleanSchema,
                "a boolean schema is not accepted here".to_owned(),
            );
        }
    }
}

impl Visit for Checker<'_> {
    fn enter(&mut self, p: &str, s: &Schema) -> bool {
        if let Some(o) = s.as_object() {
            self.node(p, o);
        }
        self.children(p, s);
        true
    }
}
