//! Shared bench helpers: bodies built from the corpus, the service under test, and a timing
//! loop whose ratios are measured in the same run (best of N medians, interleaved).
#![allow(dead_code, missing_docs)]

pub mod sse;

use std::convert::Infallible;
use std::hint::black_box;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::Request;
use http_body::Body;
use http_body_util::{BodyExt, Full};
use serde_json::{Value, json};
use tower::{Service, ServiceExt};

pub const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/corpus");

/// One corpus tool as an OpenAI Chat `tools[]` entry, and its input schema's bytes.
pub struct Tool {
    pub entry: Value,
    pub schema: Vec<u8>,
}

fn sorted_json_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = rd.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            sorted_json_files(&p, out);
        } else if p.extension().and_then(|e| e.to_str()) == Some("json") {
            out.push(p);
        }
    }
}

fn mcp_docs() -> Vec<Value> {
    let mut files = Vec::new();
    sorted_json_files(&std::path::Path::new(CORPUS).join("mcp"), &mut files);
    files
        .iter()
        .map(|f| serde_json::from_slice(&std::fs::read(f).expect("read corpus")).expect("json"))
        .collect()
}

/// Every MCP corpus tool (743), in file order, as OpenAI Chat tools.
pub fn corpus_tools() -> Vec<Tool> {
    let mut tools = Vec::new();
    for doc in mcp_docs() {
        for t in doc["tools"].as_array().into_iter().flatten() {
            let Some(schema) = t.get("inputSchema") else {
                continue;
            };
            let entry = json!({
                "type": "function",
                "function": {
                    "name": t["name"],
                    "description": t.get("description").cloned().unwrap_or(Value::Null),
                    "parameters": schema,
                }
            });
            tools.push(Tool {
                entry,
                schema: serde_json::to_vec(schema).expect("json"),
            });
        }
    }
    tools
}

/// Every schema of the corpus with the slot kind it would sit in: MCP `inputSchema`
/// (parameters) and `outputSchema` (schema), and every JSON-Schema-Test-Suite schema (schema).
pub fn corpus_schemas() -> Vec<(Vec<u8>, bool)> {
    let mut out = Vec::new();
    for doc in mcp_docs() {
        for t in doc["tools"].as_array().into_iter().flatten() {
            if let Some(s) = t.get("inputSchema") {
                out.push((serde_json::to_vec(s).expect("json"), true));
            }
            if let Some(s) = t.get("outputSchema") {
                out.push((serde_json::to_vec(s).expect("json"), false));
            }
        }
    }
    let mut files = Vec::new();
    sorted_json_files(&std::path::Path::new(CORPUS).join("jsts"), &mut files);
    for f in files {
        let Ok(v) = serde_json::from_slice::<Value>(&std::fs::read(&f).expect("read")) else {
            continue;
        };
        for group in v.as_array().into_iter().flatten() {
            if let Some(s) = group.get("schema") {
                out.push((serde_json::to_vec(s).expect("json"), false));
            }
        }
    }
    out
}

/// A small deterministic generator (xorshift) for the conversation's text.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[(self.next() % xs.len() as u64) as usize]
    }
}

const WORDS: &[&str] = &[
    "the", "schema", "file", "function", "returns", "error", "value", "request", "user", "and",
    "config", "for", "with", "a", "deploy", "branch", "merge", "pipeline", "query", "result",
    "café", "naïve", "→", "table", "column", "index", "type", "format", "default", "title",
];

fn sentence(rng: &mut Rng, words: usize) -> String {
    let mut s = String::new();
    for i in 0..words {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(rng.pick(WORDS));
    }
    s
}

/// One turn of an agent loop: a user message, an assistant tool call whose arguments look like
/// a schema, a tool result whose JSON text has keyword-like keys, an assistant answer.
fn turn(rng: &mut Rng, i: usize, tool_name: &str) -> Vec<Value> {
    let args = json!({
        "type": "object",
        "title": sentence(rng, 3),
        "format": "date-time",
        "default": 1.0,
        "properties": {"path": format!("/src/{}.rs", rng.pick(WORDS)), "required": ["x"]},
        "$ref": "#/$defs/x",
        "additionalProperties": false,
    });
    let rows: Vec<Value> = (0..(4 + rng.next() % 12))
        .map(|r| {
            json!({
                "id": r,
                "type": rng.pick(WORDS),
                "format": "uri",
                "enum": [1, 2, 3],
                "anyOf": [{"const": null}],
                "description": sentence(rng, 12),
                "score": (rng.next() % 1000) as f64 / 7.0,
            })
        })
        .collect();
    let result = json!({"items": rows, "nextCursor": null, "$schema": "http://json-schema.org/draft-07/schema#"});
    let id = format!("call_{i:08x}");
    let n_user = 20 + (rng.next() % 40) as usize;
    let n_answer = 30 + (rng.next() % 60) as usize;
    let answer = sentence(rng, n_answer);
    vec![
        json!({"role": "user", "content": sentence(rng, n_user)}),
        json!({"role": "assistant", "content": null, "tool_calls": [{
            "id": id, "type": "function",
            "function": {"name": tool_name, "arguments": serde_json::to_string(&args).expect("json")}
        }]}),
        json!({"role": "tool", "tool_call_id": id, "content": serde_json::to_string(&result).expect("json")}),
        json!({"role": "assistant", "content": answer}),
    ]
}

/// An OpenAI Chat request: the first `n_tools` corpus tools and about `conversation_bytes` of
/// messages (system prompt, then agent turns).
pub fn agent_body(tools: &[Tool], n_tools: usize, conversation_bytes: usize) -> Bytes {
    let tools: Vec<&Tool> = tools.iter().cycle().take(n_tools).collect();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ conversation_bytes as u64);
    let mut messages = vec![json!({"role": "system", "content": "You are a coding agent."})];
    let mut size = 64;
    let mut i = 0;
    while size < conversation_bytes {
        let name = tools
            .get(i % tools.len().max(1))
            .and_then(|t| t.entry["function"]["name"].as_str())
            .unwrap_or("tool")
            .to_owned();
        for m in turn(&mut rng, i, &name) {
            size += serde_json::to_vec(&m).expect("json").len() + 1;
            messages.push(m);
        }
        i += 1;
    }
    let body = json!({
        "model": "gpt-4o",
        "messages": messages,
        "tools": tools.iter().map(|t| t.entry.clone()).collect::<Vec<_>>(),
        "tool_choice": "auto",
        "temperature": 0.2,
    });
    Bytes::from(serde_json::to_vec(&body).expect("json"))
}

/// A request for the service.
pub fn request(path: &str, content_type: &str, body: Bytes) -> Request<Full<Bytes>> {
    Request::post(path)
        .header(http::header::CONTENT_TYPE, content_type)
        .header(http::header::CONTENT_LENGTH, body.len())
        .body(Full::new(body))
        .expect("request")
}

/// The inner service: drains the body and answers with its length. `Drain::COPY` also copies
/// the bytes out, as a client writing the body to a socket would (a per-byte cost that the
/// layer and the bare service share in the pass-through bench).
#[derive(Clone, Copy)]
pub struct Drain {
    pub copy: bool,
}

impl Drain {
    pub const COUNT: Drain = Drain { copy: false };
    pub const COPY: Drain = Drain { copy: true };
}

impl<B> Service<Request<B>> for Drain
where
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: std::fmt::Debug,
{
    // The length rides in the response's extensions: the layer answers with an
    // `http::Response` (its body wrapped for the way back).
    type Response = http::Response<http_body_util::Empty<Bytes>>;
    type Error = Infallible;
    type Future =
        std::pin::Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(
        &mut self,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Infallible>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: Request<B>) -> Self::Future {
        thread_local! {
            /// The "socket buffer": reused, so that the copy costs the same on every call.
            static SINK: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        let copy = self.copy;
        Box::pin(async move {
            let mut body = Box::pin(req.into_body());
            let mut len = 0;
            SINK.with_borrow_mut(Vec::clear);
            while let Some(frame) = body.as_mut().frame().await {
                if let Ok(data) = frame.expect("body").into_data() {
                    len += black_box(&data).len();
                    if copy {
                        SINK.with_borrow_mut(|s| s.extend_from_slice(&data));
                    }
                }
            }
            SINK.with_borrow(|s| black_box(s.len()));
            let mut res = http::Response::new(http_body_util::Empty::new());
            res.extensions_mut().insert(len);
            Ok(res)
        })
    }
}

pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime")
}

/// One request through `svc` on `rt` (a current-thread runtime).
pub fn call<S, B, RB>(rt: &tokio::runtime::Runtime, svc: &S, req: Request<B>) -> usize
where
    S: Service<Request<B>, Response = http::Response<RB>> + Clone,
    S::Error: std::fmt::Debug,
{
    let res = rt.block_on(svc.clone().oneshot(req)).expect("service");
    res.extensions().get::<usize>().copied().unwrap_or(0)
}

/// Median time of one call of `f`, over about `budget` of runs (at least 3).
pub fn median(budget: Duration, mut f: impl FnMut()) -> Duration {
    f();
    let start = Instant::now();
    let mut times = Vec::new();
    while times.len() < 3 || (start.elapsed() < budget && times.len() < 10_000) {
        let t = Instant::now();
        f();
        times.push(t.elapsed());
    }
    times.sort();
    times[times.len() / 2]
}

/// Best-of-`rounds` medians of each function, measured interleaved in this run (so that machine
/// noise hits all of them alike). Returns the best median of each.
pub fn best_of(rounds: usize, budget: Duration, fs: &mut [&mut dyn FnMut()]) -> Vec<Duration> {
    let mut best = vec![Duration::MAX; fs.len()];
    for _ in 0..rounds {
        for (i, f) in fs.iter_mut().enumerate() {
            best[i] = best[i].min(median(budget, &mut **f));
        }
    }
    best
}

/// The median of `f`'s time over `g`'s, each sample timing one call of each back to back
/// (alternating which goes first), so that both see the same machine state: robust to the
/// noise of a shared machine when the two differ by a few percent.
pub fn paired_ratio(samples: usize, mut f: impl FnMut(), mut g: impl FnMut()) -> f64 {
    f();
    g();
    let mut ratios = Vec::with_capacity(samples);
    for i in 0..samples {
        let (tf, tg);
        if i % 2 == 0 {
            let t = Instant::now();
            f();
            tf = t.elapsed();
            let t = Instant::now();
            g();
            tg = t.elapsed();
        } else {
            let t = Instant::now();
            g();
            tg = t.elapsed();
            let t = Instant::now();
            f();
            tf = t.elapsed();
        }
        ratios.push(ratio(tf, tg));
    }
    ratios.sort_by(f64::total_cmp);
    ratios[ratios.len() / 2]
}

pub fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64()
}

pub fn fmt(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 1.0 {
        format!("{s:.3} s")
    } else if s >= 1e-3 {
        format!("{:.3} ms", s * 1e3)
    } else if s >= 1e-6 {
        format!("{:.2} µs", s * 1e6)
    } else {
        format!("{:.0} ns", s * 1e9)
    }
}

pub fn mb(bytes: usize) -> String {
    format!("{:.2} MB", bytes as f64 / 1e6)
}

/// Whether the divan part should run (`TS_BENCH_RATIOS_ONLY=1` skips it).
pub fn run_divan() -> bool {
    std::env::var_os("TS_BENCH_RATIOS_ONLY").is_none()
}

/// A body delivered in frames of `size` bytes (as a server receives a large upload).
pub struct Chunked(std::collections::VecDeque<Bytes>);

impl Chunked {
    pub fn new(body: &Bytes, size: usize) -> Self {
        Chunked(
            (0..body.len())
                .step_by(size)
                .map(|i| body.slice(i..(i + size).min(body.len())))
                .collect(),
        )
    }
}

impl Body for Chunked {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Bytes>, Infallible>>> {
        std::task::Poll::Ready(self.0.pop_front().map(|b| Ok(http_body::Frame::data(b))))
    }
}

/// A request whose body comes in 16 KiB frames.
pub fn chunked_request(path: &str, content_type: &str, body: &Bytes) -> Request<Chunked> {
    Request::post(path)
        .header(http::header::CONTENT_TYPE, content_type)
        .body(Chunked::new(body, 16 << 10))
        .expect("request")
}
