//! The attest analysis pipeline.
//!
//! A [`Pipeline`] is a list of stages, each an [`AnyStage`] arm wrapping one
//! stage crate's [`Stage`]. [`Pipeline::new`] checks, when it is built, that every
//! layer a stage reads is assigned by a stage before it, so a misordered pipeline
//! never reaches an article. [`Pipeline::analyze`] runs the stages over one
//! [`Article`] and returns its [`Doc`]; a stage that fails on an article leaves a
//! diagnostic on it and the later stages that need its layers are skipped.
//!
//! Each article gets a [`Budget`] from [`Limits::article_seconds`]; a caller
//! that must stop an analysis early (a server whose client gave up) passes its
//! own to [`Pipeline::analyze_with`] and keeps the budget's
//! [`Canceller`](attest_doc::Canceller). When the budget runs out, the running
//! stage stops, no later stage starts, and the document holds a diagnostic
//! naming the stage, the limit and every layer left out.
//!
//! Adding a stage means one new arm in [`AnyStage`] and one line in
//! [`Pipeline::standard`]. [`Pipeline::accurate`] is accurate mode: the
//! [`Accurate`] stage runs the encoder and assigns attributions through the
//! attribution crate's own function, so the crates never know each other;
//! entities come from the fast tagger, which scores better on dev.
//!
//! ```
//! use attest_doc::{Article, Layer, Limits};
//! use attest_pipeline::Pipeline;
//!
//! let pipeline = Pipeline::standard(&Limits::DEFAULT).unwrap();
//! let doc = pipeline.analyze(Article::new("a1", "The mayor resigned. “It is time,” she said."));
//! assert!(doc.has(Layer::Sentences));
//! assert_eq!(doc.sentences().len(), 2);
//! ```

#![deny(missing_docs)]

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use attest_doc::{
    Article, Attribution, Budget, Diagnostic, Doc, Exhausted, Layer, LayerError, LayerSet, Limits,
    Stage, StageError,
};

/// One stage of the pipeline: a closed set, so that dispatch is a `match`.
#[derive(Debug)]
#[non_exhaustive]
pub enum AnyStage {
    /// Tokens, sentences and paragraphs.
    Segment(attest_text::Segmenter),
    /// Part-of-speech tags.
    Pos(Box<attest_tag::Tagger>),
    /// Attributions: source, cue and content.
    Attributions(Box<attest_attrib::Attributor>),
    /// The stance of each attribution.
    Stances(attest_sources::StanceClassifier),
    /// The canonical sources of the article.
    Sources(attest_sources::SourceResolver),
    /// Unattributed hedges.
    Hedges(attest_sources::HedgeFinder),
    /// Quoted passages and whose words they are.
    Quotations(attest_sources::QuotationFinder),
    /// Named entities, clustered per article.
    Entities(Box<attest_entities::EntityTagger>),
    /// Quantities: values and units.
    Quantities(attest_numbers::QuantityTagger),
    /// Time expressions resolved against the publication time.
    Times(attest_numbers::TimeTagger),
    /// Accurate mode's attributions, from the encoder.
    Accurate(Box<Accurate>),
}

/// Runs `$body` with `$stage` bound to the stage inside any arm, and `$ty` to its type.
macro_rules! with_stage {
    ($any:expr, $stage:ident, $ty:ident => $body:expr) => {
        match $any {
            AnyStage::Segment($stage) => {
                type $ty = attest_text::Segmenter;
                $body
            }
            AnyStage::Pos($stage) => {
                type $ty = attest_tag::Tagger;
                $body
            }
            AnyStage::Attributions($stage) => {
                type $ty = attest_attrib::Attributor;
                $body
            }
            AnyStage::Stances($stage) => {
                type $ty = attest_sources::StanceClassifier;
                $body
            }
            AnyStage::Sources($stage) => {
                type $ty = attest_sources::SourceResolver;
                $body
            }
            AnyStage::Hedges($stage) => {
                type $ty = attest_sources::HedgeFinder;
                $body
            }
            AnyStage::Quotations($stage) => {
                type $ty = attest_sources::QuotationFinder;
                $body
            }
            AnyStage::Entities($stage) => {
                type $ty = attest_entities::EntityTagger;
                $body
            }
            AnyStage::Quantities($stage) => {
                type $ty = attest_numbers::QuantityTagger;
                $body
            }
            AnyStage::Times($stage) => {
                type $ty = attest_numbers::TimeTagger;
                $body
            }
            AnyStage::Accurate($stage) => {
                type $ty = Accurate;
                $body
            }
        }
    };
}

impl AnyStage {
    /// The stage's name.
    pub fn name(&self) -> &'static str {
        with_stage!(self, _stage, S => <S as Stage>::NAME)
    }

    /// The layers it reads.
    pub fn requires(&self) -> &'static [Layer] {
        with_stage!(self, _stage, S => <S as Stage>::REQUIRES)
    }

    /// The layers it assigns.
    pub fn assigns(&self) -> &'static [Layer] {
        with_stage!(self, _stage, S => <S as Stage>::ASSIGNS)
    }

    /// Runs the stage on `doc`, unguarded: [`Pipeline::analyze`] is the way to
    /// analyse an article; this is for timing one stage alone.
    pub fn run(&self, doc: &mut Doc) -> Result<(), LayerError> {
        with_stage!(self, stage, _S => stage.run(doc))
    }

    /// [`AnyStage::run`] within `budget`, unguarded.
    pub fn run_within(&self, doc: &mut Doc, budget: &Budget) -> Result<(), StageError> {
        with_stage!(self, stage, _S => stage.run_within(doc, budget))
    }
}

/// A pipeline that cannot be built.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PipelineError {
    /// A stage reads a layer no earlier stage assigns.
    #[error("stage {stage} needs layer {layer}, which no stage before it assigns")]
    MissingLayer {
        /// The stage.
        stage: &'static str,
        /// The layer it needs.
        layer: Layer,
    },
    /// A model does not load: a damaged model file, bundled or read.
    #[error("the {stage} model does not load: {source}")]
    Model {
        /// The stage whose model failed.
        stage: &'static str,
        /// Why.
        source: attest_learn::ModelError,
    },
    /// A calibration file does not read.
    #[error("{}: {source}", path.display())]
    Calibration {
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        source: attest_attrib::CalibrationError,
    },
    /// A model file cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    ModelFile {
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// An article as a reader hands it over: with its warnings, which its
/// document lists first, and its budget, what is left of it after reading.
pub type ReadArticle = (Article, Vec<Diagnostic>, Budget);

/// The stages in order.
#[derive(Debug)]
pub struct Pipeline {
    stages: Vec<AnyStage>,
    limits: Limits,
}

impl Pipeline {
    /// A pipeline of `stages`, run in order; fails when a stage needs a layer
    /// that no stage before it assigns.
    pub fn new(stages: Vec<AnyStage>) -> Result<Pipeline, PipelineError> {
        let mut assigned = LayerSet::EMPTY;
        for stage in &stages {
            if let Some(layer) = stage.requires().iter().find(|l| !assigned.contains(**l)) {
                return Err(PipelineError::MissingLayer {
                    stage: stage.name(),
                    layer: *layer,
                });
            }
            for layer in stage.assigns() {
                assigned = assigned.with(*layer);
            }
        }
        Ok(Pipeline {
            stages,
            limits: Limits::DEFAULT,
        })
    }

    /// The same pipeline with `limits`, whose time limit gives each article
    /// its [`Budget`].
    pub fn with_limits(self, limits: &Limits) -> Pipeline {
        Pipeline {
            limits: *limits,
            ..self
        }
    }

    /// The same pipeline giving the attribution finders' raw confidences,
    /// as a calibration is fitted to (`attest eval attributions --fit-calibration`).
    pub fn uncalibrated(self) -> Pipeline {
        let stages = self
            .stages
            .into_iter()
            .map(|stage| match stage {
                AnyStage::Attributions(attributor) => AnyStage::Attributions(Box::new(
                    attributor.with_calibration(attest_attrib::Calibration::identity()),
                )),
                AnyStage::Accurate(accurate) => AnyStage::Accurate(Box::new(Accurate {
                    calibration: attest_attrib::Calibration::identity(),
                    ..*accurate
                })),
                other => other,
            })
            .collect();
        Pipeline { stages, ..self }
    }

    /// Every stage attest has, with its bundled models.
    pub fn standard(limits: &Limits) -> Result<Pipeline, PipelineError> {
        Pipeline::fast(limits, LinearModels::bundled()?)
    }

    /// Every stage attest has, with these linear models: fast mode.
    pub fn fast(limits: &Limits, models: LinearModels) -> Result<Pipeline, PipelineError> {
        let attributions = AnyStage::Attributions(Box::new(models.attributor));
        Pipeline::with_attributions(limits, models.tagging, attributions)
    }

    /// Accurate mode: the encoder assigns the attributions, and every other
    /// stage runs as in [`Pipeline::fast`], with the tagger and entity model of
    /// `models`. The encoder's entity head is not used: on dev it scores under
    /// the fast tagger (overall F1 0.814 against 0.876, organizations 0.606
    /// against 0.783; docs/attributions.md).
    pub fn accurate(
        limits: &Limits,
        encoder: attest_encoder::Encoder,
        calibration: attest_attrib::Calibration,
        models: TaggingModels,
    ) -> Result<Pipeline, PipelineError> {
        let attributions = AnyStage::Accurate(Box::new(Accurate::new(
            encoder,
            attest_attrib::Rules::ALL,
            calibration,
        )));
        Pipeline::with_attributions(limits, models, attributions)
    }

    /// Every stage attest has, with `attributions` as the attribution stage:
    /// the one list both modes share.
    fn with_attributions(
        limits: &Limits,
        models: TaggingModels,
        attributions: AnyStage,
    ) -> Result<Pipeline, PipelineError> {
        Pipeline::new(vec![
            AnyStage::Segment(attest_text::Segmenter::new(*limits)),
            AnyStage::Pos(Box::new(models.tagger)),
            attributions,
            AnyStage::Stances(models.sourcing.stances),
            AnyStage::Entities(Box::new(models.entities)),
            AnyStage::Sources(models.sourcing.sources),
            AnyStage::Hedges(models.sourcing.hedges),
            AnyStage::Quotations(attest_sources::QuotationFinder),
            AnyStage::Quantities(attest_numbers::QuantityTagger::new()),
            AnyStage::Times(attest_numbers::TimeTagger::new()),
        ])
        .map(|pipeline| pipeline.with_limits(limits))
    }

    /// The stages, in order.
    pub fn stages(&self) -> &[AnyStage] {
        &self.stages
    }

    /// Analyses one article.
    ///
    /// Never panics and never fails: a stage that errs or panics on this article
    /// (a bug) leaves a diagnostic naming itself, and later stages that need the
    /// layers it should have assigned are skipped with a diagnostic of their own.
    pub fn analyze(&self, article: Article) -> Doc {
        self.analyze_noted(article, Vec::new())
    }

    /// Analyses one article that comes with diagnostics of its own (a reader's
    /// warnings), which the document lists before those of the stages.
    pub fn analyze_noted(&self, article: Article, diagnostics: Vec<Diagnostic>) -> Doc {
        self.analyze_with(article, diagnostics, Budget::new(&self.limits))
    }

    /// [`Pipeline::analyze_noted`] within `budget`: keep its
    /// [`Budget::canceller`] to stop the analysis from another thread.
    ///
    /// ```
    /// use attest_doc::{Article, Budget, Layer, Limits};
    /// use attest_pipeline::Pipeline;
    ///
    /// let pipeline = Pipeline::standard(&Limits::DEFAULT).unwrap();
    /// let budget = Budget::new(&Limits::DEFAULT);
    /// budget.canceller().cancel();
    /// let doc = pipeline.analyze_with(Article::new("a1", "It rained."), Vec::new(), budget);
    /// assert!(!doc.has(Layer::Tokens), "cancelled before the first stage");
    /// assert!(doc.diagnostics()[0].message.contains("cancelled"));
    /// ```
    pub fn analyze_with(
        &self,
        article: Article,
        diagnostics: Vec<Diagnostic>,
        mut budget: Budget,
    ) -> Doc {
        let mut doc = noted(article, diagnostics);
        for (index, stage) in self.stages.iter().enumerate() {
            if !self.step(index, stage, &mut doc, &mut budget) {
                break;
            }
        }
        doc
    }

    /// Analyses one article with `attributions` given in place of the
    /// attribution stage's, as an evaluation with gold attributions needs:
    /// every other stage runs as in [`Pipeline::analyze`], unguarded and
    /// without a budget. A stage's error is returned.
    pub fn analyze_given(
        &self,
        article: Article,
        attributions: Vec<Attribution>,
    ) -> Result<Doc, LayerError> {
        let mut doc = Doc::new(article);
        let mut given = Some(attributions);
        for stage in &self.stages {
            if stage.assigns().contains(&Layer::Attributions) {
                doc.set_attributions(given.take().unwrap_or_default())?;
                if let AnyStage::Accurate(accurate) = stage {
                    accurate.propose_for_given(&mut doc)?;
                }
            } else {
                stage.run(&mut doc)?;
            }
        }
        Ok(doc)
    }

    /// Analyses a batch of articles, each with diagnostics and a budget of its
    /// own (what is left of it after reading), stage by stage: each stage runs over every article of the batch before the next
    /// stage starts, so that its model stays in the processor's caches. The
    /// documents are those [`Pipeline::analyze_noted`] gives, in input order;
    /// an item that is already an error (a record a reader could not read)
    /// keeps its place.
    ///
    /// On the PolNeAR dev texts a batch of 16 takes about a sixth less time
    /// than the articles one at a time (`cargo bench -p attest-pipeline`).
    pub fn analyze_batch<E>(
        &self,
        items: impl IntoIterator<Item = Result<ReadArticle, E>>,
    ) -> Vec<Result<Doc, E>> {
        let mut docs: Vec<Result<(Doc, Budget, bool), E>> = items
            .into_iter()
            .map(|item| {
                item.map(|(article, diagnostics, budget)| {
                    (noted(article, diagnostics), budget, true)
                })
            })
            .collect();
        for (index, stage) in self.stages.iter().enumerate() {
            for (doc, budget, going) in docs.iter_mut().flatten() {
                if *going {
                    *going = self.step(index, stage, doc, budget);
                }
            }
        }
        docs.into_iter()
            .map(|item| item.map(|(doc, _, _)| doc))
            .collect()
    }

    /// Runs stage `index` on `doc` as a pipeline does: skipped when an earlier
    /// failure left a layer it needs missing, and a failure or a panic becomes
    /// a diagnostic. Returns false when the budget stopped it, which ends the
    /// article's analysis.
    fn step(&self, index: usize, stage: &AnyStage, doc: &mut Doc, budget: &mut Budget) -> bool {
        if let Some(layer) = stage.requires().iter().find(|l| !doc.has(**l)) {
            doc.push_diagnostic(Diagnostic {
                origin: stage.name(),
                message: format!("skipped: layer {layer} is missing after an earlier failure"),
            });
            return true;
        }
        budget.resume();
        let outcome = catch_unwind(AssertUnwindSafe(|| stage.run_within(doc, budget)));
        budget.pause();
        let message = match outcome {
            Ok(Ok(())) => return true,
            Ok(Err(StageError::Exhausted(why))) => {
                let left_out = self.left_out(index, doc);
                doc.push_diagnostic(stopped(stage.name(), why, &left_out));
                return false;
            }
            Ok(Err(err)) => format!("failed: {err}"),
            Err(panic) => format!("panicked: {}", panic_message(&*panic)),
        };
        doc.push_diagnostic(Diagnostic {
            origin: stage.name(),
            message,
        });
        true
    }

    /// The layers that stage `index` and those after it would have assigned.
    fn left_out(&self, index: usize, doc: &Doc) -> Vec<Layer> {
        let mut layers: Vec<Layer> = Vec::new();
        for stage in self.stages.get(index..).unwrap_or_default() {
            for layer in stage.assigns() {
                if !doc.has(*layer) && !layers.contains(layer) {
                    layers.push(*layer);
                }
            }
        }
        layers
    }
}

/// The diagnostic of an article whose budget ran out in `stage`.
fn stopped(stage: &'static str, why: Exhausted, left_out: &[Layer]) -> Diagnostic {
    let layers: Vec<String> = left_out.iter().map(Layer::to_string).collect();
    Diagnostic {
        origin: stage,
        message: format!(
            "incomplete: stopped in stage {stage} because {why}; layers not computed: {}",
            layers.join(", ")
        ),
    }
}

/// Accurate mode's stage: the encoder runs once over the document, and its
/// token runs become the attribution layer through the same function, and so
/// the same rules, as the fast stage's own output.
#[derive(Debug)]
pub struct Accurate {
    encoder: attest_encoder::Encoder,
    rules: attest_attrib::Rules,
    calibration: attest_attrib::Calibration,
}

impl Accurate {
    /// The stage running `encoder`, applying `rules` to its attributions and
    /// `calibration` to their confidences.
    pub fn new(
        encoder: attest_encoder::Encoder,
        rules: attest_attrib::Rules,
        calibration: attest_attrib::Calibration,
    ) -> Accurate {
        Accurate {
            encoder,
            rules,
            calibration,
        }
    }

    /// Its encoder.
    pub fn encoder(&self) -> &attest_encoder::Encoder {
        &self.encoder
    }
}

// It stands in for the attribution stage, whose rules it runs on the
// encoder's output: it reads and assigns what that stage does.
impl Stage for Accurate {
    const NAME: &'static str = "accurate";
    const REQUIRES: &'static [Layer] = <attest_attrib::Attributor as Stage>::REQUIRES;
    const ASSIGNS: &'static [Layer] = <attest_attrib::Attributor as Stage>::ASSIGNS;

    fn run(&self, doc: &mut Doc) -> Result<(), LayerError> {
        match self.run_within(doc, &Budget::unlimited()) {
            Ok(()) => Ok(()),
            Err(StageError::Layer(error)) => Err(error),
            // An unlimited budget nobody can cancel is never exhausted.
            Err(error) => Err(LayerError::Failed {
                layer: Layer::Attributions,
                message: error.to_string(),
            }),
        }
    }

    // The encoder is most of accurate mode's time, so it checks the budget
    // between batches of windows and between cues, not only before it starts.
    fn run_within(&self, doc: &mut Doc, budget: &Budget) -> Result<(), StageError> {
        let analysis = self.encoder.analyze(doc, budget).map_err(stage_error)?;
        let prediction = self
            .encoder
            .predict_from(&analysis, budget)
            .map_err(stage_error)?;
        let mut attributions =
            attest_attrib::attributions_from(doc, &prediction.attributions, &self.rules);
        self.calibration.calibrate(&mut attributions);
        doc.set_attributions(attributions)?;
        Ok(self.propose(doc, &analysis)?)
    }
}

impl Accurate {
    /// Whether the encoder has a head whose output it proposes.
    fn proposes(&self) -> bool {
        let config = self.encoder.config();
        config.stance || config.hedge
    }

    /// Leaves what the encoder's stance and hedge heads propose for the
    /// document's attributions on it, for the stance and hedge stages; a
    /// model without the heads proposes nothing.
    fn propose(
        &self,
        doc: &mut Doc,
        analysis: &attest_encoder::Analysis,
    ) -> Result<(), LayerError> {
        if !self.proposes() {
            return Ok(());
        }
        let proposals = self.encoder.proposals(analysis, doc).map_err(failed)?;
        doc.set_proposals(proposals)
    }

    /// [`Accurate::propose`] for attributions given in place of the
    /// encoder's, as [`Pipeline::analyze_given`] sets them, so that an
    /// evaluation with gold attributions scores the heads too.
    fn propose_for_given(&self, doc: &mut Doc) -> Result<(), LayerError> {
        // Without the heads there is nothing to run the encoder for.
        if !self.proposes() {
            return Ok(());
        }
        let analysis = self
            .encoder
            .analyze(doc, &Budget::unlimited())
            .map_err(failed)?;
        self.propose(doc, &analysis)
    }
}

/// An encoder's error as the attribution stage's.
fn stage_error(error: attest_encoder::EncoderError) -> StageError {
    match error {
        attest_encoder::EncoderError::Exhausted(exhausted) => StageError::Exhausted(exhausted),
        other => StageError::Layer(failed(other)),
    }
}

/// An encoder's failure as the attribution layer's.
fn failed(error: attest_encoder::EncoderError) -> LayerError {
    LayerError::Failed {
        layer: Layer::Attributions,
        message: error.to_string(),
    }
}

/// The file beside the encoder's weights that calibrates its confidences.
pub const ENCODER_CALIBRATION: &str = "calibration.tsv";

/// The calibration of the encoder in `dir` ([`ENCODER_CALIBRATION`]); a
/// directory without one gives the encoder's raw confidences.
pub fn encoder_calibration(dir: &Path) -> Result<attest_attrib::Calibration, PipelineError> {
    read_calibration(dir.join(ENCODER_CALIBRATION))
}

/// The file beside attrib.model that calibrates its confidences, as
/// `models/` holds it.
pub const ATTRIB_CALIBRATION: &str = "attrib.calibration";

/// The calibration at `path`, or none (raw confidences) when there is no file:
/// a model trained anew has not been calibrated.
fn read_calibration(path: PathBuf) -> Result<attest_attrib::Calibration, PipelineError> {
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Ok(attest_attrib::Calibration::identity());
        }
        Err(source) => return Err(PipelineError::ModelFile { path, source }),
    };
    attest_attrib::Calibration::parse(&text)
        .map_err(|source| PipelineError::Calibration { path, source })
}

/// The linear models both modes run: part-of-speech tags and entities.
#[derive(Clone, Debug)]
pub struct TaggingModels {
    /// The part-of-speech tagger (pos.model).
    pub tagger: attest_tag::Tagger,
    /// The entity model (entities.model).
    pub entities: attest_entities::EntityTagger,
    /// The stance, source type and hedge models (stance.model,
    /// source-type.model, source-link.model, hedges.model).
    pub sourcing: attest_sources::SourcingModels,
}

impl TaggingModels {
    /// The models built into attest.
    pub fn bundled() -> Result<TaggingModels, PipelineError> {
        Ok(TaggingModels {
            tagger: attest_tag::Tagger::bundled().map_err(model_error::<attest_tag::Tagger>)?,
            entities: attest_entities::EntityTagger::bundled()
                .map_err(model_error::<attest_entities::EntityTagger>)?,
            sourcing: attest_sources::SourcingModels::bundled()
                .map_err(model_error::<attest_sources::SourceResolver>)?,
        })
    }

    /// The models in `dir` (pos.model, entities.model, stance.model,
    /// source-type.model, source-link.model, hedges.model), as `attest train --out DIR` writes
    /// them; errors name the file.
    pub fn read(dir: &Path) -> Result<TaggingModels, PipelineError> {
        let (bytes, file) = read_model(dir, "pos.model")?;
        let tagger = attest_tag::Model::from_bytes(&bytes)
            .map(attest_tag::Tagger::new)
            .map_err(|error| model_error::<attest_tag::Tagger>(error.in_file(file)))?;
        let (bytes, file) = read_model(dir, "entities.model")?;
        let entities = attest_entities::Model::from_bytes(&bytes)
            .map(attest_entities::EntityTagger::new)
            .map_err(|error| model_error::<attest_entities::EntityTagger>(error.in_file(file)))?;
        let (bytes, file) = read_model(dir, "stance.model")?;
        let stances = attest_sources::StanceClassifier::from_bytes(&bytes).map_err(|error| {
            model_error::<attest_sources::StanceClassifier>(error.in_file(file))
        })?;
        let (types, types_file) = read_model(dir, "source-type.model")?;
        let (links, links_file) = read_model(dir, "source-link.model")?;
        let sources = attest_sources::SourceResolver::from_bytes(
            (&types, &types_file),
            (&links, &links_file),
        )
        .map_err(model_error::<attest_sources::SourceResolver>)?;
        let (bytes, file) = read_model(dir, "hedges.model")?;
        let hedges = attest_sources::HedgeFinder::from_bytes(&bytes)
            .map_err(|error| model_error::<attest_sources::HedgeFinder>(error.in_file(file)))?;
        Ok(TaggingModels {
            tagger,
            entities,
            sourcing: attest_sources::SourcingModels {
                stances,
                sources,
                hedges,
            },
        })
    }
}

/// The linear models of fast mode: those both modes run, and the attribution
/// model.
#[derive(Clone, Debug)]
pub struct LinearModels {
    /// The part-of-speech tagger and the entity model.
    pub tagging: TaggingModels,
    /// The attribution model (attrib.model).
    pub attributor: attest_attrib::Attributor,
}

impl LinearModels {
    /// The models built into attest.
    pub fn bundled() -> Result<LinearModels, PipelineError> {
        Ok(LinearModels {
            tagging: TaggingModels::bundled()?,
            attributor: attest_attrib::Attributor::bundled()
                .map_err(model_error::<attest_attrib::Attributor>)?,
        })
    }

    /// The models in `dir` (pos.model, attrib.model, entities.model), as
    /// `attest train --out DIR` writes them, and attrib.calibration when it
    /// is there; errors name the file.
    pub fn read(dir: &Path) -> Result<LinearModels, PipelineError> {
        let tagging = TaggingModels::read(dir)?;
        let (bytes, file) = read_model(dir, "attrib.model")?;
        let attributor = attest_attrib::Attributor::from_bytes(&bytes)
            .map_err(|error| model_error::<attest_attrib::Attributor>(error.in_file(file)))?
            .with_calibration(read_calibration(dir.join(ATTRIB_CALIBRATION))?);
        Ok(LinearModels {
            tagging,
            attributor,
        })
    }
}

/// The bytes of model file `name` in `dir`, and the path errors name.
fn read_model(dir: &Path, name: &str) -> Result<(Vec<u8>, String), PipelineError> {
    let path = dir.join(name);
    std::fs::read(&path)
        .map(|bytes| (bytes, path.display().to_string()))
        .map_err(|source| PipelineError::ModelFile { path, source })
}

/// A model of stage `S` that does not load.
fn model_error<S: Stage>(source: attest_learn::ModelError) -> PipelineError {
    PipelineError::Model {
        stage: S::NAME,
        source,
    }
}

/// A document for `article`, with its reader's diagnostics.
fn noted(article: Article, diagnostics: Vec<Diagnostic>) -> Doc {
    let mut doc = Doc::new(article);
    for diagnostic in diagnostics {
        doc.push_diagnostic(diagnostic);
    }
    doc
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = panic.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = panic.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic without a message".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use attest_doc::{Proposals, Span};

    #[test]
    fn linear_models_read_from_a_directory_analyse_as_the_bundled_ones() {
        let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
        let read = Pipeline::fast(&Limits::DEFAULT, LinearModels::read(&shipped).unwrap()).unwrap();
        let bundled = Pipeline::standard(&Limits::DEFAULT).unwrap();
        let text = "“We will appeal,” the union said on Monday. Jane Doe of Acme Corp. agreed.";
        let doc = read.analyze(Article::new("a", text));
        let expected = bundled.analyze(Article::new("a", text));
        assert!(!doc.attributions().is_empty() && !doc.entities().is_empty());
        assert_eq!(doc.attributions(), expected.attributions());
        assert_eq!(doc.entities(), expected.entities());
        assert_eq!(doc.pos(), expected.pos());
    }

    #[test]
    fn a_missing_or_damaged_model_file_is_named() {
        let dir = std::env::temp_dir().join(format!("attest-linear-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let missing = LinearModels::read(&dir).unwrap_err().to_string();
        assert!(missing.contains("pos.model"), "{missing}");
        let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
        for name in [
            "pos.model",
            "entities.model",
            "stance.model",
            "source-type.model",
            "source-link.model",
            "hedges.model",
        ] {
            std::fs::copy(shipped.join(name), dir.join(name)).unwrap();
        }
        assert!(
            TaggingModels::read(&dir).is_ok(),
            "accurate mode's models need no attribution model"
        );
        std::fs::write(dir.join("attrib.model"), b"not a model").unwrap();
        let damaged = LinearModels::read(&dir).unwrap_err().to_string();
        assert!(
            damaged.contains("attributions") && damaged.contains("attrib.model"),
            "{damaged}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_standard_pipeline_assigns_segmentation() {
        let pipeline = Pipeline::standard(&Limits::DEFAULT).unwrap();
        let doc = pipeline.analyze(Article::new("t", "One. Two."));
        assert!(doc.has(Layer::Tokens) && doc.has(Layer::Paragraphs) && doc.has(Layer::Pos));
        assert!(doc.diagnostics().is_empty());
    }

    #[test]
    fn the_accurate_pipeline_assigns_every_layer_the_standard_one_does() {
        let dir =
            std::env::temp_dir().join(format!("attest-pipeline-accurate-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        attest_encoder::testing::write_random_model(&dir, attest_encoder::testing::Size::TINY, 3)
            .unwrap();
        let encoder = attest_encoder::Encoder::load(&dir).unwrap();
        let accurate = Pipeline::accurate(
            &Limits::DEFAULT,
            encoder,
            attest_attrib::Calibration::identity(),
            TaggingModels::bundled().unwrap(),
        )
        .unwrap();
        let standard = Pipeline::standard(&Limits::DEFAULT).unwrap();
        let text = "“We will appeal,” the union said on Monday. Talks end in May.";
        let doc = accurate.analyze(Article::new("a", text));
        let expected = standard.analyze(Article::new("a", text));
        for &layer in Layer::ALL {
            assert_eq!(doc.has(layer), expected.has(layer), "{layer}");
        }
        assert!(doc.diagnostics().is_empty(), "{:?}", doc.diagnostics());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_encoder_with_stance_and_hedge_heads_proposes_for_found_and_given_attributions() {
        let pipeline = |heads: bool| {
            let dir = std::env::temp_dir().join(format!(
                "attest-pipeline-heads-{heads}-{}",
                std::process::id()
            ));
            let _ = std::fs::remove_dir_all(&dir);
            let size = attest_encoder::testing::Size {
                stance_and_hedge: heads,
                ..attest_encoder::testing::Size::TINY
            };
            attest_encoder::testing::write_random_model(&dir, size, 3).unwrap();
            let encoder = attest_encoder::Encoder::load(&dir).unwrap();
            let _ = std::fs::remove_dir_all(&dir);
            Pipeline::accurate(
                &Limits::DEFAULT,
                encoder,
                attest_attrib::Calibration::identity(),
                TaggingModels::bundled().unwrap(),
            )
            .unwrap()
        };
        let (plain, headed) = (pipeline(false), pipeline(true));
        let text = "The union said on Monday that talks may end in May.";
        let article = || Article::new("a", text);
        let found = headed.analyze(article());
        assert_eq!(found.proposals().stances.len(), found.attributions().len());
        assert_eq!(plain.analyze(article()).proposals(), &Proposals::default());
        let span = |word: &str| {
            let start = text.find(word).unwrap();
            Span::try_new_in(text, start, start + word.len()).unwrap()
        };
        let given = Attribution {
            source: vec![span("The union")],
            cue: vec![span("said")],
            content: vec![span("talks may end in May")],
            kind: attest_doc::AttributionKind::Indirect,
            confidence: 1.0,
        };
        let doc = headed.analyze_given(article(), vec![given]).unwrap();
        assert_eq!(doc.proposals().stances.len(), 1);
        assert_eq!(doc.proposals().hedges, found.proposals().hedges);
    }

    #[test]
    fn a_batch_gives_the_documents_of_its_articles_in_order() {
        let pipeline = Pipeline::standard(&Limits::DEFAULT).unwrap();
        let texts = [
            "The mayor resigned on Monday, aides said.",
            "",
            "“We will appeal,” the union said. Talks end in May.",
        ];
        let noted = Diagnostic {
            origin: "reader",
            message: "a warning".to_string(),
        };
        let items = vec![
            Ok((Article::new("a", texts[0]), Vec::new(), Budget::unlimited())),
            Err("unreadable"),
            Ok((Article::new("b", texts[1]), Vec::new(), Budget::unlimited())),
            Ok((
                Article::new("c", texts[2]),
                vec![noted.clone()],
                Budget::unlimited(),
            )),
        ];
        let docs = pipeline.analyze_batch(items);
        assert_eq!(docs.len(), 4);
        assert!(matches!(docs[1], Err("unreadable")));
        let alone = [
            pipeline.analyze(Article::new("a", texts[0])),
            pipeline.analyze(Article::new("b", texts[1])),
            pipeline.analyze_noted(Article::new("c", texts[2]), vec![noted]),
        ];
        for (doc, alone) in docs.iter().filter_map(|d| d.as_ref().ok()).zip(&alone) {
            assert_eq!(format!("{doc:?}"), format!("{alone:?}"));
        }
    }

    #[test]
    fn a_cancelled_analysis_stops_and_says_which_layers_it_lacks() {
        let pipeline = Pipeline::standard(&Limits::DEFAULT).unwrap();
        let budget = Budget::unlimited();
        budget.canceller().cancel();
        let doc = pipeline.analyze_with(
            Article::new("a", "“We will,” she said."),
            Vec::new(),
            budget,
        );
        assert!(!doc.has(Layer::Tokens) && !doc.has(Layer::Times));
        let [diagnostic] = doc.diagnostics() else {
            panic!("one diagnostic, not {:?}", doc.diagnostics());
        };
        assert_eq!(diagnostic.origin, "segment");
        assert!(
            diagnostic
                .message
                .starts_with("incomplete: stopped in stage segment")
        );
        for layer in pipeline.stages().iter().flat_map(|s| s.assigns()) {
            assert!(
                diagnostic.message.contains(&layer.to_string()),
                "{layer} is named in {diagnostic:?}"
            );
        }
    }

    #[test]
    fn a_budget_stops_the_attribution_stage_inside_its_loop() {
        let pipeline = Pipeline::standard(&Limits::DEFAULT).unwrap();
        let mut doc = Doc::new(Article::new("a", "“We will,” she said. “No,” he said."));
        for stage in pipeline.stages().iter().take(2) {
            stage.run(&mut doc).unwrap();
        }
        let attributions = pipeline.stages().get(2).unwrap();
        assert_eq!(attributions.name(), "attributions");
        let budget = Budget::unlimited();
        budget.canceller().cancel();
        let outcome = attributions.run_within(&mut doc, &budget);
        assert!(matches!(
            outcome,
            Err(StageError::Exhausted(Exhausted::Cancelled))
        ));
        assert!(
            !doc.has(Layer::Attributions),
            "nothing half-done is assigned"
        );
    }

    #[test]
    fn each_article_of_a_batch_has_a_budget_of_its_own() {
        let pipeline = Pipeline::standard(&Limits::DEFAULT).unwrap();
        let items = (0..3).map(|i| {
            Ok::<_, ()>((
                Article::new(i.to_string(), "It rained."),
                Vec::new(),
                Budget::new(&Limits::DEFAULT),
            ))
        });
        for doc in pipeline.analyze_batch(items) {
            let doc = doc.unwrap();
            assert!(doc.diagnostics().is_empty() && doc.has(Layer::Times));
        }
    }

    #[test]
    fn a_stage_before_its_requirements_is_refused_when_built() {
        let tagger = attest_tag::Tagger::bundled().unwrap();
        let err = Pipeline::new(vec![AnyStage::Pos(Box::new(tagger))]).unwrap_err();
        assert!(matches!(
            err,
            PipelineError::MissingLayer {
                stage: "pos",
                layer: Layer::Tokens
            }
        ));
    }
}
