//! `GET /metrics`: Prometheus counters and histograms of what the gateway did (the text
//! exposition format, through `prometheus-client`; one registry per server, no globals).

use std::sync::atomic::AtomicU64;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

use super::report::Summary;

/// The content type of the exposition.
pub(crate) const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    route: String,
    api: String,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ProfileLabels {
    profile: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ErrorLabels {
    route: String,
    cause: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabels {
    route: String,
}

fn latency_histogram() -> Histogram {
    // 10 ms to about 5.5 minutes: LLM answers are slow.
    Histogram::new(exponential_buckets(0.01, 2.0, 16))
}

/// The gateway's metrics.
pub(crate) struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    slots_changed: Family<ProfileLabels, Counter>,
    lossy_changes: Family<ProfileLabels, Counter>,
    strict_downgrades: Family<ProfileLabels, Counter>,
    upstream_errors: Family<ErrorLabels, Counter>,
    streams_cut: Family<ErrorLabels, Counter>,
    headers_latency: Family<RouteLabels, Histogram, fn() -> Histogram>,
    duration: Family<RouteLabels, Histogram, fn() -> Histogram>,
    in_flight: Gauge<i64, std::sync::atomic::AtomicI64>,
    bytes_out: Counter<u64, AtomicU64>,
    tools_renamed: Counter<u64, AtomicU64>,
    calls_restored: Counter<u64, AtomicU64>,
}

impl Metrics {
    pub(crate) fn new() -> Metrics {
        let m = Metrics {
            requests: Family::default(),
            slots_changed: Family::default(),
            lossy_changes: Family::default(),
            strict_downgrades: Family::default(),
            upstream_errors: Family::default(),
            streams_cut: Family::default(),
            headers_latency: Family::new_with_constructor(latency_histogram),
            duration: Family::new_with_constructor(latency_histogram),
            in_flight: Gauge::default(),
            bytes_out: Counter::default(),
            tools_renamed: Counter::default(),
            calls_restored: Counter::default(),
            registry: Registry::default(),
        };
        let mut registry = Registry::with_prefix("toolschema_serve");
        // (name, help, metric): the exposition's one table.
        macro_rules! register {
            ($(($name:literal, $help:literal, $metric:ident)),* $(,)?) => {
                $(registry.register($name, $help, m.$metric.clone());)*
            };
        }
        register![
            (
                "requests",
                "Requests answered, by route, API and status",
                requests
            ),
            (
                "slots_changed",
                "Schema slots the layer rewrote, by profile",
                slots_changed
            ),
            (
                "lossy_changes",
                "Schema changes that lost a constraint the provider cannot express, by profile",
                lossy_changes
            ),
            (
                "strict_downgrades",
                "Tools sent with strict: false because they could not be made strict, by profile",
                strict_downgrades
            ),
            (
                "upstream_errors",
                "Requests that could not reach their upstream, by route and cause",
                upstream_errors
            ),
            (
                "streams_cut",
                "Response bodies that ended early (client gone, upstream reset or silent), by route and cause",
                streams_cut
            ),
            (
                "response_headers_seconds",
                "Time from the request to the response headers, by route",
                headers_latency
            ),
            (
                "request_duration_seconds",
                "Time from the request to the end of the response body, by route",
                duration
            ),
            ("in_flight", "Requests in flight", in_flight),
            (
                "response_bytes",
                "Response body bytes sent to clients",
                bytes_out
            ),
            (
                "tools_renamed",
                "Tool names the provider would refuse, renamed in requests (and mapped back)",
                tools_renamed
            ),
            (
                "calls_restored",
                "Tool calls in responses whose name or arguments were restored",
                calls_restored
            ),
        ];
        Metrics { registry, ..m }
    }

    /// The exposition text.
    pub(crate) fn render(&self) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut out, &self.registry);
        out
    }

    pub(crate) fn started(&self) {
        self.in_flight.inc();
    }

    pub(crate) fn headers(&self, route: &str, secs: f64) {
        self.headers_latency
            .get_or_create(&RouteLabels {
                route: route.to_owned(),
            })
            .observe(secs);
    }

    pub(crate) fn upstream_error(&self, route: &str, cause: &str) {
        self.upstream_errors
            .get_or_create(&ErrorLabels {
                route: route.to_owned(),
                cause: cause.to_owned(),
            })
            .inc();
    }

    /// A request is over: what the layer did and how it ended.
    pub(crate) fn finished(&self, e: &Finished<'_>) {
        self.in_flight.dec();
        self.bytes_out.inc_by(e.bytes);
        self.tools_renamed.inc_by(e.renamed);
        self.calls_restored.inc_by(e.restored);
        self.requests
            .get_or_create(&RequestLabels {
                route: e.route.to_owned(),
                api: e.summary.map_or("-", |s| s.api).to_owned(),
                status: e.status,
            })
            .inc();
        self.duration
            .get_or_create(&RouteLabels {
                route: e.route.to_owned(),
            })
            .observe(e.secs);
        if let Some(cut) = e.cut {
            self.streams_cut
                .get_or_create(&ErrorLabels {
                    route: e.route.to_owned(),
                    cause: cut.to_owned(),
                })
                .inc();
        }
        if let Some(s) = e.summary {
            for p in &s.per_profile {
                let labels = ProfileLabels {
                    profile: p.profile.clone(),
                };
                self.slots_changed.get_or_create(&labels).inc_by(p.changed);
                self.lossy_changes.get_or_create(&labels).inc_by(p.lossy);
                self.strict_downgrades
                    .get_or_create(&labels)
                    .inc_by(p.downgraded);
            }
        }
    }
}

/// How a request ended, for [`Metrics::finished`].
pub(crate) struct Finished<'a> {
    pub(crate) route: &'a str,
    pub(crate) status: u16,
    pub(crate) summary: Option<&'a Summary>,
    pub(crate) bytes: u64,
    pub(crate) secs: f64,
    /// Why the response body ended early, if it did.
    pub(crate) cut: Option<&'a str>,
    /// Tool names renamed in the request (the way back's report).
    pub(crate) renamed: u64,
    /// Tool calls restored in the response.
    pub(crate) restored: u64,
}
