//! Which events a stream reader reads: a keyword scan of the bytes (most events of a stream,
//! text, name no tool call and go on unread), and the first keyword of a stretch of events
//! (those before it pass as one slice).

use super::StreamRestorer;
use crate::shapes_response::Stream;

/// A keyword the triage looks for, with its searcher built once.
struct Key(
    &'static str,
    std::sync::OnceLock<memchr::memmem::Finder<'static>>,
);

impl Key {
    const fn new(k: &'static str) -> Key {
        Key(k, std::sync::OnceLock::new())
    }

    fn finder(&self) -> &memchr::memmem::Finder<'static> {
        self.1
            .get_or_init(|| memchr::memmem::Finder::new(self.0.as_bytes()))
    }
}

static FUNCTION_CALL: Key = Key::new("function_call");
static TOOL_USE: Key = Key::new("tool_use");
static CONTENT_BLOCK: Key = Key::new("content_block");
static SEQUENCE_NUMBER: Key = Key::new("\"sequence_number\"");
// The parts keywords share (`first_key`).
static CALL: Key = Key::new("_call");
static UNCTION: Key = Key::new("unction");

/// The most bytes a keyword of [`StreamRestorer::first_key`] has (`function_call`: 13).
pub(super) const KEY_MAX: usize = 16;

/// What an event needs.
pub(super) enum Triage {
    /// Nothing: it goes on as it came.
    Pass,
    /// It completes the open calls, which go first.
    Complete,
    /// It is read.
    Read,
    /// It goes on with its `sequence_number` renumbered (Responses, after a held event).
    Renumber,
}

impl StreamRestorer {
    /// Where the first keyword of this stream's kind is in `bytes`: one scan, for a part the
    /// keywords share, each hit checked.
    pub(super) fn first_key(&self, bytes: &[u8]) -> Option<usize> {
        // (the shared part, each keyword with the shared part's offset in it)
        let (anchor, keys): (&Key, &[(&str, usize)]) = match self.plan.shape().stream {
            Stream::ChatDeltas => (&CALL, &[("tool_calls", 4), ("function_call", 8)]),
            Stream::ResponsesEvents => (&FUNCTION_CALL, &[("function_call", 0)]),
            Stream::AnthropicBlocks => (&TOOL_USE, &[("tool_use", 0)]),
            Stream::Chunks => (&UNCTION, &[("functionCall", 1), ("function_call", 1)]),
            Stream::NotRead => return None,
        };
        anchor.finder().find_iter(bytes).find_map(|at| {
            keys.iter().find_map(|(k, off)| {
                let start = at.checked_sub(*off)?;
                bytes[start..].starts_with(k.as_bytes()).then_some(start)
            })
        })
    }

    /// What an event needs, from a keyword scan of its bytes: most events of a stream (text)
    /// name no tool call and go on unread. Whether the event has one of its stream's call
    /// keywords is [`StreamRestorer::first_key`]'s one scan (not one scan a keyword).
    pub(super) fn triage(&self, event: &[u8]) -> Triage {
        let has = |k: &Key| k.finder().find(event).is_some();
        let keyword = self.first_key(event).is_some();
        let open = !self.held.is_empty() || !self.open.is_empty();
        match self.plan.shape().stream {
            Stream::ChatDeltas if keyword => Triage::Read,
            // Calls come one after another: anything else in the stream completes them.
            Stream::ChatDeltas if open => Triage::Complete,
            Stream::ResponsesEvents if keyword => Triage::Read,
            Stream::AnthropicBlocks if keyword || (open && has(&CONTENT_BLOCK)) => Triage::Read,
            Stream::ResponsesEvents if self.seq_next.is_some() && has(&SEQUENCE_NUMBER) => {
                Triage::Renumber
            }
            Stream::Chunks if keyword => Triage::Read,
            _ => Triage::Pass,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::super::RestorePlan;
    use super::*;
    use crate::shapes::Api;

    /// The one anchored scan finds a keyword exactly where a scan for each keyword would.
    #[test]
    fn one_scan_finds_what_a_scan_per_keyword_finds() {
        let keys: [(Api, &[&str]); 4] = [
            (Api::OpenAiChat, &["tool_calls", "function_call"]),
            (Api::OpenAiResponses, &["function_call"]),
            (Api::AnthropicMessages, &["tool_use"]),
            (Api::Gemini, &["functionCall", "function_call"]),
        ];
        let texts = [
            "",
            "_call",
            "tool_call",
            "ool_calls",
            "tool_calls",
            "xtool_callsx",
            "function_cal",
            "unction_call",
            "function_call",
            "functionCall",
            "functioncall",
            "_call tool_calls",
            "tool_use",
            "tool_us",
            "_c_call_callfunction_call",
            "unctionunctionCall",
            r#"data: {"choices":[{"delta":{"content":"a tool_calls b"}}]}"#,
            r#"data: {"finish_reason":null,"id":"fp_call"}"#,
        ];
        for (api, words) in keys {
            let r = StreamRestorer::new(Arc::new(RestorePlan::new(api, Default::default(), [])));
            for t in texts {
                let want = words.iter().any(|w| t.contains(w));
                assert_eq!(r.first_key(t.as_bytes()).is_some(), want, "{api:?} {t}");
                if let Some(at) = r.first_key(t.as_bytes()) {
                    let first = words.iter().filter_map(|w| t.find(w)).min();
                    assert_eq!(Some(at), first, "{api:?} {t}");
                }
            }
        }
    }
}
