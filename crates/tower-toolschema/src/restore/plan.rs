//! [`RestorePlan`]: what one request's response needs restored, and its readers (a JSON body
//! whole, an SSE stream event by event).

use std::sync::Arc;

use provider_rules::{Decoder, NameMap};

use super::needs::Decoders;
use super::stream::SseRestorer;
use super::{NotRestored, RestoredCall, events, json};
use crate::shapes::Api;
use crate::shapes_response::{ResponseShape, response_shape};

/// What one request's response needs restored: the renamed tool names and the tools' argument
/// decoders.
///
/// ```
/// use provider_rules::{Decoder, NameMap, Rules};
/// use tower_toolschema::{restore::RestorePlan, shapes::Api};
/// let names = NameMap::new(&Rules::GEMINI.tool_names, ["read file"]);
/// let strict = Decoder { drop_null: vec!["limit".into()], ..Decoder::default() };
/// let plan = RestorePlan::new(Api::Gemini, names, [("read file".to_owned(), strict)]);
/// assert!(!plan.is_empty());
/// assert_eq!(plan.original(plan.names().sent("read file")), Some("read file"));
/// assert!(plan.decoder("read file").is_some());
/// ```
#[derive(Debug, Clone)]
pub struct RestorePlan {
    api: Api,
    pub(super) names: Arc<NameMap>,
    decoders: Decoders,
    /// Every name a response may carry, resolved once a stream looks one up (see
    /// [`RestorePlan::resolve`]).
    index: std::sync::OnceLock<ToolIndex>,
}

/// A sent name → the tool's own name when it was renamed, and the tool's decoder.
type ToolIndex = std::collections::HashMap<
    String,
    (Option<String>, Option<Arc<Decoder>>),
    foldhash::fast::RandomState,
>;

impl RestorePlan {
    /// A plan for a response of `api`; identity decoders are dropped.
    ///
    /// ```
    /// use provider_rules::{Decoder, NameMap};
    /// use tower_toolschema::{restore::RestorePlan, shapes::Api};
    /// // A decoder that changes nothing is not kept: nothing is left to restore.
    /// let plan = RestorePlan::new(Api::OpenAiChat, NameMap::default(), [("f".to_owned(), Decoder::default())]);
    /// assert!(plan.is_empty() && plan.decoder("f").is_none());
    /// ```
    pub fn new(
        api: Api,
        names: NameMap,
        decoders: impl IntoIterator<Item = (String, Decoder)>,
    ) -> Self {
        let decoders: Vec<(String, Arc<Decoder>)> = decoders
            .into_iter()
            .filter(|(_, d)| !d.is_identity())
            .map(|(n, d)| (n, Arc::new(d)))
            .collect();
        Self::shared(api, Arc::new(names), decoders.into())
    }

    /// [`RestorePlan::new`] with the decoders as the cache holds them, shared (no copy); every
    /// one of them changes something.
    pub(crate) fn shared(api: Api, names: Arc<NameMap>, decoders: Decoders) -> Self {
        RestorePlan {
            api,
            names,
            decoders,
            index: std::sync::OnceLock::new(),
        }
    }

    /// Whether there is nothing to restore (the response is then not touched).
    ///
    /// ```
    /// use tower_toolschema::{restore::RestorePlan, shapes::Api};
    /// assert!(RestorePlan::new(Api::Gemini, Default::default(), []).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.names.is_empty() && self.decoders.is_empty()
    }

    /// The API whose responses this plan reads.
    ///
    /// ```
    /// use tower_toolschema::{restore::RestorePlan, shapes::Api};
    /// assert_eq!(RestorePlan::new(Api::CodeAssist, Default::default(), []).api(), Api::CodeAssist);
    /// ```
    pub fn api(&self) -> Api {
        self.api
    }

    /// The renamed tool names.
    ///
    /// ```
    /// use provider_rules::{NameMap, Rules};
    /// use tower_toolschema::{restore::RestorePlan, shapes::Api};
    /// let names = NameMap::new(&Rules::ANTHROPIC.tool_names, ["read file"]);
    /// let plan = RestorePlan::new(Api::AnthropicMessages, names, []);
    /// assert_eq!(plan.names().sent("read file"), "read_file");
    /// ```
    pub fn names(&self) -> &NameMap {
        &self.names
    }

    /// The original name of a name the provider sent, when it was renamed.
    ///
    /// ```
    /// use provider_rules::{NameMap, Rules};
    /// use tower_toolschema::{restore::RestorePlan, shapes::Api};
    /// let plan = RestorePlan::new(Api::AnthropicMessages, NameMap::new(&Rules::ANTHROPIC.tool_names, ["read file"]), []);
    /// assert_eq!(plan.original("read_file"), Some("read file"));
    /// assert_eq!(plan.original("write_file"), None);
    /// ```
    pub fn original(&self, sent: &str) -> Option<&str> {
        self.names.original(sent)
    }

    /// The decoder of a tool (by its own name), when it changes something.
    ///
    /// ```
    /// use provider_rules::{Decoder, NameMap};
    /// use tower_toolschema::{restore::RestorePlan, shapes::Api};
    /// let strict = Decoder { drop_null: vec!["line".into()], ..Decoder::default() };
    /// let plan = RestorePlan::new(Api::AnthropicMessages, NameMap::default(), [("comment".to_owned(), strict)]);
    /// assert_eq!(plan.decoder("comment").map(|d| d.drop_null.clone()), Some(vec!["line".to_owned()]));
    /// assert!(plan.decoder("other").is_none());
    /// ```
    pub fn decoder(&self, tool: &str) -> Option<&Arc<Decoder>> {
        self.decoders
            .iter()
            .find(|(n, _)| n == tool)
            .map(|(_, d)| d)
    }

    /// A name the provider sent, resolved: the tool's own name when it was renamed
    /// ([`RestorePlan::original`]) and that tool's decoder ([`RestorePlan::decoder`]), by one
    /// look-up in an index built on the first (not by scanning every name).
    pub(crate) fn resolve(&self, sent: &str) -> (Option<&str>, Option<&Arc<Decoder>>) {
        let index = self.index.get_or_init(|| {
            let mut index = ToolIndex::default();
            // The first renamed pair of a sent name wins, as `original` finds it; a name not
            // renamed is its tool's own.
            for (o, s) in self.names.pairs().filter(|(o, s)| o != s) {
                index
                    .entry(s.to_owned())
                    .or_insert_with(|| (Some(o.to_owned()), self.decoder(o).cloned()));
            }
            for (n, d) in self.decoders.iter() {
                index
                    .entry(n.clone())
                    .or_insert_with(|| (None, Some(Arc::clone(d))));
            }
            index
        });
        match index.get(sent) {
            Some((o, d)) => (o.as_deref(), d.as_ref()),
            None => (None, None),
        }
    }

    pub(crate) fn shape(&self) -> &'static ResponseShape {
        response_shape(self.api)
    }

    /// Restores a JSON response body: the new body (`None`: nothing changed, send the same
    /// bytes) and the calls restored.
    ///
    /// ```
    /// use provider_rules::{NameMap, Rules};
    /// use tower_toolschema::restore::{NotRestored, RestorePlan};
    /// use tower_toolschema::shapes::Api;
    /// let plan = RestorePlan::new(Api::Gemini, NameMap::new(&Rules::GEMINI.tool_names, ["read file"]), []);
    /// let sent = plan.names().sent("read file").to_owned();
    /// let body = format!(r#"{{"candidates":[{{"content":{{"parts":[{{"functionCall":{{"name":"{sent}","args":{{}}}}}}]}}}}]}}"#);
    /// let (out, calls) = plan.restore_json(body.as_bytes())?;
    /// assert_eq!(out.map(String::from_utf8).transpose()?, Some(body.replace(&sent, "read file")));
    /// assert_eq!((calls[0].sent.as_str(), calls[0].tool.as_str()), (sent.as_str(), "read file"));
    /// // A body without a call to restore stays as it is; one that is not JSON is refused.
    /// assert_eq!(plan.restore_json(br#"{"candidates":[]}"#)?.0, None);
    /// assert!(matches!(plan.restore_json(b"{"), Err(NotRestored::InvalidJson(_))));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn restore_json(
        &self,
        body: &[u8],
    ) -> Result<(Option<Vec<u8>>, Vec<RestoredCall>), NotRestored> {
        let mut calls = Vec::new();
        let out =
            json::restore_document(self, body, &mut calls).map_err(NotRestored::InvalidJson)?;
        Ok((out, calls))
    }

    /// A reader for an SSE stream of this plan's API.
    ///
    /// ```
    /// use provider_rules::{NameMap, Rules};
    /// use tower_toolschema::{restore::RestorePlan, shapes::Api};
    /// let plan = RestorePlan::new(Api::AnthropicMessages, NameMap::new(&Rules::ANTHROPIC.tool_names, ["a b"]), []);
    /// let mut s = plan.stream();
    /// let out = s.push(b"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"a_b\",\"input\":{}}}\n\n");
    /// assert!(String::from_utf8_lossy(&out.concat()).contains(r#""name":"a b""#));
    /// assert!(s.finish(false).is_empty());
    /// ```
    pub fn stream(&self) -> SseRestorer {
        SseRestorer(events::StreamRestorer::new(Arc::new(self.clone())))
    }
}
