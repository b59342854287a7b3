//! What keeps deep trees safe: `Drop` without recursion, `Clone` and `PartialEq` that recurse a
//! bounded number of levels and then go on with an explicit stack, and a `Debug` that stops.
//! Parsed trees are bounded by the parser; these make trees built by hand safe too.

use crate::schema::{Dependency, Entry, Schema, SchemaObject, Value};

std::thread_local! {
    /// How many `SchemaObject::drop` calls are under way on this thread (see `Drop` below).
    static DROP_DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

impl Drop for SchemaObject {
    /// Drops deep trees without unbounded recursion: the first
    /// [`SchemaObject::RECURSION_LIMIT`] levels drop their children in place (as any tree
    /// does, no allocation), deeper subtrees move their children onto a heap stack first.
    fn drop(&mut self) {
        if !self.entries.iter().any(|e| e.key_has_children()) {
            return;
        }
        let depth = DROP_DEPTH.get();
        if depth < SchemaObject::RECURSION_LIMIT {
            DROP_DEPTH.set(depth + 1);
            // Each child object's own `drop` runs inside, one level deeper.
            drop(std::mem::take(&mut self.entries));
            DROP_DEPTH.set(depth);
            return;
        }
        let mut stack: Vec<Schema> = Vec::new();
        take_children(&mut self.entries, &mut stack);
        while let Some(schema) = stack.pop() {
            if let Schema::Object(mut o) = schema {
                take_children(&mut o.entries, &mut stack);
            }
        }
    }
}

impl Entry {
    fn key_has_children(&self) -> bool {
        matches!(
            self.value,
            Value::Schema(_) | Value::Schemas(_) | Value::SchemaMap(_) | Value::Dependencies(_)
        )
    }
}

fn take_children(entries: &mut Vec<Entry>, stack: &mut Vec<Schema>) {
    for e in entries.drain(..) {
        match e.value {
            Value::Schema(s) => stack.push(*s),
            Value::Schemas(v) => stack.extend(v),
            Value::SchemaMap(m) => stack.extend(m.into_values()),
            Value::Dependencies(m) => stack.extend(m.into_values().filter_map(|d| match d {
                Dependency::Schema(s) => Some(s),
                Dependency::Required(_) => None,
            })),
            _ => {}
        }
    }
}

impl SchemaObject {
    /// How many levels `Clone` and `PartialEq` recurse before they go on with an explicit
    /// stack (and `Debug` stops).
    pub const RECURSION_LIMIT: usize = 64;
}

impl Clone for SchemaObject {
    fn clone(&self) -> SchemaObject {
        clone_object(self, 0)
    }
}

fn clone_object(o: &SchemaObject, depth: usize) -> SchemaObject {
    if depth >= SchemaObject::RECURSION_LIMIT {
        return clone_iterative(o);
    }
    let clone_schema = |s: &Schema| match s {
        Schema::Bool(b) => Schema::Bool(*b),
        Schema::Object(o) => Schema::Object(clone_object(o, depth + 1)),
    };
    let entries = o
        .entries
        .iter()
        .map(|e| Entry {
            key: e.key.clone(),
            value: match &e.value {
                Value::Schema(s) => Value::Schema(Box::new(clone_schema(s))),
                Value::Schemas(list) => Value::Schemas(list.iter().map(clone_schema).collect()),
                Value::SchemaMap(m) => Value::SchemaMap(
                    m.iter()
                        .map(|(k, s)| (k.clone(), clone_schema(s)))
                        .collect(),
                ),
                Value::Dependencies(m) => Value::Dependencies(
                    m.iter()
                        .map(|(k, d)| {
                            let d = match d {
                                Dependency::Schema(s) => Dependency::Schema(clone_schema(s)),
                                Dependency::Required(r) => Dependency::Required(r.clone()),
                            };
                            (k.clone(), d)
                        })
                        .collect(),
                ),
                leaf => leaf.clone(),
            },
        })
        .collect();
    SchemaObject {
        entries,
        maybe: o.maybe,
    }
}

/// A copy of `o` whose subschemas are all `true`: the slots the iterative clone fills.
fn shell(o: &SchemaObject) -> SchemaObject {
    let hole = || Schema::Bool(true);
    let entries = o
        .entries
        .iter()
        .map(|e| Entry {
            key: e.key.clone(),
            value: match &e.value {
                Value::Schema(_) => Value::Schema(Box::new(hole())),
                Value::Schemas(list) => Value::Schemas(list.iter().map(|_| hole()).collect()),
                Value::SchemaMap(m) => {
                    Value::SchemaMap(m.keys().map(|k| (k.clone(), hole())).collect())
                }
                Value::Dependencies(m) => Value::Dependencies(
                    m.iter()
                        .map(|(k, d)| {
                            let d = match d {
                                Dependency::Schema(_) => Dependency::Schema(hole()),
                                Dependency::Required(r) => Dependency::Required(r.clone()),
                            };
                            (k.clone(), d)
                        })
                        .collect(),
                ),
                leaf => leaf.clone(),
            },
        })
        .collect();
    SchemaObject {
        entries,
        maybe: o.maybe,
    }
}

/// Clones without recursion: shells in pre-order, then filled bottom-up.
fn clone_iterative(root: &SchemaObject) -> SchemaObject {
    // Pre-order: each object's shell and how many subschema slots it has.
    let mut order: Vec<(SchemaObject, usize)> = Vec::new();
    let mut todo: Vec<&SchemaObject> = vec![root];
    let mut children: Vec<&Schema> = Vec::new();
    // Bool subschemas are kept in place (`true` in the shell is replaced below).
    let mut bools: Vec<Option<bool>> = Vec::new();
    let mut bool_slots: Vec<Vec<Option<bool>>> = Vec::new();
    while let Some(o) = todo.pop() {
        children.clear();
        o.for_each_child(|_, c| children.push(c));
        bools.clear();
        bools.extend(children.iter().map(|c| match c {
            Schema::Bool(b) => Some(*b),
            Schema::Object(_) => None,
        }));
        order.push((shell(o), children.len()));
        bool_slots.push(bools.clone());
        // Reverse, so that the first child is taken next (pre-order).
        for c in children.iter().rev() {
            if let Schema::Object(child) = c {
                todo.push(child);
            }
        }
    }
    // Reverse pre-order: a node's object children are on top of `done`, first child first.
    let mut done: Vec<SchemaObject> = Vec::new();
    while let (Some((mut o, _)), Some(slots)) = (order.pop(), bool_slots.pop()) {
        let mut i = 0;
        o.for_each_child_mut(|_, slot| {
            *slot = match slots.get(i).copied().flatten() {
                Some(b) => Schema::Bool(b),
                None => Schema::Object(done.pop().unwrap_or_default()),
            };
            i += 1;
        });
        done.push(o);
    }
    done.pop().unwrap_or_default()
}

impl PartialEq for SchemaObject {
    /// Entries compare in order; maps of subschemas compare as maps (like `IndexMap`).
    fn eq(&self, other: &SchemaObject) -> bool {
        eq_object(self, other, 0)
    }
}

fn eq_object(a: &SchemaObject, b: &SchemaObject, depth: usize) -> bool {
    if depth >= SchemaObject::RECURSION_LIMIT {
        return eq_iterative(a, b);
    }
    let mut pairs = Vec::new();
    if !shallow_eq(a, b, &mut pairs) {
        return false;
    }
    pairs.into_iter().all(|(x, y)| match (x, y) {
        (Schema::Object(x), Schema::Object(y)) => eq_object(x, y, depth + 1),
        (x, y) => x == y,
    })
}

fn eq_iterative(a: &SchemaObject, b: &SchemaObject) -> bool {
    let mut todo = vec![(a, b)];
    let mut pairs = Vec::new();
    while let Some((a, b)) = todo.pop() {
        pairs.clear();
        if !shallow_eq(a, b, &mut pairs) {
            return false;
        }
        for &(x, y) in &pairs {
            match (x, y) {
                (Schema::Object(x), Schema::Object(y)) => todo.push((x, y)),
                (Schema::Bool(x), Schema::Bool(y)) if x == y => {}
                _ => return false,
            }
        }
    }
    true
}

/// Compares keys and leaf values; collects the pairs of subschemas still to compare.
fn shallow_eq<'a>(
    a: &'a SchemaObject,
    b: &'a SchemaObject,
    pairs: &mut Vec<(&'a Schema, &'a Schema)>,
) -> bool {
    if a.entries.len() != b.entries.len() {
        return false;
    }
    for (x, y) in a.entries.iter().zip(&b.entries) {
        if x.key != y.key {
            return false;
        }
        match (&x.value, &y.value) {
            (Value::Schema(s), Value::Schema(t)) => pairs.push((s, t)),
            (Value::Schemas(s), Value::Schemas(t)) => {
                if s.len() != t.len() {
                    return false;
                }
                pairs.extend(s.iter().zip(t));
            }
            (Value::SchemaMap(s), Value::SchemaMap(t)) => {
                if s.len() != t.len() {
                    return false;
                }
                for (k, v) in s {
                    match t.get(k) {
                        Some(w) => pairs.push((v, w)),
                        None => return false,
                    }
                }
            }
            (Value::Dependencies(s), Value::Dependencies(t)) => {
                if s.len() != t.len() {
                    return false;
                }
                for (k, v) in s {
                    match (v, t.get(k)) {
                        (Dependency::Schema(v), Some(Dependency::Schema(w))) => pairs.push((v, w)),
                        (Dependency::Required(v), Some(Dependency::Required(w))) if v == w => {}
                        _ => return false,
                    }
                }
            }
            (
                Value::Schema(_) | Value::Schemas(_) | Value::SchemaMap(_) | Value::Dependencies(_),
                _,
            )
            | (
                _,
                Value::Schema(_) | Value::Schemas(_) | Value::SchemaMap(_) | Value::Dependencies(_),
            ) => return false,
            (v, w) => {
                if v != w {
                    return false;
                }
            }
        }
    }
    true
}

thread_local! {
    static DEBUG_DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

impl std::fmt::Debug for SchemaObject {
    /// Prints `SchemaObject { entries: [..] }`; past [`SchemaObject::RECURSION_LIMIT`] nested
    /// levels, `SchemaObject { .. }`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let depth = DEBUG_DEPTH.with(|d| d.get());
        if depth >= SchemaObject::RECURSION_LIMIT {
            return f.write_str("SchemaObject { .. }");
        }
        DEBUG_DEPTH.with(|d| d.set(depth + 1));
        let r = f
            .debug_struct("SchemaObject")
            .field("entries", &self.entries)
            .finish();
        DEBUG_DEPTH.with(|d| d.set(depth));
        r
    }
}
