//! Request decompression in front of the layer, so compressed bodies are sanitized too:
//! `gzip`, `deflate`, `br` and `zstd` (tower-http 0.6). The body goes upstream uncompressed,
//! without `Content-Encoding`; an encoding not in that list is answered 415.

use tower_http::decompression::RequestDecompressionLayer;

/// The decompression layer, every supported encoding on.
pub(crate) fn layer() -> RequestDecompressionLayer {
    RequestDecompressionLayer::new()
        .gzip(true)
        .deflate(true)
        .br(true)
        .zstd(true)
}
