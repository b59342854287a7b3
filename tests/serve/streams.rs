//! Streamed answers: the first event before the last, stalls, resets, a client leaving, and
//! shutdown letting a stream finish.

use crate::support::*;
use crate::upstream;
use crate::upstream::{FIRST, LAST};
use serde_json::Value;
use std::time::Duration;

#[tokio::test]
async fn sse_streams_the_first_event_before_the_upstream_sends_the_last() {
    let up = upstream::plain().await;
    let gw = Gateway::to(&up.url).await;
    let mut res = client()
        .post(format!(
            "{}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
            gw.url
        ))
        .header("x-test-mode", "sse")
        .body(body_for(SHAPES[3].2))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "text/event-stream");
    // The upstream holds its last event until it is released, which happens only once the
    // first has arrived here: a gateway that buffered would time out.
    let first = tokio::time::timeout(BOUND, res.chunk())
        .await
        .expect("the first event arrives while the upstream waits")
        .unwrap()
        .unwrap();
    assert_eq!(first, FIRST.as_bytes());
    up.state.release.notify_one();
    let rest = upstream::drain(&mut res).await;
    assert_eq!(rest, LAST.as_bytes());
    gw.stop().await;
}

#[tokio::test]
async fn a_stalled_upstream_is_a_504_and_a_stall_mid_stream_cuts_the_stream() {
    let up = upstream::plain().await;
    let mut s = settings(&up.url);
    s.routes[0].limits.idle_timeout = Duration::from_secs(1);
    let gw = Gateway::start(s).await;
    let res = mode(&gw, "stall").await;
    assert_eq!(res.status(), 504);
    let v: Value = serde_json::from_slice(&res.bytes().await.unwrap()).unwrap();
    assert_eq!(v["error"]["type"], "upstream_timeout", "{v}");

    cut_after_first(mode(&gw, "stall-mid").await).await;
    gw.metrics_with(&[
        r#"toolschema_serve_streams_cut_total{route="/",cause="upstream_timeout"} 1"#,
    ])
    .await;
    gw.stop().await;
}

#[tokio::test]
async fn an_upstream_reset_mid_stream_reaches_the_client_as_an_error_and_serving_goes_on() {
    let up = upstream::plain().await;
    let gw = Gateway::to(&up.url).await;
    cut_after_first(mode(&gw, "reset").await).await;
    let res = mode(&gw, "echo").await;
    assert_eq!(res.status(), 201, "the next request is served");
    gw.metrics_with(&[r#"toolschema_serve_streams_cut_total{route="/",cause="upstream_reset"} 1"#])
        .await;
    gw.stop().await;
}

#[tokio::test]
async fn a_client_leaving_mid_stream_releases_the_upstream() {
    let up = upstream::plain().await;
    let gw = Gateway::to(&up.url).await;
    let mut res = mode(&gw, "sse-forever").await;
    assert_eq!(res.chunk().await.unwrap().unwrap(), FIRST.as_bytes());
    drop(res);
    tokio::time::timeout(BOUND, up.state.gone.notified())
        .await
        .expect("the upstream's stream is dropped when the client leaves");
    gw.metrics_with(&[
        r#"toolschema_serve_streams_cut_total{route="/",cause="client_gone"} 1"#,
        "toolschema_serve_in_flight 0",
    ])
    .await;
    gw.stop().await;
}

#[tokio::test]
async fn shutdown_lets_a_stream_finish_and_refuses_new_connections() {
    let up = upstream::plain().await;
    let gw = Gateway::to(&up.url).await;
    let addr = gw.url.trim_start_matches("http://").to_owned();
    let mut res = mode(&gw, "sse").await;
    assert_eq!(res.chunk().await.unwrap().unwrap(), FIRST.as_bytes());
    let Gateway {
        mut stop, mut task, ..
    } = gw;
    let _ = stop.take().unwrap().send(());
    // The listener closes: a new connection is refused, while the stream is still open.
    let deadline = tokio::time::Instant::now() + BOUND;
    while tokio::net::TcpStream::connect(&addr).await.is_ok() {
        assert!(tokio::time::Instant::now() < deadline, "still accepting");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(!task.is_finished(), "waits for the stream");
    up.state.release.notify_one();
    let rest = upstream::drain(&mut res).await;
    assert_eq!(rest, LAST.as_bytes(), "the stream in flight finished");
    tokio::time::timeout(BOUND, &mut task)
        .await
        .expect("stops once the stream is done")
        .unwrap()
        .unwrap();
}
