//! The worked example: a value of the expected shape, generated from the schema.
//!
//! Two modes. *Placeholder* (for messages): required fields only, strings as `"<string>"` (or
//! `"<date-time>"`, ...), the first `enum` value, the `const`, numbers within bounds, one item per
//! array, objects with no declared fields as `{...}`; rendered within a length budget.
//! *Valid* (for tests and `callWith` bodies that should pass): the same shape, with strings that
//! satisfy `format`, length and (when a simple candidate fits) `pattern`.

use crate::JsonType;
use crate::json_type::truncate;
use crate::resolve::resolve;
use serde_json::{Map, Number, Value};

/// How deep the generator descends before writing `{...}` / `null`.
const MAX_GEN_DEPTH: usize = 16;
/// The default length budget of a rendered example, in characters.
pub const EXAMPLE_BUDGET: usize = 400;

/// A generated example, before rendering.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node {
    /// A finished value.
    Leaf(Value),
    /// An object with these fields, in `required` order.
    Object(Vec<(String, Node)>),
    /// An object whose fields the schema leaves open: rendered `{...}`.
    Open,
    /// An array.
    Array(Vec<Node>),
}

/// Which kind of example to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Placeholders for a message.
    Placeholder,
    /// Values meant to validate.
    Valid,
}

/// A compact worked example of what `schema` expects, at most [`EXAMPLE_BUDGET`] characters.
///
/// ```
/// use serde_json::json;
/// let schema = json!({
///     "type": "object",
///     "properties": {
///         "namespace": {"type": "string"},
///         "toolName": {"type": "string"},
///         "arguments": {"type": "object"},
///         "unit": {"enum": ["celsius", "fahrenheit"]}
///     },
///     "required": ["namespace", "toolName", "arguments", "unit"]
/// });
/// assert_eq!(
///     tool_calls::worked_example(&schema),
///     r#"{"namespace":"<string>","toolName":"<string>","arguments":{...},"unit":"celsius"}"#
/// );
/// ```
pub fn worked_example(schema: &Value) -> String {
    render_bounded(
        &Generator::new(schema, Mode::Placeholder).node(schema, 0),
        EXAMPLE_BUDGET,
    )
}

/// An argument value that validates against `schema` in the common cases (required fields,
/// types, enums, bounds, formats, simple patterns); a best effort, not a solver.
///
/// ```
/// use serde_json::json;
/// let schema = json!({
///     "type": "object",
///     "properties": {"when": {"type": "string", "format": "date"}, "n": {"type": "integer", "minimum": 3}},
///     "required": ["when", "n"]
/// });
/// let args = tool_calls::example_arguments(&schema);
/// assert_eq!(args, json!({"when": "2024-01-31", "n": 3}));
/// assert!(tool_calls::validate(&schema, &args).is_ok());
/// ```
pub fn example_arguments(schema: &Value) -> Value {
    to_value(&Generator::new(schema, Mode::Valid).node(schema, 0))
}

/// The placeholder example tree of `schema`.
pub(crate) fn placeholder(schema: &Value) -> Node {
    Generator::new(schema, Mode::Placeholder).node(schema, 0)
}

/// The placeholder example tree of `schema` for a call that sent `sent`: besides the required
/// fields, the declared fields the call used appear too, so the example mirrors the attempt.
pub(crate) fn placeholder_for(schema: &Value, sent: &Value) -> Node {
    let mut generator = Generator::new(schema, Mode::Placeholder);
    generator.sent = Some(sent);
    generator.node(schema, 0)
}

/// Converts a tree to a JSON value (`{...}` becomes `{}`).
pub(crate) fn to_value(node: &Node) -> Value {
    match node {
        Node::Leaf(v) => v.clone(),
        Node::Open => Value::Object(Map::new()),
        Node::Array(items) => Value::Array(items.iter().map(to_value).collect()),
        Node::Object(fields) => Value::Object(
            fields
                .iter()
                .map(|(k, v)| (k.clone(), to_value(v)))
                .collect(),
        ),
    }
}

/// Renders a tree within `budget` characters: first by eliding deep levels as `{...}`/`[...]`,
/// then by cutting the text with `...`.
pub(crate) fn render_bounded(node: &Node, budget: usize) -> String {
    for max_depth in (1..=MAX_GEN_DEPTH).rev() {
        let mut out = String::new();
        render(node, 0, max_depth, &mut out);
        if out.chars().count() <= budget {
            return out;
        }
    }
    let mut out = String::new();
    render(node, 0, 1, &mut out);
    truncate(&out, budget)
}

fn render(node: &Node, depth: usize, max_depth: usize, out: &mut String) {
    match node {
        Node::Leaf(v) => out.push_str(&v.to_string()),
        Node::Open => out.push_str("{...}"),
        Node::Object(fields) if fields.is_empty() => out.push_str("{}"),
        Node::Object(_) if depth >= max_depth => out.push_str("{...}"),
        Node::Object(fields) => {
            out.push('{');
            for (i, (k, v)) in fields.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                render(v, depth + 1, max_depth, out);
            }
            out.push('}');
        }
        Node::Array(items) if items.is_empty() => out.push_str("[]"),
        Node::Array(_) if depth >= max_depth => out.push_str("[...]"),
        Node::Array(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                render(v, depth + 1, max_depth, out);
            }
            out.push(']');
        }
    }
}

/// Generates example trees for subschemas of one root schema.
struct Generator<'a> {
    root: &'a Value,
    mode: Mode,
    /// The value the call sent here, if any (placeholder mode mirrors its declared fields).
    sent: Option<&'a Value>,
}

/// A schema's `type` keyword as a list.
fn own_types(schema: &Value) -> Vec<JsonType> {
    match schema.get("type") {
        Some(Value::String(t)) => JsonType::from_keyword(t).into_iter().collect(),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .filter_map(JsonType::from_keyword)
            .collect(),
        _ => Vec::new(),
    }
}

fn has_any(schema: &Value, keywords: &[&str]) -> bool {
    keywords.iter().any(|k| schema.get(k).is_some())
}

impl<'a> Generator<'a> {
    fn new(root: &'a Value, mode: Mode) -> Self {
        Self {
            root,
            mode,
            sent: None,
        }
    }

    /// The branch of an `anyOf`/`oneOf` to exemplify: the first that is not just `null`.
    fn branch(&self, schema: &'a Value) -> Option<&'a Value> {
        let branches = schema
            .get("anyOf")
            .or_else(|| schema.get("oneOf"))?
            .as_array()?;
        branches
            .iter()
            .find(|b| {
                let b = self.deref(b);
                !(own_types(b) == [JsonType::Null] || b.get("const").is_some_and(Value::is_null))
            })
            .or_else(|| branches.first())
    }

    /// Follows `$ref`s a bounded number of times.
    fn deref(&self, mut schema: &'a Value) -> &'a Value {
        for _ in 0..16 {
            match schema
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| resolve(self.root, r))
            {
                Some(target) => schema = target,
                None => break,
            }
        }
        schema
    }

    /// The type to exemplify.
    fn pick_type(&self, schema: &'a Value, depth: usize) -> Option<JsonType> {
        if depth > MAX_GEN_DEPTH {
            return None;
        }
        let types = own_types(schema);
        if let Some(t) = types
            .iter()
            .find(|t| **t != JsonType::Null)
            .or(types.first())
        {
            return Some(*t);
        }
        if has_any(
            schema,
            &[
                "properties",
                "required",
                "additionalProperties",
                "patternProperties",
                "minProperties",
            ],
        ) {
            return Some(JsonType::Object);
        }
        if has_any(
            schema,
            &[
                "items",
                "prefixItems",
                "minItems",
                "maxItems",
                "contains",
                "uniqueItems",
            ],
        ) {
            return Some(JsonType::Array);
        }
        if has_any(schema, &["minLength", "maxLength", "pattern", "format"]) {
            return Some(JsonType::String);
        }
        if has_any(
            schema,
            &[
                "minimum",
                "maximum",
                "exclusiveMinimum",
                "exclusiveMaximum",
                "multipleOf",
            ],
        ) {
            return Some(JsonType::Number);
        }
        if let Some(target) = schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| resolve(self.root, r))
        {
            return self.pick_type(target, depth + 1);
        }
        if let Some(all) = schema.get("allOf").and_then(Value::as_array) {
            return all.iter().find_map(|b| self.pick_type(b, depth + 1));
        }
        self.branch(schema)
            .and_then(|b| self.pick_type(b, depth + 1))
    }

    /// Required names and property schemas, gathered through `$ref`, `allOf` and the chosen
    /// `anyOf`/`oneOf` branch.
    fn object_parts(
        &self,
        schema: &'a Value,
        depth: usize,
        required: &mut Vec<String>,
        props: &mut Vec<(String, &'a Value)>,
    ) {
        if depth > MAX_GEN_DEPTH {
            return;
        }
        if let Some(names) = schema.get("required").and_then(Value::as_array) {
            for name in names.iter().filter_map(Value::as_str) {
                if !required.iter().any(|r| r == name) {
                    required.push(name.to_owned());
                }
            }
        }
        if let Some(p) = schema.get("properties").and_then(Value::as_object) {
            for (k, v) in p {
                if !props.iter().any(|(n, _)| n == k) {
                    props.push((k.clone(), v));
                }
            }
        }
        if let Some(target) = schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| resolve(self.root, r))
        {
            self.object_parts(target, depth + 1, required, props);
        }
        for b in schema
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            self.object_parts(b, depth + 1, required, props);
        }
        if let Some(b) = self.branch(schema) {
            self.object_parts(b, depth + 1, required, props);
        }
    }

    /// The example tree of `schema`.
    fn node(&self, schema: &'a Value, depth: usize) -> Node {
        if depth > MAX_GEN_DEPTH {
            return Node::Leaf(Value::Null);
        }
        let Value::Object(map) = schema else {
            return match schema {
                Value::Bool(false) => Node::Leaf(Value::Null),
                _ => self.any(),
            };
        };
        if let Some(c) = map.get("const") {
            return Node::Leaf(c.clone());
        }
        if let Some(values) = map.get("enum").and_then(Value::as_array) {
            let first = values.iter().find(|v| !v.is_null()).or(values.first());
            return Node::Leaf(first.cloned().unwrap_or(Value::Null));
        }
        let structural = has_any(
            schema,
            &["type", "properties", "required", "items", "prefixItems"],
        );
        if !structural {
            if let Some(target) = map
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| resolve(self.root, r))
            {
                return self.node(target, depth + 1);
            }
            if let Some(b) = self.branch(schema) {
                return self.node(b, depth + 1);
            }
            if let Some(first) = map
                .get("allOf")
                .and_then(Value::as_array)
                .and_then(|a| a.first())
                && self.pick_type(schema, depth) != Some(JsonType::Object)
            {
                return self.node(first, depth + 1);
            }
        }
        match self.pick_type(schema, depth) {
            Some(JsonType::Object) => self.object(schema, depth),
            Some(JsonType::Array) => self.array(schema, depth),
            Some(JsonType::String) => self.string(schema),
            Some(t @ (JsonType::Integer | JsonType::Number)) => {
                Node::Leaf(number(schema, t == JsonType::Integer))
            }
            Some(JsonType::Boolean) => Node::Leaf(Value::Bool(true)),
            Some(JsonType::Null) => Node::Leaf(Value::Null),
            None => self.any(),
        }
    }

    fn any(&self) -> Node {
        Node::Leaf(Value::String(match self.mode {
            Mode::Placeholder => "<value>".into(),
            Mode::Valid => "example".into(),
        }))
    }

    fn object(&self, schema: &'a Value, depth: usize) -> Node {
        let (mut required, mut props) = (Vec::new(), Vec::new());
        self.object_parts(schema, depth, &mut required, &mut props);
        let additional = schema.get("additionalProperties");
        if required.is_empty()
            && props.is_empty()
            && self.mode == Mode::Placeholder
            && additional != Some(&Value::Bool(false))
        {
            return Node::Open;
        }
        let min = schema
            .get("minProperties")
            .and_then(Value::as_u64)
            .unwrap_or(0);
        let mut names = required;
        let sent = self.sent.and_then(Value::as_object);
        for key in sent.into_iter().flat_map(|o| o.keys()) {
            if !names.contains(key) && props.iter().any(|(k, _)| k == key) {
                names.push(key.clone());
            }
        }
        for (k, _) in &props {
            if (names.len() as u64) >= min || self.mode == Mode::Placeholder {
                break;
            }
            if !names.contains(k) {
                names.push(k.clone());
            }
        }
        let fields = names
            .into_iter()
            .map(|name| {
                let sub = props
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, s)| *s)
                    .or_else(|| pattern_property(schema, &name))
                    .or(additional.filter(|a| a.is_object()));
                let child = Generator {
                    root: self.root,
                    mode: self.mode,
                    sent: sent.and_then(|o| o.get(&name)),
                };
                let node = match sub {
                    Some(s) => child.node(s, depth + 1),
                    None => self.any(),
                };
                (name, node)
            })
            .collect();
        Node::Object(fields)
    }

    fn array(&self, schema: &'a Value, depth: usize) -> Node {
        let tuple = schema
            .get("prefixItems")
            .and_then(Value::as_array)
            .or_else(|| schema.get("items").and_then(Value::as_array));
        if let Some(tuple) = tuple {
            return Node::Array(tuple.iter().map(|s| self.node(s, depth + 1)).collect());
        }
        let max = schema.get("maxItems").and_then(Value::as_u64);
        let min = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0);
        let count = match self.mode {
            Mode::Placeholder => 1,
            Mode::Valid => min.max(1),
        }
        .min(max.unwrap_or(u64::MAX))
        .min(8);
        let first_sent = self.sent.and_then(Value::as_array).and_then(|a| a.first());
        let child = Generator {
            root: self.root,
            mode: self.mode,
            sent: first_sent,
        };
        let item = match schema.get("items") {
            Some(s) => child.node(s, depth + 1),
            None => self.any(),
        };
        Node::Array((0..count).map(|_| item.clone()).collect())
    }

    fn string(&self, schema: &Value) -> Node {
        let format = schema.get("format").and_then(Value::as_str);
        if self.mode == Mode::Placeholder {
            let label = format
                .filter(|f| crate::format::sample(f).is_some())
                .unwrap_or("string");
            return Node::Leaf(Value::String(format!("<{label}>")));
        }
        let min = schema.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
        let max = schema
            .get("maxLength")
            .and_then(Value::as_u64)
            .map(|m| m as usize);
        let fit = |s: &str| {
            let n = s.chars().count();
            n >= min && max.is_none_or(|m| n <= m)
        };
        let sample = format.and_then(crate::format::sample);
        let pattern = schema
            .get("pattern")
            .and_then(Value::as_str)
            .and_then(|p| regex::RegexBuilder::new(p).size_limit(1 << 20).build().ok());
        let mut candidates: Vec<String> = sample.map(str::to_owned).into_iter().collect();
        candidates.extend(
            [
                "example",
                "a",
                "abc",
                "A",
                "ABC",
                "1",
                "123",
                "abc123",
                "x1",
                "2024-01-31",
                "example.com",
                "a-b",
                "a_b",
                "AB12",
                "ab-12",
                "https://example.com/",
                "user@example.com",
                "v1.0.0",
                "main",
                "#ffffff",
                "en",
                "US",
                "00000000-0000-0000-0000-000000000000",
            ]
            .iter()
            .map(|s| (*s).to_owned()),
        );
        if let Some(re) = &pattern
            && let Some(found) = candidates.iter().find(|c| re.is_match(c) && fit(c))
        {
            return Node::Leaf(Value::String(found.clone()));
        }
        let mut s = sample.unwrap_or("example").to_owned();
        while s.chars().count() < min.min(10_000) {
            s.push('x');
        }
        if let Some(m) = max {
            s = s.chars().take(m).collect();
        }
        Node::Leaf(Value::String(s))
    }
}

/// The schema of `name` under `patternProperties`, when a pattern matches.
fn pattern_property<'a>(schema: &'a Value, name: &str) -> Option<&'a Value> {
    schema
        .get("patternProperties")?
        .as_object()?
        .iter()
        .find_map(|(p, s)| {
            regex::Regex::new(p)
                .ok()
                .filter(|re| re.is_match(name))
                .map(|_| s)
        })
}

/// A number within the schema's bounds (and a multiple of `multipleOf` when it can).
fn number(schema: &Value, integer: bool) -> Value {
    let f = |k: &str| schema.get(k).and_then(Value::as_f64);
    let step = if integer { 1.0 } else { 0.5 };
    let mut lo = f("minimum");
    let mut hi = f("maximum");
    match schema.get("exclusiveMinimum") {
        Some(Value::Number(n)) => lo = n.as_f64().map(|x| x + step),
        Some(Value::Bool(true)) => lo = lo.map(|x| x + step),
        _ => {}
    }
    match schema.get("exclusiveMaximum") {
        Some(Value::Number(n)) => hi = n.as_f64().map(|x| x - step),
        Some(Value::Bool(true)) => hi = hi.map(|x| x - step),
        _ => {}
    }
    let mut v = 0.0_f64;
    if let Some(lo) = lo.filter(|lo| *lo > v) {
        v = lo;
    }
    if let Some(hi) = hi.filter(|hi| *hi < v) {
        v = hi;
    }
    if integer {
        v = v.ceil();
    }
    if let Some(m) = f("multipleOf").filter(|m| *m > 0.0) {
        let k = (v / m).ceil();
        if k.is_finite() {
            v = k * m;
        }
    }
    if v.fract() == 0.0 && v.abs() < 9.0e15 {
        Value::Number(Number::from(v as i64))
    } else {
        Number::from_f64(v).map_or(Value::Null, Value::Number)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn placeholders_follow_types_and_required_order() {
        let schema = json!({
            "type": "object",
            "properties": {"b": {"type": "integer", "minimum": 5}, "a": {"type": ["string", "null"], "format": "uri"},
                           "c": {"type": "array", "items": {"type": "boolean"}}, "d": {"const": "x"}},
            "required": ["c", "a", "b", "d"]
        });
        assert_eq!(
            worked_example(&schema),
            r#"{"c":[true],"a":"<uri>","b":5,"d":"x"}"#
        );
    }

    #[test]
    fn refs_and_any_of_are_followed() {
        let schema = json!({
            "$defs": {"P": {"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"]}},
            "type": "object",
            "properties": {"p": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/P"}]}},
            "required": ["p"]
        });
        assert_eq!(worked_example(&schema), r#"{"p":{"x":0}}"#);
    }

    #[test]
    fn recursive_schemas_stay_bounded() {
        let schema = json!({"$ref": "#/$defs/n", "$defs": {"n": {"type": "object", "properties": {"next": {"$ref": "#/$defs/n"}}, "required": ["next"]}}});
        let text = worked_example(&schema);
        assert!(text.chars().count() <= EXAMPLE_BUDGET, "{text}");
        let self_ref = json!({"$ref": "#"});
        assert_eq!(worked_example(&self_ref), "null");
    }

    #[test]
    fn long_examples_are_elided() {
        let props: Map<String, Value> = (0..100)
            .map(|i| (format!("field{i}"), json!({"type": "string"})))
            .collect();
        let required: Vec<String> = props.keys().cloned().collect();
        let text =
            worked_example(&json!({"type": "object", "properties": props, "required": required}));
        assert!(text.ends_with("..."), "{text}");
        assert!(text.chars().count() <= EXAMPLE_BUDGET);
    }

    #[test]
    fn valid_strings_respect_patterns_and_lengths() {
        let s = json!({"type": "string", "pattern": "^[0-9]+$", "minLength": 2});
        assert_eq!(example_arguments(&s), json!("123"));
        let s = json!({"type": "string", "minLength": 10});
        assert_eq!(example_arguments(&s), json!("examplexxx"));
    }

    #[test]
    fn numbers_respect_bounds() {
        assert_eq!(number(&json!({"exclusiveMinimum": 0}), true), json!(1));
        assert_eq!(number(&json!({"maximum": -3}), true), json!(-3));
        assert_eq!(number(&json!({"minimum": 0.25}), false), json!(0.25));
        assert_eq!(
            number(&json!({"minimum": 7, "multipleOf": 5}), true),
            json!(10)
        );
    }
}
