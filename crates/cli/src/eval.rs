//! `attest eval`: scores against annotated corpora.

use std::io::{self, Write};
use std::path::Path;

use anyhow::Context;
use attest_corpus::{Corpus, CorpusArticle};
use std::time::Instant;

use attest_attrib::Calibration;
use attest_corpus::SplitLabels;
use attest_corpus::score::{
    AttributionScorer, HedgeLabelReport, HedgeLabelScorer, Reliability, SourceLabelReport,
    SourceLabelScorer, evaluate_attributions, evaluate_entities, evaluate_segmentation,
    match_attributions,
};
use attest_doc::{Doc, LayerError, Limits, Stage};
use attest_pipeline::Pipeline;
use attest_write::AnalysisModel;

use crate::flags::{ClaimsEvalArgs, EvalArgs, EvalCommand, SourcesEvalArgs, TestSetArgs};
use crate::messages;

pub(crate) fn run(command: &EvalCommand) -> anyhow::Result<()> {
    match command {
        EvalCommand::Tokens(args) => tokens(args),
        EvalCommand::Attributions(args) => attributions(args),
        EvalCommand::Entities(args) => entities(args),
        EvalCommand::Quantities(args) => test_set(args, TestSet::Quantities),
        EvalCommand::Times(args) => test_set(args, TestSet::Times),
        EvalCommand::Sources(args) => sources(args),
        EvalCommand::Claims(args) => claims(args),
    }
}

/// `attest eval entities DIR`: the pipeline up to the bundled entity tagger
/// over a split, against its silver CoreNLP mentions.
fn entities(args: &EvalArgs) -> anyhow::Result<()> {
    let corpus =
        Corpus::open(&args.dir).with_context(|| format!("opening {}", args.dir.display()))?;
    let pipeline = args.model.entity_pipeline(&Limits::DEFAULT)?;
    let report = evaluate_entities(&corpus, 20, |article| {
        analyze(&pipeline, article).entities().to_vec()
    })
    .with_context(|| format!("reading {}", args.dir.display()))?;
    let mut out = io::stdout().lock();
    if !open_report(&mut out, &report, args, "Entities", "silver CoreNLP")? {
        write!(out, "{report}")?;
    }
    if let Some(floors) = &args.floors {
        check_floors(&mut out, floors, "entities", &report.headline())?;
    }
    Ok(())
}

fn claims(args: &ClaimsEvalArgs) -> anyhow::Result<()> {
    let articles = args.dir.join("articles.jsonl");
    let gold_path = args.dir.join("gold.tsv");
    let gold = std::fs::read_to_string(&gold_path)
        .with_context(|| format!("reading {}", gold_path.display()))?;
    let gold = attest_claims::read_gold(&gold)
        .with_context(|| format!("reading {}", gold_path.display()))?;
    let pipeline = args.model.pipeline(&Limits::DEFAULT)?;
    let config = attest_read::ReadConfig {
        limits: Limits::DEFAULT,
    };
    let mut docs = Vec::new();
    for item in attest_read::read_inputs(vec![attest_read::Input::Path(articles)], config) {
        let item = item.context("reading the provenance set's articles")?;
        docs.push(pipeline.analyze(item.article));
    }
    let report = attest_claims::score(&docs, &gold);
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "Claims of {} ({} model)",
        args.dir.display(),
        args.model.kind().name()
    )?;
    write!(out, "{report}")?;
    if args.mistakes {
        for mistake in &report.mistakes {
            writeln!(out, "  {mistake}")?;
        }
    }
    if let Some(floors) = &args.floors {
        let (_, _, f1) = report.pairwise();
        check_floors(
            &mut out,
            floors,
            &format!("claims{}", floor_suffix(args.model.kind())),
            &[
                ("grouping_f1", f1),
                ("first_appearance", report.first_accuracy()),
                ("roles", report.role_accuracy()),
            ],
        )?;
    }
    Ok(())
}

#[derive(Clone, Copy)]
enum TestSet {
    Quantities,
    Times,
}

fn test_set(args: &TestSetArgs, set: TestSet) -> anyhow::Result<()> {
    let tagger = attest_tag::Tagger::bundled().context("loading the part-of-speech model")?;
    // The stages the quantity and time taggers require; a failure leaves the
    // case without its layer, and the case fails in the report.
    let segment = |doc: &mut Doc| {
        let text = doc.text().to_owned();
        let _ = doc.set_segmentation(attest_text::segment(&text, &Limits::DEFAULT));
        let _ = tagger.run(doc);
    };
    let report = match (set, &args.file) {
        (TestSet::Quantities, Some(file)) => attest_numbers::eval_quantities(file, &segment),
        (TestSet::Quantities, None) => {
            attest_numbers::eval_quantities_str(attest_numbers::eval::QUANTITIES_TSV, &segment)
        }
        (TestSet::Times, Some(file)) => attest_numbers::eval_times(file, &segment),
        (TestSet::Times, None) => {
            attest_numbers::eval_times_str(attest_numbers::eval::TIMES_TSV, &segment)
        }
    }?;
    let mut out = io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        write!(out, "{report}")?;
    }
    Ok(())
}

fn sources(args: &SourcesEvalArgs) -> anyhow::Result<()> {
    // The layers the source stages read besides the attributions, from the
    // chosen models.
    let tagging = args.model.tagging()?;
    let prepare = |doc: &mut Doc| -> Result<(), LayerError> {
        doc.set_segmentation(attest_text::segment(doc.text(), &Limits::DEFAULT))?;
        tagging.tagger.run(doc)?;
        tagging.entities.run(doc)
    };
    let mut sets = Vec::with_capacity(args.gold.len());
    for dir in &args.gold {
        let report = attest_sources::eval_gold(dir, &prepare, &tagging.sourcing)
            .with_context(|| format!("scoring the gold set in {}", dir.display()))?;
        sets.push((dir, report));
    }
    let overall = attest_sources::SourcesReport::overall(
        &sets.iter().map(|(_, r)| r.clone()).collect::<Vec<_>>(),
    );
    let labelled = match &args.polnear {
        Some(dir) => Some(score_labelled(dir, args)?),
        None => None,
    };
    let seed = match &args.seed {
        Some(dir) => Some(score_seed(dir, args)?),
        None => None,
    };
    let mut out = io::stdout().lock();
    if args.json {
        let sets: Vec<_> = sets
            .iter()
            .map(|(dir, report)| serde_json::json!({ "dir": dir, "scores": report }))
            .collect();
        let json = serde_json::json!({ "sets": sets, "overall": overall, "polnear": labelled, "seed": seed });
        writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
    } else {
        for (dir, report) in &sets {
            writeln!(out, "Sources, stances and hedges of {}", dir.display())?;
            writeln!(out, "{report}")?;
        }
        if sets.len() > 1 {
            writeln!(out, "Overall, {} sets", sets.len())?;
            writeln!(out, "{overall}")?;
        }
        if let (Some(dir), Some(labelled)) = (&args.polnear, &labelled) {
            write!(out, "{}", labelled.display(dir, args.mistakes))?;
        }
        if let (Some(dir), Some(seed)) = (&args.seed, &seed) {
            write!(out, "{}", seed.scores.display(dir, args.mistakes))?;
            writeln!(
                out,
                "attributions attest adds beyond the gold: {}\nsources named by a pronoun: {}",
                seed.extra_attributions,
                if seed.pronoun_sources.is_empty() {
                    "none".to_owned()
                } else {
                    seed.pronoun_sources.join(", ")
                }
            )?;
        }
    }
    if let Some(floors) = &args.floors {
        for (dir, report) in &sets {
            check_floors(
                &mut out,
                floors,
                &floor_section(dir),
                &[
                    ("source_resolution", report.source_resolution.accuracy),
                    ("source_type", report.source_type.accuracy),
                    ("stance", report.stance.accuracy),
                    ("hedge_f1", report.hedges.f1),
                    ("quotations", report.quotations.accuracy),
                ],
            )?;
        }
    }
    if let (Some(floors), Some(labelled)) = (&args.floors, &labelled) {
        labelled.check_floors(&mut out, floors)?;
    }
    if let (Some(floors), Some(seed)) = (&args.floors, &seed) {
        // The seed's figures, held to `seed` (`seed_accurate` in accurate
        // mode): what attest gets right end to end, and how little it adds.
        let section = format!("seed{}", floor_suffix(seed.scores.model));
        let end_to_end = seed.scores.end_to_end.headline();
        let mut scores = end_to_end.to_vec();
        scores.push(("hedge_recall", seed.scores.hedges.recall()));
        scores.push((
            "no_pronoun_sources",
            f64::from(u8::from(seed.pronoun_sources.is_empty())),
        ));
        scores.push((
            "at_most_two_extra",
            f64::from(u8::from(seed.extra_attributions <= 2)),
        ));
        check_floors(&mut out, floors, &section, &scores)?;
    }
    Ok(())
}

/// The scores of a PolNeAR split against attest's labels of it.
#[derive(serde::Serialize)]
struct LabelledScores {
    model: AnalysisModel,
    /// Sources with the gold attributions given.
    given: SourceLabelReport,
    /// Sources over the attributions attest finds, matched by content.
    end_to_end: SourceLabelReport,
    /// The hedges layer alone, end to end.
    hedges: HedgeLabelReport,
    /// The hedges layer with the source-less attribution cues attest finds.
    hedges_and_sourceless_cues: HedgeLabelReport,
    /// How the gold source spans resolve, the gold attributions given.
    distribution: attest_sources::Distribution,
}

impl LabelledScores {
    fn display(&self, dir: &Path, mistakes: bool) -> String {
        // The alternate form lists each report's mistakes.
        let shown = |report: &dyn std::fmt::Display| {
            if mistakes {
                format!("{report:#}")
            } else {
                report.to_string()
            }
        };
        format!(
            "Sources of {dir} against attest's labels, gold attributions given\n{}\n\
             Sources of {dir} against attest's labels, end to end ({model} model)\n{}\n\
             Writer's hedges of {dir}, the hedges layer alone ({model} model)\n{}\n\
             Writer's hedges of {dir}, with attest's source-less attribution cues\n{}\n\
             Gold source spans of {dir} as attest resolves them\n{}",
            shown(&self.given),
            shown(&self.end_to_end),
            shown(&self.hedges),
            self.hedges_and_sourceless_cues,
            self.distribution,
            dir = dir.display(),
            model = self.model.name(),
        )
    }

    /// Holds the figures to `sources_polnear_given`, `sources_polnear` and
    /// `hedges_polnear` of the floors file, accurate mode's end-to-end
    /// figures to the sections ending in `_accurate`.
    fn check_floors(&self, out: &mut dyn Write, floors: &Path) -> anyhow::Result<()> {
        let suffix = floor_suffix(self.model);
        check_floors(
            out,
            floors,
            "sources_polnear_given",
            &self.given.headline()[1..],
        )?;
        check_floors(
            out,
            floors,
            &format!("sources_polnear{suffix}"),
            &self.end_to_end.headline(),
        )?;
        check_floors(
            out,
            floors,
            &format!("hedges_polnear{suffix}"),
            &self.hedges.headline(),
        )
    }
}

/// Scores a PolNeAR split against the labels of `args.labels`, with the gold
/// attributions given and end to end.
fn score_labelled(dir: &Path, args: &SourcesEvalArgs) -> anyhow::Result<LabelledScores> {
    let corpus = Corpus::open(dir).with_context(|| format!("opening {}", dir.display()))?;
    let split = dir
        .file_name()
        .and_then(|name| name.to_str())
        .with_context(|| format!("{}: the split directory has no name", dir.display()))?;
    let labels = SplitLabels::read(&args.labels, split)?;
    let pipeline = args.model.pipeline(&Limits::DEFAULT)?;
    let mut scorer = LabelledScorer::default();
    for name in labels.names() {
        let article = corpus
            .article(name)
            .with_context(|| format!("{}: labelled article", args.labels.display()))?;
        if let Some(article_labels) = labels.article(name) {
            scorer.add(&pipeline, &article, article_labels)?;
        }
    }
    Ok(scorer.finish(args.model.kind()))
}

/// The sums of [`LabelledScores`] over the articles added.
#[derive(Default)]
struct LabelledScorer {
    given: SourceLabelScorer,
    end_to_end: SourceLabelScorer,
    hedges: HedgeLabelScorer,
    with_cues: HedgeLabelScorer,
    given_docs: Vec<Doc>,
}

impl LabelledScorer {
    /// Scores one labelled article, and returns attest's document of it and
    /// the counterpart in it of each gold attribution.
    fn add(
        &mut self,
        pipeline: &Pipeline,
        article: &CorpusArticle,
        labels: &attest_corpus::ArticleLabels,
    ) -> anyhow::Result<(Doc, Vec<Option<usize>>)> {
        let problems = labels.check(article);
        if !problems.is_empty() {
            anyhow::bail!(
                "the labels disagree with the gold:\n{}",
                problems.join("\n")
            );
        }
        let gold: Vec<_> = article
            .gold
            .iter()
            .map(|g| g.to_attribution(&article.text))
            .collect();
        let doc = pipeline
            .analyze_given(article.to_article(), gold)
            .with_context(|| format!("{}: analysing with the gold attributions", article.name))?;
        let identity: Vec<_> = (0..article.gold.len()).map(Some).collect();
        self.given.add(article, labels, &doc, &identity);
        self.given_docs.push(doc);

        let doc = analyze(pipeline, article);
        let mut counterpart = vec![None; article.gold.len()];
        for (gold, found) in match_attributions(&article.text, &article.gold, doc.attributions()) {
            counterpart[gold] = Some(found);
        }
        self.end_to_end.add(article, labels, &doc, &counterpart);
        let layer: Vec<_> = doc.hedges().iter().map(|h| (h.cue, h.scope)).collect();
        self.hedges.add(article, labels, &layer);
        let mut found = layer;
        found.extend(
            doc.attributions()
                .iter()
                .filter(|a| a.source.is_empty())
                .filter_map(|a| {
                    let cue = *a.cue.first()?;
                    let scope = a.content.first().map_or(cue, |first| {
                        attest_doc::Span::must(
                            first.byte_start(),
                            a.content.last().unwrap_or(first).byte_end(),
                        )
                    });
                    Some((cue, scope))
                }),
        );
        self.with_cues.add(article, labels, &found);
        Ok((doc, counterpart))
    }

    fn finish(self, model: AnalysisModel) -> LabelledScores {
        LabelledScores {
            model,
            given: self.given.report(),
            end_to_end: self.end_to_end.report(),
            hedges: self.hedges.report(),
            hedges_and_sourceless_cues: self.with_cues.report(),
            distribution: attest_sources::source_distribution(&self.given_docs),
        }
    }
}

/// The seed article's figures: its labelled scores, the attributions attest
/// adds beyond the gold, and the sources it names by a pronoun.
#[derive(serde::Serialize)]
struct SeedScores {
    scores: LabelledScores,
    extra_attributions: usize,
    pronoun_sources: Vec<String>,
}

/// Scores the seed articles of `dir`: each NAME.txt with its gold NAME.ann and
/// its labels in the guideline's own tables, NAME.tsv and NAME.hedges.tsv.
fn score_seed(dir: &Path, args: &SourcesEvalArgs) -> anyhow::Result<SeedScores> {
    let pipeline = args.model.pipeline(&Limits::DEFAULT)?;
    let mut scorer = LabelledScorer::default();
    let (mut extra, mut pronouns) = (0, Vec::new());
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            (path.extension()? == "ann").then(|| path.file_stem()?.to_str().map(str::to_owned))?
        })
        .collect();
    names.sort();
    anyhow::ensure!(!names.is_empty(), "{}: no NAME.ann", dir.display());
    for name in names {
        let read = |suffix: &str| {
            let path = dir.join(format!("{name}{suffix}"));
            std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))
        };
        let text = read(".txt")?;
        let gold = attest_corpus::parse_ann(&read(".ann")?, &text)
            .map_err(|err| anyhow::anyhow!("{name}.ann: {err}"))?
            .attributions;
        let labels = attest_corpus::ArticleLabels::from_guideline_tables(
            &read(".tsv")?,
            &read(".hedges.tsv")?,
        )
        .map_err(|err| anyhow::anyhow!("{name}: {err}"))?;
        let article = CorpusArticle::unlisted(name, text, gold);
        let (doc, counterpart) = scorer.add(&pipeline, &article, &labels)?;
        extra += doc.attributions().len() - counterpart.iter().flatten().count();
        pronouns.extend(
            doc.sources()
                .iter()
                .filter(|s| attest_sources::is_pronoun_name(&s.name))
                .map(|s| format!("{}: {:?}", article.name, s.name)),
        );
    }
    Ok(SeedScores {
        scores: scorer.finish(args.model.kind()),
        extra_attributions: extra,
        pronoun_sources: pronouns,
    })
}

/// The ending of a floors section that holds accurate mode's figures.
fn floor_suffix(model: AnalysisModel) -> &'static str {
    match model {
        AnalysisModel::Fast => "",
        AnalysisModel::Accurate => "_accurate",
    }
}

/// The section of the floors file that holds a gold set's figures: `sources`
/// for the first set (named gold), `sources_NAME` for any other.
fn floor_section(dir: &Path) -> String {
    match dir.file_name().and_then(|name| name.to_str()) {
        Some("gold") | None => "sources".to_string(),
        Some(name) => format!("sources_{name}"),
    }
}

fn attributions(args: &EvalArgs) -> anyhow::Result<()> {
    let corpus =
        Corpus::open(&args.dir).with_context(|| format!("opening {}", args.dir.display()))?;
    if let Some(out) = &args.fit_calibration {
        return fit_calibration(args, &corpus, out);
    }
    let pipeline = args.model.pipeline(&Limits::DEFAULT)?;
    let started = Instant::now();
    let mut bytes = 0;
    let report = evaluate_attributions(&corpus, |article| {
        bytes += article.text.len();
        analyze(&pipeline, article).attributions().to_vec()
    })
    .with_context(|| format!("reading {}", args.dir.display()))?;
    let seconds = started.elapsed().as_secs_f64();
    let mut out = io::stdout().lock();
    if !open_report(&mut out, &report, args, "Attributions", "its gold")? {
        writeln!(out, "{report}")?;
        writeln!(
            out,
            "analysed {:.2} MB in {seconds:.1} s ({:.2} MB/s, whole pipeline, one thread)",
            bytes as f64 / 1e6,
            bytes as f64 / 1e6 / seconds.max(1e-9)
        )?;
    }
    if let Some(floors) = &args.floors {
        // Each mode is held to its own figures: accurate mode's are higher on
        // every role but direct-quote precision.
        let section = format!("attributions{}", floor_suffix(args.model.kind()));
        check_floors(&mut out, floors, &section, &report.headline())?;
    }
    Ok(())
}

/// Fits the chosen model's calibration to `corpus` and writes it to `out`.
///
/// The error is reported three ways: raw; in-sample, scored on the split it
/// was fitted to (what the shipped map gives on dev); and two-fold, each half
/// of the articles scored with the map fitted to the other half, the fairer
/// estimate of what it gives on articles it was not fitted to.
fn fit_calibration(args: &EvalArgs, corpus: &Corpus, out: &Path) -> anyhow::Result<()> {
    let pipeline = args.model.pipeline(&Limits::DEFAULT)?.uncalibrated();
    let mut analysed = Vec::new();
    for article in corpus.articles() {
        let article = article.with_context(|| format!("reading {}", args.dir.display()))?;
        let predicted = analyze(&pipeline, &article).attributions().to_vec();
        analysed.push((article, predicted));
    }
    let score = |calibrations: &dyn Fn(usize) -> Option<Calibration>, fold: Option<usize>| {
        let mut scorer = AttributionScorer::new();
        for (index, (article, predicted)) in analysed.iter().enumerate() {
            if fold.is_some_and(|fold| index % 2 != fold) {
                continue;
            }
            let mut predicted = predicted.clone();
            if let Some(calibration) = calibrations(index) {
                calibration.calibrate(&mut predicted);
            }
            scorer.add(&article.text, &article.gold, &predicted);
        }
        scorer.report().reliability
    };
    let fit = |reliability: Reliability| {
        Calibration::fit(
            reliability
                .bins
                .iter()
                .map(|bin| (bin.mean_confidence(), bin.accuracy(), bin.count)),
        )
    };
    let raw = score(&|_| None, None);
    let fitted = fit(raw);
    let in_sample = score(&|_| Some(fitted.clone()), None).error();
    let halves = [
        fit(score(&|_| None, Some(0))),
        fit(score(&|_| None, Some(1))),
    ];
    let two_fold = score(&|index| halves.get(1 - index % 2).cloned(), None).error();
    let about = format!(
        "The calibration of attest's {} mode: `attest eval attributions {} --model {} --fit-calibration FILE`.\n\
         Expected calibration error over {} attributions: raw {:.3}, in-sample {in_sample:.3}, two-fold {two_fold:.3}.",
        args.model.kind().name(),
        args.dir.display(),
        args.model.kind().name(),
        raw.bins.iter().map(|bin| bin.count).sum::<usize>(),
        raw.error(),
    );
    std::fs::write(out, fitted.to_text(&about))
        .with_context(|| format!("writing {}", out.display()))?;
    let mut stdout = io::stdout().lock();
    writeln!(stdout, "{raw}")?;
    writeln!(stdout, "{about}")?;
    writeln!(stdout, "wrote {}", out.display())?;
    Ok(())
}

/// Starts writing `report`: as JSON with the model that made it
/// ([`with_model`]), which says all and gives `true`, or under the heading
/// "`what` of DIR against `gold` (MODEL model)".
fn open_report(
    out: &mut impl Write,
    report: &impl serde::Serialize,
    args: &EvalArgs,
    what: &str,
    gold: &str,
) -> anyhow::Result<bool> {
    if args.json {
        writeln!(out, "{}", with_model(report, args)?)?;
    } else {
        let (dir, model) = (args.dir.display(), args.model.kind().name());
        writeln!(out, "{what} of {dir} against {gold} ({model} model)")?;
    }
    Ok(args.json)
}

/// A report as pretty JSON with the model that made it as its first field.
fn with_model(report: &impl serde::Serialize, args: &EvalArgs) -> anyhow::Result<String> {
    let mut object = serde_json::Map::new();
    object.insert("model".into(), args.model.kind().name().into());
    match serde_json::to_value(report)? {
        serde_json::Value::Object(fields) => object.extend(fields),
        other => {
            object.insert("report".into(), other);
        }
    }
    Ok(serde_json::to_string_pretty(&object)?)
}

/// Analyses a corpus article; what a stage noticed counts as a failure of
/// that article, reported on standard error.
pub(crate) fn analyze(pipeline: &Pipeline, article: &CorpusArticle) -> Doc {
    let doc = pipeline.analyze(article.to_article());
    for diagnostic in doc.diagnostics() {
        messages::input_failed(format_args!(
            "{}: {}: {}",
            article.name, diagnostic.origin, diagnostic.message
        ));
    }
    doc
}

fn tokens(args: &EvalArgs) -> anyhow::Result<()> {
    let corpus =
        Corpus::open(&args.dir).with_context(|| format!("opening {}", args.dir.display()))?;
    let report = evaluate_segmentation(&corpus, 15, |text| {
        attest_text::segment(text, &Limits::DEFAULT)
    })
    .with_context(|| format!("reading {}", args.dir.display()))?;
    // Writes go through `writeln!` so that a closed pipe is an error that ends
    // attest quietly, where `println!` would panic.
    let mut out = io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        writeln!(
            out,
            "Segmentation of {} against silver CoreNLP",
            args.dir.display()
        )?;
        write!(out, "{report}")?;
    }
    if let Some(floors) = &args.floors {
        check_floors(
            &mut out,
            floors,
            "tokens",
            &[
                ("token_f1", report.tokens.f1()),
                ("sentence_f1", report.sentences.f1()),
                (
                    "sentence_before_quotes_f1",
                    report.sentences_before_quotes.f1(),
                ),
            ],
        )?;
    }
    Ok(())
}

/// How far below its recorded figure a score may fall before CI fails: the
/// headroom for harmless changes, and no more.
const FLOOR_TOLERANCE: f64 = 0.01;

/// Compares headline scores with the figures recorded under `section` of a floors
/// file, reporting every score that fell too far.
pub(crate) fn check_floors(
    out: &mut dyn Write,
    path: &Path,
    section: &str,
    scores: &[(&str, f64)],
) -> anyhow::Result<()> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let floors: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
    for (name, score) in scores {
        let Some(floor) = floors[section][name].as_f64() else {
            anyhow::bail!("{}: no figure for {section}.{name}", path.display());
        };
        if *score < floor - FLOOR_TOLERANCE {
            messages::input_failed(format_args!(
                "{section}.{name} is {score:.4}, more than {FLOOR_TOLERANCE} below its recorded {floor:.4} ({})",
                path.display()
            ));
        } else {
            writeln!(
                out,
                "floor {section}.{name}: {score:.4} (recorded {floor:.4}) ok"
            )?;
        }
    }
    Ok(())
}
