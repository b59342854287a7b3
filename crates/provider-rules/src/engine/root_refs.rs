//! References to a typeless root, made explicit before they are inlined.
//!
//! A root without `type` whose keywords speak of objects (`properties`) or of several types
//! (`minimum` beside `properties`) is typed by the engine from those keywords: right for the
//! root, whose slot says what it is. A `$ref` to that root from below (`"#"`, or the root's
//! `$id`) is a value position, though, where the root's JSON Schema meaning holds: a value of
//! a type its keywords do not speak of passes (`{"properties": {"foo": {"$ref": "#"}}}`
//! accepts `{"foo": false}`). Where the profile types every node, such a reference is written
//! before inlining as the union it means: one branch per type the root speaks of (the root
//! with that type) and one branch of the other types.
//!
//! Sound: every value the reference accepts is of one of these types, and each branch takes
//! at least what the root takes of its type.

use super::Cx;
use super::types::infer;
use crate::RuleId;
use schema_core::{InstanceType as T, Keyword, Schema, Transform};

/// Rewrites the `$ref`s to a typeless root (see the [module docs](self)) where the profile
/// types every node and has unions.
pub(crate) fn run(schema: &mut Schema, cx: &mut Cx<'_>) {
    if !cx.rules.type_required || !cx.rules.keywords.contains(Keyword::AnyOf) {
        return;
    }
    let Some(root) = schema.as_object() else {
        return;
    };
    if root.types().is_some() {
        return;
    }
    let spoken = infer(root);
    if spoken.is_empty() {
        return;
    }
    let id = root.string(Keyword::Id).map(str::to_owned);
    let union = union_for(&spoken);
    struct Sites<'a> {
        id: Option<String>,
        union: &'a Schema,
        at: Vec<String>,
    }
    impl Transform for Sites<'_> {
        fn post(&mut self, p: &str, s: &mut Schema) {
            let Some(o) = s.as_object() else { return };
            let to_root = o
                .reference()
                .is_some_and(|r| r == "#" || self.id.as_deref() == Some(r));
            if p.is_empty() || !to_root || o.len() != 1 {
                return;
            }
            let target = o.reference().unwrap_or("#").to_owned();
            let mut u = self.union.clone();
            retarget(&mut u, &target);
            *s = u;
            self.at.push(p.to_owned());
        }
    }
    let mut sites = Sites {
        id,
        union: &union,
        at: Vec::new(),
    };
    schema.transform(&mut sites);
    for p in sites.at {
        cx.change(
            &p,
            RuleId::RefInline,
            "a reference to the typeless root is a union of the types it takes",
        );
    }
}

/// `{"anyOf": [{"type": T, "allOf": [{"$ref": "#"}]} per spoken T, {"type": [the others]}]}`
/// (`integer` is in the others' `number` where the root speaks of integers only).
fn union_for(spoken: &[T]) -> Schema {
    let mut branches: Vec<serde_json::Value> = spoken
        .iter()
        .map(|t| serde_json::json!({"type": t.as_str(), "allOf": [{"$ref": "#"}]}))
        .collect();
    let others: Vec<&str> = [
        T::Null,
        T::Boolean,
        T::Number,
        T::String,
        T::Array,
        T::Object,
    ]
    .into_iter()
    .filter(|t| !spoken.contains(t))
    .map(|t| t.as_str())
    .collect();
    if !others.is_empty() {
        branches.push(serde_json::json!({"type": others}));
    }
    Schema::from_value(&serde_json::json!({"anyOf": branches}))
}

/// Points the union's references at `target` (the site's own spelling of the root).
fn retarget(u: &mut Schema, target: &str) {
    if target == "#" {
        return;
    }
    struct To<'a>(&'a str);
    impl Transform for To<'_> {
        fn pre(&mut self, _: &str, s: &mut Schema) {
            if let Some(o) = s.as_object_mut()
                && o.reference().is_some()
            {
                o.insert(Keyword::Ref, schema_core::Value::String(self.0.to_owned()));
            }
        }
    }
    u.transform(&mut To(target));
}

#[cfg(test)]
mod tests {
    use crate::{Rules, Slot, sanitize};
    use schema_core::Schema;
    use serde_json::json;

    fn accepts(out: &serde_json::Value, v: &serde_json::Value) -> bool {
        jsonschema::validator_for(out).is_ok_and(|x| x.is_valid(v))
    }

    #[test]
    fn a_reference_to_a_typeless_root_keeps_the_values_of_other_types() {
        let s = json!({"additionalProperties": false, "properties": {"foo": {"$ref": "#"}}});
        let out = sanitize(&Schema::from_value(&s), &Rules::GEMINI, Slot::Schema);
        let v = out.schema.to_value();
        assert!(!v.to_string().contains("$ref"), "{v}");
        assert!(accepts(&v, &json!({"foo": false})), "{v}");
        assert!(accepts(&v, &json!({"foo": {"foo": false}})), "{v}");
        // The object branch keeps the root's constraints.
        assert!(!accepts(&v, &json!({"foo": {"bar": 1, "baz": 2}})), "{v}");
    }

    #[test]
    fn a_root_of_several_types_is_a_branch_per_type_through_its_id() {
        let s = json!({"$id": "urn:uuid:x", "minimum": 30,
            "properties": {"foo": {"$ref": "urn:uuid:x"}}});
        let out = sanitize(&Schema::from_value(&s), &Rules::VERTEX, Slot::Schema);
        let v = out.schema.to_value();
        assert!(accepts(&v, &json!({"foo": 37})), "{v}");
        assert!(accepts(&v, &json!({"foo": {"foo": 31}})), "{v}");
        assert!(!accepts(&v, &json!({"foo": 12})), "{v}");
    }

    #[test]
    fn a_typed_root_and_a_profile_that_keeps_refs_are_left_alone() {
        let s = json!({"type": "object", "properties": {"foo": {"$ref": "#"}}});
        let out = sanitize(&Schema::from_value(&s), &Rules::GEMINI, Slot::Schema);
        assert!(!out.schema.to_value().to_string().contains("anyOf"));
        let s = json!({"properties": {"foo": {"$ref": "#"}}});
        let out = sanitize(&Schema::from_value(&s), &Rules::OPENAI, Slot::Schema);
        assert!(!out.schema.to_value().to_string().contains("anyOf"));
    }
}
