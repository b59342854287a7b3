//! `type-case`: upper-case type names read as types, before the walk (a tree pass).

use crate::RuleId;
use crate::engine::Cx;
use schema_core::Schema;

/// Upper-case type names (`"STRING"`, `"OBJECT"`: Google's genai `Type` enum, schemas from
/// gemini-cli and ADK) read as the types they name, before anything else looks at types, and
/// written lower-case, as every target spells them (Gemini's proto accepts both).
/// Its step on one node ([`crate::engine::passes`] walks the tree).
pub(crate) fn read_type_names(s: &mut Schema, p: &crate::engine::passes::At<'_>, cx: &mut Cx<'_>) {
    if s.read_type_name_any_case() {
        cx.change(
            p,
            RuleId::TypeCase,
            "a type name in upper case was read and written lower-case",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Rules, Slot};

    /// Gemini's genai `Type` enum spelling (`"STRING"`) is read as the type it names.
    #[test]
    fn upper_case_type_names_are_read_and_written_lower_case() {
        let mut s =
            Schema::from_str(r#"{"type":"OBJECT","properties":{"a":{"type":"STRING"}}}"#).unwrap();
        let mut cx = Cx::new(&Rules::OPENAI, Slot::Parameters);
        crate::engine::passes::run(&mut s, &mut cx, &[(true, read_type_names)]);
        assert_eq!(
            s.to_json_string(),
            r#"{"type":"object","properties":{"a":{"type":"string"}}}"#
        );
        let changes = cx.into_report().changes;
        let at: Vec<&str> = changes.iter().map(|c| c.pointer.as_str()).collect();
        assert_eq!(at, ["", "/properties/a"]);
        assert!(changes.iter().all(|c| c.rule == RuleId::TypeCase));
    }
}
