//! The client to the upstreams: hyper-util's pooled client over rustls (the ring provider) with
//! the platform's trust store plus any `--ca-cert` roots; HTTP/1.1 and HTTP/2 by ALPN.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::combinators::UnsyncBoxBody;
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::{TokioExecutor, TokioTimer};
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;

use super::errors::ServeError;

/// The error type of the bodies the gateway moves.
pub(crate) type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// A body on its way through the gateway, either direction.
pub(crate) type ProxyBody = UnsyncBoxBody<Bytes, BoxError>;

/// The pooled upstream client.
pub(crate) type UpstreamClient = Client<HttpsConnector<HttpConnector>, ProxyBody>;

/// The rustls client configuration: the platform's roots and the extra PEM files.
pub(crate) fn tls_config(extra: &[PathBuf]) -> Result<Arc<rustls::ClientConfig>, ServeError> {
    let mut roots = rustls::RootCertStore::empty();
    let native = rustls_native_certs::load_native_certs();
    let (added, _ignored) = roots.add_parsable_certificates(native.certs);
    if added == 0 && extra.is_empty() {
        tracing::warn!(
            target: "toolschema::serve",
            errors = ?native.errors.iter().map(|e| e.to_string()).collect::<Vec<_>>(),
            "no root certificates found in the platform's trust store: https upstreams will fail; pass --ca-cert FILE"
        );
    }
    for path in extra {
        let certs = CertificateDer::pem_file_iter(path)
            .map_err(|e| ServeError::Tls(format!("cannot read {}: {e}", path.display())))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| ServeError::Tls(format!("{}: {e}", path.display())))?;
        if certs.is_empty() {
            return Err(ServeError::Tls(format!(
                "{}: no PEM certificate in it",
                path.display()
            )));
        }
        for cert in certs {
            roots
                .add(cert)
                .map_err(|e| ServeError::Tls(format!("{}: {e}", path.display())))?;
        }
    }
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .map_err(|e| ServeError::Tls(e.to_string()))?
    .with_root_certificates(roots)
    .with_no_client_auth();
    Ok(Arc::new(config))
}

/// A pooled client with this connect timeout.
pub(crate) fn client(tls: &Arc<rustls::ClientConfig>, connect_timeout: Duration) -> UpstreamClient {
    let mut http = HttpConnector::new();
    http.enforce_http(false);
    http.set_nodelay(true);
    http.set_connect_timeout(Some(connect_timeout));
    let https = hyper_rustls::HttpsConnectorBuilder::new()
        .with_tls_config(rustls::ClientConfig::clone(tls))
        .https_or_http()
        .enable_all_versions()
        .wrap_connector(http);
    Client::builder(TokioExecutor::new())
        .timer(TokioTimer::new())
        .pool_timer(TokioTimer::new())
        .pool_idle_timeout(Duration::from_secs(90))
        .build(https)
}
