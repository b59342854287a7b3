//! OpenAI Chat's stream: `delta.tool_calls[]` (and the older `delta.function_call`), each
//! chunk read in one pass ([`chat::read`]); a call's name comes in its first fragment, its
//! arguments in the fragments after it, the choice's `finish_reason` completes it.

use bytes::Bytes;

use super::super::chat;
use super::super::json::string_ref;
use super::{Step, StreamRestorer, dedup, number};

impl StreamRestorer {
    pub(super) fn chat(
        &mut self,
        event: &Bytes,
        data: &Bytes,
        chunk: chat::Chunk<'_>,
        step: &mut Step,
    ) {
        let single = chunk.choices.len() == 1 && !chunk.usage;
        for ch in chunk.choices.into_iter().flatten() {
            let c = number(ch.index);
            let finished = ch.finished;
            let Some(delta) = ch.delta else {
                continue;
            };
            let single_call = delta.calls.len() == 1;
            for call in delta.calls.into_iter().flatten() {
                let key = (c, number(call.index));
                if let Some(name) = call.name
                    && let Some(sent) = string_ref(name)
                {
                    // A new call in this choice completes the one before.
                    step.release
                        .extend(self.held.keys().filter(|k| k.0 == c && **k != key).copied());
                    let tool = self.rename(data, name, &sent, step);
                    self.open_call(key, tool);
                }
                if self.held.contains_key(&key)
                    && let Some(args) = call.arguments
                {
                    let pure = single
                        && !finished
                        && delta.only_calls
                        && single_call
                        && call.only_index_function
                        && call.function_members == 1;
                    self.hold(key, event, data, args, pure, step);
                }
            }
            if finished {
                step.release
                    .extend(self.held.keys().filter(|k| k.0 == c).copied());
                self.open.retain(|k| k.0 != c);
            }
        }
        dedup(&mut step.release);
    }
}
