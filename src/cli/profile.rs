//! Choosing the profile a command applies: a built-in (`--provider NAME`) or a custom one
//! loaded from a TOML / JSON file (`--rules FILE`).

use super::error::CliError;
use provider_rules::Rules;
use std::path::Path;
use tower_toolschema::{Profile, Profiles};

/// The built-in profiles `matrix` shows by default: every non-strict one.
pub const MATRIX_DEFAULT: &[&str] = &[
    "gemini",
    "gemini-code-assist",
    "gemini-jsonschema",
    "vertex",
    "openai",
    "anthropic",
    "xai",
    "bedrock",
    "portable",
];

/// One line about each built-in profile, for `toolschema providers`.
pub fn description(name: &str) -> &'static str {
    match name {
        "gemini" => {
            "Gemini API Schema proto (parameters, response, responseSchema): one type per node, string-only enums, a short keyword list"
        }
        "gemini-code-assist" => {
            "Gemini Code Assist / Antigravity (v1internal): as gemini, plus a type on every node, no bare anyOf, no null type"
        }
        "gemini-jsonschema" => {
            "Gemini parametersJsonSchema / responseJsonSchema: the published JSON Schema subset, $ref without siblings"
        }
        "vertex" => {
            "Vertex AI Gemini Schema: ref/defs without $, anyOf standing alone, additionalProperties allowed"
        }
        "openai" => {
            "OpenAI Chat Completions / Responses function parameters, non-strict: items on arrays, properties on objects"
        }
        "openai-strict" => {
            "OpenAI strict: true tools and json_schema response formats: every property required, additionalProperties false"
        }
        "anthropic" => {
            "Anthropic Messages input_schema: JSON Schema draft 2020-12, an object root without unions"
        }
        "anthropic-strict" => {
            "Anthropic strict tool use and structured outputs: the supported keyword subset, additionalProperties false"
        }
        "xai" => "xAI Grok function parameters (always strict-like)",
        "bedrock" => "Amazon Bedrock Converse toolSpec.inputSchema.json",
        "portable" => "the subset gemini, openai, anthropic, xai and bedrock all accept at once",
        _ => "a custom profile",
    }
}

/// The names of the built-in profiles, comma-separated (for error messages).
pub fn names_list() -> String {
    provider_rules::profile_names()
        .collect::<Vec<_>>()
        .join(", ")
}

/// A built-in profile by name, or an error listing the valid names.
pub fn builtin(name: &str) -> Result<&'static Rules, CliError> {
    let name = super::names::resolve(
        "provider",
        name,
        provider_rules::profile_names(),
        " (run `toolschema providers` for a description of each)",
    )?;
    provider_rules::profile(name).ok_or_else(|| {
        CliError::usage(format!(
            "unknown provider {name:?}; valid providers: {} (run `toolschema providers` for a description of each)",
            names_list()
        ))
    })
}

/// The profile a command applies.
#[derive(Debug, Clone)]
pub enum Choice {
    /// A built-in profile.
    Builtin(&'static Rules),
    /// A custom profile loaded from a file.
    Custom(Box<Rules>),
}

impl Choice {
    /// From `--provider NAME` and `--rules FILE` (at least one must be given; `--rules` wins).
    pub fn from_args(provider: Option<&str>, rules: Option<&Path>) -> Result<Choice, CliError> {
        match (provider, rules) {
            (_, Some(path)) => Ok(Choice::Custom(Box::new(load_rules(path)?))),
            (Some(name), None) => Ok(Choice::Builtin(builtin(name)?)),
            (None, None) => Err(CliError::usage(format!(
                "no profile chosen: pass --provider NAME (one of: {}) or --rules FILE",
                names_list()
            ))),
        }
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        match self {
            Choice::Builtin(r) => r,
            Choice::Custom(r) => r,
        }
    }

    /// The profile's name.
    pub fn name(&self) -> &str {
        self.rules().name()
    }

    /// The profiles the request-body sanitizer applies: a built-in provider takes its family
    /// (Gemini's `*JsonSchema` slots take `gemini-jsonschema`, tools marked `strict` take the
    /// strict profile); a strict or JSON-Schema profile, or a custom one, applies to every slot.
    pub fn profiles(&self) -> Profiles {
        match self {
            Choice::Builtin(r) => match r.name() {
                "gemini" => Profiles::gemini(),
                "gemini-code-assist" => Profiles::gemini_code_assist(),
                "vertex" => Profiles::vertex(),
                "openai" => Profiles::openai(),
                "anthropic" => Profiles::anthropic(),
                "xai" => Profiles::xai(),
                "bedrock" => Profiles::bedrock(),
                "portable" => Profiles::portable(),
                other => match Profile::builtin(other) {
                    Some(p) => Profiles::single(p),
                    None => Profiles::single(Profile::custom(other.to_owned(), (*r).clone())),
                },
            },
            Choice::Custom(r) => {
                Profiles::single(Profile::custom(r.name().to_owned(), (**r).clone()))
            }
        }
    }

    /// The rules of a profile named in a body report: this choice's own, or a built-in.
    pub fn rules_named(&self, name: &str) -> Option<&Rules> {
        if name == self.name() {
            return Some(self.rules());
        }
        provider_rules::profile(name)
    }
}

/// Loads a custom profile from a TOML or JSON file (by extension; content-sniffed otherwise).
pub fn load_rules(path: &Path) -> Result<Rules, CliError> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| {
        CliError::usage(format!(
            "cannot read the rules file {shown}: {e} (pass a TOML or JSON profile, e.g. one written by `toolschema rules gemini --format toml`)"
        ))
    })?;
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let json = match ext.as_deref() {
        Some("json") => true,
        Some("toml") => false,
        _ => text.trim_start().starts_with('{'),
    };
    let loaded = if json {
        Rules::from_json(&text)
    } else {
        Rules::from_toml(&text)
    };
    loaded.map_err(|e| {
        CliError::usage(format!(
            "the rules file {shown} is not a valid profile: {e} (start from `toolschema rules gemini --format toml`, or write `extends = \"gemini\"` plus the fields to override)"
        ))
    })
}
