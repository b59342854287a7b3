//! Streams: each API's events, read one complete event at a time.
//!
//! An event without a tool call goes on as it came, at once. A name is mapped back in the
//! event that carries it. The argument fragments of a call whose decoder changes something are
//! held (the events that carry only a fragment are held back, the fragment of any other event
//! is cut out of it) until the call is complete; then one event of the fragments' own type and
//! indices carries the whole decoded arguments, before the event that completed the call. A
//! stream that ends early ends with the held fragments as they came (undecoded, in that one
//! event): nothing is lost, nothing invented.

use std::sync::Arc;

use crate::locate::RawText;
use bytes::Bytes;

mod anthropic;
mod calls;
mod held;
mod openai_chat;
mod places;
mod responses;
mod triage;

use held::{Held, LastFragment};
use places::Places;
use responses::sequence_number;
use triage::{KEY_MAX, Triage};

use super::report::RestoredCall;
use super::sse::{self, Splitter};
use super::{RestorePlan, chat, json};
use crate::shapes_response::Stream;
use crate::slots::splice::Edit;

/// Restores one stream, event by event.
#[derive(Debug)]
pub(crate) struct StreamRestorer {
    plan: Arc<RestorePlan>,
    splitter: Splitter,
    /// Held calls by their place in the stream (choice and call index, output index, block
    /// index).
    held: Places<Held>,
    /// Tools of the open calls that are not held (by the same keys), for `.done` events that
    /// do not repeat the name.
    open: Places<String>,
    /// OpenAI Responses: once an event was held back, the `sequence_number` the next event
    /// sent gets (the client sees them strictly increasing, without gaps); `None` until then
    /// (every number goes on as it came).
    seq_next: Option<u64>,
    /// See [`LastFragment`]; cleared by every other event.
    last_fragment: Option<LastFragment>,
    /// The end of the last chunk when it was read with no call open (see
    /// [`StreamRestorer::quiet`]): the start of an event, without a keyword in it, held as a
    /// slice of that chunk (not copied into the splitter, which is empty meanwhile). The next
    /// chunk either completes it without a keyword, and both go on as they came, or it goes
    /// to the splitter as the start of what is held.
    pending: Option<Bytes>,
    pub(crate) calls: Vec<RestoredCall>,
}

fn number(raw: Option<RawText<'_>>) -> u64 {
    raw.and_then(|r| r.get().parse().ok()).unwrap_or(0)
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

impl StreamRestorer {
    pub(crate) fn new(plan: Arc<RestorePlan>) -> Self {
        StreamRestorer {
            plan,
            splitter: Splitter::default(),
            held: Places::default(),
            open: Places::default(),
            seq_next: None,
            last_fragment: None,
            pending: None,
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
    /// one scan); a last, partial event without a keyword waits as a slice of the chunk
    /// ([`StreamRestorer::pending`]), and goes on with the next chunk's events before its
    /// first keyword; only the rest is buffered.
    pub(crate) fn push_bytes(&mut self, mut chunk: Bytes) -> Vec<Bytes> {
        let mut out = Vec::new();
        if let Some(start) = self.pending.take() {
            if chunk.is_empty() {
                self.pending = Some(start);
                return out;
            }
            match self.complete_pending(&start, &mut chunk) {
                Some((event, run)) => {
                    out.push(event);
                    if !run.is_empty() {
                        out.push(run);
                    }
                }
                None => self.splitter.extend(&start),
            }
        }
        // Each turn takes at least one byte of the chunk.
        while !chunk.is_empty() {
            if self.splitter.is_empty() && self.quiet() {
                let key = self.first_key(&chunk);
                let limit = key.unwrap_or(chunk.len());
                if let Some(end) = sse::last_event_end(&chunk[..limit]) {
                    out.push(chunk.split_to(end));
                    continue;
                }
                // No event ends in the chunk and none has a keyword: the start of one, held
                // as it is (not a chunk that may start with an empty line: the splitter reads
                // that one).
                if key.is_none() && !matches!(chunk.first(), Some(b'\n' | b'\r')) {
                    self.pending = Some(std::mem::take(&mut chunk));
                    break;
                }
            }
            // An event whole in the chunk, nothing held before it: read as a slice of the
            // chunk (no copy), as the splitter would read it alone.
            if self.splitter.is_empty()
                && let Some(k) = sse::event_end_at_line_start(&chunk)
            {
                let event = chunk.split_to(k);
                match self.triage(&event) {
                    Triage::Pass => out.push(event),
                    triage => self.event(event, triage, &mut out),
                }
                continue;
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

    /// The event that [`StreamRestorer::pending`] started (`start`), whole (one buffer: every
    /// piece sent holds whole events), and the events after it up to the chunk's first
    /// keyword (a slice of the chunk), both taken from the front of `chunk`, when that event has
    /// no keyword and no call opened meanwhile: all of it goes on as it came. `None` (the chunk
    /// untouched): the event does not end in the chunk, or has a keyword.
    fn complete_pending(&self, start: &Bytes, chunk: &mut Bytes) -> Option<(Bytes, Bytes)> {
        if !self.quiet() {
            return None;
        }
        let tail = &start[start.len().saturating_sub(2)..];
        let end = sse::first_event_end(tail, chunk)?;
        // A keyword across the two: the start's last bytes and the end's first, side by side
        // (a keyword has at most `KEY_MAX` bytes, none of them a line end).
        let (a, b) = (
            &start[start.len().saturating_sub(KEY_MAX - 1)..],
            &chunk[..end.min(KEY_MAX - 1)],
        );
        let mut across = [0u8; 2 * (KEY_MAX - 1)];
        across[..a.len()].copy_from_slice(a);
        across[a.len()..a.len() + b.len()].copy_from_slice(b);
        if self.first_key(&across[..a.len() + b.len()]).is_some() {
            return None;
        }
        let key = self.first_key(chunk);
        let limit = key.unwrap_or(chunk.len());
        if limit < end {
            return None;
        }
        let last = sse::last_event_end(&chunk[..limit]).unwrap_or(0).max(end);
        let mut event = Vec::with_capacity(start.len() + end);
        event.extend_from_slice(start);
        event.extend_from_slice(&chunk[..end]);
        bytes::Buf::advance(chunk, end);
        Some((Bytes::from(event), chunk.split_to(last - end)))
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
        if let Some(start) = self.pending.take() {
            self.splitter.extend(&start);
        }
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
        // Taken and given back empty: its room is kept for the next calls.
        let mut held = std::mem::take(&mut self.held);
        for h in held.drain() {
            if let Some(b) = h.release(cut, &mut self.calls) {
                self.emit(b, out);
            }
        }
        self.held = held;
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
        match sse::with_edits(&event, &data, vec![edit]) {
            Some(new) => out.push(new),
            None => out.push(event),
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
        let new = sse::with_edits(&event, &data, step.edits).unwrap_or(event);
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
}

fn dedup(keys: &mut Vec<(u64, u64)>) {
    keys.sort_unstable();
    keys.dedup();
}
