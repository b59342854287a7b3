//! The slot-path trie: the table's slot paths (with where their names and `strict` flags
//! sit) compiled once per process into one tree per API and one for every API.

use std::sync::OnceLock;

use crate::shapes::{Api, SlotRole, SlotSpec};

/// The slot-path trie of one API (or of all).
#[derive(Debug)]
pub(super) enum Node {
    Object(Object),
    Array(Box<Node>),
    Leaf(Leaf),
}

#[derive(Debug, Default)]
pub(super) struct Object {
    pub(super) children: Vec<(&'static str, Node)>,
    /// This object holds the `name` of slots below it.
    pub(super) names: bool,
    /// This object holds the `strict` flag of slots below it.
    pub(super) strict: bool,
    /// This object declares a tool (it names a parameters slot).
    pub(super) declares_tool: bool,
}

#[derive(Debug)]
pub(super) struct Leaf {
    pub(super) api: Api,
    pub(super) spec: &'static SlotSpec,
    /// Path depth of the object holding the slot's `name` / `strict`.
    pub(super) name_depth: Option<usize>,
    pub(super) strict_depth: Option<usize>,
}

impl Node {
    fn empty() -> Node {
        Node::Object(Object::default())
    }

    /// The node at `segs`, created as needed; `None` where the table contradicts itself (a
    /// path through a slot).
    fn at(&mut self, segs: &[Seg]) -> Option<&mut Node> {
        let Some((first, rest)) = segs.split_first() else {
            return Some(self);
        };
        match first {
            Seg::Each => {
                if matches!(self, Node::Object(o) if o.children.is_empty()) {
                    *self = Node::Array(Box::new(Node::empty()));
                }
                match self {
                    Node::Array(child) => child.at(rest),
                    _ => None,
                }
            }
            Seg::Key(k) => {
                let Node::Object(o) = self else { return None };
                let i = match o.children.iter().position(|(name, _)| name == k) {
                    Some(i) => i,
                    None => {
                        o.children.push((k, Node::empty()));
                        o.children.len() - 1
                    }
                };
                o.children[i].1.at(rest)
            }
        }
    }

    fn insert(&mut self, api: Api, spec: &'static SlotSpec) {
        let parent = |path: Option<&'static str>| path.map(|p| parent_segs(&parse_path(p)));
        let (name_at, strict_at) = (parent(spec.name), parent(spec.strict));
        if let Some(segs) = &name_at
            && let Some(Node::Object(o)) = self.at(segs)
        {
            o.names = true;
            o.declares_tool |= spec.role == SlotRole::ToolParameters;
        }
        if let Some(segs) = &strict_at
            && let Some(Node::Object(o)) = self.at(segs)
        {
            o.strict = true;
        }
        let Some(node) = self.at(&parse_path(spec.path)) else {
            return;
        };
        // The first entry wins: a leaf never replaces a path another shape descends
        // (Cohere's `response_format.json_schema` vs OpenAI's `...json_schema.schema`).
        if matches!(node, Node::Object(o) if o.children.is_empty()) {
            *node = Node::Leaf(Leaf {
                api,
                spec,
                name_depth: name_at.map(|s| s.len()),
                strict_depth: strict_at.map(|s| s.len()),
            });
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub(super) enum Seg {
    Key(&'static str),
    Each,
}

fn parse_path(path: &'static str) -> Vec<Seg> {
    let mut segs = Vec::new();
    for part in path.split('.') {
        match part.strip_suffix("[]") {
            Some(key) => {
                segs.push(Seg::Key(key));
                segs.push(Seg::Each);
            }
            None => segs.push(Seg::Key(part)),
        }
    }
    segs
}

/// The segments of the object holding the last key of `segs`.
fn parent_segs(segs: &[Seg]) -> Vec<Seg> {
    segs[..segs.len().saturating_sub(1)].to_vec()
}

fn compile(apis: impl IntoIterator<Item = Api>) -> Node {
    let mut root = Node::empty();
    for api in apis {
        for spec in api.shape().slots {
            root.insert(api, spec);
        }
    }
    root
}

pub(super) struct Compiled {
    /// By `Api as usize` (the order of [`Api::ALL`]).
    pub(super) per_api: Vec<Node>,
    pub(super) union: Node,
}

pub(super) fn compiled() -> &'static Compiled {
    static COMPILED: OnceLock<Compiled> = OnceLock::new();
    COMPILED.get_or_init(|| {
        let copy = |a: &Api| a.shape().copy_of.is_some();
        let c = Compiled {
            per_api: Api::ALL.into_iter().map(|a| compile([a])).collect(),
            // A body recognised by its shape alone is named after the API whose shape it has,
            // not after a vendor's copy of it: the originals go in first.
            union: compile(
                Api::ALL
                    .into_iter()
                    .filter(|a| !copy(a))
                    .chain(Api::ALL.into_iter().filter(copy)),
            ),
        };
        debug_assert!(max_children(&c.union) + 3 <= 64);
        c
    })
}

fn max_children(node: &Node) -> usize {
    match node {
        Node::Object(o) => o
            .children
            .iter()
            .map(|(_, c)| max_children(c))
            .fold(o.children.len(), usize::max),
        Node::Array(child) => max_children(child),
        Node::Leaf(..) => 0,
    }
}
