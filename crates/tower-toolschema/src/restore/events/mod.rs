//! Streams: each API's events, read one complete event at a time.
//!
//! An event without a tool call goes on as it came, at once. A name is mapped back in the
//! event that carries it. The argument fragments of a call whose decoder changes something are
//! held (the events that carry only a fragment are held back, the fragment of any other event
//! is cut out of it) until the call is complete; then one event of the fragments' own type and
//! indices carries the whole decoded arguments, before the event that completed the call. A
//! stream that ends early ends with the held fragments as they came (undecoded, in that one
//! event): nothing is lost, nothing invented.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::locate::RawText;
use bytes::Bytes;

mod anthropic;
mod openai_chat;
mod responses;

use responses::sequence_number;

use super::json::{call_edits, string};
use super::report::RestoredCall;
use super::sse::{self, Splitter};
use super::{RestorePlan, chat, json};
use crate::locate::range_in;
use crate::shapes_response::Stream;
use crate::slots::splice::{Edit, splice};

/// A call whose fragments are held.
#[derive(Debug)]
struct Held {
    tool: String,
    decoder: Arc<provider_rules::Decoder>,
    fragments: String,
    /// The last event that carried a fragment, with that fragment's place in its data.
    template: Option<Template>,
}

/// The last event that carried a fragment: the one event sent on release is made from it
/// (its fragment replaced by the whole arguments, its other edits, a renamed name, made),
/// only then: no copy per fragment.
#[derive(Debug)]
struct Template {
    event: Bytes,
    data: Bytes,
    /// The event's other edits (usually none).
    edits: Vec<Edit>,
    fragment: std::ops::Range<usize>,
}

impl Held {
    /// The one event with the whole arguments (decoded unless `cut`), if any fragment came.
    fn release(self, cut: bool, calls: &mut Vec<RestoredCall>) -> Option<Bytes> {
        let t = self.template?;
        let mut call = RestoredCall::new(&self.tool);
        let text = if cut {
            self.fragments
        } else {
            match self.decoder.decode_json(&self.fragments) {
                Ok(Some(d)) => {
                    call.decoded = true;
                    d
                }
                Ok(None) => self.fragments,
                Err(e) => {
                    call.error = Some(e.to_string());
                    self.fragments
                }
            }
        };
        calls.push(call);
        let fragment = serde_json::to_vec(&text).ok()?;
        let mut edits = t.edits;
        edits.push(Edit {
            range: t.fragment,
            bytes: fragment,
        });
        let data = splice(&t.data, edits)?.into_vec(&t.data);
        Some(Bytes::from(sse::with_data(&t.event, &data)))
    }
}

/// Restores one stream, event by event.
#[derive(Debug)]
pub(crate) struct StreamRestorer {
    plan: Arc<RestorePlan>,
    splitter: Splitter,
    /// Held calls by their place in the stream (choice and call index, output index, block
    /// index).
    held: BTreeMap<(u64, u64), Held>,
    /// Tools of the open calls that are not held (by the same keys), for `.done` events that
    /// do not repeat the name.
    open: BTreeMap<(u64, u64), String>,
    /// OpenAI Responses: once an event was held back, the `sequence_number` the next event
    /// sent gets (the client sees them strictly increasing, without gaps); `None` until then
    /// (every number goes on as it came).
    seq_next: Option<u64>,
    /// See [`LastFragment`]; cleared by every other event.
    last_fragment: Option<LastFragment>,
    pub(crate) calls: Vec<RestoredCall>,
}

fn number(raw: Option<RawText<'_>>) -> u64 {
    raw.and_then(|r| r.get().parse().ok()).unwrap_or(0)
}

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
enum Triage {
    /// Nothing: it goes on as it came.
    Pass,
    /// It completes the open calls, which go first.
    Complete,
    /// It is read.
    Read,
    /// It goes on with its `sequence_number` renumbered (Responses, after a held event).
    Renumber,
}

/// One event's edits, then the decision what to send.
struct Step {
    edits: Vec<Edit>,
    /// Send nothing for this event (a held fragment).
    drop: bool,
    /// Held calls to release before this event.
    release: Vec<(u64, u64)>,
    /// The call and the place in the data of the fragment a held-back event carried.
    fragment: Option<((u64, u64), std::ops::Range<usize>)>,
}

/// The last event read, when all it did was carry one fragment of a held call and be held
/// back: an event whose data is the same bytes around another JSON string reads the same
/// (the same call, the same decision), so it is held without a parse.
#[derive(Debug)]
struct LastFragment {
    key: (u64, u64),
    data: Bytes,
    fragment: std::ops::Range<usize>,
}

impl LastFragment {
    /// Where the fragment of `data` is, when `data` is this event's data with another JSON
    /// string token in the fragment's place.
    fn same_around(&self, data: &[u8]) -> Option<std::ops::Range<usize>> {
        let (pre, post) = (
            self.data.get(..self.fragment.start)?,
            self.data.get(self.fragment.end..)?,
        );
        if data.len() < pre.len() + post.len() + 2
            || !data.starts_with(pre)
            || !data.ends_with(post)
        {
            return None;
        }
        let range = pre.len()..data.len() - post.len();
        let token = &data[range.clone()];
        // One string token: its first unescaped quote after the opening one is its last byte.
        let body = token.strip_prefix(b"\"")?;
        let mut i = 0;
        while let Some(off) = memchr::memchr2(b'"', b'\\', body.get(i..)?) {
            let at = i + off;
            if body[at] == b'\\' {
                i = at + 2;
                continue;
            }
            return (at + 1 == body.len()).then_some(range);
        }
        None
    }
}

impl StreamRestorer {
    pub(crate) fn new(plan: Arc<RestorePlan>) -> Self {
        StreamRestorer {
            plan,
            splitter: Splitter::default(),
            held: BTreeMap::new(),
            open: BTreeMap::new(),
            seq_next: None,
            last_fragment: None,
            calls: Vec::new(),
        }
    }

    /// Reads `chunk`; returns what to send now.
    /// Consecutive events that go on as they came leave as one slice of the input (no copy
    /// per event).
    pub(crate) fn push(&mut self, chunk: &[u8]) -> Vec<Bytes> {
        self.push_bytes(Bytes::copy_from_slice(chunk))
    }

    /// [`StreamRestorer::push`] of a chunk the caller owns: with no call open and nothing
    /// held, the events before the chunk's first keyword leave as one slice of it (no copy,
    /// one scan); only the rest is buffered.
    pub(crate) fn push_bytes(&mut self, mut chunk: Bytes) -> Vec<Bytes> {
        let mut out = Vec::new();
        // Each turn takes at least one byte of the chunk.
        while !chunk.is_empty() {
            if self.splitter.is_empty() && self.quiet() {
                let limit = self.first_key(&chunk).unwrap_or(chunk.len());
                if let Some(end) = sse::last_event_end(&chunk[..limit]) {
                    out.push(chunk.split_to(end));
                    continue;
                }
            }
            // Buffered: up to the end of the first event this chunk completes.
            let held = self.splitter.held();
            let tail = &held[held.len().saturating_sub(2)..];
            let k = sse::first_event_end(tail, &chunk).unwrap_or(chunk.len());
            self.splitter.extend(&chunk.split_to(k));
            self.drain(&mut out);
        }
        out
    }

    /// No call open, nothing held, no number to change: events without a keyword pass.
    fn quiet(&self) -> bool {
        self.held.is_empty() && self.open.is_empty() && self.seq_next.is_none()
    }

    /// Sends what the complete events held need.
    fn drain(&mut self, out: &mut Vec<Bytes>) {
        // The bytes of the events passing unread, from the start of what is held.
        let mut run = 0;
        while let Some(end) = self.splitter.next_end(run) {
            let triage = self.triage(&self.splitter.held()[run..end]);
            if matches!(triage, Triage::Pass) {
                run = end;
                // No call open: every event before the next keyword passes, found in one scan
                // (only once an event is complete: an event still arriving is not rescanned).
                if self.quiet() {
                    let limit = match self.first_key(&self.splitter.held()[run..]) {
                        Some(k) => run + k,
                        None => self.splitter.held().len(),
                    };
                    run = self.splitter.last_end(run, limit);
                }
                continue;
            }
            if run > 0 {
                out.push(self.splitter.take(run));
            }
            let event = self.splitter.take(end - run);
            run = 0;
            self.event(event, triage, out);
        }
        if run > 0 {
            out.push(self.splitter.take(run));
        }
    }

    /// The stream ended (`cut`: with an error, or early): what is left to send.
    pub(crate) fn finish(&mut self, cut: bool) -> Vec<Bytes> {
        let mut out = Vec::new();
        let tail = self.splitter.finish();
        match tail {
            // A last event without its empty line is still read when the stream ended well.
            Some(t) if !cut && t.iter().any(|b| !b.is_ascii_whitespace()) => {
                let triage = self.triage(&t);
                self.event(t, triage, &mut out)
            }
            Some(t) => {
                self.release_all(true, &mut out);
                out.push(t);
                return out;
            }
            None => {}
        }
        self.release_all(cut, &mut out);
        out
    }

    fn release_all(&mut self, cut: bool, out: &mut Vec<Bytes>) {
        for (_, h) in std::mem::take(&mut self.held) {
            if let Some(b) = h.release(cut, &mut self.calls) {
                self.emit(b, out);
            }
        }
    }

    /// Sends one event (its `sequence_number` renumbered once an event was held back).
    fn emit(&mut self, event: Bytes, out: &mut Vec<Bytes>) {
        let Some(next) = self.seq_next else {
            out.push(event);
            return;
        };
        let Some(data) = sse::data(&event) else {
            out.push(event);
            return;
        };
        let Some((range, n)) = sequence_number(&data) else {
            out.push(event);
            return;
        };
        self.seq_next = Some(next.saturating_add(1));
        if n == next {
            out.push(event);
            return;
        }
        let edit = Edit {
            range,
            bytes: next.to_string().into_bytes(),
        };
        match splice(&data, vec![edit]) {
            Some(new) => out.push(Bytes::from(sse::with_data(&event, &new.into_vec(&data)))),
            None => out.push(event),
        }
    }

    /// Where the first keyword of this stream's kind is in `bytes`: one scan, for a part the
    /// keywords share, each hit checked.
    fn first_key(&self, bytes: &[u8]) -> Option<usize> {
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
    fn triage(&self, event: &[u8]) -> Triage {
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

    fn event(&mut self, event: Bytes, triage: Triage, out: &mut Vec<Bytes>) {
        let last = self.last_fragment.take();
        match triage {
            Triage::Pass | Triage::Renumber => {
                self.emit(event, out);
                return;
            }
            Triage::Complete => {
                self.open.clear();
                self.release_all(false, out);
                self.emit(event, out);
                return;
            }
            Triage::Read => {}
        }
        // The data: a slice of the event when it is one line (no copy).
        let data = match sse::data(&event) {
            Some(std::borrow::Cow::Borrowed(d)) => event.slice_ref(d),
            Some(std::borrow::Cow::Owned(d)) => Bytes::from(d),
            None => {
                self.emit(event, out);
                return;
            }
        };
        if let Some(last) = last
            && self.held.contains_key(&last.key)
            && let Some(fragment) = last.same_around(&data)
            && self.hold_again(last.key, &event, &data, fragment.clone())
        {
            self.last_fragment = Some(LastFragment {
                key: last.key,
                data,
                fragment,
            });
            return;
        }
        let step = match std::str::from_utf8(&data)
            .ok()
            .and_then(|text| self.step(&event, &data, text))
        {
            Some(step) => step,
            None => {
                // `[DONE]` and anything else that is not JSON: every call is complete.
                let release: Vec<_> = self.held.keys().copied().collect();
                self.open.clear();
                Step {
                    edits: Vec::new(),
                    drop: false,
                    release,
                    fragment: None,
                }
            }
        };
        let released = !step.release.is_empty();
        for key in step.release {
            if let Some(h) = self.held.remove(&key)
                && let Some(b) = h.release(false, &mut self.calls)
            {
                self.emit(b, out);
            }
        }
        if step.drop {
            // Held back having done nothing else: the next event may read the same.
            if !released
                && step.edits.is_empty()
                && let Some((key, fragment)) = step.fragment
            {
                self.last_fragment = Some(LastFragment {
                    key,
                    data: data.clone(),
                    fragment,
                });
            }
            // Responses: from here on the numbers the client sees are counted.
            if self.seq_next.is_none()
                && self.plan.shape().stream == Stream::ResponsesEvents
                && let Some((_, n)) = sequence_number(&data)
            {
                self.seq_next = Some(n);
            }
            return;
        }
        if step.edits.is_empty() {
            self.emit(event, out);
            return;
        }
        let new = match splice(&data, step.edits) {
            Some(new) => Bytes::from(sse::with_data(&event, &new.into_vec(&data))),
            None => event,
        };
        self.emit(new, out);
    }

    /// One event's step, from its data `text` (the bytes of `data`); `None`: not JSON.
    fn step(&mut self, event: &Bytes, data: &Bytes, text: &str) -> Option<Step> {
        let mut step = Step {
            edits: Vec::new(),
            drop: false,
            release: Vec::new(),
            fragment: None,
        };
        let plan = Arc::clone(&self.plan);
        let shape = plan.shape();
        // Chat: read in one pass; the others through the generic walker.
        if shape.stream == Stream::ChatDeltas {
            let chunk = chat::read(text)?;
            self.chat(event, data, chunk, &mut step);
            return Some(step);
        }
        let doc = serde_json::from_str::<RawText<'_>>(text).ok()?;
        match shape.stream {
            Stream::ChatDeltas => {}
            Stream::ResponsesEvents => self.responses(event, data, doc, &mut step),
            Stream::AnthropicBlocks => self.anthropic(event, data, doc, &mut step),
            Stream::Chunks => {
                let mut calls = Vec::new();
                if let Ok(Some(new)) = json::restore_document(&plan, data, &mut calls) {
                    step.edits.push(Edit {
                        range: 0..data.len(),
                        bytes: new,
                    });
                }
                self.calls.append(&mut calls);
            }
            Stream::NotRead => {}
        }
        Some(step)
    }

    /// Holds the fragment at `raw` of the call at `key`: cut out of the event (`pure`: the
    /// event carries nothing else and is held back whole).
    fn hold(
        &mut self,
        key: (u64, u64),
        event: &Bytes,
        data: &Bytes,
        raw: RawText<'_>,
        pure: bool,
        step: &mut Step,
    ) {
        let (Some(h), Some(range)) = (self.held.get_mut(&key), range_in(data, raw)) else {
            return;
        };
        let Some(text) = string(raw) else { return };
        h.fragments.push_str(&text);
        // The template: this event, its earlier edits (a renamed name) made on release.
        let edits = step
            .edits
            .iter()
            .map(|e| Edit {
                range: e.range.clone(),
                bytes: e.bytes.clone(),
            })
            .collect();
        h.template = Some(Template {
            event: event.clone(),
            data: data.clone(),
            edits,
            fragment: range.clone(),
        });
        if pure {
            step.drop = true;
            step.fragment = Some((key, range));
        } else {
            step.edits.push(Edit {
                range,
                bytes: b"\"\"".to_vec(),
            });
        }
    }

    /// [`StreamRestorer::hold`] of a held-back event known to read as the last one did (see
    /// [`LastFragment`]): its fragment at `fragment` in `data`. `false` (nothing done) when
    /// the fragment is not a JSON string.
    fn hold_again(
        &mut self,
        key: (u64, u64),
        event: &Bytes,
        data: &Bytes,
        fragment: std::ops::Range<usize>,
    ) -> bool {
        let Some(text) = std::str::from_utf8(&data[fragment.clone()])
            .ok()
            .and_then(|t| serde_json::from_str::<String>(t).ok())
        else {
            return false;
        };
        let Some(h) = self.held.get_mut(&key) else {
            return false;
        };
        h.fragments.push_str(&text);
        h.template = Some(Template {
            event: event.clone(),
            data: data.clone(),
            edits: Vec::new(),
            fragment,
        });
        true
    }

    fn open_call(&mut self, key: (u64, u64), tool: String) {
        match self.plan.decoder(&tool) {
            Some(d) => {
                self.held.insert(
                    key,
                    Held {
                        tool,
                        decoder: Arc::clone(d),
                        fragments: String::new(),
                        template: None,
                    },
                );
            }
            None => {
                self.open.insert(key, tool);
            }
        }
    }

    /// A call that starts in this event (Responses' `output_item.added`, Anthropic's
    /// `content_block_start`): when the object at `holder` is of type `kind`, its `name` is
    /// mapped back and the call opened at `key`.
    fn start_call(
        &mut self,
        data: &[u8],
        doc: RawText<'_>,
        (holder, kind): (&str, &str),
        key: (u64, u64),
        step: &mut Step,
    ) {
        let Some((m, name)) = json::at(doc, &format!("{holder}.name")) else {
            return;
        };
        if let Some(sent) = string(name)
            && json::member(&m, "type")
                .and_then(string)
                .is_some_and(|t| t == kind)
        {
            let tool = self.rename(data, name, &sent, step);
            self.open_call(key, tool);
        }
    }

    /// Whole calls inside one event (Responses' `output_item.done`, `response.completed`).
    fn whole_calls(&mut self, data: &[u8], doc: RawText<'_>, step: &mut Step) {
        let shape = self.plan.shape();
        call_edits(
            &self.plan,
            data,
            doc,
            "",
            shape.event_calls,
            &mut step.edits,
            &mut self.calls,
        );
    }

    /// Maps a name back in this event; returns the tool's own name.
    fn rename(&mut self, data: &[u8], raw: RawText<'_>, sent: &str, step: &mut Step) -> String {
        match self.plan.original(sent) {
            Some(original) => {
                if let (Some(range), Ok(bytes)) =
                    (range_in(data, raw), serde_json::to_vec(original))
                {
                    step.edits.push(Edit { range, bytes });
                }
                let original = original.to_owned();
                if self.plan.decoder(&original).is_none() {
                    let mut c = RestoredCall::new(sent);
                    c.tool = original.clone();
                    self.calls.push(c);
                }
                original
            }
            None => sent.to_owned(),
        }
    }
}

fn dedup(keys: &mut Vec<(u64, u64)>) {
    keys.sort_unstable();
    keys.dedup();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_bytes_around_another_string_read_the_same() {
        let data = Bytes::from_static(br#"{"d":{"arguments":"{\"a\":"},"n":null}"#);
        let start = br#"{"d":{"arguments":"#.len();
        let end = data.len() - br#"},"n":null}"#.len();
        let last = LastFragment {
            key: (0, 0),
            fragment: start..end,
            data,
        };
        assert_eq!(&last.data[last.fragment.clone()], br#""{\"a\":""#);
        let same = |s: &str| last.same_around(s.as_bytes()).map(|r| s[r].to_owned());
        assert_eq!(
            same(r#"{"d":{"arguments":"1}"},"n":null}"#).as_deref(),
            Some(r#""1}""#)
        );
        assert_eq!(
            same(r#"{"d":{"arguments":"\\\""},"n":null}"#).as_deref(),
            Some(r#""\\\"""#)
        );
        assert_eq!(
            same(r#"{"d":{"arguments":""},"n":null}"#).as_deref(),
            Some(r#""""#)
        );
        // Not one string token in the place: read in full.
        for other in [
            r#"{"d":{"arguments":"a","b":"c"},"n":null}"#,
            r#"{"d":{"arguments":"a\"},"n":null}"#,
            r#"{"d":{"arguments":"a\},"n":null}"#,
            r#"{"d":{"arguments":1},"n":null}"#,
            r#"{"d":{"arguments":"a"},"n":1}"#,
            r#"{"d":{"arguments":"},"n":null}"#,
        ] {
            assert_eq!(same(other), None, "{other}");
        }
    }
}
