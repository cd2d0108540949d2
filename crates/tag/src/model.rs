//! Training the tagger and its model file.

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};

use attest_doc::PosTag;
use attest_learn::{
    FeatureTable, FeatureWriter, ModelError, Prehashed, Scorer, SplitMix64, Trainer, fnv1a64,
};

use crate::features::{
    Context, Hashing, Interning, START, T1_SHAPE, T1_WORD, context_hashes, extract, extract_tags,
    extract_word, tag_prefix_hash,
};

/// The prefix of the feature naming a word as written: the model's vocabulary.
const RAW_PREFIX: &str = "raw ";

/// The kind tag of POS model files.
pub const MODEL_KIND: [u8; 4] = *b"POS2";

/// The kind of POS model files that named their features, now retired.
const RETIRED_KIND: [u8; 4] = *b"POS1";

/// A sentence of words with their gold tags, the tagger's training data.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct TaggedSentence {
    /// The words, as the text writes them.
    pub words: Vec<String>,
    /// One tag per word.
    pub tags: Vec<PosTag>,
}

impl TaggedSentence {
    /// A sentence from tag names; `None` when the lengths differ or a name maps to
    /// no tag (see [`tag_of_name`]), so the caller can count what it drops.
    pub fn from_names(words: Vec<String>, tag_names: &[impl AsRef<str>]) -> Option<TaggedSentence> {
        if words.len() != tag_names.len() {
            return None;
        }
        let tags = tag_names
            .iter()
            .map(|name| tag_of_name(name.as_ref()))
            .collect::<Option<Vec<PosTag>>>()?;
        Some(TaggedSentence { words, tags })
    }
}

/// The tag of a Penn Treebank name, mapping the bracket variants CoreNLP can
/// write (`-LSB-`, `-RCB-`, ...) and raw brackets onto `-LRB-` / `-RRB-`.
pub fn tag_of_name(name: &str) -> Option<PosTag> {
    PosTag::from_name(name).or_else(|| match name {
        "-LSB-" | "-LCB-" | "(" | "[" | "{" => PosTag::from_name("-LRB-"),
        "-RSB-" | "-RCB-" | ")" | "]" | "}" => PosTag::from_name("-RRB-"),
        "\"" => PosTag::from_name("''"),
        "GW" | "XX" | "AFX" => PosTag::from_name("FW"),
        _ => None,
    })
}

/// How to train.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// Passes over the data.
    pub iterations: usize,
    /// Seed of the shuffle before each pass.
    pub seed: u64,
    /// Averaged weights smaller than this in magnitude are dropped. The
    /// default, 1.0, keeps a third of the weights of 0.05 for 0.06 points of
    /// dev accuracy (98.05% to 97.99% against the silver tags): a table that
    /// small tags a third faster, since lookups wait on cache misses, and
    /// loads in a quarter of the time.
    pub prune_below: f32,
    /// Words seen at least this often in training ...
    pub lexicon_min_count: usize,
    /// ... with one tag at least this share of the time get that tag without
    /// scoring: faster, and as accurate for words like "the" or ",".
    pub lexicon_min_share: f64,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            iterations: 6,
            seed: 0x5eed,
            prune_below: 1.0,
            lexicon_min_count: 20,
            lexicon_min_share: 0.97,
        }
    }
}

/// A trained part-of-speech model.
///
/// Tagging reads weights summed when the model loads wherever a feature takes
/// its value from a closed set: the word-only features of each word the model
/// knows, and the features of each pair of previous tags. The rest (eleven
/// features of the neighbours, and of the previous tag with the word or shape)
/// are looked up by hash.
#[derive(Clone, Debug)]
pub struct Model {
    inner: attest_learn::Model,
    /// The tag of each class of `inner`.
    tags: Vec<PosTag>,
    scorer: Scorer,
    /// What the model knows of a word as written, by its hash, so that a
    /// lookup needs no string compare.
    words: HashMap<u64, Word, Prehashed>,
    /// The summed weights of the word-only features of each [`Word::Known`],
    /// one slot per class: one read instead of ten lookups when tagging.
    word_scores: Vec<f32>,
    /// The summed weights of [`extract_tags`] for each pair of previous tags,
    /// `[previous][previous2][class]`, a previous tag being a [`PosTag`] index
    /// or [`START_INDEX`].
    pair_scores: Vec<f32>,
    /// Per previous tag, the hashes of the starts of the `t1w` and `t1shape`
    /// features (see [`tag_prefix_hash`]).
    tag_prefixes: Vec<(u64, u64)>,
}

/// What the model knows of a word.
#[derive(Clone, Copy, Debug)]
enum Word {
    /// A lexicon word: its tag, without scoring.
    Fixed(PosTag),
    /// A word of the training data: its row in `word_scores`.
    Known(u32),
}

/// The index that stands for [`START`] as a previous tag.
const START_INDEX: usize = PosTag::NAMES.len();

/// The name of a previous tag's index.
fn previous_name(index: usize) -> &'static str {
    PosTag::from_index(index).map_or(START, PosTag::name)
}

/// The frequent words of `sentences` that nearly always have one tag.
fn build_lexicon(sentences: &[TaggedSentence], config: &TrainConfig) -> BTreeMap<String, u16> {
    let mut counts: BTreeMap<&str, BTreeMap<u16, usize>> = BTreeMap::new();
    for sentence in sentences {
        for (word, tag) in sentence.words.iter().zip(&sentence.tags) {
            *counts
                .entry(word.as_str())
                .or_default()
                .entry(tag.index() as u16)
                .or_default() += 1;
        }
    }
    counts
        .into_iter()
        .filter_map(|(word, tags)| {
            let total: usize = tags.values().sum();
            // The most frequent tag; among equals, the lowest index.
            let (tag, count) = tags.iter().max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))?;
            let share = *count as f64 / total as f64;
            (total >= config.lexicon_min_count && share >= config.lexicon_min_share)
                .then(|| (word.to_owned(), *tag))
        })
        .collect()
}

/// Trains a model, deterministically for a given `config.seed`.
pub fn train(sentences: &[TaggedSentence], config: &TrainConfig) -> Model {
    let n_classes = PosTag::NAMES.len() as u16;
    let lexicon = build_lexicon(sentences, config);
    let mut table = FeatureTable::new();
    let mut trainer = Trainer::new(n_classes);
    let mut rng = SplitMix64::new(config.seed);
    let mut order: Vec<usize> = (0..sentences.len()).collect();
    let mut context = Context::default();
    let mut writer = FeatureWriter::new();
    for _ in 0..config.iterations {
        rng.shuffle(&mut order);
        for sentence in order.iter().filter_map(|i| sentences.get(*i)) {
            context.set(sentence.words.iter().map(String::as_str));
            let (mut previous, mut previous2) = (START, START);
            for (i, gold) in sentence.tags.iter().enumerate().take(context.len()) {
                let guess = match sentence.words.get(i).and_then(|w| lexicon.get(w.as_str())) {
                    Some(fixed) => *fixed,
                    None => {
                        writer.clear();
                        let mut sink = Interning {
                            table: &mut table,
                            writer: &mut writer,
                        };
                        extract(&mut sink, &context, i, previous, previous2);
                        trainer.train_one(writer.ids(), gold.index() as u16)
                    }
                };
                previous2 = previous;
                // The next token sees the tag predicted here, as it will when tagging.
                previous = PosTag::from_index(guess as usize).map_or(START, PosTag::name);
            }
        }
    }
    let mut weights = trainer.average();
    weights.prune(config.prune_below);
    let mut meta = BTreeMap::new();
    meta.insert("iterations".to_owned(), config.iterations.to_string());
    meta.insert("seed".to_owned(), config.seed.to_string());
    meta.insert("prune_below".to_owned(), config.prune_below.to_string());
    meta.insert("sentences".to_owned(), sentences.len().to_string());
    let vocabulary = (0u32..)
        .map_while(|id| Some((id, table.name(id)?)))
        .filter(|(id, _)| weights.row(*id).next().is_some())
        .filter_map(|(_, name)| name.strip_prefix(RAW_PREFIX))
        .map(str::to_owned)
        .collect();
    let inner = attest_learn::Model {
        kind: MODEL_KIND,
        meta,
        labels: PosTag::NAMES.iter().map(|n| (*n).to_owned()).collect(),
        keys: table.keys(),
        weights,
        transitions: Vec::new(),
        lexicon,
        vocabulary,
    };
    let tags = (0..PosTag::NAMES.len())
        .filter_map(PosTag::from_index)
        .collect();
    Model::assemble(inner, tags)
}

/// Reusable buffers for tagging, so a document allocates them once.
#[derive(Default, Debug)]
pub(crate) struct Scratch {
    context: Context,
    hashes: Vec<u64>,
    scores: Vec<f32>,
}

impl Model {
    fn assemble(inner: attest_learn::Model, tags: Vec<PosTag>) -> Model {
        let scorer = Scorer::new(&inner.keys, &inner.weights);
        let n_classes = scorer.n_classes() as usize;
        let mut words: HashMap<u64, Word, Prehashed> = inner
            .lexicon
            .iter()
            .filter_map(|(word, class)| {
                let tag = *tags.get(*class as usize)?;
                Some((fnv1a64(word.as_bytes()), Word::Fixed(tag)))
            })
            .collect();
        let mut word_scores = Vec::new();
        let mut context = Context::default();
        let mut hashes = Vec::new();
        let mut known = 0u32;
        for word in &inner.vocabulary {
            let Entry::Vacant(slot) = words.entry(fnv1a64(word.as_bytes())) else {
                continue;
            };
            slot.insert(Word::Known(known));
            known += 1;
            context.set(std::iter::once(word.as_str()));
            hashes.clear();
            extract_word(
                &mut Hashing {
                    hashes: &mut hashes,
                },
                &context,
                0,
            );
            let start = word_scores.len();
            word_scores.resize(start + n_classes, 0.0);
            if let Some(scores) = word_scores.get_mut(start..) {
                scorer.add_all(&hashes, scores);
            }
        }
        let mut pair_scores = vec![0.0; (START_INDEX + 1) * (START_INDEX + 1) * n_classes];
        let mut rows = pair_scores.chunks_exact_mut(n_classes);
        for previous in 0..=START_INDEX {
            for previous2 in 0..=START_INDEX {
                hashes.clear();
                let mut sink = Hashing {
                    hashes: &mut hashes,
                };
                extract_tags(&mut sink, previous_name(previous), previous_name(previous2));
                if let Some(row) = rows.next() {
                    scorer.add_all(&hashes, row);
                }
            }
        }
        let tag_prefixes = (0..=START_INDEX)
            .map(previous_name)
            .map(|name| {
                (
                    tag_prefix_hash(&T1_WORD, name),
                    tag_prefix_hash(&T1_SHAPE, name),
                )
            })
            .collect();
        Model {
            inner,
            tags,
            scorer,
            words,
            word_scores,
            pair_scores,
            tag_prefixes,
        }
    }

    /// The model as file bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.inner.to_bytes()
    }

    /// Reads a model file, checking that it is a POS model of known tags.
    pub fn from_bytes(bytes: &[u8]) -> Result<Model, ModelError> {
        let inner = attest_learn::Model::from_bytes_of_kind(bytes, MODEL_KIND, RETIRED_KIND)?;
        let tags = inner
            .labels
            .iter()
            .map(|label| {
                tag_of_name(label).ok_or_else(|| ModelError::Corrupt {
                    at: 0,
                    what: format!("label {label:?} is no part-of-speech tag"),
                })
            })
            .collect::<Result<Vec<PosTag>, ModelError>>()?;
        Ok(Model::assemble(inner, tags))
    }

    /// Facts recorded at training time.
    pub fn meta(&self) -> &BTreeMap<String, String> {
        &self.inner.meta
    }

    /// How many features, non-zero weights and lexicon words the model holds.
    pub fn size(&self) -> (usize, usize, usize) {
        (
            self.inner.keys.len(),
            self.inner.weights.n_weights(),
            self.inner.lexicon.len(),
        )
    }

    /// Tags one sentence of words.
    pub fn tag<'a>(&self, words: impl Iterator<Item = &'a str>) -> Vec<PosTag> {
        let mut out = Vec::new();
        self.tag_into(words, &mut Scratch::default(), &mut out);
        out
    }

    pub(crate) fn tag_into<'a>(
        &self,
        words: impl Iterator<Item = &'a str>,
        scratch: &mut Scratch,
        out: &mut Vec<PosTag>,
    ) {
        let fallback = PosTag::from_name("NN");
        scratch.context.set(words);
        let n_classes = self.scorer.n_classes() as usize;
        let (mut previous, mut previous2) = (START_INDEX, START_INDEX);
        for i in 0..scratch.context.len() {
            let word = self
                .words
                .get(&fnv1a64(scratch.context.raw(i as isize).as_bytes()));
            let tag = match word {
                Some(Word::Fixed(tag)) => Some(*tag),
                _ => {
                    scratch.hashes.clear();
                    scratch.scores.clear();
                    let known = word.and_then(|word| match word {
                        Word::Known(row) => {
                            let start = *row as usize * n_classes;
                            self.word_scores.get(start..start + n_classes)
                        }
                        Word::Fixed(_) => None,
                    });
                    match known {
                        Some(scores) => scratch.scores.extend_from_slice(scores),
                        None => {
                            scratch.scores.resize(n_classes, 0.0);
                            let mut sink = Hashing {
                                hashes: &mut scratch.hashes,
                            };
                            extract_word(&mut sink, &scratch.context, i);
                        }
                    }
                    let pair = (previous * (START_INDEX + 1) + previous2) * n_classes;
                    if let Some(pair) = self.pair_scores.get(pair..pair + n_classes) {
                        for (score, weight) in scratch.scores.iter_mut().zip(pair) {
                            *score += weight;
                        }
                    }
                    let (t1_word, t1_shape) =
                        self.tag_prefixes.get(previous).copied().unwrap_or_default();
                    context_hashes(&scratch.context, i, t1_word, t1_shape, &mut scratch.hashes);
                    self.scorer.add_all(&scratch.hashes, &mut scratch.scores);
                    let class = attest_learn::argmax(&scratch.scores);
                    self.tags.get(class).copied().or(fallback)
                }
            };
            previous2 = previous;
            previous = tag.map_or(START_INDEX, PosTag::index);
            if let Some(tag) = tag {
                out.push(tag);
            }
        }
    }

    /// How many tags of `sentences` the model gets right, and of how many.
    pub fn evaluate(&self, sentences: &[TaggedSentence]) -> (usize, usize) {
        let (mut right, mut total) = (0, 0);
        let mut scratch = Scratch::default();
        let mut predicted = Vec::new();
        for sentence in sentences {
            predicted.clear();
            self.tag_into(
                sentence.words.iter().map(String::as_str),
                &mut scratch,
                &mut predicted,
            );
            right += predicted
                .iter()
                .zip(&sentence.tags)
                .filter(|(p, g)| p == g)
                .count();
            total += sentence.tags.len();
        }
        (right, total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sentence(pairs: &[(&str, &str)]) -> TaggedSentence {
        let words = pairs.iter().map(|(w, _)| (*w).to_owned()).collect();
        let tags: Vec<&str> = pairs.iter().map(|(_, t)| *t).collect();
        TaggedSentence::from_names(words, &tags).unwrap()
    }

    fn data() -> Vec<TaggedSentence> {
        vec![
            sentence(&[
                ("The", "DT"),
                ("mayor", "NN"),
                ("said", "VBD"),
                ("no", "DT"),
                (".", "."),
            ]),
            sentence(&[
                ("A", "DT"),
                ("senator", "NN"),
                ("spoke", "VBD"),
                ("today", "NN"),
                (".", "."),
            ]),
            sentence(&[
                ("“", "``"),
                ("We", "PRP"),
                ("won", "VBD"),
                (",", ","),
                ("”", "''"),
                ("she", "PRP"),
                ("said", "VBD"),
                (".", "."),
            ]),
            sentence(&[
                ("Officials", "NNS"),
                ("said", "VBD"),
                ("the", "DT"),
                ("plan", "NN"),
                ("failed", "VBD"),
                (".", "."),
            ]),
        ]
    }

    #[test]
    fn learns_its_training_data_and_round_trips() {
        let config = TrainConfig {
            iterations: 8,
            prune_below: 0.0,
            ..TrainConfig::default()
        };
        let model = train(&data(), &config);
        let (right, total) = model.evaluate(&data());
        assert_eq!(right, total, "a tiny set is learned exactly");
        let bytes = model.to_bytes();
        let reread = Model::from_bytes(&bytes).unwrap();
        assert_eq!(reread.evaluate(&data()), (right, total));
        assert_eq!(reread.to_bytes(), bytes);
        let tags = reread.tag(["The", "senator", "said", "."].into_iter());
        let names: Vec<&str> = tags.iter().map(|t| t.name()).collect();
        assert_eq!(names, ["DT", "NN", "VBD", "."]);
    }

    #[test]
    fn training_is_deterministic_per_seed() {
        let config = TrainConfig::default();
        let a = train(&data(), &config).to_bytes();
        let b = train(&data(), &config).to_bytes();
        assert_eq!(a, b);
        let other = TrainConfig { seed: 99, ..config };
        assert_eq!(
            train(&data(), &other)
                .meta()
                .get("seed")
                .map(String::as_str),
            Some("99")
        );
    }

    #[test]
    fn frequent_unambiguous_words_enter_the_lexicon() {
        let mut data = Vec::new();
        for _ in 0..25 {
            data.extend(self::data());
        }
        // "no" is always DT here, "said" always VBD; "today" only 25 times but also always NN.
        let config = TrainConfig {
            lexicon_min_count: 30,
            ..TrainConfig::default()
        };
        let lexicon = build_lexicon(&data, &config);
        assert_eq!(
            lexicon.get("said").copied(),
            Some(PosTag::from_name("VBD").unwrap().index() as u16)
        );
        assert_eq!(lexicon.get("no"), None, "seen 25 times, under the minimum");
        assert_eq!(lexicon.get("the"), None);
        let mut ambiguous = data.clone();
        for _ in 0..10 {
            ambiguous.push(sentence(&[("said", "VBN")]));
        }
        assert_eq!(
            build_lexicon(&ambiguous, &config).get("said"),
            None,
            "too ambiguous"
        );
    }

    #[test]
    fn maps_tag_names() {
        assert_eq!(tag_of_name("NNP").map(PosTag::name), Some("NNP"));
        assert_eq!(tag_of_name("-LSB-").map(PosTag::name), Some("-LRB-"));
        assert_eq!(tag_of_name("-RCB-").map(PosTag::name), Some("-RRB-"));
        assert_eq!(tag_of_name("BOGUS"), None);
        assert!(TaggedSentence::from_names(vec!["a".into()], &["DT", "NN"]).is_none());
        assert!(TaggedSentence::from_names(vec!["a".into()], &["BOGUS"]).is_none());
    }

    // The envelope, its kind and the retired kind are attest-learn's checks
    // (`Model::from_bytes_of_kind`, tested there); the tags are the tagger's own.
    #[test]
    fn refuses_labels_that_are_no_tags() {
        let mut inner = train(&data(), &TrainConfig::default()).inner;
        inner.labels[0] = "BOGUS".to_owned();
        let error = Model::from_bytes(&inner.to_bytes()).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("\"BOGUS\" is no part-of-speech tag"),
            "{error}"
        );
    }
}
