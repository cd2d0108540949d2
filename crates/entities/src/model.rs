//! The entity model: BIO labels over tokens, training, the model file and tagging.
//!
//! Each sentence is labelled with a structured perceptron ([`attest_learn::
//! SequenceTrainer`]): `O` outside names, `B-` on a name's first token and
//! `I-` on the others, for each of the four types. A transition mask forbids
//! `I-X` anywhere but after `B-X` or `I-X`, so every decoded run is a mention.

use std::collections::BTreeMap;

use attest_doc::{Doc, EntityLabel, Span};
use attest_learn::{
    FeatureTable, FeatureWriter, ModelError, Scorer, SequenceModel, SequenceTrainer, SplitMix64,
    TransitionMask, Weights,
};

use crate::features::{Context, extract};
use crate::scoring::{Scratch, Tables, vocabulary};

/// The kind tag of entity model files.
pub const MODEL_KIND: [u8; 4] = *b"NER2";

/// The kind of entity model files that named their features, now retired.
const RETIRED_KIND: [u8; 4] = *b"NER1";

/// The types, in label order: label `1 + 2k` begins type `k`, `2 + 2k` continues it.
const TYPES: [EntityLabel; 4] = [
    EntityLabel::Person,
    EntityLabel::Organization,
    EntityLabel::Location,
    EntityLabel::Other,
];

/// The label names, as model files store them.
const LABELS: [&str; 9] = [
    "O", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC", "B-OTH", "I-OTH",
];

fn type_index(label: EntityLabel) -> u16 {
    match label {
        EntityLabel::Person => 0,
        EntityLabel::Organization => 1,
        EntityLabel::Location => 2,
        EntityLabel::Other => 3,
    }
}

/// The type of a label and whether it begins a mention; `None` for `O`.
fn split_label(label: u16) -> Option<(EntityLabel, bool)> {
    let index = label.checked_sub(1)?;
    let kind = TYPES.get(usize::from(index / 2))?;
    Some((*kind, index % 2 == 0))
}

fn bio_mask() -> TransitionMask {
    // Labels 2, 4, 6 and 8 are the `I-` labels, each after its `B-`.
    TransitionMask::bio(LABELS.len() as u16, |label| {
        (label >= 2 && label % 2 == 0).then(|| label - 1)
    })
}

/// A document with its tokens, sentences, paragraphs and part-of-speech tags,
/// and the entity mentions it should yield.
#[derive(Clone, Debug)]
pub struct TrainingExample {
    /// The analysed document, as the pipeline has it before the entity stage.
    pub doc: Doc,
    /// Its mentions, in text order.
    pub gold: Vec<(Span, EntityLabel)>,
}

/// How to train.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// Passes over the data.
    pub iterations: usize,
    /// Seed of the shuffle before each pass.
    pub seed: u64,
    /// Averaged emission weights smaller than this in magnitude are dropped,
    /// which keeps the model file small.
    pub prune_below: f32,
    /// How many visiting orders are trained, their weights then averaged.
    pub shuffles: usize,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            iterations: 10,
            seed: 0x5eed,
            // Weights this small hardly move a decision (dev F1 changes in the
            // third decimal), while dropping them halves the model and the
            // tables tagging reads.
            prune_below: 1.5,
            shuffles: attest_learn::TRAINING_ORDERS,
        }
    }
}

/// The BIO label of every token of a document, from its gold mentions: a
/// token inside a mention is `I-`, or `B-` when it is the first such token.
fn gold_labels(doc: &Doc, gold: &[(Span, EntityLabel)]) -> Vec<u16> {
    let mut labels = vec![0u16; doc.tokens().len()];
    let mut mentions = gold.iter().peekable();
    let mut current: Option<(Span, EntityLabel, bool)> = None;
    for (token, label) in doc.tokens().iter().zip(labels.iter_mut()) {
        while let Some((span, kind)) = mentions.peek() {
            if span.byte_end() <= token.span.byte_start() {
                mentions.next();
                continue;
            }
            if span.byte_start() <= token.span.byte_start() {
                current = Some((*span, *kind, true));
                mentions.next();
            }
            break;
        }
        if let Some((span, kind, first)) = current.as_mut() {
            if span.contains(token.span) {
                *label = 1 + 2 * type_index(*kind) + u16::from(!*first);
                *first = false;
            } else if token.span.byte_start() >= span.byte_end() {
                current = None;
            }
        }
    }
    labels
}

/// Trains a model, deterministically for a given `config.seed`.
pub fn train(examples: &[TrainingExample], config: &TrainConfig) -> Model {
    let mut table = FeatureTable::new();
    let mut writer = FeatureWriter::new();
    let mut sentences: Vec<(Vec<Vec<u32>>, Vec<u16>)> = Vec::new();
    for example in examples {
        let context = Context::new(&example.doc);
        let labels = gold_labels(&example.doc, &example.gold);
        for sentence in example.doc.sentences() {
            let range = sentence.tokens.start.index()..sentence.tokens.end.index();
            let features = range
                .clone()
                .map(|i| {
                    writer.clear();
                    extract(&context, i, &mut |parts| {
                        writer.add_parts(&mut table, parts)
                    });
                    writer.ids().to_vec()
                })
                .collect();
            let gold = labels.get(range).unwrap_or_default().to_vec();
            sentences.push((features, gold));
        }
    }
    let mask = bio_mask();
    let mut rng = SplitMix64::new(config.seed);
    let mut order: Vec<usize> = (0..sentences.len()).collect();
    let SequenceModel {
        mut emissions,
        transitions,
    } = SequenceTrainer::mean_of(LABELS.len() as u16, config.shuffles, |trainer| {
        for _ in 0..config.iterations {
            rng.shuffle(&mut order);
            for (features, gold) in order.iter().filter_map(|i| sentences.get(*i)) {
                trainer.train_sequence(features, gold, Some(&mask));
            }
        }
    });
    emissions.prune(config.prune_below);
    let mut meta = BTreeMap::new();
    meta.insert("iterations".to_owned(), config.iterations.to_string());
    meta.insert("seed".to_owned(), config.seed.to_string());
    meta.insert("prune_below".to_owned(), config.prune_below.to_string());
    meta.insert("shuffles".to_owned(), config.shuffles.to_string());
    meta.insert("sentences".to_owned(), sentences.len().to_string());
    let vocabulary = vocabulary(
        (0u32..)
            .map_while(|id| Some((id, table.name(id)?)))
            .filter(|(id, _)| emissions.row(*id).next().is_some())
            .map(|(_, name)| name),
    );
    Model::assemble(attest_learn::Model {
        kind: MODEL_KIND,
        meta,
        labels: LABELS.iter().map(|l| (*l).to_owned()).collect(),
        keys: table.keys(),
        weights: emissions,
        transitions,
        lexicon: BTreeMap::new(),
        vocabulary,
    })
}

/// A trained entity model.
#[derive(Clone, Debug)]
pub struct Model {
    inner: attest_learn::Model,
    scorer: Scorer,
    tables: Tables,
    /// The transitions, with no emission weights: emissions come from `tables`.
    decoder: SequenceModel,
    mask: TransitionMask,
}

impl Model {
    fn assemble(inner: attest_learn::Model) -> Model {
        let scorer = Scorer::new(&inner.keys, &inner.weights);
        let tables = Tables::new(&scorer, inner.vocabulary.iter().map(String::as_str));
        let decoder = SequenceModel {
            emissions: Weights::empty(LABELS.len() as u16),
            transitions: inner.transitions.clone(),
        };
        Model {
            inner,
            scorer,
            tables,
            decoder,
            mask: bio_mask(),
        }
    }

    /// The model as file bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.inner.to_bytes()
    }

    /// Reads a model file, checking that it is an entity model of the known labels.
    pub fn from_bytes(bytes: &[u8]) -> Result<Model, ModelError> {
        let inner = attest_learn::Model::from_bytes_of_kind(bytes, MODEL_KIND, RETIRED_KIND)?;
        if inner.labels != LABELS {
            return Err(ModelError::Corrupt {
                at: 0,
                what: format!("labels {:?} where {LABELS:?} were expected", inner.labels),
            });
        }
        let n = LABELS.len();
        if inner.transitions.len() != (n + 1) * n {
            return Err(ModelError::Corrupt {
                at: 0,
                what: format!(
                    "{} transition weights where {} were expected",
                    inner.transitions.len(),
                    (n + 1) * n
                ),
            });
        }
        Ok(Model::assemble(inner))
    }

    /// Facts recorded at training time.
    pub fn meta(&self) -> &BTreeMap<String, String> {
        &self.inner.meta
    }

    /// The labels of a sentence from its emission scores. Tokens far from any
    /// capital are outside for sure (see [`Tables::emissions`]), so the path
    /// passes through `O` there and each run of other tokens can be decoded
    /// alone, with the sure `O` on each side: the same best path, found faster.
    /// `near` says of each token whether it is near a name, as
    /// [`Context::near_name`] does.
    fn decode(&self, near: &[bool], emissions: &[f32]) -> Vec<u16> {
        let n = LABELS.len();
        let mut labels = vec![0u16; near.len()];
        let mut start = 0;
        while start < near.len() {
            if !near.get(start).copied().unwrap_or(false) {
                start += 1;
                continue;
            }
            let end = (start..near.len())
                .find(|k| !near.get(*k).copied().unwrap_or(false))
                .unwrap_or(near.len());
            let from = start.saturating_sub(1);
            let to = (end + 1).min(near.len());
            let run = emissions.get(from * n..to * n).unwrap_or_default();
            let decoded = self.decoder.decode_emissions(run, Some(&self.mask));
            for (k, label) in (from..to).zip(decoded) {
                if let Some(slot) = labels.get_mut(k).filter(|_| (start..end).contains(&k)) {
                    *slot = label;
                }
            }
            start = end;
        }
        labels
    }

    /// The entity mentions of a document with tokens, sentences, paragraphs and
    /// part-of-speech tags, in text order; no mention crosses a sentence.
    pub fn mentions(&self, doc: &Doc) -> Vec<(Span, EntityLabel)> {
        let context = Context::new(doc);
        let n = LABELS.len();
        let mut scratch = Scratch::default();
        let mut emissions = Vec::new();
        let mut mentions = Vec::new();
        for sentence in doc.sentences() {
            let range = sentence.tokens.start.index()..sentence.tokens.end.index();
            emissions.clear();
            emissions.resize(range.len() * n, 0.0);
            self.tables.emissions(
                &self.scorer,
                &context,
                range.clone(),
                &mut scratch,
                &mut emissions,
            );
            let labels = self.decode(scratch.near(), &emissions);
            let tokens = doc.tokens().get(range).unwrap_or_default();
            let mut open: Option<(Span, EntityLabel)> = None;
            for (token, label) in tokens.iter().zip(labels) {
                match (split_label(label), open.as_mut()) {
                    (Some((kind, false)), Some((span, open_kind))) if *open_kind == kind => {
                        *span = span.cover(token.span);
                    }
                    (Some((kind, _)), _) => {
                        mentions.extend(open.take());
                        open = Some((token.span, kind));
                    }
                    (None, _) => mentions.extend(open.take()),
                }
            }
            mentions.extend(open);
        }
        mentions
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{doc_of, mentions_in};

    fn examples() -> Vec<TrainingExample> {
        use EntityLabel::*;
        let text = "yesterday Ana Ruiz said Acme Corp was sold. \
                    the mayor of Oslo met Bo Li. \
                    Acme Corp hired Ana Ruiz in Oslo. \
                    workers at Acme Corp praised the Olympics.";
        let gold = mentions_in(
            text,
            &[
                ("Ana Ruiz", Person),
                ("Acme Corp", Organization),
                ("Oslo", Location),
                ("Bo Li", Person),
                ("Acme Corp", Organization),
                ("Ana Ruiz", Person),
                ("Oslo", Location),
                ("Acme Corp", Organization),
                ("Olympics", Other),
            ],
        );
        vec![TrainingExample {
            doc: doc_of(text),
            gold,
        }]
    }

    #[test]
    fn gold_becomes_bio_labels() {
        let example = &examples()[0];
        let labels = gold_labels(&example.doc, &example.gold);
        let names: Vec<&str> = labels.iter().map(|l| LABELS[*l as usize]).collect();
        assert_eq!(
            names[..8],
            ["O", "B-PER", "I-PER", "O", "B-ORG", "I-ORG", "O", "O"]
        );
    }

    #[test]
    fn learns_its_data_and_round_trips_byte_for_byte() {
        let config = TrainConfig {
            iterations: 10,
            prune_below: 0.0,
            ..TrainConfig::default()
        };
        let examples = examples();
        let model = train(&examples, &config);
        let example = &examples[0];
        assert_eq!(model.mentions(&example.doc), example.gold);
        let bytes = model.to_bytes();
        let reread = Model::from_bytes(&bytes).unwrap();
        assert_eq!(reread.mentions(&example.doc), example.gold);
        assert_eq!(reread.to_bytes(), bytes);
        assert_eq!(train(&examples, &config).to_bytes(), bytes, "deterministic");
    }

    /// A model of a few passes over [`examples`], with every weight kept.
    fn small_model() -> Model {
        let config = TrainConfig {
            iterations: 3,
            prune_below: 0.0,
            ..TrainConfig::default()
        };
        train(&examples(), &config)
    }

    fn emissions_of(
        model: &Model,
        context: &Context<'_>,
        range: std::ops::Range<usize>,
    ) -> Vec<f32> {
        let mut emissions = vec![0.0; range.len() * LABELS.len()];
        let mut scratch = Scratch::default();
        model
            .tables
            .emissions(&model.scorer, context, range, &mut scratch, &mut emissions);
        emissions
    }

    #[test]
    fn tabulated_scores_equal_the_scores_of_every_feature() {
        let model = small_model();
        // Known and unknown words, boundaries, one-word sentences.
        let doc = doc_of(
            "Ana Ruiz met Zed Quux of Acme Corp in Oslo. Oslo. the unknown Olympics and the rest of it.",
        );
        let context = Context::new(&doc);
        let n = LABELS.len();
        for sentence in doc.sentences() {
            let range = sentence.tokens.start.index()..sentence.tokens.end.index();
            let fast = emissions_of(&model, &context, range.clone());
            for (fast, i) in fast.chunks_exact(n).zip(range) {
                let mut slow = vec![0.0; n];
                extract(&context, i, &mut |parts| model.scorer.add(parts, &mut slow));
                if context.near_name(i) {
                    assert!(slow.iter().any(|x| *x != 0.0));
                    for (a, b) in fast.iter().zip(&slow) {
                        assert!((a - b).abs() < 1e-3, "{fast:?} vs {slow:?}");
                    }
                } else {
                    assert_eq!(fast[0], 0.0);
                    assert!(fast[1..].iter().all(|x| *x == f32::NEG_INFINITY));
                }
            }
        }
    }

    #[test]
    fn decoding_runs_alone_finds_the_path_of_the_whole_sentence() {
        let model = small_model();
        let doc = doc_of(
            "then at last Ana Ruiz and the workers at Acme Corp met in the old town of Oslo with the Olympics team and the mayor.",
        );
        let context = Context::new(&doc);
        let range = 0..doc.tokens().len();
        let emissions = emissions_of(&model, &context, range.clone());
        let whole = model
            .decoder
            .decode_emissions(&emissions, Some(&model.mask));
        assert!(whole.iter().any(|l| *l != 0));
        let near: Vec<bool> = range.map(|i| context.near_name(i)).collect();
        assert!(near.contains(&false));
        assert_eq!(model.decode(&near, &emissions), whole);
    }

    #[test]
    fn the_mask_allows_only_well_formed_runs() {
        let mask = bio_mask();
        assert!(mask.allows(None, 1));
        assert!(!mask.allows(None, 2));
        assert!(mask.allows(Some(1), 2));
        assert!(mask.allows(Some(2), 2));
        assert!(!mask.allows(Some(3), 2));
        assert!(!mask.allows(Some(0), 4));
        assert!(mask.allows(Some(2), 3));
        assert_eq!(split_label(0), None);
        assert_eq!(split_label(5), Some((EntityLabel::Location, true)));
        assert_eq!(split_label(8), Some((EntityLabel::Other, false)));
    }

    // The envelope, its kind and the retired kind are attest-learn's checks
    // (`Model::from_bytes_of_kind`, tested there); these are the entity model's own.
    #[test]
    fn refuses_other_labels_and_a_model_without_transitions() {
        let model = small_model();
        let mut labels = model.inner.clone();
        labels.labels[1] = "B-PERSON".to_owned();
        let mut greedy = model.inner;
        greedy.transitions.clear();
        for (damaged, named) in [(labels, "B-PERSON"), (greedy, "0 transition weights")] {
            let error = Model::from_bytes(&damaged.to_bytes()).unwrap_err();
            assert!(error.to_string().contains(named), "{error}");
        }
    }
}
