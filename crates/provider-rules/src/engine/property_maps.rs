//! `properties` maps with members that are not schemas, repaired member by member (gated by
//! [`Rules::repair_property_maps`](crate::Rules::repair_property_maps)).

use super::Cx;
use super::passes::At;
use crate::RuleId;
use schema_core::{
    DiagnosticKind, InstanceType, Keyword, ParseOptions, Schema, SchemaMap, SchemaObject, TypeSet,
    Value,
};
use serde::de::{Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use std::fmt;

/// A tree-level pass before `$ref` handling: a `properties` map the parser kept as data because
/// a member is not a schema becomes a map of schemas. A member that names a JSON type
/// (`"string"`) becomes `{"type": "string"}`; any other non-schema member accepts any value and
/// says what it was. Without this, every property of the map is lost with the malformed one.
/// Its step on one node ([`super::passes`] walks the tree).
pub(crate) fn repair(s: &mut Schema, p: &At<'_>, cx: &mut Cx<'_>) {
    let Some(o) = s.as_object_mut() else { return };
    for kw in [Keyword::Properties, Keyword::PatternProperties] {
        repair_map(o, kw, p, cx);
    }
}

fn repair_map(o: &mut SchemaObject, kw: Keyword, p: &At<'_>, cx: &mut Cx<'_>) {
    let Some(Value::Raw(raw)) = o.get(kw) else {
        return;
    };
    let Ok(members) = members(raw.as_json()) else {
        return; // not an object: dropped as malformed by the keyword filter
    };
    let mut map = SchemaMap::with_capacity_and_hasher(members.len(), Default::default());
    let (mut typed, mut unknown) = (Vec::new(), Vec::new());
    for (name, text) in members {
        let schema = match member_schema(text.get()) {
            Member::Schema(s) => s,
            Member::TypeName(t) => {
                typed.push(name.clone());
                let mut s = SchemaObject::new();
                s.insert(Keyword::Type, Value::Type(TypeSet::Single(t)));
                Schema::Object(s)
            }
            Member::Other => {
                unknown.push(name.clone());
                let mut s = SchemaObject::new();
                s.insert(
                    Keyword::Description,
                    Value::String(format!("Declared as {} (not a schema).", text.get())),
                );
                Schema::Object(s)
            }
        };
        map.insert(name, schema);
    }
    o.insert(kw, Value::SchemaMap(map));
    let quote = |l: &[String]| {
        l.iter()
            .map(|n| format!("\"{n}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !typed.is_empty() {
        cx.change(
            p,
            RuleId::PropertyMapRepaired,
            format!("{kw}: type names read as schemas: {}", quote(&typed)),
        );
    }
    if !unknown.is_empty() {
        cx.lost(
            p,
            RuleId::PropertyMapRepaired,
            format!(
                "{kw}: members that are not schemas accept any value: {}",
                quote(&unknown)
            ),
            None,
        );
    }
}

enum Member {
    Schema(Schema),
    TypeName(InstanceType),
    Other,
}

fn member_schema(text: &str) -> Member {
    match serde_json::from_str::<String>(text) {
        Ok(name) => InstanceType::from_name(&name).map_or(Member::Other, Member::TypeName),
        Err(_) => match Schema::parse(text.as_bytes(), &ParseOptions::default()) {
            // An object or a boolean: a schema (its own issues are the walk's).
            Ok(parsed)
                if !parsed
                    .diagnostics
                    .iter()
                    .any(|d| matches!(d.kind, DiagnosticKind::NotASchema { .. })) =>
            {
                Member::Schema(parsed.schema)
            }
            _ => Member::Other,
        },
    }
}

/// The members of a JSON object, in order, with their values as raw JSON.
fn members(text: &str) -> Result<Vec<(String, Box<RawValue>)>, serde_json::Error> {
    struct Members;
    impl<'de> Visitor<'de> for Members {
        type Value = Vec<(String, Box<RawValue>)>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some((k, v)) = map.next_entry::<String, Box<RawValue>>()? {
                // Duplicate names: the last value wins, at the first position (as the parser).
                match out.iter_mut().find(|(n, _): &&mut (String, _)| *n == k) {
                    Some(slot) => slot.1 = v,
                    None => out.push((k, v)),
                }
            }
            Ok(out)
        }
    }
    let mut de = serde_json::Deserializer::from_str(text);
    de.deserialize_map(Members)
}

#[cfg(test)]
mod tests {
    use super::members;

    #[test]
    fn members_keep_their_order_and_raw_values() {
        let m = members(r#"{"b": "string", "a": {"type": "x"}, "b": 5}"#).unwrap();
        let got: Vec<(&str, &str)> = m.iter().map(|(k, v)| (k.as_str(), v.get())).collect();
        assert_eq!(got, [("b", "5"), ("a", r#"{"type": "x"}"#)]);
        assert!(members("[1]").is_err());
    }
}
