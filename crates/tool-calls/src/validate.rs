//! The validator: hand-written over `serde_json::Value` schemas.
//!
//! Why hand-written rather than the `jsonschema` crate: a model-facing message needs the
//! structure of the failure (which required field is missing and which sent key probably meant
//! it, which `anyOf` branch was meant, whether a string is JSON text of the expected object),
//! which a generic validator's error list does not give; and it keeps the build to `regex`
//! (already in most dependency trees) instead of `jsonschema`'s larger tree (see the crate docs
//! for the measured build cost). Its verdicts are cross-checked against `jsonschema` on the
//! JSON-Schema-Test-Suite in `tests/jsts.rs`.
//!
//! Supported: `type` (lists; integer vs number), `enum`, `const`, `required`, `properties`,
//! `additionalProperties`, `patternProperties`, `propertyNames`, `min/maxProperties`,
//! `dependentRequired`, `dependentSchemas`, draft-07 `dependencies`, `items`, `prefixItems`,
//! draft-07 tuple `items` + `additionalItems`, `min/maxItems`, `uniqueItems`, `contains`,
//! `min/maxContains`, `min/maxLength`, `pattern` (the linear-time `regex` crate; a pattern it
//! cannot compile is skipped), `format` (see [`crate::format`]), `minimum`, `maximum`,
//! `exclusiveMinimum`/`exclusiveMaximum` (numeric and draft-04 boolean), `multipleOf`, `allOf`,
//! `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, OpenAPI `nullable`, local `$ref` (and
//! `$dynamicRef`/`$recursiveRef` treated as plain local references).
//! Not supported (accept anything): `unevaluatedProperties`, `unevaluatedItems`, references to
//! other documents, `$id`-relative references.

use crate::aliases::{closest_first, probable_alias, probable_field};
use crate::resolve::resolve;
use crate::{Coercion, JsonType, Problem, ProblemKind};
use regex::Regex;
use serde_json::{Map, Number, Value};
use std::collections::HashMap;

/// Evaluation steps (schema × instance visits) after which validation stops looking further.
const WORK_LIMIT: usize = 200_000;
/// Schema-evaluation nesting (through `$ref` and combinators) beyond which a branch is skipped.
const EVAL_DEPTH_LIMIT: usize = 256;

/// What one evaluation found.
#[derive(Debug, Default)]
pub(crate) struct Findings {
    pub(crate) problems: Vec<Problem>,
    pub(crate) coercions: Vec<Coercion>,
}

/// One validation run over one root schema.
pub(crate) struct Validator<'s> {
    root: &'s Value,
    lenient: bool,
    max_depth: usize,
    regexes: HashMap<&'s str, Option<Regex>>,
    active: Vec<(*const Value, *const Value)>,
    work: usize,
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn with_segment(pointer: &str, key: &str) -> String {
    format!("{pointer}/{}", escape(key))
}

/// The `type` keyword's types, with `null` added for OpenAPI `nullable: true`.
fn own_types(schema: &Map<String, Value>) -> Option<Vec<JsonType>> {
    let mut types: Vec<JsonType> = match schema.get("type")? {
        Value::String(t) => JsonType::from_keyword(t).into_iter().collect(),
        Value::Array(ts) => ts
            .iter()
            .filter_map(Value::as_str)
            .filter_map(JsonType::from_keyword)
            .collect(),
        _ => return None,
    };
    if schema.get("nullable") == Some(&Value::Bool(true)) && !types.contains(&JsonType::Null) {
        types.push(JsonType::Null);
    }
    Some(types)
}

fn accepts_any(types: &[JsonType], value: &Value) -> bool {
    types.iter().any(|t| t.accepts(value))
}

/// Parses `text` when it looks like a JSON object or array.
fn json_text(text: &str) -> Option<Value> {
    let trimmed = text.trim_start();
    if !(trimmed.starts_with('{') || trimmed.starts_with('[')) || text.len() > 1 << 20 {
        return None;
    }
    serde_json::from_str(text).ok()
}

/// A count limit (`minItems`, `maxLength`, ...): a non-negative integer, `2.0` included.
fn count_limit(map: &Map<String, Value>, key: &str) -> Option<u64> {
    let n = map.get(key)?.as_number()?;
    n.as_u64().or_else(|| {
        n.as_f64()
            .filter(|f| *f >= 0.0 && f.fract() == 0.0 && *f < 1.8e19)
            .map(|f| f as u64)
    })
}

fn number_f64(n: &Number) -> f64 {
    n.as_f64().unwrap_or(0.0)
}

fn is_multiple(x: &Number, m: &Number) -> bool {
    if let (Some(a), Some(b)) = (x.as_i64(), m.as_i64()) {
        return b == 0 || a.checked_rem(b).is_none_or(|r| r == 0);
    }
    let (a, b) = (number_f64(x), number_f64(m));
    if b <= 0.0 || !b.is_finite() {
        return true;
    }
    let q = a / b;
    if !q.is_finite() {
        return false;
    }
    (q - q.round()).abs() <= 1e-9 * q.abs().max(1.0)
}

impl<'s> Validator<'s> {
    pub(crate) fn new(root: &'s Value, lenient: bool, max_depth: usize) -> Self {
        Self {
            root,
            lenient,
            max_depth,
            regexes: HashMap::new(),
            active: Vec::new(),
            work: 0,
        }
    }

    /// Validates `inst` at `pointer` against `schema`, adding what it finds to `out`.
    pub(crate) fn check(
        &mut self,
        schema: &'s Value,
        inst: &Value,
        pointer: &str,
        depth: usize,
        out: &mut Findings,
    ) {
        self.work += 1;
        if self.work > WORK_LIMIT || depth > EVAL_DEPTH_LIMIT {
            return;
        }
        let map = match schema {
            Value::Object(map) => map,
            Value::Bool(false) => {
                out.problems.push(Problem {
                    pointer: pointer.to_owned(),
                    sent: Some(inst.clone()),
                    kind: ProblemKind::NotAllowed,
                });
                return;
            }
            _ => return,
        };
        if pointer.matches('/').count() > self.max_depth {
            out.problems.push(Problem {
                pointer: pointer.to_owned(),
                sent: None,
                kind: ProblemKind::TooDeep {
                    limit: self.max_depth,
                },
            });
            return;
        }
        if let Value::String(text) = inst
            && self.json_text_handled(schema, text, pointer, depth, out)
        {
            return;
        }
        if map.get("nullable") == Some(&Value::Bool(true)) && inst.is_null() {
            return;
        }
        for key in ["$ref", "$dynamicRef", "$recursiveRef"] {
            if let Some(reference) = map.get(key).and_then(Value::as_str) {
                self.follow(reference, inst, pointer, depth, out);
            }
        }
        if let Some(types) = own_types(map)
            && !types.is_empty()
            && !accepts_any(&types, inst)
        {
            out.problems.push(Problem {
                pointer: pointer.to_owned(),
                sent: Some(inst.clone()),
                kind: ProblemKind::WrongType {
                    expected: types,
                    found: JsonType::of(inst),
                    json_text: false,
                },
            });
            return;
        }
        if let Some(values) = map.get("enum").and_then(Value::as_array)
            && !values.iter().any(|v| crate::json_type::json_eq(v, inst))
        {
            out.problems.push(Problem {
                pointer: pointer.to_owned(),
                sent: Some(inst.clone()),
                kind: ProblemKind::NotInEnum {
                    allowed: values.clone(),
                },
            });
        }
        if let Some(expected) = map.get("const")
            && !crate::json_type::json_eq(expected, inst)
        {
            out.problems.push(Problem {
                pointer: pointer.to_owned(),
                sent: Some(inst.clone()),
                kind: ProblemKind::NotConst {
                    expected: expected.clone(),
                },
            });
        }
        match inst {
            Value::Object(obj) => self.object(map, obj, inst, pointer, depth, out),
            Value::Array(items) => self.array(map, items, pointer, depth, out),
            Value::String(s) => self.string(map, s, inst, pointer, out),
            Value::Number(n) => self.number(map, n, inst, pointer, out),
            _ => {}
        }
        self.combinators(map, inst, pointer, depth, out);
    }

    /// A string of JSON text where an object/array is expected: a pointed message, or (lenient)
    /// the parsed value validated in its place. Returns whether the string was dealt with.
    fn json_text_handled(
        &mut self,
        schema: &'s Value,
        text: &str,
        pointer: &str,
        depth: usize,
        out: &mut Findings,
    ) -> bool {
        let Some(expected) = self.expected_types(schema, depth) else {
            return false;
        };
        if expected.contains(&JsonType::String)
            || !expected
                .iter()
                .any(|t| matches!(t, JsonType::Object | JsonType::Array))
        {
            return false;
        }
        let Some(parsed) = json_text(text) else {
            return false;
        };
        if !accepts_any(&expected, &parsed) {
            return false;
        }
        if self.lenient {
            let mut inner = Findings::default();
            self.check(schema, &parsed, pointer, depth + 1, &mut inner);
            if inner.problems.is_empty() {
                out.coercions.push(Coercion {
                    pointer: pointer.to_owned(),
                    parsed,
                });
                out.coercions.extend(inner.coercions);
                return true;
            }
        }
        out.problems.push(Problem {
            pointer: pointer.to_owned(),
            sent: Some(Value::String(text.to_owned())),
            kind: ProblemKind::WrongType {
                expected,
                found: JsonType::String,
                json_text: true,
            },
        });
        true
    }

    /// The types a schema admits, when it says: its `type`, or the union over its
    /// `anyOf`/`oneOf` branches, or its reference's.
    pub(crate) fn expected_types(&self, schema: &'s Value, depth: usize) -> Option<Vec<JsonType>> {
        if depth > 32 {
            return None;
        }
        let map = schema.as_object()?;
        if let Some(types) = own_types(map) {
            return (!types.is_empty()).then_some(types);
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(branches) = map.get(key).and_then(Value::as_array) {
                let mut all = Vec::new();
                for b in branches {
                    for t in self.expected_types(b, depth + 1)? {
                        if !all.contains(&t) {
                            all.push(t);
                        }
                    }
                }
                return (!all.is_empty()).then_some(all);
            }
        }
        if let Some(target) = map
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| resolve(self.root, r))
        {
            return self.expected_types(target, depth + 1);
        }
        if let Some(c) = map.get("const") {
            return Some(vec![JsonType::of(c)]);
        }
        None
    }

    fn follow(
        &mut self,
        reference: &str,
        inst: &Value,
        pointer: &str,
        depth: usize,
        out: &mut Findings,
    ) {
        let Some(target) = resolve(self.root, reference) else {
            return;
        };
        let key = (target as *const Value, inst as *const Value);
        if self.active.contains(&key) {
            return;
        }
        self.active.push(key);
        self.check(target, inst, pointer, depth + 1, out);
        self.active.pop();
    }

    fn regex(&mut self, pattern: &'s str) -> Option<&Regex> {
        self.regexes
            .entry(pattern)
            .or_insert_with(|| {
                if pattern.len() > 4096 {
                    return None;
                }
                regex::RegexBuilder::new(pattern)
                    .size_limit(1 << 20)
                    .dfa_size_limit(1 << 20)
                    .build()
                    .ok()
            })
            .as_ref()
    }

    fn object(
        &mut self,
        map: &'s Map<String, Value>,
        obj: &Map<String, Value>,
        inst: &Value,
        pointer: &str,
        depth: usize,
        out: &mut Findings,
    ) {
        let props = map.get("properties").and_then(Value::as_object);
        let patterns: Vec<(&'s str, &'s Value)> = map
            .get("patternProperties")
            .and_then(Value::as_object)
            .map(|p| p.iter().map(|(k, v)| (k.as_str(), v)).collect())
            .unwrap_or_default();
        let declared = |this: &mut Self, key: &str| -> Vec<&'s Value> {
            patterns
                .iter()
                .filter(|(p, _)| this.regex(p).is_some_and(|re| re.is_match(key)))
                .map(|(_, s)| *s)
                .collect()
        };
        let mut claimed: Vec<String> = Vec::new();
        if let Some(required) = map.get("required").and_then(Value::as_array) {
            let mut unclaimed: Vec<&str> = Vec::new();
            for k in obj.keys() {
                if !props.is_some_and(|p| p.contains_key(k)) && declared(self, k).is_empty() {
                    unclaimed.push(k.as_str());
                }
            }
            for name in required.iter().filter_map(Value::as_str) {
                if obj.contains_key(name) {
                    continue;
                }
                let alias = probable_alias(name, &unclaimed);
                if let Some(a) = alias {
                    unclaimed.retain(|k| *k != a);
                    claimed.push(a.to_owned());
                }
                let expected = props
                    .and_then(|p| p.get(name))
                    .and_then(|s| self.expected_types(s, depth))
                    .unwrap_or_default();
                out.problems.push(Problem {
                    pointer: with_segment(pointer, name),
                    sent: alias.and_then(|a| obj.get(a)).cloned(),
                    kind: ProblemKind::Missing {
                        expected,
                        alias_sent: alias.map(str::to_owned),
                        required_by: None,
                    },
                });
            }
        }
        for (key, value) in obj {
            let child = with_segment(pointer, key);
            let mut matched = false;
            if let Some(sub) = props.and_then(|p| p.get(key)) {
                matched = true;
                self.check(sub, value, &child, depth + 1, out);
            }
            for sub in declared(self, key) {
                matched = true;
                self.check(sub, value, &child, depth + 1, out);
            }
            if matched {
                continue;
            }
            match map.get("additionalProperties") {
                Some(Value::Bool(false)) => {
                    if claimed.iter().any(|c| c == key) {
                        continue;
                    }
                    let names: Vec<&str> = props
                        .map(|p| p.keys().map(String::as_str).collect())
                        .unwrap_or_default();
                    out.problems.push(Problem {
                        pointer: child,
                        sent: Some(value.clone()),
                        kind: ProblemKind::UnknownField {
                            allowed: closest_first(key, names.iter().copied())
                                .into_iter()
                                .map(str::to_owned)
                                .collect(),
                            suggestion: probable_field(key, &names).map(str::to_owned),
                        },
                    });
                }
                Some(sub @ Value::Object(_)) => self.check(sub, value, &child, depth + 1, out),
                _ => {}
            }
        }
        if let Some(names_schema) = map.get("propertyNames") {
            for key in obj.keys() {
                let mut inner = Findings::default();
                self.check(
                    names_schema,
                    &Value::String(key.clone()),
                    "",
                    depth + 1,
                    &mut inner,
                );
                if let Some(first) = inner.problems.first() {
                    let text = first.to_string();
                    let reason = text
                        .strip_prefix("input ")
                        .map_or(text.clone(), |rest| format!("it {rest}"));
                    out.problems.push(Problem {
                        pointer: with_segment(pointer, key),
                        sent: None,
                        kind: ProblemKind::InvalidFieldName { reason },
                    });
                }
            }
        }
        let count = obj.len() as u64;
        if let Some(min) = count_limit(map, "minProperties").filter(|m| count < *m) {
            out.problems.push(Problem {
                pointer: pointer.to_owned(),
                sent: Some(inst.clone()),
                kind: ProblemKind::TooFewFields { min },
            });
        }
        if let Some(max) = count_limit(map, "maxProperties").filter(|m| count > *m) {
            out.problems.push(Problem {
                pointer: pointer.to_owned(),
                sent: Some(inst.clone()),
                kind: ProblemKind::TooManyFields { max },
            });
        }
        let dependent_required = |by: &str, names: &'s Value, out: &mut Findings| {
            for name in names
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
            {
                if !obj.contains_key(name) {
                    out.problems.push(Problem {
                        pointer: with_segment(pointer, name),
                        sent: None,
                        kind: ProblemKind::Missing {
                            expected: Vec::new(),
                            alias_sent: None,
                            required_by: Some(by.to_owned()),
                        },
                    });
                }
            }
        };
        for (by, names) in map
            .get("dependentRequired")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            if obj.contains_key(by) {
                dependent_required(by, names, out);
            }
        }
        for (by, dep) in map
            .get("dependencies")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            if obj.contains_key(by) {
                if dep.is_array() {
                    dependent_required(by, dep, out);
                } else {
                    self.check(dep, inst, pointer, depth + 1, out);
                }
            }
        }
        for (by, dep) in map
            .get("dependentSchemas")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            if obj.contains_key(by) {
                self.check(dep, inst, pointer, depth + 1, out);
            }
        }
    }

    fn array(
        &mut self,
        map: &'s Map<String, Value>,
        items: &[Value],
        pointer: &str,
        depth: usize,
        out: &mut Findings,
    ) {
        let (tuple, rest) = match (map.get("prefixItems"), map.get("items")) {
            (Some(Value::Array(prefix)), items) => (Some(prefix), items),
            (_, Some(Value::Array(prefix))) => (Some(prefix), map.get("additionalItems")),
            (_, items) => (None, items),
        };
        let tuple_len = tuple.map_or(0, Vec::len);
        for (i, item) in items.iter().enumerate() {
            let sub = match tuple.and_then(|t| t.get(i)) {
                Some(s) => Some(s),
                None if i >= tuple_len => rest,
                None => None,
            };
            if let Some(sub) = sub {
                self.check(sub, item, &format!("{pointer}/{i}"), depth + 1, out);
            }
        }
        let sent = || Some(Value::Array(items.to_vec()));
        let len = items.len() as u64;
        if let Some(min) = count_limit(map, "minItems").filter(|m| len < *m) {
            out.problems.push(Problem {
                pointer: pointer.to_owned(),
                sent: sent(),
                kind: ProblemKind::TooFewItems { min },
            });
        }
        if let Some(max) = count_limit(map, "maxItems").filter(|m| len > *m) {
            out.problems.push(Problem {
                pointer: pointer.to_owned(),
                sent: sent(),
                kind: ProblemKind::TooManyItems { max },
            });
        }
        if map.get("uniqueItems") == Some(&Value::Bool(true)) {
            'outer: for (i, a) in items.iter().enumerate() {
                for (j, b) in items.iter().enumerate().skip(i + 1) {
                    if crate::json_type::json_eq(a, b) {
                        out.problems.push(Problem {
                            pointer: pointer.to_owned(),
                            sent: None,
                            kind: ProblemKind::DuplicateItems {
                                first: i,
                                second: j,
                            },
                        });
                        break 'outer;
                    }
                }
            }
        }
        if let Some(contains) = map.get("contains") {
            let matched = items
                .iter()
                .filter(|item| {
                    let mut inner = Findings::default();
                    self.check(contains, item, "", depth + 1, &mut inner);
                    inner.problems.is_empty()
                })
                .count();
            let min = count_limit(map, "minContains").unwrap_or(1);
            let max = count_limit(map, "maxContains");
            if (matched as u64) < min || max.is_some_and(|m| matched as u64 > m) {
                out.problems.push(Problem {
                    pointer: pointer.to_owned(),
                    sent: None,
                    kind: ProblemKind::ContainsCount { matched, min, max },
                });
            }
        }
    }

    fn string(
        &mut self,
        map: &'s Map<String, Value>,
        s: &str,
        inst: &Value,
        pointer: &str,
        out: &mut Findings,
    ) {
        let needs_len = map.contains_key("minLength") || map.contains_key("maxLength");
        let len = if needs_len {
            s.chars().count() as u64
        } else {
            0
        };
        if let Some(min) = count_limit(map, "minLength").filter(|m| len < *m) {
            out.problems.push(Problem {
                pointer: pointer.to_owned(),
                sent: Some(inst.clone()),
                kind: ProblemKind::TooShort { min },
            });
        }
        if let Some(max) = count_limit(map, "maxLength").filter(|m| len > *m) {
            out.problems.push(Problem {
                pointer: pointer.to_owned(),
                sent: Some(inst.clone()),
                kind: ProblemKind::TooLong { max },
            });
        }
        if let Some(pattern) = map.get("pattern").and_then(Value::as_str)
            && self.regex(pattern).is_some_and(|re| !re.is_match(s))
        {
            out.problems.push(Problem {
                pointer: pointer.to_owned(),
                sent: Some(inst.clone()),
                kind: ProblemKind::PatternMismatch {
                    pattern: pattern.to_owned(),
                },
            });
        }
        if let Some(format) = map.get("format").and_then(Value::as_str)
            && crate::format::check(format, s) == Some(false)
        {
            out.problems.push(Problem {
                pointer: pointer.to_owned(),
                sent: Some(inst.clone()),
                kind: ProblemKind::InvalidFormat {
                    format: format.to_owned(),
                },
            });
        }
    }

    fn number(
        &mut self,
        map: &'s Map<String, Value>,
        n: &Number,
        inst: &Value,
        pointer: &str,
        out: &mut Findings,
    ) {
        let x = number_f64(n);
        let mut push = |kind| {
            out.problems.push(Problem {
                pointer: pointer.to_owned(),
                sent: Some(inst.clone()),
                kind,
            })
        };
        let draft4_min_excl = map.get("exclusiveMinimum") == Some(&Value::Bool(true));
        let draft4_max_excl = map.get("exclusiveMaximum") == Some(&Value::Bool(true));
        if let Some(Value::Number(limit)) = map.get("minimum") {
            let l = number_f64(limit);
            if x < l || (draft4_min_excl && x <= l) {
                push(ProblemKind::BelowMinimum {
                    limit: limit.clone(),
                    exclusive: draft4_min_excl,
                });
            }
        }
        if let Some(Value::Number(limit)) = map.get("maximum") {
            let l = number_f64(limit);
            if x > l || (draft4_max_excl && x >= l) {
                push(ProblemKind::AboveMaximum {
                    limit: limit.clone(),
                    exclusive: draft4_max_excl,
                });
            }
        }
        if let Some(Value::Number(limit)) = map.get("exclusiveMinimum")
            && x <= number_f64(limit)
        {
            push(ProblemKind::BelowMinimum {
                limit: limit.clone(),
                exclusive: true,
            });
        }
        if let Some(Value::Number(limit)) = map.get("exclusiveMaximum")
            && x >= number_f64(limit)
        {
            push(ProblemKind::AboveMaximum {
                limit: limit.clone(),
                exclusive: true,
            });
        }
        if let Some(Value::Number(divisor)) = map.get("multipleOf")
            && !is_multiple(n, divisor)
        {
            push(ProblemKind::NotMultipleOf {
                divisor: divisor.clone(),
            });
        }
    }

    fn combinators(
        &mut self,
        map: &'s Map<String, Value>,
        inst: &Value,
        pointer: &str,
        depth: usize,
        out: &mut Findings,
    ) {
        for sub in map
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            self.check(sub, inst, pointer, depth + 1, out);
        }
        if let Some(branches) = map.get("anyOf").and_then(Value::as_array) {
            self.alternatives(branches, false, inst, pointer, depth, out);
        }
        if let Some(branches) = map.get("oneOf").and_then(Value::as_array) {
            self.alternatives(branches, true, inst, pointer, depth, out);
        }
        if let Some(not) = map.get("not") {
            let mut inner = Findings::default();
            self.check(not, inst, pointer, depth + 1, &mut inner);
            if inner.problems.is_empty() {
                out.problems.push(Problem {
                    pointer: pointer.to_owned(),
                    sent: Some(inst.clone()),
                    kind: ProblemKind::Forbidden {
                        schema: crate::json_type::render_value(not, 120),
                    },
                });
            }
        }
        if let Some(condition) = map.get("if") {
            let mut inner = Findings::default();
            self.check(condition, inst, pointer, depth + 1, &mut inner);
            let branch = if inner.problems.is_empty() {
                map.get("then")
            } else {
                map.get("else")
            };
            if let Some(branch) = branch {
                self.check(branch, inst, pointer, depth + 1, out);
            }
        }
    }

    /// `anyOf` (`exactly_one` false) or `oneOf`: on failure, the problems of the branch the
    /// call most probably meant, or a type message naming every accepted type.
    fn alternatives(
        &mut self,
        branches: &'s [Value],
        exactly_one: bool,
        inst: &Value,
        pointer: &str,
        depth: usize,
        out: &mut Findings,
    ) {
        let mut results: Vec<Findings> = Vec::with_capacity(branches.len());
        for b in branches {
            let mut inner = Findings::default();
            self.check(b, inst, pointer, depth + 1, &mut inner);
            results.push(inner);
            if !exactly_one && results.last().is_some_and(|r| r.problems.is_empty()) {
                break;
            }
        }
        let matched: Vec<usize> = results
            .iter()
            .enumerate()
            .filter(|(_, r)| r.problems.is_empty())
            .map(|(i, _)| i)
            .collect();
        match matched.as_slice() {
            [first, ..] if !exactly_one || matched.len() == 1 => {
                if let Some(r) = results.get_mut(*first) {
                    out.coercions.append(&mut r.coercions);
                }
                return;
            }
            [] => {}
            _ => {
                out.problems.push(Problem {
                    pointer: pointer.to_owned(),
                    sent: Some(inst.clone()),
                    kind: ProblemKind::SeveralAlternatives { matched },
                });
                return;
            }
        }
        let compatible: Vec<usize> = branches
            .iter()
            .enumerate()
            .filter(|(_, b)| {
                self.expected_types(b, depth + 1)
                    .is_none_or(|ts| accepts_any(&ts, inst))
            })
            .map(|(i, _)| i)
            .collect();
        if compatible.is_empty() {
            let mut expected: Vec<JsonType> = Vec::new();
            for b in branches {
                for t in self.expected_types(b, depth + 1).unwrap_or_default() {
                    if !expected.contains(&t) {
                        expected.push(t);
                    }
                }
            }
            out.problems.push(Problem {
                pointer: pointer.to_owned(),
                sent: Some(inst.clone()),
                kind: ProblemKind::WrongType {
                    expected,
                    found: JsonType::of(inst),
                    json_text: false,
                },
            });
            return;
        }
        let score = |f: &Findings| {
            let mismatched_tags = f
                .problems
                .iter()
                .filter(|p| {
                    p.pointer != pointer
                        && matches!(
                            p.kind,
                            ProblemKind::NotConst { .. } | ProblemKind::NotInEnum { .. }
                        )
                })
                .count();
            mismatched_tags * 100 + f.problems.len()
        };
        let best = compatible
            .iter()
            .filter_map(|i| results.get(*i))
            .min_by_key(|f| score(f));
        match best {
            Some(best) if !best.problems.is_empty() => {
                out.problems.extend(best.problems.iter().cloned())
            }
            _ => out.problems.push(Problem {
                pointer: pointer.to_owned(),
                sent: Some(inst.clone()),
                kind: ProblemKind::NoAlternative {
                    count: branches.len(),
                },
            }),
        }
    }
}
