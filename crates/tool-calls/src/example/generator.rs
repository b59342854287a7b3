//! The example generator: walks a schema (following `$ref`s and the meant `anyOf`/`oneOf`
//! branch) and builds the example tree, object by object and array by array.

use super::leaves::number;
use super::{MAX_GEN_DEPTH, Mode, Node};
use crate::JsonType;
use crate::resolve::resolve;
use serde_json::Value;

/// Generates example trees for subschemas of one root schema.
pub(super) struct Generator<'a> {
    root: &'a Value,
    pub(super) mode: Mode,
    /// The value the call sent here, if any (placeholder mode mirrors its declared fields).
    pub(super) sent: Option<&'a Value>,
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
    pub(super) fn new(root: &'a Value, mode: Mode) -> Self {
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
    pub(super) fn node(&self, schema: &'a Value, depth: usize) -> Node {
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
