//! The engine's context: the rules, the report being written, and each node's pending hints.

use crate::RuleId;
use crate::Slot;
use crate::hints;
use crate::report::{Change, Report};
use crate::rules::Rules;
use schema_core::{InstanceType, Keyword, KeywordMask, Schema, Value};
use std::cell::RefCell;
use std::rc::Rc;

/// How many levels of the walk's path [`Cx`]'s stacks hold before they grow.
const PATH_CAPACITY: usize = 16;

/// One node on the walk's path.
struct Level {
    /// Its pending hints.
    hints: Vec<String>,
    /// How many changes the report held when it was entered.
    mark: usize,
}

/// What the steps share while one schema is sanitized.
pub(crate) struct Cx<'r> {
    pub(crate) rules: &'r Rules,
    pub(crate) slot: Slot,
    report: Report,
    /// The nodes on the walk's path (their hints, their marks), innermost last: one list,
    /// one allocation per schema.
    path: Vec<Level>,
    /// The profile's any-value schema, parsed once per thread (see [`any_value_of`]).
    any_value: Option<Rc<Schema>>,
    /// Whether that schema is one type only (no union can say "any value").
    any_value_lossy: bool,
    /// The types each node on the path spoke of when it was entered, innermost last (kept
    /// only where "any value" is lossy: see [`Cx::guess`]).
    guesses: Vec<Vec<InstanceType>>,
    /// Where the strict rewrite made properties nullable that did not accept `null`: the
    /// object's pointer and the properties' names, one entry per object rewritten (the
    /// decoders are built from them).
    pub(crate) strict_nulls: Vec<(String, Vec<String>)>,
    /// What the caller reads of the result ([`super::Reads`]): where only the schema,
    /// [`Cx::strict_nulls`] is left empty and no change's message is kept.
    pub(crate) reads: super::Reads,
    /// Whether the finished tree holds a `$ref`, where the strict limits' walk of it looked
    /// ([`super::strict::limits`]; `None`: no walk did): the decoders' search for references
    /// is skipped where it found none.
    pub(crate) holds_ref: Option<bool>,
    /// The deepest level an object subschema of the finished tree sits at, where the strict
    /// limits' walk of it measured one ([`super::strict::limits`]; `None`: not known): the
    /// depth cap's search of the tree is skipped where it is within the cap's limit.
    pub(crate) deepest_object: Option<usize>,
    /// The keywords the whole tree held after the last tree-pass walk, and how many changes
    /// the report held then ([`Cx::tree_may_hold`]).
    held: Option<(KeywordMask, usize)>,
    /// How many changes the report held when the tree was known to hold no value of the
    /// wrong JSON type ([`Cx::may_hold_raw`]).
    raw_free: Option<usize>,
}

impl<'r> Cx<'r> {
    pub(crate) fn new(rules: &'r Rules, slot: Slot) -> Cx<'r> {
        let any_value = rules.any_value.as_deref().and_then(any_value_of);
        let any_value_lossy = any_value
            .as_ref()
            .and_then(|s| s.as_object())
            .is_some_and(|o| !o.contains(Keyword::AnyOf));
        Cx {
            rules,
            slot,
            report: Report::default(),
            // One entry per level of the walk's path: room for typical depths up front.
            path: Vec::with_capacity(PATH_CAPACITY),
            any_value,
            any_value_lossy,
            guesses: Vec::new(),
            strict_nulls: Vec::new(),
            reads: super::Reads::Everything,
            holds_ref: None,
            deepest_object: None,
            held: None,
            raw_free: None,
        }
    }

    /// Enters `node`: its hints start empty; where "any value" is lossy, the types its
    /// keywords speak of are kept before the steps rewrite it.
    pub(crate) fn enter(&mut self, node: &Schema) {
        self.path.push(Level {
            hints: Vec::new(),
            mark: self.report.changes.len(),
        });
        if self.any_value_lossy {
            self.guesses.push(super::types::spoken(node));
        }
    }

    pub(crate) fn leave(&mut self) {
        self.path.pop();
        if self.any_value_lossy {
            self.guesses.pop();
        }
    }

    /// Where the profile cannot say "any value" but with one type, the types the current
    /// node spoke of as it was entered (its own keywords, then those of its conditional and
    /// dependent subschemas, then its `const`/`enum` values): the best single type to give
    /// a node that ends up accepting anything. Empty otherwise.
    pub(crate) fn guess(&self) -> &[InstanceType] {
        self.guesses.last().map(Vec::as_slice).unwrap_or(&[])
    }

    /// Whether the profile's any-value schema is one type (no union to say "any value").
    pub(crate) fn any_value_lossy(&self) -> bool {
        self.any_value_lossy
    }

    /// Records that the whole tree holds no keyword outside `held` now (a tree-pass walk has
    /// just read every node: [`super::passes`]).
    pub(crate) fn tree_holds(&mut self, held: KeywordMask) {
        self.held = Some((held, self.change_count()));
    }

    /// Whether the tree may hold one of `keywords`: `false` only where the last tree-pass walk
    /// saw none and nothing changed since (every rewrite records a change), so a pass that
    /// reads only `keywords` would leave the tree as it is (its search of the tree skipped).
    pub(crate) fn tree_may_hold(&self, keywords: KeywordMask) -> bool {
        match self.held {
            Some((held, changes)) if changes == self.change_count() => held.intersects(keywords),
            _ => true,
        }
    }

    /// Records that no keyword of the tree holds a value of the wrong JSON type (the parser
    /// reported none: [`super::Raw`]).
    pub(crate) fn parsed_without_raw(&mut self) {
        self.raw_free = Some(self.change_count());
    }

    /// Whether a keyword of the tree may hold a value of the wrong JSON type
    /// ([`schema_core::Value::Raw`]): `false` only where the parser reported none and nothing
    /// changed since (every rewrite records a change; a wrapped bare map's members, parsed
    /// anew, may hold some), so a pass that rewrites only such values would find none.
    pub(crate) fn may_hold_raw(&self) -> bool {
        self.raw_free != Some(self.change_count())
    }

    /// How many changes the report holds.
    pub(crate) fn change_count(&self) -> usize {
        self.report.changes.len()
    }

    /// Whether meaning was lost under `prefix` since the current node was entered.
    pub(crate) fn lost_under(&self, prefix: &str) -> bool {
        let from = self.path.last().map_or(0, |l| l.mark);
        self.report.changes[from.min(self.report.changes.len())..]
            .iter()
            .any(|c| c.lossy && c.pointer.starts_with(prefix))
    }

    /// Whether the caller reads the report's messages and the decoder ([`super::Reads`]).
    pub(crate) fn reads_everything(&self) -> bool {
        self.reads == super::Reads::Everything
    }

    /// A change's message as kept: none where the caller reads none ([`super::Reads`]).
    fn kept(&self, message: impl Into<String>) -> String {
        match self.reads_everything() {
            true => message.into(),
            false => String::new(),
        }
    }

    /// Records a change that keeps the meaning.
    pub(crate) fn change(&mut self, pointer: &str, rule: RuleId, message: impl Into<String>) {
        let message = self.kept(message);
        self.report.changes.push(Change {
            pointer: pointer.to_owned(),
            rule,
            message,
            lossy: false,
        });
    }

    /// Moves the changes recorded since the report held `from` to the end of `to`
    /// ([`super::passes`]: each pass of a walk keeps its own).
    pub(crate) fn move_changes_since(&mut self, from: usize, to: &mut Vec<Change>) {
        if from < self.report.changes.len() {
            to.extend(self.report.changes.drain(from..));
        }
    }

    /// Moves `changes` to the end of the report.
    pub(crate) fn append_changes(&mut self, changes: &mut Vec<Change>) {
        self.report.changes.append(changes);
    }

    /// Records changes made outside the walk (the encodings).
    pub(crate) fn record(&mut self, changes: &[Change]) {
        self.report.changes.extend_from_slice(changes);
    }

    /// Records a change that loses meaning, and the hint that keeps it in the description.
    pub(crate) fn lost(
        &mut self,
        pointer: &str,
        rule: RuleId,
        message: impl Into<String>,
        hint: Option<String>,
    ) {
        let message = self.kept(message);
        self.report.changes.push(Change {
            pointer: pointer.to_owned(),
            rule,
            message,
            lossy: true,
        });
        if let (Some(h), true) = (hint, self.rules.hints)
            && let Some(top) = self.path.last_mut().map(|l| &mut l.hints)
            && !top.contains(&h)
        {
            top.push(h);
        }
    }

    /// Marks the result as not sendable in strict mode.
    pub(crate) fn not_strict(&mut self, pointer: &str, why: impl Into<String>) {
        self.report.strict_compatible = false;
        let message = self.kept(why);
        self.report.changes.push(Change {
            pointer: pointer.to_owned(),
            rule: RuleId::StrictIncompatible,
            message,
            lossy: true,
        });
    }

    /// The profile's any-value schema.
    pub(crate) fn any_value(&self) -> Option<&Schema> {
        self.any_value.as_deref()
    }

    pub(crate) fn into_report(self) -> Report {
        self.report
    }

    fn take_hints(&mut self) -> Vec<String> {
        self.path
            .last_mut()
            .map(|l| std::mem::take(&mut l.hints))
            .unwrap_or_default()
    }
}

/// How many any-value schemas each thread keeps parsed (one per profile in use; a custom
/// profile with its own text adds one).
const ANY_VALUE_CACHE: usize = 16;

/// Each any-value text with its schema (`None`: the text is not a schema).
type AnyValueCache = Vec<(Box<str>, Option<Rc<Schema>>)>;

/// A profile's any-value schema, parsed from its text once per thread: parsing it for every
/// schema sanitized was about a quarter of the engine's instructions on the corpus (gemini).
/// The same text always gives the same schema, so the cache cannot change a result.
fn any_value_of(text: &str) -> Option<Rc<Schema>> {
    thread_local! {
        static PARSED: RefCell<AnyValueCache> = const { RefCell::new(Vec::new()) };
    }
    let parse = || Schema::from_str(text).ok().map(Rc::new);
    PARSED
        .try_with(|cell| {
            let Ok(mut cache) = cell.try_borrow_mut() else {
                return parse();
            };
            if let Some((_, s)) = cache.iter().find(|(t, _)| **t == *text) {
                return s.clone();
            }
            let s = parse();
            if cache.len() >= ANY_VALUE_CACHE {
                cache.remove(0);
            }
            cache.push((text.into(), s.clone()));
            s
        })
        .unwrap_or_else(|_| parse())
}

/// Folds the node's pending hints into its `description`.
pub(crate) fn fold_hints(node: &mut Schema, _pointer: &super::passes::At<'_>, cx: &mut Cx<'_>) {
    let hints = cx.take_hints();
    if hints.is_empty() || !cx.rules.keywords.contains(Keyword::Description) {
        return;
    }
    let o = node.make_object();
    let text = hints::join(o.description(), &hints);
    o.insert(Keyword::Description, Value::String(text));
}
