//! What the proxy knows and decides, without any I/O: each line from the client or the server
//! goes in, the lines to send each way come out. The async loop ([`super::proxy`]) only wires
//! this to the transports.

use super::call::{self, Call};
use super::errors;
use super::list::{self, Tool};
use super::message::{self, Envelope, Parsed};
use super::names::NameMap;
use crate::cli::input::splice;
use provider_rules::{Rules, SanitizeOptions};
use serde_json::value::RawValue;
use std::collections::{HashMap, HashSet};

/// At most this many pages are read when the proxy lists the tools itself.
const MAX_PAGES: usize = 1000;

/// A message for the server.
#[derive(Debug)]
pub struct Outgoing {
    /// Its text (one line).
    pub line: String,
    /// The ids (JSON text) of the requests in it, to answer if it cannot be delivered.
    pub ids: Vec<String>,
    /// It carries `notifications/initialized`: the session is open.
    pub initialized: bool,
}

/// What one line leads to.
#[derive(Debug, Default)]
pub struct Step {
    /// Lines for the server.
    pub to_server: Vec<Outgoing>,
    /// Lines for the client.
    pub to_client: Vec<String>,
    /// The protocol version the server chose (from its `initialize` answer).
    pub protocol_version: Option<String>,
    /// Lines for standard error (each said once per process).
    pub notes: Vec<String>,
}

/// The proxy's own listing after `notifications/tools/list_changed`.
#[derive(Debug)]
struct Relist {
    id: String,
    tools: HashMap<String, Tool>,
    cursors: HashSet<String>,
    pages: usize,
}

/// The proxy's state: the provider's rules, the names, the tools as the server listed them,
/// and the requests whose answers it must read.
pub struct Session {
    rules: Rules,
    options: SanitizeOptions,
    names: NameMap,
    tools: HashMap<String, Tool>,
    pending_lists: HashSet<String>,
    init_id: Option<String>,
    server_tools: bool,
    relist: Option<Relist>,
    next_own: u64,
    said: HashSet<String>,
}

/// What became of one message of a line.
enum Part {
    /// Goes on as it is.
    Same,
    /// Goes on edited.
    Edited(String),
    /// Not forwarded (answered, or the proxy's own).
    Gone,
}

impl Session {
    /// A session applying `rules` (without encodings: [`Session::options`]).
    pub fn new(rules: Rules) -> Session {
        Session {
            names: NameMap::new(&rules),
            rules,
            options: SanitizeOptions::default(),
            tools: HashMap::new(),
            pending_lists: HashSet::new(),
            init_id: None,
            server_tools: false,
            relist: None,
            next_own: 1,
            said: HashSet::new(),
        }
    }

    /// The session with `options` (encodings on: `tools/list` speaks the encoded form and
    /// every `tools/call`'s arguments are decoded before they reach the server).
    pub fn options(mut self, options: SanitizeOptions) -> Session {
        self.options = options;
        self
    }

    /// Whether `initialize` or a listing (the proxy's own or the client's) is being answered:
    /// client lines wait until it is, so a call meets the tools it names.
    pub fn waiting(&self) -> bool {
        self.init_id.is_some() || self.relist.is_some() || !self.pending_lists.is_empty()
    }

    /// A line from the client.
    pub fn client_line(&mut self, line: String) -> Step {
        let mut step = Step::default();
        if !line.contains("tools/") && !line.contains("initialize") {
            step.to_server.push(Outgoing {
                line,
                ids: Vec::new(),
                initialized: false,
            });
            return step;
        }
        let mut ids = Vec::new();
        let mut initialized = false;
        let out = match message::parse(&line) {
            None => None,
            Some(parsed) => self.each(&line, parsed, &mut step, |s, text, raw, step| {
                let Some(env) = message::envelope(raw) else {
                    return Part::Same;
                };
                initialized |= env.method.as_deref() == Some("notifications/initialized");
                let part = s.client_message(text, &env, step);
                // The requests that go on (not those the proxy answered), to answer if they
                // cannot be delivered.
                if env.is_request()
                    && !matches!(part, Part::Gone)
                    && let Some(id) = env.id_key()
                {
                    ids.push(id);
                }
                part
            }),
        };
        // The answers the proxy gave to calls of a batch go back as a batch of their own.
        if message::is_batch(&line) && !step.to_client.is_empty() {
            step.to_client = vec![message::join(&step.to_client, true)];
        }
        let line = match out {
            None => Some(line),
            Some(Some(edited)) => Some(edited),
            Some(None) => None,
        };
        if let Some(line) = line {
            step.to_server.push(Outgoing {
                line,
                ids,
                initialized,
            });
        }
        // The session is open: list the tools at once, so no call goes unchecked for want of a
        // listing the client has not asked for yet.
        if initialized && self.server_tools {
            self.start_relist(&mut step);
        }
        step
    }

    fn client_message(&mut self, text: &str, env: &Envelope<'_>, step: &mut Step) -> Part {
        let (Some(method), Some(id)) = (env.method.as_deref(), env.id_key()) else {
            return Part::Same;
        };
        match method {
            "initialize" => self.init_id = Some(id),
            "tools/list" => {
                self.pending_lists.insert(id);
            }
            "tools/call" => {
                let Some(params) = env.params else {
                    return Part::Same;
                };
                match call::handle(text, &id, params, &self.tools) {
                    Call::Forward(edits) if edits.is_empty() => {}
                    Call::Forward(edits) => return Part::Edited(splice(text, edits)),
                    Call::Answer(resp) => {
                        step.to_client.push(resp);
                        return Part::Gone;
                    }
                    Call::Unknown(name) => self.note(step, errors::unknown_tool(&name)),
                }
            }
            _ => {}
        }
        Part::Same
    }

    /// A line from the server.
    pub fn server_line(&mut self, line: String) -> Step {
        let mut step = Step::default();
        if !message::looks_like_json(&line) {
            self.note(&mut step, errors::not_json_rpc(&line));
            return step;
        }
        let watching =
            !self.pending_lists.is_empty() || self.init_id.is_some() || self.relist.is_some();
        if !watching && !line.contains("list_changed") {
            step.to_client.push(line);
            return step;
        }
        let out = match message::parse(&line) {
            None => {
                self.note(&mut step, errors::not_json_rpc(&line));
                return step;
            }
            Some(parsed) => {
                self.each(
                    &line,
                    parsed,
                    &mut step,
                    |s, text, raw, step| match message::envelope(raw) {
                        Some(env) => s.server_message(text, &env, step),
                        None => Part::Same,
                    },
                )
            }
        };
        match out {
            None => step.to_client.push(line),
            Some(Some(edited)) => step.to_client.push(edited),
            Some(None) => {}
        }
        step
    }

    fn server_message(&mut self, text: &str, env: &Envelope<'_>, step: &mut Step) -> Part {
        if env.method.as_deref() == Some("notifications/tools/list_changed") {
            self.start_relist(step);
            return Part::Same;
        }
        if env.method.is_some() {
            return Part::Same;
        }
        let Some(id) = env.id_key() else {
            return Part::Same;
        };
        if self.init_id.as_deref() == Some(&id) {
            self.init_id = None;
            let init = env.result.and_then(init_result);
            self.server_tools = init.as_ref().is_some_and(|i| i.tools);
            step.protocol_version = init.and_then(|i| i.protocol_version);
            return Part::Same;
        }
        if self.relist.as_ref().is_some_and(|r| r.id == id) {
            self.relist_page(env.result, step);
            return Part::Gone;
        }
        if self.pending_lists.remove(&id) {
            let Some(result) = env.result else {
                return Part::Same;
            };
            let page = list::rewrite(
                text,
                result,
                &self.rules,
                &self.options,
                &mut self.names,
                list::Purpose::Rewrite,
            );
            for n in page.notes {
                self.note(step, n);
            }
            self.tools.extend(page.tools);
            if !page.edits.is_empty() {
                return Part::Edited(splice(text, page.edits));
            }
        }
        Part::Same
    }

    /// Applies `f` to each message of a line; the line to pass on: `None` unchanged,
    /// `Some(None)` nothing left, `Some(Some(text))` edited.
    fn each(
        &mut self,
        line: &str,
        parsed: Parsed<'_>,
        step: &mut Step,
        mut f: impl FnMut(&mut Session, &str, &RawValue, &mut Step) -> Part,
    ) -> Option<Option<String>> {
        match parsed {
            Parsed::One(raw) => match f(self, line, raw, step) {
                Part::Same => None,
                Part::Edited(t) => Some(Some(t)),
                Part::Gone => Some(None),
            },
            Parsed::Batch(items) => {
                let mut parts = Vec::with_capacity(items.len());
                let mut changed = false;
                for raw in items {
                    match f(self, raw.get(), raw, step) {
                        Part::Same => parts.push(raw.get().to_owned()),
                        Part::Edited(t) => {
                            changed = true;
                            parts.push(t);
                        }
                        Part::Gone => changed = true,
                    }
                }
                match (changed, parts.is_empty()) {
                    (false, _) => None,
                    (true, true) => Some(None),
                    (true, false) => Some(Some(message::join(&parts, true))),
                }
            }
        }
    }

    fn own_list_request(&mut self, cursor: Option<&str>) -> (String, Outgoing) {
        let id = message::json_string(&format!("toolschema-mcp-{}", self.next_own));
        self.next_own += 1;
        let params = match cursor {
            Some(c) => format!("{{\"cursor\":{}}}", message::json_string(c)),
            None => "{}".to_owned(),
        };
        let line = message::request(&id, "tools/list", &params);
        (
            id.clone(),
            Outgoing {
                line,
                ids: vec![id],
                initialized: false,
            },
        )
    }

    fn start_relist(&mut self, step: &mut Step) {
        if self.relist.is_some() {
            return;
        }
        let (id, out) = self.own_list_request(None);
        step.to_server.push(out);
        self.relist = Some(Relist {
            id,
            tools: HashMap::new(),
            cursors: HashSet::new(),
            pages: 0,
        });
    }

    fn relist_page(&mut self, result: Option<&RawValue>, step: &mut Step) {
        let Some(result) = result else {
            self.abandon_relist(step, "the server answered tools/list with an error");
            return;
        };
        let page = list::rewrite(
            result.get(),
            result,
            &self.rules,
            &self.options,
            &mut self.names,
            list::Purpose::Read,
        );
        let Some(mut relist) = self.relist.take() else {
            return;
        };
        relist.tools.extend(page.tools);
        relist.pages += 1;
        match page.next_cursor {
            Some(c) if relist.pages < MAX_PAGES && relist.cursors.insert(c.clone()) => {
                let (id, out) = self.own_list_request(Some(&c));
                relist.id = id;
                step.to_server.push(out);
                self.relist = Some(relist);
            }
            _ => self.tools = relist.tools,
        }
    }

    /// Gives up the proxy's own listing (no answer in time, or an error); the previous tools stay.
    pub fn abandon_relist(&mut self, step: &mut Step, cause: &str) {
        if self.relist.take().is_some() {
            step.notes.push(errors::relist_abandoned(cause));
        }
    }

    /// Answers requests that could not be delivered to the server.
    pub fn undelivered(&mut self, ids: &[String], reason: &str) -> Step {
        let mut step = Step::default();
        for id in ids {
            self.pending_lists.remove(id);
            if self.init_id.as_deref() == Some(id) {
                self.init_id = None;
            }
            if self.relist.as_ref().is_some_and(|r| &r.id == id) {
                self.abandon_relist(&mut step, reason);
                continue;
            }
            step.to_client
                .push(message::error(id, errors::UPSTREAM_ERROR, reason));
        }
        step
    }

    fn note(&mut self, step: &mut Step, text: String) {
        if self.said.insert(text.clone()) {
            step.notes.push(text);
        }
    }
}

/// What the proxy reads of the server's `initialize` answer.
struct Init {
    protocol_version: Option<String>,
    /// The server offers tools (`capabilities.tools`).
    tools: bool,
}

fn init_result(result: &RawValue) -> Option<Init> {
    #[derive(serde::Deserialize)]
    struct Caps<'a> {
        #[serde(borrow, default)]
        tools: Option<&'a RawValue>,
    }
    #[derive(serde::Deserialize)]
    struct Raw<'a> {
        #[serde(rename = "protocolVersion", default)]
        protocol_version: Option<String>,
        #[serde(borrow, default)]
        capabilities: Option<Caps<'a>>,
    }
    let raw: Raw<'_> = serde_json::from_str(result.get()).ok()?;
    Some(Init {
        protocol_version: raw.protocol_version,
        tools: raw.capabilities.is_some_and(|c| c.tools.is_some()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed(rules: Rules) -> Session {
        let mut s = Session::new(rules);
        s.client_line(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#.to_owned());
        assert!(s.waiting());
        let step = s.server_line(
            r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"get weather","inputSchema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}]}}"#
                .to_owned(),
        );
        assert!(!s.waiting());
        assert!(
            step.to_client[0].contains(r#""name":"get_weather""#),
            "{:?}",
            step.to_client
        );
        s
    }

    #[test]
    fn a_batch_goes_on_without_the_calls_the_proxy_answered() {
        let mut s = listed(Rules::OPENAI);
        let step = s.client_line(
            r#"[{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_weather","arguments":{}}},{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Oslo"}}}]"#
                .to_owned(),
        );
        assert_eq!(step.to_server.len(), 1);
        assert_eq!(
            step.to_server[0].line,
            r#"[{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get weather","arguments":{"city":"Oslo"}}}]"#
        );
        assert_eq!(step.to_server[0].ids, vec!["3".to_owned()]);
        assert_eq!(step.to_client.len(), 1);
        assert!(step.to_client[0].starts_with(r#"[{"jsonrpc":"2.0","id":2,"result":"#));
    }

    #[test]
    fn what_the_proxy_does_not_read_goes_on_as_the_same_string() {
        let mut s = listed(Rules::GEMINI);
        let line = r#"{"jsonrpc":"2.0","id":9,"method":"resources/read","params":{"uri":"x"}}"#;
        let step = s.client_line(line.to_owned());
        assert_eq!(step.to_server[0].line, line);
        let back = r#"{"jsonrpc":"2.0","id":9,"result":{"contents":[]}}"#;
        assert_eq!(
            s.server_line(back.to_owned()).to_client,
            vec![back.to_owned()]
        );
    }

    #[test]
    fn list_changed_starts_the_proxy_s_own_listing_which_the_client_never_sees() {
        let mut s = listed(Rules::GEMINI);
        let step = s.server_line(
            r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#.to_owned(),
        );
        assert_eq!(step.to_client.len(), 1);
        assert!(step.to_server[0].line.contains(r#""method":"tools/list""#));
        assert!(s.waiting());
        let step = s.server_line(
            r#"{"jsonrpc":"2.0","id":"toolschema-mcp-1","result":{"tools":[{"name":"new tool","inputSchema":{"type":"object"}}],"nextCursor":"p2"}}"#
                .to_owned(),
        );
        assert!(step.to_client.is_empty());
        assert!(step.to_server[0].line.contains(r#""cursor":"p2""#));
        let step = s.server_line(
            r#"{"jsonrpc":"2.0","id":"toolschema-mcp-2","result":{"tools":[]}}"#.to_owned(),
        );
        assert!(step.to_client.is_empty() && step.to_server.is_empty());
        assert!(!s.waiting());
        assert!(s.tools.contains_key("new_tool") && !s.tools.contains_key("get_weather"));
    }
}
