//! Tool names: each provider's rule, a check, and a mapper that makes valid, unique names and
//! remembers the originals so responses can be mapped back.

use crate::report::Violation;
use crate::rules::{Rules, ToolNameRule};
use std::collections::HashMap;

impl ToolNameRule {
    fn first_ok(&self, c: char) -> bool {
        c.is_ascii_alphabetic()
            || (self.first_digit && c.is_ascii_digit())
            || self.first_extra.contains(c)
    }

    fn rest_ok(&self, c: char) -> bool {
        c.is_ascii_alphanumeric() || self.rest_extra.contains(c)
    }

    /// Whether `name` follows the rule.
    ///
    /// ```
    /// use provider_rules::Rules;
    /// assert!(Rules::GEMINI.tool_names.accepts("search.web:v2"));
    /// assert!(!Rules::GEMINI.tool_names.accepts("1password"));
    /// assert!(!Rules::OPENAI.tool_names.accepts("kontext__tool.with.dot"));
    /// ```
    pub fn accepts(&self, name: &str) -> bool {
        let mut chars = name.chars();
        match chars.next() {
            None => false,
            Some(c) => {
                self.first_ok(c)
                    && chars.all(|c| self.rest_ok(c))
                    && name.chars().count() <= self.max_len as usize
            }
        }
    }
}

/// The violation for a tool name the provider would refuse, if any.
///
/// ```
/// use provider_rules::{check_tool_name, Rules};
/// let v = check_tool_name("get weather", &Rules::OPENAI).unwrap();
/// assert_eq!(v.rule, "tool-name");
/// assert!(check_tool_name("get_weather", &Rules::OPENAI).is_none());
/// ```
pub fn check_tool_name(name: &str, rules: &Rules) -> Option<Violation> {
    if rules.tool_names.accepts(name) {
        return None;
    }
    let r = &rules.tool_names;
    Some(Violation {
        pointer: String::new(),
        rule: "tool-name",
        message: format!(
            "tool name {name:?} does not match the {} rule: letters, digits and {:?}, {}at most {} characters",
            rules.name(),
            r.rest_extra.as_ref(),
            if r.first_digit {
                ""
            } else {
                "not starting with a digit, "
            },
            r.max_len
        ),
        provider_error: None,
    })
}

/// Makes tool names valid and unique for a provider, and maps them back.
///
/// ```
/// use provider_rules::{Rules, ToolNames};
/// let mut names = ToolNames::new(&Rules::GEMINI);
/// let a = names.map("1password__get item");
/// assert_eq!(a, "_1password__get_item");
/// assert_eq!(names.original(&a), Some("1password__get item"));
/// // A second name that would map to the same string gets a stable hash suffix.
/// let b = names.map("1password__get+item");
/// assert_ne!(a, b);
/// assert!(Rules::GEMINI.tool_names.accepts(&b));
/// ```
#[derive(Clone, Debug)]
pub struct ToolNames {
    rule: ToolNameRule,
    forward: HashMap<String, String>,
    back: HashMap<String, String>,
}

impl ToolNames {
    /// A mapper for the provider described by `rules`.
    pub fn new(rules: &Rules) -> ToolNames {
        ToolNames {
            rule: rules.tool_names.clone(),
            forward: HashMap::new(),
            back: HashMap::new(),
        }
    }

    /// The valid, unique name for `original` (the same one every time it is asked).
    pub fn map(&mut self, original: &str) -> String {
        if let Some(m) = self.forward.get(original) {
            return m.clone();
        }
        let mut name = self.repair(original);
        if self.back.contains_key(&name) || name.chars().count() > self.rule.max_len as usize {
            name = self.with_suffix(&name, original, 0);
            let mut n = 1;
            while self.back.contains_key(&name) {
                name = self.with_suffix(&name, original, n);
                n += 1;
            }
        }
        self.forward.insert(original.to_owned(), name.clone());
        self.back.insert(name.clone(), original.to_owned());
        name
    }

    /// The original name for a mapped one.
    pub fn original(&self, mapped: &str) -> Option<&str> {
        self.back.get(mapped).map(String::as_str)
    }

    fn repair(&self, original: &str) -> String {
        let mut out: String = original
            .chars()
            .map(|c| if self.rule.rest_ok(c) { c } else { '_' })
            .collect();
        match out.chars().next() {
            None => out = "tool".to_owned(),
            Some(c) if !self.rule.first_ok(c) => {
                let prefix = if self.rule.first_ok('_') { "_" } else { "t" };
                out.insert_str(0, prefix);
            }
            _ => {}
        }
        out
    }

    fn with_suffix(&self, name: &str, original: &str, salt: u64) -> String {
        let hash = fnv1a(original.as_bytes()) ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let suffix = format!("_{:08x}", hash as u32);
        let keep = (self.rule.max_len as usize).saturating_sub(suffix.len());
        let head: String = name.chars().take(keep).collect();
        format!("{head}{suffix}")
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}
