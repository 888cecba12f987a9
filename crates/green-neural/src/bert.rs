//! BERT as `transformers` runs it in evaluation mode: embeddings, post-norm encoder layers
//! with exact (erf) GELU ([`Encoder`], the last hidden states), and on top of it
//! `BertForSequenceClassification` with one output ([`Regressor`]: the pooler's tanh over
//! `[CLS]` and a linear head).

use candle_core::{DType, Device, Module, Tensor};
use candle_nn::{embedding, layer_norm, linear, Embedding, LayerNorm, Linear, VarBuilder};

use crate::error::{Error, ErrorKind, Result};
use crate::wordpiece::Encoded;
use crate::ModelDir;

/// The shapes read from `config.json`.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    pub vocab_size: usize,
    pub hidden_size: usize,
    pub num_hidden_layers: usize,
    pub num_attention_heads: usize,
    pub intermediate_size: usize,
    pub max_position_embeddings: usize,
    pub type_vocab_size: usize,
    pub layer_norm_eps: f64,
    gelu_tanh: bool,
}

impl Config {
    /// The config of a one-output BERT sequence classifier, or why `dir` is not one.
    pub fn of(dir: &ModelDir) -> Result<Self> {
        let config_path = dir.path.join("config.json");
        let wrong = |what: String| Error::new(ErrorKind::Architecture, &config_path, what);
        let model_type = dir.config_str("model_type").unwrap_or("(none)");
        if model_type != "bert" {
            return Err(wrong(format!(
                "model_type is {model_type}, not bert; this metric needs BERT regressors"
            )));
        }
        if let Some(archs) = dir.config.get("architectures").and_then(|a| a.as_array()) {
            if !archs
                .iter()
                .any(|a| a.as_str() == Some("BertForSequenceClassification"))
            {
                return Err(wrong(format!(
                    "architectures is {}, not BertForSequenceClassification",
                    serde_json::Value::Array(archs.clone())
                )));
            }
        }
        let labels = dir.config_usize("num_labels").or_else(|| {
            dir.config
                .get("id2label")
                .and_then(|m| m.as_object())
                .map(|m| m.len())
        });
        if labels != Some(1) {
            return Err(wrong(format!(
                "the model has {} outputs; a regressor has one (num_labels 1)",
                labels.map_or("2 (the default)".into(), |n| n.to_string())
            )));
        }
        Self::encoder(dir)
    }

    /// The config of any BERT model (its encoder is what is read), or why `dir` is not one.
    pub fn encoder(dir: &ModelDir) -> Result<Self> {
        let config_path = dir.path.join("config.json");
        let wrong = |what: String| Error::new(ErrorKind::Architecture, &config_path, what);
        let model_type = dir.config_str("model_type").unwrap_or("(none)");
        if model_type != "bert" {
            return Err(wrong(format!(
                "model_type is {model_type}, not bert; this metric needs a BERT model"
            )));
        }
        let gelu_tanh = match dir.config_str("hidden_act").unwrap_or("gelu") {
            "gelu" => false,
            "gelu_new" | "gelu_pytorch_tanh" => true,
            other => return Err(wrong(format!("hidden_act {other} is not supported"))),
        };
        if let Some(p) = dir.config_str("position_embedding_type") {
            if p != "absolute" {
                return Err(wrong(format!(
                    "position_embedding_type {p} is not supported"
                )));
            }
        }
        let need = |key: &str| {
            dir.config_usize(key)
                .ok_or_else(|| wrong(format!("no {key}")))
        };
        let config = Config {
            vocab_size: need("vocab_size")?,
            hidden_size: need("hidden_size")?,
            num_hidden_layers: need("num_hidden_layers")?,
            num_attention_heads: need("num_attention_heads")?,
            intermediate_size: need("intermediate_size")?,
            max_position_embeddings: need("max_position_embeddings")?,
            type_vocab_size: dir.config_usize("type_vocab_size").unwrap_or(2),
            layer_norm_eps: dir
                .config
                .get("layer_norm_eps")
                .and_then(|v| v.as_f64())
                .unwrap_or(1e-12),
            gelu_tanh,
        };
        if config.num_attention_heads == 0
            || !config
                .hidden_size
                .is_multiple_of(config.num_attention_heads)
        {
            return Err(wrong(format!(
                "hidden_size {} is not a multiple of num_attention_heads {}",
                config.hidden_size, config.num_attention_heads
            )));
        }
        Ok(config)
    }
}

struct Layer {
    query: Linear,
    key: Linear,
    value: Linear,
    attention_out: Linear,
    attention_norm: LayerNorm,
    intermediate: Linear,
    output: Linear,
    output_norm: LayerNorm,
}

/// BERT's embeddings and encoder layers: the last hidden state of every token.
pub struct Encoder {
    pub config: Config,
    word: Embedding,
    position: Embedding,
    token_type: Embedding,
    embedding_norm: LayerNorm,
    layers: Vec<Layer>,
    device: Device,
}

/// A batch run through the encoder: hidden states `(n, len, hidden)`, padded to the longest
/// input, and each input's own length.
pub struct Hidden {
    pub states: Tensor,
    pub lengths: Vec<usize>,
}

impl Encoder {
    /// Loads a BERT encoder from any BERT checkpoint in `dir`: a bare `BertModel` (names
    /// without a prefix) or a model with heads (names under `bert.`), LayerNorm parameters
    /// named `weight`/`bias` or, as in the Hub's original BERT checkpoints, `gamma`/`beta`.
    pub fn load(dir: &ModelDir) -> Result<Self> {
        let config = Config::encoder(dir)?;
        let vb = dir.var_builder(&Device::Cpu)?;
        let gamma = ["", "bert."]
            .iter()
            .any(|p| vb.contains_tensor(&format!("{p}embeddings.LayerNorm.gamma")));
        let vb = if gamma {
            vb.rename_f(|name: &str| {
                name.replace("LayerNorm.weight", "LayerNorm.gamma")
                    .replace("LayerNorm.bias", "LayerNorm.beta")
            })
        } else {
            vb
        };
        let vb = if vb.contains_tensor("embeddings.LayerNorm.weight") {
            vb
        } else {
            vb.pp("bert")
        };
        Self::build(vb, config).map_err(|e| shape_error(dir, e))
    }

    fn build(vb: VarBuilder, config: Config) -> candle_core::Result<Self> {
        let (h, eps) = (config.hidden_size, config.layer_norm_eps);
        let emb = vb.pp("embeddings");
        let layers = (0..config.num_hidden_layers)
            .map(|i| {
                let l = vb.pp(format!("encoder.layer.{i}"));
                let att = l.pp("attention");
                Ok(Layer {
                    query: linear(h, h, att.pp("self.query"))?,
                    key: linear(h, h, att.pp("self.key"))?,
                    value: linear(h, h, att.pp("self.value"))?,
                    attention_out: linear(h, h, att.pp("output.dense"))?,
                    attention_norm: layer_norm(h, eps, att.pp("output.LayerNorm"))?,
                    intermediate: linear(h, config.intermediate_size, l.pp("intermediate.dense"))?,
                    output: linear(config.intermediate_size, h, l.pp("output.dense"))?,
                    output_norm: layer_norm(h, eps, l.pp("output.LayerNorm"))?,
                })
            })
            .collect::<candle_core::Result<Vec<_>>>()?;
        Ok(Encoder {
            word: embedding(config.vocab_size, h, emb.pp("word_embeddings"))?,
            position: embedding(
                config.max_position_embeddings,
                h,
                emb.pp("position_embeddings"),
            )?,
            token_type: embedding(config.type_vocab_size, h, emb.pp("token_type_embeddings"))?,
            embedding_norm: layer_norm(h, eps, emb.pp("LayerNorm"))?,
            layers,
            config,
            device: Device::Cpu,
        })
    }

    /// Keeps only the first `n` encoder layers (bert_score's `num_layers`: the hidden states
    /// after layer `n`, 0 for the embeddings); `false` when the model has fewer.
    pub fn keep_layers(&mut self, n: usize) -> bool {
        if n > self.layers.len() {
            return false;
        }
        self.layers.truncate(n);
        true
    }

    /// The last hidden states of a batch (padded here to the longest input).
    pub fn forward(&self, batch: &[Encoded]) -> candle_core::Result<Hidden> {
        let lengths: Vec<usize> = batch.iter().map(|e| e.ids.len()).collect();
        let len = lengths.iter().copied().max().unwrap_or(0);
        let n = batch.len();
        let (mut ids, mut types, mut mask) = (
            Vec::with_capacity(n * len),
            Vec::with_capacity(n * len),
            Vec::with_capacity(n * len),
        );
        for e in batch {
            let pad = len - e.ids.len();
            ids.extend(&e.ids);
            ids.extend(std::iter::repeat_n(0u32, pad));
            types.extend(&e.type_ids);
            types.extend(std::iter::repeat_n(0u32, pad));
            mask.extend(std::iter::repeat_n(0f32, e.ids.len()));
            mask.extend(std::iter::repeat_n(f32::MIN, pad));
        }
        let ids = Tensor::from_vec(ids, (n, len), &self.device)?;
        let types = Tensor::from_vec(types, (n, len), &self.device)?;
        // Added to the attention scores: the smallest f32 at padding, as transformers does.
        let mask = Tensor::from_vec(mask, (n, 1, 1, len), &self.device)?;
        let positions = Tensor::arange(0u32, len as u32, &self.device)?;

        let words = self.word.forward(&ids)?;
        let xs = (words + self.token_type.forward(&types)?)?;
        let xs = xs.broadcast_add(&self.position.forward(&positions)?)?;
        let mut xs = self.embedding_norm.forward(&xs)?;
        for layer in &self.layers {
            xs = self.layer(layer, &xs, &mask)?;
        }
        Ok(Hidden {
            states: xs,
            lengths,
        })
    }

    fn layer(&self, l: &Layer, xs: &Tensor, mask: &Tensor) -> candle_core::Result<Tensor> {
        let (n, len, h) = xs.dims3()?;
        let heads = self.config.num_attention_heads;
        let d = h / heads;
        let split = |t: Tensor| -> candle_core::Result<Tensor> {
            t.reshape((n, len, heads, d))?.transpose(1, 2)?.contiguous()
        };
        let q = split(l.query.forward(xs)?)?;
        let k = split(l.key.forward(xs)?)?;
        let v = split(l.value.forward(xs)?)?;
        let scores = (q.matmul(&k.t()?)? / (d as f64).sqrt())?;
        let probs = candle_nn::ops::softmax_last_dim(&scores.broadcast_add(mask)?)?;
        let context = probs
            .matmul(&v)?
            .transpose(1, 2)?
            .contiguous()?
            .reshape((n, len, h))?;
        let attended = l
            .attention_norm
            .forward(&(l.attention_out.forward(&context)? + xs)?)?;
        let inner = l.intermediate.forward(&attended)?;
        let inner = if self.config.gelu_tanh {
            inner.gelu()?
        } else {
            inner.gelu_erf()?
        };
        l.output_norm
            .forward(&(l.output.forward(&inner)? + attended)?)
    }
}

/// A BERT regressor's weights, ready to run.
pub struct Regressor {
    pub config: Config,
    encoder: Encoder,
    pooler: Linear,
    classifier: Linear,
}

impl Regressor {
    /// Loads the regressor in `dir` onto the CPU.
    pub fn load(dir: &ModelDir) -> Result<Self> {
        let config = Config::of(dir)?;
        let vb = dir.var_builder(&Device::Cpu)?;
        let build = || -> candle_core::Result<Self> {
            let h = config.hidden_size;
            Ok(Regressor {
                encoder: Encoder::build(vb.pp("bert"), config.clone())?,
                pooler: linear(h, h, vb.pp("bert.pooler.dense"))?,
                classifier: linear(h, 1, vb.pp("classifier"))?,
                config: config.clone(),
            })
        };
        build().map_err(|e| shape_error(dir, e))
    }

    /// The regressor's output for each input of a batch (padded here to the longest).
    pub fn predict(&self, batch: &[Encoded]) -> candle_core::Result<Vec<f32>> {
        if batch.is_empty() {
            return Ok(Vec::new());
        }
        let xs = self.encoder.forward(batch)?.states;
        let cls = xs.narrow(1, 0, 1)?.squeeze(1)?;
        let pooled = self.pooler.forward(&cls)?.tanh()?;
        let out = self.classifier.forward(&pooled)?;
        out.squeeze(1)?.to_dtype(DType::F32)?.to_vec1()
    }
}

/// The error for weights that do not have the shapes `config.json` gives.
fn shape_error(dir: &ModelDir, e: candle_core::Error) -> Error {
    Error::new(
        ErrorKind::Architecture,
        &dir.weights,
        format!("the weights do not fit config.json ({e})"),
    )
}

/// The error for a failed forward pass of the model in `dir`.
pub(crate) fn compute_error(dir: &ModelDir, e: candle_core::Error) -> Error {
    Error::new(
        ErrorKind::Compute,
        &dir.path,
        format!("the forward pass failed ({e})"),
    )
}
