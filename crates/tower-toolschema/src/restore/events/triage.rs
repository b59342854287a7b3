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

static TOOL_CALLS: Key = Key::new("tool_calls");
static FUNCTION_CALL: Key = Key::new("function_call");
static FUNCTION_CALL_CAMEL: Key = Key::new("functionCall");
static TOOL_USE: Key = Key::new("tool_use");
static CONTENT_BLOCK: Key = Key::new("content_block");
static SEQUENCE_NUMBER: Key = Key::new("\"sequence_number\"");
// The parts keywords share (`first_key`).
static CALL: Key = Key::new("_call");
static UNCTION: Key = Key::new("unction");

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
    /// name no tool call and go on unread.
    pub(super) fn triage(&self, event: &[u8]) -> Triage {
        let has = |k: &Key| k.finder().find(event).is_some();
        let open = !self.held.is_empty() || !self.open.is_empty();
        match self.plan.shape().stream {
            Stream::ChatDeltas if has(&TOOL_CALLS) || has(&FUNCTION_CALL) => Triage::Read,
            // Calls come one after another: anything else in the stream completes them.
            Stream::ChatDeltas if open => Triage::Complete,
            Stream::ResponsesEvents if has(&FUNCTION_CALL) => Triage::Read,
            Stream::AnthropicBlocks if has(&TOOL_USE) || (open && has(&CONTENT_BLOCK)) => {
                Triage::Read
            }
            Stream::ResponsesEvents if self.seq_next.is_some() && has(&SEQUENCE_NUMBER) => {
                Triage::Renumber
            }
            Stream::Chunks if has(&FUNCTION_CALL_CAMEL) || has(&FUNCTION_CALL) => Triage::Read,
            _ => Triage::Pass,
        }
    }
}
