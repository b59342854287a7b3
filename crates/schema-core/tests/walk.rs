//! The walk enters only subschema positions; names are names; instances are never entered.

use schema_core::{Keyword, Location, Schema, Transform, Value, Visit};

#[derive(Default)]
struct Log {
    enter: Vec<String>,
    leave: Vec<String>,
}

impl Visit for Log {
    fn enter(&mut self, p: &str, _: &Schema) -> bool {
        self.enter.push(p.to_owned());
        true
    }
    fn leave(&mut self, p: &str, _: &Schema) {
        self.leave.push(p.to_owned());
    }
}

fn pointers(text: &str) -> Vec<String> {
    let s = Schema::from_str(text).unwrap();
    let mut log = Log::default();
    s.walk(&mut log);
    log.enter
}

#[test]
fn properties_named_like_keywords_are_names() {
    let text = r##"{"type":"object","properties":{
        "properties":{"type":"object","properties":{"x":{}}},
        "required":{"type":"array","items":{"type":"string"}},
        "items":{"type":"string"},
        "$ref":{"type":"string","description":"#/not/a/ref"},
        "enum":{"enum":[{"properties":{"no":{}}}]},
        "type":{"const":{"items":{}}}
    },"required":["properties","required","items","$ref","enum"]}"##;
    assert_eq!(
        pointers(text),
        [
            "",
            "/properties/properties",
            "/properties/properties/properties/x",
            "/properties/required",
            "/properties/required/items",
            "/properties/items",
            "/properties/$ref",
            "/properties/enum",
            "/properties/type",
        ]
    );
    let s = Schema::from_str(text).unwrap();
    let o = s.as_object().unwrap();
    assert_eq!(
        o.required().unwrap(),
        ["properties", "required", "items", "$ref", "enum"]
    );
    // `$ref` as a property name is not a reference.
    assert!(!s.has_refs());
    let prop = o.properties().unwrap().get("$ref").unwrap();
    assert_eq!(prop.as_object().unwrap().reference(), None);
}

#[test]
fn instance_values_are_never_entered() {
    let text = r#"{"enum":[{"type":"object","properties":{"a":{}}}],"const":{"not":{}},
        "default":{"items":{}},"examples":[{"anyOf":[{}]}],"example":{"allOf":[]},
        "x-schema":{"properties":{"b":{}}},"not":{"default":{"not":{}}}}"#;
    assert_eq!(pointers(text), ["", "/not"]);
}

#[test]
fn every_subschema_position_is_entered_with_its_pointer() {
    let text = r#"{
        "properties":{"p":{}}, "patternProperties":{"^a":{}}, "additionalProperties":{},
        "propertyNames":{}, "unevaluatedProperties":false, "dependentSchemas":{"d":{}},
        "dependencies":{"e":{},"f":["g"]}, "items":[{},true], "prefixItems":[{}],
        "additionalItems":{}, "unevaluatedItems":{}, "contains":{}, "contentSchema":{},
        "allOf":[{}], "anyOf":[{}], "oneOf":[{}], "not":{}, "if":{}, "then":{}, "else":{},
        "$defs":{"D":{}}, "definitions":{"E":{}}
    }"#;
    assert_eq!(
        pointers(text),
        [
            "",
            "/properties/p",
            "/patternProperties/^a",
            "/additionalProperties",
            "/propertyNames",
            "/unevaluatedProperties",
            "/dependentSchemas/d",
            "/dependencies/e",
            "/items/0",
            "/items/1",
            "/prefixItems/0",
            "/additionalItems",
            "/unevaluatedItems",
            "/contains",
            "/contentSchema",
            "/allOf/0",
            "/anyOf/0",
            "/oneOf/0",
            "/not",
            "/if",
            "/then",
            "/else",
            "/$defs/D",
            "/definitions/E",
        ]
    );
    // Every keyword that has subschemas appears above.
    let s = Schema::from_str(text).unwrap();
    let mut kws = Vec::new();
    s.for_each_child(|loc, _| kws.push(loc.keyword()));
    kws.dedup();
    let all: Vec<_> = Keyword::ALL
        .iter()
        .copied()
        .filter(|k| k.has_subschemas())
        .collect();
    let mut sorted = kws.clone();
    sorted.sort();
    let mut all_sorted = all.clone();
    all_sorted.sort();
    assert_eq!(sorted, all_sorted);
}

#[test]
fn pointers_escape_tilde_and_slash() {
    let text = r#"{"properties":{"a/b":{"properties":{"c~d":{"items":{}}}},"~1":{},"%25 x":{}},
        "patternProperties":{"^/$":{}}}"#;
    let ps = pointers(text);
    assert_eq!(
        ps,
        [
            "",
            "/properties/a~1b",
            "/properties/a~1b/properties/c~0d",
            "/properties/a~1b/properties/c~0d/items",
            "/properties/~01",
            "/properties/%25 x",
            "/patternProperties/^~1$",
        ]
    );
    // Each pointer resolves back to its node.
    let s = Schema::from_str(text).unwrap();
    for p in &ps {
        let segs = schema_core::pointer::segments(p).unwrap();
        assert!(s.pointer_get(&segs).is_some(), "{p}");
    }
}

#[test]
fn enter_and_leave_are_pre_and_post_order_and_enter_false_skips_children() {
    let s = Schema::from_str(r#"{"anyOf":[{"not":{}},{}],"not":{"not":{}}}"#).unwrap();
    let mut log = Log::default();
    s.walk(&mut log);
    assert_eq!(
        log.enter,
        [
            "",
            "/anyOf/0",
            "/anyOf/0/not",
            "/anyOf/1",
            "/not",
            "/not/not"
        ]
    );
    assert_eq!(
        log.leave,
        [
            "/anyOf/0/not",
            "/anyOf/0",
            "/anyOf/1",
            "/not/not",
            "/not",
            ""
        ]
    );

    struct SkipAnyOf(Vec<String>);
    impl Visit for SkipAnyOf {
        fn enter(&mut self, p: &str, _: &Schema) -> bool {
            self.0.push(p.to_owned());
            !p.starts_with("/anyOf")
        }
    }
    let mut v = SkipAnyOf(Vec::new());
    s.walk(&mut v);
    assert_eq!(v.0, ["", "/anyOf/0", "/anyOf/1", "/not", "/not/not"]);
}

#[test]
fn transform_pre_changes_are_walked_and_post_sees_children_done() {
    // pre: replace every `$ref` to #/$defs/S by `{"type":"string"}` and add an `items` child;
    // post: count children already transformed.
    struct T(Vec<String>);
    impl Transform for T {
        fn pre(&mut self, p: &str, s: &mut Schema) {
            if let Some(o) = s.as_object_mut()
                && o.reference() == Some("#/$defs/S")
            {
                o.remove(Keyword::Ref);
                o.insert(Keyword::Items, Value::Schema(Box::new(Schema::Bool(true))));
            }
            self.0.push(format!("pre {p}"));
        }
        fn post(&mut self, p: &str, s: &mut Schema) {
            self.0.push(format!("post {p}"));
            if s.as_object().is_some_and(|o| o.contains(Keyword::Items)) {
                s.make_object()
                    .insert(Keyword::Title, Value::String("has items".into()));
            }
        }
    }
    let mut s = Schema::from_str(r##"{"properties":{"a":{"$ref":"#/$defs/S"}}}"##).unwrap();
    let mut t = T(Vec::new());
    s.transform(&mut t);
    assert_eq!(
        t.0,
        [
            "pre ",
            "pre /properties/a",
            "pre /properties/a/items",
            "post /properties/a/items",
            "post /properties/a",
            "post "
        ]
    );
    assert_eq!(
        s.to_json_string(),
        r#"{"properties":{"a":{"items":true,"title":"has items"}}}"#
    );
}

#[test]
fn for_each_child_mut_can_replace_children() {
    let mut s = Schema::from_str(r#"{"anyOf":[{"type":"string"},false],"not":true}"#).unwrap();
    let mut locs = Vec::new();
    s.for_each_child_mut(|loc, child| {
        locs.push(format!("{loc:?}"));
        *child = Schema::Bool(true);
    });
    assert_eq!(locs, ["Index(AnyOf, 0)", "Index(AnyOf, 1)", "Keyword(Not)"]);
    assert_eq!(s.to_json_string(), r#"{"anyOf":[true,true],"not":true}"#);
    let mut p = String::new();
    Location::Name(Keyword::Properties, "a/b").push_to(&mut p);
    assert_eq!(p, "/properties/a~1b");
}

#[test]
fn boolean_schemas_are_leaves() {
    assert_eq!(pointers("true"), [""]);
    assert_eq!(
        pointers(r#"{"items":false,"not":true}"#),
        ["", "/items", "/not"]
    );
}

#[test]
fn keyword_names_need_no_pointer_escaping() {
    // The walk appends a keyword's name to a pointer without the escaping scan.
    for k in schema_core::Keyword::ALL {
        assert!(!k.as_str().contains(['~', '/']), "{}", k.as_str());
    }
    let s = schema_core::Schema::from_str(r#"{"properties":{"a/b~":{"items":[{}]}}}"#).unwrap();
    struct P(Vec<String>);
    impl schema_core::Visit for P {
        fn enter(&mut self, p: &str, _: &schema_core::Schema) -> bool {
            self.0.push(p.to_owned());
            true
        }
    }
    let mut v = P(Vec::new());
    s.walk(&mut v);
    assert_eq!(
        v.0,
        ["", "/properties/a~1b~0", "/properties/a~1b~0/items/0"]
    );
}
