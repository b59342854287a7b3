//! The common `format` values, checked by hand (no regex, linear time): `date-time`, `date`,
//! `time`, `email`, `uri`, `uuid`, `ipv4`, `ipv6`, `hostname`. Unknown formats accept anything.

use std::net::Ipv6Addr;

/// Whether `value` is valid for `format`; `None` when the format is not one this crate checks.
pub(crate) fn check(format: &str, value: &str) -> Option<bool> {
    Some(match format {
        "date-time" => date_time(value),
        "date" => date(value),
        "time" => time(value),
        "email" | "idn-email" => email(value),
        "uri" | "iri" => uri(value),
        "uuid" => uuid(value),
        "ipv4" => ipv4(value),
        "ipv6" => ipv6(value),
        "hostname" => hostname(value),
        _ => return None,
    })
}

/// What a message says a value of `format` looks like.
pub(crate) fn describe(format: &str) -> Option<&'static str> {
    Some(match format {
        "date-time" => "an RFC 3339 date-time, e.g. \"2024-01-31T09:30:00Z\"",
        "date" => "an RFC 3339 full-date, e.g. \"2024-01-31\"",
        "time" => "an RFC 3339 time with offset, e.g. \"09:30:00Z\"",
        "email" | "idn-email" => "an email address, e.g. \"user@example.com\"",
        "uri" | "iri" => "an absolute URI with a scheme, e.g. \"https://example.com/page\"",
        "uuid" => "a UUID, e.g. \"123e4567-e89b-12d3-a456-426614174000\"",
        "ipv4" => "an IPv4 address, e.g. \"192.0.2.1\"",
        "ipv6" => "an IPv6 address, e.g. \"2001:db8::1\"",
        "hostname" => "a host name, e.g. \"example.com\"",
        _ => return None,
    })
}

/// A valid sample value for `format`, used by the example generator.
pub(crate) fn sample(format: &str) -> Option<&'static str> {
    Some(match format {
        "date-time" => "2024-01-31T09:30:00Z",
        "date" => "2024-01-31",
        "time" => "09:30:00Z",
        "email" | "idn-email" => "user@example.com",
        "uri" | "iri" | "uri-reference" | "iri-reference" | "url" => "https://example.com/",
        "uuid" => "123e4567-e89b-12d3-a456-426614174000",
        "ipv4" => "192.0.2.1",
        "ipv6" => "2001:db8::1",
        "hostname" | "idn-hostname" => "example.com",
        _ => return None,
    })
}

fn digits(s: &str, n: usize) -> Option<u32> {
    (s.len() == n && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok())?
}

fn date(s: &str) -> bool {
    let (Some(y), Some(m), Some(d)) = (s.get(0..4), s.get(5..7), s.get(8..10)) else {
        return false;
    };
    if s.len() != 10 || s.as_bytes()[4] != b'-' || s.as_bytes()[7] != b'-' {
        return false;
    }
    let (Some(y), Some(m), Some(d)) = (digits(y, 4), digits(m, 2), digits(d, 2)) else {
        return false;
    };
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

fn time(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 9 || b[2] != b':' || b[5] != b':' {
        return false;
    }
    let (Some(h), Some(m), Some(sec)) = (
        s.get(0..2).and_then(|x| digits(x, 2)),
        s.get(3..5).and_then(|x| digits(x, 2)),
        s.get(6..8).and_then(|x| digits(x, 2)),
    ) else {
        return false;
    };
    let mut rest = &s[8..];
    if let Some(frac) = rest.strip_prefix('.') {
        let n = frac.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return false;
        }
        rest = &frac[n..];
    }
    let offset_minutes: i64 = if rest.eq_ignore_ascii_case("z") {
        0
    } else {
        let sign = match rest.as_bytes().first() {
            Some(b'+') => 1,
            Some(b'-') => -1,
            _ => return false,
        };
        let off = &rest[1..];
        if off.len() != 5 || off.as_bytes()[2] != b':' {
            return false;
        }
        match (
            off.get(0..2).and_then(|x| digits(x, 2)),
            off.get(3..5).and_then(|x| digits(x, 2)),
        ) {
            (Some(oh), Some(om)) if oh <= 23 && om <= 59 => sign * i64::from(oh * 60 + om),
            _ => return false,
        }
    };
    if h > 23 || m > 59 || sec > 60 {
        return false;
    }
    if sec == 60 {
        // A leap second is only valid at 23:59:60 UTC.
        let utc = (i64::from(h * 60 + m) - offset_minutes).rem_euclid(24 * 60);
        return utc == 23 * 60 + 59;
    }
    true
}

fn date_time(s: &str) -> bool {
    match (s.get(0..10), s.get(10..11), s.get(11..)) {
        (Some(d), Some(sep), Some(t)) => sep.eq_ignore_ascii_case("t") && date(d) && time(t),
        _ => false,
    }
}

fn email(s: &str) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    let quoted = local.len() >= 2 && local.starts_with('"') && local.ends_with('"');
    let local_ok = quoted
        || (!local.is_empty()
            && !local.starts_with('.')
            && !local.ends_with('.')
            && !local.contains("..")
            && !local.chars().any(|c| {
                c.is_whitespace()
                    || matches!(
                        c,
                        '"' | '(' | ')' | ',' | ':' | ';' | '<' | '>' | '@' | '[' | '\\' | ']'
                    )
            }));
    let domain_ok = match domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        Some(literal) => literal
            .strip_prefix("IPv6:")
            .map_or_else(|| ipv4(literal), ipv6),
        None => hostname(domain),
    };
    local_ok && domain_ok
}

fn uri(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        && rest.is_ascii()
        && !rest.chars().any(|c| {
            c.is_whitespace()
                || c.is_control()
                || matches!(c, '<' | '>' | '"' | '{' | '}' | '|' | '\\' | '^' | '`')
        })
        && percent_escapes_ok(rest)
        && authority_ok(rest)
}

/// Every `%` starts a two-hex-digit escape.
fn percent_escapes_ok(s: &str) -> bool {
    let b = s.as_bytes();
    b.iter().enumerate().all(|(i, c)| {
        *c != b'%'
            || (b.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit))
    })
}

/// Rejects an authority with a malformed port or with brackets that are not an IPv6 literal.
fn authority_ok(rest: &str) -> bool {
    let Some(after) = rest.strip_prefix("//") else {
        return !rest.contains(['[', ']']);
    };
    let authority = after.split(['/', '?', '#']).next().unwrap_or_default();
    if after[authority.len()..]
        .split(['?', '#'])
        .next()
        .unwrap_or_default()
        .contains(['[', ']'])
    {
        return false;
    }
    let (userinfo, host_port) = authority
        .rsplit_once('@')
        .map_or(("", authority), |(u, h)| (u, h));
    if userinfo.contains(['[', ']', '/']) {
        return false;
    }
    if host_port.starts_with('[') {
        return host_port.contains(']');
    }
    match host_port.rsplit_once(':') {
        Some((_, port)) => port.bytes().all(|b| b.is_ascii_digit()),
        None => true,
    }
}

fn uuid(s: &str) -> bool {
    s.len() == 36
        && s.bytes().enumerate().all(|(i, b)| match i {
            8 | 13 | 18 | 23 => b == b'-',
            _ => b.is_ascii_hexdigit(),
        })
}

fn ipv4(s: &str) -> bool {
    let parts: Vec<&str> = s.split('.').collect();
    parts.len() == 4
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.len() <= 3
                && p.bytes().all(|b| b.is_ascii_digit())
                && !(p.len() > 1 && p.starts_with('0'))
                && p.parse::<u16>().is_ok_and(|n| n <= 255)
        })
}

fn ipv6(s: &str) -> bool {
    s.parse::<Ipv6Addr>().is_ok()
}

fn hostname(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 253
        && s.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
        })
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn formats_accept_and_reject() {
        let ok = [
            ("date-time", "1963-06-19T08:30:06.283185Z"),
            ("date-time", "1990-12-31T15:59:60-08:00"),
            ("date", "2020-02-29"),
            ("time", "08:30:06+01:00"),
            ("email", "joe.bloggs@example.com"),
            ("uri", "https://example.com/a?b=c#d"),
            ("uri", "urn:isbn:0451450523"),
            ("uuid", "2EB8AA08-AA98-11EA-B4AA-73B441D16380"),
            ("ipv4", "192.168.0.1"),
            ("ipv6", "::1"),
            ("hostname", "www.example.com"),
        ];
        for (f, v) in ok {
            assert_eq!(check(f, v), Some(true), "{f} {v}");
        }
        let bad = [
            ("date-time", "1990-02-31T15:59:59Z"),
            ("date-time", "2024-01-31"),
            ("date", "2021-02-29"),
            ("time", "08:30:06"),
            ("email", "no-at-sign"),
            ("uri", "//example.com"),
            ("uri", "http://exa mple.com"),
            ("uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d1638"),
            ("ipv4", "256.0.0.1"),
            ("ipv4", "01.0.0.1"),
            ("ipv6", "12345::"),
            ("hostname", "-bad.example"),
        ];
        for (f, v) in bad {
            assert_eq!(check(f, v), Some(false), "{f} {v}");
        }
        assert_eq!(check("made-up", "x"), None);
    }
}
