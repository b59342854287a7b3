//! Array keywords: `items`, `prefixItems` and draft-07 tuples, counts, `uniqueItems`,
//! `contains`.

use super::*;

impl<'s> Validator<'s> {
    pub(super) fn array(
        &mut self,
        map: &'s Map<String, Value>,
        items: &[Value],
        pointer: &str,
        depth: usize,
        out: &mut Findings,
    ) {
        let (tuple, rest) = match (map.get("prefixItems"), map.get("items")) {
            (Some(Value::Array(prefix)), items) => (Some(prefix), items),
            (_, Some(Value::Array(prefix))) => (Some(prefix), map.get("additionalItems")),
            (_, items) => (None, items),
        };
        let tuple_len = tuple.map_or(0, Vec::len);
        for (i, item) in items.iter().enumerate() {
            let sub = match tuple.and_then(|t| t.get(i)) {
                Some(s) => Some(s),
                None if i >= tuple_len => rest,
                None => None,
            };
            if let Some(sub) = sub {
                self.check(sub, item, &format!("{pointer}/{i}"), depth + 1, out);
            }
        }
        let sent = || Some(Value::Array(items.to_vec()));
        let len = items.len() as u64;
        if let Some(min) = count_limit(map, "minItems").filter(|m| len < *m) {
            out.problems.push(Problem {
                pointer: pointer.to_owned(),
                sent: sent(),
                kind: ProblemKind::TooFewItems { min },
            });
        }
        if let Some(max) = count_limit(map, "maxItems").filter(|m| len > *m) {
            out.problems.push(Problem {
                pointer: pointer.to_owned(),
                sent: sent(),
                kind: ProblemKind::TooManyItems { max },
            });
        }
        if map.get("uniqueItems") == Some(&Value::Bool(true)) {
            'outer: for (i, a) in items.iter().enumerate() {
                for (j, b) in items.iter().enumerate().skip(i + 1) {
                    if crate::json_type::json_eq(a, b) {
                        out.problems.push(Problem {
                            pointer: pointer.to_owned(),
                            sent: None,
                            kind: ProblemKind::DuplicateItems {
                                first: i,
                                second: j,
                            },
                        });
                        break 'outer;
                    }
                }
            }
        }
        if let Some(contains) = map.get("contains") {
            let matched = items
                .iter()
                .filter(|item| {
                    let mut inner = Findings::default();
                    self.check(contains, item, "", depth + 1, &mut inner);
                    inner.problems.is_empty()
                })
                .count();
            let min = count_limit(map, "minContains").unwrap_or(1);
            let max = count_limit(map, "maxContains");
            if (matched as u64) < min || max.is_some_and(|m| matched as u64 > m) {
                out.problems.push(Problem {
                    pointer: pointer.to_owned(),
                    sent: None,
                    kind: ProblemKind::ContainsCount { matched, min, max },
                });
            }
        }
    }
}
