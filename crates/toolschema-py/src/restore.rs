//! `toolschema.restore`: a provider's response as the client of the layer sees it (tool names
//! mapped back, strict nulls removed), for a JSON body or an SSE capture: what the CLI's
//! `toolschema restore` prints, through tower-toolschema's `prepare_request` and `RestorePlan`.

use crate::body::config_for;
use crate::errors::ErrorAt;
use crate::input;
use bytes::Bytes;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyTuple};
use tower_toolschema::report::Outcome;
use tower_toolschema::restore::{RestorePlan, prepare_request};
use tower_toolschema::shapes::Api;

/// One tool call of the response: the name the provider `sent`, the `tool`'s own name, whether
/// its arguments were `decoded` (strict nulls removed), and the `error` that left them as they
/// came.
#[pyclass(frozen, get_all, module = "toolschema")]
pub struct RestoredCall {
    /// The name the provider sent.
    pub sent: String,
    /// The tool's own name (the same as `sent` when it was not renamed).
    pub tool: String,
    /// Whether the arguments were decoded (strict nulls removed).
    pub decoded: bool,
    /// Why the arguments could not be decoded (they went on as they came).
    pub error: Option<String>,
}

#[pymethods]
impl RestoredCall {
    /// Whether the name was mapped back.
    #[getter]
    fn renamed(&self) -> bool {
        self.sent != self.tool
    }

    fn __repr__(&self) -> String {
        format!(
            "RestoredCall(sent={:?}, tool={:?}, decoded={}, error={})",
            self.sent,
            self.tool,
            py_bool(self.decoded),
            crate::classes::py_repr(self.error.as_deref())
        )
    }
}

/// What `restore` did: the request's `api`, the tool names it `renamed` (`(original, sent)`
/// pairs, the CLI's `renamed:` lines) and the response's `calls` (its `call` lines).
#[pyclass(frozen, get_all, module = "toolschema")]
pub struct RestoreReport {
    /// The request's API (`openai-chat`, `gemini`, ...).
    pub api: &'static str,
    /// Whether the response was read as an SSE stream.
    pub stream: bool,
    /// Whether the response's bytes changed.
    pub changed: bool,
    /// `(original, sent)` for every tool name the request had to rename.
    pub renamed: Py<PyList>,
    /// The response's tool calls, in order.
    pub calls: Py<PyList>,
}

#[pymethods]
impl RestoreReport {
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "RestoreReport(api={:?}, stream={}, changed={}, renamed={}, calls={})",
            self.api,
            py_bool(self.stream),
            py_bool(self.changed),
            self.renamed.bind(py).len(),
            self.calls.bind(py).len()
        )
    }
}

fn py_bool(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}

/// Whether `bytes` is an SSE capture rather than a JSON body (the CLI's test).
fn is_sse(bytes: &[u8]) -> bool {
    !matches!(
        bytes.iter().find(|b| !b.is_ascii_whitespace()),
        Some(b'{' | b'[') | None
    )
}

/// The response restored by `plan`: its new bytes (`None`: unchanged) and the calls.
fn restore_with(
    plan: &RestorePlan,
    response: &[u8],
) -> Result<
    (
        Option<Vec<u8>>,
        Vec<tower_toolschema::restore::RestoredCall>,
    ),
    String,
> {
    if is_sse(response) {
        let mut stream = plan.stream();
        let mut out = stream.push(response);
        out.extend(stream.finish(false));
        let out = out.concat();
        let calls = stream.take_calls();
        Ok(((out != response).then_some(out), calls))
    } else {
        plan.restore_json(response).map_err(|e| e.to_string())
    }
}

/// Restores a provider's response for the request it answers; see the package docs.
#[pyfunction]
#[pyo3(signature = (request, response, provider = None, api = None))]
pub fn restore<'py>(
    py: Python<'py>,
    request: &Bound<'py, PyAny>,
    response: &Bound<'py, PyAny>,
    provider: Option<&Bound<'py, PyAny>>,
    api: Option<&str>,
) -> PyResult<Bound<'py, PyTuple>> {
    let config = config_for(provider)?;
    let api = api.map(crate::body::api_named).transpose()?;
    let req = input::read(request).map_err(|e| e.into_py_err(py))?;
    let res = input::read(response).map_err(|e| e.into_py_err(py))?;
    let req = Bytes::from(req.into_vec());
    let res_text: &[u8] = res.text();
    let (report, plan, restored) = py.detach(|| {
        let (_, report, plan) = prepare_request(&config, api, req);
        let restored = report.api.is_some().then(|| restore_with(&plan, res_text));
        (report, plan, restored)
    });
    if let Outcome::Skipped(reason) = &report.outcome {
        return Err(
            ErrorAt::root(format!("cannot read the request body: {reason}")).into_py_err(py),
        );
    }
    let (Some(api), Some(restored)) = (report.api, restored) else {
        return Err(
            ErrorAt::root("not a request body of a known API (pass api=...)").into_py_err(py),
        );
    };
    let (out, calls) =
        restored.map_err(|e| ErrorAt::root(format!("the response: {e}")).into_py_err(py))?;
    let changed = out.is_some();
    let body = match out {
        Some(b) => PyBytes::new(py, &b).into_any(),
        None if res.kind == input::Kind::Bytes && response.cast::<PyBytes>().is_ok() => {
            response.clone()
        }
        None => PyBytes::new(py, res_text).into_any(),
    };
    let renamed: Vec<(&str, &str)> = plan.names().pairs().collect();
    let calls: Vec<RestoredCall> = calls
        .into_iter()
        .map(|c| RestoredCall {
            sent: c.sent,
            tool: c.tool,
            decoded: c.decoded,
            error: c.error,
        })
        .collect();
    let report = RestoreReport {
        api: Api::name(api),
        stream: is_sse(res_text),
        changed,
        renamed: PyList::new(py, renamed)?.unbind(),
        calls: PyList::new(py, calls)?.unbind(),
    };
    PyTuple::new(py, [body, Bound::new(py, report)?.into_any()])
}
