//! `toolschema.Profile` and how a `provider=` argument is read (a name or a `Profile`).

use crate::from_json::to_python;
use crate::providers::{self, Chosen};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyString;
use std::sync::Arc;

pyo3::create_exception!(
    toolschema,
    ProfileError,
    PyValueError,
    "A provider name that names no built-in profile, or profile text that is not a valid profile."
);

/// A profile: a built-in (`Profile.builtin("gemini")`) or a custom one loaded from TOML or
/// JSON text (`Profile.from_toml('extends = "gemini"\nadditional-properties = "keep"')`).
/// Pass it wherever a provider name goes.
#[pyclass(frozen, module = "toolschema")]
pub struct Profile {
    pub(crate) chosen: Chosen,
    /// The request-body configuration (and its cache), made on first use.
    pub(crate) body_config: std::sync::OnceLock<tower_toolschema::Config>,
}

impl Profile {
    fn new(chosen: Chosen) -> Profile {
        Profile {
            chosen,
            body_config: std::sync::OnceLock::new(),
        }
    }
}

#[pymethods]
impl Profile {
    /// A built-in profile by name (or a provider's, as `provider=` takes it).
    #[staticmethod]
    fn builtin(name: &str) -> PyResult<Profile> {
        Ok(Profile::new(by_name(name)?))
    }

    /// A profile from TOML text: a built-in named by `extends` plus the fields to override, or
    /// a whole profile (what `toolschema.rules(name, format="toml")` prints).
    #[staticmethod]
    fn from_toml(text: &str) -> PyResult<Profile> {
        providers::from_toml(text)
            .map(|r| Profile::new(Chosen::Custom(Arc::new(r))))
            .map_err(|e| ProfileError::new_err(e.to_string()))
    }

    /// A profile from JSON text (the same fields as TOML).
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Profile> {
        providers::from_json(text)
            .map(|r| Profile::new(Chosen::Custom(Arc::new(r))))
            .map_err(|e| ProfileError::new_err(e.to_string()))
    }

    /// The profile's name.
    #[getter]
    fn name(&self) -> &str {
        self.chosen.rules().name()
    }

    /// The profile as TOML text (loadable with `Profile.from_toml`).
    fn to_toml(&self) -> PyResult<String> {
        written(self.chosen.rules().to_toml())
    }

    /// The profile as JSON text.
    fn to_json(&self) -> PyResult<String> {
        written(self.chosen.rules().to_json())
    }

    /// The profile's fields as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_python(py, &written(self.chosen.rules().to_json())?)
    }

    fn __repr__(&self) -> String {
        format!("Profile({:?})", self.chosen.rules().name())
    }
}

/// A profile or provider by name, as the CLI's `--provider` takes it, or the error listing the
/// valid names.
pub fn by_name(name: &str) -> PyResult<Chosen> {
    providers::lookup(name).ok_or_else(|| {
        ProfileError::new_err(format!(
            "unknown provider {name:?}; valid providers: {}",
            providers::accepted().join(", ")
        ))
    })
}

/// Every name [`by_name`] takes, as an interned `str` and as text, with its profile: looked
/// up once per process.
static NAMED: PyOnceLock<Vec<Named>> = PyOnceLock::new();

/// One name of [`NAMED`]: the interned `str`, its text, its profile and the `str`'s hash.
type Named = (Py<PyString>, &'static str, Chosen, isize);

/// The profile a `str` names: an interned name (an identifier-like literal: `"gemini"`) is
/// found by identity, any other exact name by its hash (which the `str` keeps once computed)
/// and equality, and other spellings (case, spaces) as [`by_name`] reads them.
fn named(s: &Bound<'_, PyString>) -> PyResult<Chosen> {
    let py = s.py();
    let table = NAMED.get_or_init(py, || {
        providers::accepted()
            .into_iter()
            .filter_map(|n| {
                let name = PyString::intern(py, n);
                let hash = name.hash().ok()?;
                Some((name.unbind(), n, providers::lookup(n)?, hash))
            })
            .collect()
    });
    if let Some((_, _, chosen, _)) = table.iter().find(|(name, ..)| s.is(name.bind(py))) {
        return Ok(chosen.clone());
    }
    let hash = s.hash()?;
    let same = |name: &Py<PyString>| s.as_any().eq(name.bind(py)).unwrap_or(false);
    if let Some((_, _, chosen, _)) = table
        .iter()
        .find(|(name, _, _, h)| *h == hash && same(name))
    {
        return Ok(chosen.clone());
    }
    by_name(&s.to_cow()?)
}

/// Reads a `provider=` argument: a built-in name or a [`Profile`]; `None` is `default`.
pub fn chosen(provider: Option<&Bound<'_, PyAny>>, default: &str) -> PyResult<Chosen> {
    match provider {
        None => by_name(default),
        Some(p) if p.is_none() => by_name(default),
        Some(p) => {
            if let Ok(s) = p.cast::<PyString>() {
                return named(s);
            }
            match p.cast::<Profile>() {
                Ok(profile) => Ok(profile.get().chosen.clone()),
                Err(_) => Err(ProfileError::new_err(
                    "provider must be a profile name (str) or a toolschema.Profile",
                )),
            }
        }
    }
}

/// Reads a `slot=` argument.
pub fn slot(name: &str) -> PyResult<provider_rules::Slot> {
    match name {
        "parameters" => Ok(provider_rules::Slot::Parameters),
        "schema" => Ok(provider_rules::Slot::Schema),
        other => Err(PyValueError::new_err(format!(
            "unknown slot {other:?}: \"parameters\" (a tool's input schema) or \"schema\" (a tool's output or a response format)"
        ))),
    }
}

/// A profile written as text, or the reason it cannot be (a [`ProfileError`]).
pub(crate) fn written(text: Result<String, provider_rules::RulesError>) -> PyResult<String> {
    text.map_err(|e| ProfileError::new_err(e.to_string()))
}
