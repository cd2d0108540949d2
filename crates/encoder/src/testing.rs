//! Random-weight models in the shipped format, for tests and benchmarks that
//! must run without the trained weights: a tiny one for unit and integration
//! tests, and one of the real size for measuring speed.

use std::collections::HashMap;
use std::path::Path;

use candle_core::{DType, Device, Tensor};

use crate::model::{
    DISTANCE_BUCKETS, ENTITY_LABELS, FORMAT, HEDGE_LABELS, PAIR_LABELS, ROLE_LABELS,
};

/// The sizes of a random model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    /// Encoder layers.
    pub layers: usize,
    /// Width of the hidden states.
    pub hidden: usize,
    /// Attention heads.
    pub heads: usize,
    /// Width of the feed-forward layer.
    pub intermediate: usize,
    /// Pieces in the vocabulary (at least the built-in ones).
    pub vocab: usize,
    /// Units of a window, `[CLS]` and `[SEP]` included.
    pub window_pieces: usize,
    /// Units from one window's start to the next.
    pub stride_pieces: usize,
    /// Width of the pair head's distance embedding.
    pub pair_embedding: usize,
    /// Width of the pair head's hidden layer.
    pub pair_hidden: usize,
    /// Whether it has the stance and hedge heads (the shipped model has not).
    pub stance_and_hedge: bool,
}

impl Size {
    /// Small enough for a unit test; windows of 40 units, so a paragraph
    /// spans several.
    pub const TINY: Size = Size {
        layers: 2,
        hidden: 32,
        heads: 4,
        intermediate: 64,
        vocab: 128,
        window_pieces: 40,
        stride_pieces: 20,
        pair_embedding: 8,
        pair_hidden: 16,
        stance_and_hedge: false,
    };

    /// The shipped model's size (all-MiniLM-L6-v2 and the contract's heads).
    pub const REAL: Size = Size {
        layers: 6,
        hidden: 384,
        heads: 12,
        intermediate: 1536,
        vocab: 30522,
        window_pieces: 256,
        stride_pieces: 192,
        pair_embedding: 64,
        pair_hidden: 256,
        stance_and_hedge: false,
    };
}

/// A deterministic generator (SplitMix64), so a seed names a model.
struct Random(u64);

impl Random {
    fn next(&mut self) -> f32 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
    }
}

/// The pieces of a random model's vocabulary: the special pieces, letters,
/// digits and punctuation alone and as continuations, some words, and filler.
fn pieces(size: usize) -> Vec<String> {
    let mut out: Vec<String> = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for c in ('a'..='z').chain('0'..='9') {
        out.push(c.to_string());
        out.push(format!("##{c}"));
    }
    for p in ".,;:!?'\"“”‘’-—()$%&/".chars() {
        out.push(p.to_string());
    }
    for w in [
        "the", "said", "says", "she", "he", "mayor", "city", "not", "would", "that",
    ] {
        out.push(w.to_string());
    }
    let mut filler = 0;
    while out.len() < size {
        out.push(format!("[unused{filler}]"));
        filler += 1;
    }
    out
}

/// Writes a model with random weights of `size` into `dir`: config.json,
/// vocab.txt and model.safetensors (F16), as training ships them.
pub fn write_random_model(dir: &Path, size: Size, seed: u64) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let vocab = pieces(size.vocab);
    std::fs::write(dir.join("vocab.txt"), vocab.join("\n") + "\n")?;
    let mut config = serde_json::json!({
        "architectures": ["BertModel"],
        "model_type": "bert",
        "vocab_size": vocab.len(),
        "hidden_size": size.hidden,
        "num_hidden_layers": size.layers,
        "num_attention_heads": size.heads,
        "intermediate_size": size.intermediate,
        "hidden_act": "gelu",
        "hidden_dropout_prob": 0.1,
        "attention_probs_dropout_prob": 0.1,
        "max_position_embeddings": 512,
        "type_vocab_size": 2,
        "initializer_range": 0.02,
        "layer_norm_eps": 1e-12,
        "pad_token_id": 0,
        "attest": {
            "format": FORMAT,
            "window_pieces": size.window_pieces,
            "stride_pieces": size.stride_pieces,
            "role_labels": ROLE_LABELS,
            "entity_labels": ENTITY_LABELS,
            "pair_labels": PAIR_LABELS,
            "distance_buckets": DISTANCE_BUCKETS,
        },
    });
    if size.stance_and_hedge
        && let Some(attest) = config.get_mut("attest").and_then(|a| a.as_object_mut())
    {
        attest.insert(
            "heads".into(),
            serde_json::json!(["role", "entity", "pair", "stance", "hedge"]),
        );
        attest.insert(
            "stance_labels".into(),
            serde_json::json!(
                attest_doc::StanceLabel::ALL
                    .iter()
                    .map(|s| s.name())
                    .collect::<Vec<_>>()
            ),
        );
        attest.insert("hedge_labels".into(), serde_json::json!(HEDGE_LABELS));
    }
    std::fs::write(
        dir.join("config.json"),
        serde_json::to_string_pretty(&config).unwrap_or_default(),
    )?;
    let mut random = Random(seed);
    let mut tensors: HashMap<String, Tensor> = HashMap::new();
    let mut add = |name: String, shape: Vec<usize>, scale: f32, offset: f32| {
        let count: usize = shape.iter().product();
        let values: Vec<f32> = (0..count).map(|_| offset + scale * random.next()).collect();
        let tensor =
            Tensor::from_vec(values, shape, &Device::Cpu).and_then(|t| t.to_dtype(DType::F16));
        if let Ok(tensor) = tensor {
            tensors.insert(name, tensor);
        }
    };
    let h = size.hidden;
    let linear =
        |add: &mut dyn FnMut(String, Vec<usize>, f32, f32), name: &str, out: usize, inp: usize| {
            let scale = 1.0 / (inp as f32).sqrt();
            add(format!("{name}.weight"), vec![out, inp], scale, 0.0);
            add(format!("{name}.bias"), vec![out], 0.1, 0.0);
        };
    let norm = |add: &mut dyn FnMut(String, Vec<usize>, f32, f32), name: &str| {
        add(format!("{name}.weight"), vec![h], 0.1, 1.0);
        add(format!("{name}.bias"), vec![h], 0.1, 0.0);
    };
    add(
        "embeddings.word_embeddings.weight".into(),
        vec![vocab.len(), h],
        1.0,
        0.0,
    );
    add(
        "embeddings.position_embeddings.weight".into(),
        vec![size.window_pieces, h],
        1.0,
        0.0,
    );
    add(
        "embeddings.token_type_embeddings.weight".into(),
        vec![2, h],
        1.0,
        0.0,
    );
    norm(&mut add, "embeddings.LayerNorm");
    for i in 0..size.layers {
        let layer = format!("encoder.layer.{i}");
        for part in ["query", "key", "value"] {
            linear(&mut add, &format!("{layer}.attention.self.{part}"), h, h);
        }
        linear(&mut add, &format!("{layer}.attention.output.dense"), h, h);
        norm(&mut add, &format!("{layer}.attention.output.LayerNorm"));
        linear(
            &mut add,
            &format!("{layer}.intermediate.dense"),
            size.intermediate,
            h,
        );
        linear(
            &mut add,
            &format!("{layer}.output.dense"),
            h,
            size.intermediate,
        );
        norm(&mut add, &format!("{layer}.output.LayerNorm"));
    }
    linear(&mut add, "heads.role", ROLE_LABELS.len(), h);
    linear(&mut add, "heads.entity", ENTITY_LABELS.len(), h);
    add(
        "heads.pair.distance.weight".into(),
        vec![DISTANCE_BUCKETS, size.pair_embedding],
        1.0,
        0.0,
    );
    add(
        "heads.pair.same_sentence.weight".into(),
        vec![2, size.pair_embedding],
        1.0,
        0.0,
    );
    linear(
        &mut add,
        "heads.pair.hidden",
        size.pair_hidden,
        3 * h + size.pair_embedding,
    );
    linear(
        &mut add,
        "heads.pair.out",
        PAIR_LABELS.len(),
        size.pair_hidden,
    );
    if size.stance_and_hedge {
        linear(
            &mut add,
            "heads.stance",
            attest_doc::StanceLabel::ALL.len(),
            h + 1,
        );
        linear(&mut add, "heads.hedge", HEDGE_LABELS.len(), h);
    }
    candle_core::safetensors::save(&tensors, dir.join("model.safetensors"))
        .map_err(std::io::Error::other)
}
