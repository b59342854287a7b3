//! `SchemaObject`'s lookups skip the scan for keywords its presence mask says are absent: they
//! still find every keyword however the entries were made (parsed, inserted at a position,
//! removed, renamed through `entries_mut`, cloned), as a scan of the entries does.

use schema_core::{Entry, Key, Keyword, Schema, SchemaObject, Value};

/// What a lookup must answer: a plain scan of the entries.
fn scanned(o: &SchemaObject, kw: Keyword) -> bool {
    o.entries().iter().any(|e| e.key == Key::Known(kw))
}

fn agrees(o: &SchemaObject, what: &str) {
    for &kw in Keyword::ALL {
        assert_eq!(o.contains(kw), scanned(o, kw), "{what}: {kw:?}");
        assert_eq!(o.get(kw).is_some(), scanned(o, kw), "{what}: get {kw:?}");
    }
}

#[test]
fn lookups_agree_with_a_scan_of_the_entries() {
    let parsed = Schema::from_str(
        r#"{"type":"object","x-a":1,"properties":{"p":{"title":"t"}},"required":["p"],"$defs":{}}"#,
    )
    .expect("schema");
    let mut o = parsed.as_object().expect("object").clone();
    agrees(&o, "parsed");
    agrees(&parsed.as_object().expect("object").clone(), "cloned");

    // Every keyword inserted, one at a time, at the end or at the front; then removed.
    for (i, &kw) in Keyword::ALL.iter().enumerate() {
        if i % 2 == 0 {
            o.insert(kw, Value::Bool(true));
        } else {
            o.insert_at(0, kw, Value::Bool(true));
        }
        agrees(&o, "inserted");
    }
    for &kw in Keyword::ALL.iter().step_by(3) {
        o.remove(kw);
        agrees(&o, "removed");
    }
    o.retain(|e| !matches!(e.key, Key::Known(Keyword::Title)));
    agrees(&o, "retained");

    // Keys renamed and entries pushed by hand.
    let mut o = SchemaObject::new();
    o.insert(Keyword::Title, Value::String("t".into()));
    o.entries_mut()[0].key = Key::Known(Keyword::Description);
    agrees(&o, "renamed");
    o.entries_mut().push(Entry {
        key: Key::Known(Keyword::Format),
        value: Value::String("uri".into()),
    });
    agrees(&o, "pushed");
    o.entries_mut()[1].key = Key::from_name("format");
    agrees(&o, "renamed from a name");
    assert!(o.contains(Keyword::Format) && o.contains(Keyword::Description));
    assert!(!o.contains(Keyword::Title));
}
