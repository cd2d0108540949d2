//! `--model fast|accurate`, `--model-dir` and `--models`: which pipeline
//! analyses, where accurate mode's encoder is read from, and whether the
//! linear models are the bundled ones or those `attest train` wrote.

use std::path::PathBuf;

use anyhow::Context;
use attest_doc::Limits;
use attest_encoder::DIR_VARIABLE;
use attest_pipeline::{AnyStage, LinearModels, Pipeline, TaggingModels};
use attest_write::AnalysisModel;
use clap::{Args, ValueEnum};

/// Which model analyses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub(crate) enum ModelChoice {
    /// The linear models: fast, and always there.
    #[default]
    Fast,
    /// The fine-tuned encoder for attributions: more accurate, slower.
    Accurate,
}

/// The model flags of the commands that analyse.
#[derive(Debug, Args, Clone)]
pub(crate) struct ModelArgs {
    /// Which model analyses: fast (linear models) or accurate (the fine-tuned
    /// encoder assigns attributions; needs its model directory).
    #[arg(long, value_enum, default_value_t = ModelChoice::Fast)]
    pub(crate) model: ModelChoice,

    /// Accurate mode's model directory (config.json, vocab.txt,
    /// model.safetensors). Default: $ATTEST_MODEL_DIR, else models/encoder of
    /// the source tree attest was built from.
    #[arg(long, value_name = "DIR")]
    pub(crate) model_dir: Option<PathBuf>,

    /// The linear models (pos.model, attrib.model, entities.model) from DIR,
    /// as `attest train --out DIR` writes them, instead of the bundled ones.
    /// Accurate mode runs their tagger and entity model.
    #[arg(long, value_name = "DIR")]
    pub(crate) models: Option<PathBuf>,
}

impl ModelArgs {
    /// The model, as the JSON writer records it.
    pub(crate) fn kind(&self) -> AnalysisModel {
        match self.model {
            ModelChoice::Fast => AnalysisModel::Fast,
            ModelChoice::Accurate => AnalysisModel::Accurate,
        }
    }

    /// The encoder directory: the flag, the environment, or the built-in path.
    pub(crate) fn dir(&self) -> PathBuf {
        self.model_dir
            .clone()
            .unwrap_or_else(attest_encoder::default_dir)
    }

    /// The encoder, loaded from [`ModelArgs::dir`].
    pub(crate) fn encoder(&self) -> anyhow::Result<attest_encoder::Encoder> {
        let dir = self.dir();
        attest_encoder::Encoder::load(&dir).with_context(|| {
            format!(
                "loading accurate mode's model from {} (set it with --model-dir or {DIR_VARIABLE})",
                dir.display()
            )
        })
    }

    /// The linear models: `--models DIR`, or the bundled ones.
    fn linear(&self) -> anyhow::Result<LinearModels> {
        match &self.models {
            Some(dir) => LinearModels::read(dir).with_context(|| self.models_context(dir)),
            None => LinearModels::bundled().context("loading the bundled models"),
        }
    }

    /// The tagger and entity model: `--models DIR`, or the bundled ones.
    pub(crate) fn tagging(&self) -> anyhow::Result<TaggingModels> {
        match &self.models {
            Some(dir) => TaggingModels::read(dir).with_context(|| self.models_context(dir)),
            None => TaggingModels::bundled().context("loading the bundled models"),
        }
    }

    fn models_context(&self, dir: &std::path::Path) -> String {
        format!("loading the models of --models {}", dir.display())
    }

    /// The whole pipeline of the chosen model.
    pub(crate) fn pipeline(&self, limits: &Limits) -> anyhow::Result<Pipeline> {
        match self.model {
            ModelChoice::Fast => Pipeline::fast(limits, self.linear()?),
            ModelChoice::Accurate => Pipeline::accurate(
                limits,
                self.encoder()?,
                attest_pipeline::encoder_calibration(&self.dir())?,
                self.tagging()?,
            ),
        }
        .context("building the pipeline")
    }

    /// Segmentation, tags and entities. Both modes tag entities with the
    /// fast model: the encoder's entity head scores under it on dev (see
    /// [`Pipeline::accurate`]).
    pub(crate) fn entity_pipeline(&self, limits: &Limits) -> anyhow::Result<Pipeline> {
        let tagging = self.tagging()?;
        Pipeline::new(vec![
            AnyStage::Segment(attest_text::Segmenter::new(*limits)),
            AnyStage::Pos(Box::new(tagging.tagger)),
            AnyStage::Entities(Box::new(tagging.entities)),
        ])
        .context("building the pipeline")
    }
}
