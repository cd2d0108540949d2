//! brat standoff annotations in the PolNeAR scheme.
//!
//! PolNeAR marks each attribution with four text-bound (`T`) annotations, the
//! trigger `Attribution` (or `Attribution-no-source`) and its `Source`, `Cue` and
//! `Content`, tied together by one event (`E`) line whose roles may come in any
//! order. brat counts offsets in code points; [`parse_ann`] turns them into byte
//! [`Span`]s of the article text, so that every gold span slices the text directly.
//!
//! A `T` line's last field is the covered text, its fragments joined by one space.
//! A fragment that covers a line break makes that field run over several lines of
//! the file; the parser knows from the offsets how long the field must be and reads
//! the continuation lines back into it.

use std::collections::BTreeMap;

use attest_doc::{Attribution, AttributionKind, OffsetIndex, Span};

use crate::LineError;

/// The label of a text-bound annotation.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum Label {
    /// Who speaks.
    Source,
    /// The words that attribute.
    Cue,
    /// What is attributed.
    Content,
    /// The trigger of an attribution that has a source.
    Attribution,
    /// The trigger of an attribution without a source.
    AttributionNoSource,
    /// A span the annotators set aside.
    Discard,
    /// A span the annotators flagged for discussion.
    Discuss,
    /// Any other label, kept so that nothing is lost silently.
    Other(String),
}

impl Label {
    fn parse(name: &str) -> Label {
        match name {
            "Source" => Label::Source,
            "Cue" => Label::Cue,
            "Content" => Label::Content,
            "Attribution" => Label::Attribution,
            "Attribution-no-source" => Label::AttributionNoSource,
            "Discard" => Label::Discard,
            "Discuss" => Label::Discuss,
            other => Label::Other(other.to_owned()),
        }
    }
}

/// One `T` line: a labelled, possibly discontinuous span.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TextBound {
    /// Its id: "T12".
    pub id: String,
    /// Its label.
    pub label: Label,
    /// Its fragments as byte spans, in the order the file gives them.
    pub fragments: Vec<Span>,
    /// The covered text as the file writes it: fragments joined by one space.
    pub text: String,
    /// The 1-based line of the file it starts on.
    pub line: usize,
}

/// One gold attribution: the fragments of each of its roles.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GoldAttribution {
    /// The id of its event line: "E3".
    pub id: String,
    /// Source fragments in text order; empty for `Attribution-no-source`.
    pub source: Vec<Span>,
    /// Cue fragments in text order.
    pub cue: Vec<Span>,
    /// Content fragments in text order (`Content`, `Content2`, ... together).
    pub content: Vec<Span>,
    /// Whether the trigger was `Attribution-no-source`.
    pub no_source: bool,
}

impl GoldAttribution {
    /// The attribution as the document model holds it, with full confidence and
    /// its kind read off the quotation marks of `text`, the article it belongs to.
    pub fn to_attribution(&self, text: &str) -> Attribution {
        Attribution {
            source: self.source.clone(),
            cue: self.cue.clone(),
            content: self.content.clone(),
            kind: kind_of(text, &self.cue, &self.content),
            confidence: 1.0,
        }
    }
}

fn kind_of(text: &str, cue: &[Span], content: &[Span]) -> AttributionKind {
    let is_quote = |c: char| matches!(c, '"' | '“' | '”' | '‘' | '’' | '\'' | '«' | '»');
    let cue_text: String = cue
        .iter()
        .filter_map(|s| s.get(text))
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    if cue_text.starts_with("according to") {
        return AttributionKind::AccordingTo;
    }
    let pieces: Vec<&str> = content
        .iter()
        .filter_map(|s| s.trim(text).get(text))
        .filter(|p| !p.is_empty())
        .collect();
    let quoted_ends = !pieces.is_empty()
        && pieces
            .iter()
            .all(|p| p.starts_with(is_quote) && p.trim_end_matches(['.', ',']).ends_with(is_quote));
    if quoted_ends {
        AttributionKind::Direct
    } else if pieces.iter().any(|p| p.contains(is_quote)) {
        AttributionKind::Mixed
    } else {
        AttributionKind::Indirect
    }
}

/// Everything read from one `.ann` file.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Annotations {
    /// Every `T` line, in file order.
    pub text_bounds: Vec<TextBound>,
    /// The attributions, ordered by first cue fragment, then first content fragment.
    pub attributions: Vec<GoldAttribution>,
    /// How many `Discard` spans the file holds (not attributions).
    pub discarded: usize,
    /// How many `Discuss` spans the file holds (not attributions).
    pub discussed: usize,
    /// Events with neither cue nor content, left out of the attributions: the
    /// corpus has trigger-only events that another, complete event repeats.
    pub incomplete: usize,
}

struct Event {
    id: String,
    line: usize,
    args: Vec<(String, String)>,
}

/// Parses a `.ann` file against the text of its article.
///
/// `#` (notes), `A`, `R`, `N` and `M` lines are skipped; malformed lines, offsets
/// outside the text and references to unknown ids are errors naming the line.
pub fn parse_ann(ann: &str, text: &str) -> Result<Annotations, LineError> {
    let index = OffsetIndex::new(text);
    let mut out = Annotations::default();
    let mut events = Vec::new();
    // A `T` line whose text field is still shorter than its offsets say:
    // the next lines of the file continue it.
    let mut pending: Option<usize> = None;
    for (line_index, line) in ann.lines().enumerate() {
        let number = line_index + 1;
        if let Some(expected) = pending {
            if let Some(last) = out.text_bounds.last_mut() {
                last.text.push('\n');
                last.text.push_str(line);
                if last.text.chars().count() >= expected {
                    pending = None;
                }
            }
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        let (id, rest) = line
            .split_once('\t')
            .ok_or_else(|| LineError::new(number, format!("no tab in line {line:?}")))?;
        match id.chars().next() {
            Some('T') => {
                let (bound, expected) = parse_text_bound(id, rest, number, text, &index)?;
                match bound.label {
                    Label::Discard => out.discarded += 1,
                    Label::Discuss => out.discussed += 1,
                    _ => {}
                }
                if bound.text.chars().count() < expected {
                    pending = Some(expected);
                }
                out.text_bounds.push(bound);
            }
            Some('E') => events.push(parse_event(id, rest, number)?),
            Some('#' | 'A' | 'R' | 'N' | 'M' | '*') => {}
            _ => {
                return Err(LineError::new(
                    number,
                    format!("unknown annotation id {id:?}"),
                ));
            }
        }
    }
    let by_id: BTreeMap<&str, &TextBound> = out
        .text_bounds
        .iter()
        .map(|bound| (bound.id.as_str(), bound))
        .collect();
    let mut attributions = Vec::with_capacity(events.len());
    for event in &events {
        let gold = resolve_event(event, &by_id)?;
        if gold.cue.is_empty() && gold.content.is_empty() {
            out.incomplete += 1;
        } else {
            attributions.push(gold);
        }
    }
    attributions.sort_by(|a, b| {
        (a.cue.first(), a.content.first(), &a.id).cmp(&(b.cue.first(), b.content.first(), &b.id))
    });
    out.attributions = attributions;
    Ok(out)
}

/// Parses the fields after the id of a `T` line; also returns the length in code
/// points its text field must have.
fn parse_text_bound(
    id: &str,
    rest: &str,
    line: usize,
    text: &str,
    index: &OffsetIndex,
) -> Result<(TextBound, usize), LineError> {
    let (head, covered) = rest.split_once('\t').unwrap_or((rest, ""));
    let (label, offsets) = head
        .split_once(' ')
        .ok_or_else(|| LineError::new(line, format!("{id}: no offsets after the label")))?;
    let mut fragments = Vec::new();
    let mut expected = 0usize;
    for fragment in offsets.split(';') {
        let mut ends = fragment.split_whitespace();
        let (Some(start), Some(end), None) = (ends.next(), ends.next(), ends.next()) else {
            return Err(LineError::new(
                line,
                format!("{id}: fragment {fragment:?} is not \"start end\""),
            ));
        };
        let parse = |value: &str| {
            value.parse::<usize>().map_err(|_| {
                LineError::new(line, format!("{id}: offset {value:?} is not a number"))
            })
        };
        let (start, end) = (parse(start)?, parse(end)?);
        let out_of_text = || {
            LineError::new(
                line,
                format!(
                    "{id}: fragment {start}..{end} does not fit a text of {} code points",
                    index.cp_len()
                ),
            )
        };
        let (Some(byte_start), Some(byte_end)) = (index.cp_to_byte(start), index.cp_to_byte(end))
        else {
            return Err(out_of_text());
        };
        let span = Span::try_new_in(text, byte_start, byte_end).map_err(|_| out_of_text())?;
        if !fragments.is_empty() {
            expected += 1;
        }
        expected += end - start;
        fragments.push(span);
    }
    Ok((
        TextBound {
            id: id.to_owned(),
            label: Label::parse(label),
            fragments,
            text: covered.to_owned(),
            line,
        },
        expected,
    ))
}

fn parse_event(id: &str, rest: &str, line: usize) -> Result<Event, LineError> {
    let mut args = Vec::new();
    for arg in rest.split_whitespace() {
        let (role, target) = arg
            .split_once(':')
            .ok_or_else(|| LineError::new(line, format!("{id}: argument {arg:?} has no ':'")))?;
        args.push((role.to_owned(), target.to_owned()));
    }
    Ok(Event {
        id: id.to_owned(),
        line,
        args,
    })
}

/// The role an event argument fills: brat numbers repeated roles ("Content2").
fn role_base(role: &str) -> &str {
    role.trim_end_matches(|c: char| c.is_ascii_digit())
}

fn resolve_event(
    event: &Event,
    by_id: &BTreeMap<&str, &TextBound>,
) -> Result<GoldAttribution, LineError> {
    let mut gold = GoldAttribution {
        id: event.id.clone(),
        source: Vec::new(),
        cue: Vec::new(),
        content: Vec::new(),
        no_source: false,
    };
    let mut trigger = false;
    for (role, target) in &event.args {
        let bound = by_id.get(target.as_str()).ok_or_else(|| {
            LineError::new(
                event.line,
                format!("{}: {role} refers to unknown {target}", event.id),
            )
        })?;
        let fragments = bound.fragments.iter().copied();
        match role_base(role) {
            "Attribution" => trigger = true,
            "Attribution-no-source" => {
                trigger = true;
                gold.no_source = true;
            }
            "Source" => gold.source.extend(fragments),
            "Cue" => gold.cue.extend(fragments),
            "Content" => gold.content.extend(fragments),
            other => {
                return Err(LineError::new(
                    event.line,
                    format!("{}: unknown role {other:?}", event.id),
                ));
            }
        }
    }
    if !trigger {
        return Err(LineError::new(
            event.line,
            format!("{}: no Attribution trigger", event.id),
        ));
    }
    for role in [&mut gold.source, &mut gold.cue, &mut gold.content] {
        role.sort();
        role.dedup();
    }
    Ok(gold)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans_text<'a>(text: &'a str, spans: &[Span]) -> Vec<&'a str> {
        spans.iter().map(|s| s.slice(text)).collect()
    }

    #[test]
    fn reads_a_simple_attribution_with_roles_in_any_order() {
        let text = "The mayor said the bridge would reopen.";
        let ann = "T1\tSource 0 9\tThe mayor\nT2\tCue 10 14\tsaid\nT3\tContent 15 38\tthe bridge would reopen\nT4\tAttribution 10 14\tsaid\nE1\tCue:T2 Source:T1 Attribution:T4 Content:T3 \n";
        let parsed = parse_ann(ann, text).unwrap();
        assert_eq!(parsed.text_bounds.len(), 4);
        let [gold] = parsed.attributions.as_slice() else {
            panic!("one attribution expected: {parsed:?}");
        };
        assert_eq!(spans_text(text, &gold.source), ["The mayor"]);
        assert_eq!(spans_text(text, &gold.cue), ["said"]);
        assert_eq!(spans_text(text, &gold.content), ["the bridge would reopen"]);
        assert!(!gold.no_source);
        assert_eq!(gold.to_attribution(text).kind, AttributionKind::Indirect);
    }

    #[test]
    fn converts_code_points_to_bytes_in_multibyte_text() {
        // “ and ” are 3 bytes each, é is 2: code points and bytes part ways early.
        let text = "“Café prices rose,” Zoë said.";
        let ann = "T1\tContent 0 19\t“Café prices rose,”\nT2\tSource 20 23\tZoë\nT3\tCue 24 28\tsaid\nT4\tAttribution 24 28\tsaid\nE1\tAttribution:T4 Source:T2 Cue:T3 Content:T1\n";
        let parsed = parse_ann(ann, text).unwrap();
        let gold = &parsed.attributions[0];
        assert_eq!(spans_text(text, &gold.content), ["“Café prices rose,”"]);
        assert_eq!(spans_text(text, &gold.source), ["Zoë"]);
        assert_eq!(spans_text(text, &gold.cue), ["said"]);
        assert_eq!(gold.to_attribution(text).kind, AttributionKind::Direct);
    }

    #[test]
    fn reads_discontinuous_spans_and_numbered_roles() {
        let text = "“We are ready,” she said, “and we will win.” Later: more.";
        let ann = "T1\tContent 0 15;26 44\t“We are ready,” “and we will win.”\nT2\tSource 16 19\tshe\nT3\tCue 20 24\tsaid\nT4\tAttribution 20 24\tsaid\nT5\tContent 52 56\tmore\nE1\tAttribution:T4 Content:T1 Cue:T3 Source:T2 Content2:T5\n";
        let parsed = parse_ann(ann, text).unwrap();
        let gold = &parsed.attributions[0];
        assert_eq!(
            spans_text(text, &gold.content),
            ["“We are ready,”", "“and we will win.”", "more"]
        );
    }

    #[test]
    fn reads_attributions_without_source_and_counts_discards() {
        let text = "Officials were reportedly furious. Noise here.";
        let ann = "T1\tCue 15 25\treportedly\nT2\tContent 0 14;26 33\tOfficials were furious\nT3\tAttribution-no-source 15 25\treportedly\nE1\tAttribution-no-source:T3 Cue:T1 Content:T2\nE2\tAttribution-no-source:T3 \nT4\tDiscard 35 40\tNoise\nT5\tDiscuss 41 45\there\n#1\tAnnotatorNotes T4\tnot sure\nA1\tFlag T1\n";
        let parsed = parse_ann(ann, text).unwrap();
        assert_eq!(
            parsed.attributions.len(),
            1,
            "discards are not attributions"
        );
        let gold = &parsed.attributions[0];
        assert!(gold.no_source);
        assert!(gold.source.is_empty());
        assert_eq!(
            spans_text(text, &gold.content),
            ["Officials were", "furious"]
        );
        assert_eq!((parsed.discarded, parsed.discussed), (1, 1));
        assert_eq!(
            parsed.incomplete, 1,
            "a trigger-only event is counted, not kept"
        );
    }

    #[test]
    fn reads_text_fields_that_run_over_line_breaks() {
        let text = "Title\n\nShe said it was done.";
        let ann = "T1\tContent 0 5;7 10\tTitle She\nT2\tContent 0 10\tTitle\n\nShe\nT3\tCue 11 15\tsaid\nT4\tAttribution 11 15\tsaid\nE1\tAttribution:T4 Cue:T3 Content:T2\n";
        let parsed = parse_ann(ann, text).unwrap();
        assert_eq!(parsed.text_bounds.len(), 4);
        assert_eq!(parsed.text_bounds[1].text, "Title\n\nShe");
        assert_eq!(
            parsed.text_bounds[1].fragments[0].slice(text),
            "Title\n\nShe"
        );
        assert_eq!(parsed.attributions.len(), 1);
    }

    #[test]
    fn malformed_lines_are_errors_naming_the_line() {
        let text = "short text";
        for (ann, line) in [
            ("T1\tCue 0 5\tshort\nT2\tCue 0 x\tbad\n", 2),
            ("T1\tCue 0 99\ttoo long\n", 1),
            ("T1\tCue 0 5\tshort\nE1\tAttribution:T9 Cue:T1\n", 2),
            ("T1\tCue 0 5\tshort\nE1\tCue:T1\n", 2),
            ("T1\tCue 0 5\tshort\nE1\tAttribution:T1 Speaker:T1\n", 2),
            ("T1\tCue 0 5\tshort\nno tab here\n", 2),
            ("T1\tCue 5 2\tbad\n", 1),
            ("T1\tCue\tbad\n", 1),
        ] {
            let err = parse_ann(ann, text).unwrap_err();
            assert_eq!(err.line, line, "{ann:?}: {err}");
        }
    }

    #[test]
    fn an_offset_inside_a_character_is_impossible_in_code_points() {
        let text = "é";
        assert!(parse_ann("T1\tCue 0 1\té\n", text).is_ok());
        assert!(parse_ann("T1\tCue 0 2\té\n", text).is_err());
    }
}
