//! `bedrock`: Converse `toolSpec.inputSchema.json` (providers.md §7).

use super::registry::{Carries, Provider};
use crate::rules::*;
use std::borrow::Cow;

impl Rules {
    /// Amazon Bedrock Converse (Claude-family rules).
    pub const BEDROCK: Rules = Rules {
        name: Cow::Borrowed("bedrock"),
        // `The value at toolConfig.tools.26.toolSpec.inputSchema.json.type must be one of the
        // following: object.` (kirodotdev/Kiro#11026)
        root: Root {
            no_composition: true,
            ..Root::OBJECT
        },
        // `name`: length 1–64, pattern `[a-zA-Z0-9_-]+`.
        tool_names: ToolNameRule {
            first_extra: Cow::Borrowed("_-"),
            first_digit: true,
            rest_extra: Cow::Borrowed("_-"),
            max_len: 64,
        },
        // Non-circular references only (Claude family).
        refs: Refs::Inline,
        ..Rules::ANTHROPIC
    };
}

impl Provider {
    /// Amazon Bedrock Converse (providers.md §7).
    pub const BEDROCK: Provider = Provider {
        name: "bedrock",
        description: "Amazon Bedrock Converse toolSpec.inputSchema.json and outputConfig's JSON-string schema (Claude-family rules)",
        native: &Rules::BEDROCK,
        json_schema: None,
        strict: None,
        models: &[],
        vendors: &[],
        hosts: &[],
        apis: &["bedrock-converse"],
        carries: Carries::Own,
        errors: super::anthropic::ANTHROPIC_ERRORS,
    };
}
