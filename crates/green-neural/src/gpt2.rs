//! `GPT2LMHeadModel` as `transformers` runs it in evaluation mode (pre-norm blocks,
//! Conv1D projections, tanh GELU, the head tied to the token embeddings), reduced to what
//! perplexity needs: each input's mean negative log-likelihood of its tokens after the first.

use candle_core::{DType, Device, Module, Tensor, D};
use candle_nn::{embedding, layer_norm, Embedding, LayerNorm, VarBuilder};

use crate::error::{Error, ErrorKind, Result};
use crate::ModelDir;

/// The shapes read from `config.json`.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    pub vocab_size: usize,
    pub n_positions: usize,
    pub n_embd: usize,
    pub n_layer: usize,
    pub n_head: usize,
    pub n_inner: usize,
    pub layer_norm_epsilon: f64,
}

impl Config {
    /// The config of a GPT-2 language model, or why `dir` is not one.
    pub fn of(dir: &ModelDir) -> Result<Self> {
        let config_path = dir.path.join("config.json");
        let wrong = |what: String| Error::new(ErrorKind::Architecture, &config_path, what);
        let model_type = dir.config_str("model_type").unwrap_or("(none)");
        if model_type != "gpt2" {
            return Err(wrong(format!(
                "model_type is {model_type}, not gpt2; Scribendi needs a GPT-2 language model"
            )));
        }
        let act = dir.config_str("activation_function").unwrap_or("gelu_new");
        if !matches!(act, "gelu_new" | "gelu_pytorch_tanh") {
            return Err(wrong(format!("activation_function {act} is not supported")));
        }
        let need = |key: &str| {
            dir.config_usize(key)
                .ok_or_else(|| wrong(format!("no {key}")))
        };
        let n_embd = need("n_embd")?;
        let config = Config {
            vocab_size: need("vocab_size")?,
            n_positions: need("n_positions")?,
            n_embd,
            n_layer: need("n_layer")?,
            n_head: need("n_head")?,
            n_inner: dir.config_usize("n_inner").unwrap_or(4 * n_embd),
            layer_norm_epsilon: dir
                .config
                .get("layer_norm_epsilon")
                .and_then(|v| v.as_f64())
                .unwrap_or(1e-5),
        };
        if config.n_head == 0 || !config.n_embd.is_multiple_of(config.n_head) {
            return Err(wrong(format!(
                "n_embd {} is not a multiple of n_head {}",
                config.n_embd, config.n_head
            )));
        }
        Ok(config)
    }
}

/// GPT-2's Conv1D: a linear map whose weight is stored as (in, out).
struct Conv1D {
    weight: Tensor,
    bias: Tensor,
}

impl Conv1D {
    fn load(inputs: usize, outputs: usize, vb: VarBuilder) -> candle_core::Result<Self> {
        Ok(Conv1D {
            weight: vb.get((inputs, outputs), "weight")?,
            bias: vb.get(outputs, "bias")?,
        })
    }

    fn forward(&self, xs: &Tensor) -> candle_core::Result<Tensor> {
        xs.broadcast_matmul(&self.weight)?.broadcast_add(&self.bias)
    }
}

struct Block {
    ln_1: LayerNorm,
    c_attn: Conv1D,
    attn_proj: Conv1D,
    ln_2: LayerNorm,
    c_fc: Conv1D,
    mlp_proj: Conv1D,
}

/// A GPT-2 language model's weights, ready to run.
pub struct LanguageModel {
    pub config: Config,
    wte: Embedding,
    wpe: Embedding,
    blocks: Vec<Block>,
    ln_f: LayerNorm,
    device: Device,
}

impl LanguageModel {
    /// Loads the model in `dir` onto the CPU (weights named `transformer.*` as
    /// `GPT2LMHeadModel` saves them, or bare as the `gpt2` checkpoints are).
    pub fn load(dir: &ModelDir) -> Result<Self> {
        let config = Config::of(dir)?;
        let device = Device::Cpu;
        let vb = dir.var_builder(&device)?;
        let vb = if vb.contains_tensor("transformer.wte.weight") {
            vb.pp("transformer")
        } else {
            vb
        };
        let build = || -> candle_core::Result<Self> {
            let (h, eps) = (config.n_embd, config.layer_norm_epsilon);
            let blocks = (0..config.n_layer)
                .map(|i| {
                    let b = vb.pp(format!("h.{i}"));
                    Ok(Block {
                        ln_1: layer_norm(h, eps, b.pp("ln_1"))?,
                        c_attn: Conv1D::load(h, 3 * h, b.pp("attn.c_attn"))?,
                        attn_proj: Conv1D::load(h, h, b.pp("attn.c_proj"))?,
                        ln_2: layer_norm(h, eps, b.pp("ln_2"))?,
                        c_fc: Conv1D::load(h, config.n_inner, b.pp("mlp.c_fc"))?,
                        mlp_proj: Conv1D::load(config.n_inner, h, b.pp("mlp.c_proj"))?,
                    })
                })
                .collect::<candle_core::Result<Vec<_>>>()?;
            Ok(LanguageModel {
                wte: embedding(config.vocab_size, h, vb.pp("wte"))?,
                wpe: embedding(config.n_positions, h, vb.pp("wpe"))?,
                blocks,
                ln_f: layer_norm(h, eps, vb.pp("ln_f"))?,
                config: config.clone(),
                device: device.clone(),
            })
        };
        build().map_err(|e| {
            Error::new(
                ErrorKind::Architecture,
                &dir.weights,
                format!("the weights do not fit config.json ({e})"),
            )
        })
    }

    /// Each input's negative log-likelihoods of its tokens after the first (right-padded
    /// here to the longest; a causal model's real tokens never see the padding).
    pub fn token_nll(&self, batch: &[Vec<u32>]) -> candle_core::Result<Vec<Vec<f32>>> {
        let Some(len) = batch.iter().map(Vec::len).max() else {
            return Ok(Vec::new());
        };
        let n = batch.len();
        let mut ids = Vec::with_capacity(n * len);
        for seq in batch {
            ids.extend(seq);
            ids.extend(std::iter::repeat_n(0u32, len - seq.len()));
        }
        let ids = Tensor::from_vec(ids, (n, len), &self.device)?;
        let positions = Tensor::arange(0u32, len as u32, &self.device)?;
        let causal: Vec<f32> = (0..len)
            .flat_map(|i| (0..len).map(move |j| if j > i { f32::MIN } else { 0.0 }))
            .collect();
        let causal = Tensor::from_vec(causal, (1, 1, len, len), &self.device)?;
        let mut xs = self
            .wte
            .forward(&ids)?
            .broadcast_add(&self.wpe.forward(&positions)?)?;
        for block in &self.blocks {
            xs = self.block(block, &xs, &causal)?;
        }
        let xs = self.ln_f.forward(&xs)?;
        let logits = xs.broadcast_matmul(&self.wte.embeddings().t()?)?;
        if len < 2 {
            return Ok(vec![Vec::new(); n]);
        }
        let log_probs = candle_nn::ops::log_softmax(&logits.narrow(1, 0, len - 1)?, D::Minus1)?;
        let next = ids.narrow(1, 1, len - 1)?.contiguous()?.unsqueeze(2)?;
        let picked = log_probs
            .gather(&next, 2)?
            .squeeze(2)?
            .to_dtype(DType::F32)?;
        let picked: Vec<Vec<f32>> = picked.to_vec2()?;
        let out = batch
            .iter()
            .zip(picked)
            .map(|(seq, row)| {
                row[..seq.len().saturating_sub(1)]
                    .iter()
                    .map(|lp| -lp)
                    .collect()
            })
            .collect();
        Ok(out)
    }

    fn block(&self, b: &Block, xs: &Tensor, causal: &Tensor) -> candle_core::Result<Tensor> {
        let (n, len, h) = xs.dims3()?;
        let heads = self.config.n_head;
        let d = h / heads;
        let qkv = b.c_attn.forward(&b.ln_1.forward(xs)?)?;
        let split = |i: usize| -> candle_core::Result<Tensor> {
            qkv.narrow(2, i * h, h)?
                .reshape((n, len, heads, d))?
                .transpose(1, 2)?
                .contiguous()
        };
        let (q, k, v) = (split(0)?, split(1)?, split(2)?);
        let scores = (q.matmul(&k.t()?)? / (d as f64).sqrt())?;
        let probs = candle_nn::ops::softmax_last_dim(&scores.broadcast_add(causal)?)?;
        let context = probs
            .matmul(&v)?
            .transpose(1, 2)?
            .contiguous()?
            .reshape((n, len, h))?;
        let xs = (xs + b.attn_proj.forward(&context)?)?;
        let inner = b.c_fc.forward(&b.ln_2.forward(&xs)?)?.gelu()?;
        xs + b.mlp_proj.forward(&inner)?
    }
}
