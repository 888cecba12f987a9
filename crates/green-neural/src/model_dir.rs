//! A Hugging Face model directory on disk: `config.json` and one weights file, read as they are.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use candle_core::{DType, Device};
use candle_nn::VarBuilder;
use sha2::{Digest, Sha256};

use crate::error::{Error, ErrorKind, Result};

/// The weights files read, in order of preference.
const WEIGHTS: [&str; 2] = ["model.safetensors", "pytorch_model.bin"];

/// A model directory as `save_pretrained` writes it; only the files it names are read.
#[derive(Debug, Clone)]
pub struct ModelDir {
    pub path: PathBuf,
    /// `config.json`, parsed.
    pub config: serde_json::Value,
    /// The weights file found ([`WEIGHTS`]).
    pub weights: PathBuf,
}

impl ModelDir {
    /// Opens `path`, checking that `config.json` and a weights file are there.
    pub fn open(path: &Path) -> Result<Self> {
        if !path.is_dir() {
            return Err(Error::new(
                ErrorKind::Missing,
                path,
                "no such model directory; give a directory holding config.json and model.safetensors (or pytorch_model.bin)",
            ));
        }
        let config_path = path.join("config.json");
        let text = fs::read_to_string(&config_path).map_err(|e| {
            Error::new(
                ErrorKind::Missing,
                &config_path,
                format!(
                    "cannot read the model's config ({e}); a Hugging Face model directory has one"
                ),
            )
        })?;
        let config = serde_json::from_str(&text).map_err(|e| {
            Error::new(
                ErrorKind::Unreadable,
                &config_path,
                format!("not valid JSON ({e})"),
            )
        })?;
        let weights = WEIGHTS
            .iter()
            .map(|name| path.join(name))
            .find(|p| p.is_file())
            .ok_or_else(|| {
                let sharded = path.join("model.safetensors.index.json").is_file()
                    || path.join("pytorch_model.bin.index.json").is_file();
                let what = if sharded {
                    "weights split into shards are not read; save the model in one file (model.safetensors)"
                } else {
                    "no weights file; expected model.safetensors or pytorch_model.bin"
                };
                Error::new(ErrorKind::Missing, path, what)
            })?;
        Ok(ModelDir {
            path: path.to_owned(),
            config,
            weights,
        })
    }

    /// The weights as f32 tensors on `device`.
    pub fn var_builder(&self, device: &Device) -> Result<VarBuilder<'static>> {
        let unreadable = |e: candle_core::Error| {
            Error::new(
                ErrorKind::Unreadable,
                &self.weights,
                format!("cannot read the weights ({e})"),
            )
        };
        if self.weights.extension().is_some_and(|e| e == "safetensors") {
            let bytes = fs::read(&self.weights)
                .map_err(|e| Error::new(ErrorKind::Unreadable, &self.weights, e.to_string()))?;
            VarBuilder::from_buffered_safetensors(bytes, DType::F32, device).map_err(unreadable)
        } else {
            VarBuilder::from_pth(&self.weights, DType::F32, device).map_err(|e| {
                Error::new(
                    ErrorKind::Unreadable,
                    &self.weights,
                    format!("cannot read the weights ({e}); a checkpoint saved by torch < 1.6 is not readable here: convert it to model.safetensors"),
                )
            })
        }
    }

    /// A string field of `config.json`.
    pub fn config_str(&self, key: &str) -> Option<&str> {
        self.config.get(key).and_then(|v| v.as_str())
    }

    /// A whole-number field of `config.json`.
    pub fn config_usize(&self, key: &str) -> Option<usize> {
        self.config
            .get(key)
            .and_then(|v| v.as_u64())
            .and_then(|v| usize::try_from(v).ok())
    }

    /// The files that define the model, for [`digest`].
    pub fn files(&self) -> Vec<PathBuf> {
        vec![self.path.join("config.json"), self.weights.clone()]
    }
}

/// SHA-256 of files' names and bytes, in hex: what a signature names a model by.
pub fn digest(files: &[PathBuf]) -> Result<String> {
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    for path in files {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        hasher.update(name.unwrap_or_default().as_bytes());
        hasher.update([0]);
        let mut file = fs::File::open(path)
            .map_err(|e| Error::new(ErrorKind::Unreadable, path, e.to_string()))?;
        loop {
            let n = file
                .read(&mut buf)
                .map_err(|e| Error::new(ErrorKind::Unreadable, path, e.to_string()))?;
            if n == 0 {
                break;
            }
            hasher.update(&buf[..n]);
        }
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}
