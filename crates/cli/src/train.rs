//! `attest train`: rebuilds every model attest ships from a PolNeAR directory.
//!
//! The POS tagger is trained first on the silver tags of the train split; the
//! attribution and entity models are then trained on train documents tagged by
//! that new tagger, so that their features are those they will see at run time.
//! `--extra-gold` adds gold attributions, such as editors' corrections, to the
//! train split's. Dev is never read. The same data and seed give the same model files, byte
//! for byte.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

use anyhow::Context;
use attest_corpus::{Corpus, CorpusArticle, pos_sentences};
use attest_doc::{Article, Doc, Limits, Stage};

use crate::flags::TrainArgs;

pub(crate) fn run(args: &TrainArgs) -> anyhow::Result<()> {
    let train_dir = args.data.join("train");
    let corpus =
        Corpus::open(&train_dir).with_context(|| format!("opening {}", train_dir.display()))?;
    fs::create_dir_all(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    let mut out = std::io::stdout().lock();
    if args.sourcing_only {
        let tagger = attest_tag::Tagger::bundled().context("loading the part-of-speech model")?;
        let entities =
            attest_entities::EntityTagger::bundled().context("loading the entity model")?;
        return train_sourcing(args, &tagger, &entities, &mut out);
    }

    let started = Instant::now();
    let tagger = train_tagger(&corpus, args.seed)?;
    let pos_bytes = tagger.model().to_bytes();
    write_model(&args.out.join("pos.model"), &pos_bytes)?;
    writeln!(
        out,
        "pos.model: {} bytes, {:.1} s",
        pos_bytes.len(),
        started.elapsed().as_secs_f64()
    )?;

    let started = Instant::now();
    let mut examples = attribution_examples(&corpus, &tagger)?;
    if let Some(dir) = &args.extra_gold {
        let extra = Corpus::open(dir)
            .with_context(|| format!("opening the extra gold {}", dir.display()))?;
        let before = examples.len();
        examples.extend(attribution_examples(&extra, &tagger)?);
        writeln!(
            out,
            "extra gold: {} articles from {}",
            examples.len() - before,
            dir.display()
        )?;
    }
    let config = attest_attrib::TrainConfig {
        seed: args.seed,
        epochs: 12,
        cue_prune: 3.5,
        role_prune: 10.0,
        shuffles: attest_learn::TRAINING_ORDERS,
    };
    let attrib_bytes = attest_attrib::train(&examples, &config);
    write_model(&args.out.join("attrib.model"), &attrib_bytes)?;
    writeln!(
        out,
        "attrib.model: {} bytes, {} articles, {:.1} s",
        attrib_bytes.len(),
        examples.len(),
        started.elapsed().as_secs_f64()
    )?;

    let started = Instant::now();
    let (entity_bytes, articles) = train_entities(&corpus, &tagger, args.seed)?;
    write_model(&args.out.join("entities.model"), &entity_bytes)?;
    writeln!(
        out,
        "entities.model: {} bytes, {articles} articles, {:.1} s",
        entity_bytes.len(),
        started.elapsed().as_secs_f64()
    )?;
    let entities = attest_entities::EntityTagger::new(
        attest_entities::Model::from_bytes(&entity_bytes)
            .context("reading the new entity model")?,
    );
    train_sourcing(args, &tagger, &entities, &mut out)
}

/// Weights under this leave the sourcing models: it halves them with
/// dev's figures unchanged to the third place (docs/sources.md).
const PRUNE: f32 = 0.5;

/// Trains the models learned from attest's labels of the train split:
/// stance.model, source-type.model, source-link.model and hedges.model, over documents with
/// the gold attributions placed, tagged by
/// `tagger` and `entities`.
fn train_sourcing(
    args: &TrainArgs,
    tagger: &attest_tag::Tagger,
    entities: &attest_entities::EntityTagger,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let started = Instant::now();
    let train_dir = args.data.join("train");
    let corpus =
        Corpus::open(&train_dir).with_context(|| format!("opening {}", train_dir.display()))?;
    let labels = attest_corpus::SplitLabels::read(&args.labels, "train")?;
    let (mut examples, mut type_examples, mut link_examples) = (Vec::new(), Vec::new(), Vec::new());
    // Documents with their labelled hedge cues, kept until the triggers are
    // known: the hedge model's candidates are the words the labels use.
    let mut hedge_docs = Vec::new();
    for name in labels.names() {
        let article = corpus.article(name)?;
        let Some(article_labels) = labels.article(name) else {
            continue;
        };
        let problems = article_labels.check(&article);
        anyhow::ensure!(
            problems.is_empty(),
            "the labels disagree with the gold:\n{}",
            problems.join("\n")
        );
        let mut doc = tagged_doc(&article, tagger)?;
        entities
            .run(&mut doc)
            .with_context(|| format!("finding the entities of {name}"))?;
        let gold = article
            .gold
            .iter()
            .map(|g| g.to_attribution(&article.text))
            .collect();
        doc.set_attributions(gold)
            .with_context(|| format!("placing the gold of {name}"))?;
        let labelled: Vec<(usize, &attest_corpus::SourceLabel)> = article
            .gold
            .iter()
            .enumerate()
            .filter_map(|(index, gold)| Some((index, article_labels.source(&gold.id)?)))
            .collect();
        let stances: Vec<_> = labelled.iter().map(|(i, l)| (*i, l.stance)).collect();
        examples.extend(attest_sources::stance::training_examples(&doc, &stances));
        let types: Vec<_> = labelled.iter().map(|(i, l)| (*i, l.source_type)).collect();
        type_examples.extend(attest_sources::types::training_examples(&doc, &types));
        let canonical: Vec<_> = labelled
            .iter()
            .map(|(i, l)| (*i, l.canonical.as_deref()))
            .collect();
        link_examples.extend(attest_sources::link::training_examples(&doc, &canonical));
        let index = attest_doc::OffsetIndex::new(&article.text);
        let cues: Vec<attest_doc::Span> = article_labels
            .hedges
            .iter()
            .filter_map(|h| Some(h.spans(&article.text, &index)?.0))
            .collect();
        attest_sources::SourceResolver::rules()
            .run(&mut doc)
            .with_context(|| format!("resolving the sources of {name}"))?;
        hedge_docs.push((doc, cues));
    }
    let triggers = attest_sources::hedges::triggers(
        hedge_docs.iter().map(|(doc, cues)| (doc, cues.as_slice())),
    );
    let hedge_examples: Vec<_> = hedge_docs
        .iter()
        .flat_map(|(doc, cues)| attest_sources::hedges::training_examples(doc, cues, &triggers))
        .collect();
    let stances: Vec<&str> = attest_doc::StanceLabel::ALL
        .iter()
        .map(|s| s.name())
        .collect();
    let perceptron = attest_sources::classifier::Learner::Perceptron {
        orders: attest_learn::TRAINING_ORDERS,
        prune: PRUNE,
    };
    let no_vocabulary = std::collections::BTreeSet::new();
    let type_classes = attest_sources::types::class_names();
    let models = [
        (
            "stance.model",
            attest_sources::stance::MODEL_KIND,
            &stances[..],
            &no_vocabulary,
            &examples,
            perceptron,
        ),
        (
            "source-type.model",
            attest_sources::types::MODEL_KIND,
            &type_classes[..],
            &no_vocabulary,
            &type_examples,
            perceptron,
        ),
        (
            "source-link.model",
            attest_sources::link::MODEL_KIND,
            &attest_sources::link::CLASSES[..],
            &no_vocabulary,
            &link_examples,
            attest_sources::link::LEARNER,
        ),
        (
            "hedges.model",
            attest_sources::hedges::MODEL_KIND,
            &attest_sources::hedges::CLASSES[..],
            &triggers,
            &hedge_examples,
            perceptron,
        ),
    ];
    let meta = [("articles", labels.len().to_string())];
    for (file, kind, classes, vocabulary, examples, learner) in models {
        let config = attest_sources::classifier::TrainConfig {
            epochs: 10,
            seed: args.seed,
            learner,
        };
        let spec = attest_sources::classifier::ModelSpec {
            labels: classes,
            vocabulary: vocabulary.clone(),
            meta: &meta,
        };
        let bytes = attest_sources::classifier::train(kind, &spec, examples, &config);
        write_model(&args.out.join(file), &bytes)?;
        writeln!(
            out,
            "{file}: {} bytes, {} labelled examples of {} articles",
            bytes.len(),
            examples.len(),
            labels.len(),
        )?;
    }
    writeln!(
        out,
        "sourcing models: {:.1} s",
        started.elapsed().as_secs_f64()
    )?;
    Ok(())
}

fn train_tagger(corpus: &Corpus, seed: u64) -> anyhow::Result<attest_tag::Tagger> {
    let sentences: Vec<attest_tag::TaggedSentence> = pos_sentences(corpus)
        .context("reading the silver tags")?
        .into_iter()
        .filter_map(|sentence| {
            attest_tag::TaggedSentence::from_names(sentence.words, &sentence.tags)
        })
        .collect();
    let config = attest_tag::TrainConfig {
        seed,
        ..attest_tag::TrainConfig::default()
    };
    Ok(attest_tag::Tagger::new(attest_tag::train(
        &sentences, &config,
    )))
}

fn attribution_examples(
    corpus: &Corpus,
    tagger: &attest_tag::Tagger,
) -> anyhow::Result<Vec<attest_attrib::TrainingExample>> {
    let mut examples = Vec::with_capacity(corpus.len());
    for article in corpus.articles() {
        let article = article.context("reading the gold attributions")?;
        let doc = tagged_doc(&article, tagger)?;
        let gold = article
            .gold
            .iter()
            .map(|gold| gold.to_attribution(&article.text))
            .collect();
        examples.push(attest_attrib::TrainingExample { doc, gold });
    }
    Ok(examples)
}

/// Trains the entity model on the silver CoreNLP mentions of `corpus`, tagging the
/// documents with `tagger`; returns the model file's bytes and how many
/// articles it learned from.
fn train_entities(
    corpus: &Corpus,
    tagger: &attest_tag::Tagger,
    seed: u64,
) -> anyhow::Result<(Vec<u8>, usize)> {
    let mut examples = Vec::with_capacity(corpus.len());
    for article in corpus.articles() {
        let article = article.context("reading the silver entities")?;
        let Some(silver) = &article.silver else {
            continue;
        };
        let doc = tagged_doc(&article, tagger)?;
        let gold = attest_corpus::silver_mentions(silver)
            .into_iter()
            .map(|mention| (mention.span, mention.label))
            .collect();
        examples.push(attest_entities::TrainingExample { doc, gold });
    }
    let config = attest_entities::TrainConfig {
        seed,
        ..attest_entities::TrainConfig::default()
    };
    let model = attest_entities::train(&examples, &config);
    Ok((model.to_bytes(), examples.len()))
}

/// An article segmented and tagged as the pipeline does before the learned
/// stages that follow the tagger, so that a model learns from the features it
/// will see.
fn tagged_doc(article: &CorpusArticle, tagger: &attest_tag::Tagger) -> anyhow::Result<Doc> {
    let mut doc = Doc::new(Article::new(article.name.as_str(), article.text.as_str()));
    doc.set_segmentation(attest_text::segment(&article.text, &Limits::DEFAULT))
        .with_context(|| format!("segmenting {}", article.name))?;
    tagger
        .run(&mut doc)
        .with_context(|| format!("tagging {}", article.name))?;
    Ok(doc)
}

/// Writes a model through a temporary file, so that an interrupted run never
/// leaves a truncated model where attest loads it.
fn write_model(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let partial = path.with_extension("model.partial");
    fs::write(&partial, bytes).with_context(|| format!("writing {}", partial.display()))?;
    fs::rename(&partial, path).with_context(|| format!("writing {}", path.display()))
}
