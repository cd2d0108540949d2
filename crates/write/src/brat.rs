//! brat standoff output: the text as `.txt` and its annotations as `.ann`.
//!
//! Offsets are Unicode code points, as brat and PolNeAR count them. The `.txt`
//! holds the article text byte for byte; brat reads it as it is, so a text with
//! `\r\n` line ends keeps them and the offsets count both characters.
//!
//! # Attributions
//!
//! Written exactly as PolNeAR writes them. For each attribution, in order:
//!
//! ```text
//! T1  Source 57 73  Mayor Lena Ortiz
//! T2  Cue 74 78  said
//! T3  Content 43 124;130 140  first fragment second fragment
//! T4  Attribution 74 78  said
//! E1  Attribution:T4 Content:T3 Cue:T2 Source:T1
//! ```
//!
//! (fields are tab-separated). The trigger `T` line covers the cue fragments and
//! is labelled `Attribution-no-source` when the attribution has no source; the
//! event line then reads `Attribution-no-source:T<a>` and has no `Source:`
//! argument. A discontinuous role has its fragments as `start end;start end` and
//! its text field is the fragments' texts joined by one space. As in PolNeAR, a
//! fragment never crosses a line: one that does is cut at each line break and
//! the pieces trimmed of the whitespace around it. A role with no
//! non-empty fragment gets no `T` line and no argument; an attribution without a
//! cue has its trigger on the content (or, lacking that too, the source), and one
//! with no non-empty fragment at all is left out.
//!
//! Beyond PolNeAR, each attribution event carries:
//! - `A<n>  Kind E<m> <kind>`: `direct`, `mixed`, `indirect`, `according_to`;
//! - `A<n>  Stance E<m> <label>` when the stances layer gives one: `asserts`,
//!   `confirms`, `denies`, `declines`, `claims`, `reports`, `believes`, `intends`;
//! - `#<n>  AnnotatorNotes E<m>  confidence=0.93` (4 decimals);
//! - for the stance evidence, `T` lines `StanceEvidence` with the note
//!   `attribution=E<m> stance=<label>`.
//!
//! # Other layers
//!
//! | layer | `T` label | attributes (`A`) and notes (`#`) |
//! |---|---|---|
//! | sources | `SourceMention` per mention, `SourceDescriptor` per descriptor | `SourceType` (`person`, `organization`, `unnamed`, `document`, `media_outlet`, `social_media`), `Gender` (`masculine`, `feminine`) on mentions; note `source=<index> attributions=E1,E4 name=<name>` on the first mention and `source=<index>` on the others and on descriptors |
//! | hedges | `HedgeCue` (the cue), `Hedge` (its scope) | relation `R<n>  HedgeScope Arg1:T<cue> Arg2:T<scope>` |
//! | entities | `Person`, `Organization`, `Location`, `OtherEntity` | note `cluster=<n>` |
//! | quantities | `Quantity` | note `low=<v> high=<v> unit=<unit>` (a missing bound is left out) |
//! | times | `Time` | note `value=<ISO 8601> granularity=<g>`, or `unresolved=<reason>` |
//! | quotations | `Quotation` (the quoted words) | `QuoteStatus` (`attributed`, `floating`, `title`, `scare`, `slogan`, `unattributed`); note `attribution=E<m> source=<index>`, each key only when known |
//!
//! Tokens, sentences, paragraphs, part-of-speech tags and diagnostics have no
//! brat form and are not written.
//!
//! A text field or note cannot hold a line break, since brat reads `.ann` line by
//! line: every line-breaking character (`\n`, `\r`, `\t`, U+000B, U+000C,
//! U+001C–U+001E, U+0085, U+2028, U+2029) is shown there as one space. Only the
//! display field changes; the offsets stay exact.
//!
//! # Files
//!
//! [`brat_ann`] gives the `.ann`; the `.txt` is [`attest_doc::Doc::text`]. The
//! command line names and writes both files.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use attest_doc::{Doc, EntityLabel, Span, serde_name};

use crate::json::rounded_confidence;
use crate::offsets::Geometry;

/// The `.ann` content for `doc`.
pub fn brat_ann(doc: &Doc) -> String {
    let mut ann = Ann {
        geometry: Geometry::new(doc.text()),
        out: String::new(),
        next: BTreeMap::new(),
    };
    let events = ann.attributions(doc);
    ann.sources(doc, &events);
    for hedge in doc.hedges() {
        let cue = ann.text_bound("HedgeCue", &[hedge.cue]);
        let scope = ann.text_bound("Hedge", &[hedge.scope]);
        if let (Some(cue), Some(scope)) = (cue, scope) {
            let r = ann.id('R');
            ann.line(format_args!("R{r}\tHedgeScope Arg1:T{cue} Arg2:T{scope}"));
        }
    }
    for entity in doc.entities() {
        let label = match entity.label {
            EntityLabel::Person => "Person",
            EntityLabel::Organization => "Organization",
            EntityLabel::Location => "Location",
            _ => "OtherEntity",
        };
        if let Some(t) = ann.text_bound(label, &[entity.span]) {
            ann.note(
                &format!("T{t}"),
                &format!("cluster={}", entity.cluster.index()),
            );
        }
    }
    for quantity in doc.quantities() {
        if let Some(t) = ann.text_bound("Quantity", &[quantity.span]) {
            let mut note = String::new();
            let bounds = [("low", quantity.low), ("high", quantity.high)];
            for (name, bound) in bounds {
                if let Some(value) = bound.filter(|v| v.is_finite()) {
                    let _ = write!(note, "{name}={value} ");
                }
            }
            let _ = write!(note, "unit={}", quantity.unit);
            ann.note(&format!("T{t}"), &note);
        }
    }
    for time in doc.times() {
        if let Some(t) = ann.text_bound("Time", &[time.span]) {
            let mut note = Vec::new();
            if let Some(value) = &time.value {
                note.push(format!("value={value}"));
            }
            if let Some(granularity) = time.granularity {
                note.push(format!("granularity={}", serde_name(&granularity)));
            }
            if let Some(reason) = &time.unresolved {
                note.push(format!("unresolved={reason}"));
            }
            if !note.is_empty() {
                ann.note(&format!("T{t}"), &note.join(" "));
            }
        }
    }
    for quotation in doc.quotations() {
        if let Some(t) = ann.text_bound("Quotation", &[quotation.span]) {
            let target = format!("T{t}");
            ann.attribute("QuoteStatus", &target, &serde_name(&quotation.status));
            let mut note = Vec::new();
            if let Some(e) = quotation
                .attribution
                .and_then(|a| events.get(a.index()).copied().flatten())
            {
                note.push(format!("attribution=E{e}"));
            }
            if let Some(source) = quotation.source {
                note.push(format!("source={}", source.index()));
            }
            if !note.is_empty() {
                ann.note(&target, &note.join(" "));
            }
        }
    }
    ann.out
}

/// The `.ann` being written: its text and the next number of each id kind.
struct Ann<'a> {
    geometry: Geometry<'a>,
    out: String,
    next: BTreeMap<char, usize>,
}

impl Ann<'_> {
    fn id(&mut self, kind: char) -> usize {
        let next = self.next.entry(kind).or_insert(1);
        let id = *next;
        *next += 1;
        id
    }

    fn line(&mut self, line: std::fmt::Arguments<'_>) {
        let _ = self.out.write_fmt(line);
        self.out.push('\n');
    }

    /// A `T` line over the non-empty fragments, in text order, each cut at
    /// line breaks; `None` when there is none, since brat cannot show an empty
    /// span.
    fn text_bound(&mut self, label: &str, spans: &[Span]) -> Option<usize> {
        let text = self.geometry.text();
        let mut placed: Vec<_> = spans
            .iter()
            .flat_map(|span| line_pieces(text, *span))
            .map(|span| self.geometry.place(span))
            .filter(|placed| !placed.text.is_empty())
            .collect();
        if placed.is_empty() {
            return None;
        }
        placed.sort_by_key(|p| (p.byte_start, p.byte_end));
        let offsets: Vec<String> = placed
            .iter()
            .map(|p| format!("{} {}", p.cp_start, p.cp_end))
            .collect();
        let texts: Vec<&str> = placed.iter().map(|p| p.text).collect();
        let t = self.id('T');
        let offsets = offsets.join(";");
        let text = one_line(&texts.join(" "));
        self.line(format_args!("T{t}\t{label} {offsets}\t{text}"));
        Some(t)
    }

    fn attribute(&mut self, name: &str, target: &str, value: &str) {
        let a = self.id('A');
        self.line(format_args!("A{a}\t{name} {target} {value}"));
    }

    fn note(&mut self, target: &str, note: &str) {
        let n = self.id('#');
        let note = one_line(note);
        self.line(format_args!("#{n}\tAnnotatorNotes {target}\t{note}"));
    }

    /// Writes the attributions and their stances; returns the event id of each
    /// attribution, `None` for one left out.
    fn attributions(&mut self, doc: &Doc) -> Vec<Option<usize>> {
        let mut stances = BTreeMap::new();
        for stance in doc.stances() {
            stances.entry(stance.attribution.index()).or_insert(stance);
        }
        let mut events = Vec::with_capacity(doc.attributions().len());
        for (index, attribution) in doc.attributions().iter().enumerate() {
            let source = self.text_bound("Source", &attribution.source);
            let cue = self.text_bound("Cue", &attribution.cue);
            let content = self.text_bound("Content", &attribution.content);
            let trigger_spans = [&attribution.cue, &attribution.content, &attribution.source]
                .into_iter()
                .find(|spans| spans.iter().any(|s| !s.is_empty()));
            let label = if source.is_some() {
                "Attribution"
            } else {
                "Attribution-no-source"
            };
            let Some(trigger) = trigger_spans.and_then(|spans| self.text_bound(label, spans))
            else {
                events.push(None);
                continue;
            };
            let e = self.id('E');
            let mut line = format!("E{e}\t{label}:T{trigger}");
            let arguments = [("Content", content), ("Cue", cue), ("Source", source)];
            for (role, t) in arguments {
                if let Some(t) = t {
                    let _ = write!(line, " {role}:T{t}");
                }
            }
            self.line(format_args!("{line}"));
            let event = format!("E{e}");
            self.attribute("Kind", &event, &serde_name(&attribution.kind));
            if let Some(stance) = stances.get(&index) {
                let label = serde_name(&stance.label);
                self.attribute("Stance", &event, &label);
                if let Some(t) = self.text_bound("StanceEvidence", &stance.evidence) {
                    self.note(
                        &format!("T{t}"),
                        &format!("attribution={event} stance={label}"),
                    );
                }
            }
            if let Some(confidence) = rounded_confidence(attribution.confidence) {
                self.note(&event, &format!("confidence={confidence}"));
            }
            events.push(Some(e));
        }
        events
    }

    fn sources(&mut self, doc: &Doc, events: &[Option<usize>]) {
        for (index, source) in doc.sources().iter().enumerate() {
            let spoken: Vec<String> = source
                .attributions
                .iter()
                .filter_map(|a| events.get(a.index()).copied().flatten())
                .map(|e| format!("E{e}"))
                .collect();
            let mut note = format!("source={index} ");
            if !spoken.is_empty() {
                let _ = write!(note, "attributions={} ", spoken.join(","));
            }
            let _ = write!(note, "name={}", source.name);
            // The list and the name once: on every mention, a source quoted n
            // times would cost n² ids.
            let mut first = true;
            for mention in &source.mentions {
                if let Some(t) = self.text_bound("SourceMention", &[*mention]) {
                    let target = format!("T{t}");
                    self.attribute("SourceType", &target, &serde_name(&source.kind));
                    if let Some(gender) = source.gender {
                        self.attribute("Gender", &target, &serde_name(&gender));
                    }
                    if first {
                        self.note(&target, &note);
                        first = false;
                    } else {
                        self.note(&target, &format!("source={index}"));
                    }
                }
            }
            for descriptor in &source.descriptors {
                if let Some(t) = self.text_bound("SourceDescriptor", &[*descriptor]) {
                    self.note(&format!("T{t}"), &format!("source={index}"));
                }
            }
        }
    }
}

/// The pieces of a span between its line breaks, each trimmed of the
/// whitespace around the break: PolNeAR's fragments never cross a line, and
/// an annotation that does is cut where the line ends. A span within one line
/// is left as it is.
fn line_pieces(text: &str, span: Span) -> Vec<Span> {
    let Some(covered) = span.get(text) else {
        return vec![span];
    };
    if !covered.contains(is_line_end) {
        return vec![span];
    }
    let base = span.byte_start();
    let mut pieces = Vec::new();
    let mut start = 0;
    for (at, c) in covered.char_indices() {
        if is_line_end(c) {
            pieces.push((start, at));
            start = at + c.len_utf8();
        }
    }
    pieces.push((start, covered.len()));
    pieces
        .into_iter()
        .filter_map(|(start, end)| Span::try_new(base + start, base + end).ok())
        .map(|piece| piece.trim(text))
        .filter(|piece| !piece.is_empty())
        .collect()
}

/// Whether `c` ends a line of text.
fn is_line_end(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r' | '\u{b}' | '\u{c}' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// Whether brat (or Python's `str.splitlines`) would break a line at `c`.
fn breaks_line(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r' | '\t' | '\u{b}' | '\u{c}' | '\u{1c}'
            ..='\u{1e}' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// The text with every line-breaking character shown as one space, so that the
/// field keeps its length in code points.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if breaks_line(c) { ' ' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{first, full_doc, segment, text_and_spans};
    use attest_doc::{Article, Attribution, AttributionKind, ClusterId, Entity};
    use proptest::prelude::*;

    /// A parsed `T` line: id, label, code-point fragments, text field.
    type TextBound = (String, String, Vec<(usize, usize)>, String);

    fn parse_text_bounds(ann: &str) -> Vec<TextBound> {
        ann.lines()
            .filter(|line| line.starts_with('T'))
            .map(|line| {
                let fields: Vec<&str> = line.split('\t').collect();
                assert_eq!(fields.len(), 3, "T line with three fields: {line:?}");
                let (label, offsets) = fields[1].split_once(' ').expect("label and offsets");
                let fragments = offsets
                    .split(';')
                    .map(|fragment| {
                        let (start, end) = fragment.split_once(' ').expect("start end");
                        (start.parse().expect("start"), end.parse().expect("end"))
                    })
                    .collect();
                (fields[0].into(), label.into(), fragments, fields[2].into())
            })
            .collect()
    }

    /// Checks every `T` line against the text, counted in code points, and
    /// every reference of the other lines against the ids defined.
    fn assert_round_trips(text: &str, ann: &str) {
        let chars: Vec<char> = text.chars().collect();
        let bounds = parse_text_bounds(ann);
        assert!(!bounds.is_empty());
        for (id, label, fragments, shown) in &bounds {
            let texts: Vec<String> = fragments
                .iter()
                .map(|&(start, end)| {
                    assert!(
                        start < end && end <= chars.len(),
                        "{id} {label} {start} {end}"
                    );
                    chars[start..end].iter().collect()
                })
                .collect();
            assert_eq!(&one_line(&texts.join(" ")), shown, "{id} {label}");
        }
        let defined: std::collections::BTreeSet<String> = ann
            .lines()
            .filter_map(|line| line.split('\t').next())
            .map(String::from)
            .collect();
        for line in ann.lines().filter(|l| !l.starts_with('T')) {
            let fields: Vec<&str> = line.split('\t').collect();
            assert!(fields.len() >= 2, "{line:?}");
            let references = fields[1]
                .split(' ')
                .map(|word| word.rsplit(':').next().unwrap_or(word))
                .filter(|word| {
                    word.len() > 1
                        && word.starts_with(['T', 'E'])
                        && word[1..].chars().all(|c| c.is_ascii_digit())
                });
            for reference in references {
                assert!(
                    defined.contains(reference),
                    "{line:?} refers to {reference}"
                );
            }
        }
    }

    #[test]
    fn full_document_snapshot_and_round_trip() {
        let doc = full_doc();
        let ann = brat_ann(&doc);
        assert_round_trips(doc.text(), &ann);
        insta::assert_snapshot!(ann);
    }

    #[test]
    fn a_source_lists_its_attributions_once_however_often_it_is_mentioned() {
        let doc = full_doc();
        let ann = brat_ann(&doc);
        let mentioned = doc
            .sources()
            .iter()
            .filter(|s| s.mentions.len() > 1)
            .count();
        assert!(mentioned > 0, "the document has a source mentioned twice");
        let speaking = doc
            .sources()
            .iter()
            .filter(|s| !s.mentions.is_empty() && !s.attributions.is_empty())
            .count();
        assert_eq!(ann.matches(" attributions=").count(), speaking);
    }

    #[test]
    fn attributions_follow_polnear() {
        let doc = full_doc();
        let ann = brat_ann(&doc);
        let lines: Vec<&str> = ann.lines().collect();
        assert!(lines[0].starts_with("T1\tSource "), "{}", lines[0]);
        assert!(lines[1].starts_with("T2\tCue "));
        assert!(lines[2].starts_with("T3\tContent "));
        assert!(lines[3].starts_with("T4\tAttribution "));
        assert_eq!(
            lines[1].split('\t').nth(1).map(|f| &f[4..]),
            lines[3].split('\t').nth(1).map(|f| &f[12..])
        );
        assert_eq!(lines[4], "E1\tAttribution:T4 Content:T3 Cue:T2 Source:T1");
        assert!(
            ann.contains("\tAttribution-no-source:T"),
            "the attribution without a source"
        );
        let direct = lines
            .iter()
            .find(|l| l.contains("\tContent ") && l.contains(';'))
            .expect("a discontinuous content");
        assert!(direct.ends_with("\t“We need the engineers’ report first,” “and then we vote.”"));
    }

    #[test]
    fn newlines_crlf_and_emoji_inside_fragments_keep_exact_offsets() {
        let text = "Ein Satz 😀.\r\n\r\n“Zwei\nZeilen”, sagte\u{2028}sie: «é».";
        let mut doc = Doc::new(Article::new("crlf", text));
        doc.set_segmentation(segment(text)).unwrap();
        doc.set_attributions(vec![Attribution {
            source: vec![first(text, "sie")],
            cue: vec![first(text, "sagte\u{2028}")],
            content: vec![first(text, "😀.\r\n\r\n“Zwei\nZeilen”"), first(text, "«é»")],
            kind: AttributionKind::Mixed,
            confidence: 0.5,
        }])
        .unwrap();
        doc.set_entities(vec![Entity {
            span: first(text, "é"),
            label: EntityLabel::Other,
            cluster: ClusterId::must(0),
        }])
        .unwrap();
        let ann = brat_ann(&doc);
        assert_round_trips(text, &ann);
        // Fragments are cut at line breaks, as in PolNeAR.
        assert!(
            ann.contains("\tContent 9 11;15 20;21 28;41 44\t😀. “Zwei Zeilen” «é»\n"),
            "{ann}"
        );
        assert!(ann.contains("\tCue 30 35\tsagte\n"), "{ann}");
        assert!(ann.contains("\tOtherEntity 42 43\té\n"), "{ann}");
    }

    #[test]
    fn empty_fragments_and_empty_attributions_are_left_out() {
        let text = "Nobody said anything.";
        let mut doc = Doc::new(Article::new("e", text));
        doc.set_attributions(vec![
            Attribution {
                source: vec![Span::must(0, 0)],
                cue: vec![first(text, "said")],
                content: Vec::new(),
                kind: AttributionKind::Indirect,
                confidence: 0.2,
            },
            Attribution {
                source: Vec::new(),
                cue: vec![Span::must(3, 3)],
                content: Vec::new(),
                kind: AttributionKind::Indirect,
                confidence: 0.1,
            },
        ])
        .unwrap();
        let ann = brat_ann(&doc);
        assert_eq!(
            ann,
            "T1\tCue 7 11\tsaid\nT2\tAttribution-no-source 7 11\tsaid\n\
             E1\tAttribution-no-source:T2 Cue:T1\nA1\tKind E1 indirect\n\
             #1\tAnnotatorNotes E1\tconfidence=0.2\n"
        );
    }

    proptest! {
        #[test]
        fn random_spans_round_trip((text, pairs) in text_and_spans()) {
            let mut doc = Doc::new(Article::new("p", text.clone()));
            let spans: Vec<Span> = pairs.iter().map(|&(a, b)| Span::must(a, b)).collect();
            doc.set_attributions(vec![Attribution {
                source: Vec::new(),
                cue: spans.clone(),
                content: spans.iter().rev().copied().collect(),
                kind: AttributionKind::Mixed,
                confidence: 0.5,
            }]).unwrap();
            let ann = brat_ann(&doc);
            if spans.iter().flat_map(|s| line_pieces(&text, *s)).any(|p| !p.is_empty()) {
                assert_round_trips(&text, &ann);
            } else {
                prop_assert!(ann.is_empty());
            }
        }
    }
}
