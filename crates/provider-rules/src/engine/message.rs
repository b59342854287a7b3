//! A change's message put together from its parts: the static words and the names or numbers
//! between them, in one allocation of the exact length (no formatting machinery at record
//! time; the text is what `format!` of the same parts gives), and only where it is kept
//! ([`Later`]: a caller that reads no message has none made).

/// One part of a message.
#[derive(Clone, Copy)]
pub(crate) enum Part<'a> {
    /// Words or a name, as they are.
    Text(&'a str),
    /// A count, in decimal.
    Count(u64),
}

/// A message made when it is kept: `Later(|| message(&[...]))` passed where a step records a
/// change ([`super::Cx::change`]) is made only where the caller reads messages.
pub(crate) struct Later<F: FnOnce() -> String>(pub(crate) F);

impl<F: FnOnce() -> String> From<Later<F>> for String {
    fn from(later: Later<F>) -> String {
        (later.0)()
    }
}

/// The decimal digits of `n`, in `buf`'s tail: the slice they take.
fn digits(mut n: u64, buf: &mut [u8; 20]) -> &str {
    let mut at = buf.len();
    loop {
        at -= 1;
        // `n % 10` is below 10: one ASCII digit.
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // Only ASCII digits were written.
    std::str::from_utf8(&buf[at..]).unwrap_or("")
}

/// The message made of `parts`, in order.
pub(crate) fn message(parts: &[Part<'_>]) -> String {
    let mut buf = [0u8; 20];
    let len: usize = parts
        .iter()
        .map(|p| match p {
            Part::Text(t) => t.len(),
            Part::Count(n) => digits(*n, &mut buf).len(),
        })
        .sum();
    let mut out = String::with_capacity(len);
    for p in parts {
        match p {
            Part::Text(t) => out.push_str(t),
            Part::Count(n) => out.push_str(digits(*n, &mut buf)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{Later, Part, message};

    #[test]
    fn a_message_is_what_format_gives_of_its_parts() {
        for n in [0u64, 7, 10, 99, 1234, u64::MAX] {
            let m = message(&[Part::Text("at most "), Part::Count(n), Part::Text(" names")]);
            assert_eq!(m, format!("at most {n} names"));
            assert_eq!(m.capacity(), m.len());
        }
        assert_eq!(message(&[]), "");
        assert_eq!(String::from(Later(|| message(&[Part::Count(3)]))), "3");
        assert_eq!(
            message(&[Part::Text("type"), Part::Text(" is not accepted")]),
            "type is not accepted"
        );
    }
}
