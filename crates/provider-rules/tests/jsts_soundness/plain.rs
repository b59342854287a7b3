//! A sanitized result read back as plain JSON Schema, and an instance read as the result's
//! profile would send it.

use crate::suite::*;
use jsonschema::Draft;
use schema_core::{Keyword, Shape};
use serde_json::{Map, Value, json};

/// The sanitized result read back as plain JSON Schema.
pub(crate) fn to_plain(v: &Value) -> Value {
    let Value::Object(o) = v else {
        return v.clone();
    };
    let mut out = Map::new();
    for (k, x) in o {
        let k = k.as_str();
        if matches!(k, "propertyOrdering" | "example" | "nullable") {
            continue;
        }
        // Where subschemas stand is schema-core's keyword table ([`Keyword::shape`]).
        let x = match (Keyword::from_name(k).map(Keyword::shape), x) {
            (Some(Shape::SchemaMap | Shape::Dependencies), Value::Object(m)) => Value::Object(
                m.iter()
                    .map(|(n, s)| {
                        (
                            n.clone(),
                            if s.is_array() { s.clone() } else { to_plain(s) },
                        )
                    })
                    .collect(),
            ),
            (Some(Shape::SchemaArray | Shape::SchemaOrArray), Value::Array(list)) => {
                Value::Array(list.iter().map(to_plain).collect())
            }
            (Some(Shape::Schema | Shape::SchemaOrArray), _) => to_plain(x),
            _ => x.clone(),
        };
        out.insert(k.to_owned(), x);
    }
    let out = Value::Object(out);
    if o.get("nullable") == Some(&Value::Bool(true)) {
        json!({"anyOf": [out, {"type": "null"}]})
    } else {
        out
    }
}

/// The JSON Schema type of an instance (`integer` for integral numbers).
pub(crate) fn instance_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) => {
            if n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0) {
                "integer"
            } else {
                "number"
            }
        }
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The types a schema's root speaks of (`None`: all).
pub(crate) fn spoken_types(schema: &Value) -> Option<Vec<&'static str>> {
    let Value::Object(o) = schema else {
        return None;
    };
    const ALL: [&str; 7] = [
        "null", "boolean", "integer", "number", "string", "array", "object",
    ];
    let named = |s: &str| ALL.iter().copied().find(|t| *t == s);
    match o.get("type") {
        Some(Value::String(s)) => return named(s).map(|t| vec![t]),
        Some(Value::Array(l)) => {
            return Some(
                l.iter()
                    .filter_map(|t| t.as_str().and_then(named))
                    .collect(),
            );
        }
        _ => {}
    }
    let mut out = Vec::new();
    for k in o.keys() {
        let t = match k.as_str() {
            "minLength" | "maxLength" | "pattern" | "contentEncoding" | "contentMediaType"
            | "contentSchema" => "string",
            "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => {
                "number"
            }
            // The suite's formats are string formats ("all string formats ignore integers").
            "format" => "string",
            "items" | "prefixItems" | "additionalItems" | "contains" | "minContains"
            | "maxContains" | "minItems" | "maxItems" | "uniqueItems" | "unevaluatedItems" => {
                "array"
            }
            "properties"
            | "patternProperties"
            | "additionalProperties"
            | "propertyNames"
            | "required"
            | "dependentRequired"
            | "dependentSchemas"
            | "dependencies"
            | "minProperties"
            | "maxProperties"
            | "unevaluatedProperties" => "object",
            _ => continue,
        };
        if !out.contains(&t) {
            out.push(t);
        }
    }
    if out.is_empty() { None } else { Some(out) }
}

/// Strict modes make every property required, optional ones nullable: a call that left one
/// out sends `null` instead. The instance is read that way before the result validates it.
pub(crate) fn fill_nulls(instance: &Value, schema: &Value) -> Value {
    let Value::Object(s) = schema else {
        return instance.clone();
    };
    if let Some(Value::Array(branches)) = s.get("anyOf") {
        for b in branches {
            let filled = fill_nulls(instance, b);
            if validator(b, Draft::Draft202012).is_some_and(|v| v.is_valid(&filled)) {
                return filled;
            }
        }
        return instance.clone();
    }
    match instance {
        Value::Object(i) => {
            let mut out = i.clone();
            if let Some(Value::Object(props)) = s.get("properties") {
                let required: Vec<&str> = s
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|r| r.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                // Undeclared properties of a closed object are not sent.
                if s.get("additionalProperties") == Some(&Value::Bool(false)) {
                    out.retain(|k, _| props.contains_key(k));
                }
                for (k, ps) in props {
                    match out.get(k) {
                        Some(v) => {
                            let v = fill_nulls(v, ps);
                            out.insert(k.clone(), v);
                        }
                        None if required.contains(&k.as_str()) => {
                            out.insert(k.clone(), Value::Null);
                        }
                        None => {}
                    }
                }
            }
            Value::Object(out)
        }
        Value::Array(a) => match s.get("items") {
            Some(items @ Value::Object(_)) => {
                Value::Array(a.iter().map(|x| fill_nulls(x, items)).collect())
            }
            _ => instance.clone(),
        },
        _ => instance.clone(),
    }
}

pub(crate) fn speaks_of(types: &Option<Vec<&'static str>>, instance: &Value) -> bool {
    let t = instance_type(instance);
    match types {
        None => true,
        Some(ts) => ts.contains(&t) || (t == "integer" && ts.contains(&"number")),
    }
}

/// The Schema proto has no `additionalProperties`; what Gemini does with an undeclared
/// property is not documented. Observed: a map (`{"type": "object"}` from
/// `additionalProperties`) "will always be empty" (pydantic/pydantic-ai#2588, the warning
/// pydantic-ai prints when it drops the keyword), and "even with some fairly extensive
/// prompting requesting it make use of the additionalProperties I can't get it to"
/// (pydantic/pydantic-ai#1430). Read so, every object of the result that does not say
/// `additionalProperties` is closed. Measured both ways; the figure is the open
/// (JSON Schema) reading.
pub(crate) fn close_objects(v: &Value) -> Value {
    match v {
        Value::Object(o) => {
            let mut out: Map<String, Value> = o
                .iter()
                .map(|(k, x)| {
                    let x = if matches!(k.as_str(), "enum" | "const" | "default" | "required") {
                        x.clone()
                    } else if matches!(
                        Keyword::from_name(k).map(Keyword::shape),
                        Some(Shape::SchemaMap | Shape::Dependencies)
                    ) {
                        match x {
                            Value::Object(m) => Value::Object(
                                m.iter()
                                    .map(|(n, s)| (n.clone(), close_objects(s)))
                                    .collect(),
                            ),
                            _ => x.clone(),
                        }
                    } else {
                        close_objects(x)
                    };
                    (k.clone(), x)
                })
                .collect();
            if o.get("type") == Some(&json!("object")) && !o.contains_key("additionalProperties") {
                out.insert("additionalProperties".to_owned(), Value::Bool(false));
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(close_objects).collect()),
        _ => v.clone(),
    }
}

/// Whether a sanitized schema holds an `anyOf` anywhere (keys of property maps included: a
/// property named `anyOf` only makes this conservative).
pub(crate) fn has_union(v: &Value) -> bool {
    match v {
        Value::Object(o) => o.iter().any(|(k, x)| k == "anyOf" || has_union(x)),
        Value::Array(a) => a.iter().any(has_union),
        _ => false,
    }
}

#[test]
fn plain_conversion_reads_nullable_as_a_null_branch() {
    assert_eq!(
        to_plain(&json!({"type": "string", "nullable": true, "example": "x"})),
        json!({"anyOf": [{"type": "string"}, {"type": "null"}]})
    );
    assert_eq!(
        to_plain(
            &json!({"properties": {"a": {"type": "integer", "nullable": true}}, "propertyOrdering": ["a"]})
        ),
        json!({"properties": {"a": {"anyOf": [{"type": "integer"}, {"type": "null"}]}}})
    );
}
