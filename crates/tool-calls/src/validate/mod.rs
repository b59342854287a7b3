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
//! cannot compile goes to `fancy-regex` with a backtrack limit, and one neither evaluates is
//! reported as not checked), `format` (see [`crate::format`]), `minimum`, `maximum`,
//! `exclusiveMinimum`/`exclusiveMaximum` (numeric and draft-04 boolean), `multipleOf`, `allOf`,
//! `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, OpenAPI `nullable`, local `$ref` (and
//! `$dynamicRef`/`$recursiveRef` treated as plain local references).
//! Not supported (accept anything): `unevaluatedProperties`, `unevaluatedItems`, references to
//! other documents, `$id`-relative references.

use crate::aliases::{closest_first, probable_alias, probable_field};
use crate::resolve::resolve;
use crate::{Coercion, JsonType, Problem, ProblemKind};
use serde_json::{Map, Number, Value};
use std::collections::HashMap;

mod array;
mod combinators;
mod object;
mod pattern;
mod scalar;

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
    regexes: HashMap<&'s str, pattern::Pattern>,
    active: Vec<(*const Value, *const Value)>,
    work: usize,
}

fn with_segment(pointer: &str, key: &str) -> String {
    let mut out = pointer.to_owned();
    schema_core::pointer::push(&mut out, key);
    out
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

    /// Whether `s` matches `pattern`; `None` when that could not be evaluated.
    fn matches(&mut self, pattern: &'s str, s: &str) -> Option<bool> {
        self.regexes
            .entry(pattern)
            .or_insert_with(|| pattern::Pattern::compile(pattern))
            .is_match(s)
    }
}
