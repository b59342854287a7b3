//! The fast pass over a body: a validating byte scanner driven by the slot-path trie, that
//! reads every byte once (strings eight bytes at a time), captures slots, names and flags as
//! slices of the body (no second scan of a slot's bytes, no allocation but a slot's pointer),
//! and skips everything else.
//!
//! It only answers what it is sure of: an invalid body, a duplicate or escaped key on a slot
//! path, an escaped surrogate or nesting past [`MAX_DEPTH`] give `None`, and the caller runs
//! serde_json's scan ([`super::scan`]) instead, whose answer (and error message) stands. For
//! every body it accepts, it finds what that scan finds.

use super::scan::{PathSeg, name_and_flag};
use super::trie::{Node, Object};
use super::{Container, Found, Hook, Located, RawText};
use crate::lex::{Lexer, MAX_DEPTH};
use crate::shapes::Encoding;

/// The slots of the trie `root` in `body`, or `None` when the body is not one this pass is
/// sure of (see the module docs).
///
/// The body's UTF-8 is checked in pieces as the scan goes, each byte once: up to a slice it
/// hands out (the slice itself as it becomes text), and the rest at the end. A container the
/// hook knows is not checked again: its bytes are a kept list's, which were checked when kept.
pub(super) fn locate<'a>(
    body: &'a [u8],
    root: &Node,
    tool_names: bool,
    hook: Option<Hook<'_>>,
) -> Option<Located<'a>> {
    let mut s = Fast {
        lx: Lexer::new(body),
        checked: 0,
        path: Vec::with_capacity(8),
        out: Located::default(),
        tool_names,
        hook,
    };
    s.lx.ws();
    s.node(root, true, 0)?;
    s.lx.ws();
    if s.lx.i != s.lx.b.len() {
        return None;
    }
    std::str::from_utf8(s.lx.b.get(s.checked..)?).ok()?;
    Some(s.out)
}

struct Fast<'a, 'h> {
    lx: Lexer<'a>,
    /// The bytes before this one are checked UTF-8.
    checked: usize,
    path: Vec<PathSeg>,
    out: Located<'a>,
    tool_names: bool,
    /// Asked at each container (see [`Hook`]); its containers are recorded then.
    hook: Option<Hook<'h>>,
}

/// Whether the slots under the array `node` at path depth `depth` keep their names and flags
/// inside its elements (a container whose result does not depend on what is around it).
fn self_contained(node: &Node, depth: usize) -> bool {
    match node {
        Node::Leaf(l) => [l.name_depth, l.strict_depth]
            .iter()
            .all(|d| d.is_none_or(|d| d > depth)),
        Node::Array(child) => self_contained(child, depth),
        Node::Object(o) => o.children.iter().all(|(_, c)| self_contained(c, depth)),
    }
}

impl<'a> Fast<'a, '_> {
    /// The body's bytes `start..end` as text: the unchecked bytes before them are checked
    /// first, then the slice (each byte is checked once, in body order).
    fn text(&mut self, start: usize, end: usize) -> Option<&'a str> {
        if self.checked < start {
            std::str::from_utf8(self.lx.b.get(self.checked..start)?).ok()?;
        }
        let text = std::str::from_utf8(self.lx.b.get(start..end)?).ok()?;
        self.checked = self.checked.max(end);
        Some(text)
    }

    /// A value at `node` (whitespace before it already skipped).
    fn node(&mut self, node: &Node, root: bool, depth: usize) -> Option<()> {
        if depth >= MAX_DEPTH {
            return None;
        }
        match (node, self.lx.peek()?) {
            (Node::Leaf(leaf), c) => {
                let start = self.lx.i;
                self.lx.skip(depth)?;
                if leaf.spec.encoding == Encoding::JsonObject && c != b'{' {
                    // Not a schema here (Ollama's `"format": "json"`).
                    return Some(());
                }
                let raw = RawText(self.text(start, self.lx.i)?);
                let pointer = super::scan::pointer_of(&self.path, None);
                self.out.slots.push(Found {
                    api: leaf.api,
                    spec: leaf.spec,
                    raw,
                    pointer,
                    name: None,
                    strict: None,
                    depths: (leaf.name_depth, leaf.strict_depth),
                });
                Some(())
            }
            (Node::Object(obj), b'{') => self.object(obj, root, depth),
            (Node::Array(_), b'[')
                if self.hook.is_some()
                    && self.path.iter().all(|s| matches!(s, PathSeg::Key(_)))
                    && self_contained(node, self.path.len()) =>
            {
                self.container(node, depth)
            }
            (Node::Array(child), b'[') => self.array(child, depth),
            // Not the shape the table expects here: skipped.
            _ => self.lx.skip(depth),
        }
    }

    /// A container at the cursor: jumped over when the hook knows its bytes, else read and
    /// recorded.
    fn container(&mut self, node: &Node, depth: usize) -> Option<()> {
        let Node::Array(child) = node else {
            return None;
        };
        let id = std::ptr::from_ref(node) as usize;
        let start = self.lx.i;
        let (slots, tools) = (self.out.slots.len(), self.out.tools_without_schema.len());
        if self.out.hit.is_none()
            && let Some(hook) = self.hook.as_mut()
            && let Some(len) = hook(id, &self.lx.b[start..])
            && start + len <= self.lx.b.len()
        {
            // The bytes before the list are checked here; the list's own were when it was kept.
            if self.checked < start {
                std::str::from_utf8(&self.lx.b[self.checked..start]).ok()?;
            }
            self.lx.i = start + len;
            self.checked = self.lx.i;
            self.out.hit = Some(Container {
                node: id,
                span: start..self.lx.i,
                slots: slots..slots,
                tools: tools..tools,
            });
            return Some(());
        }
        self.array(child, depth)?;
        self.out.containers.push(Container {
            node: id,
            span: start..self.lx.i,
            slots: slots..self.out.slots.len(),
            tools: tools..self.out.tools_without_schema.len(),
        });
        Some(())
    }

    /// An array at the cursor whose elements are at `child`.
    fn array(&mut self, child: &Node, depth: usize) -> Option<()> {
        self.lx.i += 1;
        self.lx.ws();
        if self.lx.eat(b']').is_some() {
            return Some(());
        }
        let mut n = 0;
        loop {
            self.path.push(PathSeg::Index(n));
            self.node(child, false, depth + 1)?;
            self.path.pop();
            n += 1;
            self.lx.ws();
            match self.lx.peek()? {
                b',' => {
                    self.lx.i += 1;
                    self.lx.ws();
                }
                b']' => {
                    self.lx.i += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    fn object(&mut self, obj: &Object, root: bool, depth: usize) -> Option<()> {
        self.lx.i += 1;
        let children = &obj.children;
        let first = self.out.slots.len();
        let mut seen: u64 = 0;
        let (name_i, strict_i, model_i) = (children.len(), children.len() + 1, children.len() + 2);
        let (mut name, mut strict) = (None, None);
        self.lx.ws();
        if self.lx.eat(b'}').is_none() {
            loop {
                let (key, escaped) = self.string()?;
                self.lx.ws();
                self.lx.eat(b':')?;
                self.lx.ws();
                let i = match children.iter().position(|(k, _)| k.as_bytes() == key) {
                    Some(i) => Some(i),
                    None if obj.names && key == b"name" => Some(name_i),
                    None if obj.strict && key == b"strict" => Some(strict_i),
                    None if root && key == b"model" => Some(model_i),
                    None => None,
                };
                match i {
                    // An escaped key may spell a wanted one: serde_json's scan decides.
                    _ if escaped => return None,
                    None => self.lx.skip(depth + 1)?,
                    Some(i) => {
                        let bit = 1u64 << (i % 64);
                        if seen & bit != 0 {
                            return None;
                        }
                        seen |= bit;
                        if i < children.len() {
                            let (k, child) = &children[i];
                            self.path.push(PathSeg::Key(k));
                            self.node(child, false, depth + 1)?;
                            self.path.pop();
                        } else {
                            let start = self.lx.i;
                            self.lx.skip(depth + 1)?;
                            let raw = RawText(self.text(start, self.lx.i)?);
                            if i == name_i {
                                name = Some(raw);
                            } else if i == strict_i {
                                strict = Some(raw);
                            } else {
                                self.out.model = raw.string();
                            }
                        }
                    }
                }
                self.lx.ws();
                match self.lx.peek()? {
                    b',' => {
                        self.lx.i += 1;
                        self.lx.ws();
                    }
                    b'}' => {
                        self.lx.i += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        name_and_flag(
            &mut self.out,
            first,
            self.path.len(),
            obj,
            (name, strict),
            self.tool_names,
        );
        Some(())
    }

    /// A string at the cursor (`"` included): its content's bytes when it has no escapes
    /// (their UTF-8 is checked with the bytes around them), and whether it had any (then the
    /// content is the raw bytes between the quotes).
    fn string(&mut self) -> Option<(&'a [u8], bool)> {
        self.lx.eat(b'"')?;
        let start = self.lx.i;
        let escaped = self.lx.rest_of_string()?;
        let s = self.lx.b.get(start..self.lx.i - 1)?;
        Some((s, escaped))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{locate_serde, trie::compiled};
    use super::*;
    use crate::lex::first_special;

    /// What either pass finds: pointers, slot texts, names, flags, model.
    fn seen(l: &Located<'_>) -> Vec<String> {
        let mut v: Vec<String> = l
            .slots
            .iter()
            .map(|f| {
                format!(
                    "{} {} {:?} {:?}",
                    f.pointer,
                    f.raw.get(),
                    f.name.map(|n| n.get()),
                    f.strict.map(|s| s.get())
                )
            })
            .collect();
        v.push(format!("{:?}", l.model));
        v.extend(l.tools_without_schema.iter().map(|r| r.get().to_owned()));
        v
    }

    #[test]
    fn agrees_with_the_serde_scan_or_leaves_it_to_it() {
        let root = &compiled().union;
        let bodies = [
            r#"{"model":"gpt-4o","messages":[{"role":"user","content":"x \"q\" \u00e9","parameters":{"a":[1,-2.5e+3,true,false,null,{}]}}],
                "tools":[{"type":"function","function":{"name":"f","strict":true,"parameters":{"type":"object"}}},
                         {"type":"function","function":{"name":"g\n","parameters": {"type":"string"} }},
                         {"type":"function","function":{"name":"h"}}],
                "response_format":{"type":"json_schema","json_schema":{"name":"r","schema":{"type":"object"}}}}"#,
            r#"{"model":"m\u0041","tools":[{"name":"a","input_schema":{}}]}"#,
            r#" { "tools" : [ ] , "x" : [ [ ] , { } , "" , 0 , -0.0e-0 ] } "#,
            r#"{"tool\u0073":[{"input_schema":{}}]}"#,
            r#"{"tools":[],"tools":[]}"#,
            r#"{"a":"\ud83d\ude00","tools":[{"name":"a","input_schema":{}}]}"#,
            r#"{"a":01}"#,
            r#"{"a":1.}"#,
            r#"{"a":-}"#,
            r#"{"a":tru}"#,
            r#"{"a":"\x"}"#,
            "{\"a\":\"\u{1}\"}",
            r#"{"a":[1,]}"#,
            r#"{"a":{"b":1,}}"#,
            r#"{"a":1} x"#,
            r#"{"a":[}"#,
            r#"{"a" 1}"#,
            r#"{"a":1"#,
            "[]",
            "1",
            r#""x""#,
            "",
            "{",
            r#"{"contents":[],"tools":[{"functionDeclarations":[{"name":"get_weather","parameters_json_schema":{"type":"object"}}]}]}"#,
            r#"{"model":"llama","format":"json","messages":[]}"#,
            r#"{"model":"llama","format":{"type":"object"},"messages":[]}"#,
        ];
        for body in bodies {
            let serde = locate_serde(body.as_bytes(), root, true);
            match locate(body.as_bytes(), root, true, None) {
                Some(fast) => {
                    let serde = serde.unwrap_or_else(|e| panic!("{body}: serde says {e}"));
                    assert_eq!(seen(&fast), seen(&serde), "{body}");
                }
                None => assert!(
                    serde.is_err() || body.contains('\\'),
                    "{body}: fast gave up on a plain valid body"
                ),
            }
        }
        let deep = format!(r#"{{"messages":{}{}}}"#, "[".repeat(200), "]".repeat(200));
        assert!(locate(deep.as_bytes(), root, true, None).is_none());
        let fine = format!(r#"{{"messages":{}{}}}"#, "[".repeat(90), "]".repeat(90));
        assert!(locate(fine.as_bytes(), root, true, None).is_some());
    }

    #[test]
    fn the_word_test_finds_the_first_special_byte() {
        let is = |c: u8| c == b'"' || c == b'\\' || c < 0x20;
        for c in 0..=255u8 {
            for at in 0..8 {
                let mut w = *b"abcdefgh";
                w[at] = c;
                let want = is(c).then_some(at);
                assert_eq!(first_special(u64::from_le_bytes(w)), want, "{c} at {at}");
                // A second special byte after it does not move the first.
                for later in at + 1..8 {
                    for d in [0u8, b'"', b'\\', 0x1f, 0x20, 0x21, 0xff] {
                        let mut w2 = w;
                        w2[later] = d;
                        let want = if is(c) {
                            Some(at)
                        } else {
                            is(d).then_some(later)
                        };
                        assert_eq!(first_special(u64::from_le_bytes(w2)), want);
                    }
                }
            }
        }
    }
}
