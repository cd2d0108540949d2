//! What a statement's words come down to when claims are compared: the stems
//! of its content words, the figures it states, and the names it holds.
//!
//! Paraphrase changes words' forms ("failed" and "fails"), spells numbers
//! differently ("eleven" and "11", "one in five" and "about 20 percent") and
//! drops function words, so each of these is compared in one form: stems by a
//! light suffix rule, figures by the value the quantity layer read, names by
//! their capitals, and everything lowercase with straight apostrophes.

use std::ops::Range;

use attest_doc::{Doc, Granularity, Quantity, Span, TokenKind};
use attest_lang::{WordList, listed, month, weekday};

/// A figure a statement states: a quantity's value, a proportion for
/// percentages and fractions alike, rounded to three significant digits so
/// that "one in three" and "33.3 percent" agree.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Figure(i64);

impl Figure {
    /// The figure of a value in a unit; `None` for a value that is no number.
    pub fn of(value: f64, unit: &str) -> Option<Figure> {
        let value = match unit {
            "percent" => value / 100.0,
            _ => value,
        };
        if !value.is_finite() {
            return None;
        }
        if value == 0.0 {
            return Some(Figure(0));
        }
        // Three significant digits, kept as an integer mantissa with its
        // decimal exponent so that figures compare exactly. Exponents stay
        // under 500, which marks a year.
        let exponent = value.abs().log10().floor() as i64 - 2;
        let mantissa = (value / 10f64.powi(exponent as i32)).round() as i64;
        Some(Figure(mantissa * 1000 + exponent.clamp(-499, 499)))
    }

    /// A year, kept whole: rounded to three digits, 2022 and 2024 would be
    /// one figure. Its form never meets a rounded figure's.
    pub fn year(year: u16) -> Figure {
        Figure(i64::from(year) * 1000 + 500)
    }

    /// The figure as one integer, to store and read back.
    pub fn to_bits(self) -> i64 {
        self.0
    }

    /// A figure from [`Figure::to_bits`].
    pub fn from_bits(bits: i64) -> Figure {
        Figure(bits)
    }
}

/// The comparable words of a statement.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct ClaimWords {
    /// Stems of its content words and its figures (`#` and the figure),
    /// sorted, each once.
    pub stems: Vec<String>,
    /// The figures its quantities state, sorted, each once.
    pub figures: Vec<Figure>,
    /// The years it names, written out ("2025") or relative to the
    /// article's date ("last year"), sorted, each once. Only those written
    /// out are figures: "next year" is in too many statements to make two of
    /// them one claim, but it still tells a claim of one year from another's.
    pub years: Vec<Figure>,
    /// The capitalized words inside its sentences (the names of people,
    /// organizations and places, but no month or weekday), lowercase,
    /// sorted, each once. Capitals are read rather than the entity layer,
    /// which finds a name in one article and misses it in the next.
    pub names: Vec<String>,
}

/// The comparable words of the parts of `doc` that `spans` cover.
pub fn claim_words(doc: &Doc, spans: &[Span]) -> ClaimWords {
    // Each layer is read only where the spans are, so that the words of all
    // an article's statements cost the article's length, not its length
    // times its statements.
    let within = |span: Span| spans.iter().any(|outer| outer.contains(span));
    let quantities: Vec<&Quantity> = spans
        .iter()
        .flat_map(|span| &doc.quantities()[starting_in(doc.quantities(), |q| q.span, *span)])
        .filter(|q| within(q.span))
        .collect();
    let mut words = ClaimWords::default();
    for quantity in &quantities {
        let value = quantity.low.or(quantity.high);
        if let Some(figure) = value.and_then(|v| Figure::of(v, &quantity.unit)) {
            words.figures.push(figure);
            words.stems.push(format!("#{}", figure.to_bits()));
        }
        if let Some(noun) = counted_noun(doc, quantity) {
            words
                .stems
                .extend(noun.split(' ').map(|word| stem(word).to_string()));
        }
    }
    for span in spans {
        for time in &doc.times()[starting_in(doc.times(), |t| t.span, *span)] {
            let resolved = time
                .value
                .as_deref()
                .filter(|_| time.granularity == Some(Granularity::Year) && within(time.span));
            words.years.extend(resolved.and_then(year));
        }
    }
    let folded = doc.folded();
    let in_quantity = |span: Span| quantities.iter().any(|q| q.span.contains(span));
    let tokens: Vec<usize> = spans
        .iter()
        .flat_map(|span| starting_in(doc.tokens(), |t| t.span, *span))
        .filter(|&index| {
            let token = doc.tokens()[index];
            within(token.span) && !in_quantity(token.span)
        })
        .collect();
    for &index in &tokens {
        let token = doc.tokens()[index];
        if !matches!(token.kind, TokenKind::Word | TokenKind::Number) {
            continue;
        }
        let word = folded.get(index);
        if let Some(figure) = year(word) {
            words.figures.push(figure);
            words.years.push(figure);
            words.stems.push(format!("#{}", figure.to_bits()));
            continue;
        }
        if word.is_empty() || listed(WordList::ClaimStopwords, word) {
            continue;
        }
        words.stems.push(stem(word).to_string());
        if token.kind != TokenKind::Word {
            continue;
        }
        let written = doc.span_text(token.span);
        let named = !opens_clause(doc, index, sentence_start(doc, index))
            && written.chars().next().is_some_and(char::is_uppercase)
            && month(written).is_none()
            && weekday(word).is_none();
        if named {
            words.names.push(word.trim_end_matches('.').to_string());
        }
    }
    for list in [&mut words.stems, &mut words.names] {
        list.sort_unstable();
        list.dedup();
    }
    for list in [&mut words.figures, &mut words.years] {
        list.sort_unstable();
        list.dedup();
    }
    words
}

/// The indexes of a layer's records, in text order, that start inside
/// `span`, found by binary search.
pub(crate) fn starting_in<T>(
    records: &[T],
    span_of: impl Fn(&T) -> Span,
    span: Span,
) -> Range<usize> {
    let first = records.partition_point(|record| span_of(record).byte_start() < span.byte_start());
    let end = records.partition_point(|record| span_of(record).byte_start() < span.byte_end());
    first..end.max(first)
}

/// The first token of the sentence that holds token `index`.
fn sentence_start(doc: &Doc, index: usize) -> usize {
    let sentences = doc.sentences();
    let at = sentences.partition_point(|sentence| sentence.tokens.end.index() <= index);
    sentences
        .get(at)
        .map_or(index, |sentence| sentence.tokens.start.index())
}

/// Whether the token at `index` opens a clause, where a word is capitalized
/// whatever it is: the first of its sentence (which starts at `start`), the
/// first after a colon ("Auditor: Overspending ran to $4m") or the first of a
/// quotation.
fn opens_clause(doc: &Doc, index: usize, start: usize) -> bool {
    index == start
        || doc.tokens().get(index - 1).is_some_and(|before| {
            before.kind == TokenKind::Quote || doc.span_text(before.span) == ":"
        })
}

/// The noun a quantity counts, as written in it ("340 jobs", "fewer than
/// 300,000 accounts"): a word of the claim like any other, though the
/// quantity's tokens are otherwise left to its figure, since its number words
/// ("seven and a half") are spelled differently from one article to the next.
/// A currency code, a share ("percent", "fraction") or a unit that is not
/// written ("37-year-old") counts nothing.
fn counted_noun<'q>(doc: &Doc, quantity: &'q Quantity) -> Option<&'q str> {
    let unit = quantity.unit.as_str();
    let noun = !unit.is_empty()
        && unit.bytes().all(|b| b.is_ascii_lowercase() || b == b' ')
        && !matches!(unit, "percent" | "fraction")
        && doc.span_text(quantity.span).to_lowercase().contains(unit);
    noun.then_some(unit)
}

/// The year a number token names ("2025", and the first of a season's
/// "2024-25"), as a figure: a claim about another year is another claim,
/// though the quantity layer counts no year.
fn year(word: &str) -> Option<Figure> {
    let digits = word.get(..4)?;
    let rest = &word[4..];
    let season = rest.is_empty()
        || rest
            .strip_prefix(['-', '\u{2013}', '/'])
            .is_some_and(|end| end.len() == 2 && end.bytes().all(|b| b.is_ascii_digit()));
    let value: u16 = digits
        .parse()
        .ok()
        .filter(|_| digits.bytes().all(|b| b.is_ascii_digit()))?;
    (season && (1800..=2100).contains(&value)).then(|| Figure::year(value))
}

/// A word's stem by a light suffix rule: plurals, "-ing", "-ed", "-ly" and a
/// final "e" or "y" go, so that the forms a paraphrase changes meet
/// ("failed", "fails", "failing"; "city", "cities"). Over-stemming a word
/// only matters when it meets another word's stem, which these rules rarely
/// make.
pub fn stem(word: &str) -> &str {
    let word = word.strip_suffix("'s").unwrap_or(word);
    let cut = |suffix: &str, keep: usize| {
        word.strip_suffix(suffix)
            .filter(|rest| rest.chars().count() >= keep)
    };
    let plain =
        |word: &str| !word.ends_with("ss") && !word.ends_with("us") && !word.ends_with("is");
    let rest = cut("ies", 3)
        .or_else(|| cut("ing", 3))
        .or_else(|| cut("ed", 3))
        .or_else(|| cut("ly", 4))
        .or_else(|| cut("es", 3).filter(|rest| plain(rest)))
        .or_else(|| cut("s", 3).filter(|_| plain(word)))
        .unwrap_or(word);
    if rest.chars().count() >= 4 {
        rest.strip_suffix(['e', 'y']).unwrap_or(rest)
    } else {
        rest
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use attest_doc::{Article, Limits};
    use attest_pipeline::{LinearModels, Pipeline};

    /// The comparable words of all of `text`, analysed as an article of
    /// 2 March 2026.
    fn words_of(text: &str) -> ClaimWords {
        let models = LinearModels::bundled().expect("the bundled models load");
        let pipeline = Pipeline::fast(&Limits::DEFAULT, models).expect("the pipeline builds");
        let mut article = Article::new("a", text);
        article.published = "2026-03-02".parse().ok();
        let doc = pipeline.analyze(article);
        let all = Span::try_new(0, text.len()).expect("the text is a span");
        claim_words(&doc, &[all])
    }

    #[test]
    fn the_noun_a_figure_counts_is_a_word_of_the_claim() {
        let jobs = words_of("The company will cut fewer than 340 jobs.");
        assert!(jobs.stems.contains(&"job".to_string()), "{jobs:?}");
        let share = words_of("The fund lost 12 percent of its value.");
        assert!(!share.stems.iter().any(|s| s == "percent"), "{share:?}");
        assert_eq!(share.figures.len(), 1);
    }

    #[test]
    fn a_word_after_a_colon_or_opening_a_quotation_is_no_name() {
        let headline = words_of("The mayor: Council failed the Dunmore plant.");
        assert_eq!(headline.names, ["dunmore"]);
        let quoted = words_of("She said: \u{201c}Budgets were cut at the Riverton depot.\u{201d}");
        assert_eq!(quoted.names, ["riverton"]);
    }

    #[test]
    fn a_year_relative_to_the_date_is_named_but_is_no_figure() {
        let last = words_of("Wages took 91 percent of revenue last year.");
        assert_eq!(last.years, [Figure::year(2025)]);
        assert_eq!(
            last.figures,
            Figure::of(91.0, "percent").into_iter().collect::<Vec<_>>()
        );
        let written = words_of("Wages took 91 percent of revenue in 2025.");
        assert_eq!(written.years, [Figure::year(2025)]);
        assert!(written.figures.contains(&Figure::year(2025)));
    }

    #[test]
    fn the_forms_a_paraphrase_changes_meet_in_one_stem() {
        let same = [
            ("failed", "fails"),
            ("failing", "fail"),
            ("inspections", "inspection"),
            ("closures", "closure"),
            ("closed", "close"),
            ("cities", "city"),
            ("plant's", "plant"),
            ("rated", "rates"),
            ("quickly", "quick"),
        ];
        for (a, b) in same {
            assert_eq!(stem(a), stem(b), "{a} / {b}");
        }
        for (a, b) in [("bus", "bu"), ("class", "clas"), ("red", "re")] {
            assert_ne!(stem(a), stem(b), "{a} / {b}");
        }
    }

    #[test]
    fn percentages_and_fractions_of_one_share_are_one_figure() {
        let fifth = Figure::of(0.2, "fraction");
        assert_eq!(fifth, Figure::of(20.0, "percent"));
        assert_eq!(
            Figure::of(1.0 / 3.0, "fraction"),
            Figure::of(33.3, "percent")
        );
        assert_ne!(
            Figure::of(11.0, "inspections"),
            Figure::of(7.0, "inspections")
        );
        assert_eq!(
            Figure::of(1_200_000.0, "USD"),
            Figure::of(1_203_000.0, "USD")
        );
        assert_eq!(Figure::of(f64::INFINITY, ""), None);
        let bits = Figure::of(0.2, "fraction").map(Figure::to_bits);
        assert_eq!(bits.map(Figure::from_bits), fifth);
    }
}
