//! Each note that a result is not strict-compatible ([`crate::engine::Cx::not_strict`]) with
//! the proof's answer for it ([`NOTES`]): where the engine makes it on a schema it leaves as it
//! is (asked of each object node the walk passes, or of the whole tree), or why it never does
//! on a schema the proof holds for (it is made beside a change, or on a tree the proof gives
//! up on). A note changes nothing, so a schema no step changes keeps its report empty with
//! or without notes; but a note makes the result not strict-compatible, so the proof answers
//! [`crate::Report::strict_compatible`] from this table. A test holds that every call of
//! `not_strict` in the crate's source is here.

use crate::Rules;
use crate::engine::objects::is_object;
use crate::engine::strict;
use schema_core::{Schema, SchemaObject};

/// Where a note is made on a schema no step changes, as the proof answers it.
#[derive(Clone, Copy)]
pub(super) enum Made {
    /// On an object node of the walk where this test says so.
    Node(fn(&SchemaObject, &Rules) -> bool),
    /// On the whole tree where this test says so.
    Tree(fn(&Schema, &Rules) -> bool),
    /// Never: why (beside a change, or on a tree the proof gives up on).
    Never(#[cfg_attr(not(test), allow(dead_code))] &'static str),
}

/// One call of `not_strict`: the file it is in (under `src/engine/`), the start of what it
/// says, and where it is made.
pub(super) struct Note {
    #[cfg_attr(not(test), allow(dead_code))]
    pub(super) file: &'static str,
    #[cfg_attr(not(test), allow(dead_code))]
    pub(super) says: &'static str,
    pub(super) made: Made,
}

/// Every note the engine makes, in the order of the files.
pub(super) static NOTES: &[Note] = &[
    Note {
        file: "arrays/items_missing.rs",
        says: "an array of any values cannot be strict",
        made: Made::Never("beside the change that gives the array its items"),
    },
    Note {
        file: "objects/additional_properties.rs",
        says: "properties matched by patternProperties cannot be strict",
        made: Made::Never(
            "on a node with a `patternProperties` the profile refuses, which the keyword \
             filter removes",
        ),
    },
    Note {
        file: "objects/additional_properties.rs",
        says: "an object without properties is a free-form map",
        made: Made::Never("beside the loss of closing the object"),
    },
    Note {
        file: "objects/additional_properties.rs",
        says: "an object open to any property cannot be strict",
        made: Made::Never("beside the loss of closing the map"),
    },
    Note {
        file: "refs/inline.rs",
        says: "a recursive schema was unrolled",
        made: Made::Never("beside the loss of unrolling it"),
    },
    Note {
        file: "refs/inline.rs",
        says: "a $ref that does not resolve inside the document",
        made: Made::Never(
            "only where references are inlined, on a tree that holds one: the refs pass's \
             answer gives up on every such tree",
        ),
    },
    Note {
        file: "root.rs",
        says: "a strict schema's root must be an object; this one accepts any value",
        made: Made::Never("beside the change of the boolean root"),
    },
    Note {
        file: "root.rs",
        says: "a strict schema's root must be an object; this one accepts other values",
        made: Made::Never("beside the change that types the root"),
    },
    Note {
        file: "root.rs",
        says: "a strict schema's root union has branches that are not objects",
        made: Made::Never("beside the loss of merging the union"),
    },
    Note {
        file: "strict.rs",
        says: "a schema without a type cannot be strict",
        made: Made::Node(untyped_leaf),
    },
    Note {
        file: "strict.rs",
        says: "a property accepting any value cannot be strict",
        made: Made::Never(
            "only where the strict rewrite rewrites the object's properties, which its answer \
             (`strict_closed`) says it does not",
        ),
    },
    Note {
        file: "strict.rs",
        says: "over the limit",
        made: Made::Tree(over_limits),
    },
];

/// `strict::close_object`: in strict mode, a node that is not an object and says nothing of
/// its type.
fn untyped_leaf(o: &SchemaObject, rules: &Rules) -> bool {
    rules.strict && !is_object(o) && strict::untyped_leaf(o)
}

/// `strict::limits`: a tree over one of the strict profile's size limits.
fn over_limits(s: &Schema, rules: &Rules) -> bool {
    !strict::within_limits(s, rules)
}
