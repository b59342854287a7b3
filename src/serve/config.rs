//! What the gateway does: where it listens, its routes (path prefix → upstream, an optional fixed
//! profile, limits), read from flags and an optional TOML file.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use http::Uri;
use serde::Deserialize;

use super::errors::ServeError;

/// The built-in routes: a path prefix and the provider's public origin. A client replaces the
/// provider's `https://host` with `http://LISTEN/PREFIX` and keeps the rest of its base URL.
pub const BUILTIN_ROUTES: &[(&str, &str)] = &[
    ("/openai", "https://api.openai.com"),
    ("/anthropic", "https://api.anthropic.com"),
    ("/gemini", "https://generativelanguage.googleapis.com"),
    ("/xai", "https://api.x.ai"),
    ("/mistral", "https://api.mistral.ai"),
    ("/groq", "https://api.groq.com"),
    ("/deepseek", "https://api.deepseek.com"),
    ("/openrouter", "https://openrouter.ai"),
];

/// The default listen address.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:8787";

/// Bounds on one route's requests.
///
/// ```
/// let l = toolschema::serve::Limits::default();
/// assert_eq!(l.body_bytes, 32 << 20);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The largest request body accepted, in bytes, after decompression (413 above it).
    pub body_bytes: usize,
    /// How long opening a TCP connection to the upstream may take (504 after it; a stalled
    /// TLS handshake runs into the idle timeout).
    pub connect_timeout: Duration,
    /// How long the upstream may stay silent: before its response headers (504 after it) and
    /// between two chunks of its response body (the stream is then cut).
    pub idle_timeout: Duration,
    /// Requests in flight at once (503 above it).
    pub concurrency: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            body_bytes: 32 << 20,
            connect_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(300),
            concurrency: 1024,
        }
    }
}

/// One route: requests whose path starts with `prefix` (on a segment boundary) go to
/// `upstream`, with the prefix replaced by the upstream's own path.
///
/// ```
/// use toolschema::serve::Route;
/// let r = Route::new("/local", "http://127.0.0.1:11434").unwrap();
/// assert_eq!(r.target("/local/v1/chat/completions?x=1").unwrap().to_string(),
///            "http://127.0.0.1:11434/v1/chat/completions?x=1");
/// assert!(r.target("/localhost").is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    /// The path prefix (`/openai`; `/` takes everything).
    pub prefix: String,
    /// The upstream's base URL (scheme, authority, optional path).
    pub upstream: Uri,
    /// A fixed profile (`toolschema providers`); `None`: picked per request (`auto`).
    pub profile: Option<String>,
    /// This route's limits.
    pub limits: Limits,
    /// Whether the profiles' lossless encodings are on (maps as key/value entries, any values
    /// as JSON text, ...; `--encode`, the config's `encode`): the tools' calls in the
    /// responses are decoded back and the history's earlier calls encoded. Off by default: a
    /// response the gateway cannot read (compressed without a known encoding, Bedrock's binary
    /// event stream) would reach the client in the encoded form.
    pub encode: bool,
}

impl Route {
    /// A route with the default limits and no fixed profile.
    ///
    /// See [`Route`] for an example.
    pub fn new(prefix: &str, upstream: &str) -> Result<Route, ServeError> {
        Ok(Route {
            prefix: normalize_prefix(prefix),
            upstream: parse_upstream(upstream)?,
            profile: None,
            limits: Limits::default(),
            encode: false,
        })
    }

    /// The length of the prefix this path matches, if it does.
    pub(crate) fn matches(&self, path: &str) -> Option<usize> {
        if self.prefix == "/" {
            return Some(0);
        }
        let rest = path.strip_prefix(self.prefix.as_str())?;
        (rest.is_empty() || rest.starts_with('/')).then_some(self.prefix.len())
    }

    /// The upstream URI for a request's path and query, if this route takes it.
    ///
    /// See [`Route`] for an example.
    pub fn target(&self, path_and_query: &str) -> Option<Uri> {
        let (path, query) = match path_and_query.split_once('?') {
            Some((p, q)) => (p, Some(q)),
            None => (path_and_query, None),
        };
        let cut = self.matches(path)?;
        let rest = &path[cut..];
        let base = self.upstream.path().trim_end_matches('/');
        let mut out = format!(
            "{}://{}{base}",
            self.upstream.scheme_str().unwrap_or("http"),
            self.upstream.authority().map(|a| a.as_str()).unwrap_or("")
        );
        if rest.is_empty() {
            out.push('/');
        } else {
            out.push_str(rest);
        }
        if let Some(q) = query {
            out.push('?');
            out.push_str(q);
        }
        out.parse().ok()
    }
}

/// Everything the gateway needs to start.
///
/// ```
/// use toolschema::serve::Settings;
/// let s = Settings::builtin();
/// assert!(s.routes.iter().any(|r| r.prefix == "/anthropic"));
/// ```
#[derive(Debug, Clone)]
pub struct Settings {
    /// Where to listen.
    pub listen: SocketAddr,
    /// The routes; the longest matching prefix wins.
    pub routes: Vec<Route>,
    /// Requests in flight at once over all routes (503 above it).
    pub concurrency: usize,
    /// PEM files with extra root certificates to trust, besides the platform's store.
    pub ca_certs: Vec<PathBuf>,
    /// How long in-flight requests may run on after a shutdown signal.
    pub shutdown_grace: Duration,
}

impl Settings {
    /// The built-in routes on the default address.
    ///
    /// See [`Settings`] for an example.
    pub fn builtin() -> Settings {
        Settings {
            listen: SocketAddr::from(([127, 0, 0, 1], 8787)),
            routes: builtin_routes(Limits::default()),
            concurrency: Limits::default().concurrency,
            ca_certs: Vec::new(),
            shutdown_grace: Duration::from_secs(30),
        }
    }

    /// Everything to one upstream, on `listen`.
    ///
    /// ```
    /// use toolschema::serve::Settings;
    /// let s = Settings::single("127.0.0.1:0".parse().unwrap(), "http://127.0.0.1:9").unwrap();
    /// assert_eq!(s.routes.len(), 1);
    /// ```
    pub fn single(listen: SocketAddr, upstream: &str) -> Result<Settings, ServeError> {
        Ok(Settings {
            listen,
            routes: vec![Route::new("/", upstream)?],
            ..Settings::builtin()
        })
    }

    /// The settings from the flags and the optional TOML file (flags win).
    ///
    /// ```
    /// use toolschema::serve::Settings;
    /// let s = Settings::load(Some("127.0.0.1:0"), Some("http://127.0.0.1:9"), None, &[]).unwrap();
    /// assert_eq!(s.routes[0].prefix, "/");
    /// ```
    pub fn load(
        listen: Option<&str>,
        upstream: Option<&str>,
        config: Option<&Path>,
        ca_certs: &[PathBuf],
    ) -> Result<Settings, ServeError> {
        let file = match config {
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|e| {
                    ServeError::Config(format!("cannot read {}: {e}", path.display()))
                })?;
                FileConfig::parse(&text)
                    .map_err(|e| ServeError::Config(format!("{}: {e}", path.display())))?
            }
            None => FileConfig::default(),
        };
        file.into_settings(listen, upstream, ca_certs)
    }

    /// With `on`, every route has the encodings on (the `--encode` flag; the config's own
    /// `encode` keys stand otherwise).
    ///
    /// ```
    /// use toolschema::serve::Settings;
    /// let s = Settings::builtin().encode_all(true);
    /// assert!(s.routes.iter().all(|r| r.encode));
    /// assert!(Settings::builtin().routes.iter().all(|r| !r.encode));
    /// ```
    pub fn encode_all(mut self, on: bool) -> Settings {
        if on {
            for r in &mut self.routes {
                r.encode = true;
            }
        }
        self
    }

    /// The route a request path goes to: the longest matching prefix.
    pub(crate) fn route_for(&self, path: &str) -> Option<usize> {
        self.routes
            .iter()
            .enumerate()
            .filter_map(|(i, r)| r.matches(path).map(|len| (i, len)))
            .max_by_key(|(_, len)| *len)
            .map(|(i, _)| i)
    }
}

fn builtin_routes(limits: Limits) -> Vec<Route> {
    BUILTIN_ROUTES
        .iter()
        .filter_map(|(prefix, url)| Route::new(prefix, url).ok().map(|r| Route { limits, ..r }))
        .collect()
}

fn normalize_prefix(prefix: &str) -> String {
    let trimmed = prefix.trim().trim_end_matches('/');
    if trimmed.is_empty() {
        "/".to_owned()
    } else if trimmed.starts_with('/') {
        trimmed.to_owned()
    } else {
        format!("/{trimmed}")
    }
}

fn parse_upstream(url: &str) -> Result<Uri, ServeError> {
    let uri: Uri = url
        .parse()
        .map_err(|e| ServeError::Config(format!("upstream {url:?} is not a URL: {e}")))?;
    match (uri.scheme_str(), uri.authority()) {
        (Some("http" | "https"), Some(_)) if uri.query().is_none() => Ok(uri),
        _ => Err(ServeError::Config(format!(
            "upstream {url:?}: expected http://HOST[:PORT][/PATH] or https://..., without a query"
        ))),
    }
}

/// The TOML file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileConfig {
    listen: Option<String>,
    /// Keep the built-in provider routes next to the file's (default true).
    builtin_routes: Option<bool>,
    ca_cert: Option<Vec<PathBuf>>,
    shutdown_grace_secs: Option<u64>,
    /// The encodings on every route that does not say otherwise (default false).
    encode: Option<bool>,
    #[serde(default)]
    limits: FileLimits,
    #[serde(default)]
    routes: Vec<FileRoute>,
}

#[derive(Debug, Default, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileLimits {
    body_bytes: Option<usize>,
    connect_timeout_secs: Option<f64>,
    idle_timeout_secs: Option<f64>,
    concurrency: Option<usize>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileRoute {
    prefix: String,
    upstream: String,
    profile: Option<String>,
    encode: Option<bool>,
    #[serde(default)]
    limits: FileLimits,
}

fn secs(v: f64, what: &str) -> Result<Duration, ServeError> {
    Duration::try_from_secs_f64(v).map_err(|_| {
        ServeError::Config(format!(
            "{what} = {v}: expected a positive number of seconds"
        ))
    })
}

impl FileLimits {
    fn over(self, base: Limits) -> Result<Limits, ServeError> {
        Ok(Limits {
            body_bytes: self.body_bytes.unwrap_or(base.body_bytes),
            connect_timeout: match self.connect_timeout_secs {
                Some(v) => secs(v, "connect_timeout_secs")?,
                None => base.connect_timeout,
            },
            idle_timeout: match self.idle_timeout_secs {
                Some(v) => secs(v, "idle_timeout_secs")?,
                None => base.idle_timeout,
            },
            concurrency: self.concurrency.unwrap_or(base.concurrency).max(1),
        })
    }
}

impl FileConfig {
    fn parse(text: &str) -> Result<FileConfig, String> {
        toml::from_str(text).map_err(|e| e.to_string())
    }

    fn into_settings(
        self,
        listen: Option<&str>,
        upstream: Option<&str>,
        ca_certs: &[PathBuf],
    ) -> Result<Settings, ServeError> {
        let limits = self.limits.over(Limits::default())?;
        let encode = self.encode.unwrap_or(false);
        let listen = listen.or(self.listen.as_deref()).unwrap_or(DEFAULT_LISTEN);
        let listen: SocketAddr = listen.parse().map_err(|e| {
            ServeError::Config(format!("listen address {listen:?}: {e} (expected IP:PORT)"))
        })?;
        let mut routes = Vec::new();
        for r in self.routes {
            let profile = match r.profile {
                Some(p) => Some(super::profiles::check_name(&p)?),
                None => None,
            };
            routes.push(Route {
                profile,
                limits: r.limits.over(limits)?,
                encode: r.encode.unwrap_or(encode),
                ..Route::new(&r.prefix, &r.upstream)?
            });
        }
        match upstream {
            // `--upstream`: everything (the file's own routes aside) goes there.
            Some(url) => routes.push(Route {
                limits,
                encode,
                ..Route::new("/", url)?
            }),
            None if self.builtin_routes.unwrap_or(true) => {
                for b in builtin_routes(limits) {
                    if !routes.iter().any(|r| r.prefix == b.prefix) {
                        routes.push(Route { encode, ..b });
                    }
                }
            }
            None => {}
        }
        if routes.is_empty() {
            return Err(ServeError::Config(
                "no routes: give --upstream URL, or [[routes]] in the config, or keep builtin_routes"
                    .to_owned(),
            ));
        }
        let mut all_ca = self.ca_cert.unwrap_or_default();
        all_ca.extend(ca_certs.iter().cloned());
        Ok(Settings {
            listen,
            routes,
            concurrency: limits.concurrency,
            ca_certs: all_ca,
            shutdown_grace: Duration::from_secs(self.shutdown_grace_secs.unwrap_or(30)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longest_prefix_wins_on_segment_boundaries() {
        let mut s = Settings::builtin();
        s.routes
            .push(Route::new("/openai/v2", "http://127.0.0.1:9").unwrap());
        let idx = |p: &str| s.route_for(p).map(|i| s.routes[i].prefix.as_str());
        assert_eq!(idx("/openai/v1/chat/completions"), Some("/openai"));
        assert_eq!(idx("/openai/v2/x"), Some("/openai/v2"));
        assert_eq!(idx("/openaix/v1"), None);
        assert_eq!(idx("/nope"), None);
    }

    #[test]
    fn target_keeps_the_upstream_path_and_the_query() {
        let r = Route::new("groq/", "https://api.groq.com/openai/").unwrap();
        assert_eq!(r.prefix, "/groq");
        assert_eq!(
            r.target("/groq/v1/chat/completions?a=b")
                .unwrap()
                .to_string(),
            "https://api.groq.com/openai/v1/chat/completions?a=b"
        );
        assert_eq!(
            r.target("/groq").unwrap().to_string(),
            "https://api.groq.com/openai/"
        );
    }

    #[test]
    fn file_routes_limits_and_flags() {
        let f = FileConfig::parse(
            r#"
listen = "127.0.0.1:9999"
[limits]
idle_timeout_secs = 5
[[routes]]
prefix = "/openai"
upstream = "http://127.0.0.1:1"
profile = "gemini"
[routes.limits]
body_bytes = 10
"#,
        )
        .unwrap();
        let s = f.into_settings(Some("127.0.0.1:0"), None, &[]).unwrap();
        assert_eq!(s.listen.port(), 0);
        let openai: Vec<_> = s.routes.iter().filter(|r| r.prefix == "/openai").collect();
        assert_eq!(
            openai.len(),
            1,
            "the file's route replaces the built-in one"
        );
        assert_eq!(openai[0].profile.as_deref(), Some("gemini"));
        assert_eq!(openai[0].limits.body_bytes, 10);
        assert_eq!(openai[0].limits.idle_timeout, Duration::from_secs(5));
        let anthropic = s.routes.iter().find(|r| r.prefix == "/anthropic").unwrap();
        assert_eq!(anthropic.limits.idle_timeout, Duration::from_secs(5));
    }

    #[test]
    fn the_readme_example_is_a_valid_config() {
        let readme = include_str!("../../README.md");
        let start = readme
            .find("```toml\nlisten = ")
            .expect("the README has the serve config example")
            + "```toml\n".len();
        let len = readme[start..].find("```").unwrap();
        let s = FileConfig::parse(&readme[start..start + len])
            .unwrap()
            .into_settings(None, None, &[])
            .unwrap();
        let vertex = s.routes.iter().find(|r| r.prefix == "/vertex").unwrap();
        assert_eq!(vertex.profile.as_deref(), Some("vertex"));
        assert_eq!(vertex.limits.idle_timeout, Duration::from_secs(600));
        assert_eq!(s.ca_certs, [PathBuf::from("corp-root.pem")]);
        assert!(s.routes.iter().any(|r| r.prefix == "/openai"));
    }

    #[test]
    fn builtin_routes_keep_the_rest_of_the_base_url() {
        let s = Settings::builtin();
        let to = |p: &str| {
            let r = &s.routes[s.route_for(p).unwrap()];
            r.target(p).unwrap().to_string()
        };
        assert_eq!(
            to("/openai/v1/chat/completions"),
            "https://api.openai.com/v1/chat/completions"
        );
        assert_eq!(
            to("/anthropic/v1/messages"),
            "https://api.anthropic.com/v1/messages"
        );
        assert_eq!(
            to("/gemini/v1beta/models/gemini-2.5-flash:generateContent"),
            "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent"
        );
        assert_eq!(
            to("/groq/openai/v1/chat/completions"),
            "https://api.groq.com/openai/v1/chat/completions"
        );
        assert_eq!(
            to("/openrouter/api/v1/chat/completions"),
            "https://openrouter.ai/api/v1/chat/completions"
        );
        assert_eq!(s.routes.len(), BUILTIN_ROUTES.len());
    }

    #[test]
    fn bad_files_say_what_is_wrong() {
        let e =
            FileConfig::parse("[[routes]]\nprefix = \"/x\"\nupstrem = \"http://a\"\n").unwrap_err();
        assert!(e.contains("upstrem"), "{e}");
        let f = FileConfig::parse("[[routes]]\nprefix = \"/x\"\nupstream = \"ftp://a\"\n").unwrap();
        let e = f.into_settings(None, None, &[]).unwrap_err().to_string();
        assert!(e.contains("ftp://a"), "{e}");
        let f = FileConfig::parse(
            "[[routes]]\nprefix = \"/x\"\nupstream = \"http://a\"\nprofile = \"nope\"\n",
        )
        .unwrap();
        let e = f.into_settings(None, None, &[]).unwrap_err().to_string();
        assert!(e.contains("nope") && e.contains("gemini"), "{e}");
    }
}
