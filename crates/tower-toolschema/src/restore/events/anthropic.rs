//! Anthropic Messages' stream: `content_block_start` names a `tool_use` block,
//! `content_block_delta`'s `input_json_delta` carries its fragments, `content_block_stop`
//! completes it.

use crate::locate::RawText;
use bytes::Bytes;

use super::super::json::{at, member, members, string};
use super::{Step, StreamRestorer, number};

impl StreamRestorer {
    pub(super) fn anthropic(
        &mut self,
        event: &Bytes,
        data: &Bytes,
        doc: RawText<'_>,
        step: &mut Step,
    ) {
        let top = members(doc).unwrap_or_default();
        let kind = member(&top, "type").and_then(string).unwrap_or_default();
        let key = (number(member(&top, "index")), 0);
        match kind.as_str() {
            "content_block_start" => {
                self.start_call(data, doc, ("content_block", "tool_use"), key, step);
            }
            "content_block_delta" => {
                if let Some((_, d)) = at(doc, "delta.partial_json") {
                    self.hold(key, event, data, d, true, step);
                }
            }
            "content_block_stop" => {
                step.release.push(key);
                self.open.remove(&key);
            }
            _ => self.whole_calls(data, doc, step),
        }
    }
}
