//! The BERT encoder, written out on candle-nn: embeddings, then post-norm
//! layers of self-attention and a feed-forward block, with Hugging Face's
//! tensor names (no prefix), as the contract ships them.
//!
//! Only what the contract's models use is here: absolute positions, one
//! token type, the exact (erf) GELU. Writing these ~150 lines spares the
//! build candle-transformers, which compiles a hundred models to give us one.

use candle_core::{DType, Module, Result, Tensor};
use candle_nn::{Embedding, LayerNorm, Linear, VarBuilder};
use serde::Deserialize;

/// The fields of a BERT config.json that the encoder reads.
#[derive(Clone, Debug, Deserialize)]
pub(crate) struct BertConfig {
    pub(crate) vocab_size: usize,
    pub(crate) hidden_size: usize,
    pub(crate) num_hidden_layers: usize,
    pub(crate) num_attention_heads: usize,
    pub(crate) intermediate_size: usize,
    pub(crate) hidden_act: String,
    #[serde(default = "default_layer_norm_eps")]
    pub(crate) layer_norm_eps: f64,
    #[serde(default = "default_position_embedding_type")]
    pub(crate) position_embedding_type: String,
}

fn default_layer_norm_eps() -> f64 {
    1e-12
}

fn default_position_embedding_type() -> String {
    "absolute".into()
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

/// A loaded BERT encoder.
pub(crate) struct Bert {
    words: Embedding,
    positions: Tensor,
    token_type: Tensor,
    embedding_norm: LayerNorm,
    layers: Vec<Layer>,
    heads: usize,
}

impl Bert {
    /// Loads the encoder from `vb` (tensor names without prefix) for windows of
    /// at most `max_positions` units.
    pub(crate) fn load(vb: &VarBuilder, config: &BertConfig, max_positions: usize) -> Result<Bert> {
        let hidden = config.hidden_size;
        let eps = config.layer_norm_eps;
        let norm = |vb: VarBuilder| candle_nn::layer_norm(hidden, eps, vb);
        let embeddings = vb.pp("embeddings");
        let layers = (0..config.num_hidden_layers)
            .map(|i| {
                let layer = vb.pp(format!("encoder.layer.{i}"));
                let attention = layer.pp("attention");
                let own = attention.pp("self");
                Ok(Layer {
                    query: candle_nn::linear(hidden, hidden, own.pp("query"))?,
                    key: candle_nn::linear(hidden, hidden, own.pp("key"))?,
                    value: candle_nn::linear(hidden, hidden, own.pp("value"))?,
                    attention_out: candle_nn::linear(hidden, hidden, attention.pp("output.dense"))?,
                    attention_norm: norm(attention.pp("output.LayerNorm"))?,
                    intermediate: candle_nn::linear(
                        hidden,
                        config.intermediate_size,
                        layer.pp("intermediate.dense"),
                    )?,
                    output: candle_nn::linear(
                        config.intermediate_size,
                        hidden,
                        layer.pp("output.dense"),
                    )?,
                    output_norm: norm(layer.pp("output.LayerNorm"))?,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let token_types = embeddings
            .pp("token_type_embeddings")
            .get_unchecked("weight")?;
        Ok(Bert {
            words: candle_nn::embedding(
                config.vocab_size,
                hidden,
                embeddings.pp("word_embeddings"),
            )?,
            positions: embeddings
                .pp("position_embeddings")
                .get_unchecked("weight")?
                .narrow(0, 0, max_positions)?,
            token_type: token_types.narrow(0, 0, 1)?,
            embedding_norm: norm(embeddings.pp("LayerNorm"))?,
            layers,
            heads: config.num_attention_heads,
        })
    }

    /// Hidden states `[batch, width, hidden]` of `ids` `[batch, width]`, where
    /// `mask` is 1 for units and 0 for padding.
    pub(crate) fn forward(&self, ids: &Tensor, mask: &Tensor) -> Result<Tensor> {
        let (batch, width) = ids.dims2()?;
        let positions = self.positions.narrow(0, 0, width)?;
        let mut x = self
            .words
            .forward(ids)?
            .broadcast_add(&positions)?
            .broadcast_add(&self.token_type)?;
        x = self.embedding_norm.forward(&x)?;
        // Padding keys get a large negative score, so softmax gives them nothing.
        let bias = ((mask.to_dtype(DType::F32)? - 1.0)? * 1e4)?.reshape((batch, 1, 1, width))?;
        for layer in &self.layers {
            x = layer.forward(&x, &bias, self.heads)?;
        }
        Ok(x)
    }
}

impl Layer {
    fn forward(&self, x: &Tensor, bias: &Tensor, heads: usize) -> Result<Tensor> {
        let (batch, width, hidden) = x.dims3()?;
        let size = hidden / heads;
        let split = |t: Tensor| -> Result<Tensor> {
            t.reshape((batch, width, heads, size))?
                .transpose(1, 2)?
                .contiguous()
        };
        let q = split(self.query.forward(x)?)?;
        let k = split(self.key.forward(x)?)?;
        let v = split(self.value.forward(x)?)?;
        let scores = (q.matmul(&k.t()?)? / (size as f64).sqrt())?.broadcast_add(bias)?;
        let weights = candle_nn::ops::softmax_last_dim(&scores)?;
        let context = weights
            .matmul(&v)?
            .transpose(1, 2)?
            .reshape((batch, width, hidden))?;
        let attended = self
            .attention_norm
            .forward(&(self.attention_out.forward(&context)? + x)?)?;
        let inner = self.intermediate.forward(&attended)?.gelu_erf()?;
        self.output_norm
            .forward(&(self.output.forward(&inner)? + attended)?)
    }
}
