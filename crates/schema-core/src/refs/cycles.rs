//! Which `$ref`s take part in a cycle (recursion).

use super::RefIndex;
use crate::schema::Schema;
use crate::walk::Visit;

impl Schema {
    /// The pointers of the `$ref`s that take part in a cycle (a reference whose expansion
    /// leads back to itself: recursion), in document order. References that do not resolve
    /// are not followed.
    ///
    /// ```
    /// use schema_core::Schema;
    /// let s = Schema::from_str(r##"{"$defs": {"Node": {"properties": {"next": {"$ref": "#/$defs/Node"}}},
    ///     "Leaf": {"type": "string"}},
    ///     "properties": {"head": {"$ref": "#/$defs/Node"}, "leaf": {"$ref": "#/$defs/Leaf"}}}"##)?;
    /// assert_eq!(s.circular_refs(), ["/$defs/Node/properties/next"]);
    /// # Ok::<(), schema_core::SchemaError>(())
    /// ```
    pub fn circular_refs(&self) -> Vec<String> {
        let index = RefIndex::new(self);
        // Every `$ref`: where it stands and the pointer of its target.
        struct Refs<'a> {
            index: &'a RefIndex,
            bases: Vec<String>,
            out: Vec<(String, Option<String>)>,
        }
        impl Visit for Refs<'_> {
            fn enter(&mut self, p: &str, s: &Schema) -> bool {
                let Some(o) = s.as_object() else { return true };
                let outer = self.bases.last().map_or("", String::as_str);
                let base = self.index.base_of(outer, o);
                if let Some(r) = o.reference() {
                    self.out
                        .push((p.to_owned(), self.index.locate_in(&base, r).ok()));
                }
                self.bases.push(base);
                true
            }
            fn leave(&mut self, _: &str, s: &Schema) {
                if s.as_object().is_some() {
                    self.bases.pop();
                }
            }
        }
        let mut refs = Refs {
            index: &index,
            bases: Vec::new(),
            out: Vec::new(),
        };
        self.walk(&mut refs);
        let refs = refs.out;
        // Edge i → j: expanding i's target meets reference j (j stands at the target or
        // below it: a contiguous range of the pointers in sorted order).
        let mut sorted: Vec<(&str, usize)> = refs
            .iter()
            .enumerate()
            .map(|(j, (p, _))| (p.as_str(), j))
            .collect();
        sorted.sort_unstable();
        let edges: Vec<Vec<usize>> = refs
            .iter()
            .map(|(_, target)| {
                let Some(t) = target else { return Vec::new() };
                let below = format!("{t}/");
                let at = sorted.partition_point(|(p, _)| *p < t.as_str());
                let inside = sorted.partition_point(|(p, _)| *p < below.as_str());
                let exact = sorted[at..].iter().take_while(|(p, _)| *p == t);
                let deeper = sorted[inside..]
                    .iter()
                    .take_while(|(p, _)| p.starts_with(&below));
                exact.chain(deeper).map(|&(_, j)| j).collect()
            })
            .collect();
        let on_cycle = cyclic_nodes(&edges);
        refs.into_iter()
            .zip(on_cycle)
            .filter_map(|((p, _), c)| c.then_some(p))
            .collect()
    }
}

/// Which nodes of a directed graph lie on a cycle (Tarjan's strongly connected components,
/// iterative: no recursion on input).
fn cyclic_nodes(edges: &[Vec<usize>]) -> Vec<bool> {
    let n = edges.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut out = vec![false; n];
    let mut next = 0;
    for start in 0..n {
        if index[start] != usize::MAX {
            continue;
        }
        // (node, next edge to look at)
        let mut work = vec![(start, 0)];
        index[start] = next;
        low[start] = next;
        next += 1;
        stack.push(start);
        on_stack[start] = true;
        while let Some(&mut (v, ref mut e)) = work.last_mut() {
            if let Some(&w) = edges[v].get(*e) {
                *e += 1;
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(u, _)) = work.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                let mut members = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    members.push(w);
                    if w == v {
                        break;
                    }
                }
                let cyclic = members.len() > 1 || edges[v].contains(&v);
                for w in members {
                    out[w] = cyclic;
                }
            }
        }
    }
    out
}
