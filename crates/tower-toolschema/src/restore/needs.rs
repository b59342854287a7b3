//! What the way back needs of a request's slots, worked out from the slot reports alone: the
//! tools whose decoder undoes an encoding (their earlier calls in the history are encoded),
//! whether the names must be read for renaming, and the decoders the response's plan carries.
//! A known tool list (the tool-list cache) keeps its [`Needs`] with its result, so a request
//! that reuses the list does no per-tool work for the way back: when nothing is renamed and no
//! tool has a decoder, its plan is empty and nothing after the slots reads the body.

use std::sync::{Arc, OnceLock};

use provider_rules::Decoder;

use crate::config::Config;
use crate::report::SlotReport;
use crate::shapes::{Api, SlotRole};

/// The tools' argument decoders that change something, by the tool's own name (shared: the
/// slot cache's decoders, one list per tool list).
pub(crate) type Decoders = Arc<[(String, Arc<Decoder>)]>;

/// What the way back needs of one request's slots (see the module docs).
#[derive(Debug)]
pub(crate) struct Needs {
    /// The tools whose decoder undoes an encoding, with it (the first of a name).
    pub(crate) encoders: Vec<(String, Arc<Decoder>)>,
    /// Whether the body's names must be read for renaming.
    pub(crate) renaming: bool,
    /// The decoders of the response's plan.
    pub(crate) decoders: Decoders,
}

impl Needs {
    /// The needs of a request whose report has `api`, `slots` and `unslotted` under `config`.
    pub(crate) fn of(
        config: &Config,
        api: Option<Api>,
        slots: &[SlotReport],
        unslotted: &[(String, bool)],
    ) -> Self {
        Needs {
            encoders: crate::encoding::history::encoders(slots),
            renaming: super::needs_rename(config, api, slots, unslotted),
            decoders: decoders(slots),
        }
    }

    /// Whether anything after the slots reads the body (the history's encoding, renaming).
    pub(crate) fn reads_body(&self) -> bool {
        self.renaming || !self.encoders.is_empty()
    }

    /// Whether the way back has nothing to do: no body read, no decoder (the plan is empty,
    /// the response passes untouched).
    pub(crate) fn is_nothing(&self) -> bool {
        !self.reads_body() && self.decoders.is_empty()
    }
}

/// The decoders of `slots`' tools that change something (the slot cache's, shared).
fn decoders(slots: &[SlotReport]) -> Decoders {
    let list: Vec<(String, Arc<Decoder>)> = slots
        .iter()
        .filter(|s| s.role == SlotRole::ToolParameters && !s.decoder.is_identity())
        .filter_map(|s| Some((s.tool.as_deref()?.to_owned(), Arc::clone(&s.decoder))))
        .collect();
    if list.is_empty() {
        return no_decoders();
    }
    list.into()
}

/// The empty list of decoders, shared (no allocation per request).
pub(crate) fn no_decoders() -> Decoders {
    static EMPTY: OnceLock<Decoders> = OnceLock::new();
    Arc::clone(EMPTY.get_or_init(|| Arc::from(Vec::new())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ToolSchemaLayer;
    use crate::config::RequestCtx;

    fn needs(layer: &ToolSchemaLayer, body: &str) -> Needs {
        let ctx = RequestCtx {
            shape: Some(Api::OpenAiChat.shape()),
            host: None,
        };
        let (_, r) = crate::rewrite::process(layer.config(), &ctx, body.as_bytes());
        Needs::of(layer.config(), r.api, &r.slots, &r.unslotted)
    }

    fn chat(name: &str, strict: bool) -> String {
        format!(
            r#"{{"model":"gpt-4o","messages":[],"tools":[{{"type":"function","function":{{"name":"{name}","strict":{strict},"parameters":{{"type":"object","properties":{{"q":{{"type":"string"}},"cursor":{{"type":"string"}}}},"required":["q"]}}}}}}]}}"#
        )
    }

    #[test]
    fn valid_names_without_strict_need_nothing_read_and_share_the_empty_list() {
        let n = needs(&ToolSchemaLayer::openai(), &chat("search", false));
        assert!(!n.reads_body() && n.decoders.is_empty() && n.is_nothing());
        assert!(Arc::ptr_eq(&n.decoders, &no_decoders()));
    }

    #[test]
    fn a_refused_name_or_a_strict_null_is_needed() {
        let layer = ToolSchemaLayer::openai();
        let renamed = needs(&layer, &chat("fs.read", false));
        assert!(renamed.renaming && renamed.decoders.is_empty());
        let strict = needs(&layer, &chat("search", true));
        assert!(!strict.reads_body() && !strict.is_nothing());
        assert!(!renamed.is_nothing());
        assert_eq!(strict.decoders.len(), 1);
        assert_eq!(strict.decoders[0].0, "search");
        let off = needs(&layer.rename_tools(false), &chat("fs.read", false));
        assert!(!off.renaming);
    }
}
