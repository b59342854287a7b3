//! [`SseRestorer`]: one SSE stream restored chunk by chunk, the public face of the stream
//! reader ([`super::events`]).

use bytes::Bytes;

use super::{RestoredCall, events};

/// Restores one SSE stream, chunk by chunk (any chunking gives the same output): built by
/// [`RestorePlan::stream`](super::RestorePlan::stream).
///
/// ```
/// # use provider_rules::{NameMap, Rules};
/// # use tower_toolschema::{restore::RestorePlan, shapes::Api};
/// # let plan = RestorePlan::new(Api::AnthropicMessages, NameMap::new(&Rules::ANTHROPIC.tool_names, ["a b"]), []);
/// # let start = b"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"a_b\",\"input\":{}}}\n\n";
/// let mut stream = plan.stream();
/// let mut out = stream.push(start).concat();
/// out.extend(stream.finish(false).concat());
/// assert!(String::from_utf8(out)?.contains(r#""name":"a b""#));
/// assert_eq!(stream.take_calls()[0].tool, "a b");
/// # Ok::<(), std::string::FromUtf8Error>(())
/// ```
#[derive(Debug)]
pub struct SseRestorer(pub(super) events::StreamRestorer);

impl SseRestorer {
    /// Reads the next chunk; returns the bytes to send now (complete events).
    ///
    /// ```
    /// # use provider_rules::{NameMap, Rules};
    /// # use tower_toolschema::{restore::RestorePlan, shapes::Api};
    /// # let plan = RestorePlan::new(Api::AnthropicMessages, NameMap::new(&Rules::ANTHROPIC.tool_names, ["a b"]), []);
    /// # let start = b"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"a_b\",\"input\":{}}}\n\n";
    /// let mut stream = plan.stream();
    /// // An event is sent once it is complete, whatever the chunks.
    /// let (head, tail) = start.split_at(40);
    /// assert!(stream.push(head).is_empty());
    /// assert!(String::from_utf8_lossy(&stream.push(tail).concat()).contains(r#""name":"a b""#));
    /// ```
    pub fn push(&mut self, chunk: &[u8]) -> Vec<Bytes> {
        self.0.push(chunk)
    }

    /// The stream ended (`cut`: by an error): what is left to send.
    ///
    /// ```
    /// # use provider_rules::{NameMap, Rules};
    /// # use tower_toolschema::{restore::RestorePlan, shapes::Api};
    /// # let plan = RestorePlan::new(Api::AnthropicMessages, NameMap::new(&Rules::ANTHROPIC.tool_names, ["a b"]), []);
    /// # let start = b"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"a_b\",\"input\":{}}}\n\n";
    /// let mut stream = plan.stream();
    /// assert!(stream.push(&start[..start.len() - 2]).is_empty());
    /// // The last event had no blank line after it: it is sent at the end, restored.
    /// assert!(String::from_utf8_lossy(&stream.finish(false).concat()).contains(r#""name":"a b""#));
    /// ```
    pub fn finish(&mut self, cut: bool) -> Vec<Bytes> {
        self.0.finish(cut)
    }

    /// The calls restored so far (taken).
    ///
    /// ```
    /// # use provider_rules::{NameMap, Rules};
    /// # use tower_toolschema::{restore::RestorePlan, shapes::Api};
    /// # let plan = RestorePlan::new(Api::AnthropicMessages, NameMap::new(&Rules::ANTHROPIC.tool_names, ["a b"]), []);
    /// # let start = b"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"a_b\",\"input\":{}}}\n\n";
    /// let mut stream = plan.stream();
    /// stream.push(start);
    /// let calls = stream.take_calls();
    /// assert!(calls.len() == 1 && calls[0].renamed() && calls[0].sent == "a_b");
    /// assert!(stream.take_calls().is_empty(), "taken");
    /// ```
    pub fn take_calls(&mut self) -> Vec<RestoredCall> {
        std::mem::take(&mut self.0.calls)
    }
}
