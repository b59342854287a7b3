//! A Streamable HTTP MCP server (protocol 2025-06-18): every client message is POSTed to the
//! endpoint; the answer is `202 Accepted`, one JSON message (or batch), or an SSE stream of
//! messages. The session id the server hands out (`Mcp-Session-Id`) and the negotiated
//! `MCP-Protocol-Version` go on every later request; once the session is open a GET stream
//! carries what the server sends on its own (list_changed); the session is DELETEd at the end.

use super::Event;
use super::sse::SseReader;
use crate::mcp_proxy::message::{self, Parsed, one_line};
use crate::mcp_proxy::session::Outgoing;
use crate::mcp_proxy::{HttpOptions, errors};
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, watch};

const SESSION: &str = "mcp-session-id";
const PROTOCOL: &str = "mcp-protocol-version";
/// How long the DELETE that ends the session may take.
const CLOSE_TIMEOUT: Duration = Duration::from_secs(2);

/// The endpoint and the session.
pub struct Http {
    client: reqwest::Client,
    url: String,
    headers: HeaderMap,
    session: Arc<Mutex<Option<HeaderValue>>>,
    protocol: Option<HeaderValue>,
    events: mpsc::Sender<Event>,
    listening: bool,
    /// Nothing was sent yet: the first request (`initialize`) is delivered before anything else.
    first: bool,
    /// How many answers are still being read.
    busy: Arc<watch::Sender<usize>>,
}

impl Http {
    /// The endpoint `opts` describes; server messages arrive on `events`.
    pub fn new(opts: &HttpOptions, events: mpsc::Sender<Event>) -> Result<Http, String> {
        let url = opts.url.as_str();
        let bad = |e: &dyn std::error::Error| errors::upstream_unreachable(url, &error_chain(e));
        // reqwest is built without a TLS provider of its own: ring, as everywhere in toolschema.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let mut builder = reqwest::Client::builder().connect_timeout(opts.connect_timeout);
        if !opts.ca_certs.is_empty() {
            let certs = reqwest::Certificate::from_pem_bundle(&opts.ca_certs)
                .map_err(|e| errors::bad_ca_certs(&error_chain(&e)))?;
            builder = builder.tls_certs_merge(certs);
        }
        let client = builder.build().map_err(|e| bad(&e))?;
        Ok(Http {
            client,
            url: url.to_owned(),
            headers: opts.headers.clone(),
            session: Arc::new(Mutex::new(None)),
            protocol: None,
            events,
            listening: false,
            first: true,
            busy: Arc::new(watch::channel(0).0),
        })
    }

    /// Sent on every request after `initialize`.
    pub fn set_protocol_version(&mut self, version: String) {
        self.protocol = HeaderValue::from_str(&version).ok();
    }

    fn request(&self, method: reqwest::Method) -> reqwest::RequestBuilder {
        let mut h = self.headers.clone();
        if let Ok(s) = self.session.lock()
            && let Some(id) = s.as_ref()
        {
            h.insert(HeaderName::from_static(SESSION), id.clone());
        }
        if let Some(p) = &self.protocol {
            h.insert(HeaderName::from_static(PROTOCOL), p.clone());
        }
        self.client.request(method, &self.url).headers(h)
    }

    /// POSTs one message. Requests are answered concurrently; notifications, responses and
    /// `initialize` are delivered before the next message is sent, so the server sees them
    /// in order.
    pub async fn send(&mut self, out: Outgoing) {
        let req = self
            .request(reqwest::Method::POST)
            .header(ACCEPT, "application/json, text/event-stream")
            .header(CONTENT_TYPE, "application/json")
            .body(out.line);
        let ctx = Answer {
            url: self.url.clone(),
            ids: out.ids,
            events: self.events.clone(),
            session: Arc::clone(&self.session),
        };
        if ctx.ids.is_empty() || std::mem::take(&mut self.first) {
            // Delivered (answer headers in, session id kept) before the next message is sent;
            // the answer's body is read apart, so a busy loop never waits on it.
            let sent = req.send().await;
            if let Ok(resp) = &sent {
                ctx.keep_session(resp);
            }
            self.track(ctx.read(sent));
        } else {
            self.track(async move { ctx.read(req.send().await).await });
        }
        if out.initialized && !self.listening {
            self.listening = true;
            self.listen();
        }
    }

    /// Runs an answer's reading, counted until it ends.
    fn track(&self, task: impl Future<Output = ()> + Send + 'static) {
        self.busy.send_modify(|n| *n += 1);
        let busy = Arc::clone(&self.busy);
        tokio::spawn(async move {
            task.await;
            busy.send_modify(|n| *n = n.saturating_sub(1));
        });
    }

    /// Resolves once every answer sent so far has been read (the GET stream aside).
    pub fn idle(&self) -> impl Future<Output = ()> + Send + 'static {
        let mut rx = self.busy.subscribe();
        async move {
            let _ = rx.wait_for(|n| *n == 0).await;
        }
    }

    fn session_unknown(&self) -> bool {
        self.session.lock().map(|s| s.is_none()).unwrap_or(true)
    }

    /// Opens the GET stream for what the server sends unasked (a server without one answers 405).
    fn listen(&self) {
        let req = self
            .request(reqwest::Method::GET)
            .header(ACCEPT, "text/event-stream");
        let ctx = Answer {
            url: self.url.clone(),
            ids: Vec::new(),
            events: self.events.clone(),
            session: Arc::clone(&self.session),
        };
        tokio::spawn(async move {
            if let Ok(resp) = req.send().await
                && resp.status().is_success()
            {
                ctx.stream(resp).await;
            }
        });
    }

    /// Ends the session (DELETE, bounded; a server that does not allow it answers 405).
    pub async fn close(&mut self) {
        if self.session_unknown() {
            return;
        }
        let req = self.request(reqwest::Method::DELETE).timeout(CLOSE_TIMEOUT);
        let _ = req.send().await;
    }
}

/// Reads one HTTP answer into events.
struct Answer {
    url: String,
    ids: Vec<String>,
    events: mpsc::Sender<Event>,
    session: Arc<Mutex<Option<HeaderValue>>>,
}

impl Answer {
    async fn fail(&self, reason: String) {
        if !self.ids.is_empty() {
            let _ = self
                .events
                .send(Event::Undelivered {
                    ids: self.ids.clone(),
                    reason,
                })
                .await;
        } else {
            eprintln!("{}: {reason}", errors::PREFIX);
        }
    }

    /// Keeps the session id the server handed out.
    fn keep_session(&self, resp: &reqwest::Response) {
        if let Some(id) = resp.headers().get(SESSION)
            && let Ok(mut s) = self.session.lock()
        {
            *s = Some(id.clone());
        }
    }

    async fn read(self, sent: reqwest::Result<reqwest::Response>) {
        let resp = match sent {
            Ok(r) => r,
            Err(e) => {
                let cause = error_chain(&e);
                return self
                    .fail(errors::upstream_unreachable(&self.url, &cause))
                    .await;
            }
        };
        self.keep_session(&resp);
        let status = resp.status();
        if status.as_u16() == 404 && self.session.lock().is_ok_and(|s| s.is_some()) {
            return self.fail(errors::session_expired(&self.url)).await;
        }
        if !status.is_success() {
            let body = resp.text().await.unwrap_or_default();
            return self
                .fail(errors::upstream_status(&self.url, status.as_u16(), &body))
                .await;
        }
        let sse = resp
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/event-stream"));
        if sse {
            self.stream(resp).await;
            return;
        }
        match resp.text().await {
            // 202 Accepted (or an empty 200): right for notifications and responses; a request
            // left without its answer is answered with an error, not left waiting.
            Ok(body) if body.trim().is_empty() => {
                if !self.ids.is_empty() {
                    let cause =
                        format!("HTTP {} without an answer to the request", status.as_u16());
                    self.fail(errors::upstream_unreachable(&self.url, &cause))
                        .await;
                }
            }
            Ok(body) => {
                let _ = self
                    .events
                    .send(Event::Message(one_line(&body).into_owned()))
                    .await;
            }
            Err(e) => {
                self.fail(errors::upstream_unreachable(&self.url, &error_chain(&e)))
                    .await
            }
        }
    }

    /// Reads an SSE answer; requests it ends without answering are answered with an error.
    async fn stream(mut self, mut resp: reqwest::Response) {
        let mut reader = SseReader::default();
        let cause = loop {
            match resp.chunk().await {
                Ok(Some(chunk)) => match reader.feed(&chunk) {
                    Ok(messages) => {
                        for m in messages {
                            let answered = response_ids(&m);
                            self.ids.retain(|id| !answered.contains(id));
                            if self.events.send(Event::Message(m)).await.is_err() {
                                return;
                            }
                        }
                    }
                    Err(_) => break "an event on the stream exceeds 64 MiB".to_owned(),
                },
                Ok(None) => break "the event stream ended before the answer".to_owned(),
                Err(e) => break error_chain(&e),
            }
        };
        if !self.ids.is_empty() {
            self.fail(errors::upstream_unreachable(&self.url, &cause))
                .await;
        }
    }
}

/// The ids of the responses in a line (one message or a batch).
fn response_ids(line: &str) -> Vec<String> {
    let items = match message::parse(line) {
        Some(Parsed::One(raw)) => vec![raw],
        Some(Parsed::Batch(items)) => items,
        None => return Vec::new(),
    };
    items
        .into_iter()
        .filter_map(message::envelope)
        .filter(|e| e.method.is_none())
        .filter_map(|e| e.id_key())
        .collect()
}

/// An error and its causes, on one line.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut src = e.source();
    while let Some(s) = src {
        out.push_str(": ");
        out.push_str(&s.to_string());
        src = s.source();
    }
    out
}
