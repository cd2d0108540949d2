//! Parity with training: the shipped model must reproduce, on training's
//! fixture (`training/fixtures/parity.json`), the piece ids, units, windows
//! and owners exactly and the logits within 1e-3. Both files are in the
//! repository, so a tree without them is broken and the test fails saying so.

use std::ops::Range;
use std::path::Path;

use serde::Deserialize;

use crate::Encoder;

/// The largest difference allowed between training's logits and ours: both
/// upcast the same F16 weights, so only the order of F32 sums differs.
const TOLERANCE: f32 = 1e-3;

#[derive(Deserialize)]
struct Token {
    start: usize,
    end: usize,
    sentence: usize,
    pieces: Vec<u32>,
}

#[derive(Deserialize)]
struct Sentence {
    text: String,
    tokens: Vec<Token>,
    units: Vec<u32>,
    windows: Vec<[usize; 2]>,
    role_logits: Vec<Vec<f32>>,
    entity_logits: Vec<Vec<f32>>,
    cue: [usize; 2],
    pair_logits: Vec<Vec<f32>>,
}

#[derive(Deserialize)]
struct MultiWindow {
    text: String,
    tokens: Vec<Token>,
    units: Vec<u32>,
    token_first_units: Vec<usize>,
    windows: Vec<[usize; 2]>,
    owner_windows: Vec<usize>,
    role_logits: Vec<Vec<f32>>,
}

#[derive(Deserialize)]
struct Fixture {
    sentences: Vec<Sentence>,
    multi_window: MultiWindow,
}

fn spans(tokens: &[Token]) -> (Vec<Range<usize>>, Vec<usize>) {
    (
        tokens.iter().map(|t| t.start..t.end).collect(),
        tokens.iter().map(|t| t.sentence).collect(),
    )
}

fn ranges(windows: &[[usize; 2]]) -> Vec<Range<usize>> {
    windows.iter().map(|[s, e]| *s..*e).collect()
}

fn assert_close(what: &str, ours: &[f32], theirs: &[Vec<f32>]) {
    let theirs: Vec<f32> = theirs.iter().flatten().copied().collect();
    assert_eq!(ours.len(), theirs.len(), "{what}: lengths");
    let worst = ours
        .iter()
        .zip(&theirs)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0f32, f32::max);
    assert!(worst <= TOLERANCE, "{what}: differs by {worst}");
}

#[test]
fn the_shipped_model_reproduces_trainings_numbers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let encoder = Encoder::load(&root.join("models/encoder"))
        .unwrap_or_else(|error| panic!("the shipped model is part of the tree: {error}"));
    let text = std::fs::read_to_string(root.join("training/fixtures/parity.json"))
        .unwrap_or_else(|error| panic!("training's parity fixture is part of the tree: {error}"));
    let fixture: Fixture = serde_json::from_str(&text).unwrap();
    for (index, case) in fixture.sentences.iter().enumerate() {
        let (tokens, sentences) = spans(&case.tokens);
        let analysis = encoder
            .analyze_tokens(
                &case.text,
                &tokens,
                sentences,
                &attest_doc::Budget::unlimited(),
            )
            .unwrap();
        for (t, token) in case.tokens.iter().enumerate() {
            let units = analysis.units.tokens[t].clone();
            assert_eq!(
                analysis.units.ids[units],
                token.pieces[..],
                "case {index} token {t}"
            );
        }
        assert_eq!(analysis.units.ids, case.units, "case {index}");
        assert_eq!(analysis.windows, ranges(&case.windows), "case {index}");
        assert_close("role logits", &analysis.roles, &case.role_logits);
        assert_close("entity logits", &analysis.entities, &case.entity_logits);
        let pair = encoder
            .pair_scores(&analysis, case.cue[0]..case.cue[1])
            .unwrap();
        assert_eq!(pair.candidates, 0..case.tokens.len());
        assert_close("pair logits", &pair.logits, &case.pair_logits);
    }
    let long = &fixture.multi_window;
    let (tokens, sentences) = spans(&long.tokens);
    let analysis = encoder
        .analyze_tokens(
            &long.text,
            &tokens,
            sentences,
            &attest_doc::Budget::unlimited(),
        )
        .unwrap();
    assert_eq!(analysis.units.ids, long.units);
    let first: Vec<usize> = analysis.units.tokens.iter().map(|t| t.start).collect();
    assert_eq!(first, long.token_first_units);
    assert_eq!(analysis.windows, ranges(&long.windows));
    assert_eq!(analysis.owners, long.owner_windows);
    assert_close(
        "multi-window role logits",
        &analysis.roles,
        &long.role_logits,
    );
}
