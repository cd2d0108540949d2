//! Tests of the whole encoder on tiny random-weight models written by the test.

use std::path::PathBuf;

use attest_doc::{Article, Attribution, AttributionKind, Budget, Doc, Limits, Proposals, Span};

use crate::testing::{Size, write_random_model};
use crate::{Encoder, EncoderError};

/// A fresh directory under the system's temporary directory.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("attest-encoder-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn tiny(name: &str) -> (PathBuf, Encoder) {
    let dir = temp_dir(name);
    write_random_model(&dir, Size::TINY, 7).unwrap();
    let encoder = Encoder::load(&dir).unwrap();
    (dir, encoder)
}

fn doc(text: &str) -> Doc {
    let mut doc = Doc::new(Article::new("t", text));
    doc.set_segmentation(attest_text::segment(text, &Limits::DEFAULT))
        .unwrap();
    doc
}

const TEXT: &str = "The mayor said the city would not pay. “We will see,” she said.\n\n\
    Officials said the plan, which the council passed in May, was sound; critics said it was not. \
    Café owners said they would wait and see what the city does next.";

#[test]
fn units_mark_line_breaks_and_windows_overlap() {
    let (_dir, encoder) = tiny("units");
    let doc = doc(TEXT);
    let analysis = encoder.analyze(&doc, &Budget::unlimited()).unwrap();
    let sep = encoder.vocab().sep;
    assert_eq!(analysis.units.tokens.len(), doc.tokens().len());
    assert_eq!(
        analysis.units.ids.iter().filter(|&&id| id == sep).count(),
        1,
        "one [SEP] for the paragraph break"
    );
    assert!(analysis.windows.len() > 2, "{:?}", analysis.windows);
    assert_eq!(analysis.roles.len(), doc.tokens().len() * 7);
    assert_eq!(analysis.entities.len(), doc.tokens().len() * 9);
    assert!(analysis.roles.iter().all(|x| x.is_finite()));
}

#[test]
fn output_is_the_same_bit_for_bit_run_to_run_and_load_to_load() {
    let (dir, encoder) = tiny("determinism");
    let doc = doc(TEXT);
    let first = encoder.analyze(&doc, &Budget::unlimited()).unwrap();
    let again = encoder.analyze(&doc, &Budget::unlimited()).unwrap();
    let reloaded = Encoder::load(&dir)
        .unwrap()
        .analyze(&doc, &Budget::unlimited())
        .unwrap();
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    for other in [&again, &reloaded] {
        assert_eq!(bits(&first.roles), bits(&other.roles));
        assert_eq!(bits(&first.entities), bits(&other.entities));
    }
    assert_eq!(
        encoder.predict(&doc, &Budget::unlimited()).unwrap(),
        encoder.predict(&doc, &Budget::unlimited()).unwrap()
    );
}

#[test]
fn padding_in_a_batch_does_not_change_a_window() {
    let (_dir, encoder) = tiny("padding");
    let doc = doc(TEXT);
    let analysis = encoder.analyze(&doc, &Budget::unlimited()).unwrap();
    let ids = &analysis.units.ids;
    let windows = &analysis.windows;
    let mut batched = vec![Vec::new(); windows.len()];
    for batch in crate::model::batches(windows) {
        let states = encoder
            .network
            .encode_batch(ids, windows, &batch, &encoder.vocab)
            .unwrap();
        for (w, states) in batch.into_iter().zip(states) {
            batched[w] = states;
        }
    }
    for (index, batched) in batched.iter().enumerate() {
        let alone = encoder
            .network
            .encode_batch(ids, windows, &[index], &encoder.vocab)
            .unwrap();
        let worst = alone[0]
            .iter()
            .zip(batched)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f32, f32::max);
        assert!(worst < 1e-4, "window {index} differs by {worst}");
    }
}

#[test]
fn windows_not_kept_are_encoded_again_to_the_same_scores_bit_for_bit() {
    let (_dir, encoder) = tiny_with_heads("kept");
    let text = [TEXT; 4].join("\n\n");
    let mut doc = doc(&text);
    let analyze = |kept_bytes| {
        encoder
            .analyze_keeping(&doc, &Budget::unlimited(), kept_bytes)
            .unwrap()
    };
    let (all, none) = (analyze(usize::MAX), analyze(0));
    assert!(all.batches.len() > 1, "{} batches", all.batches.len());
    assert!(all.states.iter().all(|s| !s.is_empty()));
    assert!(none.states.iter().all(Vec::is_empty));
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&all.roles), bits(&none.roles));
    assert_eq!(bits(&all.entities), bits(&none.entities));
    assert_eq!(bits(&all.hedges), bits(&none.hedges));
    let count = doc.tokens().len();
    for cue in 0..count {
        let (kept, again) = (
            encoder.pair_scores(&all, cue..cue + 1).unwrap(),
            encoder.pair_scores(&none, cue..cue + 1).unwrap(),
        );
        assert_eq!(bits(&kept.logits), bits(&again.logits), "cue {cue}");
    }
    let prediction = encoder.predict_from(&all, &Budget::unlimited()).unwrap();
    assert!(!prediction.attributions.is_empty());
    assert_eq!(
        prediction,
        encoder.predict_from(&none, &Budget::unlimited()).unwrap()
    );
    // The cues decoded batch by batch are the document's, and give what the
    // pair head gives them when their windows are encoded again.
    let cues = |p: &crate::Prediction| {
        p.attributions
            .iter()
            .map(|a| a.cue.clone())
            .collect::<Vec<_>>()
    };
    let ahead: Vec<_> = none.ahead.iter().map(|found| found.cue.clone()).collect();
    assert_eq!(ahead, cues(&prediction));
    let mut again = none.clone();
    again.ahead.clear();
    assert_eq!(
        prediction,
        encoder.predict_from(&again, &Budget::unlimited()).unwrap()
    );
    let spans: Vec<Span> = doc.tokens().iter().map(|t| t.span).collect();
    let attributions = (0..count - 1)
        .step_by(7)
        .map(|t| Attribution {
            source: Vec::new(),
            cue: vec![spans[t]],
            content: vec![spans[t + 1]],
            kind: AttributionKind::Indirect,
            confidence: 1.0,
        })
        .collect();
    doc.set_attributions(attributions).unwrap();
    let proposals = encoder.proposals(&all, &doc).unwrap();
    assert!(!proposals.stances.is_empty());
    assert_eq!(proposals, encoder.proposals(&none, &doc).unwrap());
}

#[test]
fn pair_candidates_are_the_cue_window_and_the_cue_is_forced_out() {
    let (_dir, encoder) = tiny("pairs");
    let doc = doc(TEXT);
    let analysis = encoder.analyze(&doc, &Budget::unlimited()).unwrap();
    let said = doc
        .tokens()
        .iter()
        .position(|t| doc.span_text(t.span) == "said")
        .unwrap();
    let pair = encoder.pair_scores(&analysis, said..said + 1).unwrap();
    let window = &analysis.windows[analysis.owners[said]];
    assert!(pair.candidates.contains(&said));
    for t in pair.candidates.clone() {
        let units = &analysis.units.tokens[t];
        assert!(window.start <= units.start && units.end <= window.end);
    }
    assert_eq!(pair.logits.len(), pair.candidates.len() * 5);
    let prediction = encoder.predict(&doc, &Budget::unlimited()).unwrap();
    for attribution in &prediction.attributions {
        for fragment in attribution.sources.iter().chain(&attribution.content) {
            assert!(fragment.end <= attribution.cue.start || fragment.start >= attribution.cue.end);
        }
    }
}

#[test]
fn an_empty_document_predicts_nothing() {
    let (_dir, encoder) = tiny("empty");
    let prediction = encoder.predict(&doc(""), &Budget::unlimited()).unwrap();
    assert!(prediction.attributions.is_empty() && prediction.entities.is_empty());
}

#[test]
fn a_missing_or_foreign_model_is_an_error_naming_the_file() {
    let missing = temp_dir("missing");
    assert!(matches!(
        Encoder::load(&missing),
        Err(EncoderError::Missing { path }) if path == missing
    ));
    let (dir, _) = tiny("format");
    let config = dir.join("config.json");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, text.replace("\"format\": 1", "\"format\": 2")).unwrap();
    let err = Encoder::load(&dir).unwrap_err();
    assert!(
        matches!(&err, EncoderError::Format { path, found } if *path == config && found.as_deref() == Some("2"))
    );
    assert!(err.to_string().contains("config.json"), "{err}");
    std::fs::write(&config, text).unwrap();
    std::fs::write(dir.join("model.safetensors"), b"not a model").unwrap();
    let err = Encoder::load(&dir).unwrap_err();
    assert!(matches!(&err, EncoderError::Weights { .. }), "{err}");
    assert!(err.to_string().contains("model.safetensors"), "{err}");
}

/// A tiny model with the stance and hedge heads; its other weights are those
/// of [`tiny`]'s model, since the heads are drawn after them from the same seed.
fn tiny_with_heads(name: &str) -> (PathBuf, Encoder) {
    let dir = temp_dir(name);
    let size = Size {
        stance_and_hedge: true,
        ..Size::TINY
    };
    write_random_model(&dir, size, 7).unwrap();
    let encoder = Encoder::load(&dir).unwrap();
    (dir, encoder)
}

#[test]
fn the_new_heads_add_scores_and_change_nothing_else() {
    let (_dir, plain) = tiny("plain");
    let (_dir2, headed) = tiny_with_heads("headed");
    assert!(!plain.config().stance && !plain.config().hedge);
    assert!(headed.config().stance && headed.config().hedge);
    let mut doc = doc(TEXT);
    let (plain_analysis, analysis) = (
        plain.analyze(&doc, &Budget::unlimited()).unwrap(),
        headed.analyze(&doc, &Budget::unlimited()).unwrap(),
    );
    let without = plain.predict_from(&plain_analysis, &Budget::unlimited());
    let with = headed.predict_from(&analysis, &Budget::unlimited());
    assert_eq!(without.unwrap(), with.unwrap());
    assert_eq!(analysis.hedges.len(), doc.tokens().len() * 3);
    // One cue of one word with a source, and one of two words apart without.
    let spans: Vec<Span> = doc.tokens().iter().map(|t| t.span).collect();
    let span = |token: usize| spans[token];
    let said = |source: Vec<Span>, cue: Vec<Span>| Attribution {
        source,
        cue,
        content: vec![span(3)],
        kind: AttributionKind::Indirect,
        confidence: 1.0,
    };
    doc.set_attributions(vec![
        said(vec![span(1)], vec![span(2)]),
        said(Vec::new(), vec![span(2), span(5)]),
    ])
    .unwrap();
    assert_eq!(
        plain.proposals(&plain_analysis, &doc).unwrap(),
        Proposals::default()
    );
    let proposals = headed.proposals(&analysis, &doc).unwrap();
    assert_eq!(proposals.stances.len(), 2);
    for stance in &proposals.stances {
        let sum: f32 = stance.iter().sum();
        assert!((sum - 1.0).abs() < 1e-5, "{sum}");
    }
    assert_ne!(proposals.stances[0], proposals.stances[1]);
    let cues = headed.hedge_cues(&analysis);
    assert_eq!(proposals.hedges.len(), cues.len());
    for (hedge, cue) in proposals.hedges.iter().zip(&cues) {
        assert_eq!(hedge.byte_start(), span(cue.start).byte_start());
        assert_eq!(hedge.byte_end(), span(cue.end - 1).byte_end());
    }
    doc.set_proposals(proposals).unwrap();
}

#[test]
fn the_stance_head_reads_whether_the_attribution_has_a_source() {
    let (_dir, encoder) = tiny_with_heads("sourced");
    let doc = doc(TEXT);
    let analysis = encoder.analyze(&doc, &Budget::unlimited()).unwrap();
    let sourced = encoder
        .stance_scores(&analysis, &[2], true)
        .unwrap()
        .unwrap();
    let sourceless = encoder
        .stance_scores(&analysis, &[2], false)
        .unwrap()
        .unwrap();
    assert_ne!(sourced, sourceless);
}

#[test]
fn a_config_naming_an_unknown_head_or_lacking_one_is_an_error() {
    let (dir, _) = tiny_with_heads("unknown-head");
    let config = dir.join("config.json");
    let text = std::fs::read_to_string(&config).unwrap();
    for (from, to) in [("\"hedge\"\n", "\"mood\"\n"), ("\"role\",", "")] {
        assert!(text.contains(from), "{from:?} in {text}");
        std::fs::write(&config, text.replacen(from, to, 1)).unwrap();
        let err = Encoder::load(&dir).unwrap_err();
        assert!(matches!(&err, EncoderError::Config { .. }), "{err}");
    }
}
