//! Calls named in an event: a call that starts (its name mapped back, the call opened, held
//! when its decoder changes something), whole calls inside one event, a name mapped back.

use std::sync::Arc;

use provider_rules::Decoder;

use super::super::json::{self, call_edits, string};
use super::super::report::RestoredCall;
use super::{Step, StreamRestorer};
use crate::locate::{RawText, range_in};
use crate::slots::splice::Edit;

impl StreamRestorer {
    /// A call that starts in this event (Responses' `output_item.added`, Anthropic's
    /// `content_block_start`): when the object at `holder` is of type `kind`, its `name` is
    /// mapped back and the call opened at `key`.
    pub(super) fn start_call(
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
    pub(super) fn whole_calls(&mut self, data: &[u8], doc: RawText<'_>, step: &mut Step) {
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

    /// Maps a name back in this event; returns the tool's own name and its decoder.
    pub(super) fn rename(
        &mut self,
        data: &[u8],
        raw: RawText<'_>,
        sent: &str,
        step: &mut Step,
    ) -> (String, Option<Arc<Decoder>>) {
        let (original, decoder) = self.plan.resolve(sent);
        let decoder = decoder.cloned();
        match original {
            Some(original) => {
                if let (Some(range), Ok(bytes)) =
                    (range_in(data, raw), serde_json::to_vec(original))
                {
                    step.edits.push(Edit { range, bytes });
                }
                let original = original.to_owned();
                if decoder.is_none() {
                    let mut c = RestoredCall::new(sent);
                    c.tool = original.clone();
                    self.calls.push(c);
                }
                (original, decoder)
            }
            None => (sent.to_owned(), decoder),
        }
    }
}
