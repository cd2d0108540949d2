//! The encoder and its heads on candle, CPU, in F32: loading the shipped
//! files and running windows through them.
//!
//! The BERT encoder is [`crate::bert`]; the heads are read from the same file
//! under `heads.*`. Weights are F16 on disk and widened to F32
//! when they load, so that CPU arithmetic is plain F32 matrix products.

use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;

use attest_doc::StanceLabel;
use candle_core::{DType, Device, Module, Tensor};
use candle_nn::{Linear, VarBuilder};
use serde::Deserialize;

use crate::EncoderError;
use crate::bert::{Bert, BertConfig};
use crate::wordpiece::{MAX_PIECES, Vocab};

/// The model format this build reads (`attest.format` in config.json).
pub const FORMAT: i64 = 1;

/// Role labels, in the order of the role head's outputs.
pub const ROLE_LABELS: [&str; 7] = [
    "O",
    "B-SOURCE",
    "I-SOURCE",
    "B-CUE",
    "I-CUE",
    "B-CONTENT",
    "I-CONTENT",
];

/// Entity labels, in the order of the entity head's outputs.
pub const ENTITY_LABELS: [&str; 9] = [
    "O",
    "B-PERSON",
    "I-PERSON",
    "B-ORGANIZATION",
    "I-ORGANIZATION",
    "B-LOCATION",
    "I-LOCATION",
    "B-OTHER",
    "I-OTHER",
];

/// Pair labels, in the order of the pair head's outputs.
pub const PAIR_LABELS: [&str; 5] = ["O", "B-SOURCE", "I-SOURCE", "B-CONTENT", "I-CONTENT"];

/// Hedge labels, in the order of the hedge head's outputs.
pub const HEDGE_LABELS: [&str; 3] = ["O", "B-HEDGE", "I-HEDGE"];

/// The heads every model has; `stance` and `hedge` are optional, and a
/// config without a `heads` list (the first shipped model) has these alone.
const REQUIRED_HEADS: [&str; 3] = ["role", "entity", "pair"];

/// Distance buckets of the pair head (see [`crate::window::bucket`]).
pub const DISTANCE_BUCKETS: usize = 19;

/// Windows encoded together: enough to fill the matrix units, few enough that
/// padding to the longest stays small.
const BATCH: usize = 4;

/// The batches `windows` are encoded in: [`BATCH`] consecutive windows at a
/// time, in document order, so that a batch's cues can be decoded while its
/// states are held; window `w` is in batch [`batch_of`]`(w)`.
pub(crate) fn batches(windows: &[Range<usize>]) -> Vec<Vec<usize>> {
    let order: Vec<usize> = (0..windows.len()).collect();
    order.chunks(BATCH).map(<[usize]>::to_vec).collect()
}

/// The batch of window `window` and its place in it.
pub(crate) fn batch_of(window: usize) -> (usize, usize) {
    (window / BATCH, window % BATCH)
}

/// The `attest` object of config.json.
#[derive(Clone, Debug, Deserialize)]
struct AttestSection {
    window_pieces: usize,
    stride_pieces: usize,
    role_labels: Vec<String>,
    entity_labels: Vec<String>,
    pair_labels: Vec<String>,
    distance_buckets: usize,
    #[serde(default)]
    heads: Vec<String>,
    #[serde(default)]
    stance_labels: Vec<String>,
    #[serde(default)]
    hedge_labels: Vec<String>,
}

impl AttestSection {
    fn has(&self, head: &str) -> bool {
        self.heads.iter().any(|h| h == head)
    }
}

/// How the encoder windows a document, from config.json.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncoderConfig {
    /// Units of a window, `[CLS]` and `[SEP]` included.
    pub window_pieces: usize,
    /// Units from one window's start to the next.
    pub stride_pieces: usize,
    /// Width of the encoder's outputs.
    pub hidden: usize,
    /// Whether the model has the stance head.
    pub stance: bool,
    /// Whether the model has the hedge head.
    pub hedge: bool,
}

impl EncoderConfig {
    /// Units a window holds between its `[CLS]` and `[SEP]`.
    pub fn capacity(&self) -> usize {
        self.window_pieces.saturating_sub(2)
    }
}

/// The network: encoder and heads.
pub(crate) struct Network {
    bert: Bert,
    role: Linear,
    entity: Linear,
    distance: Tensor,
    same_sentence: Tensor,
    pair_hidden: Linear,
    pair_out: Linear,
    stance: Option<Linear>,
    hedge: Option<Linear>,
    pub(crate) config: EncoderConfig,
    device: Device,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

fn read(path: &Path) -> Result<Vec<u8>, EncoderError> {
    std::fs::read(path).map_err(|source| EncoderError::Read {
        path: path.to_owned(),
        source,
    })
}

fn config_error(path: &Path, message: impl Into<String>) -> EncoderError {
    EncoderError::Config {
        path: path.to_owned(),
        message: message.into(),
    }
}

/// Reads config.json: the attest section checked against this build's
/// contract, and the BERT fields for candle.
fn read_config(path: &Path) -> Result<(AttestSection, serde_json::Value), EncoderError> {
    let bytes = read(path)?;
    let value: serde_json::Value =
        serde_json::from_slice(&bytes).map_err(|e| config_error(path, format!("not JSON: {e}")))?;
    let attest = value
        .get("attest")
        .ok_or_else(|| config_error(path, "no \"attest\" object"))?;
    let format = attest.get("format").and_then(serde_json::Value::as_i64);
    if format != Some(FORMAT) {
        return Err(EncoderError::Format {
            path: path.to_owned(),
            found: attest.get("format").map(|f| f.to_string()),
        });
    }
    let section: AttestSection = serde_json::from_value(attest.clone())
        .map_err(|e| config_error(path, format!("the \"attest\" object: {e}")))?;
    if !section.heads.is_empty() {
        if let Some(head) = section.heads.iter().find(|h| {
            !REQUIRED_HEADS.contains(&h.as_str()) && !["stance", "hedge"].contains(&h.as_str())
        }) {
            return Err(config_error(
                path,
                format!("heads names {head:?}, which this build does not read"),
            ));
        }
        if let Some(head) = REQUIRED_HEADS.iter().find(|h| !section.has(h)) {
            return Err(config_error(path, format!("heads lacks {head:?}")));
        }
    }
    // The stance head's outputs are in the order of `StanceLabel::ALL`.
    let stance_names: Vec<&str> = StanceLabel::ALL.iter().map(|s| s.name()).collect();
    let mut labels = vec![
        ("role_labels", &section.role_labels, &ROLE_LABELS[..]),
        ("entity_labels", &section.entity_labels, &ENTITY_LABELS[..]),
        ("pair_labels", &section.pair_labels, &PAIR_LABELS[..]),
    ];
    if section.has("stance") {
        labels.push(("stance_labels", &section.stance_labels, &stance_names[..]));
    }
    if section.has("hedge") {
        labels.push(("hedge_labels", &section.hedge_labels, &HEDGE_LABELS[..]));
    }
    for (name, found, expected) in labels {
        if found
            .iter()
            .map(String::as_str)
            .ne(expected.iter().copied())
        {
            return Err(config_error(
                path,
                format!("{name} are {found:?}, this build reads {expected:?}"),
            ));
        }
    }
    if section.distance_buckets != DISTANCE_BUCKETS {
        return Err(config_error(
            path,
            format!(
                "distance_buckets is {}, this build reads {DISTANCE_BUCKETS}",
                section.distance_buckets
            ),
        ));
    }
    let capacity = section.window_pieces.saturating_sub(2);
    // A window must hold any token, and the next window must start inside it.
    if capacity < MAX_PIECES
        || section.stride_pieces == 0
        || section.stride_pieces + MAX_PIECES > capacity + 1
    {
        return Err(config_error(
            path,
            format!(
                "window_pieces {} and stride_pieces {} leave tokens outside every window",
                section.window_pieces, section.stride_pieces
            ),
        ));
    }
    Ok((section, value))
}

/// The shape of a tensor of the file, or an error naming it.
fn dims(
    tensors: &HashMap<String, Tensor>,
    name: &str,
    path: &Path,
) -> Result<Vec<usize>, EncoderError> {
    tensors
        .get(name)
        .map(|t| t.dims().to_vec())
        .ok_or_else(|| EncoderError::Weights {
            path: path.to_owned(),
            message: format!("no tensor {name}"),
        })
}

impl Network {
    /// Loads config.json, vocab.txt and model.safetensors from `dir`.
    pub(crate) fn load(dir: &Path) -> Result<(Network, Vocab), EncoderError> {
        if !dir.is_dir() {
            return Err(EncoderError::Missing {
                path: dir.to_owned(),
            });
        }
        let config_path = dir.join("config.json");
        let vocab_path = dir.join("vocab.txt");
        let weights_path = dir.join("model.safetensors");
        for path in [&config_path, &vocab_path, &weights_path] {
            if !path.is_file() {
                return Err(EncoderError::Missing { path: path.clone() });
            }
        }
        let (section, value) = read_config(&config_path)?;
        let vocab_text = read(&vocab_path)?;
        let vocab_text =
            String::from_utf8(vocab_text).map_err(|_| config_error(&vocab_path, "not UTF-8"))?;
        let vocab = Vocab::parse(&vocab_text).map_err(|source| EncoderError::Vocab {
            path: vocab_path.clone(),
            source,
        })?;
        let weights_error = |message: String| EncoderError::Weights {
            path: weights_path.clone(),
            message,
        };
        let device = Device::Cpu;
        let bytes = read(&weights_path)?;
        let tensors = candle_core::safetensors::load_buffer(&bytes, &device)
            .map_err(|e| weights_error(e.to_string()))?;
        let positions = dims(
            &tensors,
            "embeddings.position_embeddings.weight",
            &weights_path,
        )?;
        let position_rows = positions.first().copied().unwrap_or(0);
        if position_rows < section.window_pieces {
            return Err(weights_error(format!(
                "{position_rows} position embeddings for windows of {}",
                section.window_pieces
            )));
        }
        let bert_config: BertConfig = serde_json::from_value(value)
            .map_err(|e| config_error(&config_path, format!("BERT fields: {e}")))?;
        if bert_config.hidden_act != "gelu" {
            return Err(config_error(
                &config_path,
                "hidden_act must be \"gelu\" (the exact erf form)",
            ));
        }
        if bert_config.position_embedding_type != "absolute" {
            return Err(config_error(
                &config_path,
                "position_embedding_type must be \"absolute\"",
            ));
        }
        if bert_config.num_attention_heads == 0
            || !bert_config
                .hidden_size
                .is_multiple_of(bert_config.num_attention_heads)
        {
            return Err(config_error(
                &config_path,
                "hidden_size must be a multiple of num_attention_heads",
            ));
        }
        if bert_config.vocab_size != vocab.len() {
            return Err(config_error(
                &config_path,
                format!(
                    "vocab_size is {} but vocab.txt has {} pieces",
                    bert_config.vocab_size,
                    vocab.len()
                ),
            ));
        }
        let hidden = bert_config.hidden_size;
        let pair_embedding = dims(&tensors, "heads.pair.distance.weight", &weights_path)?;
        let pair_hidden = dims(&tensors, "heads.pair.hidden.weight", &weights_path)?;
        let (Some(&embed), Some(&inner)) = (pair_embedding.get(1), pair_hidden.first()) else {
            return Err(weights_error("pair head tensors are not matrices".into()));
        };
        let vb = VarBuilder::from_tensors(tensors, DType::F32, &device);
        let load = || -> candle_core::Result<Network> {
            let bert = Bert::load(&vb, &bert_config, section.window_pieces)?;
            let heads = vb.pp("heads");
            let pair = heads.pp("pair");
            // The stance head reads the cue's mean state and a has-a-source flag.
            let stance = section
                .has("stance")
                .then(|| candle_nn::linear(hidden + 1, StanceLabel::ALL.len(), heads.pp("stance")))
                .transpose()?;
            let hedge = section
                .has("hedge")
                .then(|| candle_nn::linear(hidden, HEDGE_LABELS.len(), heads.pp("hedge")))
                .transpose()?;
            Ok(Network {
                bert,
                role: candle_nn::linear(hidden, ROLE_LABELS.len(), heads.pp("role"))?,
                entity: candle_nn::linear(hidden, ENTITY_LABELS.len(), heads.pp("entity"))?,
                distance: pair.get((DISTANCE_BUCKETS, embed), "distance.weight")?,
                same_sentence: pair.get((2, embed), "same_sentence.weight")?,
                pair_hidden: candle_nn::linear(3 * hidden + embed, inner, pair.pp("hidden"))?,
                pair_out: candle_nn::linear(inner, PAIR_LABELS.len(), pair.pp("out"))?,
                config: EncoderConfig {
                    window_pieces: section.window_pieces,
                    stride_pieces: section.stride_pieces,
                    hidden,
                    stance: stance.is_some(),
                    hedge: hedge.is_some(),
                },
                stance,
                hedge,
                device: device.clone(),
            })
        };
        let network = load().map_err(|e| weights_error(e.to_string()))?;
        Ok((network, vocab))
    }

    /// The encoder's output for the windows of one batch (`ids` sliced by
    /// `windows`), in the batch's order, each row-major `[units, hidden]`
    /// without the `[CLS]` and `[SEP]` rows; padding is masked. The same batch
    /// gives the same states bit for bit, so a window encoded again with its
    /// batch reads as it first did.
    pub(crate) fn encode_batch(
        &self,
        ids: &[u32],
        windows: &[Range<usize>],
        batch: &[usize],
        vocab: &Vocab,
    ) -> Result<Vec<Vec<f32>>, EncoderError> {
        let hidden = self.config.hidden;
        let width = batch
            .iter()
            .filter_map(|&w| windows.get(w))
            .map(|r| r.len() + 2)
            .max()
            .unwrap_or(2);
        let mut input = Vec::with_capacity(batch.len() * width);
        let mut mask = Vec::with_capacity(batch.len() * width);
        for &w in batch {
            let units = windows
                .get(w)
                .and_then(|r| ids.get(r.clone()))
                .unwrap_or_default();
            input.push(vocab.cls);
            input.extend_from_slice(units);
            input.push(vocab.sep);
            mask.extend(std::iter::repeat_n(1u32, units.len() + 2));
            let pad = width - units.len() - 2;
            input.extend(std::iter::repeat_n(vocab.pad, pad));
            mask.extend(std::iter::repeat_n(0u32, pad));
        }
        let shape = (batch.len(), width);
        let input = Tensor::from_vec(input, shape, &self.device)?;
        let mask = Tensor::from_vec(mask, shape, &self.device)?;
        let states = self.bert.forward(&input, &mask)?;
        let flat = states.flatten_all()?.to_vec1::<f32>()?;
        Ok(batch
            .iter()
            .enumerate()
            .map(|(slot, &w)| {
                let len = windows.get(w).map_or(0, |r| r.len());
                let start = (slot * width + 1) * hidden;
                flat.get(start..start + len * hidden)
                    .unwrap_or_default()
                    .to_vec()
            })
            .collect())
    }

    /// A head's logits for rows of hidden states (`[n, hidden]` row-major).
    fn apply(&self, head: &Linear, rows: &[f32]) -> candle_core::Result<Vec<f32>> {
        let n = rows.len() / self.config.hidden.max(1);
        if n == 0 {
            return Ok(Vec::new());
        }
        let x = Tensor::from_slice(rows, (n, self.config.hidden), &self.device)?;
        head.forward(&x)?.flatten_all()?.to_vec1::<f32>()
    }

    /// Role logits (`[n, 7]`) for rows of token states.
    pub(crate) fn roles(&self, rows: &[f32]) -> candle_core::Result<Vec<f32>> {
        self.apply(&self.role, rows)
    }

    /// Entity logits (`[n, 9]`) for rows of token states.
    pub(crate) fn entities(&self, rows: &[f32]) -> candle_core::Result<Vec<f32>> {
        self.apply(&self.entity, rows)
    }

    /// Hedge logits (`[n, 3]`) for rows of token states; `None` without the hedge head.
    pub(crate) fn hedges(&self, rows: &[f32]) -> candle_core::Result<Option<Vec<f32>>> {
        self.hedge
            .as_ref()
            .map(|head| self.apply(head, rows))
            .transpose()
    }

    /// Stance logits (`[8]`) of a cue's mean state, with whether its
    /// attribution has a source; `None` without the stance head.
    pub(crate) fn stance(
        &self,
        mut cue: Vec<f32>,
        sourced: bool,
    ) -> candle_core::Result<Option<Vec<f32>>> {
        let Some(head) = &self.stance else {
            return Ok(None);
        };
        cue.push(if sourced { 1.0 } else { 0.0 });
        let x = Tensor::from_vec(cue, (1, self.config.hidden + 1), &self.device)?;
        head.forward(&x)?.flatten_all()?.to_vec1::<f32>().map(Some)
    }

    /// Pair logits (`[n, 5]`) for candidate states `candidates` (`[n, hidden]`),
    /// the cue's mean state, and each candidate's distance bucket and
    /// same-sentence flag.
    pub(crate) fn pairs(
        &self,
        candidates: Vec<f32>,
        cue: Vec<f32>,
        buckets: &[u32],
        same: &[u32],
    ) -> candle_core::Result<Vec<f32>> {
        let hidden = self.config.hidden;
        let n = buckets.len();
        if n == 0 {
            return Ok(Vec::new());
        }
        let h_t = Tensor::from_vec(candidates, (n, hidden), &self.device)?;
        let h_c = Tensor::from_vec(cue, (1, hidden), &self.device)?.broadcast_as((n, hidden))?;
        let product = h_t.mul(&h_c)?;
        let buckets = Tensor::from_slice(buckets, n, &self.device)?;
        let same = Tensor::from_slice(same, n, &self.device)?;
        let extra = self
            .distance
            .index_select(&buckets, 0)?
            .add(&self.same_sentence.index_select(&same, 0)?)?;
        let x = Tensor::cat(&[&h_t, &h_c.contiguous()?, &product, &extra], 1)?;
        let inner = self.pair_hidden.forward(&x)?.gelu_erf()?;
        self.pair_out
            .forward(&inner)?
            .flatten_all()?
            .to_vec1::<f32>()
    }
}
