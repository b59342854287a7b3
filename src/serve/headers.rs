//! Headers end to end: everything goes on (API keys included) except the hop-by-hop ones
//! (RFC 9110 §7.6.1), which belong to one connection.

use http::{HeaderMap, HeaderName, header};

/// The hop-by-hop headers, besides those a `Connection` header names.
const HOP_BY_HOP: &[&str] = &[
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
];

/// Removes the hop-by-hop headers, and those the `Connection` header lists.
///
/// ```text
/// Connection: close, x-hop  →  both `Connection` and `x-hop` go
/// ```
pub(crate) fn drop_hop_by_hop(headers: &mut HeaderMap) {
    let named: Vec<HeaderName> = headers
        .get_all(header::CONNECTION)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|n| HeaderName::from_bytes(n.trim().as_bytes()).ok())
        .collect();
    for name in HOP_BY_HOP {
        headers.remove(*name);
    }
    for name in &named {
        headers.remove(name);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_stay_and_hops_go() {
        let mut h = HeaderMap::new();
        h.insert(header::AUTHORIZATION, "Bearer k".parse().unwrap());
        h.insert("x-api-key", "k".parse().unwrap());
        h.insert("x-goog-api-key", "k".parse().unwrap());
        h.insert(header::CONNECTION, "keep-alive, x-hop".parse().unwrap());
        h.insert("x-hop", "1".parse().unwrap());
        h.insert(header::TRANSFER_ENCODING, "chunked".parse().unwrap());
        h.insert(header::TE, "trailers".parse().unwrap());
        drop_hop_by_hop(&mut h);
        let mut names: Vec<_> = h.keys().map(|k| k.as_str()).collect();
        names.sort();
        assert_eq!(names, ["authorization", "x-api-key", "x-goog-api-key"]);
    }
}
