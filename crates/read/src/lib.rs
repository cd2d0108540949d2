//! Readers that turn plain text, JSON Lines, HTML and WARC input into articles.
