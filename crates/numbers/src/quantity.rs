//! The quantity tagger: numbers with what they count.
//!
//! # Conventions
//!
//! **Span.** From the first word of a bound ("more than", "about", "between") or
//! the currency sign through the number, its scale and its unit: "more than
//! $1.2 billion", "hundreds of workers", "scores of shops", "12%", "a 37-year-old" reads only
//! "37-year-old".
//!
//! **Value.** An exact value has `low == high`. Bounds: "more than", "over", "at
//! least", "upwards of", "above", "no fewer than" give `low` and no `high`; "less
//! than", "fewer than", "under", "up to", "at most", "no more than", "nearly",
//! "almost", "below" give `high` and no `low`. "About", "around", "roughly",
//! "approximately", "some", "an estimated", "close to" keep the exact value (the
//! record has no field for approximation). Ranges ("between 200 and 300", "200 to
//! 300", "200-300", "two or three") give both ends; a scale written only on the
//! second end applies to both ("5 to 7 million"). Plurals of scales are lower
//! bounds at twice the scale, with no upper bound (news writes "hundreds" of
//! what may well be a thousand or two): "dozens" ≥ 24, "scores" ≥ 40,
//! "hundreds" ≥ 200, "thousands" ≥ 2,000, "tens of thousands" ≥ 20,000,
//! "hundreds of millions" ≥ 2×10⁸.
//!
//! **Unit.**
//! - money: the ISO 4217 code. "$" alone is "USD"; "US$", "C$" "CAD", "A$" "AUD",
//!   "HK$" "HKD", "NZ$" "NZD", "S$" "SGD", "R$" "BRL"; "€" "EUR", "£" "GBP", "¥"
//!   "JPY", "₹" "INR"; a code written before or after the number ("EUR 5");
//!   "dollars" "USD", "euros" "EUR", "yen" "JPY", "yuan" and "renminbi" "CNY",
//!   "rupees" "INR", "pounds sterling" "GBP" ("pounds" alone is a weight and stays
//!   "pounds"); "cents" is "USD" in hundredths. "5m", "300k", "7.2bn" after a
//!   currency sign are millions, thousands, billions.
//! - "percent" for "%", "percent", "per cent", "pct"; "percentage points".
//! - ages: "years of age" ("37-year-old", "37 years old", "aged 37", "Smith, 37,",
//!   "turned 40");
//!   "months of age" and so on for younger ages ("6-month-old").
//! - durations: "seconds", "minutes", "hours", "days", "weeks", "months",
//!   "years" ("four years", "30-minute"); decades count as ten years. A duration
//!   followed by "ago" is a point in time, not a quantity: the time tagger has it.
//! - "fraction" for parts of a whole, valued as a proportion: "two-thirds" is
//!   0.667, "half of" 0.5, "one in five" and "3 in 10" 0.2 and 0.3 (through the
//!   whole of the second number, leaving what they count out, as for "two-thirds of").
//! - otherwise the counted noun exactly as written ("workers", "Democrats",
//!   "bottles"), skipping up to one adjective ("200 new jobs" counts "jobs"); ""
//!   when the article names nothing counted ("Police arrested 12.").
//!
//! **Not quantities.** Years (a four-digit whole number from 1500 to 2100 with no
//! unit and no plural noun after it), dates ("May 5", "5 May"), times of day
//! ("7 p.m."), ordinals ("21st", "third term"), decades ("1990s"), scores ("3-2"),
//! numbers that name rather than count ("No. 2", "#1", "Route 66", "Section 8",
//! "Boeing 737", "page 12": after "No.", "#", a capitalized name or an
//! identifying noun) unless they carry a percent or currency unit, house numbers
//! ("10 Downing Street"), and "one"/"a" with nothing counted ("one of the").

use attest_doc::{Doc, Layer, LayerError, PosTag, Quantity, Span, Stage, TokenKind, TokenView};
use attest_lang::{CurrencyUse, QuantityBound, WordList, listed};

use crate::number::{self, Form, Number};
use crate::view;

/// Finds quantities: numbers with their value, unit and span.
///
/// See the [module documentation](self) for the conventions.
#[derive(Clone, Copy, Debug, Default)]
pub struct QuantityTagger;

impl QuantityTagger {
    /// A quantity tagger.
    pub fn new() -> QuantityTagger {
        QuantityTagger
    }

    /// The quantities of a segmented document, in text order.
    pub fn tag(&self, doc: &Doc) -> Vec<Quantity> {
        let view = TokenView::new(doc);
        let mut out = Vec::new();
        for sentence in doc.sentences() {
            let (start, end) = (sentence.tokens.start.index(), sentence.tokens.end.index());
            let end = end.min(view.len());
            let mut i = start;
            while i < end {
                match candidate(&view, i, start, end) {
                    Some((quantity, next)) => {
                        // "dozen dozen dozen ..." or a 400-digit number overflows
                        // to infinity, which is no value to report.
                        let finite = quantity.low.is_none_or(f64::is_finite)
                            && quantity.high.is_none_or(f64::is_finite);
                        if finite {
                            out.push(quantity);
                        }
                        i = next.max(i + 1);
                    }
                    None => i += 1,
                }
            }
        }
        out
    }
}

impl Stage for QuantityTagger {
    const NAME: &'static str = "quantities";
    const REQUIRES: &'static [Layer] = &[Layer::Tokens, Layer::Sentences, Layer::Pos];
    const ASSIGNS: &'static [Layer] = &[Layer::Quantities];

    fn run(&self, doc: &mut Doc) -> Result<(), LayerError> {
        let quantities = self.tag(doc);
        doc.set_quantities(quantities)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Bound {
    Exact,
    Lower,
    Upper,
    Between,
    From,
}

/// Whether a token can start a quantity at all: the cheap test that keeps the
/// matcher off most tokens.
fn may_start(view: &TokenView<'_>, i: usize) -> bool {
    let lower = view.word(i);
    let Some(first) = lower.bytes().next() else {
        return false;
    };
    if first.is_ascii_digit() || first == b'.' || matches!(view.kind(i), Some(TokenKind::Symbol)) {
        return true;
    }
    let head = lower.split('-').next().unwrap_or(lower);
    attest_lang::starts_bound_phrase(head)
        || matches!(
            head,
            "a" | "half"
                | "aged"
                | "age"
                | "tens"
                | "dozens"
                | "scores"
                | "hundreds"
                | "thousands"
                | "millions"
                | "billions"
                | "trillions"
        )
        || attest_lang::starts_currency(head)
        || number::small_word(head).is_some()
}

fn candidate(
    view: &TokenView<'_>,
    i: usize,
    sentence_start: usize,
    end: usize,
) -> Option<(Quantity, usize)> {
    if !may_start(view, i) {
        return None;
    }
    if let Some(found) = aged(view, i, end) {
        return Some(found);
    }
    let (bound, j) = modifier(view, i, end);
    let (currency, k) = currency_prefix(view, j, end);
    let Some(mut num) = number::parse(view, k, end, currency.is_some()) else {
        if currency.is_none() {
            return compound(view, i, j, end);
        }
        return None;
    };
    if let Some(end_of_ratio) = ratio_denominator(view, &num, end) {
        let (share, last) = end_of_ratio;
        return Some(emit(
            view,
            i,
            last,
            bound,
            share,
            share,
            "fraction".to_string(),
        ));
    }
    if matches!(num.form, Form::Words)
        && matches!(view.word(k), "one" | "a" | "an")
        && num.low == 1.0
    {
        // "one" alone is mostly a pronoun ("one of the"); it counts only with a noun.
        let noun = counted_noun(view, num.end, end, true)?;
        return Some(emit(
            view,
            i,
            noun,
            bound,
            num.low,
            num.high,
            view.raw(noun).to_string(),
        ));
    }
    let mut high_num: Option<Number> = None;
    let mut last = num.end;
    if let Some((second, after)) = range_end(view, &num, bound, currency, last, end)
        && second.form != Form::Vague
        && num.form != Form::Vague
    {
        let shared_scale = num.scale == 1.0 && second.scale > 1.0 && num.low < 1000.0;
        let factor = if shared_scale { second.scale } else { 1.0 };
        if second.low > num.low * factor {
            num.low *= factor;
            num.high *= factor;
            high_num = Some(second);
            last = after;
        }
    }
    if matches!(bound, Bound::Between | Bound::From) && high_num.is_none() {
        // "between" without "and", "from" without "to": the caller moves on to
        // the next token and reads from the number there.
        return None;
    }
    let low = num.low;
    let high = high_num.map_or(num.high, |n| n.high);
    // "Hundreds of workers" says how many at least, and nothing of how many at most.
    let bound = if num.form == Form::Vague && bound == Bound::Exact {
        Bound::Lower
    } else {
        bound
    };
    let first_number = k;
    let unit = unit_after(view, &num, currency, last, end);
    let (unit, value_factor, last_token) = match unit {
        Unit::Skip => return None,
        Unit::Found { unit, factor, last } => (unit, factor, last),
        Unit::Nothing => (String::new(), 1.0, last.saturating_sub(1)),
    };
    let strong = currency.is_some() || unit == "percent" || unit == "percentage points";
    if !strong
        && names_rather_than_counts(
            view,
            first_number,
            sentence_start,
            last,
            &num,
            (&unit, last_token),
        )
    {
        return None;
    }
    if num.form == Form::Fraction {
        return Some(emit(
            view,
            i,
            num.end - 1,
            bound,
            low,
            high,
            "fraction".to_string(),
        ));
    }
    if unit.is_empty()
        && let Some(found) = bare_age(view, first_number, &num, bound, sentence_start)
    {
        return Some(found);
    }
    Some(emit(
        view,
        i,
        last_token,
        bound,
        low * value_factor,
        high * value_factor,
        unit,
    ))
}

/// "one in five", "3 in 10": the share of a whole and the ratio's last token, when a
/// whole number is followed by "in" and a larger whole number that is no year
/// ("2 in 2024") and counts no time ("3 in 10 minutes").
fn ratio_denominator(view: &TokenView<'_>, numerator: &Number, end: usize) -> Option<(f64, usize)> {
    let whole = |n: &Number| {
        n.low == n.high
            && n.low.fract() == 0.0
            && matches!(n.form, Form::Words | Form::Digits { scaled: false })
    };
    if !whole(numerator) || numerator.end + 1 >= end || view.word(numerator.end) != "in" {
        return None;
    }
    let denominator = number::parse(view, numerator.end + 1, end, false)?;
    let after = denominator.end;
    let counts_time = after < end && time_unit(view.word(after)).is_some();
    (whole(&denominator)
        && numerator.low >= 1.0
        && numerator.low < denominator.low
        && denominator.low <= 1000.0
        && !counts_time)
        .then(|| (numerator.low / denominator.low, after - 1))
}

fn emit(
    view: &TokenView<'_>,
    first: usize,
    last: usize,
    bound: Bound,
    low: f64,
    high: f64,
    unit: String,
) -> (Quantity, usize) {
    let (low, high) = match bound {
        Bound::Lower => (Some(low), None),
        Bound::Upper => (None, Some(high)),
        _ => (Some(low), Some(high)),
    };
    let span = view
        .bytes(first, last)
        .and_then(|(s, e)| Span::try_new(s, e).ok())
        .unwrap_or_default();
    (
        Quantity {
            span,
            low,
            high,
            unit,
        },
        last + 1,
    )
}

/// A bound or approximation before the number, and the token after it.
fn modifier(view: &TokenView<'_>, i: usize, end: usize) -> (Bound, usize) {
    for phrase in attest_lang::bound_phrases() {
        let words = &phrase.words;
        if i + words.len() < end && view::reads(view, i, words) {
            let bound = match phrase.bound {
                QuantityBound::Lower => Bound::Lower,
                QuantityBound::Upper => Bound::Upper,
                QuantityBound::About => Bound::Exact,
                QuantityBound::Between => Bound::Between,
                QuantityBound::From => Bound::From,
            };
            return (bound, i + words.len());
        }
    }
    (Bound::Exact, i)
}

/// A currency sign or code before the number: its ISO 4217 code and the token
/// after it.
fn currency_prefix(view: &TokenView<'_>, i: usize, end: usize) -> (Option<&'static str>, usize) {
    if i >= end {
        return (None, i);
    }
    let written = view.raw(i);
    if let Some(code) = attest_lang::currency(written, CurrencyUse::Sign)
        .or(attest_lang::currency(written, CurrencyUse::Code))
    {
        return (Some(code), i + 1);
    }
    if view.raw(i + 1) == "$"
        && view.glued(i)
        && let Some(code) = attest_lang::currency(written, CurrencyUse::DollarPrefix)
    {
        return (Some(code), i + 2);
    }
    (None, i)
}

/// The second end of a range after `at`: "to 300", "- 300", "and 300" after
/// "between", "or three".
fn range_end(
    view: &TokenView<'_>,
    first: &Number,
    bound: Bound,
    currency: Option<&'static str>,
    at: usize,
    end: usize,
) -> Option<(Number, usize)> {
    let joiner = view.word(at);
    let allowed = match joiner {
        "and" => bound == Bound::Between,
        "to" | "-" | "–" | "—" => bound != Bound::Between,
        "or" => matches!(first.form, Form::Words) || first.low < 100.0,
        _ => false,
    };
    if !allowed {
        return None;
    }
    let (second_currency, k) = currency_prefix(view, at + 1, end);
    if second_currency.is_some() && second_currency != currency {
        return None;
    }
    let second = number::parse(view, k, end, currency.is_some())?;
    if second.form == Form::Fraction {
        return None;
    }
    Some((second, second.end))
}

enum Unit {
    /// Not a quantity after all ("four years ago").
    Skip,
    Found {
        unit: String,
        factor: f64,
        last: usize,
    },
    Nothing,
}

fn found(unit: &str, last: usize) -> Unit {
    Unit::Found {
        unit: unit.to_string(),
        factor: 1.0,
        last,
    }
}

/// A duration unit, singular or plural: its plural and how many of it one
/// written unit makes ("decades" are ten "years").
pub(crate) fn time_unit(lower: &str) -> Option<(&'static str, f64)> {
    let unit = match lower {
        "second" | "seconds" => ("seconds", 1.0),
        "minute" | "minutes" => ("minutes", 1.0),
        "hour" | "hours" => ("hours", 1.0),
        "day" | "days" => ("days", 1.0),
        "week" | "weeks" => ("weeks", 1.0),
        "month" | "months" => ("months", 1.0),
        "year" | "years" => ("years", 1.0),
        "decade" | "decades" => ("years", 10.0),
        _ => return None,
    };
    Some(unit)
}

/// The unit after the number, which ends at token `at`.
fn unit_after(
    view: &TokenView<'_>,
    num: &Number,
    currency: Option<&'static str>,
    at: usize,
    end: usize,
) -> Unit {
    let at_word = |k: usize| if k < end { view.word(k) } else { "" };
    let word = at_word(at);
    match word {
        "%" | "percent" | "pct" => return found("percent", at),
        "per" if at_word(at + 1) == "cent" => return found("percent", at + 1),
        "percentage" if matches!(at_word(at + 1), "point" | "points") => {
            return found("percentage points", at + 1);
        }
        _ => {}
    }
    if let Some(code) = currency {
        return found(code, at.saturating_sub(1));
    }
    if num.form == Form::Fraction {
        return Unit::Nothing;
    }
    // "millions of dollars", "hundreds of workers": a vague or scaled number
    // reaches its unit through "of".
    let of = word == "of"
        && (num.form == Form::Vague
            || num.scale > 1.0
            || matches!(num.form, Form::Words) && num.low >= 100.0);
    let unit_at = if of { at + 1 } else { at };
    let unit_word = at_word(unit_at);
    if let Some(code) = attest_lang::currency(view.raw(unit_at), CurrencyUse::Code)
        .or(attest_lang::currency(unit_word, CurrencyUse::Name))
    {
        return found(code, unit_at);
    }
    if unit_word == "pounds" && at_word(unit_at + 1) == "sterling" {
        return found("GBP", unit_at + 1);
    }
    if unit_word == "cents" && !of {
        return Unit::Found {
            unit: "USD".to_string(),
            factor: 0.01,
            last: unit_at,
        };
    }
    if let Some((unit, factor)) = time_unit(unit_word) {
        if num.form == Form::Vague {
            return Unit::Found {
                unit: unit.to_string(),
                factor,
                last: unit_at,
            };
        }
        return match at_word(unit_at + 1) {
            "ago" => Unit::Skip,
            "old" => Unit::Found {
                unit: format!("{unit} of age"),
                factor,
                last: unit_at + 1,
            },
            _ => Unit::Found {
                unit: unit.to_string(),
                factor,
                last: unit_at,
            },
        };
    }
    match counted_noun(view, unit_at, end, num.low == 1.0) {
        Some(noun) => found(view.raw(noun), noun),
        None => Unit::Nothing,
    }
}

/// Words that never are the thing counted.
fn is_stop(lower: &str) -> bool {
    listed(WordList::QuantityStopwords, lower)
}

/// A word that may name what is counted.
fn is_noun_like(view: &TokenView<'_>, i: usize, end: usize) -> bool {
    if i >= end || view.kind(i) != Some(TokenKind::Word) {
        return false;
    }
    let lower = view.word(i);
    if is_stop(lower) || view::month(lower).is_some() || crate::time::weekday(lower).is_some() {
        return false;
    }
    if !lower.bytes().all(|b| b.is_ascii_alphabetic() || b == b'-') {
        return false;
    }
    if number::small_word(lower).is_some() || number::scale_word(lower).is_some() {
        return false;
    }
    !view.starts_upper(i) || view.tag_is(i, PosTag::is_plural_noun)
}

/// The token of the noun counted after a number, if one follows at `at`.
fn counted_noun(view: &TokenView<'_>, at: usize, end: usize, singular: bool) -> Option<usize> {
    if !is_noun_like(view, at, end) {
        return None;
    }
    if view.tag_is(at, PosTag::is_plural_noun) && !view.tag_is(at, PosTag::is_adjective) {
        return Some(at);
    }
    let second_fits = is_noun_like(view, at + 1, end)
        && (view.tag_is(at + 1, PosTag::is_plural_noun) || singular)
        && !view.tag_is(at + 1, PosTag::is_past_form);
    if second_fits
        && (view.tag_is(at, PosTag::is_adjective)
            || (!view.tag_is(at, PosTag::is_plural_noun)
                && view.tag_is(at + 1, PosTag::is_plural_noun)))
    {
        return Some(at + 1);
    }
    if view.tag_is(at, PosTag::is_adjective) {
        // "20 former crew members": an adjective and a noun before the plural.
        let third_fits = is_noun_like(view, at + 1, end)
            && is_noun_like(view, at + 2, end)
            && view.tag_is(at + 2, PosTag::is_plural_noun);
        return third_fits.then_some(at + 2);
    }
    if view.tag_is(at, view::is_verb_form_or_adverb) {
        return None;
    }
    Some(at)
}

/// Nouns after which a number names a thing: "Route 66", "page 12".
fn is_identifying_noun(lower: &str) -> bool {
    listed(WordList::IdentifyingNouns, lower)
}

/// Capitalized words that start a sentence or phrase before a number without
/// naming it: "About 200", "In 2016".
fn is_capital_function_word(lower: &str) -> bool {
    is_stop(lower) || listed(WordList::QuantityOpeners, lower)
}

/// Whether a number in digits names a thing, dates something or is a year,
/// rather than counting.
fn names_rather_than_counts(
    view: &TokenView<'_>,
    first: usize,
    sentence_start: usize,
    last: usize,
    num: &Number,
    (unit, unit_at): (&str, usize),
) -> bool {
    let prev = first.checked_sub(1).filter(|p| *p >= sentence_start);
    if let Some(p) = prev {
        let lower = view.word(p);
        if view::month_at(view, p).is_some() || is_identifying_noun(lower) {
            return true;
        }
        if view.is_capitalized(p)
            && !is_capital_function_word(lower)
            && crate::time::weekday(lower).is_none()
        {
            return true;
        }
    }
    if view::month_at(view, last).is_some() && matches!(num.form, Form::Digits { .. }) {
        return true;
    }
    let next = view.word(last);
    if view::meridiem(next).is_some() || matches!(next, "o'clock" | "o’clock") {
        return true;
    }
    // "10 Downing Street", "1600 Pennsylvania Avenue": an address.
    if unit.is_empty()
        && view.starts_upper(last)
        && (last..last + 4).any(|k| is_street_word(view.word(k)))
    {
        return true;
    }
    if num.form == (Form::Digits { scaled: false }) {
        let written = view.word(first);
        let year_like = written.len() == 4
            && written.bytes().all(|b| b.is_ascii_digit())
            && (1500.0..=2100.0).contains(&num.low);
        if year_like
            && !((!unit.is_empty() && view.tag_is(unit_at, PosTag::is_plural_noun))
                || time_unit(unit).is_some())
        {
            return true;
        }
    }
    false
}

/// The last word of a street's name.
fn is_street_word(lower: &str) -> bool {
    listed(WordList::StreetWords, lower)
}

/// "aged 37", "age 37".
fn aged(view: &TokenView<'_>, i: usize, end: usize) -> Option<(Quantity, usize)> {
    if !matches!(view.word(i), "aged" | "age") || i + 1 >= end {
        return None;
    }
    let value = number::digits(view.word(i + 1)).filter(|v| *v >= 0.0 && *v <= 130.0)?;
    Some(emit(
        view,
        i,
        i + 1,
        Bound::Exact,
        value,
        value,
        "years of age".to_string(),
    ))
}

/// A whole number from 1 to 120 that is an age by its place: set off by
/// commas after a name or noun ("Smith, 37, said", "the suspect, 28,"), or
/// reached ("turned 40").
fn bare_age(
    view: &TokenView<'_>,
    at: usize,
    num: &Number,
    bound: Bound,
    sentence_start: usize,
) -> Option<(Quantity, usize)> {
    let value = num.low;
    if bound != Bound::Exact
        || num.end != at + 1
        || value.fract() != 0.0
        || !(1.0..=120.0).contains(&value)
    {
        return None;
    }
    let previous = at.checked_sub(1).filter(|p| *p >= sentence_start)?;
    let digits = num.form == (Form::Digits { scaled: false });
    let reached = matches!(view.word(previous), "turned" | "turns" | "turning" | "turn")
        && (digits || num.form == Form::Words);
    let appositive = digits
        && previous > sentence_start
        && view.word(previous) == ","
        && view.kind(previous - 1) == Some(TokenKind::Word)
        && !is_stop(view.word(previous - 1))
        && matches!(view.word(at + 1), "," | "." | ";")
        && !view.word(at).contains(['.', ',']);
    (reached || appositive).then(|| {
        emit(
            view,
            at,
            at,
            bound,
            value,
            value,
            "years of age".to_string(),
        )
    })
}

/// One token that joins a number to a word: "37-year-old", "four-year",
/// "30-minute", "10-point", "200-300".
fn compound(view: &TokenView<'_>, i: usize, at: usize, end: usize) -> Option<(Quantity, usize)> {
    if at >= end {
        return None;
    }
    let lower = view.word(at);
    let mut parts = lower.split('-');
    let head = parts.next()?;
    let rest: Vec<&str> = parts.collect();
    let value = number::digits(head).or_else(|| number::small_word(head))?;
    let prev = view.word(at.wrapping_sub(1));
    if at > 0 && (view::month_at(view, at - 1).is_some() || is_identifying_noun(prev)) {
        // "September 16-19", "No. 3-A": dates and names, not amounts.
        return None;
    }
    let bound = if at > i {
        modifier(view, i, end).0
    } else {
        Bound::Exact
    };
    match rest.as_slice() {
        [second] if number::digits(second).is_some() && number::digits(head).is_some() => {
            let high = number::digits(second)?;
            let phone_like = head.len() == 3 && second.len() == 4;
            (high > value && !phone_like).then(|| {
                let last = at;
                match unit_after(
                    view,
                    &number::Number {
                        low: value,
                        high,
                        end: at + 1,
                        form: Form::Digits { scaled: false },
                        scale: 1.0,
                    },
                    None,
                    at + 1,
                    end,
                ) {
                    Unit::Found { unit, factor, last } => emit(
                        view,
                        i,
                        last,
                        Bound::Exact,
                        value * factor,
                        high * factor,
                        unit,
                    ),
                    _ => emit(view, i, last, Bound::Exact, value, high, String::new()),
                }
            })
        }
        [unit, "old"] => {
            let (plural, factor) = time_unit(unit)?;
            Some(emit(
                view,
                i,
                at,
                bound,
                value * factor,
                value * factor,
                format!("{plural} of age"),
            ))
        }
        ["plus"] => {
            let num = number::Number {
                low: value,
                high: value,
                end: at + 1,
                form: Form::Digits { scaled: false },
                scale: 1.0,
            };
            let (unit, factor, last) = match unit_after(view, &num, None, at + 1, end) {
                Unit::Found { unit, factor, last } => (unit, factor, last),
                _ => (String::new(), 1.0, at),
            };
            Some(emit(
                view,
                i,
                last,
                Bound::Lower,
                value * factor,
                value * factor,
                unit,
            ))
        }
        [word] if word.bytes().all(|b| b.is_ascii_alphabetic()) => {
            if let Some((plural, factor)) = time_unit(word) {
                return Some(emit(
                    view,
                    i,
                    at,
                    bound,
                    value * factor,
                    value * factor,
                    plural.to_string(),
                ));
            }
            if number::small_word(lower).is_some() {
                return None;
            }
            let written = view.raw(at);
            let unit = written.split_once('-').map_or(written, |(_, w)| w);
            Some(emit(view, i, at, bound, value, value, unit.to_string()))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use attest_doc::Article;

    fn tag(text: &str) -> Vec<(String, Option<f64>, Option<f64>, String)> {
        let mut doc = Doc::new(Article::new("t", text));
        crate::testing::prepare(&mut doc);
        QuantityTagger::new()
            .tag(&doc)
            .into_iter()
            .map(|q| (doc.span_text(q.span).to_string(), q.low, q.high, q.unit))
            .collect()
    }

    fn one(text: &str) -> (String, Option<f64>, Option<f64>, String) {
        let mut found = tag(text);
        assert_eq!(found.len(), 1, "one quantity in {text:?}: {found:?}");
        found.remove(0)
    }

    #[test]
    fn money_with_scales() {
        assert_eq!(
            one("The plan costs $1.2 billion."),
            (
                "$1.2 billion".into(),
                Some(1.2e9),
                Some(1.2e9),
                "USD".into()
            )
        );
        assert_eq!(one("It raised £7.2bn last year").3, "GBP");
        assert_eq!(one("It raised £7.2bn last year").1, Some(7.2e9));
    }

    #[test]
    fn the_counted_noun_is_read_from_the_tags() {
        // Tagged adjectives before the noun, where suffixes guessed "local"
        // and "notable" to be the thing counted.
        assert_eq!(
            one("The city employs 8,000 local police officers.").0,
            "8,000 local police officers"
        );
        assert_eq!(
            one("Every bill passed, with one notable exception.").0,
            "one notable exception"
        );
        // An adverb or a pronoun's word after "one" counts nothing.
        assert!(tag("No one else would sign it.").is_empty());
        assert!(tag("The answer is one soon to be known.").is_empty());
    }

    #[test]
    fn bounds_and_vague_amounts() {
        assert_eq!(
            one("More than 200 people came."),
            (
                "More than 200 people".into(),
                Some(200.0),
                None,
                "people".into()
            )
        );
        assert_eq!(
            one("They hired hundreds of workers."),
            (
                "hundreds of workers".into(),
                Some(200.0),
                None,
                "workers".into()
            )
        );
    }

    #[test]
    fn identifiers_and_years_are_skipped() {
        assert!(tag("He drove Route 66 in 2016 as the No. 2 seed.").is_empty());
    }

    #[test]
    fn overflowing_numbers_are_dropped_and_runs_do_not_recurse() {
        assert!(
            tag(&"dozen ".repeat(400))
                .iter()
                .all(|q| q.1.is_none_or(f64::is_finite))
        );
        assert!(tag(&"between ".repeat(3000)).is_empty());
    }

    #[test]
    fn ages_and_durations() {
        assert_eq!(
            one("A 37-year-old man was held."),
            (
                "37-year-old".into(),
                Some(37.0),
                Some(37.0),
                "years of age".into()
            )
        );
        assert_eq!(
            one("She served four years."),
            ("four years".into(), Some(4.0), Some(4.0), "years".into())
        );
        assert!(tag("She left four years ago.").is_empty());
    }
}
