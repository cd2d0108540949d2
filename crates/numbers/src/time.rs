//! The time tagger: time expressions resolved against the publication time.
//!
//! # Conventions
//!
//! Values are ISO 8601, in the article's local calendar (the offset of the
//! publication instant; no time zone conversion is made):
//!
//! | expression | value | granularity |
//! |---|---|---|
//! | "May 5, 2025", "5 May 2025", "2025-05-05", "5/5/25" | `2025-05-05` | day |
//! | "May 2025", "last month" | `2025-05` | month |
//! | "last week", "two weeks ago" | `2026-W09` (ISO week) | week |
//! | "in 2016", "this year", "four years ago" | `2016` | year |
//! | "the 1990s" | `1990/1999` | year |
//! | "Monday night" | `2026-03-02T20:00/2026-03-03T06:00` | part of day |
//! | "7:30 p.m.", "Monday at 7:30 p.m." | `2026-03-04T19:30` | minute |
//! | "four years", "30 minutes" (durations) | `P4Y`, `PT30M` | the unit's |
//!
//! - **Slashed dates** are read month first, the US convention of most English
//!   news: "5/6/25" is May 6. A two-digit year is 20yy below 70 and 19yy from 70.
//! - **Dates without a year** ("May 5", "in May") and **weekdays** take the year
//!   or week from the publication date and the tense of the clause: the words
//!   before the expression (or after it, when it opens the sentence) decide: a
//!   future marker ("will", "'ll", "scheduled", "expected", "plans") picks the
//!   first such day on or after the publication date, and so does a verb of
//!   schedule in the present ("begins", "opens"); a verb in the past tense, as
//!   the part-of-speech layer tags it ("said", "was", "closed"), or "since",
//!   "ago" or "last" picks the last on or before it (a participle alone says
//!   no tense: "was set for May 5" is past, "is set for May 5" is not). With no marker a
//!   weekday is the most recent on or before publication; a month-day is the
//!   next one when it lies within 90 days, else the last one; a month is the
//!   next one within three months, else the last one. "Last Monday" is the
//!   most recent Monday before the publication date, "next Monday" the first
//!   after it, "this Monday" the Monday of the publication's week (weeks run
//!   Monday to Sunday); "last May" is the most recent May before the
//!   publication month.
//! - **Weekends** are intervals of two days, Saturday to Sunday
//!   (`2026-02-28/2026-03-01`, granularity day): "last weekend" is the previous
//!   week's, "next weekend" the following week's, "this weekend" and "(over)
//!   the weekend" this week's, or in the past tense the last one begun on or
//!   before the publication date.
//! - **Parts of day** are intervals: morning 06:00–12:00, afternoon 12:00–18:00,
//!   evening 18:00–24:00 (written as the next day's 00:00), night and overnight
//!   20:00 to 06:00 the next day; "last night" is the night before the
//!   publication date, "tonight" its night.
//! - **Times of day** ("7:30 p.m.", "7 a.m.", "19:30" after "at", "noon") take
//!   the date written next to them ("Monday at 7 p.m.", "at noon on May 5"),
//!   otherwise the publication date. A time zone written after them ("ET") is
//!   kept in the span; the value stays local time.
//! - **Relative expressions**: "yesterday", "today", "tomorrow", "earlier in the
//!   day", "last/this/next week|month|year", "earlier/later this week|month|year"
//!   "N days/weeks/months/years ago" and, in a clause that looks ahead ("will",
//!   "expected"), "in N days/weeks/months/years" resolve by calendar
//!   arithmetic; "N hours/minutes ago" and "in N hours" need the publication
//!   instant and give minutes. "In N weeks" in any other clause is a duration.
//!   "N days later/earlier" count from an event of the story and stay
//!   unresolved.
//!   "early"/"late" before an expression are kept in the span, not in the value.
//! - **Durations** are ISO 8601 durations with the granularity of their unit;
//!   seconds, minutes and hours have minute granularity, decades count as ten
//!   years ("P20Y"). They need no publication time.
//! - **Unresolved**: without a publication time every expression that depends on
//!   it has no value and says why; its granularity is still given. A date that
//!   does not exist ("February 30") is unresolved too.

use attest_doc::{
    Doc, Granularity, Layer, LayerError, PosTag, Published, Span, Stage, TimeExpr, TokenKind,
    TokenView,
};
use attest_lang::{TimeWordUse, WordList, listed, time_word};
use jiff::civil::{Date, DateTime, Weekday};

use crate::number::{self, Form};
use crate::quantity::time_unit;
use crate::view;

/// Why an expression relative to the publication time has no value.
pub const NO_PUBLICATION_TIME: &str =
    "relative to the publication time, which the article does not give";
/// Why "three hours ago" has no value when only the publication date is known.
pub const NO_PUBLICATION_CLOCK: &str =
    "relative to the publication time of day, which the article does not give";
/// Why "four days later" has no value: it counts from an event, not from the
/// publication time.
pub const RELATIVE_TO_EVENT: &str =
    "relative to an event the article tells of, not to the publication time";
/// Why "February 30" has no value.
pub const NO_SUCH_DATE: &str = "no such calendar date";

/// Finds time expressions and resolves them against `doc.article().published`.
///
/// See the [module documentation](self) for the conventions.
#[derive(Clone, Copy, Debug, Default)]
pub struct TimeTagger;

impl TimeTagger {
    /// A time tagger.
    pub fn new() -> TimeTagger {
        TimeTagger
    }

    /// The time expressions of a segmented document, in text order.
    pub fn tag(&self, doc: &Doc) -> Vec<TimeExpr> {
        let view = TokenView::new(doc);
        let anchor = doc.article().published.map(Anchor::new);
        let mut out = Vec::new();
        for sentence in doc.sentences() {
            let (start, end) = (sentence.tokens.start.index(), sentence.tokens.end.index());
            let end = end.min(view.len());
            let mut i = start;
            while i < end {
                match expression(&view, i, start, end) {
                    Some(expr) => {
                        let tense = tense(&view, expr.first, expr.last, start, end);
                        out.push(finish(&view, &expr, anchor, tense));
                        i = (expr.last + 1).max(i + 1);
                    }
                    None => i += 1,
                }
            }
        }
        out
    }
}

impl Stage for TimeTagger {
    const NAME: &'static str = "times";
    const REQUIRES: &'static [Layer] = &[Layer::Tokens, Layer::Sentences, Layer::Pos];
    const ASSIGNS: &'static [Layer] = &[Layer::Times];

    fn run(&self, doc: &mut Doc) -> Result<(), LayerError> {
        let times = self.tag(doc);
        doc.set_times(times)
    }
}

#[derive(Clone, Copy, Debug)]
struct Anchor {
    date: Date,
    datetime: Option<DateTime>,
}

impl Anchor {
    fn new(published: Published) -> Anchor {
        match published {
            Published::Instant(timestamp, offset) => {
                let datetime = offset.to_datetime(timestamp);
                Anchor {
                    date: datetime.date(),
                    datetime: Some(datetime),
                }
            }
            Published::Date(date) => Anchor {
                date,
                datetime: None,
            },
        }
    }
}

/// The weekday of a weekday name.
pub(crate) fn weekday(lower: &str) -> Option<Weekday> {
    let number = attest_lang::weekday(lower)?;
    Weekday::from_monday_one_offset(i8::try_from(number).ok()?).ok()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rel {
    Last,
    This,
    Next,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tense {
    Past,
    Future,
    Unknown,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    Morning,
    Afternoon,
    Evening,
    Night,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum When {
    Date {
        year: Option<i16>,
        month: i8,
        day: i8,
    },
    Month {
        year: Option<i16>,
        month: i8,
        rel: Rel,
    },
    Year(i16),
    Decade(i16),
    Weekday {
        day: Weekday,
        rel: Rel,
    },
    /// "this Friday": the day of the publication's week.
    WeekdayOfThisWeek(Weekday),
    /// "last weekend", "this weekend", "over the weekend".
    Weekend(Rel),
    Days(i32),
    Weeks(i32),
    Months(i32),
    Years(i32),
    Ago {
        count: f64,
        unit: &'static str,
    },
    /// "in two weeks" where the clause looks ahead.
    Ahead {
        count: f64,
        unit: &'static str,
    },
    /// "four days later": relative to an event of the article, not to its date.
    After {
        unit: &'static str,
    },
    Duration {
        count: f64,
        unit: &'static str,
    },
    /// A time of day with no date written next to it.
    Clock,
}

#[derive(Clone, Copy, Debug)]
struct Expr {
    when: When,
    part: Option<Part>,
    clock: Option<(i8, i8)>,
    first: usize,
    last: usize,
}

impl Expr {
    fn new(when: When, first: usize, last: usize) -> Expr {
        Expr {
            when,
            part: None,
            clock: None,
            first,
            last,
        }
    }

    /// Whether a time of day or part of day may attach to it.
    fn is_day(&self) -> bool {
        matches!(
            self.when,
            When::Date { .. } | When::Weekday { .. } | When::WeekdayOfThisWeek(_) | When::Days(_)
        )
    }
}

/// Cheap test that keeps the matcher off most tokens.
fn may_start(view: &TokenView<'_>, i: usize) -> bool {
    let lower = view.word(i);
    let Some(first) = lower.bytes().next() else {
        return false;
    };
    if first.is_ascii_digit() || first == b'\'' {
        return true;
    }
    let head = lower.split('-').next().unwrap_or(lower);
    matches!(
        head,
        "early"
            | "late"
            | "mid"
            | "earlier"
            | "later"
            | "noon"
            | "yesterday"
            | "today"
            | "tomorrow"
            | "tonight"
            | "last"
            | "this"
            | "next"
            | "past"
            | "the"
            | "a"
            | "an"
    ) || weekday(lower).is_some()
        || view::month(lower).is_some()
        || number::small_word(head).is_some()
}

fn expression(view: &TokenView<'_>, i: usize, start: usize, end: usize) -> Option<Expr> {
    if !may_start(view, i) {
        return None;
    }
    let lower = view.word(i);
    if matches!(lower, "early" | "late" | "mid" | "earlier" | "later")
        && let Some(mut expr) = unmodified(view, i + 1, start, end).filter(|e| e.first == i + 1)
        && !matches!(
            expr.when,
            When::Duration { .. } | When::Ago { .. } | When::Ahead { .. }
        )
    {
        expr.first = i;
        return Some(expr);
    }
    unmodified(view, i, start, end)
}

/// An expression without "early"/"late" before it.
fn unmodified(view: &TokenView<'_>, i: usize, start: usize, end: usize) -> Option<Expr> {
    if !may_start(view, i) {
        return None;
    }
    let mut expr = if let Some(clock) = clock(view, i, start, end) {
        let mut expr = Expr::new(When::Clock, i, clock.1);
        expr.clock = Some(clock.0);
        if let Some(day) = day_after_clock(view, clock.1 + 1, start, end) {
            expr.when = day.when;
            expr.part = day.part;
            expr.last = day.last;
        }
        return Some(expr);
    } else {
        base(view, i, start, end)?
    };
    if expr.is_day() {
        extend_day(view, &mut expr, start, end);
    }
    Some(expr)
}

/// A day, with an optional part of day: what a time of day may attach to
/// ("at 7 p.m. on Monday", "at 7 p.m. Monday night").
fn day_after_clock(view: &TokenView<'_>, at: usize, start: usize, end: usize) -> Option<Expr> {
    let at = if matches!(view.word(at), "on" | ",") {
        at + 1
    } else {
        at
    };
    let mut expr = base(view, at, start, end).filter(Expr::is_day)?;
    if let Some((part, last)) = part_of_day(view, expr.last + 1, end) {
        expr.part = Some(part);
        expr.last = last;
    }
    Some(expr)
}

/// After a day: a part of day or a time of day ("Monday night", "May 5 at 9 a.m.").
fn extend_day(view: &TokenView<'_>, expr: &mut Expr, start: usize, end: usize) {
    let next = expr.last + 1;
    if expr.part.is_none()
        && let Some((part, last)) = part_of_day(view, next, end)
    {
        expr.part = Some(part);
        expr.last = last;
    }
    let next = expr.last + 1;
    let at = if matches!(view.word(next), "at" | "," | "around" | "about" | "by") {
        next + 1
    } else {
        next
    };
    if let Some((time, last)) = clock(view, at, start, end) {
        expr.clock = Some(time);
        expr.last = last;
    }
}

fn part_of_day(view: &TokenView<'_>, i: usize, end: usize) -> Option<(Part, usize)> {
    if i >= end {
        return None;
    }
    let part = match view.word(i) {
        "morning" => Part::Morning,
        "afternoon" => Part::Afternoon,
        "evening" => Part::Evening,
        "night" | "overnight" => Part::Night,
        _ => return None,
    };
    Some((part, i))
}

/// A time of day at `i`: its hour and minute and its last token.
fn clock(view: &TokenView<'_>, i: usize, start: usize, end: usize) -> Option<((i8, i8), usize)> {
    if i >= end {
        return None;
    }
    let lower = view.word(i);
    let (hour, minute, mut last, meridiem) = if lower == "noon" {
        (12, 0, i, None)
    } else if let Some((digits, suffix)) = split_clock_suffix(lower) {
        let (h, m) = hour_minute(digits)?;
        (h, m, i, Some(view::meridiem(suffix)?))
    } else {
        let (h, m) = hour_minute(lower)?;
        match view::meridiem(view.word(i + 1)).filter(|_| i + 1 < end) {
            Some(pm) => (h, m, i + 1, Some(pm)),
            None => {
                let cue = i > start
                    && matches!(
                        view.word(i - 1),
                        "at" | "by"
                            | "until"
                            | "till"
                            | "from"
                            | "before"
                            | "after"
                            | "around"
                            | "about"
                            | "since"
                    );
                if !lower.contains(':') || !(cue || h >= 13) {
                    return None;
                }
                (h, m, i, None)
            }
        }
    };
    let hour = match meridiem {
        Some(pm) => {
            if !(1..=12).contains(&hour) {
                return None;
            }
            if pm { hour % 12 + 12 } else { hour % 12 }
        }
        None => hour,
    };
    if !(0..=23).contains(&hour) || !(0..=59).contains(&minute) {
        return None;
    }
    if last + 1 < end && listed(WordList::TimeZones, view.raw(last + 1)) {
        last += 1;
    }
    Some(((hour, minute), last))
}

/// "7:30pm" as "7:30" and "pm".
fn split_clock_suffix(lower: &str) -> Option<(&str, &str)> {
    let at = lower.find(|c: char| c.is_ascii_alphabetic())?;
    let (digits, suffix) = lower.split_at(at);
    (!digits.is_empty()).then_some((digits, suffix))
}

/// "7", "7:30", "19:30".
fn hour_minute(token: &str) -> Option<(i8, i8)> {
    let (h, m) = match token.split_once(':') {
        Some((h, m)) if m.len() == 2 => (h, m),
        Some(_) => return None,
        None => (token, "00"),
    };
    if h.is_empty()
        || h.len() > 2
        || !h.bytes().all(|b| b.is_ascii_digit())
        || !m.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    Some((h.parse().ok()?, m.parse().ok()?))
}

/// A whole number from 1 to 31 in digits or as an ordinal ("5", "5th").
fn day_of_month(lower: &str) -> Option<i8> {
    let digits = lower
        .strip_suffix("st")
        .or_else(|| lower.strip_suffix("nd"))
        .or_else(|| lower.strip_suffix("rd"))
        .or_else(|| lower.strip_suffix("th"))
        .unwrap_or(lower);
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let day: i8 = digits.parse().ok()?;
    (1..=31).contains(&day).then_some(day)
}

fn four_digit_year(lower: &str) -> Option<i16> {
    if lower.len() != 4 || !lower.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let year: i16 = lower.parse().ok()?;
    (1000..=2200).contains(&year).then_some(year)
}

/// A year after a date: ", 2025" or " 2025"; its last token.
fn year_after(view: &TokenView<'_>, at: usize, end: usize) -> Option<(i16, usize)> {
    if at < end
        && let Some(year) = four_digit_year(view.word(at))
    {
        return Some((year, at));
    }
    if at + 1 < end && view.word(at) == "," {
        return four_digit_year(view.word(at + 1)).map(|y| (y, at + 1));
    }
    None
}

/// "May 5", "May 5, 2025", "June 21st" at `i`, whose month is `month`.
fn month_date(view: &TokenView<'_>, i: usize, month: i8, end: usize) -> Option<Expr> {
    let day = day_of_month(view.word(i + 1)).filter(|_| i + 1 < end)?;
    if let Some((year, last)) = year_after(view, i + 2, end) {
        return Some(Expr::new(
            When::Date {
                year: Some(year),
                month,
                day,
            },
            i,
            last,
        ));
    }
    Some(Expr::new(
        When::Date {
            year: None,
            month,
            day,
        },
        i,
        i + 1,
    ))
}

fn base(view: &TokenView<'_>, i: usize, start: usize, end: usize) -> Option<Expr> {
    if i >= end {
        return None;
    }
    let lower = view.word(i);
    let at = |k: usize| if k < end { view.word(k) } else { "" };
    if let Some(month) = view::month_at(view, i) {
        if let Some(date) = month_date(view, i, month, end) {
            return Some(date);
        }
        if let Some(year) = four_digit_year(at(i + 1)) {
            return Some(Expr::new(
                When::Month {
                    year: Some(year),
                    month,
                    rel: Rel::This,
                },
                i,
                i + 1,
            ));
        }
        let cued = i > start && time_word(view.word(i - 1), TimeWordUse::MonthCue);
        if cued && view.kind(i) == Some(TokenKind::Word) {
            return Some(Expr::new(
                When::Month {
                    year: None,
                    month,
                    rel: Rel::This,
                },
                i,
                i,
            ));
        }
        return None;
    }
    if view.starts_upper(i)
        && let Some(day) = weekday(lower)
    {
        // "Monday, March 2, 2026": the date written out wins over the weekday.
        if at(i + 1) == ","
            && let Some(date) =
                view::month_at(view, i + 2).and_then(|month| month_date(view, i + 2, month, end))
        {
            return Some(Expr { first: i, ..date });
        }
        return Some(Expr::new(
            When::Weekday {
                day,
                rel: Rel::This,
            },
            i,
            i,
        ));
    }
    if matches!(lower, "yesterday" | "today" | "tomorrow" | "tonight")
        && view.starts_upper(i)
        && i > start
        && view.kind(i - 1) == Some(TokenKind::Word)
    {
        // "USA Today", "the Today show": a capital inside a sentence makes a name.
        return None;
    }
    match lower {
        "yesterday" => return Some(Expr::new(When::Days(-1), i, i)),
        "today" => return Some(Expr::new(When::Days(0), i, i)),
        "tomorrow" => return Some(Expr::new(When::Days(1), i, i)),
        "tonight" => {
            let mut expr = Expr::new(When::Days(0), i, i);
            expr.part = Some(Part::Night);
            return Some(expr);
        }
        "earlier" | "later" if at(i + 1) == "in" && at(i + 2) == "the" => {
            let when = match at(i + 3) {
                "day" => When::Days(0),
                "week" => When::Weeks(0),
                "month" => When::Months(0),
                "year" => When::Years(0),
                _ => return None,
            };
            return Some(Expr::new(when, i, i + 3));
        }
        "the"
            if at(i + 1) == "weekend"
                && i > start
                && matches!(
                    view.word(i - 1),
                    "over" | "during" | "on" | "at" | "through"
                ) =>
        {
            return Some(Expr::new(When::Weekend(Rel::This), i, i + 1));
        }
        "earlier" | "later" if matches!(at(i + 1), "today" | "this") => {
            let inner = base(view, i + 1, start, end)?;
            return Some(Expr { first: i, ..inner });
        }
        "last" | "this" | "next" | "past" => {
            let rel = match lower {
                "last" | "past" => Rel::Last,
                "this" => Rel::This,
                _ => Rel::Next,
            };
            let offset = match rel {
                Rel::Last => -1,
                Rel::This => 0,
                Rel::Next => 1,
            };
            let word = at(i + 1);
            let when = match word {
                "weekend" => When::Weekend(rel),
                "week" => When::Weeks(offset),
                "month" => When::Months(offset),
                "year" => When::Years(offset),
                "morning" | "afternoon" | "evening" | "night" if rel != Rel::Next => {
                    let mut expr = Expr::new(
                        When::Days(if word == "night" { offset } else { 0 }),
                        i,
                        i + 1,
                    );
                    expr.part = part_of_day(view, i + 1, end).map(|p| p.0);
                    if rel == Rel::Last && word != "night" {
                        return None;
                    }
                    return Some(expr);
                }
                _ => {
                    if let Some(day) = weekday(word).filter(|_| view.starts_upper(i + 1)) {
                        if rel == Rel::This {
                            When::WeekdayOfThisWeek(day)
                        } else {
                            When::Weekday { day, rel }
                        }
                    } else if let Some(month) = view::month_at(view, i + 1) {
                        When::Month {
                            year: None,
                            month,
                            rel,
                        }
                    } else {
                        return None;
                    }
                }
            };
            if lower == "past" {
                return None;
            }
            return Some(Expr::new(when, i, i + 1));
        }
        _ => {}
    }
    if lower.starts_with('\'') {
        let digits = lower.strip_prefix('\'')?.strip_suffix('s')?;
        let yy: i16 = digits.parse().ok().filter(|_| digits.len() == 2)?;
        let year = if yy < 30 { 2000 + yy } else { 1900 + yy };
        return Some(Expr::new(When::Decade(year), i, i));
    }
    if !lower.starts_with(|c: char| c.is_ascii_digit() || c.is_ascii_alphabetic()) {
        return None;
    }
    if let Some(date) = numeric_date(lower) {
        return Some(Expr::new(date, i, i));
    }
    if let Some(decade) = lower
        .strip_suffix('s')
        .and_then(four_digit_year)
        .filter(|y| y % 10 == 0)
    {
        return Some(Expr::new(When::Decade(decade), i, i));
    }
    if let Some(day) = day_of_month(lower)
        && let Some(month) = view::month_at(view, i + 1).filter(|_| i + 1 < end)
    {
        if let Some(year) = four_digit_year(at(i + 2)) {
            return Some(Expr::new(
                When::Date {
                    year: Some(year),
                    month,
                    day,
                },
                i,
                i + 2,
            ));
        }
        return Some(Expr::new(
            When::Date {
                year: None,
                month,
                day,
            },
            i,
            i + 1,
        ));
    }
    if let Some(year) = lower.strip_prefix("mid-").and_then(four_digit_year) {
        return Some(Expr::new(When::Year(year), i, i));
    }
    if let Some(year) = four_digit_year(lower) {
        return is_year(view, i, start, end).then(|| Expr::new(When::Year(year), i, i));
    }
    amount(view, i, start, end)
}

/// "2025-05-05", "5/5/25", "5/5/2025".
fn numeric_date(lower: &str) -> Option<When> {
    let parts: Vec<&str> = if lower.contains('-') {
        lower.split('-').collect()
    } else {
        lower.split('/').collect()
    };
    if parts.len() != 3
        || !parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    let (year, month, day) = if lower.contains('-') {
        if parts.first()?.len() != 4 {
            return None;
        }
        (
            parts.first()?.parse().ok()?,
            parts.get(1)?.parse().ok()?,
            parts.get(2)?.parse().ok()?,
        )
    } else {
        let year_text = parts.get(2)?;
        let year: i16 = match year_text.len() {
            2 => {
                let yy: i16 = year_text.parse().ok()?;
                if yy < 70 { 2000 + yy } else { 1900 + yy }
            }
            4 => year_text.parse().ok()?,
            _ => return None,
        };
        (
            year,
            parts.first()?.parse().ok()?,
            parts.get(1)?.parse().ok()?,
        )
    };
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    Some(When::Date {
        year: Some(year),
        month,
        day,
    })
}

/// Whether a four-digit number stands for a year: not money, not a count, not
/// a name ("Windows 2000").
fn is_year(view: &TokenView<'_>, i: usize, start: usize, end: usize) -> bool {
    if i > start {
        let prev = view.word(i - 1);
        if matches!(view.kind(i - 1), Some(TokenKind::Symbol))
            || matches!(prev, "no." | "#" | "number" | "route" | "room" | "flight")
        {
            return false;
        }
        if view.is_capitalized(i - 1)
            && !matches!(
                prev,
                "in" | "since"
                    | "until"
                    | "by"
                    | "of"
                    | "from"
                    | "through"
                    | "during"
                    | "before"
                    | "after"
                    | "the"
                    | "early"
                    | "late"
                    | "mid"
                    | "for"
            )
            && view::month_at(view, i - 1).is_none()
        {
            return false;
        }
    }
    if i + 1 < end {
        let next = view.word(i + 1);
        if matches!(
            next,
            "%" | "percent" | "people" | "men" | "women" | "children"
        ) || number::scale_word(next).is_some()
        {
            return false;
        }
        if view.tag_is(i + 1, PosTag::is_plural_noun)
            && view.kind(i + 1) == Some(TokenKind::Word)
            && !view.starts_upper(i + 1)
        {
            return false;
        }
    }
    true
}

/// A number with a time unit: a duration, or a point in time with "ago".
fn amount(view: &TokenView<'_>, i: usize, start: usize, end: usize) -> Option<Expr> {
    let lower = view.word(i);
    if let Some((head, unit)) = lower.split_once('-') {
        // "four-year term", "30-minute", but not "37-year-old".
        let count = number::digits(head).or_else(|| number::small_word(head))?;
        let (unit, factor) = time_unit(unit)?;
        return Some(Expr::new(
            When::Duration {
                count: count * factor,
                unit,
            },
            i,
            i,
        ));
    }
    let (count, unit_at) = if matches!(lower, "a" | "an") {
        let (unit, _) = time_unit(view.word(i + 1))?;
        if view.word(i + 2) != "ago" || i + 2 >= end {
            return None;
        }
        let _ = unit;
        (1.0, i + 1)
    } else {
        let num = number::parse(view, i, end, false)?;
        if !matches!(num.form, Form::Digits { .. } | Form::Words) || num.low != num.high {
            return None;
        }
        (num.low, num.end)
    };
    if unit_at >= end {
        return None;
    }
    let (unit, factor) = time_unit(view.word(unit_at))?;
    let count = count * factor;
    match view.word(unit_at + 1) {
        "ago" if unit_at + 1 < end => Some(Expr::new(When::Ago { count, unit }, i, unit_at + 1)),
        "later" | "earlier" if unit_at + 1 < end => {
            Some(Expr::new(When::After { unit }, i, unit_at + 1))
        }
        "old" => None,
        _ if i > start
            && view.word(i - 1) == "in"
            && tense(view, i - 1, unit_at, start, end) == Tense::Future =>
        {
            Some(Expr::new(When::Ahead { count, unit }, i - 1, unit_at))
        }
        _ => Some(Expr::new(When::Duration { count, unit }, i, unit_at)),
    }
}

fn tense_at(view: &TokenView<'_>, k: usize) -> Option<Tense> {
    let lower = view.word(k);
    if time_word(lower, TimeWordUse::Future) {
        return Some(Tense::Future);
    }
    if time_word(lower, TimeWordUse::Past) || view.tag_is(k, PosTag::is_past_tense) {
        return Some(Tense::Past);
    }
    None
}

/// The tense of the clause an expression sits in, from the markers within six
/// tokens before it or, when it opens the sentence, after it.
fn tense(view: &TokenView<'_>, first: usize, last: usize, start: usize, end: usize) -> Tense {
    let back = first.saturating_sub(6).max(start);
    // A future marker anywhere before wins: "will be held on May 5" has a past
    // participle nearer to the date than its "will".
    let before: Vec<Tense> = (back..first).filter_map(|k| tense_at(view, k)).collect();
    if before.contains(&Tense::Future) {
        return Tense::Future;
    }
    if before.contains(&Tense::Past) {
        return Tense::Past;
    }
    if first.saturating_sub(start) <= 1 {
        for k in (last + 1)..(last + 8).min(end) {
            if let Some(t) = tense_at(view, k) {
                return t;
            }
        }
    }
    Tense::Unknown
}

type Resolved = Result<(String, Granularity), (Granularity, &'static str)>;

fn finish(view: &TokenView<'_>, expr: &Expr, anchor: Option<Anchor>, tense: Tense) -> TimeExpr {
    let span = view
        .bytes(expr.first, expr.last)
        .and_then(|(s, e)| Span::try_new(s, e).ok())
        .unwrap_or_default();
    match resolve(expr, anchor, tense) {
        Ok((value, granularity)) => TimeExpr {
            span,
            value: Some(value),
            granularity: Some(granularity),
            unresolved: None,
        },
        Err((granularity, why)) => TimeExpr {
            span,
            value: None,
            granularity: Some(granularity),
            unresolved: Some(why.to_string()),
        },
    }
}

fn resolve(expr: &Expr, anchor: Option<Anchor>, tense: Tense) -> Resolved {
    let need = |g: Granularity| anchor.ok_or((g, NO_PUBLICATION_TIME));
    let day_granularity = if expr.clock.is_some() {
        Granularity::Minute
    } else if expr.part.is_some() {
        Granularity::PartOfDay
    } else {
        Granularity::Day
    };
    let date = match expr.when {
        When::Duration { count, unit } => return Ok(duration(count, unit)),
        When::Year(year) => return Ok((format!("{year:04}"), Granularity::Year)),
        When::Decade(year) => return Ok((format!("{year:04}/{:04}", year + 9), Granularity::Year)),
        When::Month {
            year: Some(year),
            month,
            ..
        } => {
            return Ok((format!("{year:04}-{month:02}"), Granularity::Month));
        }
        When::Month {
            year: None,
            month,
            rel,
        } => {
            let a = need(Granularity::Month)?;
            let (y, m) = pick_month(a.date, month, rel, tense);
            return Ok((format!("{y:04}-{m:02}"), Granularity::Month));
        }
        When::Weeks(n) => {
            let a = need(Granularity::Week)?;
            let date =
                shift_days(a.date, 7 * i64::from(n)).ok_or((Granularity::Week, NO_SUCH_DATE))?;
            return Ok((iso_week(date), Granularity::Week));
        }
        When::Months(n) => {
            let a = need(Granularity::Month)?;
            let (y, m) = add_months(a.date.year(), a.date.month(), n);
            return Ok((format!("{y:04}-{m:02}"), Granularity::Month));
        }
        When::Years(n) => {
            let a = need(Granularity::Year)?;
            return Ok((
                format!("{:04}", i32::from(a.date.year()) + n),
                Granularity::Year,
            ));
        }
        When::Ago { count, unit } => {
            return shifted(-count, unit, need(granularity_of(unit))?);
        }
        When::Ahead { count, unit } => {
            return shifted(count, unit, need(granularity_of(unit))?);
        }
        When::After { unit } => return Err((granularity_of(unit), RELATIVE_TO_EVENT)),
        When::Date {
            year: Some(year),
            month,
            day,
        } => Date::new(year, month, day).map_err(|_| (day_granularity, NO_SUCH_DATE))?,
        When::Date {
            year: None,
            month,
            day,
        } => {
            let a = need(day_granularity)?;
            pick_date(a.date, month, day, tense).ok_or((day_granularity, NO_SUCH_DATE))?
        }
        When::Weekday { day, rel } => {
            let a = need(day_granularity)?;
            pick_weekday(a.date, day, rel, tense).ok_or((day_granularity, NO_SUCH_DATE))?
        }
        When::WeekdayOfThisWeek(day) => {
            let a = need(day_granularity)?;
            let offset = i64::from(day.to_monday_zero_offset())
                - i64::from(a.date.weekday().to_monday_zero_offset());
            shift_days(a.date, offset).ok_or((day_granularity, NO_SUCH_DATE))?
        }
        When::Weekend(rel) => {
            let a = need(Granularity::Day)?;
            let saturday =
                pick_weekend(a.date, rel, tense).ok_or((Granularity::Day, NO_SUCH_DATE))?;
            let sunday = shift_days(saturday, 1).ok_or((Granularity::Day, NO_SUCH_DATE))?;
            return Ok((format!("{saturday}/{sunday}"), Granularity::Day));
        }
        When::Days(n) => {
            let a = need(day_granularity)?;
            shift_days(a.date, i64::from(n)).ok_or((day_granularity, NO_SUCH_DATE))?
        }
        When::Clock => need(Granularity::Minute)?.date,
    };
    if let Some((hour, minute)) = expr.clock {
        return Ok((format!("{date}T{hour:02}:{minute:02}"), Granularity::Minute));
    }
    if let Some(part) = expr.part {
        let next = shift_days(date, 1).ok_or((Granularity::PartOfDay, NO_SUCH_DATE))?;
        let value = match part {
            Part::Morning => format!("{date}T06:00/{date}T12:00"),
            Part::Afternoon => format!("{date}T12:00/{date}T18:00"),
            Part::Evening => format!("{date}T18:00/{next}T00:00"),
            Part::Night => format!("{date}T20:00/{next}T06:00"),
        };
        return Ok((value, Granularity::PartOfDay));
    }
    Ok((date.to_string(), Granularity::Day))
}

fn granularity_of(unit: &str) -> Granularity {
    match unit {
        "seconds" | "minutes" | "hours" => Granularity::Minute,
        "days" => Granularity::Day,
        "weeks" => Granularity::Week,
        "months" => Granularity::Month,
        _ => Granularity::Year,
    }
}

fn format_count(count: f64) -> String {
    if count.fract() == 0.0 && count.abs() < 1e15 {
        format!("{}", count as i64)
    } else {
        format!("{count}")
    }
}

fn duration(count: f64, unit: &str) -> (String, Granularity) {
    let n = format_count(count);
    let value = match unit {
        "seconds" => format!("PT{n}S"),
        "minutes" => format!("PT{n}M"),
        "hours" => format!("PT{n}H"),
        "days" => format!("P{n}D"),
        "weeks" => format!("P{n}W"),
        "months" => format!("P{n}M"),
        _ => format!("P{n}Y"),
    };
    (value, granularity_of(unit))
}

/// The publication time moved by `count` units, back when negative ("four
/// years ago") and ahead when positive ("in two weeks").
fn shifted(count: f64, unit: &str, anchor: Anchor) -> Resolved {
    let granularity = granularity_of(unit);
    if count.fract() != 0.0 || !(-100_000.0..=100_000.0).contains(&count) {
        return Err((granularity, NO_SUCH_DATE));
    }
    let n = count as i64;
    let date = anchor.date;
    match unit {
        "seconds" | "minutes" | "hours" => {
            let datetime = anchor.datetime.ok_or((granularity, NO_PUBLICATION_CLOCK))?;
            let span = match unit {
                "hours" => jiff::Span::new().try_hours(n),
                "minutes" => jiff::Span::new().try_minutes(n),
                _ => jiff::Span::new().try_seconds(n),
            }
            .map_err(|_| (granularity, NO_SUCH_DATE))?;
            let then = datetime
                .checked_add(span)
                .map_err(|_| (granularity, NO_SUCH_DATE))?;
            Ok((then.strftime("%Y-%m-%dT%H:%M").to_string(), granularity))
        }
        "days" => Ok((
            shift_days(date, n)
                .ok_or((granularity, NO_SUCH_DATE))?
                .to_string(),
            granularity,
        )),
        "weeks" => Ok((
            iso_week(shift_days(date, 7 * n).ok_or((granularity, NO_SUCH_DATE))?),
            granularity,
        )),
        "months" => {
            let months = i32::try_from(n).map_err(|_| (granularity, NO_SUCH_DATE))?;
            let (y, m) = add_months(date.year(), date.month(), months);
            Ok((format!("{y:04}-{m:02}"), granularity))
        }
        _ => Ok((format!("{:04}", i64::from(date.year()) + n), granularity)),
    }
}

fn shift_days(date: Date, days: i64) -> Option<Date> {
    date.checked_add(jiff::Span::new().try_days(days).ok()?)
        .ok()
}

fn iso_week(date: Date) -> String {
    let week = date.iso_week_date();
    format!("{:04}-W{:02}", week.year(), week.week())
}

fn add_months(year: i16, month: i8, n: i32) -> (i32, i32) {
    let index = i32::from(year) * 12 + i32::from(month) - 1 + n;
    (index.div_euclid(12), index.rem_euclid(12) + 1)
}

fn pick_month(pub_date: Date, month: i8, rel: Rel, tense: Tense) -> (i32, i32) {
    let year = i32::from(pub_date.year());
    let current = i32::from(pub_date.month());
    let m = i32::from(month);
    let before = if m < current { year } else { year - 1 };
    let after = if m > current { year } else { year + 1 };
    let y = match (rel, tense) {
        (Rel::Last, _) => before,
        (Rel::Next, _) => after,
        _ if m == current => year,
        (Rel::This, Tense::Past) => before,
        (Rel::This, Tense::Future) => after,
        (Rel::This, Tense::Unknown) => {
            if (m - current).rem_euclid(12) <= 3 {
                after
            } else {
                before
            }
        }
    };
    (y, m)
}

/// How far ahead an untensed date may lie and still be read as upcoming: news
/// reports mostly the past, and names future dates mostly when they are near.
const NEAR_FUTURE_DAYS: i32 = 90;

fn pick_date(pub_date: Date, month: i8, day: i8, tense: Tense) -> Option<Date> {
    let year = pub_date.year();
    let candidates: Vec<Date> = [year - 1, year, year + 1]
        .into_iter()
        .filter_map(|y| Date::new(y, month, day).ok())
        .collect();
    match tense {
        Tense::Past => candidates.into_iter().filter(|d| *d <= pub_date).max(),
        Tense::Future => candidates.into_iter().filter(|d| *d >= pub_date).min(),
        Tense::Unknown => {
            let soon = candidates
                .iter()
                .copied()
                .filter(|d| *d >= pub_date)
                .min()
                .filter(|d| {
                    pub_date
                        .until(*d)
                        .is_ok_and(|s| s.get_days() <= NEAR_FUTURE_DAYS)
                });
            soon.or_else(|| candidates.into_iter().filter(|d| *d <= pub_date).max())
        }
    }
}

/// The Saturday of a weekend: "last weekend" is the previous week's (weeks run
/// Monday to Sunday), "next weekend" the following week's; "this weekend" and
/// "the weekend" are this week's, or in the past tense the last one begun on
/// or before the publication date.
fn pick_weekend(pub_date: Date, rel: Rel, tense: Tense) -> Option<Date> {
    let this_saturday = 5 - i64::from(pub_date.weekday().to_monday_zero_offset());
    let offset = match (rel, tense) {
        (Rel::Last, _) => this_saturday - 7,
        (Rel::Next, _) => this_saturday + 7,
        (Rel::This, Tense::Past) if this_saturday > 0 => this_saturday - 7,
        (Rel::This, _) => this_saturday,
    };
    shift_days(pub_date, offset)
}

fn pick_weekday(pub_date: Date, day: Weekday, rel: Rel, tense: Tense) -> Option<Date> {
    let back = i64::from(day.until(pub_date.weekday()));
    let forward = i64::from(pub_date.weekday().until(day));
    let offset = match (rel, tense) {
        (Rel::Last, _) => -(if back == 0 { 7 } else { back }),
        (Rel::Next, _) => {
            if forward == 0 {
                7
            } else {
                forward
            }
        }
        (Rel::This, Tense::Future) => forward,
        (Rel::This, _) => -back,
    };
    shift_days(pub_date, offset)
}

#[cfg(test)]
mod tests {
    use super::*;
    use attest_doc::Article;

    fn tag(text: &str, published: Option<&str>) -> Vec<(String, Option<String>, Option<String>)> {
        let mut article = Article::new("t", text);
        article.published = published.and_then(|p| p.parse().ok());
        let mut doc = Doc::new(article);
        crate::testing::prepare(&mut doc);
        TimeTagger::new()
            .tag(&doc)
            .into_iter()
            .map(|t| (doc.span_text(t.span).to_string(), t.value, t.unresolved))
            .collect()
    }

    const WEDNESDAY: Option<&str> = Some("2026-03-04T18:30:00-05:00");

    #[test]
    fn weekends_this_weekday_and_days_ahead() {
        let value = |text: &str, published: &str| {
            tag(text, Some(published))
                .into_iter()
                .map(|(span, value, _)| format!("{span} = {}", value.unwrap_or_default()))
                .collect::<Vec<_>>()
        };
        let wednesday = "2026-03-04T18:30:00-05:00";
        assert_eq!(
            value("They met last weekend.", wednesday),
            ["last weekend = 2026-02-28/2026-03-01"]
        );
        assert_eq!(
            value("It rained over the weekend.", "2026-03-08"),
            ["the weekend = 2026-03-07/2026-03-08"]
        );
        assert_eq!(
            value("The team meets this Friday.", wednesday),
            ["this Friday = 2026-03-06"]
        );
        assert_eq!(
            value("The ruling will come in 10 days.", wednesday),
            ["in 10 days = 2026-03-14"]
        );
        assert_eq!(
            value("Prices fell in 10 days.", wednesday),
            ["10 days = P10D"]
        );
        assert_eq!(
            tag("They meet this weekend.", None)[0].2.as_deref(),
            Some(NO_PUBLICATION_TIME)
        );
    }

    #[test]
    fn weekdays_follow_the_tense() {
        assert_eq!(
            tag("She said Monday it was over.", WEDNESDAY)[0]
                .1
                .as_deref(),
            Some("2026-03-02")
        );
        assert_eq!(
            tag("She will speak Monday.", WEDNESDAY)[0].1.as_deref(),
            Some("2026-03-09")
        );
    }

    #[test]
    fn a_participle_alone_says_no_tense() {
        // Published 2026-03-04: "is set for May 5" lies ahead, "was set" behind.
        assert_eq!(
            tag("The launch is set for May 5.", WEDNESDAY)[0]
                .1
                .as_deref(),
            Some("2026-05-05")
        );
        assert_eq!(
            tag("The launch was set for May 5.", WEDNESDAY)[0]
                .1
                .as_deref(),
            Some("2025-05-05")
        );
    }

    #[test]
    fn relative_times_stay_unresolved_without_a_publication_time() {
        let found = tag(
            "Prices rose last week, and on May 5, 2025, they fell.",
            None,
        );
        assert_eq!(
            found[0],
            ("last week".into(), None, Some(NO_PUBLICATION_TIME.into()))
        );
        assert_eq!(
            found[1].1.as_deref(),
            Some("2025-05-05"),
            "absolute dates need no anchor"
        );
    }

    #[test]
    fn times_of_day_join_the_day_next_to_them() {
        let found = tag("The vote came Monday at 7:30 p.m. in the hall.", WEDNESDAY);
        assert_eq!(
            found,
            [(
                "Monday at 7:30 p.m.".into(),
                Some("2026-03-02T19:30".into()),
                None
            )]
        );
    }

    #[test]
    fn long_runs_of_trigger_words_do_not_recurse_deeply() {
        let text = "early Monday , ".repeat(1500);
        assert!(!tag(&text, WEDNESDAY).is_empty());
    }
}
