//! `allOf`, `anyOf`/`oneOf` (the problems of the branch the call meant), `not`,
//! `if`/`then`/`else`.

use super::*;

impl<'s> Validator<'s> {
    pub(super) fn combinators(
        &mut self,
        map: &'s Map<String, Value>,
        inst: &Value,
        pointer: &str,
        depth: usize,
        out: &mut Findings,
    ) {
        for sub in map
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            self.check(sub, inst, pointer, depth + 1, out);
        }
        if let Some(branches) = map.get("anyOf").and_then(Value::as_array) {
            self.alternatives(branches, false, inst, pointer, depth, out);
        }
        if let Some(branches) = map.get("oneOf").and_then(Value::as_array) {
            self.alternatives(branches, true, inst, pointer, depth, out);
        }
        if let Some(not) = map.get("not") {
            let mut inner = Findings::default();
            self.check(not, inst, pointer, depth + 1, &mut inner);
            if inner.problems.is_empty() {
                out.problems.push(Problem {
                    pointer: pointer.to_owned(),
                    sent: Some(inst.clone()),
                    kind: ProblemKind::Forbidden {
                        schema: crate::json_type::render_value(not, 120),
                    },
                });
            }
        }
        if let Some(condition) = map.get("if") {
            let mut inner = Findings::default();
            self.check(condition, inst, pointer, depth + 1, &mut inner);
            let branch = if inner.problems.is_empty() {
                map.get("then")
            } else {
                map.get("else")
            };
            if let Some(branch) = branch {
                self.check(branch, inst, pointer, depth + 1, out);
            }
        }
    }

    /// `anyOf` (`exactly_one` false) or `oneOf`: on failure, the problems of the branch the
    /// call most probably meant, or a type message naming every accepted type.
    pub(super) fn alternatives(
        &mut self,
        branches: &'s [Value],
        exactly_one: bool,
        inst: &Value,
        pointer: &str,
        depth: usize,
        out: &mut Findings,
    ) {
        let mut results: Vec<Findings> = Vec::with_capacity(branches.len());
        for b in branches {
            let mut inner = Findings::default();
            self.check(b, inst, pointer, depth + 1, &mut inner);
            results.push(inner);
            if !exactly_one && results.last().is_some_and(|r| r.problems.is_empty()) {
                break;
            }
        }
        let matched: Vec<usize> = results
            .iter()
            .enumerate()
            .filter(|(_, r)| r.problems.is_empty())
            .map(|(i, _)| i)
            .collect();
        match matched.as_slice() {
            [first, ..] if !exactly_one || matched.len() == 1 => {
                if let Some(r) = results.get_mut(*first) {
                    out.coercions.append(&mut r.coercions);
                }
                return;
            }
            [] => {}
            _ => {
                out.problems.push(Problem {
                    pointer: pointer.to_owned(),
                    sent: Some(inst.clone()),
                    kind: ProblemKind::SeveralAlternatives { matched },
                });
                return;
            }
        }
        let compatible: Vec<usize> = branches
            .iter()
            .enumerate()
            .filter(|(_, b)| {
                self.expected_types(b, depth + 1)
                    .is_none_or(|ts| accepts_any(&ts, inst))
            })
            .map(|(i, _)| i)
            .collect();
        if compatible.is_empty() {
            let mut expected: Vec<JsonType> = Vec::new();
            for b in branches {
                for t in self.expected_types(b, depth + 1).unwrap_or_default() {
                    if !expected.contains(&t) {
                        expected.push(t);
                    }
                }
            }
            out.problems.push(Problem {
                pointer: pointer.to_owned(),
                sent: Some(inst.clone()),
                kind: ProblemKind::WrongType {
                    expected,
                    found: JsonType::of(inst),
                    json_text: false,
                },
            });
            return;
        }
        let score = |f: &Findings| {
            let mismatched_tags = f
                .problems
                .iter()
                .filter(|p| {
                    p.pointer != pointer
                        && matches!(
                            p.kind,
                            ProblemKind::NotConst { .. } | ProblemKind::NotInEnum { .. }
                        )
                })
                .count();
            mismatched_tags * 100 + f.problems.len()
        };
        let best = compatible
            .iter()
            .filter_map(|i| results.get(*i))
            .min_by_key(|f| score(f));
        match best {
            Some(best) if !best.problems.is_empty() => {
                out.problems.extend(best.problems.iter().cloned())
            }
            _ => out.problems.push(Problem {
                pointer: pointer.to_owned(),
                sent: Some(inst.clone()),
                kind: ProblemKind::NoAlternative {
                    count: branches.len(),
                },
            }),
        }
    }
}
