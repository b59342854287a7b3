//! OpenAI Responses' stream: `response.output_item.added` names a `function_call`,
//! `response.function_call_arguments.delta` carries its fragments, `.done` completes it (with
//! the whole arguments); whole calls in `output_item.done` and `response.completed`. Once an
//! event was held back, the `sequence_number`s after it are renumbered.

use crate::locate::RawText;
use bytes::Bytes;

use super::super::json::{decode_args, member, members, string};
use super::{Step, StreamRestorer, number};
use crate::locate::range_in;
use crate::slots::splice::Edit;

impl StreamRestorer {
    pub(super) fn responses(
        &mut self,
        event: &Bytes,
        data: &Bytes,
        doc: RawText<'_>,
        step: &mut Step,
    ) {
        let top = members(doc).unwrap_or_default();
        let kind = member(&top, "type").and_then(string).unwrap_or_default();
        let key = (number(member(&top, "output_index")), 0);
        match kind.as_str() {
            "response.output_item.added" => {
                self.start_call(data, doc, ("item", "function_call"), key, step);
            }
            "response.function_call_arguments.delta" => {
                if let Some(d) = member(&top, "delta") {
                    self.hold(key, event, data, d, true, step);
                }
            }
            "response.function_call_arguments.done" => {
                let tool = self
                    .held
                    .get(&key)
                    .map(|h| h.tool.clone())
                    .or_else(|| self.open.remove(&key));
                if self.held.contains_key(&key) {
                    step.release.push(key);
                }
                if let Some(name) = member(&top, "name")
                    && let Some(sent) = string(name)
                {
                    self.rename(data, name, &sent, step);
                }
                if let Some(tool) = tool
                    && let Some(d) = self.plan.decoder(&tool)
                    && let Some(args) = member(&top, "arguments")
                    && let Some(range) = range_in(data, args)
                    && let Ok(Some(bytes)) = decode_args(d, args.get())
                {
                    step.edits.push(Edit { range, bytes });
                }
            }
            _ => {
                if kind == "response.output_item.done" {
                    self.open.remove(&key);
                }
                self.whole_calls(data, doc, step);
            }
        }
    }
}

/// The top-level `sequence_number` of an event's data: where its digits are, and its value.
pub(super) fn sequence_number(data: &[u8]) -> Option<(std::ops::Range<usize>, u64)> {
    let doc: RawText<'_> = serde_json::from_slice(data).ok()?;
    let raw = member(&members(doc)?, "sequence_number")?;
    let n = raw.get().parse().ok()?;
    Some((range_in(data, raw)?, n))
}
