//! An article as it comes in: text and metadata, before any analysis.

use std::fmt;
use std::str::FromStr;

/// One news article: its body text and what is known about it.
///
/// The text is never modified after it is read: every span of every layer is a
/// byte range into it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Article {
    /// A stable identifier: given by the input, or derived by the reader from the
    /// file name, line number or record (see each reader).
    pub id: String,
    /// The headline, when the input gives one apart from the body.
    pub title: Option<String>,
    /// The body text, UTF-8.
    pub text: String,
    /// The publishing outlet ("Reuters", "The Post").
    pub outlet: Option<String>,
    /// Where the article was published.
    pub url: Option<String>,
    /// When it was published; relative time expressions resolve against it.
    pub published: Option<Published>,
    /// The language as a BCP 47 tag; attest analyses English ("en").
    pub language: Option<String>,
}

impl Article {
    /// An article with only an id and a text.
    pub fn new(id: impl Into<String>, text: impl Into<String>) -> Article {
        Article {
            id: id.into(),
            title: None,
            text: text.into(),
            outlet: None,
            url: None,
            published: None,
            language: None,
        }
    }
}

/// A publication time: an instant with its UTC offset, or only a date.
///
/// The offset is kept because "Monday" in an article means the Monday of the
/// place it was written in, not of UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Published {
    /// An RFC 3339 instant, such as `2026-03-04T18:30:00-05:00`.
    Instant(jiff::Timestamp, jiff::tz::Offset),
    /// A calendar date, such as `2026-03-04`.
    Date(jiff::civil::Date),
}

impl Published {
    /// The local calendar date of publication.
    pub fn date(self) -> jiff::civil::Date {
        match self {
            Published::Instant(timestamp, offset) => offset.to_datetime(timestamp).date(),
            Published::Date(date) => date,
        }
    }
}

/// A publication time that is neither an RFC 3339 instant nor a date.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{input:?} is neither an RFC 3339 instant (2026-03-04T18:30:00Z) nor a date (2026-03-04)")]
pub struct PublishedError {
    input: String,
}

impl FromStr for Published {
    type Err = PublishedError;

    fn from_str(input: &str) -> Result<Published, PublishedError> {
        let trimmed = input.trim();
        let error = || PublishedError {
            input: input.to_string(),
        };
        if trimmed.len() == 10 {
            return trimmed
                .parse::<jiff::civil::Date>()
                .map(Published::Date)
                .map_err(|_| error());
        }
        // RFC 3339 always carries an offset; a bare local time would silently mean
        // the machine's zone, which is the one thing attest must never assume.
        let timestamp: jiff::Timestamp = trimmed.parse().map_err(|_| error())?;
        let offset = parse_offset_suffix(trimmed).ok_or_else(error)?;
        Ok(Published::Instant(timestamp, offset))
    }
}

impl fmt::Display for Published {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Published::Instant(timestamp, offset) => {
                let datetime = offset.to_datetime(*timestamp);
                if *offset == jiff::tz::Offset::UTC {
                    write!(f, "{}Z", datetime.strftime("%Y-%m-%dT%H:%M:%S"))
                } else {
                    write!(
                        f,
                        "{}{}",
                        datetime.strftime("%Y-%m-%dT%H:%M:%S"),
                        offset_text(*offset)
                    )
                }
            }
            Published::Date(date) => write!(f, "{date}"),
        }
    }
}

/// The UTC offset at the end of an RFC 3339 instant: `Z` or `±HH:MM`.
fn parse_offset_suffix(instant: &str) -> Option<jiff::tz::Offset> {
    if instant.ends_with(['Z', 'z']) {
        return Some(jiff::tz::Offset::UTC);
    }
    let suffix = instant.get(instant.len().checked_sub(6)?..)?;
    let sign = match suffix.as_bytes()[0] {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let hours: i32 = suffix.get(1..3)?.parse().ok()?;
    let minutes: i32 = suffix.get(4..6)?.parse().ok()?;
    if suffix.as_bytes()[3] != b':' {
        return None;
    }
    jiff::tz::Offset::from_seconds(sign * (hours * 3600 + minutes * 60)).ok()
}

fn offset_text(offset: jiff::tz::Offset) -> String {
    let seconds = offset.seconds();
    let sign = if seconds < 0 { '-' } else { '+' };
    let minutes = seconds.unsigned_abs() / 60;
    format!("{sign}{:02}:{:02}", minutes / 60, minutes % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_instants_and_dates_and_prints_them_back() {
        for input in [
            "2026-03-04T18:30:00-05:00",
            "2026-03-04T23:30:00Z",
            "2026-03-04",
        ] {
            let published: Published = input.parse().unwrap();
            assert_eq!(published.to_string(), input);
        }
        let late: Published = "2026-03-04T23:30:00-05:00".parse().unwrap();
        assert_eq!(
            late.date().to_string(),
            "2026-03-04",
            "local date, not UTC's"
        );
    }

    #[test]
    fn refuses_times_without_an_offset() {
        assert!("2026-03-04T18:30:00".parse::<Published>().is_err());
        assert!("last Tuesday".parse::<Published>().is_err());
        assert!("".parse::<Published>().is_err());
    }
}
