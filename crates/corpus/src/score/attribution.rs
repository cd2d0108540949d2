//! Attributions against the gold, under two protocols.
//!
//! **Span protocol**, the one published results use: for each role (source, cue,
//! content) every fragment of every attribution is cut at paragraph breaks (a
//! run of whitespace holding at least two newlines) and trimmed; the multisets
//! of pieces of an article are compared, exactly (same start and end) and by
//! begin match (same start).
//!
//! **Attribution protocol**, stricter: a predicted attribution matches a gold one
//! when their contents have token Jaccard ≥ 0.5, one to one, best overlap first
//! (ties by gold index, then predicted index). Over matched pairs it reports the
//! token F1 of the sources and how often the cues are identical. Two attributions
//! that both lack a content (the corpus has a few) are compared by their cues
//! instead, so that the gold scored against itself matches everywhere.

use std::cmp::Ordering;
use std::fmt;

use attest_doc::{Attribution, Span};
use serde::Serialize;

use super::{Prf, Reliability};
use crate::GoldAttribution;

/// The three roles of an attribution, as fragments: implemented by gold and
/// predicted attributions alike.
pub trait Roles {
    /// Source fragments.
    fn source(&self) -> &[Span];
    /// Cue fragments.
    fn cue(&self) -> &[Span];
    /// Content fragments.
    fn content(&self) -> &[Span];
    /// Whether the attribution claims to be a direct quote, its content wholly
    /// inside quotation marks; gold attributions carry no such claim.
    fn is_direct(&self) -> bool {
        false
    }
    /// How sure its finder was; gold attributions are certain.
    fn confidence(&self) -> f32 {
        1.0
    }
}

impl Roles for GoldAttribution {
    fn source(&self) -> &[Span] {
        &self.source
    }
    fn cue(&self) -> &[Span] {
        &self.cue
    }
    fn content(&self) -> &[Span] {
        &self.content
    }
}

impl Roles for Attribution {
    fn source(&self) -> &[Span] {
        &self.source
    }
    fn cue(&self) -> &[Span] {
        &self.cue
    }
    fn content(&self) -> &[Span] {
        &self.content
    }
    fn is_direct(&self) -> bool {
        self.kind == attest_doc::AttributionKind::Direct
    }
    fn confidence(&self) -> f32 {
        self.confidence
    }
}

/// Exact and begin-match counts of one role.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize)]
pub struct RoleScores {
    /// Pieces identical to a gold piece.
    pub exact: Prf,
    /// Pieces that start where a gold piece starts.
    pub begin: Prf,
}

/// The span protocol, per role.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize)]
pub struct SpanProtocol {
    /// Source pieces.
    pub source: RoleScores,
    /// Cue pieces.
    pub cue: RoleScores,
    /// Content pieces.
    pub content: RoleScores,
}

/// The attribution protocol.
#[derive(Clone, Copy, PartialEq, Debug, Default, Serialize)]
pub struct AttributionProtocol {
    /// Attributions matched by content token Jaccard ≥ 0.5.
    pub attributions: Prf,
    /// The mean source token F1 over matched pairs (1.0 when there are none).
    pub source_token_f1: f64,
    /// The share of matched pairs whose cue fragments are identical after trimming
    /// (1.0 when there are none).
    pub cue_exact: f64,
}

/// Scores over the articles added, micro-averaged.
#[derive(Clone, Copy, PartialEq, Debug, Default, Serialize)]
pub struct AttributionReport {
    /// Articles compared.
    pub articles: usize,
    /// Gold attributions.
    pub gold: usize,
    /// Predicted attributions.
    pub predicted: usize,
    /// The span protocol.
    pub span: SpanProtocol,
    /// The attribution protocol.
    pub attribution: AttributionProtocol,
    /// Content pieces of predicted direct quotes, and how many equal a gold
    /// content piece (span protocol pieces): the precision of direct quotes.
    pub direct_content: DirectContent,
    /// The predicted attributions' confidence against whether the attribution
    /// protocol matched them.
    pub reliability: Reliability,
}

/// The precision of the contents of predicted direct quotes.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct DirectContent {
    /// Content pieces of attributions predicted as direct quotes.
    pub predicted: usize,
    /// Those equal to a gold content piece.
    pub exact: usize,
}

impl DirectContent {
    /// Exact pieces over predicted pieces (1.0 when none were predicted).
    pub fn precision(&self) -> f64 {
        if self.predicted == 0 {
            1.0
        } else {
            self.exact as f64 / self.predicted as f64
        }
    }
}

impl Serialize for DirectContent {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut state = serializer.serialize_struct("DirectContent", 3)?;
        state.serialize_field("predicted", &self.predicted)?;
        state.serialize_field("exact", &self.exact)?;
        state.serialize_field("precision", &self.precision())?;
        state.end()
    }
}

impl AttributionReport {
    /// The headline scores, by the names `eval/floors.json` records them under;
    /// `calibration` is one less the expected calibration error, so that, as
    /// for the others, higher is better.
    pub fn headline(&self) -> [(&'static str, f64); 6] {
        [
            ("source_f1", self.span.source.exact.f1()),
            ("cue_f1", self.span.cue.exact.f1()),
            ("content_f1", self.span.content.exact.f1()),
            ("attribution_f1", self.attribution.attributions.f1()),
            ("direct_content_precision", self.direct_content.precision()),
            ("calibration", 1.0 - self.reliability.error()),
        ]
    }
}

/// Sums attribution counts over articles.
#[derive(Clone, Debug, Default)]
pub struct AttributionScorer {
    articles: usize,
    gold: usize,
    predicted: usize,
    span: SpanProtocol,
    attributions: Prf,
    source_f1_sum: f64,
    cue_exact: usize,
    direct_content: DirectContent,
    reliability: Reliability,
}

impl AttributionScorer {
    /// A scorer with nothing added.
    pub fn new() -> AttributionScorer {
        AttributionScorer::default()
    }

    /// Adds one article: its text, its gold and the predicted attributions.
    pub fn add<G: Roles, P: Roles>(&mut self, text: &str, gold: &[G], predicted: &[P]) {
        self.articles += 1;
        self.gold += gold.len();
        self.predicted += predicted.len();
        let span = &mut self.span;
        add_role(
            &mut span.source,
            text,
            gold.iter().map(Roles::source),
            predicted.iter().map(Roles::source),
        );
        add_role(
            &mut span.cue,
            text,
            gold.iter().map(Roles::cue),
            predicted.iter().map(Roles::cue),
        );
        add_role(
            &mut span.content,
            text,
            gold.iter().map(Roles::content),
            predicted.iter().map(Roles::content),
        );

        let gold_content = role_pieces(text, gold.iter().map(Roles::content));
        let direct_pieces = role_pieces(
            text,
            predicted
                .iter()
                .filter(|p| p.is_direct())
                .map(Roles::content),
        );
        let direct = multiset_prf(&gold_content, &direct_pieces);
        self.direct_content.predicted += direct_pieces.len();
        self.direct_content.exact += direct.true_pos;

        let pairs = match_attributions(text, gold, predicted);
        self.attributions
            .add(Prf::from_counts(pairs.len(), predicted.len(), gold.len()));
        let mut matched = vec![false; predicted.len()];
        for (_, p) in &pairs {
            if let Some(slot) = matched.get_mut(*p) {
                *slot = true;
            }
        }
        for (attribution, right) in predicted.iter().zip(matched) {
            self.reliability.add(attribution.confidence(), right);
        }
        for (g, p) in pairs {
            let (Some(g), Some(p)) = (gold.get(g), predicted.get(p)) else {
                continue;
            };
            self.source_f1_sum += score_tokens(
                &fragment_tokens(text, g.source()),
                &fragment_tokens(text, p.source()),
            );
            if trimmed(text, g.cue()) == trimmed(text, p.cue()) {
                self.cue_exact += 1;
            }
        }
    }

    /// The report over every article added.
    pub fn report(&self) -> AttributionReport {
        let matched = self.attributions.true_pos;
        let mean = |sum: f64| {
            if matched == 0 {
                1.0
            } else {
                sum / matched as f64
            }
        };
        AttributionReport {
            articles: self.articles,
            gold: self.gold,
            predicted: self.predicted,
            span: self.span,
            attribution: AttributionProtocol {
                attributions: self.attributions,
                source_token_f1: mean(self.source_f1_sum),
                cue_exact: mean(self.cue_exact as f64),
            },
            direct_content: self.direct_content,
            reliability: self.reliability,
        }
    }
}

/// The pieces of a fragment: cut at paragraph breaks, trimmed, empty ones dropped.
pub fn paragraph_pieces(text: &str, fragment: Span) -> Vec<Span> {
    let Some(covered) = fragment.get(text) else {
        return Vec::new();
    };
    let mut pieces = Vec::new();
    let mut piece_start = 0;
    let mut chars = covered.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if !c.is_whitespace() {
            continue;
        }
        // A whitespace run: a paragraph break when it holds two newlines.
        let mut end = at + c.len_utf8();
        let mut newlines = usize::from(c == '\n');
        while let Some(&(next_at, next)) = chars.peek() {
            if !next.is_whitespace() {
                break;
            }
            newlines += usize::from(next == '\n');
            end = next_at + next.len_utf8();
            chars.next();
        }
        if newlines >= 2 {
            pieces.push((piece_start, at));
            piece_start = end;
        }
    }
    pieces.push((piece_start, covered.len()));
    pieces
        .into_iter()
        .filter_map(|(start, end)| {
            let base = fragment.byte_start();
            Span::try_new(base + start, base + end).ok()
        })
        .map(|piece| piece.trim(text))
        .filter(|piece| !piece.is_empty())
        .collect()
}

/// Adds one role of one article to the span protocol's counts.
fn add_role<'a>(
    scores: &mut RoleScores,
    text: &str,
    gold: impl Iterator<Item = &'a [Span]>,
    predicted: impl Iterator<Item = &'a [Span]>,
) {
    let gold_pieces = role_pieces(text, gold);
    let predicted_pieces = role_pieces(text, predicted);
    scores
        .exact
        .add(multiset_prf(&gold_pieces, &predicted_pieces));
    let starts =
        |pieces: &[Span]| -> Vec<usize> { pieces.iter().map(|p| p.byte_start()).collect() };
    scores.begin.add(multiset_prf(
        &starts(&gold_pieces),
        &starts(&predicted_pieces),
    ));
}

/// Every piece of one role over an article's attributions, sorted.
fn role_pieces<'a>(text: &str, roles: impl Iterator<Item = &'a [Span]>) -> Vec<Span> {
    let mut pieces: Vec<Span> = roles
        .flatten()
        .flat_map(|fragment| paragraph_pieces(text, *fragment))
        .collect();
    pieces.sort();
    pieces
}

/// Counts of the multiset intersection of two sorted lists.
fn multiset_prf<T: Ord + Copy>(gold: &[T], predicted: &[T]) -> Prf {
    let mut sorted_gold = gold.to_vec();
    let mut sorted_predicted = predicted.to_vec();
    sorted_gold.sort();
    sorted_predicted.sort();
    let (mut g, mut p, mut matched) = (0, 0, 0);
    while let (Some(a), Some(b)) = (sorted_gold.get(g), sorted_predicted.get(p)) {
        match a.cmp(b) {
            Ordering::Less => g += 1,
            Ordering::Greater => p += 1,
            Ordering::Equal => {
                matched += 1;
                g += 1;
                p += 1;
            }
        }
    }
    Prf::from_counts(matched, predicted.len(), gold.len())
}

/// The scoring tokens of some fragments, sorted: maximal runs of letters or
/// digits, and every other non-space character on its own.
fn fragment_tokens(text: &str, fragments: &[Span]) -> Vec<Span> {
    let mut tokens = Vec::new();
    for fragment in fragments {
        let Some(covered) = fragment.get(text) else {
            continue;
        };
        let base = fragment.byte_start();
        let mut run: Option<usize> = None;
        for (at, c) in covered.char_indices() {
            if c.is_alphanumeric() {
                run.get_or_insert(at);
                continue;
            }
            if let Some(start) = run.take() {
                tokens.push(Span::must(base + start, base + at));
            }
            if !c.is_whitespace() {
                tokens.push(Span::must(base + at, base + at + c.len_utf8()));
            }
        }
        if let Some(start) = run {
            tokens.push(Span::must(base + start, base + covered.len()));
        }
    }
    tokens.sort();
    tokens.dedup();
    tokens
}

/// The token F1 of two token sets: 1.0 when both are empty, 0.0 when one is.
pub fn score_tokens(gold: &[Span], predicted: &[Span]) -> f64 {
    if gold.is_empty() && predicted.is_empty() {
        return 1.0;
    }
    let common = multiset_prf(gold, predicted).true_pos;
    2.0 * common as f64 / (gold.len() + predicted.len()) as f64
}

/// The token Jaccard of two contents in `text`.
pub fn content_jaccard(text: &str, gold: &[Span], predicted: &[Span]) -> f64 {
    let (common, union) = overlap(
        &fragment_tokens(text, gold),
        &fragment_tokens(text, predicted),
    );
    if union == 0 {
        0.0
    } else {
        common as f64 / union as f64
    }
}

/// Shared tokens and the size of the union.
fn overlap(a: &[Span], b: &[Span]) -> (usize, usize) {
    let common = multiset_prf(a, b).true_pos;
    (common, a.len() + b.len() - common)
}

/// The (gold, predicted) pairs of the attribution protocol: contents with token
/// Jaccard ≥ 0.5 (cues, where both lack a content), one to one, best first, in
/// gold order.
pub fn match_attributions<G: Roles, P: Roles>(
    text: &str,
    gold: &[G],
    predicted: &[P],
) -> Vec<(usize, usize)> {
    let tokens_of = |content: &[Span], cue: &[Span]| MatchTokens {
        content: fragment_tokens(text, content),
        cue: fragment_tokens(text, cue),
    };
    let gold_tokens: Vec<MatchTokens> = gold
        .iter()
        .map(|g| tokens_of(g.content(), g.cue()))
        .collect();
    let predicted_tokens: Vec<MatchTokens> = predicted
        .iter()
        .map(|p| tokens_of(p.content(), p.cue()))
        .collect();
    match_by_content(&gold_tokens, &predicted_tokens)
}

/// The tokens an attribution is matched on.
struct MatchTokens {
    content: Vec<Span>,
    cue: Vec<Span>,
}

/// Pairs (gold, predicted) matched one to one, best Jaccard first.
fn match_by_content(gold: &[MatchTokens], predicted: &[MatchTokens]) -> Vec<(usize, usize)> {
    // Candidates hold the Jaccard as a fraction, compared exactly.
    let mut candidates: Vec<(usize, usize, usize, usize)> = Vec::new();
    for (g, gold_tokens) in gold.iter().enumerate() {
        for (p, predicted_tokens) in predicted.iter().enumerate() {
            let (common, union) =
                if gold_tokens.content.is_empty() && predicted_tokens.content.is_empty() {
                    overlap(&gold_tokens.cue, &predicted_tokens.cue)
                } else {
                    overlap(&gold_tokens.content, &predicted_tokens.content)
                };
            if union > 0 && 2 * common >= union {
                candidates.push((common, union, g, p));
            }
        }
    }
    candidates.sort_by(|a, b| {
        (b.0 * a.1)
            .cmp(&(a.0 * b.1))
            .then(a.2.cmp(&b.2))
            .then(a.3.cmp(&b.3))
    });
    let mut gold_used = vec![false; gold.len()];
    let mut predicted_used = vec![false; predicted.len()];
    let mut pairs = Vec::new();
    for (_, _, g, p) in candidates {
        let (Some(g_used), Some(p_used)) = (gold_used.get(g), predicted_used.get(p)) else {
            continue;
        };
        if *g_used || *p_used {
            continue;
        }
        gold_used[g] = true;
        predicted_used[p] = true;
        pairs.push((g, p));
    }
    pairs.sort();
    pairs
}

/// Cue fragments trimmed and sorted, empty ones dropped, for comparison.
fn trimmed(text: &str, fragments: &[Span]) -> Vec<Span> {
    let mut out: Vec<Span> = fragments
        .iter()
        .map(|f| f.trim(text))
        .filter(|f| !f.is_empty())
        .collect();
    out.sort();
    out
}

impl fmt::Display for AttributionReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} articles, {} gold attributions, {} predicted",
            self.articles, self.gold, self.predicted
        )?;
        writeln!(f)?;
        writeln!(f, "span protocol (pieces cut at paragraph breaks, trimmed)")?;
        writeln!(
            f,
            "{:<8} {:>7} {:>7} {:>7} {:>9}   {:>7} {:>7} {:>7}",
            "role", "P", "R", "F1", "begin F1", "gold", "pred", "exact"
        )?;
        for (name, role) in [
            ("source", &self.span.source),
            ("cue", &self.span.cue),
            ("content", &self.span.content),
        ] {
            writeln!(
                f,
                "{:<8} {:>7.3} {:>7.3} {:>7.3} {:>9.3}   {:>7} {:>7} {:>7}",
                name,
                role.exact.precision(),
                role.exact.recall(),
                role.exact.f1(),
                role.begin.f1(),
                role.exact.gold(),
                role.exact.predicted(),
                role.exact.true_pos
            )?;
        }
        writeln!(f)?;
        let a = &self.attribution;
        writeln!(
            f,
            "attribution protocol (content token Jaccard >= 0.5, one to one)"
        )?;
        writeln!(
            f,
            "{:<8} {:>7} {:>7} {:>7} {:>9}   {:>7} {:>7} {:>7}",
            "", "P", "R", "F1", "", "gold", "pred", "matched"
        )?;
        writeln!(
            f,
            "{:<8} {:>7.3} {:>7.3} {:>7.3} {:>9}   {:>7} {:>7} {:>7}",
            "attrib.",
            a.attributions.precision(),
            a.attributions.recall(),
            a.attributions.f1(),
            "",
            a.attributions.gold(),
            a.attributions.predicted(),
            a.attributions.true_pos
        )?;
        writeln!(
            f,
            "source token F1 over matched pairs: {:.3}",
            a.source_token_f1
        )?;
        writeln!(f, "cue exact match over matched pairs: {:.3}", a.cue_exact)?;
        writeln!(f)?;
        writeln!(
            f,
            "direct quotes: content exact precision {:.3} ({} of {} pieces)",
            self.direct_content.precision(),
            self.direct_content.exact,
            self.direct_content.predicted
        )?;
        writeln!(f)?;
        write!(f, "{}", self.reliability)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The span of the `nth` occurrence of `needle` in `text`.
    fn find(text: &str, needle: &str, nth: usize) -> Span {
        let start = text
            .match_indices(needle)
            .nth(nth)
            .map(|(at, _)| at)
            .unwrap_or_else(|| panic!("{needle:?} not in text"));
        Span::must(start, start + needle.len())
    }

    fn attribution(source: &[Span], cue: &[Span], content: &[Span]) -> Attribution {
        Attribution {
            source: source.to_vec(),
            cue: cue.to_vec(),
            content: content.to_vec(),
            kind: attest_doc::AttributionKind::Indirect,
            confidence: 1.0,
        }
    }

    const TEXT: &str =
        "Ann said the plan failed.\n\nShe added: “We will try again.” Officials said nothing.";

    #[test]
    fn span_and_attribution_protocols_by_hand() {
        let t = TEXT;
        let gold = [
            attribution(
                &[find(t, "Ann", 0)],
                &[find(t, "said", 0)],
                &[find(t, "the plan failed", 0)],
            ),
            attribution(
                &[find(t, "She", 0)],
                &[find(t, "added", 0)],
                &[find(t, "“We will try again.”", 0)],
            ),
        ];
        let predicted = [
            attribution(
                &[find(t, "Ann", 0)],
                &[find(t, "said", 0)],
                &[find(t, "the plan failed.", 0)],
            ),
            attribution(&[], &[find(t, "said", 1)], &[find(t, "nothing", 0)]),
        ];
        let mut scorer = AttributionScorer::new();
        scorer.add(t, &gold, &predicted);
        let report = scorer.report();
        assert_eq!((report.articles, report.gold, report.predicted), (1, 2, 2));
        let span = report.span;
        assert_eq!(span.source.exact, Prf::from_counts(1, 1, 2));
        assert_eq!(span.cue.exact, Prf::from_counts(1, 2, 2));
        assert_eq!(span.content.exact, Prf::from_counts(0, 2, 2));
        assert_eq!(span.content.begin, Prf::from_counts(1, 2, 2));
        assert!((span.source.exact.f1() - 2.0 / 3.0).abs() < 1e-12);
        // "the plan failed" vs "the plan failed .": Jaccard 3/4.
        let a = report.attribution;
        assert_eq!(a.attributions, Prf::from_counts(1, 2, 2));
        assert_eq!(a.source_token_f1, 1.0);
        assert_eq!(a.cue_exact, 1.0);
        let table = report.to_string();
        assert!(
            table.contains("content    0.000   0.000   0.000     0.500"),
            "{table}"
        );
        let json = serde_json::to_value(report).unwrap();
        assert_eq!(json["span"]["cue"]["exact"]["precision"], 0.5);
    }

    #[test]
    fn pieces_are_cut_at_blank_lines_and_trimmed() {
        let text = " one two\n\nthree \n \n four\nfive ";
        let pieces: Vec<&str> = paragraph_pieces(text, Span::must(0, text.len()))
            .into_iter()
            .map(|p| p.slice(text))
            .collect();
        assert_eq!(pieces, ["one two", "three", "four\nfive"]);
        assert!(paragraph_pieces(text, Span::must(8, 10)).is_empty());
        // A gold content over a paragraph break scores against its two halves.
        let t = TEXT;
        let whole = Span::must(
            find(t, "the", 0).byte_start(),
            find(t, "added", 0).byte_end(),
        );
        let gold = [attribution(&[], &[], &[whole])];
        let predicted = [attribution(
            &[],
            &[],
            &[find(t, "She added", 0), find(t, "the plan failed.", 0)],
        )];
        let mut scorer = AttributionScorer::new();
        scorer.add(t, &gold, &predicted);
        assert_eq!(
            scorer.report().span.content.exact,
            Prf::from_counts(2, 2, 2)
        );
    }

    #[test]
    fn matching_is_best_overlap_first_and_one_to_one() {
        let text = "a b c d e f";
        let span = |s, e| Span::must(s, e);
        let gold = [
            attribution(&[span(0, 1)], &[], &[span(0, 7)]),
            attribution(&[], &[], &[span(4, 9)]),
        ];
        // Jaccards: g0-p0 4/5, g0-p1 3/4, g1-p0 3/5, g1-p1 2/4.
        let predicted = [
            attribution(&[span(0, 3)], &[], &[span(0, 9)]),
            attribution(&[], &[], &[span(2, 7)]),
            attribution(&[], &[], &[span(10, 11)]),
        ];
        let mut scorer = AttributionScorer::new();
        scorer.add(text, &gold, &predicted);
        let a = scorer.report().attribution;
        assert_eq!(a.attributions, Prf::from_counts(2, 3, 2));
        // Pairs g0-p0 (sources "a" vs "a b": F1 2/3) and g1-p1 (both empty: 1.0).
        assert!((a.source_token_f1 - (2.0 / 3.0 + 1.0) / 2.0).abs() < 1e-12);
        assert!((content_jaccard(text, &[span(4, 9)], &[span(2, 7)]) - 0.5).abs() < 1e-12);
        // Equal overlaps go to the lower predicted index.
        let twins = [
            attribution(&[span(0, 1)], &[], &[span(0, 3)]),
            attribution(&[], &[], &[span(0, 3)]),
        ];
        let mut scorer = AttributionScorer::new();
        scorer.add(text, &gold[..1], &twins);
        assert_eq!(scorer.report().attribution.source_token_f1, 1.0);
    }

    #[test]
    fn token_f1_edge_cases() {
        let s = |a, b| Span::must(a, b);
        assert_eq!(score_tokens(&[], &[]), 1.0);
        assert_eq!(score_tokens(&[s(0, 1)], &[]), 0.0);
        assert_eq!(score_tokens(&[s(0, 1), s(2, 3)], &[s(0, 1)]), 2.0 / 3.0);
        let text = "U.S. officials' plan";
        let tokens: Vec<&str> = fragment_tokens(text, &[s(0, text.len())])
            .iter()
            .map(|t| t.slice(text))
            .collect();
        assert_eq!(tokens, ["U", ".", "S", ".", "officials", "'", "plan"]);
    }
}
