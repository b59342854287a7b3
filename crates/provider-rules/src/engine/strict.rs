//! Strict modes: every property required (optional ones nullable), size limits (`minItems`:
//! `min_items.rs`).

use super::booleans::NEVER_SEND;
use super::nulls::add_null;
use super::objects::is_object;
use super::{Check, Cx, Rule};
use crate::RuleId;
use schema_core::{Keyword, KeywordMask, MAX_WALK_DEPTH, Schema, SchemaObject, Value};

/// Strict mode's closed objects, every property required.
pub(crate) static STRICT_REQUIRED: Rule = Rule::new(RuleId::StrictRequired)
    .gate(|r, _| r.strict)
    .post(close_object)
    .check(Check::Object(check::all_required))
    .reports(&[RuleId::BooleanSchema])
    .hints(&[NEVER_SEND]);

/// In strict mode every object has `properties`, loses properties whose schema is `false`, and
/// where [`all_required`](crate::Rules::all_required) lists every property in `required`
/// (OpenAI: `'required' is required to be supplied and to be an array including every key in
/// properties`); a property that was optional becomes nullable, so a call that omitted it can
/// send `null` instead. A node with no type is not strict-compatible.
pub(crate) fn close_object(node: &mut Schema, p: &crate::engine::passes::At<'_>, cx: &mut Cx<'_>) {
    /// The message's start, before the names.
    const NULLABLE: &str = "optional properties made required and nullable: ";
    let style = cx.rules.null_style;
    let o = node.make_object();
    if !is_object(o) {
        if untyped_leaf(o) {
            cx.not_strict(p, "a schema without a type cannot be strict");
        }
        return;
    }
    if o.properties().is_none() {
        o.insert(Keyword::Properties, Value::SchemaMap(Default::default()));
    }
    let all_required = cx.rules.all_required;
    let props_len = o.properties().map_or(0, |m| m.len());
    // Read without copying a name: every property required (the object is closed already).
    let every_required = all_required && {
        let required = o.required().unwrap_or_default();
        o.properties().map_or(0, |m| m.len()) == required.len()
            && o.properties()
                .is_none_or(|m| m.keys().all(|n| required.contains(n)))
    };
    if every_required {
        // Every object gets `required`, `[]` too where it has no properties (issue 16:
        // openai-agents always writes it; a 400 for its absence is reported against
        // api.openai.com).
        if o.required().is_none() {
            o.insert(Keyword::Required, Value::Strings(Vec::new()));
            cx.change(
                p,
                RuleId::StrictRequired,
                "an empty required list, as strict mode wants on every object",
            );
        }
        return;
    }
    // Which properties are required: the list is taken out of its entry (which keeps its
    // place) while the properties are rewritten, and written back there.
    let mut listed = o
        .strings_mut(Keyword::Required)
        .map(std::mem::take)
        .unwrap_or_default();
    let mut made_nullable = String::new();
    let mut made_any = false;
    let reads_everything = cx.reads_everything();
    let mut nulls = Vec::new();
    let mut banned = Vec::new();
    let mut untyped = Vec::new();
    if let Some(props) = o.properties_mut() {
        for (name, s) in props.iter_mut() {
            if matches!(s, Schema::Bool(false)) {
                banned.push(name.clone());
                continue;
            }
            if matches!(s, Schema::Bool(true)) {
                untyped.push(name.clone());
            }
            if !all_required || listed.iter().any(|r| r == name) {
                s.make_object();
                continue;
            }
            let so = s.make_object();
            if so.contains(Keyword::Ref) {
                let inner = std::mem::take(so);
                let mut wrapped = SchemaObject::new();
                wrapped.insert(Keyword::AnyOf, Value::Schemas(vec![Schema::Object(inner)]));
                *so = wrapped;
            }
            // A typeless node's `null` is a call leaving it out too: the encodings' second
            // run makes it a string that admits `null` (`encode::any_value::admit_null`).
            if reads_everything && (!accepts_null(so) || is_typeless(so)) {
                if nulls.capacity() == 0 {
                    nulls = Vec::with_capacity(props_len);
                }
                nulls.push(name.clone());
            }
            add_null(so, style);
            made_any = true;
            if !reads_everything {
                // The change is recorded below; its message is not read.
                continue;
            }
            if made_nullable.is_empty() {
                made_nullable = String::with_capacity(NULLABLE.len() + 16 * props_len);
                made_nullable.push_str(NULLABLE);
            } else {
                made_nullable.push_str(", ");
            }
            made_nullable.push_str(name);
        }
        if !banned.is_empty() {
            props.retain(|_, s| !matches!(s, Schema::Bool(false)));
        }
    }
    if !nulls.is_empty() {
        cx.strict_nulls.push(((**p).to_owned(), nulls));
    }
    if all_required {
        // Every property left, in the map's order (a name already listed is moved, not
        // copied).
        let names: Vec<String> = o
            .properties()
            .map(|m| {
                m.keys()
                    .map(|n| match listed.iter_mut().find(|r| *r == n) {
                        Some(r) => std::mem::take(r),
                        None => n.clone(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        o.insert(Keyword::Required, Value::Strings(names));
    } else if let Some(r) = o.strings_mut(Keyword::Required) {
        *r = listed;
    }
    if !banned.is_empty() {
        let list: Vec<String> = banned.iter().map(|n| format!("\"{n}\"")).collect();
        cx.lost(
            p,
            RuleId::BooleanSchema,
            "properties with schema false removed",
            Some(NEVER_SEND.with(&[&list.join(", ")])),
        );
    }
    for n in untyped {
        cx.not_strict(
            &format!("{p}/properties/{n}"),
            "a property accepting any value cannot be strict",
        );
    }
    if made_any {
        cx.change(p, RuleId::StrictRequired, made_nullable);
    }
}

/// Whether [`close_object`] notes that `o`, which is not an object schema, says nothing of its
/// type, so cannot be strict (the no-change proof asks the same of a node it leaves as it is).
#[inline]
pub(crate) fn untyped_leaf(o: &SchemaObject) -> bool {
    ![
        Keyword::Type,
        Keyword::AnyOf,
        Keyword::Ref,
        Keyword::Enum,
        Keyword::Const,
        Keyword::AllOf,
    ]
    .iter()
    // A malformed value (`"type": "[]ring"`, kept as data) is dropped later: it types
    // nothing (fuzz: the node came out `{}`, judged strict-compatible, then not on a
    // second pass, so the layer flipped `strict` on the second pass only).
    .any(|k| o.get(*k).is_some_and(|v| !matches!(v, Value::Raw(_))))
}

/// Whether a (sanitized) property schema already accepts `null`: then the original did too,
/// and a `null` the model sends is the tool's to judge (no decoder).
/// Whether `o` says nothing of its type (no `type`, `enum`, `const`, `anyOf`, `oneOf`, `$ref`).
fn is_typeless(o: &SchemaObject) -> bool {
    [
        Keyword::Type,
        Keyword::Enum,
        Keyword::Const,
        Keyword::AnyOf,
        Keyword::OneOf,
        Keyword::Ref,
    ]
    .iter()
    .all(|k| !o.contains(*k))
}

fn accepts_null(o: &SchemaObject) -> bool {
    use schema_core::InstanceType as T;
    if let Some(values) = o.instances(Keyword::Enum) {
        return values
            .iter()
            .any(|v| v.json_type() == schema_core::JsonType::Null);
    }
    if let Some(c) = o.instance(Keyword::Const) {
        return c.json_type() == schema_core::JsonType::Null;
    }
    if let Some(branches) = o.schemas(Keyword::AnyOf) {
        return branches.iter().any(super::nulls::is_null_branch);
    }
    match o.types() {
        Some(t) => t.as_slice().contains(&T::Null),
        None => !o.contains(Keyword::OneOf) && !o.contains(Keyword::Ref),
    }
}

/// Sizes of a schema that strict modes limit.
#[derive(Default, Debug, Clone, Copy)]
pub(crate) struct Sizes {
    pub(crate) depth: u32,
    pub(crate) properties: u32,
    pub(crate) enum_values: u32,
    pub(crate) string_chars: u64,
    /// Whether a node holds a `$ref` (the decoders link references only where one is).
    pub(crate) refs: bool,
    /// The deepest level (the root's is 0) an object subschema sits at, where the walk went
    /// to the end of every branch (`None`: a branch went past [`MAX_WALK_DEPTH`]).
    pub(crate) deepest_object: Option<usize>,
}

/// The keywords [`measure`] reads of a node: one test of its presence mask spares a node
/// without any (most leaves) their lookups.
const MEASURED: KeywordMask = KeywordMask::of(&[
    Keyword::Ref,
    Keyword::Properties,
    Keyword::Enum,
    Keyword::Defs,
    Keyword::Definitions,
]);

/// Measures the limited sizes of a schema in one walk: every subschema, pre-order, as deep as
/// [`Schema::walk`] goes ([`MAX_WALK_DEPTH`]).
pub(crate) fn measure(schema: &Schema) -> Sizes {
    /// `s` and its subschemas, `nesting` objects with `properties` above it, `depth` levels
    /// below the root.
    fn node(s: &Schema, nesting: u32, depth: usize, out: &mut Sizes) {
        let Some(o) = s.as_object() else {
            return;
        };
        out.deepest_object = out.deepest_object.map(|d| d.max(depth));
        let mut nesting = nesting;
        if o.may_contain_any(MEASURED) {
            out.refs |= o.contains(Keyword::Ref);
            if let Some(props) = o.properties() {
                nesting += 1;
                out.depth = out.depth.max(nesting);
                out.properties += props.len() as u32;
                out.string_chars += props.keys().map(|k| chars(k)).sum::<u64>();
            }
            if let Some(e) = o.enum_values() {
                out.enum_values += e.len() as u32;
                out.string_chars += e.iter().map(|v| v.as_json().len() as u64).sum::<u64>();
            }
            for kw in [Keyword::Defs, Keyword::Definitions] {
                if let Some(m) = o.schema_map(kw) {
                    out.string_chars += m.keys().map(|k| chars(k)).sum::<u64>();
                }
            }
        }
        if depth < MAX_WALK_DEPTH {
            o.for_each_child(|_, child| node(child, nesting, depth + 1, out));
        } else {
            // The walk stops here: what lies below is not known.
            o.for_each_child(|_, _| out.deepest_object = None);
        }
    }
    let mut out = Sizes {
        deepest_object: Some(0),
        ..Sizes::default()
    };
    node(schema, 0, 0, &mut out);
    out
}

/// How many characters `s` has: its length where it is ASCII (most names; one scan of words
/// rather than a count of bytes).
fn chars(s: &str) -> u64 {
    if s.is_ascii() {
        s.len() as u64
    } else {
        s.chars().count() as u64
    }
}

/// Whether [`limits`] measures a schema for `rules`: a strict profile with a size limit.
fn limited(rules: &crate::Rules) -> bool {
    let l = rules.limits;
    rules.strict
        && (l.max_depth.is_some()
            || l.max_properties.is_some()
            || l.max_enum_values.is_some()
            || l.max_string_chars.is_some())
}

/// The size limits of `rules` that a schema of sizes `s` goes over, each in words.
#[inline]
fn over_limits(s: &Sizes, rules: &crate::Rules) -> Vec<String> {
    let l = rules.limits;
    let over = |v: u64, lim: Option<u32>| lim.is_some_and(|x| v > u64::from(x));
    let mut out = Vec::new();
    if over(u64::from(s.depth), l.max_depth) {
        out.push(format!(
            "objects nest {} levels deep, over the limit of {}",
            s.depth,
            l.max_depth.unwrap_or(0)
        ));
    }
    if over(u64::from(s.properties), l.max_properties) {
        out.push(format!(
            "{} properties, over the limit of {}",
            s.properties,
            l.max_properties.unwrap_or(0)
        ));
    }
    if over(u64::from(s.enum_values), l.max_enum_values) {
        out.push(format!(
            "{} enum values, over the limit of {}",
            s.enum_values,
            l.max_enum_values.unwrap_or(0)
        ));
    }
    if over(s.string_chars, l.max_string_chars) {
        out.push(format!(
            "{} characters of names and values, over the limit of {}",
            s.string_chars,
            l.max_string_chars.unwrap_or(0)
        ));
    }
    out
}

/// Whether [`limits`] leaves `schema` strict-compatible for `rules`: not measured, or within
/// every limit (the no-change proof's answer for the pass, [`super::unchanged`]).
pub(crate) fn within_limits(schema: &Schema, rules: &crate::Rules) -> bool {
    !limited(rules) || over_limits(&measure(schema), rules).is_empty()
}

/// Request-independent size limits (OpenAI strict: 5000 properties, 10 levels, 1000 enum
/// values, 120,000 characters): over them, the schema is not strict-compatible.
pub(crate) fn limits(schema: &Schema, cx: &mut Cx<'_>) {
    if !limited(cx.rules) {
        return;
    }
    let s = measure(schema);
    // The last walk of the finished tree: what it found of references spares the decoders
    // their own search (nothing after this pass writes a `$ref`).
    cx.holds_ref = Some(s.refs);
    cx.deepest_object = s.deepest_object;
    for why in over_limits(&s, cx.rules) {
        cx.not_strict("", why);
    }
}

/// What the provider would reject that this file's steps fix: the checker's part of these
/// rules (run on every object node, in the order of [`ORDER`](crate::engine::ORDER)).
pub(crate) mod check {
    use crate::RuleId;
    use crate::check::Checker;
    use schema_core::{InstanceType as T, SchemaObject};

    /// Strict mode: a property not in `required` ([`close_object`](super::close_object)).
    pub(crate) fn all_required(c: &mut Checker<'_>, p: &str, o: &SchemaObject) {
        let r = c.rules;
        let types = o.declared_types();
        let is_object =
            types.contains(&T::Object) || (types.is_empty() && o.properties().is_some());
        if r.strict && r.all_required && is_object {
            let names: Vec<&String> = o
                .properties()
                .map(|m| m.keys().collect())
                .unwrap_or_default();
            let req = o.required().unwrap_or(&[]);
            if o.properties().is_none() || names.iter().any(|n| !req.contains(n)) {
                c.push(
                    p,
                    RuleId::StrictRequired,
                    "every property must be required".to_owned(),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RuleId;
    use crate::engine::alone::fixes;
    use crate::rules::Rules;

    /// The limits' walk is the last over the finished tree before the decoders are built
    /// (only passes on the result follow it), so the `$ref`s it found are those the decoders
    /// would search for; a strict schema with a kept reference still decodes through it.
    #[test]
    fn the_limits_walk_sees_the_tree_the_decoders_are_built_from() {
        use crate::engine::{ORDER, Pass, Run};
        let at = ORDER
            .iter()
            .position(|r| matches!(r, Run::Tree(t) if std::ptr::eq(*t, &super::super::trees::STRICT_LIMITS)))
            .expect("in the order");
        assert!(
            ORDER[at + 1..]
                .iter()
                .all(|r| matches!(r, Run::Tree(t) if matches!(t.pass, Pass::Result(_))))
        );
        let text = r##"{"type":"object","properties":{"a":{"$ref":"#/$defs/x"}},"$defs":{"x":{"type":"object","properties":{"b":{"type":"string"}}}}}"##;
        let s = Schema::from_str(text).unwrap();
        let out = crate::sanitize(&s, &Rules::OPENAI_STRICT, crate::Slot::Parameters);
        let mut args = serde_json::json!({"a": {"b": null}});
        out.decoder.decode_value(&mut args);
        assert_eq!(args, serde_json::json!({"a": {}}), "{}", out.schema);
        // Without a reference the search is skipped: the nulls are still dropped.
        let plain =
            Schema::from_str(r#"{"type":"object","properties":{"b":{"type":"string"}}}"#).unwrap();
        let out = crate::sanitize(&plain, &Rules::OPENAI_STRICT, crate::Slot::Parameters);
        let mut args = serde_json::json!({"b": null});
        out.decoder.decode_value(&mut args);
        assert_eq!(args, serde_json::json!({}));
    }

    /// The sizes are counted over every subschema: nesting of objects with `properties`,
    /// every property and enum value, the names' characters, a `$ref` anywhere.
    #[test]
    fn the_limits_count_every_subschema() {
        let text = r##"{"type":"object","properties":{"ab":{"type":"object","properties":{"é":{"enum":["x",1]}}},"c":{"anyOf":[{"$ref":"#/$defs/d"}]}},"$defs":{"d":{"type":"object","properties":{"e":{}}}}}"##;
        let s = measure(&Schema::from_str(text).unwrap());
        assert_eq!(
            (s.depth, s.properties, s.enum_values, s.refs),
            (2, 4, 2, true)
        );
        // "ab", "c", "é", "e", the definition "d", and the enum's JSON `"x"` and `1`.
        assert_eq!(s.string_chars, 2 + 1 + 1 + 1 + 1 + 3 + 1);
        assert_eq!(s.deepest_object, Some(2));
        let plain = measure(&Schema::from_str(r#"{"type":"string"}"#).unwrap());
        assert_eq!((plain.depth, plain.properties, plain.refs), (0, 0, false));
        assert_eq!(plain.deepest_object, Some(0));
    }

    #[test]
    fn openai_strict_required_must_include_every_key_in_properties() {
        fixes(
            &STRICT_REQUIRED,
            r#"{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}},"required":["a"],"additionalProperties":false}"#,
            &Rules::OPENAI_STRICT,
            RuleId::StrictRequired,
        );
    }
}
