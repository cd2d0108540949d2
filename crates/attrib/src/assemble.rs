//! From cues and their source and content runs to attributions, with the
//! rules both modes share: the conventions overlay, quotations taken whole,
//! one source per cue, a quotation's lead-in, a comma clause as content, the
//! kind, spans cut at line breaks, and content given to one attribution.
//!
//! The fast mode's taggers and accurate mode's encoder find token runs; this
//! module is the one place that turns runs into records, so both modes follow
//! the same rules, and each rule can be switched off to measure what it gives.

use std::collections::HashMap;
use std::ops::Range;

use attest_doc::{Attribution, Budget, Doc, Exhausted, FoundAttribution, TokenView};

use crate::conventions::{self, Convention};
use crate::features::{Lexicon, View};
use crate::tagging;

/// Tokens `first..end` of a document.
pub(crate) type TokenRange = (usize, usize);

/// Which rules apply to found attributions; [`Rules::ALL`] is what the fast
/// mode applies and the default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Non-responses, signed quotations and transcript turns found by
    /// pattern replace the cues they overlap.
    pub conventions: bool,
    /// Content that starts or ends inside a quotation is widened to all of it.
    pub whole_quotes: bool,
    /// A cue keeps one source run, the nearest (PolNeAR gives a source one fragment).
    pub one_source: bool,
    /// A quotation opening mid-clause before its cue takes its clause's lead-in.
    pub lead_in: bool,
    /// A cue without content after a comma takes the clause before the comma.
    pub comma_content: bool,
    /// A cue without a source takes a name and appositive between commas
    /// right before it.
    pub appositive_source: bool,
    /// Spans are cut where a line break separates two tokens, as PolNeAR cuts fragments.
    pub line_breaks: bool,
    /// Content is one attribution's: where several cues took the same run
    /// ("continued:" and "said" around one quotation), one keeps it. PolNeAR
    /// never gives two attributions one content.
    pub one_claimant: bool,
}

impl Rules {
    /// Every rule.
    pub const ALL: Rules = Rules {
        conventions: true,
        whole_quotes: true,
        one_source: true,
        lead_in: true,
        comma_content: true,
        appositive_source: true,
        line_breaks: true,
        one_claimant: true,
    };

    /// No rule: the runs as found.
    pub const NONE: Rules = Rules {
        conventions: false,
        whole_quotes: false,
        one_source: false,
        lead_in: false,
        comma_content: false,
        appositive_source: false,
        line_breaks: false,
        one_claimant: false,
    };
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::ALL
    }
}

/// The attributions of a segmented (and POS-tagged) document from runs a
/// tagger found, with `rules` applied as the fast mode applies them; ordered by cue.
pub fn attributions_from(doc: &Doc, found: &[FoundAttribution], rules: &Rules) -> Vec<Attribution> {
    let view = View::new(doc, &Lexicon::default());
    let pair = |r: &Range<usize>| (r.start, r.end);
    let cues = found.iter().map(|f| (pair(&f.cue), f.confidence)).collect();
    let plan = Plan::new(&view, doc, cues, rules);
    // Found cues are disjoint runs, so sorted by start their ends rise too and
    // each cue's runs are found by binary search, keeping this linear.
    let mut by_start: Vec<&FoundAttribution> = found.iter().collect();
    by_start.sort_by_key(|f| pair(&f.cue));
    let found_for = |cue: TokenRange| {
        let at = by_start.partition_point(|f| pair(&f.cue) < cue);
        if let Some(f) = by_start.get(at).filter(|f| pair(&f.cue) == cue) {
            return Some(*f);
        }
        // A convention's cue takes the runs of the first found cue it overlaps.
        let first = by_start.partition_point(|f| f.cue.end <= cue.0);
        by_start.get(first).filter(|f| f.cue.start < cue.1).copied()
    };
    // An unlimited budget whose canceller no one holds never runs out.
    plan.finish(&view, doc, rules, &Budget::unlimited(), |cue| {
        let found = found_for(cue);
        found.map_or_else(Default::default, |f| {
            (
                f.sources.iter().map(pair).collect(),
                f.content.iter().map(pair).collect(),
            )
        })
    })
    .unwrap_or_default()
}

/// The cues of a document after the conventions overlay, and which tokens
/// are cues.
pub(crate) struct Plan {
    cues: Vec<(TokenRange, f32, Option<Convention>)>,
    /// Whether each token is in a cue.
    pub(crate) flags: Vec<bool>,
}

impl Plan {
    /// Overlays the conventions (when `rules` says so) on a tagger's cues:
    /// a convention replaces every cue it overlaps.
    pub(crate) fn new(
        view: &View,
        doc: &Doc,
        found: Vec<(TokenRange, f32)>,
        rules: &Rules,
    ) -> Plan {
        let conventions = if rules.conventions {
            conventions::find(view, doc)
        } else {
            Vec::new()
        };
        let overridden = Overlaps::new(conventions.iter().map(|c| c.cue));
        let mut cues: Vec<(TokenRange, f32, Option<Convention>)> = found
            .into_iter()
            .filter(|(cue, _)| !overridden.any(*cue))
            .map(|(cue, confidence)| (cue, confidence, None))
            .collect();
        cues.extend(
            conventions
                .into_iter()
                .map(|c| (c.cue, c.confidence, Some(c))),
        );
        cues.sort_by_key(|(cue, _, _)| *cue);
        let mut flags = vec![false; view.tokens.len()];
        for (cue, _, _) in &cues {
            for slot in flags.iter_mut().take(cue.1).skip(cue.0) {
                *slot = true;
            }
        }
        Plan { cues, flags }
    }

    /// The attributions, asking `roles` for the source and content runs of
    /// each cue whose convention does not name them.
    pub(crate) fn finish(
        &self,
        view: &View,
        doc: &Doc,
        rules: &Rules,
        budget: &Budget,
        mut roles: impl FnMut(TokenRange) -> (Vec<TokenRange>, Vec<TokenRange>),
    ) -> Result<Vec<Attribution>, Exhausted> {
        let mut found = Vec::new();
        for (cue, confidence, convention) in &self.cues {
            budget.check()?;
            let cue = *cue;
            let (sources, content) = match convention {
                Some(Convention {
                    source: Some(source),
                    content,
                    ..
                }) => (vec![*source], vec![*content]),
                _ => {
                    let (sources, content) = roles(cue);
                    let content = if rules.whole_quotes {
                        tagging::snap_to_quotes(view, content)
                    } else {
                        content
                    };
                    let mut nearest = nearest(&sources, cue);
                    let mut sources = if rules.one_source {
                        nearest.into_iter().collect()
                    } else {
                        sources
                    };
                    let appositive = if sources.is_empty() && rules.appositive_source {
                        tagging::appositive_source(view, doc, cue)
                    } else {
                        None
                    };
                    if let Some(appositive) = appositive {
                        sources = vec![appositive];
                        nearest = Some(appositive);
                    }
                    // Content the tagger ran into the name stops at the
                    // comma before it; content after the cue stays.
                    let content = match appositive {
                        Some((name, cue_start)) => content
                            .into_iter()
                            .filter_map(|(start, end)| {
                                if start >= cue_start {
                                    return Some((start, end));
                                }
                                let end = end.min(name.saturating_sub(1));
                                (start < end).then_some((start, end))
                            })
                            .collect(),
                        None => content,
                    };
                    let content = if content.is_empty() {
                        if rules.comma_content {
                            tagging::comma_content(view, doc, cue, nearest)
                                .into_iter()
                                .collect()
                        } else {
                            content
                        }
                    } else if rules.lead_in {
                        tagging::lead_in(view, doc, cue, nearest, &self.flags, content)
                    } else {
                        content
                    };
                    (
                        sources,
                        convention.as_ref().map_or(content, |c| vec![c.content]),
                    )
                }
            };
            found.push((cue, sources, content, *confidence));
        }
        if rules.one_claimant {
            one_claimant(&TokenView::new(doc), &mut found);
        }
        Ok(found
            .into_iter()
            .filter_map(|(cue, sources, content, confidence)| {
                tagging::attribution(
                    view,
                    doc,
                    cue,
                    &sources,
                    &content,
                    confidence,
                    rules.line_breaks,
                )
            })
            .collect())
    }
}

/// Found cue, source runs, content runs and confidence.
type Found = (TokenRange, Vec<TokenRange>, Vec<TokenRange>, f32);

/// Gives each content run to one of the cues that took it. A run that opens
/// with a complementizer ("whether", "that", "to") goes to a cue before it,
/// whose complement it is ("asked … whether he planned to attend, he said");
/// otherwise, and among those, the nearest cue takes it, then the most
/// confident, then the first. A cue left with none of the content it had is
/// dropped: another cue said all of it.
fn one_claimant(view: &TokenView<'_>, found: &mut Vec<Found>) {
    let mut claimant: HashMap<TokenRange, (usize, (bool, usize, f32))> = HashMap::new();
    for (i, (cue, _, content, confidence)) in found.iter().enumerate() {
        for &run in content {
            let complement = run.0 >= cue.1 && is_complementizer(view.word(run.0));
            let rank = (!complement, gap(run, *cue), -*confidence);
            claimant
                .entry(run)
                .and_modify(|held| {
                    if rank < held.1 {
                        *held = (i, rank);
                    }
                })
                .or_insert((i, rank));
        }
    }
    let mut i = 0;
    found.retain_mut(|(_, _, content, _)| {
        let own = |run: &TokenRange| claimant.get(run).is_none_or(|(held, ..)| *held == i);
        let keep = content.is_empty() || content.iter().any(own);
        content.retain(own);
        i += 1;
        keep
    });
}

/// The run nearest the cue.
fn nearest(runs: &[TokenRange], cue: TokenRange) -> Option<TokenRange> {
    runs.iter().copied().min_by_key(|run| gap(*run, cue))
}

fn is_complementizer(word: &str) -> bool {
    matches!(
        word,
        "that" | "whether" | "if" | "to" | "how" | "why" | "what" | "when" | "where" | "who"
    )
}

/// How many tokens lie between a run and a cue.
fn gap((a, b): TokenRange, cue: TokenRange) -> usize {
    if b <= cue.0 {
        cue.0 - b
    } else {
        a.saturating_sub(cue.1)
    }
}

/// Token ranges, to ask whether any overlaps a range in logarithmic time, so
/// that an article full of conventions and cues stays linear.
struct Overlaps {
    /// The ranges by start.
    ranges: Vec<(usize, usize)>,
    /// The largest end among `ranges[..=i]`.
    ends: Vec<usize>,
}

impl Overlaps {
    fn new(ranges: impl Iterator<Item = (usize, usize)>) -> Overlaps {
        let mut ranges: Vec<(usize, usize)> = ranges.collect();
        ranges.sort_unstable();
        let ends = ranges
            .iter()
            .scan(0, |end, range| {
                *end = (*end).max(range.1);
                Some(*end)
            })
            .collect();
        Overlaps { ranges, ends }
    }

    /// Whether a range starting before `range` ends ends after it starts.
    fn any(&self, range: (usize, usize)) -> bool {
        let before = self.ranges.partition_point(|r| r.0 < range.1);
        before
            .checked_sub(1)
            .and_then(|i| self.ends.get(i))
            .is_some_and(|end| *end > range.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use attest_doc::{Article, AttributionKind, Limits};

    fn doc(text: &str) -> Doc {
        let mut doc = Doc::new(Article::new("t", text));
        doc.set_segmentation(attest_text::segment(text, &Limits::DEFAULT))
            .unwrap();
        doc
    }

    fn tokens(doc: &Doc, words: &str) -> Range<usize> {
        let start = doc.text().find(words).unwrap();
        let end = start + words.len();
        let first = doc
            .tokens()
            .iter()
            .position(|t| t.span.byte_start() == start)
            .unwrap();
        let last = doc
            .tokens()
            .iter()
            .position(|t| t.span.byte_end() == end)
            .unwrap();
        first..last + 1
    }

    fn texts(doc: &Doc, spans: &[attest_doc::Span]) -> Vec<String> {
        spans
            .iter()
            .map(|s| doc.span_text(*s).to_string())
            .collect()
    }

    #[test]
    fn found_runs_become_attributions_with_the_rules_or_without() {
        let text = "The plan was “a mistake from the start,” the mayor said on Monday.";
        let doc = doc(text);
        let found = FoundAttribution {
            cue: tokens(&doc, "said"),
            sources: vec![tokens(&doc, "the mayor"), tokens(&doc, "Monday")],
            content: vec![tokens(&doc, "a mistake")],
            confidence: 0.75,
        };
        let all = attributions_from(&doc, std::slice::from_ref(&found), &Rules::ALL);
        assert_eq!(all.len(), 1);
        assert_eq!(texts(&doc, &all[0].source), ["the mayor"]);
        assert_eq!(
            texts(&doc, &all[0].content),
            ["The plan was “a mistake from the start,”"]
        );
        assert_eq!(all[0].kind, AttributionKind::Mixed);
        assert_eq!(all[0].confidence, 0.75);
        let none = attributions_from(&doc, &[found], &Rules::NONE);
        assert_eq!(texts(&doc, &none[0].source), ["the mayor", "Monday"]);
        assert_eq!(texts(&doc, &none[0].content), ["a mistake"]);
        assert_eq!(none[0].kind, AttributionKind::Direct);
    }

    #[test]
    fn content_two_cues_took_goes_to_one_of_them() {
        let text = "The chef spoke on Friday. “We will reopen in May,” she said, adding that staff would return.";
        let doc = doc(text);
        let quote = tokens(&doc, "We will reopen in May");
        let found = |cue: &str, content: Vec<Range<usize>>, confidence: f32| FoundAttribution {
            cue: tokens(&doc, cue),
            sources: vec![tokens(&doc, "she")],
            content,
            confidence,
        };
        // "spoke" is the more confident, but "said" is nearer the quotation.
        let spoke = found("spoke", vec![quote.clone()], 0.9);
        let said = found("said", vec![quote.clone()], 0.8);
        let adding = found(
            "adding",
            vec![quote, tokens(&doc, "that staff would return")],
            0.7,
        );
        let cues_and_content = |rules: &Rules| {
            attributions_from(&doc, &[spoke.clone(), said.clone(), adding.clone()], rules)
                .iter()
                .map(|a| (texts(&doc, &a.cue), texts(&doc, &a.content)))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            cues_and_content(&Rules::ALL),
            [
                (
                    vec!["said".to_string()],
                    vec!["“We will reopen in May,”".to_string()]
                ),
                (
                    vec!["adding".to_string()],
                    vec!["that staff would return".to_string()]
                ),
            ],
            "the nearest cue keeps the quotation; a cue left with none of its content is dropped"
        );
        let off = Rules {
            one_claimant: false,
            ..Rules::ALL
        };
        assert_eq!(cues_and_content(&off).len(), 3);
    }

    #[test]
    fn a_complement_goes_to_the_cue_before_it() {
        let text = "Asked on Friday whether she would stay, Lee said, “Yes.”";
        let doc = doc(text);
        let complement = tokens(&doc, "whether she would stay");
        let found = |cue: &str, confidence: f32| FoundAttribution {
            cue: tokens(&doc, cue),
            sources: vec![tokens(&doc, "Lee")],
            content: vec![complement.clone()],
            confidence,
        };
        let all = attributions_from(
            &doc,
            &[found("Asked", 0.5), found("said", 0.9)],
            &Rules::ALL,
        );
        assert_eq!(all.len(), 1);
        assert_eq!(texts(&doc, &all[0].cue), ["Asked"]);
        assert_eq!(texts(&doc, &all[0].content), ["whether she would stay"]);
    }

    #[test]
    fn a_convention_replaces_the_cue_it_overlaps_and_keeps_its_source() {
        let text = "The company did not respond to requests for comment.";
        let doc = doc(text);
        let found = FoundAttribution {
            cue: tokens(&doc, "respond"),
            sources: vec![tokens(&doc, "The company")],
            content: Vec::new(),
            confidence: 0.9,
        };
        let all = attributions_from(&doc, std::slice::from_ref(&found), &Rules::ALL);
        assert_eq!(all.len(), 1);
        assert_eq!(texts(&doc, &all[0].cue), ["did not respond to"]);
        assert_eq!(texts(&doc, &all[0].source), ["The company"]);
        assert_eq!(texts(&doc, &all[0].content), ["requests for comment"]);
        let off = Rules {
            conventions: false,
            ..Rules::ALL
        };
        assert!(
            attributions_from(&doc, &[found], &off).is_empty(),
            "without the convention nothing is attributed, so there is no attribution"
        );
    }

    #[test]
    fn a_cue_after_a_comma_takes_the_clause_only_under_its_rule() {
        let text = "Prices will rise, the bank said.";
        let doc = doc(text);
        let found = FoundAttribution {
            cue: tokens(&doc, "said"),
            sources: vec![tokens(&doc, "the bank")],
            content: Vec::new(),
            confidence: 0.5,
        };
        let all = attributions_from(&doc, std::slice::from_ref(&found), &Rules::ALL);
        assert_eq!(texts(&doc, &all[0].content), ["Prices will rise"]);
        let off = Rules {
            comma_content: false,
            ..Rules::ALL
        };
        assert!(
            attributions_from(&doc, &[found], &off).is_empty(),
            "without the rule nothing is attributed, so there is no attribution"
        );
    }

    #[test]
    fn a_name_and_appositive_before_a_sourceless_cue_are_its_source() {
        let text = "Prices will rise before June, Ana Ruiz, regional secretary of the dockers' union, claimed on Thursday.";
        let doc = doc(text);
        let found = FoundAttribution {
            cue: tokens(&doc, "claimed"),
            sources: Vec::new(),
            content: vec![tokens(&doc, "Prices will rise before June, Ana Ruiz")],
            confidence: 0.5,
        };
        let all = attributions_from(&doc, std::slice::from_ref(&found), &Rules::ALL);
        assert_eq!(
            texts(&doc, &all[0].source),
            ["Ana Ruiz, regional secretary of the dockers' union,"]
        );
        assert_eq!(
            texts(&doc, &all[0].content),
            ["Prices will rise before June"]
        );
        let off = Rules {
            appositive_source: false,
            ..Rules::ALL
        };
        let without = attributions_from(&doc, &[found], &off);
        assert!(without[0].source.is_empty());
    }

    #[test]
    fn only_a_name_and_an_appositive_make_a_source() {
        for (text, content, source) in [
            (
                "Prices will rise, Ruiz, Lee, said on Monday.",
                "Prices will rise",
                None,
            ),
            (
                "Prices will rise, Ruiz, Lee and Park said.",
                "Prices will rise",
                None,
            ),
            (
                "Ana Ruiz, who chairs the board, said prices would rise.",
                "prices would rise",
                Some("Ana Ruiz, who chairs the board,"),
            ),
        ] {
            let doc = doc(text);
            let found = FoundAttribution {
                cue: tokens(&doc, "said"),
                sources: Vec::new(),
                content: vec![tokens(&doc, content)],
                confidence: 0.5,
            };
            let all = attributions_from(&doc, &[found], &Rules::ALL);
            let found: Vec<String> = texts(&doc, &all[0].source);
            assert_eq!(found, Vec::from_iter(source.map(str::to_string)), "{text}");
        }
    }

    #[test]
    fn line_breaks_cut_spans_only_under_their_rule() {
        let text = "She said the plan\nwould work.";
        let doc = doc(text);
        let found = FoundAttribution {
            cue: tokens(&doc, "said"),
            sources: vec![tokens(&doc, "She")],
            content: vec![tokens(&doc, "the plan\nwould work")],
            confidence: 0.5,
        };
        let cut = attributions_from(&doc, std::slice::from_ref(&found), &Rules::ALL);
        assert_eq!(texts(&doc, &cut[0].content), ["the plan", "would work"]);
        let off = Rules {
            line_breaks: false,
            ..Rules::ALL
        };
        let whole = attributions_from(&doc, &[found], &off);
        assert_eq!(texts(&doc, &whole[0].content), ["the plan\nwould work"]);
    }

    #[test]
    fn overlaps_agree_with_a_search_through_every_range() {
        let ranges = [(5, 9), (0, 2), (12, 13), (3, 30), (40, 41)];
        let overlaps = Overlaps::new(ranges.iter().copied());
        for start in 0..45 {
            for end in start + 1..46 {
                let expected = ranges.iter().any(|r| r.0 < end && start < r.1);
                assert_eq!(overlaps.any((start, end)), expected, "{start}..{end}");
            }
        }
        assert!(!Overlaps::new(std::iter::empty()).any((0, 5)));
    }
}
