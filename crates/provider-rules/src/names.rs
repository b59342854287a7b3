//! Tool names: each provider's rule, a check, and a mapper that makes valid, unique names and
//! remembers the originals so responses can be mapped back.

use crate::RuleId;
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

    /// `original` with every refused character replaced by `_` and a refused first character
    /// prefixed (not cut to the length limit).
    fn repair(&self, original: &str) -> String {
        let mut out: String = original
            .chars()
            .map(|c| if self.rest_ok(c) { c } else { '_' })
            .collect();
        match out.chars().next() {
            None => out = "tool".to_owned(),
            Some(c) if !self.first_ok(c) => {
                let prefix = if self.first_ok('_') { "_" } else { "t" };
                out.insert_str(0, prefix);
            }
            _ => {}
        }
        out
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

/// Why a tool name was renamed: what the rule refuses in it, or that another tool of the
/// request already has it.
///
/// ```
/// use provider_rules::{NameMap, RenameReason, Rules};
/// let rule = &Rules::OPENAI.tool_names;
/// assert_eq!(rule.refusals("a.b"), [RenameReason::Characters]);
/// assert_eq!(rule.refusals(&"x".repeat(65)), [RenameReason::Length]);
/// let map = NameMap::new(rule, ["search", "search"]);
/// assert_eq!(map.reasons(rule, 1), [RenameReason::Collision]);
/// assert_eq!(RenameReason::Length.as_str(), "length");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RenameReason {
    /// Longer than the rule's `max_len` (in characters).
    Length,
    /// A character the rule does not take (or a first character it does not take, or empty).
    Characters,
    /// Valid, but an earlier tool of the request has the same name.
    Collision,
}

impl RenameReason {
    /// The reason's name as reports and logs write it (`length`, `characters`, `collision`).
    ///
    /// See [`RenameReason`] for an example.
    pub fn as_str(self) -> &'static str {
        match self {
            RenameReason::Length => "length",
            RenameReason::Characters => "characters",
            RenameReason::Collision => "collision",
        }
    }
}

impl std::fmt::Display for RenameReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl ToolNameRule {
    /// What the rule refuses in `name` (empty: it accepts the name).
    ///
    /// See [`RenameReason`] for an example.
    pub fn refusals(&self, name: &str) -> Vec<RenameReason> {
        let mut out = Vec::new();
        if name.chars().count() > self.max_len as usize {
            out.push(RenameReason::Length);
        }
        let mut chars = name.chars();
        let chars_ok = chars
            .next()
            .is_some_and(|c| self.first_ok(c) && chars.all(|c| self.rest_ok(c)));
        if !chars_ok {
            out.push(RenameReason::Characters);
        }
        out
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
        rule: RuleId::ToolName,
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
        let mut name = self.rule.repair(original);
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

    fn with_suffix(&self, name: &str, original: &str, salt: u64) -> String {
        suffixed(&self.rule, name, original, salt)
    }
}

/// `name` cut to leave room for `_` and 4 hex digits of a hash of `original` (salted on a
/// collision): readable, never over the limit.
fn suffixed(rule: &ToolNameRule, name: &str, original: &str, salt: u64) -> String {
    let hash = fnv1a(original.as_bytes()) ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let hex = format!(
        "{:04x}",
        (hash ^ (hash >> 16) ^ (hash >> 32) ^ (hash >> 48)) as u16
    );
    let sep = ['_', '-'].into_iter().find(|c| rule.rest_ok(*c));
    let suffix = match sep {
        Some(c) => format!("{c}{hex}"),
        None => hex,
    };
    let keep = (rule.max_len as usize).saturating_sub(suffix.len());
    let mut head: String = name.chars().take(keep).collect();
    // A separator at the cut reads as part of the suffix: trimmed.
    while head.len() > 1 && head.ends_with(|c| Some(c) == sep) {
        head.pop();
    }
    format!("{head}{suffix}")
}

/// The tool names of one request: for each name the provider would refuse (its rule's length
/// or characters) or that another tool of the request already has, the name sent instead, and
/// back. Names that are fine are not in the map (and go on as they are).
///
/// Deterministic: the same tool list gives the same map on every turn; a renamed name depends
/// only on its original unless two would collide. Sent names are valid under the rule, unique in
/// the request, and readable: the original with refused characters replaced by `_` and, where
/// it had to be cut or made unique, `_` and four hex digits of a hash of the original
/// (`github_create_pull_request_review_comm_3f2a`).
///
/// ```
/// use provider_rules::{NameMap, Rules};
/// let long = "mcp__github_enterprise__add_pull_request_review_comment_to_pending_review";
/// let map = NameMap::new(&Rules::OPENAI.tool_names, [long, "search.web", "get_weather"]);
/// let sent = map.sent(long);
/// assert!(sent.len() <= 64);
/// assert!(sent.starts_with("mcp__github_enterprise__add_pull_request_review_comment_to_"));
/// assert_eq!(map.sent("search.web"), "search_web");
/// assert_eq!(map.sent("get_weather"), "get_weather");
/// assert_eq!(map.original(sent), Some(long));
/// assert_eq!(map.original("get_weather"), None); // not renamed
/// assert_eq!(map.len(), 2);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct NameMap {
    /// `(original, sent)` for every declared tool, in declaration order.
    declared: Vec<(String, String)>,
}

impl NameMap {
    /// The map for a request declaring `names` (in declaration order; duplicates allowed: the
    /// first keeps its name, later ones are renamed and map back to the same original).
    ///
    /// See the [type docs](NameMap) for an example.
    pub fn new<'a>(rule: &ToolNameRule, names: impl IntoIterator<Item = &'a str>) -> NameMap {
        let names: Vec<&str> = names.into_iter().collect();
        // Every valid name is taken first: it never changes.
        let mut taken: std::collections::HashSet<String> = std::collections::HashSet::new();
        let mut keep = vec![false; names.len()];
        for (i, n) in names.iter().enumerate() {
            if rule.accepts(n) && taken.insert((*n).to_owned()) {
                keep[i] = true;
            }
        }
        let mut declared: Vec<(String, String)> = Vec::with_capacity(names.len());
        for (i, n) in names.iter().enumerate() {
            if keep[i] {
                declared.push(((*n).to_owned(), (*n).to_owned()));
                continue;
            }
            let repaired = rule.repair(n);
            let mut sent = if rule.accepts(&repaired) && !taken.contains(&repaired) {
                repaired.clone()
            } else {
                suffixed(rule, &repaired, n, 0)
            };
            let mut salt = 1;
            while taken.contains(&sent) {
                sent = suffixed(rule, &repaired, n, salt);
                salt += 1;
            }
            taken.insert(sent.clone());
            declared.push(((*n).to_owned(), sent));
        }
        NameMap { declared }
    }

    fn renamed(&self) -> impl Iterator<Item = &(String, String)> {
        self.declared.iter().filter(|(o, s)| o != s)
    }

    /// Whether no name is renamed.
    ///
    /// ```
    /// use provider_rules::{NameMap, Rules};
    /// assert!(NameMap::new(&Rules::OPENAI.tool_names, ["a", "b"]).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.renamed().next().is_none()
    }

    /// How many declarations are renamed.
    ///
    /// See the [type docs](NameMap) for an example.
    pub fn len(&self) -> usize {
        self.renamed().count()
    }

    /// The name sent for `original` (its first declaration's; itself when it is not declared).
    ///
    /// See the [type docs](NameMap) for an example.
    pub fn sent<'a>(&'a self, original: &'a str) -> &'a str {
        self.declared
            .iter()
            .find(|(o, _)| o == original)
            .map_or(original, |(_, s)| s.as_str())
    }

    /// The name sent for the `index`-th declaration.
    ///
    /// ```
    /// use provider_rules::{NameMap, Rules};
    /// let map = NameMap::new(&Rules::OPENAI.tool_names, ["search", "search"]);
    /// assert_eq!(map.declared(0), Some("search"));
    /// let second = map.declared(1).unwrap();
    /// assert!(second.starts_with("search_") && second.len() == 11);
    /// assert_eq!(map.original(second), Some("search"));
    /// ```
    pub fn declared(&self, index: usize) -> Option<&str> {
        self.declared.get(index).map(|(_, s)| s.as_str())
    }

    /// The original of a sent name, when it was renamed.
    ///
    /// See the [type docs](NameMap) for an example.
    pub fn original(&self, sent: &str) -> Option<&str> {
        self.renamed()
            .find(|(_, s)| s == sent)
            .map(|(o, _)| o.as_str())
    }

    /// Why the `index`-th declaration was renamed under `rule` (the rule the map was built
    /// with): what the rule refuses in its name, else [`RenameReason::Collision`]; empty when
    /// it keeps its name.
    ///
    /// See [`RenameReason`] for an example.
    pub fn reasons(&self, rule: &ToolNameRule, index: usize) -> Vec<RenameReason> {
        match self.declared.get(index) {
            Some((o, s)) if o != s => {
                let r = rule.refusals(o);
                if r.is_empty() {
                    vec![RenameReason::Collision]
                } else {
                    r
                }
            }
            _ => Vec::new(),
        }
    }

    /// Every renamed `(original, sent)` pair, in declaration order.
    ///
    /// ```
    /// use provider_rules::{NameMap, Rules};
    /// let map = NameMap::new(&Rules::OPENAI.tool_names, ["a b", "c"]);
    /// assert_eq!(map.pairs().collect::<Vec<_>>(), [("a b", "a_b")]);
    /// ```
    pub fn pairs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.renamed().map(|(o, s)| (o.as_str(), s.as_str()))
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
