//! `toolschema.sanitize_body`: a whole request body, as the CLI and the tower layer do it.

use crate::classes::{Change, change_list};
use crate::errors::ErrorAt;
use crate::from_json::to_python;
use crate::input::{self, Kind};
use crate::profile::{self, Profile};
use bytes::Bytes;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock, PoisonError};
use tower_toolschema::report::Outcome;
use tower_toolschema::shapes::{Api, SHAPES};
use tower_toolschema::{Config, Target};

/// One schema slot of a body: where (`pointer`), whose (`tool`), the `profile` applied, the
/// `changes`, and what went wrong (`error`, `strict_downgraded`, `tool_name_problem`).
#[pyclass(frozen, get_all, module = "toolschema")]
pub struct BodySlot {
    /// JSON pointer of the slot in the body.
    pub pointer: String,
    /// The tool (or response format) name.
    pub tool: Option<String>,
    /// The profile applied.
    pub profile: String,
    /// The changes made (empty: the slot went on byte-identical).
    pub changes: Py<PyList>,
    /// The tool asked for strict mode and was sent with `strict: false`.
    pub strict_downgraded: bool,
    /// The tool's name is invalid for the target (reported, not renamed).
    pub tool_name_problem: Option<String>,
    /// The slot could not be sanitized; it went on untouched.
    pub error: Option<String>,
    /// The result came from the sanitized-slot cache (an earlier call had the same slot).
    pub cached: bool,
}

#[pymethods]
impl BodySlot {
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "BodySlot(pointer={:?}, tool={}, profile={:?}, changes={})",
            self.pointer,
            crate::classes::py_repr(self.tool.as_deref()),
            self.profile,
            self.changes.bind(py).len()
        )
    }
}

/// What `sanitize_body` returns: the `body` to send (of the input's type; the very input object
/// when nothing changed), the `api` it was read as, and one `slots` entry per schema slot.
#[pyclass(frozen, get_all, module = "toolschema")]
pub struct SanitizedBody {
    /// The body to send.
    pub body: Py<PyAny>,
    /// Whether a slot was rewritten.
    pub changed: bool,
    /// The API shape (`"openai-chat"`, `"gemini"`, ...), if recognised.
    pub api: Option<&'static str>,
    /// Every schema slot found, in body order.
    pub slots: Py<PyList>,
}

#[pymethods]
impl SanitizedBody {
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "SanitizedBody(api={}, changed={}, slots={})",
            crate::classes::py_repr(self.api),
            if self.changed { "True" } else { "False" },
            self.slots.bind(py).len()
        )
    }
}

/// Sanitizes the schema slots of one request body; see the package docs.
#[pyfunction]
#[pyo3(signature = (body, provider = None, api = None))]
pub fn sanitize_body(
    py: Python<'_>,
    body: &Bound<'_, PyAny>,
    provider: Option<&Bound<'_, PyAny>>,
    api: Option<&str>,
) -> PyResult<SanitizedBody> {
    let config = config_for(provider)?;
    let api = api.map(api_named).transpose()?;
    let read = input::read(body).map_err(|e| e.into_py_err(py))?;
    let kind = read.kind;
    let bytes = Bytes::from(read.into_vec());
    let before = bytes.clone();
    let (out, report) = py.detach(|| tower_toolschema::sanitize_body(&config, api, bytes));
    if let Outcome::Skipped(reason) = &report.outcome {
        return Err(
            ErrorAt::root(format!("cannot read the request body: {reason}")).into_py_err(py),
        );
    }
    let changed = out != before;
    let body_out = if !changed {
        body.clone().unbind()
    } else {
        match kind {
            Kind::Bytes => PyBytes::new(py, &out).into_any().unbind(),
            Kind::Str => PyString::new(py, &String::from_utf8_lossy(&out))
                .into_any()
                .unbind(),
            Kind::Value => to_python(py, &String::from_utf8_lossy(&out))?.unbind(),
        }
    };
    let mut slots = Vec::with_capacity(report.slots.len());
    for s in &report.slots {
        let changes: Vec<Change> = s.changes.iter().map(Change::from).collect();
        slots.push(BodySlot {
            pointer: s.pointer.to_string(),
            tool: s.tool.as_deref().map(str::to_owned),
            profile: s.profile.to_string(),
            changes: change_list(py, &changes)?.unbind(),
            strict_downgraded: s.strict_downgraded,
            tool_name_problem: s.tool_name_problem.clone(),
            error: s.error.clone(),
            cached: s.cached,
        });
    }
    Ok(SanitizedBody {
        body: body_out,
        changed,
        api: report.api.map(Api::name),
        slots: PyList::new(py, slots)?.unbind(),
    })
}

/// The layer configuration for a `provider=` argument, made once per provider and profile so
/// that its sanitized-slot cache serves every later call (agents send the same tools on every
/// turn): a hit costs one hash and one comparison of the slot's bytes.
pub(crate) fn config_for(provider: Option<&Bound<'_, PyAny>>) -> PyResult<Config> {
    static BY_NAME: OnceLock<Mutex<HashMap<String, Config>>> = OnceLock::new();
    let Some(p) = provider.filter(|p| !p.is_none()) else {
        static AUTO: OnceLock<Config> = OnceLock::new();
        return Ok(AUTO.get_or_init(|| Config::new(Target::Auto)).clone());
    };
    if let Ok(profile) = p.cast::<Profile>() {
        let profile = profile.get();
        return Ok(profile
            .body_config
            .get_or_init(|| Config::new(Target::Fixed(profile.chosen.body_profiles())))
            .clone());
    }
    let chosen = profile::chosen(Some(p), "gemini")?;
    let name = chosen.rules().name().to_owned();
    let mut configs = BY_NAME
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    Ok(configs
        .entry(name)
        .or_insert_with(|| Config::new(Target::Fixed(chosen.body_profiles())))
        .clone())
}

/// An API by its name, or the error listing the names.
pub(crate) fn api_named(name: &str) -> PyResult<Api> {
    Api::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = SHAPES.iter().map(|s| s.api.name()).collect();
        PyValueError::new_err(format!(
            "unknown api {name:?}; valid apis: {}",
            names.join(", ")
        ))
    })
}
