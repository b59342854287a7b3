//! Temporary stand-in for provider-rules/schema-core until their scaffolds land.
#![allow(missing_docs, dead_code)]
pub mod provider_rules {
    #[derive(Debug, Clone, Copy)]
    pub struct Rules {
        pub name: &'static str,
    }
    impl Rules {
        pub const GEMINI: Rules = Rules { name: "gemini" };
        pub const PORTABLE: Rules = Rules { name: "portable" };
    }
    pub fn profile(name: &str) -> Option<&'static Rules> {
        static ALL: [Rules; 11] = [
            Rules { name: "gemini" },
            Rules {
                name: "gemini-code-assist",
            },
            Rules {
                name: "gemini-jsonschema",
            },
            Rules { name: "vertex" },
            Rules { name: "openai" },
            Rules {
                name: "openai-strict",
            },
            Rules { name: "anthropic" },
            Rules {
                name: "anthropic-strict",
            },
            Rules { name: "xai" },
            Rules { name: "bedrock" },
            Rules { name: "portable" },
        ];
        ALL.iter().find(|r| r.name == name)
    }
    pub enum Slot {
        Parameters,
        Schema,
    }
    pub struct Change {
        pub pointer: String,
        pub rule: &'static str,
        pub message: String,
        pub lossy: bool,
    }
    pub struct Report {
        pub changes: Vec<Change>,
        pub strict_compatible: bool,
    }
    impl Report {
        pub fn is_empty(&self) -> bool {
            self.changes.is_empty()
        }
    }
    pub struct Sanitized {
        pub schema: super::schema_core::Schema,
        pub report: Report,
    }
    pub fn sanitize(s: &super::schema_core::Schema, _: &Rules, _: Slot) -> Sanitized {
        Sanitized {
            schema: super::schema_core::Schema(s.0.clone()),
            report: Report {
                changes: vec![],
                strict_compatible: true,
            },
        }
    }
    pub fn check_tool_name(_: &str, _: &Rules) -> Option<String> {
        None
    }
}
pub mod schema_core {
    pub struct Schema(pub serde_json::Value);
    impl Schema {
        pub fn from_slice(b: &[u8]) -> Result<Schema, serde_json::Error> {
            serde_json::from_slice(b).map(Schema)
        }
        pub fn to_json_string(&self) -> String {
            self.0.to_string()
        }
    }
}
