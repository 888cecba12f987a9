//! A Python callable as a tokenizer: `Scorer(tokenizer=fn)`, for the tokenizers people run
//! in Python (Stanza, spaCy, KoNLPy, SentencePiece...). `fn(text) -> iterable of str`.
//!
//! The engine counts on rayon threads without the GIL; each call takes the GIL for the call
//! and its result only, so Python code runs one call at a time while the counting around it
//! stays parallel. The signature names the callable (its `name` attribute, or module and
//! qualified name) and its version (its `version` attribute, or its module's `__version__`),
//! because a different tokenizer version can change a score.
//!
//! An exception that is not an `Exception` (`KeyboardInterrupt`, `SystemExit`) asks the
//! program to stop rather than saying the tokenizer failed: it is kept, scoring stops at the
//! next check, and the caller raises it unchanged (see [`Callable::take_stop`]).

use std::sync::{Mutex, PoisonError};

use green_engine::{TokenizeError, Tokenizer};
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::PyString;

pub(crate) struct Callable {
    func: Py<PyAny>,
    name: String,
    /// The first exception raised to stop the program, to re-raise as it is.
    stop: Mutex<Option<PyErr>>,
}

impl Callable {
    pub(crate) fn new(func: &Bound<'_, PyAny>) -> PyResult<Callable> {
        let text = |obj: PyResult<Bound<'_, PyAny>>| -> Option<String> {
            obj.ok()
                .filter(|o| !o.is_none())?
                .str()
                .ok()
                .map(|s| s.to_string())
        };
        let name = text(func.getattr("name")).unwrap_or_else(|| {
            let module = text(func.getattr("__module__")).unwrap_or_default();
            let qualname = text(func.getattr("__qualname__"))
                .or_else(|| text(func.get_type().getattr("__qualname__")))
                .unwrap_or_else(|| "callable".into());
            if module.is_empty() {
                qualname
            } else {
                format!("{module}.{qualname}")
            }
        });
        let module = func
            .getattr("__module__")
            .ok()
            .and_then(|m| m.extract::<String>().ok())
            .and_then(|m| {
                func.py()
                    .import(m.split('.').next().unwrap_or_default())
                    .ok()
            });
        let version = text(func.getattr("version"))
            .or_else(|| module.and_then(|m| text(m.getattr("__version__"))));
        let name = match version {
            Some(v) => format!("py:{name}@{v}"),
            None => format!("py:{name}"),
        };
        Ok(Callable {
            func: func.clone().unbind(),
            name: name.replace(['|', ' '], "_"),
            stop: Mutex::new(None),
        })
    }

    /// The Python callable itself.
    pub(crate) fn func(&self) -> &Py<PyAny> {
        &self.func
    }

    /// The exception a call raised to stop the program (`KeyboardInterrupt`...), if any: the
    /// error to raise instead of the tokenizer failure it caused.
    pub(crate) fn take_stop(&self) -> Option<PyErr> {
        self.stop
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }
}

impl Tokenizer for Callable {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn tokenize(&self, text: &str, sink: &mut dyn FnMut(&str)) -> Result<(), TokenizeError> {
        Python::attach(|py| {
            let fail = |e: PyErr| {
                if !e.is_instance_of::<PyException>(py) {
                    let mut stop = self.stop.lock().unwrap_or_else(PoisonError::into_inner);
                    stop.get_or_insert(e.clone_ref(py));
                }
                TokenizeError::new(format!("{} raised {e}", self.name))
            };
            let out = self.func.call1(py, (text,)).map_err(fail)?.into_bound(py);
            if out.is_instance_of::<PyString>() {
                return Err(TokenizeError::new(format!(
                    "{} returned a str; return a list of tokens (str)",
                    self.name
                )));
            }
            for token in out.try_iter().map_err(fail)? {
                let token = token.map_err(fail)?;
                let token = token.cast::<PyString>().map_err(|_| {
                    TokenizeError::new(format!(
                        "{} returned a token of type {}; tokens must be str",
                        self.name,
                        token
                            .get_type()
                            .name()
                            .map(|n| n.to_string())
                            .unwrap_or_default()
                    ))
                })?;
                sink(&token.to_cow().map_err(fail)?);
            }
            Ok(())
        })
    }
}
