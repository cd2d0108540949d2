//! Accurate mode: a fine-tuned BERT encoder (all-MiniLM-L6-v2) that tags
//! attribution roles, links each cue to its source and content, and tags
//! named entities, in one encoder pass per window, on the CPU with candle.
//!
//! The contract with training (`training/` in the repository, the encoder
//! contract in the issue) fixes everything here: how a token becomes word
//! pieces ([`wordpiece`]), how a document becomes windows and which window
//! owns each token ([`window`]), what the heads read, and how their scores
//! are decoded ([`decode`]). The crate gives token ranges; the attribution and
//! entity crates turn them into layers with the fast mode's own rules, and
//! `attest-pipeline` composes the two.
//!
//! ```no_run
//! use attest_encoder::Encoder;
//! # fn demo(doc: &attest_doc::Doc) -> Result<(), Box<dyn std::error::Error>> {
//! let encoder = Encoder::load(std::path::Path::new("models/encoder"))?;
//! let prediction = encoder.predict(doc, &attest_doc::Budget::unlimited())?;
//! for attribution in &prediction.attributions {
//!     println!("cue tokens {:?}", attribution.cue);
//! }
//! # Ok(()) }
//! ```

#![deny(missing_docs)]

mod bert;
pub mod decode;
mod model;
#[cfg(test)]
mod parity;
mod states;
pub mod testing;
#[cfg(test)]
mod tests;
pub mod window;
pub mod wordpiece;

use std::ops::Range;
use std::path::{Path, PathBuf};

use attest_doc::{
    Budget, Doc, EntityLabel, Exhausted, FoundAttribution, Proposals, StanceLabel, TokenView,
};

use model::Network;
pub use model::{
    DISTANCE_BUCKETS, ENTITY_LABELS, EncoderConfig, FORMAT, HEDGE_LABELS, PAIR_LABELS, ROLE_LABELS,
};
use states::WindowStates;
use window::{OwnedTokens, Units, owned_tokens};
use wordpiece::Vocab;

/// Why a model directory does not load, or the encoder failed on a document.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EncoderError {
    /// The directory or one of its files is not there.
    #[error("{path}: not found (accurate mode needs config.json, vocab.txt and model.safetensors)")]
    Missing {
        /// What is missing.
        path: PathBuf,
    },
    /// A file could not be read.
    #[error("{path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// config.json is not what this build reads.
    #[error("{path}: {message}")]
    Config {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// config.json declares a model format this build does not read.
    #[error(
        "{path}: model format {} is not the format {FORMAT} this build reads; use the attest that shipped with the model",
        found.as_deref().unwrap_or("(none)")
    )]
    Format {
        /// The file.
        path: PathBuf,
        /// The `attest.format` it declares.
        found: Option<String>,
    },
    /// vocab.txt is malformed.
    #[error("{path}: {source}")]
    Vocab {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: wordpiece::VocabError,
    },
    /// model.safetensors lacks a tensor or has one of the wrong shape.
    #[error("{path}: {message}")]
    Weights {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The computation failed on a document (a bug: shapes are checked when the model loads).
    #[error("the encoder failed: {0}")]
    Compute(String),
    /// The article's budget ran out, or its analysis was cancelled, between
    /// two batches of windows or two cues.
    #[error(transparent)]
    Exhausted(#[from] Exhausted),
}

impl From<candle_core::Error> for EncoderError {
    fn from(error: candle_core::Error) -> EncoderError {
        EncoderError::Compute(error.to_string())
    }
}

/// One entity mention the encoder found, in token indices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PredictedEntity {
    /// Its tokens.
    pub tokens: Range<usize>,
    /// Its type.
    pub label: EntityLabel,
}

/// What the encoder finds in a document.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Prediction {
    /// Attributions, ordered by cue.
    pub attributions: Vec<FoundAttribution>,
    /// Entity mentions, in order.
    pub entities: Vec<PredictedEntity>,
}

/// The stance head's scores for one attribution.
#[derive(Clone, Debug, PartialEq)]
pub struct StanceScores {
    /// Logits in [`StanceLabel::ALL`]'s order.
    pub logits: [f32; StanceLabel::ALL.len()],
}

impl StanceScores {
    /// The probability of each stance, in [`StanceLabel::ALL`]'s order.
    pub fn probabilities(&self) -> [f32; StanceLabel::ALL.len()] {
        let mut out = self.logits;
        decode::log_softmax_rows(&mut out, StanceLabel::ALL.len());
        out.map(f32::exp)
    }
}

/// The encoder's raw view of a document: units, windows, owners and the
/// per-token logits, which [`Encoder::predict`] decodes and the parity test
/// compares with training's numbers.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    /// The unit sequence and each token's units.
    pub units: Units,
    /// The windows, as unit ranges.
    pub windows: Vec<Range<usize>>,
    /// The owner window of each token.
    pub owners: Vec<usize>,
    /// Role logits, `[tokens, 7]` row-major.
    pub roles: Vec<f32>,
    /// Entity logits, `[tokens, 9]` row-major.
    pub entities: Vec<f32>,
    /// Hedge logits, `[tokens, 3]` row-major; empty when the model has no
    /// hedge head.
    pub hedges: Vec<f32>,
    /// Encoder output of the windows kept, `[units, hidden]` row-major;
    /// empty for a window not kept ([`KEPT_STATE_BYTES`]).
    states: Vec<Vec<f32>>,
    /// The batches the windows were encoded in, so that a window not kept
    /// is encoded again exactly as it first was.
    batches: Vec<Vec<usize>>,
    /// The cues decoded batch by batch while the windows' states were at
    /// hand, with their source and content runs, by cue.
    ahead: Vec<PairRuns>,
    /// The sentence of each token.
    sentence: Vec<usize>,
}

/// At most this many bytes of window states stay in an [`Analysis`] for the
/// pair and stance heads: about 40 windows, a news article of some 8,000
/// words. A longer document's later windows are encoded again, with their
/// batch, when a cue needs them, so that its memory grows with the
/// per-token scores (under 100 bytes a token) and not with the states (about
/// 2 KB a token), and its output is the same bit for bit.
pub const KEPT_STATE_BYTES: usize = 16 << 20;

/// The cue tokens a pair decoding used and its candidates' logits.
#[derive(Clone, Debug, PartialEq)]
pub struct PairScores {
    /// Candidate tokens: every token wholly inside the cue's window.
    pub candidates: Range<usize>,
    /// The cue's tokens in that window.
    pub cue: Range<usize>,
    /// Pair logits, `[candidates, 5]` row-major.
    pub logits: Vec<f32>,
}

/// A cue with the source and content runs the pair head gives it.
#[derive(Clone, Debug, Default, PartialEq)]
struct PairRuns {
    cue: Range<usize>,
    sources: Vec<Range<usize>>,
    content: Vec<Range<usize>>,
}

/// Tokens before a batch's own that its cues are decoded with, so that a
/// cue at the start of the batch's tokens is decoded as the whole document's
/// decoding would.
const AHEAD_CONTEXT_TOKENS: usize = 32;

/// The cue as the pair and stance heads read it.
struct CueView {
    /// Its window: the owner of its first token.
    window: usize,
    /// Every token wholly inside that window.
    candidates: Range<usize>,
    /// The cue's tokens in that window.
    cue: Range<usize>,
    /// Their mean state.
    mean: Vec<f32>,
}

/// The environment variable that names the model directory.
pub const DIR_VARIABLE: &str = "ATTEST_MODEL_DIR";

/// The model directory a caller that was given none reads: `$ATTEST_MODEL_DIR`,
/// else `models/encoder` of the source tree this crate was built from, so that
/// the command line and the Python module look in the same places.
pub fn default_dir() -> PathBuf {
    std::env::var_os(DIR_VARIABLE).map_or_else(
        || PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../models/encoder")),
        PathBuf::from,
    )
}

/// The accurate-mode model: vocabulary, encoder and heads.
#[derive(Debug)]
pub struct Encoder {
    network: Network,
    vocab: Vocab,
}

impl Encoder {
    /// Loads a model directory: config.json (its `attest.format` must be
    /// [`FORMAT`]), vocab.txt and model.safetensors.
    pub fn load(dir: &Path) -> Result<Encoder, EncoderError> {
        let (network, vocab) = Network::load(dir)?;
        Ok(Encoder { network, vocab })
    }

    /// How it windows documents.
    pub fn config(&self) -> EncoderConfig {
        self.network.config
    }

    /// Its vocabulary.
    pub fn vocab(&self) -> &Vocab {
        &self.vocab
    }

    /// The units of a document's tokens (byte spans into `text`): each
    /// token's pieces, with a `[SEP]` before a token a line break separates
    /// from the one before.
    pub fn units(&self, text: &str, tokens: &[Range<usize>]) -> Units {
        let mut units = Units::default();
        let mut pieces = Vec::with_capacity(wordpiece::MAX_PIECES);
        let mut previous_end = None;
        for token in tokens {
            if let Some(end) = previous_end
                && text
                    .get(end..token.start)
                    .is_some_and(|gap| gap.contains('\n'))
            {
                units.push_break(self.vocab.sep);
            }
            pieces.clear();
            self.vocab
                .token_pieces(text.get(token.clone()).unwrap_or_default(), &mut pieces);
            units.push_token(&pieces);
            previous_end = Some(token.end);
        }
        units
    }

    /// Runs the encoder over a segmented document, once per window, within
    /// `budget`.
    pub fn analyze(&self, doc: &Doc, budget: &Budget) -> Result<Analysis, EncoderError> {
        self.analyze_keeping(doc, budget, KEPT_STATE_BYTES)
    }

    /// [`Encoder::analyze`] keeping at most `kept_bytes` of window states.
    fn analyze_keeping(
        &self,
        doc: &Doc,
        budget: &Budget,
        kept_bytes: usize,
    ) -> Result<Analysis, EncoderError> {
        let tokens: Vec<Range<usize>> = doc
            .tokens()
            .iter()
            .map(|t| t.span.byte_start()..t.span.byte_end())
            .collect();
        let mut sentence = vec![0; tokens.len()];
        for (index, s) in doc.sentences().iter().enumerate() {
            for slot in sentence
                .iter_mut()
                .take(s.tokens.end.index())
                .skip(s.tokens.start.index())
            {
                *slot = index;
            }
        }
        self.analyze_tokens_keeping(doc.text(), &tokens, sentence, budget, kept_bytes)
    }

    /// Runs the encoder over tokens (byte spans into `text`, in order) with
    /// the sentence index of each, within `budget`: it is checked before each
    /// batch of windows, so that a long article stops within one batch of its
    /// limit. Keeps at most [`KEPT_STATE_BYTES`] of window states.
    pub fn analyze_tokens(
        &self,
        text: &str,
        tokens: &[Range<usize>],
        sentence: Vec<usize>,
        budget: &Budget,
    ) -> Result<Analysis, EncoderError> {
        self.analyze_tokens_keeping(text, tokens, sentence, budget, KEPT_STATE_BYTES)
    }

    /// [`Encoder::analyze_tokens`] keeping at most `kept_bytes` of window
    /// states. Each token's role, entity and hedge scores are read from its
    /// owner window as soon as its batch is encoded, so that no more than one
    /// batch of states is held beyond those kept.
    fn analyze_tokens_keeping(
        &self,
        text: &str,
        tokens: &[Range<usize>],
        sentence: Vec<usize>,
        budget: &Budget,
        kept_bytes: usize,
    ) -> Result<Analysis, EncoderError> {
        let config = self.network.config;
        let units = self.units(text, tokens);
        let windows = window::windows(&units.items, config.capacity(), config.stride_pieces);
        let owners = window::owners(&units.tokens, &windows);
        let batches = model::batches(&windows);
        let owned = owned_tokens(&owners, windows.len());
        let count = units.tokens.len();
        let hidden = config.hidden;
        let mut analysis = Analysis {
            roles: vec![0.0; count * ROLE_LABELS.len()],
            entities: vec![0.0; count * ENTITY_LABELS.len()],
            hedges: if config.hedge {
                vec![0.0; count * HEDGE_LABELS.len()]
            } else {
                Vec::new()
            },
            states: vec![Vec::new(); windows.len()],
            units,
            windows,
            owners,
            batches,
            ahead: Vec::new(),
            sentence,
        };
        let mut kept = 0usize;
        let mut rows = Vec::new();
        let mut read = Vec::new();
        let mut scored_end = 0;
        // The batch before, whose cues are decoded once this one's tokens,
        // which follow them, are scored too.
        let mut held: Option<(usize, Vec<Vec<f32>>)> = None;
        for index in 0..analysis.batches.len() {
            budget.check()?;
            let batch = analysis.batches.get(index).cloned().unwrap_or_default();
            let mut states = self.network.encode_batch(
                &analysis.units.ids,
                &analysis.windows,
                &batch,
                &self.vocab,
            )?;
            rows.clear();
            read.clear();
            for (&w, window_states) in batch.iter().zip(&states) {
                for &t in owned.tokens(w) {
                    let row = self.row_of(&analysis, window_states, w, t);
                    if row.len() == hidden {
                        rows.extend_from_slice(row);
                        read.push(t);
                    }
                }
            }
            scatter(
                &mut analysis.roles,
                &read,
                &self.network.roles(&rows)?,
                ROLE_LABELS.len(),
            );
            scatter(
                &mut analysis.entities,
                &read,
                &self.network.entities(&rows)?,
                ENTITY_LABELS.len(),
            );
            if let Some(hedges) = self.network.hedges(&rows)? {
                scatter(&mut analysis.hedges, &read, &hedges, HEDGE_LABELS.len());
            }
            // Batches go in document order, so every token before the first
            // one a later window owns is scored.
            let last_window = batch.last().copied().unwrap_or(0);
            while analysis
                .owners
                .get(scored_end)
                .is_some_and(|&owner| owner <= last_window)
            {
                scored_end += 1;
            }
            if let Some(previous) = held.take() {
                self.decode_ahead(&mut analysis, &owned, previous, scored_end)?;
            }
            for (&w, window_states) in batch.iter().zip(states.iter_mut()) {
                let bytes = window_states.len() * size_of::<f32>();
                if kept + bytes <= kept_bytes
                    && let Some(slot) = analysis.states.get_mut(w)
                {
                    kept += bytes;
                    *slot = std::mem::take(window_states);
                }
            }
            held = Some((index, states));
        }
        if let Some(last) = held {
            self.decode_ahead(&mut analysis, &owned, last, scored_end)?;
        }
        Ok(analysis)
    }

    /// Decodes the cues of the tokens the windows of batch `held.0` own,
    /// whose states (those not kept) are `held.1`, into `analysis.ahead`.
    fn decode_ahead(
        &self,
        analysis: &mut Analysis,
        owned: &OwnedTokens,
        held: (usize, Vec<Vec<f32>>),
        scored_end: usize,
    ) -> Result<(), EncoderError> {
        let tokens = analysis
            .batches
            .get(held.0)
            .into_iter()
            .flatten()
            .flat_map(|&w| owned.tokens(w).iter().copied());
        let Some(region) = tokens.fold(None, |region: Option<Range<usize>>, t| {
            Some(region.map_or(t..t + 1, |r| r.start.min(t)..r.end.max(t + 1)))
        }) else {
            return Ok(());
        };
        let whole = scored_end == analysis.units.tokens.len();
        let mut states = WindowStates {
            encoder: self,
            analysis,
            again: Some(held),
        };
        let found = self.cues_ahead(&mut states, region, scored_end, whole)?;
        analysis.ahead.extend(found);
        Ok(())
    }

    /// The state of token `token` (at its first piece) in window `window`,
    /// whose states are `states`; empty if the window does not hold it.
    fn row_of<'a>(
        &self,
        analysis: &Analysis,
        states: &'a [f32],
        window: usize,
        token: usize,
    ) -> &'a [f32] {
        let hidden = self.network.config.hidden;
        let (Some(range), Some(units)) = (
            analysis.windows.get(window),
            analysis.units.tokens.get(token),
        ) else {
            return &[];
        };
        let Some(row) = units.start.checked_sub(range.start) else {
            return &[];
        };
        states
            .get(row * hidden..(row + 1) * hidden)
            .unwrap_or_default()
    }

    /// The window of a cue whose first token is `first` (its owner) and the
    /// tokens wholly inside it; `None` if that window is not there.
    fn cue_window(&self, analysis: &Analysis, first: usize) -> Option<(usize, Range<usize>)> {
        let tokens = &analysis.units.tokens;
        let index = analysis.owners.get(first).copied().unwrap_or(0);
        let window = analysis.windows.get(index)?;
        let start = tokens.partition_point(|t| t.start < window.start);
        let end = tokens.partition_point(|t| t.end <= window.end);
        Some((index, start..end.max(start)))
    }

    /// The mean state of `tokens` in window `window`, whose states are
    /// `states`; zeros for no tokens.
    fn mean_state(
        &self,
        analysis: &Analysis,
        states: &[f32],
        window: usize,
        tokens: impl Iterator<Item = usize>,
    ) -> Vec<f32> {
        let mut mean = vec![0.0f32; self.network.config.hidden];
        let mut count = 0usize;
        for t in tokens {
            for (m, s) in mean
                .iter_mut()
                .zip(self.row_of(analysis, states, window, t))
            {
                *m += s;
            }
            count += 1;
        }
        let count = count.max(1) as f32;
        for m in &mut mean {
            *m /= count;
        }
        mean
    }

    /// How the pair head reads the cue on tokens `cue`: its window (the owner
    /// of its first token), the tokens wholly in that window, the cue's
    /// tokens in it, and their mean state; `None` if the cue's window is not
    /// there.
    fn cue_view(
        &self,
        states: &mut WindowStates<'_>,
        cue: Range<usize>,
    ) -> Result<Option<CueView>, EncoderError> {
        let analysis = states.analysis;
        let Some((window, candidates)) = self.cue_window(analysis, cue.start) else {
            return Ok(None);
        };
        let cue = cue.start.max(candidates.start)..cue.end.min(candidates.end).max(cue.start);
        let mean = self.mean_state(analysis, states.get(window)?, window, cue.clone());
        Ok(Some(CueView {
            window,
            candidates,
            cue,
            mean,
        }))
    }

    /// The stance head's scores for the attribution whose cue is on tokens
    /// `cue` (in order, and not always adjacent: "said ... on Monday") and
    /// which has a source span or not (`sourced`); `None` when the model has
    /// no stance head. The head reads the mean state of the cue's tokens in
    /// the window of its first, as training does.
    pub fn stance_scores(
        &self,
        analysis: &Analysis,
        cue: &[usize],
        sourced: bool,
    ) -> Result<Option<StanceScores>, EncoderError> {
        self.stance_in(&mut WindowStates::new(self, analysis), cue, sourced)
    }

    /// [`Encoder::stance_scores`] reading the window states through `states`.
    fn stance_in(
        &self,
        states: &mut WindowStates<'_>,
        cue: &[usize],
        sourced: bool,
    ) -> Result<Option<StanceScores>, EncoderError> {
        if !self.network.config.stance {
            return Ok(None);
        }
        let analysis = states.analysis;
        let window = cue
            .first()
            .and_then(|&first| self.cue_window(analysis, first));
        let mean = match window {
            Some((window, candidates)) => self.mean_state(
                analysis,
                states.get(window)?,
                window,
                cue.iter().copied().filter(|t| candidates.contains(t)),
            ),
            None => vec![0.0; self.network.config.hidden],
        };
        let Some(logits) = self.network.stance(mean, sourced)? else {
            return Ok(None);
        };
        let logits = logits
            .try_into()
            .map_err(|l: Vec<f32>| EncoderError::Compute(format!("{} stance logits", l.len())))?;
        Ok(Some(StanceScores { logits }))
    }

    /// What the stance and hedge heads propose for `doc`, whose attributions
    /// are set, from its `analysis`: the stance probabilities of each
    /// attribution and the writer's hedge cues. Empty where the model lacks
    /// the head.
    pub fn proposals(&self, analysis: &Analysis, doc: &Doc) -> Result<Proposals, EncoderError> {
        let view = TokenView::new(doc);
        let mut stances = Vec::new();
        if self.network.config.stance {
            stances.reserve(doc.attributions().len());
            let mut states = WindowStates::new(self, analysis);
            for attribution in doc.attributions() {
                let cue = view.tokens_of(&attribution.cue);
                if let Some(scores) =
                    self.stance_in(&mut states, &cue, !attribution.source.is_empty())?
                {
                    stances.push(scores.probabilities());
                }
            }
        }
        let hedges = self
            .hedge_cues(analysis)
            .into_iter()
            .filter_map(|run| {
                Some(
                    view.span(run.start)?
                        .cover(view.span(run.end.checked_sub(1)?)?),
                )
            })
            .collect();
        Ok(Proposals { stances, hedges })
    }

    /// The writer's hedge cues the hedge head finds, as token ranges in
    /// order: the contract's constrained Viterbi over the whole document.
    /// Empty when the model has no hedge head.
    pub fn hedge_cues(&self, analysis: &Analysis) -> Vec<Range<usize>> {
        let width = HEDGE_LABELS.len();
        let mut scores = analysis.hedges.clone();
        decode::log_softmax_rows(&mut scores, width);
        decode::runs(&decode::viterbi(&scores, width, |_| false), 1)
    }

    /// The pair head's logits for the cue on tokens `cue`: its window is the
    /// owner of its first token, the candidates every token wholly in it.
    pub fn pair_scores(
        &self,
        analysis: &Analysis,
        cue: Range<usize>,
    ) -> Result<PairScores, EncoderError> {
        self.pair_in(&mut WindowStates::new(self, analysis), cue)
    }

    /// [`Encoder::pair_scores`] reading the window states through `states`.
    fn pair_in(
        &self,
        states: &mut WindowStates<'_>,
        cue: Range<usize>,
    ) -> Result<PairScores, EncoderError> {
        let hidden = self.network.config.hidden;
        let analysis = states.analysis;
        let Some(CueView {
            window: window_index,
            candidates,
            cue,
            mean,
        }) = self.cue_view(states, cue.clone())?
        else {
            return Ok(PairScores {
                candidates: 0..0,
                cue: cue.start..cue.start,
                logits: Vec::new(),
            });
        };
        let cue_last = cue.end.saturating_sub(1).max(cue.start);
        let cue_sentence = analysis.sentence.get(cue.start).copied();
        let mut rows = Vec::with_capacity(candidates.len() * hidden);
        let mut buckets = Vec::with_capacity(candidates.len());
        let mut same = Vec::with_capacity(candidates.len());
        let window_states = states.get(window_index)?;
        for t in candidates.clone() {
            rows.extend_from_slice(self.row_of(analysis, window_states, window_index, t));
            let d = if t < cue.start {
                t as isize - cue.start as isize
            } else if t > cue_last {
                t as isize - cue_last as isize
            } else {
                0
            };
            buckets.push(window::bucket(d) as u32);
            same.push(u32::from(analysis.sentence.get(t).copied() == cue_sentence));
        }
        let logits = self.network.pairs(rows, mean, &buckets, &same)?;
        Ok(PairScores {
            candidates,
            cue,
            logits,
        })
    }

    /// The source and content runs the pair head gives the cue on tokens
    /// `cue`: its labels decoded with the cue's own tokens kept outside.
    fn pair_runs(
        &self,
        states: &mut WindowStates<'_>,
        cue: Range<usize>,
    ) -> Result<PairRuns, EncoderError> {
        let mut pair = self.pair_in(states, cue.clone())?;
        let width = PAIR_LABELS.len();
        decode::log_softmax_rows(&mut pair.logits, width);
        let offset = pair.candidates.start;
        let inside = pair.cue.clone();
        let pair_labels = decode::viterbi(&pair.logits, width, |p| inside.contains(&(p + offset)));
        let shift = |runs: Vec<Range<usize>>| -> Vec<Range<usize>> {
            runs.into_iter()
                .map(|r| r.start + offset..r.end + offset)
                .collect()
        };
        Ok(PairRuns {
            cue,
            sources: shift(decode::runs(&pair_labels, 1)),
            content: shift(decode::runs(&pair_labels, 3)),
        })
    }

    /// The cues the role head gives the tokens of `region` (which the
    /// windows of one batch own), decoded over `region` with
    /// [`AHEAD_CONTEXT_TOKENS`] before it and every token scored so far after
    /// it (up to `scored_end`; `whole` when that is all of them), and their
    /// source and content runs from `states`, which hold that batch. The whole document's decoding decides the cues
    /// later; where it agrees, as it nearly always does, the windows need
    /// not be encoded again.
    fn cues_ahead(
        &self,
        states: &mut WindowStates<'_>,
        region: Range<usize>,
        scored_end: usize,
        whole: bool,
    ) -> Result<Vec<PairRuns>, EncoderError> {
        let roles = ROLE_LABELS.len();
        let from = region.start.saturating_sub(AHEAD_CONTEXT_TOKENS);
        let Some(rows) = states.analysis.roles.get(from * roles..scored_end * roles) else {
            return Ok(Vec::new());
        };
        let mut scores = rows.to_vec();
        decode::log_softmax_rows(&mut scores, roles);
        let labels = decode::viterbi(&scores, roles, |_| false);
        let mut found = Vec::new();
        for run in decode::runs(&labels, 3) {
            let cue = run.start + from..run.end + from;
            // A cue ending at the last token scored may go on past it,
            // unless that is the document's last.
            if region.contains(&cue.start) && (cue.end < scored_end || whole) {
                found.push(self.pair_runs(states, cue)?);
            }
        }
        Ok(found)
    }

    /// The attributions and entities of a segmented document, within
    /// `budget`, checked before each batch of windows and each cue.
    pub fn predict(&self, doc: &Doc, budget: &Budget) -> Result<Prediction, EncoderError> {
        self.predict_from(&self.analyze(doc, budget)?, budget)
    }

    /// [`Encoder::predict`] from the document's analysis, which stays for
    /// [`Encoder::proposals`].
    pub fn predict_from(
        &self,
        analysis: &Analysis,
        budget: &Budget,
    ) -> Result<Prediction, EncoderError> {
        let roles = ROLE_LABELS.len();
        let mut role_scores = analysis.roles.clone();
        decode::log_softmax_rows(&mut role_scores, roles);
        let labels = decode::viterbi(&role_scores, roles, |_| false);
        let mut attributions = Vec::new();
        let mut states = WindowStates::new(self, analysis);
        for cue in decode::runs(&labels, 3) {
            budget.check()?;
            let confidence = decode::run_confidence(&role_scores, roles, &labels, &cue);
            let ahead = analysis
                .ahead
                .binary_search_by_key(&cue.start, |found| found.cue.start)
                .ok()
                .and_then(|index| analysis.ahead.get(index))
                .filter(|found| found.cue == cue);
            let found = match ahead {
                Some(found) => found.clone(),
                None => self.pair_runs(&mut states, cue)?,
            };
            attributions.push(FoundAttribution {
                cue: found.cue,
                sources: found.sources,
                content: found.content,
                confidence,
            });
        }
        let width = ENTITY_LABELS.len();
        let mut scores = analysis.entities.clone();
        decode::log_softmax_rows(&mut scores, width);
        let entity_labels = decode::viterbi(&scores, width, |_| false);
        let mut entities = Vec::new();
        for (begin, label) in [
            (1, EntityLabel::Person),
            (3, EntityLabel::Organization),
            (5, EntityLabel::Location),
            (7, EntityLabel::Other),
        ] {
            entities.extend(
                decode::runs(&entity_labels, begin)
                    .into_iter()
                    .map(|tokens| PredictedEntity { tokens, label }),
            );
        }
        entities.sort_by_key(|e| (e.tokens.start, e.tokens.end));
        Ok(Prediction {
            attributions,
            entities,
        })
    }
}

/// Writes each row of `logits` (rows of `width`) to the row of `into` of
/// the token `read` names at the same place.
fn scatter(into: &mut [f32], read: &[usize], logits: &[f32], width: usize) {
    for (&token, row) in read.iter().zip(logits.chunks(width)) {
        if let Some(target) = into.get_mut(token * width..(token + 1) * width) {
            target.copy_from_slice(row);
        }
    }
}
