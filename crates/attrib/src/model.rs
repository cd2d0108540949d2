//! The attribution model: lexicon and both taggers, its file format, and the
//! stage that runs it.
//!
//! File format: attest-learn's model envelope (magic, format version,
//! checksum) of kind `ATTR`, whose body (little-endian) is the lexicon (count,
//! then `(word hash u64, byte)` sorted by hash; the byte is a word's cue share
//! and count, or `0xF0` for a word never seen in a cue, see
//! `features::Lexicon`), then the cue tagger and the role tagger as
//! [`QuantisedModel::write`] writes them. Sorting makes the bytes a function of
//! the weights alone, so the same data and seed give the same file. Files of
//! the format before it (magic `ATTRIBM1`) are refused with a word to retrain.

use attest_doc::{Attribution, Budget, Doc, Exhausted, Layer, LayerError, Stage, StageError};

use crate::assemble::{Plan, Rules, TokenRange};
use crate::calibration::Calibration;
use crate::features::{Lexicon, NEIGHBOURS, RoleContext, View};
use crate::memo::{Memos, edge_sums};
use attest_learn::{QuantisedModel, Sums, TransitionMask};

use crate::tagging::{
    self, CON_B, CON_I, CUE_B, CUE_I, CUE_LABELS, CUE_O, ROLE_LABELS, SRC_B, SRC_I,
    cue_constraints, role_constraints, role_masks, runs, window,
};
use attest_learn::KeyMap;
use attest_learn::ModelError;
use attest_learn::Writer;

/// The kind of attest-learn model file an attribution model is.
const KIND: [u8; 4] = *b"ATTR";

/// The magic bytes of the attribution stage's own format before it moved into
/// attest-learn's envelope.
const RETIRED_MAGIC: &[u8; 8] = b"ATTRIBM1";

/// Where the bundled model comes from, for errors.
const BUNDLED_FILE: &str = "models/attrib.model";

/// The model bundled into this build, if one was trained before it was built.
const BUNDLED: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../models/attrib.model"
));

/// The calibration of the bundled model's confidences (see [`Calibration`]).
const BUNDLED_CALIBRATION: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../models/attrib.calibration"
));

/// The path-score margin that maps to a confidence of about 0.46; see [`Attributor`].
const CONFIDENCE_SCALE: f32 = 40.0;

/// The attribution stage: a cue tagger and a role tagger learned from PolNeAR.
///
/// Confidence: the cue tagger's best labelling of the sentence is scored
/// against its best labelling with this cue's tokens forced to O; the margin
/// (zero or more), divided by a fixed scale (40), goes through the logistic
/// function and is stretched from [0.5, 1) to [0, 1). A cue the tagger barely chose gets
/// close to 0; a clear "said" close to 1. The scale was set on the dev split so
/// that confidence tenths rise with the share of correct cues.
#[derive(Clone, Debug)]
pub struct Attributor {
    pub(crate) lexicon: Lexicon,
    pub(crate) cue: QuantisedModel,
    pub(crate) role: QuantisedModel,
    pub(crate) cue_bias: f32,
    /// The cue tagger's sums of the neighbour keys past a sentence's edge.
    pub(crate) edge: [Sums; NEIGHBOURS.len()],
    memos: Memos,
    /// What turns its raw confidences into probabilities.
    calibration: Calibration,
}

/// The score added to "a cue begins here" before decoding, tuned on the PolNeAR
/// dev split: the tagger alone finds cues with more precision than recall, and
/// this balances them a little without losing direct-quote precision.
pub const DEFAULT_CUE_BIAS: f32 = 8.0;

impl Attributor {
    /// The model bundled into this build (models/attrib.model).
    pub fn bundled() -> Result<Attributor, ModelError> {
        let calibration =
            Calibration::parse(BUNDLED_CALIBRATION).map_err(|error| ModelError::Corrupt {
                at: 0,
                what: format!("models/attrib.calibration: {error}"),
            })?;
        Ok(load(BUNDLED, BUNDLED_FILE)?.with_calibration(calibration))
    }

    /// The same model with `calibration` for its confidences; a model read
    /// by [`Attributor::from_bytes`] has none and gives raw confidences.
    pub fn with_calibration(self, calibration: Calibration) -> Attributor {
        Attributor {
            calibration,
            ..self
        }
    }

    /// Reads a model from the bytes [`crate::train`] wrote.
    pub fn from_bytes(bytes: &[u8]) -> Result<Attributor, ModelError> {
        if bytes.starts_with(RETIRED_MAGIC) {
            return Err(ModelError::Retired {
                format: "ATTRIBM1 attribution model".to_owned(),
            });
        }
        let (kind, mut input) = attest_learn::open_model(bytes)?;
        attest_learn::expect_kind(kind, KIND)?;
        let count = input.u32()? as usize;
        if count.saturating_mul(9) > input.remaining() {
            return Err(input.corrupt(&format!("{count} lexicon entries do not fit the file")));
        }
        let mut entries = KeyMap::default();
        entries.reserve(count);
        for _ in 0..count {
            let key = input.u64()?;
            entries.insert(key, input.u8()?);
        }
        let cue = QuantisedModel::read(&mut input)?;
        let role = QuantisedModel::read(&mut input)?;
        if cue.labels() != CUE_LABELS || role.labels() != ROLE_LABELS {
            return Err(input.corrupt(&format!(
                "taggers have {} and {} labels, expected {CUE_LABELS} and {ROLE_LABELS}",
                cue.labels(),
                role.labels()
            )));
        }
        input.finish()?;
        Ok(Attributor::new(Lexicon { entries }, cue, role))
    }

    pub(crate) fn new(lexicon: Lexicon, cue: QuantisedModel, role: QuantisedModel) -> Attributor {
        Attributor {
            edge: edge_sums(&cue),
            lexicon,
            cue,
            role,
            cue_bias: DEFAULT_CUE_BIAS,
            memos: Memos::default(),
            calibration: Calibration::identity(),
        }
    }

    /// The same model with another cue bias: higher finds more cues (recall),
    /// lower fewer (precision). [`DEFAULT_CUE_BIAS`] is what `from_bytes` sets.
    pub fn with_cue_bias(mut self, bias: f32) -> Attributor {
        if bias.is_finite() {
            self.cue_bias = bias;
        }
        self
    }

    /// The model as bytes, in the format [`Attributor::from_bytes`] reads.
    pub fn to_bytes(&self) -> Vec<u8> {
        attest_learn::seal_model(KIND, |out| self.write_body(out))
    }

    fn write_body(&self, out: &mut Writer) {
        let mut entries: Vec<(u64, u8)> =
            self.lexicon.entries.iter().map(|(k, v)| (*k, *v)).collect();
        entries.sort_unstable();
        out.u32(entries.len() as u32);
        for (key, value) in entries {
            out.u64(key);
            out.u8(value);
        }
        self.cue.write(out);
        self.role.write(out);
    }

    /// Finds the attributions of a segmented (and, for best results, POS-tagged)
    /// document, ordered by cue.
    pub fn attributions(&self, doc: &Doc) -> Vec<Attribution> {
        // An unlimited budget whose canceller no one holds never runs out.
        self.attributions_within(doc, &Budget::unlimited())
            .unwrap_or_default()
    }

    /// [`Attributor::attributions`], checking `budget` at each sentence and
    /// each cue.
    pub fn attributions_within(
        &self,
        doc: &Doc,
        budget: &Budget,
    ) -> Result<Vec<Attribution>, Exhausted> {
        let view = View::new(doc, &self.lexicon);
        let rules = Rules::ALL;
        let plan = Plan::new(&view, doc, self.cues(&view, budget)?, &rules);
        let constraints = role_constraints();
        let mut keys = Vec::with_capacity(64);
        let mut attributions = plan.finish(&view, doc, &rules, budget, |cue| {
            self.roles(&view, cue, &plan.flags, &constraints, &mut keys)
        })?;
        self.calibration.calibrate(&mut attributions);
        Ok(attributions)
    }

    /// The source and content runs the role tagger finds for a cue.
    fn roles(
        &self,
        view: &View,
        cue: (usize, usize),
        flags: &[bool],
        constraints: &TransitionMask,
        keys: &mut Vec<u64>,
    ) -> (Vec<TokenRange>, Vec<TokenRange>) {
        let span = window(view, cue);
        let context = RoleContext::new(view, cue, span, flags);
        let emissions = tagging::role_emissions(&self.role, view, span, cue, &context, keys);
        let labels = self
            .role
            .decode(&emissions, constraints, &role_masks(span, cue));
        let shift = |runs: Vec<(usize, usize)>| -> Vec<(usize, usize)> {
            runs.into_iter()
                .map(|(a, b)| (a + span.0, b + span.0))
                .collect()
        };
        (
            shift(runs(&labels, SRC_B, SRC_I)),
            shift(runs(&labels, CON_B, CON_I)),
        )
    }

    /// The cues of a document as token ranges, with confidences.
    fn cues(&self, view: &View, budget: &Budget) -> Result<Vec<ScoredCue>, Exhausted> {
        let constraints = cue_constraints();
        let mut out = Vec::new();
        let mut keys = Vec::with_capacity(64);
        let mut emissions = Vec::new();
        let mut masks = Vec::new();
        let mut memo = self.memos.take();
        let mut word_sums = Vec::new();
        for &sentence in &view.sentences {
            if let Err(exhausted) = budget.check() {
                self.memos.give(memo);
                return Err(exhausted);
            }
            emissions.clear();
            masks.clear();
            memo.sentence(&self.cue, &self.edge, view, sentence, &mut word_sums);
            for (index, sums) in (sentence.0..sentence.1).zip(&word_sums) {
                if tagging::never_cue(view, index) {
                    emissions.extend([0.0; CUE_LABELS]);
                    masks.push(1 << CUE_O);
                    continue;
                }
                masks.push(u64::MAX);
                keys.clear();
                view.context_cue_keys(index, sentence, &mut keys);
                self.cue.score_from(*sums, &keys, &mut emissions);
                if let Some(begin) = emissions.len().checked_sub(CUE_LABELS - CUE_B)
                    && let Some(score) = emissions.get_mut(begin)
                {
                    *score += self.cue_bias;
                }
            }
            let labels = self.cue.decode(&emissions, &constraints, &masks);
            let best = self.cue.path_score(&emissions, &labels);
            for (start, end) in runs(&labels, CUE_B, CUE_I) {
                // How much the best labelling beats the best one without this cue.
                let masks: Vec<u64> = masks
                    .iter()
                    .enumerate()
                    .map(|(p, mask)| {
                        if p >= start && p < end {
                            1 << CUE_O
                        } else {
                            *mask
                        }
                    })
                    .collect();
                let without = self.cue.decode(&emissions, &constraints, &masks);
                let margin = best - self.cue.path_score(&emissions, &without);
                out.push((
                    (start + sentence.0, end + sentence.0),
                    tagging::squash(margin, CONFIDENCE_SCALE),
                ));
            }
        }
        self.memos.give(memo);
        Ok(out)
    }
}

/// The model in `bytes`, read from `file`; errors name the file.
fn load(bytes: &[u8], file: &str) -> Result<Attributor, ModelError> {
    if bytes.is_empty() {
        return Err(ModelError::NotBundled {
            stage: "attributions".to_owned(),
        });
    }
    Attributor::from_bytes(bytes).map_err(|error| error.in_file(file))
}

/// A cue's token range and its confidence.
type ScoredCue = ((usize, usize), f32);

impl Stage for Attributor {
    const NAME: &'static str = "attributions";
    const REQUIRES: &'static [Layer] = &[
        Layer::Tokens,
        Layer::Sentences,
        Layer::Paragraphs,
        Layer::Pos,
    ];
    const ASSIGNS: &'static [Layer] = &[Layer::Attributions];

    fn run(&self, doc: &mut Doc) -> Result<(), LayerError> {
        let attributions = self.attributions(doc);
        doc.set_attributions(attributions)
    }

    fn run_within(&self, doc: &mut Doc, budget: &Budget) -> Result<(), StageError> {
        let attributions = self.attributions_within(doc, budget)?;
        Ok(doc.set_attributions(attributions)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{TrainConfig, TrainingExample, train};
    use attest_doc::{Article, AttributionKind, Limits, Span};

    fn example(text: &str, source: &str, cue: &str, content: &str) -> TrainingExample {
        let mut doc = Doc::new(Article::new("t", text));
        doc.set_segmentation(attest_text::segment(text, &Limits::DEFAULT))
            .unwrap();
        let span = |s: &str| {
            let start = text.find(s).unwrap();
            Span::must(start, start + s.len())
        };
        let gold = vec![Attribution {
            source: vec![span(source)],
            cue: vec![span(cue)],
            content: vec![span(content)],
            kind: AttributionKind::Indirect,
            confidence: 1.0,
        }];
        TrainingExample { doc, gold }
    }

    fn tiny() -> Vec<u8> {
        let examples = [
            example(
                "The mayor said the park would open.",
                "The mayor",
                "said",
                "the park would open",
            ),
            example(
                "Two officials told reporters the vote was delayed.",
                "Two officials",
                "told",
                "reporters the vote was delayed",
            ),
        ];
        train(
            &examples,
            &TrainConfig {
                seed: 3,
                epochs: 20,
                cue_prune: 0.0,
                role_prune: 0.0,
                shuffles: 1,
            },
        )
    }

    #[test]
    fn a_tiny_model_round_trips_and_is_deterministic() {
        let bytes = tiny();
        assert_eq!(bytes, tiny(), "same data and seed, same bytes");
        let model = Attributor::from_bytes(&bytes).unwrap();
        assert_eq!(model.to_bytes(), bytes);
        let text = "The mayor said the park would open.";
        let mut doc = Doc::new(Article::new("t", text));
        doc.set_segmentation(attest_text::segment(text, &Limits::DEFAULT))
            .unwrap();
        model.run(&mut doc).unwrap();
        let found = doc.attributions();
        assert_eq!(found.len(), 1);
        assert_eq!(doc.span_text(found[0].cue[0]), "said");
        assert!((0.0..=1.0).contains(&found[0].confidence));
    }

    #[test]
    fn broken_files_are_errors_not_panics() {
        let bytes = tiny();
        assert_eq!(
            Attributor::from_bytes(b"not a model").unwrap_err(),
            ModelError::BadMagic
        );
        for end in (0..bytes.len()).step_by(7) {
            assert!(
                Attributor::from_bytes(&bytes[..end]).is_err(),
                "prefix {end}"
            );
        }
        // The envelope's version and checksum are attest-learn's to check;
        // what is the stage's own is the kind and the body.
        let other = attest_learn::seal_model(*b"POS1", |_| {});
        assert!(matches!(
            Attributor::from_bytes(&other),
            Err(ModelError::WrongKind { .. })
        ));
        let longer = attest_learn::seal_model(KIND, |out| {
            Attributor::from_bytes(&bytes).unwrap().write_body(out);
            out.u8(0);
        });
        assert!(matches!(
            Attributor::from_bytes(&longer),
            Err(ModelError::Corrupt { .. })
        ));
    }

    #[test]
    fn a_model_of_the_retired_format_says_to_retrain() {
        // The head of an ATTRIBM1 file: magic, version 2, an empty lexicon.
        let mut old = b"ATTRIBM1".to_vec();
        old.extend_from_slice(&2u32.to_le_bytes());
        old.extend_from_slice(&0u32.to_le_bytes());
        let error = load(&old, "models/attrib.model").unwrap_err();
        let message = error.to_string();
        assert!(message.contains("models/attrib.model"), "{message}");
        assert!(message.contains("ATTRIBM1"), "{message}");
        assert!(message.contains("attest train"), "{message}");
        assert!(matches!(
            load(&[], "models/attrib.model"),
            Err(ModelError::NotBundled { .. })
        ));
    }

    proptest::proptest! {
        /// The checksum stops most damage; these bodies are sealed anew, so
        /// that the stage's own parser meets them.
        #[test]
        fn damaged_bodies_are_errors_not_panics(
            garbage in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..200),
            at in proptest::prelude::any::<proptest::sample::Index>(),
            byte in proptest::prelude::any::<u8>(),
            cut in proptest::prelude::any::<proptest::sample::Index>(),
        ) {
            let _ = Attributor::from_bytes(&attest_learn::seal_model(KIND, |out| out.raw(&garbage)));
            let bytes = tiny_model();
            // The body lies between the 16-byte head and the 8-byte checksum.
            let mut body = bytes[16..bytes.len() - 8].to_vec();
            let at = at.index(body.len());
            body[at] = byte;
            let cut = cut.index(body.len());
            let _ = Attributor::from_bytes(&attest_learn::seal_model(KIND, |out| out.raw(&body)));
            let _ = Attributor::from_bytes(&attest_learn::seal_model(KIND, |out| out.raw(&body[..cut])));
        }
    }

    /// The bytes of [`tiny`], trained once for all the cases of a property.
    fn tiny_model() -> &'static [u8] {
        static BYTES: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
        BYTES.get_or_init(tiny)
    }

    #[test]
    fn the_bundled_model_loads() {
        let model = Attributor::bundled().unwrap();
        assert!(model.cue.labels() == CUE_LABELS && model.role.labels() == ROLE_LABELS);
        assert!(
            model.to_bytes() == BUNDLED,
            "the file is as this build writes it"
        );
    }
}
