//! Splitting JSON that was already validated: the members of an object, the elements of an
//! array, as slices of it. No validation (every text here comes from a document serde_json
//! read whole), so a level of the walker costs one skim of its bytes: strings are skipped with
//! `memchr2` to the next quote or backslash, containers by counting brackets outside strings.

use std::borrow::Cow;

use crate::locate::RawText;

struct Split<'a> {
    t: &'a str,
    b: &'a [u8],
    i: usize,
}

impl<'a> Split<'a> {
    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    fn next(&mut self) -> Option<u8> {
        let c = *self.b.get(self.i)?;
        self.i += 1;
        Some(c)
    }

    /// Past the string whose opening quote was just read.
    fn end_of_string(&mut self) -> Option<()> {
        loop {
            let k = memchr::memchr2(b'"', b'\\', self.b.get(self.i..)?)?;
            self.i += k + 1;
            if self.b.get(self.i - 1) == Some(&b'"') {
                return Some(());
            }
            // A backslash: the escaped byte is skipped (a `\u` escape's digits need no care).
            self.i += 1;
        }
    }

    /// One value from the cursor: its text.
    fn value(&mut self) -> Option<&'a str> {
        let start = self.i;
        match self.next()? {
            b'"' => self.end_of_string()?,
            b'{' | b'[' => {
                let mut depth = 1usize;
                while depth > 0 {
                    match self.next()? {
                        b'"' => self.end_of_string()?,
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => depth -= 1,
                        _ => {}
                    }
                }
            }
            _ => {
                while let Some(c) = self.b.get(self.i) {
                    if matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                        break;
                    }
                    self.i += 1;
                }
            }
        }
        self.t.get(start..self.i)
    }
}

/// The members of `raw` when it is an object, in order (a key is copied only when it has
/// escapes).
pub(crate) fn members(raw: RawText<'_>) -> Option<Vec<(Cow<'_, str>, RawText<'_>)>> {
    let t = raw.get();
    if !t.starts_with('{') {
        return None;
    }
    let mut s = Split {
        t,
        b: t.as_bytes(),
        i: 1,
    };
    let mut out = Vec::new();
    s.ws();
    if s.b.get(s.i) == Some(&b'}') {
        return Some(out);
    }
    loop {
        s.ws();
        let key = s.value()?;
        let key = match key.contains('\\') {
            true => Cow::Owned(serde_json::from_str::<String>(key).ok()?),
            false => Cow::Borrowed(key.get(1..key.len().checked_sub(1)?)?),
        };
        s.ws();
        (s.next()? == b':').then_some(())?;
        s.ws();
        out.push((key, RawText::new(s.value()?)));
        s.ws();
        match s.next()? {
            b',' => {}
            b'}' => return Some(out),
            _ => return None,
        }
    }
}

/// The elements of `raw` when it is an array.
pub(crate) fn elements(raw: RawText<'_>) -> Option<Vec<RawText<'_>>> {
    let t = raw.get();
    if !t.starts_with('[') {
        return None;
    }
    let mut s = Split {
        t,
        b: t.as_bytes(),
        i: 1,
    };
    let mut out = Vec::new();
    s.ws();
    if s.b.get(s.i) == Some(&b']') {
        return Some(out);
    }
    loop {
        s.ws();
        out.push(RawText::new(s.value()?));
        s.ws();
        match s.next()? {
            b',' => {}
            b']' => return Some(out),
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::value::RawValue;

    /// The split agrees with serde_json's reading of the same text.
    #[test]
    fn splits_as_serde_json_reads() {
        let texts = [
            r#"{}"#,
            r#"{ }"#,
            r#"{"a":1,"b" : [1, {"c":"]}\"}"}] , "d\u0041":"x\\","e":null,"f":-1.5e3,"g":true}"#,
            r#"{"nested":{"a":{"b":[[],[{}]]}},"s":"{[\"","t":false}"#,
        ];
        for text in texts {
            let ours: Vec<(String, String)> = members(RawText::new(text))
                .unwrap()
                .into_iter()
                .map(|(k, v)| (k.into_owned(), v.get().to_owned()))
                .collect();
            let theirs: Vec<(String, String)> =
                serde_json::from_str::<std::collections::BTreeMap<String, &RawValue>>(text)
                    .unwrap()
                    .into_iter()
                    .map(|(k, v)| (k, v.get().to_owned()))
                    .collect();
            let mut sorted = ours.clone();
            sorted.sort();
            assert_eq!(sorted, theirs, "{text}");
            let map: serde_json::Map<String, serde_json::Value> =
                serde_json::from_str(text).unwrap();
            assert_eq!(ours.len(), map.len(), "{text}");
            for (k, v) in &ours {
                let v: serde_json::Value = serde_json::from_str(v).unwrap();
                assert_eq!(map.get(k), Some(&v), "{text}: {k}");
            }
        }
        let list = r#"[ 1 ,"a,]",{"b":[2]}, [] ,null]"#;
        let ours: Vec<&str> = elements(RawText::new(list))
            .unwrap()
            .iter()
            .map(|r| r.get())
            .collect();
        assert_eq!(ours, ["1", r#""a,]""#, r#"{"b":[2]}"#, "[]", "null"]);
        assert_eq!(elements(RawText::new("[]")).unwrap().len(), 0);
        assert!(members(RawText::new("[]")).is_none());
        assert!(elements(RawText::new("{}")).is_none());
    }
}
