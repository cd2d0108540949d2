//! Training both taggers from gold attributions.
//!
//! Two things the run-time stage sees are produced in training the way they
//! will be at run time, by 5-fold jackknifing: the cue lexicon an article's
//! words are looked up in is counted on the other folds, and the "other cues"
//! the role tagger sees are those a cue tagger trained on the other folds finds
//! (not the gold ones). Both raised dev F1 by one to two points.

use attest_doc::{Attribution, Doc, Span};

use crate::features::{Lexicon, RoleContext, View};
use crate::model::Attributor;
use crate::tagging::{
    CON_B, CON_I, CUE_B, CUE_I, CUE_LABELS, CUE_O, ROLE_LABELS, ROLE_O, SRC_B, SRC_I,
    cue_constraints, never_cue, role_constraints, role_masks, role_sequence_keys, window,
};
use attest_learn::{
    KeyMap, KeyTable, QuantisedModel, SequenceTrainer, SplitMix64, TransitionMask, decode_scores,
    fnv1a64,
};

/// How to train. There is no default: the CLI and tests say what they want.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainConfig {
    /// Seeds the order in which examples are visited each epoch.
    pub seed: u64,
    /// Passes over the training data.
    pub epochs: usize,
    /// Averaged cue-tagger weights smaller than this in magnitude (for every
    /// label) are dropped from the model file; 0.0 keeps everything. 3.5 (12
    /// epochs) is what the bundled model uses: a third of the size of 0.0 and
    /// faster, for about 0.5 F1 point; 5 costs a cue point.
    pub cue_prune: f32,
    /// The same for the role (source and content) tagger, which bears much
    /// more: the bundled model uses 10, which keeps a fifth of its rows with
    /// no loss on dev; 20 costs a source point.
    pub role_prune: f32,
    /// How many visiting orders each tagger (the fold taggers that predict
    /// the role tagger's cues included) is trained with, their weights then
    /// averaged ([`attest_learn::SequenceTrainer::mean_of`]).
    pub shuffles: usize,
}

/// One training article: a segmented, POS-tagged document and its gold.
#[derive(Clone, Debug)]
pub struct TrainingExample {
    /// The document, segmented and tagged the way [`Attributor`] will see text.
    pub doc: Doc,
    /// Its gold attributions.
    pub gold: Vec<Attribution>,
}

/// Token ranges covered by a set of byte spans, one range per span.
fn token_ranges(doc: &Doc, spans: &[Span]) -> Vec<(usize, usize)> {
    let tokens = doc.tokens();
    spans
        .iter()
        .filter_map(|span| {
            let first = tokens.partition_point(|t| t.span.byte_end() <= span.byte_start());
            let end = tokens.partition_point(|t| t.span.byte_start() < span.byte_end());
            (first < end).then_some((first, end))
        })
        .collect()
}

/// Per-token gold cue labels of a document.
fn cue_labels(doc: &Doc, gold: &[Attribution]) -> (Vec<usize>, Vec<Option<(usize, usize)>>) {
    let mut labels = vec![CUE_O; doc.tokens().len()];
    let mut cues = Vec::with_capacity(gold.len());
    for attribution in gold {
        let ranges = token_ranges(doc, &attribution.cue);
        let Some(first) = ranges.first().copied() else {
            cues.push(None);
            continue;
        };
        let free = (first.0..first.1).all(|i| labels.get(i) == Some(&CUE_O));
        if free {
            for (offset, slot) in labels.iter_mut().take(first.1).skip(first.0).enumerate() {
                *slot = if offset == 0 { CUE_B } else { CUE_I };
            }
            cues.push(Some(first));
        } else {
            // A cue shared with an attribution seen before: one labelling holds one.
            cues.push(None);
        }
    }
    (labels, cues)
}

/// The gold role labels of a window, with cue tokens forced to O.
fn role_labels(
    doc: &Doc,
    attribution: &Attribution,
    span: (usize, usize),
    cue: (usize, usize),
) -> Vec<usize> {
    let mut labels = vec![ROLE_O; span.1 - span.0];
    let mut paint = |ranges: Vec<(usize, usize)>, begin: usize, inside: usize| {
        for (first, end) in ranges {
            let mut started = false;
            for index in first.max(span.0)..end.min(span.1) {
                if index >= cue.0 && index < cue.1 {
                    started = false;
                    continue;
                }
                if let Some(slot) = labels.get_mut(index - span.0)
                    && *slot == ROLE_O
                {
                    *slot = if started { inside } else { begin };
                    started = true;
                }
            }
        }
    };
    paint(token_ranges(doc, &attribution.source), SRC_B, SRC_I);
    paint(token_ranges(doc, &attribution.content), CON_B, CON_I);
    labels
}

/// One sentence of cue training data.
struct CueSentence {
    example: usize,
    first_token: usize,
    sequence: Vec<Vec<u32>>,
    gold: Vec<u16>,
    /// What training allows each token.
    masks: Vec<u64>,
    /// What the run-time stage allows each token.
    run_masks: Vec<u64>,
}

/// Trains `trainer` for `epochs` on the sentences `include` accepts.
fn train_cues(
    trainer: &mut SequenceTrainer,
    sentences: &[CueSentence],
    include: impl Fn(&CueSentence) -> bool,
    epochs: usize,
    rng: &mut SplitMix64,
) {
    let constraints = cue_constraints();
    let mut order: Vec<usize> = (0..sentences.len())
        .filter(|i| sentences.get(*i).is_some_and(&include))
        .collect();
    for _ in 0..epochs {
        rng.shuffle(&mut order);
        for index in &order {
            if let Some(sentence) = sentences.get(*index) {
                trainer.train_sequence_within(
                    &sentence.sequence,
                    &sentence.gold,
                    Some(&constraints),
                    &sentence.masks,
                );
            }
        }
    }
}

/// Folds for the lexicon a training article sees: its words' cue rates come
/// from the other folds only, so that a word seen in a cue once is as unknown
/// to the lexicon in training as a new word is at run time.
const LEXICON_FOLDS: usize = 5;

/// Counts `(in cues, in total)` per lowercase word, per fold of the examples.
fn fold_counts(examples: &[TrainingExample]) -> Vec<KeyMap<(u32, u32)>> {
    let mut folds: Vec<KeyMap<(u32, u32)>> = vec![KeyMap::default(); LEXICON_FOLDS];
    for (index, example) in examples.iter().enumerate() {
        let Some(counts) = folds.get_mut(index % LEXICON_FOLDS) else {
            continue;
        };
        let doc = &example.doc;
        let (labels, _) = cue_labels(doc, &example.gold);
        for (token, label) in doc.tokens().iter().zip(&labels) {
            let word = token.span.get(doc.text()).unwrap_or("").to_lowercase();
            let entry = counts.entry(fnv1a64(word.as_bytes())).or_default();
            entry.1 += 1;
            if *label != CUE_O {
                entry.0 += 1;
            }
        }
    }
    folds
}

/// The lexicon of the folds other than `skip` (all of them for `None`).
fn lexicon(folds: &[KeyMap<(u32, u32)>], skip: Option<usize>) -> Lexicon {
    let mut counts: KeyMap<(u32, u32)> = KeyMap::default();
    for (fold, fold_counts) in folds.iter().enumerate() {
        if Some(fold) == skip {
            continue;
        }
        for (word, (in_cue, total)) in fold_counts {
            let entry = counts.entry(*word).or_default();
            entry.0 += in_cue;
            entry.1 += total;
        }
    }
    Lexicon::from_counts(&counts)
}

/// Gives each position's keys their ids in `table`, adding new keys.
fn intern(table: &mut KeyTable, keys: &[Vec<u64>]) -> Vec<Vec<u32>> {
    keys.iter()
        .map(|position| {
            position
                .iter()
                .filter_map(|key| table.intern(*key))
                .collect()
        })
        .collect()
}

/// The labels an averaged cue model gives a sentence under the run-time
/// masks, with the run-time bias on "a cue begins here".
fn predict_cues(
    model: &attest_learn::SequenceModel,
    sentence: &CueSentence,
    constraints: &TransitionMask,
) -> Vec<u16> {
    let mut emissions = Vec::with_capacity(sentence.sequence.len() * CUE_LABELS);
    for ids in &sentence.sequence {
        let mut scores = [0.0; CUE_LABELS];
        model.emissions.add_scores(ids, &mut scores);
        if let Some(score) = scores.get_mut(CUE_B) {
            *score += crate::model::DEFAULT_CUE_BIAS;
        }
        emissions.extend(scores);
    }
    decode_scores(
        CUE_LABELS,
        &emissions,
        &model.transitions,
        Some(constraints),
        &sentence.run_masks,
    )
}

/// Trains a model and returns its bytes (see [`Attributor::from_bytes`]).
///
/// Deterministic: the same examples and config give the same bytes.
pub fn train(examples: &[TrainingExample], config: &TrainConfig) -> Vec<u8> {
    train_model(examples, config).to_bytes()
}

/// Trains a model.
pub fn train_model(examples: &[TrainingExample], config: &TrainConfig) -> Attributor {
    let folds = fold_counts(examples);
    let held_out: Vec<Lexicon> = (0..LEXICON_FOLDS)
        .map(|fold| lexicon(&folds, Some(fold)))
        .collect();
    let empty = Lexicon::default();
    let views: Vec<View> = examples
        .iter()
        .enumerate()
        .map(|(index, example)| {
            let lexicon = held_out.get(index % LEXICON_FOLDS).unwrap_or(&empty);
            View::new(&example.doc, lexicon)
        })
        .collect();
    let mut cue_keys = KeyTable::new();
    let mut sentences = Vec::new();
    let mut keys: Vec<Vec<u64>> = Vec::new();
    let mut gold_cues = Vec::with_capacity(examples.len());
    for (index, (example, view)) in examples.iter().zip(&views).enumerate() {
        let (labels, cues) = cue_labels(&example.doc, &example.gold);
        for &sentence in &view.sentences {
            keys.clear();
            let gold = labels.get(sentence.0..sentence.1).unwrap_or(&[]).to_vec();
            let mut masks = Vec::with_capacity(gold.len());
            let mut run_masks = Vec::with_capacity(gold.len());
            for (token, label) in (sentence.0..sentence.1).zip(&gold) {
                run_masks.push(if never_cue(view, token) {
                    1 << CUE_O
                } else {
                    u64::MAX
                });
                let mut position = Vec::with_capacity(40);
                // As at run time, except where the gold says otherwise (a word
                // of this fold's cues that the other folds never saw in one).
                if never_cue(view, token) && *label == CUE_O {
                    masks.push(1 << CUE_O);
                } else {
                    masks.push(u64::MAX);
                    view.cue_keys(token, sentence, &mut position);
                }
                keys.push(position);
            }
            sentences.push(CueSentence {
                example: index,
                first_token: sentence.0,
                sequence: intern(&mut cue_keys, &keys),
                gold: gold.iter().map(|label| *label as u16).collect(),
                masks,
                run_masks,
            });
        }
        gold_cues.push(cues);
    }

    // The role tagger learns with the cues a tagger that never saw the article
    // finds, as at run time, not with the gold ones (jackknifed by fold).
    let mut predicted: Vec<Vec<bool>> = views.iter().map(|v| vec![false; v.tokens.len()]).collect();
    let mut rng = SplitMix64::new(config.seed);
    let constraints = cue_constraints();
    for fold in 0..LEXICON_FOLDS {
        let averaged = SequenceTrainer::mean_of(CUE_LABELS as u16, config.shuffles, |part| {
            train_cues(
                part,
                &sentences,
                |s| s.example % LEXICON_FOLDS != fold,
                config.epochs,
                &mut rng,
            );
        });
        for sentence in sentences
            .iter()
            .filter(|s| s.example % LEXICON_FOLDS == fold)
        {
            let labels = predict_cues(&averaged, sentence, &constraints);
            if let Some(flags) = predicted.get_mut(sentence.example) {
                for (offset, label) in labels.iter().enumerate() {
                    if let Some(flag) = flags.get_mut(sentence.first_token + offset) {
                        *flag = usize::from(*label) != CUE_O;
                    }
                }
            }
        }
    }
    let cue_model = SequenceTrainer::mean_of(CUE_LABELS as u16, config.shuffles, |trainer| {
        train_cues(trainer, &sentences, |_| true, config.epochs, &mut rng);
    });
    drop(sentences);

    let mut role_keys = KeyTable::new();
    let mut role_sequences = Vec::new();
    for (((example, view), cues), flags) in
        examples.iter().zip(&views).zip(&gold_cues).zip(&predicted)
    {
        for (attribution, cue) in example.gold.iter().zip(cues) {
            let Some(cue) = *cue else {
                continue;
            };
            let span = window(view, cue);
            let context = RoleContext::new(view, cue, span, flags);
            let keys = role_sequence_keys(view, span, cue, &context);
            let gold = role_labels(&example.doc, attribution, span, cue);
            let gold: Vec<u16> = gold.iter().map(|label| *label as u16).collect();
            role_sequences.push((intern(&mut role_keys, &keys), gold, role_masks(span, cue)));
        }
    }
    let role_constraints = role_constraints();
    let mut role_order: Vec<usize> = (0..role_sequences.len()).collect();
    let role_model = SequenceTrainer::mean_of(ROLE_LABELS as u16, config.shuffles, |trainer| {
        for _ in 0..config.epochs {
            rng.shuffle(&mut role_order);
            for index in &role_order {
                if let Some((sequence, gold, masks)) = role_sequences.get(*index) {
                    trainer.train_sequence_within(sequence, gold, Some(&role_constraints), masks);
                }
            }
        }
    });
    Attributor::new(
        lexicon(&folds, None),
        QuantisedModel::freeze(&cue_model, &cue_keys, config.cue_prune),
        QuantisedModel::freeze(&role_model, &role_keys, config.role_prune),
    )
}
