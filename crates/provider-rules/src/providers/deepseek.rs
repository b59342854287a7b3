//! `deepseek-strict`: DeepSeek's beta strict mode (`api.deepseek.com/beta`, providers.md §7
//! "DeepSeek"). Non-strict requests take OpenAI's profile (the same shape and name rule).

use super::registry::{Carries, Provider};
use crate::rules::*;
use std::borrow::Cow;

impl Rules {
    /// DeepSeek strict function calling (Beta): `tools[].function.strict: true` on
    /// `https://api.deepseek.com/beta` (api-docs.deepseek.com/guides/tool_calls).
    pub const DEEPSEEK_STRICT: Rules = Rules {
        name: Cow::Borrowed("deepseek-strict"),
        // "string `format` only `email, hostname, ipv4, ipv6, uuid`" (rig-core, the reference
        // implementation): the other formats go to the description.
        formats: Some(Cow::Borrowed(&[
            Cow::Borrowed("email"),
            Cow::Borrowed("hostname"),
            Cow::Borrowed("ipv4"),
            Cow::Borrowed("ipv6"),
            Cow::Borrowed("uuid"),
        ])),
        // "closed objects, all properties required, `$ref` inside `anyOf` inlined, one-member
        // `allOf` merged" and "maps / untyped values / property-less objects cannot be
        // strict": OpenAI strict's rewriting (every ref inlined, allOf merged, objects closed,
        // everything required) does all of it, and an open map leaves the schema not
        // strict-compatible (sent non-strict).
        // No documented maximum of tools per request found (OpenAI's 128 is not this
        // provider's).
        tool_limit: None,
        // "`$ref` inside `anyOf` inlined" (rig-core) and nothing documented of recursion:
        // every ref is inlined, as before OpenAI strict kept them.
        refs: Refs::Inline,
        ..Rules::OPENAI_STRICT
    };
}

impl Provider {
    /// DeepSeek (providers.md §7).
    pub const DEEPSEEK: Provider = Provider {
        name: "deepseek",
        description: "DeepSeek Chat Completions (OpenAI shape: function \"a-z, A-Z, 0-9, underscore and hyphen\", 64 characters); tools marked strict (beta) take the strict subset",
        // "OpenAI shape; function name 'a-z, A-Z, 0-9, underscore and hyphen. Maximum length is
        // 64'" (ds-api crate): OpenAI's non-strict profile.
        native: &Rules::OPENAI,
        json_schema: None,
        strict: Some(&Rules::DEEPSEEK_STRICT),
        models: &[],
        vendors: &[],
        hosts: &["deepseek.com"],
        apis: &[],
        carries: Carries::Own,
        errors: &[],
    };
}
