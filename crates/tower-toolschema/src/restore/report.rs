//! What the way back did to one response: [`RestoreReport`], in the response's extensions.

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use provider_rules::NameMap;

/// One tool call of a response that was restored (or could not be).
///
/// ```
/// use provider_rules::{Decoder, NameMap};
/// use tower_toolschema::{restore::RestorePlan, shapes::Api};
/// let strict = Decoder { drop_null: vec!["line".into()], ..Decoder::default() };
/// let plan = RestorePlan::new(Api::AnthropicMessages, NameMap::default(), [("comment".to_owned(), strict)]);
/// let body = br#"{"content":[{"type":"tool_use","id":"t","name":"comment","input":{"line":null}}]}"#;
/// let (_, calls) = plan.restore_json(body)?;
/// let call = &calls[0];
/// assert_eq!((call.sent.as_str(), call.tool.as_str()), ("comment", "comment"));
/// assert!(call.decoded && !call.renamed() && call.error.is_none());
/// # Ok::<(), tower_toolschema::restore::NotRestored>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RestoredCall {
    /// The name the provider sent.
    pub sent: String,
    /// The tool's own name (the same as `sent` when it was not renamed).
    pub tool: String,
    /// Whether its arguments were decoded (strict nulls removed).
    pub decoded: bool,
    /// Why its arguments could not be decoded (they went on as they came).
    pub error: Option<String>,
}

impl RestoredCall {
    pub(crate) fn new(sent: &str) -> Self {
        Self::owned(sent.to_owned())
    }

    /// [`RestoredCall::new`] of a name the caller owns.
    pub(crate) fn owned(sent: String) -> Self {
        RestoredCall {
            tool: sent.clone(),
            sent,
            decoded: false,
            error: None,
        }
    }

    /// Whether the name was mapped back.
    ///
    /// ```
    /// # fn f(c: &tower_toolschema::restore::RestoredCall) -> bool {
    /// c.renamed()
    /// # }
    /// ```
    pub fn renamed(&self) -> bool {
        self.sent != self.tool
    }
}

/// Why a response went on untouched although its request had something to restore.
///
/// ```
/// use tower_toolschema::restore::NotRestored;
/// assert_eq!(NotRestored::Compressed("gzip".into()).to_string(),
///     "a compressed response (gzip): put a decompression layer in front to have it restored");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotRestored {
    /// `Content-Encoding` is set.
    Compressed(String),
    /// Neither JSON nor `text/event-stream`.
    NotJson(String),
    /// A stream this API's table does not read (Bedrock's binary ConverseStream).
    StreamNotRead,
    /// A JSON body larger than the limit (it went on as it came).
    TooLarge {
        /// The limit in bytes.
        limit: usize,
    },
    /// Not valid JSON.
    InvalidJson(String),
}

impl fmt::Display for NotRestored {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotRestored::Compressed(e) => write!(
                f,
                "a compressed response ({e}): put a decompression layer in front to have it restored"
            ),
            NotRestored::NotJson(ct) => write!(f, "not a JSON or SSE response ({ct})"),
            NotRestored::StreamNotRead => f.write_str("a stream this API's framing is not read in"),
            NotRestored::TooLarge { limit } => {
                write!(f, "the response is larger than the limit of {limit} bytes")
            }
            NotRestored::InvalidJson(e) => write!(f, "the response is not valid JSON: {e}"),
        }
    }
}

impl std::error::Error for NotRestored {}

/// What was restored so far.
///
/// ```
/// use tower_toolschema::restore::{RestoreReport, RestoreSummary};
/// // Before the body is read: nothing renamed, no call, not complete.
/// let s: RestoreSummary = RestoreReport::default().summary();
/// assert!(s.renamed.is_empty() && s.calls.is_empty() && s.not_restored.is_none());
/// assert!(!s.complete);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct RestoreSummary {
    /// The tool names the request renamed: `(original, sent)`.
    pub renamed: Vec<(String, String)>,
    /// The calls restored, in body order.
    pub calls: Vec<RestoredCall>,
    /// Set when the response went on untouched.
    pub not_restored: Option<NotRestored>,
    /// Whether the body ended (a stream's report fills as it is read).
    pub complete: bool,
}

/// The way back's report, in the response's extensions when the request had something to
/// restore. A stream's calls are added as they pass: read it once the body has ended.
///
/// ```
/// use tower_toolschema::restore::RestoreReport;
/// fn restored_calls<B>(response: &http::Response<B>) -> usize {
///     response.extensions().get::<RestoreReport>().map_or(0, |r| r.summary().calls.len())
/// }
/// // A response whose request had nothing to restore carries no report.
/// assert_eq!(restored_calls(&http::Response::new(())), 0);
/// let mut res = http::Response::new(());
/// res.extensions_mut().insert(RestoreReport::default());
/// assert!(res.extensions().get::<RestoreReport>().is_some());
/// ```
#[derive(Debug, Clone, Default)]
pub struct RestoreReport(Arc<Shared>);

/// What a report and its clones share.
#[derive(Debug, Default)]
struct Shared {
    summary: Mutex<RestoreSummary>,
    /// The request's names: [`RestoreSummary::renamed`] is made from them when read (not per
    /// response).
    names: Option<Arc<NameMap>>,
}

impl RestoreReport {
    pub(crate) fn new(names: Arc<NameMap>) -> Self {
        RestoreReport(Arc::new(Shared {
            summary: Mutex::default(),
            names: Some(names),
        }))
    }

    pub(crate) fn update(&self, f: impl FnOnce(&mut RestoreSummary)) {
        f(&mut self
            .0
            .summary
            .lock()
            .unwrap_or_else(PoisonError::into_inner));
    }

    /// A copy of what was restored so far.
    ///
    /// ```
    /// use tower_toolschema::restore::RestoreReport;
    /// let report = RestoreReport::default();
    /// let shared = report.clone();
    /// // A clone reads the same report (the layer keeps one, the response the other).
    /// assert_eq!(shared.summary(), report.summary());
    /// assert!(!report.summary().complete);
    /// ```
    pub fn summary(&self) -> RestoreSummary {
        let mut s = self
            .0
            .summary
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        if let Some(names) = &self.0.names {
            s.renamed = names
                .pairs()
                .map(|(o, s)| (o.to_owned(), s.to_owned()))
                .collect();
        }
        s
    }
}
