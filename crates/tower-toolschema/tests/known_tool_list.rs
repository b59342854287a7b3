//! The request side on a tool list the layer has seen before (the agent's every turn): the
//! way back's needs are the list's, reused with it, and give what reading the list afresh
//! gives — nothing to restore stays nothing (no plan, the response untouched), a renamed tool
//! is still renamed in each turn's own history, a strict tool's decoder still reaches the plan.

use std::convert::Infallible;

use bytes::Bytes;
use http::{Request, Response};
use http_body_util::{BodyExt, Full};
use tower::{Layer, ServiceExt};
use tower_toolschema::restore::{RestorePlan, RestoreReport, prepare_request};
use tower_toolschema::shapes::Api;
use tower_toolschema::{CacheConfig, SanitizeReport, ToolSchemaBody, ToolSchemaLayer};

fn tools(name: &str, strict: bool) -> String {
    let one = |i: usize| {
        format!(
            r#"{{"type":"function","function":{{"name":"{name}{i}","strict":{strict},"parameters":{{"type":"object","properties":{{"q":{{"type":"string"}},"cursor":{{"type":"string"}}}},"required":["q"]}}}}}}"#
        )
    };
    format!("[{}]", (0..5).map(one).collect::<Vec<_>>().join(","))
}

/// A turn: the list, and a history with one earlier call of the first tool (as sent).
fn turn(tools: &str, sent: &str, turn: usize) -> String {
    format!(
        r#"{{"model":"gpt-4o","messages":[{{"role":"user","content":"turn {turn}"}},{{"role":"assistant","tool_calls":[{{"id":"c{turn}","type":"function","function":{{"name":"{sent}","arguments":"{{}}"}}}}]}}],"tools":{tools}}}"#
    )
}

/// One body's result: what is sent, the report, the plan.
type Prepared = (Bytes, SanitizeReport, RestorePlan);

/// Each turn's body, report and plan with one layer (its caches warm from turn to turn), and
/// the same with the caches off (every turn read afresh).
fn both(layer: fn() -> ToolSchemaLayer, bodies: &[String]) -> Vec<[Prepared; 2]> {
    let (warm, cold) = (layer(), layer().cache(CacheConfig::disabled()));
    bodies
        .iter()
        .map(|b| {
            let body = Bytes::from(b.clone());
            [
                prepare_request(warm.config(), Some(Api::OpenAiChat), body.clone()),
                prepare_request(cold.config(), Some(Api::OpenAiChat), body),
            ]
        })
        .collect()
}

/// Four turns over five `search_*` tools (strict or not), each with an earlier call of the first.
fn four_turns(strict: bool) -> (Vec<String>, Vec<[Prepared; 2]>) {
    let list = tools("search_", strict);
    let bodies: Vec<String> = (0..4).map(|t| turn(&list, "search_0", t)).collect();
    let turns = both(ToolSchemaLayer::openai, &bodies);
    (bodies, turns)
}

#[test]
fn nothing_to_restore_on_a_known_list_is_an_empty_plan_and_the_same_bytes() {
    let (bodies, turns) = four_turns(false);
    for (i, [warm, cold]) in turns.into_iter().enumerate() {
        assert_eq!(
            warm.0,
            bodies[i].as_bytes(),
            "turn {i}: the body went on as it came"
        );
        assert!(warm.2.is_empty() && cold.2.is_empty(), "turn {i}");
        assert_eq!(warm.1.slots.len(), 5);
        assert!(warm.1.renames.is_empty() && warm.1.history.is_empty());
        assert_eq!(warm.1.outcome, cold.1.outcome);
    }
    // Nothing copied: the very bytes that came in go on.
    let layer = ToolSchemaLayer::openai();
    for _ in 0..3 {
        let body = Bytes::from(bodies[0].clone());
        let (out, _, plan) = prepare_request(layer.config(), Some(Api::OpenAiChat), body.clone());
        assert!(out.as_ptr() == body.as_ptr() && plan.is_empty());
    }
}

#[test]
fn a_renamed_tool_on_a_known_list_is_renamed_in_every_turns_history() {
    let list = tools("fs.read_", false);
    // Each turn's history names another earlier call (as the client knows it).
    let bodies: Vec<String> = (0..4)
        .map(|t| turn(&list, &format!("fs.read_{t}"), t))
        .collect();
    for (i, [warm, cold]) in both(ToolSchemaLayer::openai, &bodies)
        .into_iter()
        .enumerate()
    {
        assert_eq!(warm.0, cold.0, "turn {i}");
        let sent = String::from_utf8(warm.0.to_vec()).unwrap();
        assert!(
            sent.contains(&format!(r#""name":"fs_read_{i}","arguments""#)),
            "{sent}"
        );
        assert!(!sent.contains("fs.read"), "{sent}");
        assert_eq!(warm.1.renames, cold.1.renames);
        assert_eq!(
            warm.2.original(&format!("fs_read_{i}")),
            Some(format!("fs.read_{i}").as_str())
        );
    }
}

#[test]
fn a_strict_tool_on_a_known_list_keeps_its_decoder_in_the_plan() {
    for (i, [warm, cold]) in four_turns(true).1.into_iter().enumerate() {
        assert_eq!(warm.0, cold.0, "turn {i}");
        // The same reports, but for whether each came from the slot cache.
        let uncached = |r: &SanitizeReport| {
            let mut slots = r.slots.to_vec();
            slots.iter_mut().for_each(|s| s.cached = false);
            slots
        };
        assert_eq!(uncached(&warm.1), uncached(&cold.1), "turn {i}");
        for t in 0..5 {
            let tool = format!("search_{t}");
            let (w, c) = (warm.2.decoder(&tool), cold.2.decoder(&tool));
            assert!(w.is_some(), "turn {i}: {tool} has no decoder");
            assert_eq!(w.map(|d| &d.drop_null), c.map(|d| &d.drop_null));
        }
        let response = r#"{"choices":[{"message":{"tool_calls":[{"id":"c","type":"function","function":{"name":"search_1","arguments":"{\"q\":\"x\",\"cursor\":null}"}}]}}]}"#;
        let (out, _) = warm.2.restore_json(response.as_bytes()).unwrap();
        assert!(
            String::from_utf8(out.unwrap())
                .unwrap()
                .contains(r#""arguments":"{\"q\":\"x\"}""#)
        );
    }
}

#[tokio::test]
async fn through_the_layer_a_known_list_with_nothing_to_restore_leaves_the_response_alone() {
    let upstream = tower::service_fn(|req: Request<ToolSchemaBody<Full<Bytes>>>| async move {
        let _ = req.into_body().collect().await;
        Ok::<_, Infallible>(
            Response::builder()
                .header("content-type", "text/event-stream")
                .body(Full::new(Bytes::from_static(b"data: {\"choices\":[]}\n\n")))
                .unwrap(),
        )
    });
    let svc = ToolSchemaLayer::openai().layer(upstream);
    let body = turn(&tools("search_", false), "search_0", 0);
    for i in 0..4 {
        let req = Request::post("/v1/chat/completions")
            .header("content-type", "application/json")
            .body(Full::new(Bytes::from(body.clone())))
            .unwrap();
        let res = svc.clone().oneshot(req).await.unwrap();
        assert!(
            res.extensions().get::<RestoreReport>().is_none(),
            "request {i}"
        );
        let got = res.into_body().collect().await.unwrap().to_bytes();
        assert_eq!(&got[..], b"data: {\"choices\":[]}\n\n");
    }
}
