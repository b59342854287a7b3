//! Held calls: a call whose decoder changes something has its argument fragments held until
//! it is complete, then sent as one fragment in the last fragment's event; an event that
//! reads as the last held-back fragment did is held without a parse.

use std::sync::Arc;

use bytes::Bytes;

use super::super::cursor::push_string;
use super::super::json::string;
use super::super::report::RestoredCall;
use super::super::sse;
use super::{Step, StreamRestorer};
use crate::lex::Lexer;
use crate::locate::{RawText, range_in};
use crate::slots::splice::Edit;

/// A call whose fragments are held.
#[derive(Debug)]
pub(super) struct Held {
    pub(super) tool: String,
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
    pub(super) fn release(self, cut: bool, calls: &mut Vec<RestoredCall>) -> Option<Bytes> {
        let t = self.template?;
        let mut call = RestoredCall::owned(self.tool);
        let text = if cut {
            self.fragments
        } else {
            // Checked by the lexer where it is sure (no second check in the decoder), else
            // by the decoder's serde_json, whose answer stands.
            let decoded = match is_json(&self.fragments) {
                true => self.decoder.decode_checked_json(&self.fragments),
                false => self.decoder.decode_json(&self.fragments),
            };
            match decoded {
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
        t.build(&text)
    }
}

/// Whether `text` is one JSON value, as far as the lexer is sure (`false`: not JSON, or not
/// sure: serde_json decides).
fn is_json(text: &str) -> bool {
    let mut lx = Lexer::new(text.as_bytes());
    lx.ws();
    let ok = lx.skip(0).is_some();
    lx.ws();
    ok && lx.i == text.len()
}

impl Template {
    /// The event with `text` as its fragment (a JSON string) and its other edits made; with
    /// no other edit and the data the event's one `data: ` line, written in one buffer.
    fn build(self, text: &str) -> Option<Bytes> {
        let ev = &self.event;
        if self.edits.is_empty()
            && let Some(at) = sse::data_at(ev, &self.data)
        {
            let mut out = Vec::with_capacity(ev.len() + text.len() + 8);
            out.extend_from_slice(ev.get(..at + self.fragment.start)?);
            serde_json::to_writer(&mut out, text).ok()?;
            out.extend_from_slice(ev.get(at + self.fragment.end..)?);
            return Some(Bytes::from(out));
        }
        let mut fragment = Vec::with_capacity(text.len() + 8);
        serde_json::to_writer(&mut fragment, text).ok()?;
        let mut edits = self.edits;
        edits.push(Edit {
            range: self.fragment,
            bytes: fragment,
        });
        sse::with_edits(ev, &self.data, edits)
    }
}

/// The last event read, when all it did was carry one fragment of a held call and be held
/// back: an event whose data is the same bytes around another JSON string reads the same
/// (the same call, the same decision), so it is held without a parse.
#[derive(Debug)]
pub(super) struct LastFragment {
    pub(super) key: (u64, u64),
    pub(super) data: Bytes,
    pub(super) fragment: std::ops::Range<usize>,
}

impl LastFragment {
    /// Where the fragment of `data` is, when `data` is this event's data with another JSON
    /// string token in the fragment's place.
    pub(super) fn same_around(&self, data: &[u8]) -> Option<std::ops::Range<usize>> {
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
    /// Holds the fragment at `raw` of the call at `key`: cut out of the event (`pure`: the
    /// event carries nothing else and is held back whole).
    pub(super) fn hold(
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
        // Unescaped into the held text (no copy of its own), or by serde_json where that is
        // not sure.
        if push_string(raw.get(), &mut h.fragments).is_none() {
            let Some(text) = string(raw) else { return };
            h.fragments.push_str(&text);
        }
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
        } else if raw.get() != "\"\"" {
            step.edits.push(Edit {
                range,
                bytes: b"\"\"".to_vec(),
            });
        }
    }

    /// [`StreamRestorer::hold`] of a held-back event known to read as the last one did (see
    /// [`LastFragment`]): its fragment at `fragment` in `data`. `false` (nothing done) when
    /// the fragment is not a JSON string.
    pub(super) fn hold_again(
        &mut self,
        key: (u64, u64),
        event: &Bytes,
        data: &Bytes,
        fragment: std::ops::Range<usize>,
    ) -> bool {
        let Some(token) = std::str::from_utf8(&data[fragment.clone()]).ok() else {
            return false;
        };
        let Some(h) = self.held.get_mut(&key) else {
            return false;
        };
        if push_string(token, &mut h.fragments).is_none() {
            let Ok(text) = serde_json::from_str::<String>(token) else {
                return false;
            };
            h.fragments.push_str(&text);
        }
        h.template = Some(Template {
            event: event.clone(),
            data: data.clone(),
            edits: Vec::new(),
            fragment,
        });
        true
    }

    /// Opens the call at `key` of `tool`: held when it has a decoder (`decoder`).
    pub(super) fn open_call(
        &mut self,
        key: (u64, u64),
        (tool, decoder): (String, Option<Arc<provider_rules::Decoder>>),
    ) {
        match decoder {
            Some(decoder) => {
                self.held.insert(
                    key,
                    Held {
                        tool,
                        decoder,
                        // Room for a usual call's arguments: one allocation, not a growth
                        // per fragment.
                        fragments: String::with_capacity(256),
                        template: None,
                    },
                );
            }
            None => {
                self.open.insert(key, tool);
            }
        }
    }
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
