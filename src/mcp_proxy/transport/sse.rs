//! Server-sent events as Streamable HTTP uses them: each event's `data` is one JSON-RPC message.
//! Fed chunk by chunk; `id`, `retry` and comments are read past (the proxy does not resume
//! streams).

/// At most this many bytes of one event are buffered.
pub const MAX_EVENT: usize = 64 * 1024 * 1024;

/// An incremental SSE reader.
#[derive(Debug, Default)]
pub struct SseReader {
    buf: Vec<u8>,
}

/// The stream broke the limits.
#[derive(Debug, PartialEq, Eq)]
pub struct TooLarge;

impl SseReader {
    /// Adds a chunk; the data of every `message` event it completes.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<Vec<String>, TooLarge> {
        self.buf.extend_from_slice(chunk);
        let mut out = Vec::new();
        while let Some((end, sep)) = event_end(&self.buf) {
            let event: Vec<u8> = self.buf.drain(..end + sep).take(end).collect();
            if let Some(data) = data_of(&String::from_utf8_lossy(&event)) {
                out.push(data);
            }
        }
        if self.buf.len() > MAX_EVENT {
            return Err(TooLarge);
        }
        Ok(out)
    }
}

/// Where the first complete event ends, and the length of the blank line after it.
fn event_end(buf: &[u8]) -> Option<(usize, usize)> {
    let mut i = 0;
    while i + 1 < buf.len() {
        match (buf[i], buf[i + 1]) {
            (b'\n', b'\n') | (b'\r', b'\r') => return Some((i, 2)),
            (b'\r', b'\n') if buf[i + 2..].starts_with(b"\r\n") => return Some((i, 4)),
            (b'\n', b'\r') if buf[i + 2..].starts_with(b"\n") => return Some((i + 1, 3)),
            _ => {}
        }
        i += 1;
    }
    None
}

/// The data of one event (`None`: no data, or an event type other than `message`).
fn data_of(event: &str) -> Option<String> {
    let mut data: Vec<&str> = Vec::new();
    let mut kind = "message";
    for line in event.split(['\n', '\r']) {
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (line, ""),
        };
        match field {
            "data" => data.push(value),
            "event" => kind = value,
            _ => {}
        }
    }
    if data.is_empty() || kind != "message" {
        return None;
    }
    let joined = data.join(" "); // a line break inside JSON text outside strings is whitespace
    (!joined.trim().is_empty()).then_some(joined)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_split_across_chunks_and_line_endings() {
        let mut r = SseReader::default();
        assert_eq!(
            r.feed(b": comment\n\nid: 1\ndata: {\"a\"").unwrap(),
            Vec::<String>::new()
        );
        assert_eq!(r.feed(b":1}\n\n").unwrap(), vec!["{\"a\":1}".to_owned()]);
        assert_eq!(
            r.feed(b"event: message\r\ndata: {\"b\":\r\ndata: 2}\r\n\r\nevent: other\ndata: x\n\n")
                .unwrap(),
            vec!["{\"b\": 2}".to_owned()]
        );
    }
}
