//! Arbitrary bytes as a provider's response, as JSON and as SSE, in arbitrary chunks, through
//! the way back: never a panic, never a hang, the body always ends; any chunking of a stream
//! gives the output of reading it whole; a body with nothing to restore is the same bytes.
//!
//! Input layout: byte 0 picks the API and JSON/SSE, byte 1 seeds the chunk sizes; the rest is
//! the response body.
#![no_main]

use std::convert::Infallible;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, StreamBody};
use libfuzzer_sys::fuzz_target;
use provider_rules::{Decoder, NameMap, Rules};
use tower::{Layer, ServiceExt};
use tower_toolschema::restore::RestorePlan;
use tower_toolschema::shapes::Api;
use tower_toolschema::{ToolSchemaBody, ToolSchemaLayer};

const APIS: [Api; 6] = [
    Api::OpenAiChat,
    Api::OpenAiResponses,
    Api::AnthropicMessages,
    Api::Gemini,
    Api::CodeAssist,
    Api::BedrockConverse,
];

fn plan(api: Api) -> RestorePlan {
    let names = NameMap::new(&Rules::OPENAI.tool_names, ["a.b", "c d", "a_b"]);
    let strict = Decoder {
        drop_null: vec!["x".into()],
        ..Decoder::default()
    };
    RestorePlan::new(api, names, [("a.b".to_owned(), strict)])
}

fn chunks(body: &[u8], seed: u8) -> Vec<Bytes> {
    let mut out = Vec::new();
    let mut at = 0;
    let mut s = u32::from(seed) | 1;
    while at < body.len() {
        s = s.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        let n = 1 + (s >> 16) as usize % 17;
        let end = (at + n).min(body.len());
        out.push(Bytes::copy_from_slice(&body[at..end]));
        at = end;
    }
    out
}

fn request(api: Api) -> (&'static str, String) {
    let strict = r#"{"type":"object","properties":{"x":{"type":"string"}}}"#;
    match api {
        Api::OpenAiChat => ("/v1/chat/completions", format!(r#"{{"messages":[],"tools":[{{"type":"function","function":{{"name":"a.b","strict":true,"parameters":{strict}}}}}]}}"#)),
        Api::OpenAiResponses => ("/v1/responses", format!(r#"{{"input":[],"tools":[{{"type":"function","name":"a.b","strict":true,"parameters":{strict}}}]}}"#)),
        Api::AnthropicMessages => ("/v1/messages", r#"{"messages":[],"tools":[{"name":"a.b c","input_schema":{"type":"object"}}]}"#.to_owned()),
        Api::BedrockConverse => ("/model/m/converse", r#"{"messages":[],"toolConfig":{"tools":[{"toolSpec":{"name":"a.b","inputSchema":{"json":{"type":"object"}}}}]}}"#.to_owned()),
        Api::CodeAssist => ("/v1internal:streamGenerateContent", r#"{"request":{"contents":[],"tools":[{"functionDeclarations":[{"name":"a b"}]}]}}"#.to_owned()),
        _ => ("/v1beta/models/g:generateContent", r#"{"contents":[],"tools":[{"functionDeclarations":[{"name":"a b"}]}]}"#.to_owned()),
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let (sel, seed, body) = (data[0], data[1], &data[2..]);
    let api = APIS[sel as usize % APIS.len()];
    let sse = sel & 0x80 != 0;
    let plan = plan(api);

    // The library: JSON never panics; a stream read in chunks equals it read whole.
    let _ = plan.restore_json(body);
    let mut whole = plan.stream();
    let mut one = whole.push(body).concat();
    one.extend(whole.finish(false).concat());
    let mut split = plan.stream();
    let mut many = Vec::new();
    for c in chunks(body, seed) {
        many.extend(split.push(&c).concat());
    }
    many.extend(split.finish(false).concat());
    assert_eq!(one, many, "chunking changed the output");

    // The layer: the response body always ends.
    let (path, req) = request(api);
    let frames = chunks(body, seed);
    let upstream = tower::service_fn(move |r: http::Request<ToolSchemaBody<Full<Bytes>>>| {
        let frames = frames.clone();
        async move {
            drop(r);
            let stream = futures_util_stream(frames);
            Ok::<_, Infallible>(
                http::Response::builder()
                    .header("content-type", if sse { "text/event-stream" } else { "application/json" })
                    .body(StreamBody::new(stream))
                    .expect("response"),
            )
        }
    });
    let svc = ToolSchemaLayer::auto().layer(upstream);
    let req = http::Request::post(path)
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(req)))
        .expect("request");
    futures_executor::block_on(async move {
        let res = svc.oneshot(req).await.expect("infallible");
        let out = res.into_body().collect().await.expect("no error").to_bytes();
        if !sse && plan.restore_json(body).is_err() {
            assert_eq!(&out[..], body, "an unreadable JSON body goes on as it came");
        }
    });
});

/// The frames as a stream of body frames.
fn futures_util_stream(
    frames: Vec<Bytes>,
) -> impl futures_core::Stream<Item = Result<http_body::Frame<Bytes>, Infallible>> {
    Frames(frames.into_iter())
}

struct Frames(std::vec::IntoIter<Bytes>);

impl futures_core::Stream for Frames {
    type Item = Result<http_body::Frame<Bytes>, Infallible>;
    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        std::task::Poll::Ready(self.0.next().map(|b| Ok(http_body::Frame::data(b))))
    }
}
