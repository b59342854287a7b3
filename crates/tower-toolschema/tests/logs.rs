//! What the layer logs: one INFO summary per request in a `tower_toolschema` span (nested under
//! the caller's span) with the request's totals, the changes at DEBUG, and the meaning lost at
//! WARN only the first time a schema is sanitized — not again when it comes from the cache.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http::{Method, Request, Response, header};
use http_body_util::{BodyExt, Full};
use tower::{ServiceBuilder, ServiceExt};
use tower_toolschema::{ToolSchemaBody, ToolSchemaLayer};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Level, Metadata, Subscriber};

#[derive(Debug, Clone)]
struct SpanRec {
    name: &'static str,
    parent: Option<u64>,
    fields: BTreeMap<String, String>,
}

#[derive(Debug, Clone)]
struct EventRec {
    level: Level,
    span: Option<u64>,
    fields: BTreeMap<String, String>,
}

#[derive(Debug, Default)]
struct Log {
    spans: BTreeMap<u64, SpanRec>,
    stack: Vec<u64>,
    events: Vec<EventRec>,
}

/// A subscriber that keeps every span and event (single-threaded use).
#[derive(Clone, Default)]
struct Capture {
    log: Arc<Mutex<Log>>,
    next: Arc<AtomicU64>,
}

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

impl Subscriber for Capture {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, attrs: &Attributes<'_>) -> Id {
        let id = self.next.fetch_add(1, Ordering::SeqCst) + 1;
        let mut log = self.log.lock().unwrap();
        let parent = match attrs.parent() {
            Some(p) => Some(p.into_u64()),
            None if attrs.is_contextual() => log.stack.last().copied(),
            None => None,
        };
        let mut fields = BTreeMap::new();
        attrs.record(&mut Fields(&mut fields));
        log.spans.insert(
            id,
            SpanRec {
                name: attrs.metadata().name(),
                parent,
                fields,
            },
        );
        Id::from_u64(id)
    }
    fn record(&self, span: &Id, values: &Record<'_>) {
        let mut log = self.log.lock().unwrap();
        if let Some(s) = log.spans.get_mut(&span.into_u64()) {
            values.record(&mut Fields(&mut s.fields));
        }
    }
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        let mut log = self.log.lock().unwrap();
        let mut fields = BTreeMap::new();
        event.record(&mut Fields(&mut fields));
        let span = log.stack.last().copied();
        log.events.push(EventRec {
            level: *event.metadata().level(),
            span,
            fields,
        });
    }
    fn enter(&self, span: &Id) {
        self.log.lock().unwrap().stack.push(span.into_u64());
    }
    fn exit(&self, _: &Id) {
        self.log.lock().unwrap().stack.pop();
    }
}

/// A Gemini request with two tools: one whose schema loses meaning (a format, a keyword), one
/// Gemini accepts as it is.
fn body() -> String {
    r#"{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"tools":[{"functionDeclarations":[
        {"name":"lossy","parameters":{"type":"object","properties":{"q":{"type":"string","format":"uri"},"m":{"type":"object","patternProperties":{"^a":{"type":"string"}}},"n":{"type":["integer","null"]}}}},
        {"name":"fine","parameters":{"type":"object","properties":{"s":{"type":"string"}}}}
    ]}]}"#
        .to_owned()
}

fn request(body: &str) -> Request<Full<Bytes>> {
    let body = Bytes::from(body.to_owned());
    Request::builder()
        .method(Method::POST)
        .uri("/v1beta/models/gemini-2.5-flash:generateContent")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::CONTENT_LENGTH, body.len())
        .body(Full::new(body))
        .unwrap()
}

/// Sends `n` requests through one layer (one cache) under a caller's span `outer`.
fn send(n: usize) -> Log {
    send_body(n, &body())
}

/// [`send`] with this body.
fn send_body(n: usize, body: &str) -> Log {
    let capture = Capture::default();
    let log = Arc::clone(&capture.log);
    tracing::subscriber::with_default(capture, || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let layer = ToolSchemaLayer::gemini();
        for _ in 0..n {
            let svc = ServiceBuilder::new()
                .layer(layer.clone())
                .service(tower::service_fn(
                    |req: Request<ToolSchemaBody<Full<Bytes>>>| async move {
                        let _ = req.into_body().collect().await;
                        Ok::<_, Infallible>(Response::new(Full::new(Bytes::new())))
                    },
                ));
            let outer = tracing::info_span!("outer");
            let _e = outer.enter();
            rt.block_on(svc.oneshot(request(body))).unwrap();
        }
    });
    Arc::try_unwrap(log).unwrap().into_inner().unwrap()
}

fn ours(log: &Log) -> Vec<(u64, &SpanRec)> {
    log.spans
        .iter()
        .filter(|(_, s)| s.name == "tower_toolschema")
        .map(|(id, s)| (*id, s))
        .collect()
}

#[test]
fn one_summary_per_request_in_a_span_nested_under_the_callers() {
    let log = send(1);
    let spans = ours(&log);
    assert_eq!(spans.len(), 1, "{:?}", log.spans);
    let (id, span) = spans[0];
    let outer = span.parent.expect("nested under the caller's span");
    assert_eq!(log.spans[&outer].name, "outer");
    for (k, want) in [
        ("api", "gemini"),
        ("profile", "gemini"),
        ("slots", "2"),
        ("changed", "1"),
        ("downgraded", "0"),
        ("cached", "0"),
    ] {
        assert_eq!(
            span.fields.get(k).map(String::as_str),
            Some(want),
            "{k}: {span:?}"
        );
    }
    let lossy: usize = span.fields["lossy"].parse().unwrap();
    assert!(lossy >= 2, "{span:?}");
    let infos: Vec<&EventRec> = log
        .events
        .iter()
        .filter(|e| e.level == Level::INFO)
        .collect();
    assert_eq!(infos.len(), 1, "{infos:?}");
    assert_eq!(infos[0].span, Some(id));
    assert_eq!(infos[0].fields["message"], "tool schemas sanitized");
    assert_eq!(infos[0].fields["lossy"], lossy.to_string());
    assert_eq!(infos[0].fields["slots"], "2");
    // Every change at debug, inside the span; the lost meaning once, at warn, for the tool.
    let debug = log
        .events
        .iter()
        .filter(|e| e.level == Level::DEBUG && e.fields.contains_key("rule"))
        .count();
    assert!(debug >= lossy, "{:?}", log.events);
    let warns: Vec<&EventRec> = log
        .events
        .iter()
        .filter(|e| e.level == Level::WARN)
        .collect();
    assert_eq!(warns.len(), 1, "{warns:?}");
    assert_eq!(warns[0].fields["tool"], "lossy");
    assert_eq!(warns[0].fields["lossy"], lossy.to_string());
    assert!(
        log.events.iter().all(|e| e.span == Some(id)),
        "{:?}",
        log.events
    );
}

#[test]
fn a_cached_schema_is_not_warned_about_again() {
    let log = send(3);
    let spans = ours(&log);
    assert_eq!(spans.len(), 3);
    // The first request sanitizes; the next two come from the cache.
    assert_eq!(spans[0].1.fields["cached"], "0");
    for (_, s) in &spans[1..] {
        assert_eq!(s.fields["cached"], "2", "{s:?}");
        assert_eq!(s.fields["lossy"], spans[0].1.fields["lossy"], "{s:?}");
    }
    let infos = log.events.iter().filter(|e| e.level == Level::INFO).count();
    assert_eq!(infos, 3);
    let warns: Vec<&EventRec> = log
        .events
        .iter()
        .filter(|e| e.level == Level::WARN)
        .collect();
    assert_eq!(warns.len(), 1, "only the first request warns: {warns:?}");
    assert_eq!(warns[0].span, Some(spans[0].0));
}

#[test]
fn each_rename_is_logged_with_why_and_not_warned_about() {
    let body = r#"{"contents":[],"tools":[{"functionDeclarations":[
        {"name":"1password get","parameters":{"type":"object","properties":{"s":{"type":"string"}}}},
        {"name":"clock now"}]}]}"#;
    let log = send_body(1, body);
    let renames: Vec<&EventRec> = log
        .events
        .iter()
        .filter(|e| e.level == Level::INFO && e.fields.contains_key("sent"))
        .collect();
    assert_eq!(renames.len(), 2, "{:?}", log.events);
    assert_eq!(renames[0].fields["tool"], "1password get");
    assert_eq!(renames[0].fields["why"], "characters");
    assert_eq!(renames[1].fields["tool"], "clock now");
    assert_eq!(renames[1].fields["sent"], "clock_now");
    let warns: Vec<&EventRec> = log
        .events
        .iter()
        .filter(|e| e.level == Level::WARN)
        .collect();
    assert!(warns.is_empty(), "renamed, not refused: {warns:?}");
}
