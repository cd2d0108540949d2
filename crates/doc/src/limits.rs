//! The limits that keep one bad input from exhausting a batch.

/// Every size and time limit attest enforces, in one place.
///
/// Each limit guards memory or time against a hostile or broken input; reaching one
/// fails only the record that reached it, with an error naming the limit, and the
/// batch goes on. The defaults suit news articles with a wide margin; raise a limit
/// when a real corpus needs it (each has a command-line flag).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The largest article body, in bytes (default 10 MB). Larger articles are
    /// refused rather than truncated, since a cut article would yield cut spans.
    pub article_bytes: usize,
    /// The most tokens in one sentence (default 2,000). A longer run without a
    /// sentence end (a table, a list, run-together text) is split there, because
    /// the taggers' cost grows with sentence length.
    pub sentence_tokens: usize,
    /// The deepest HTML element nesting read (default 256); deeper pages are refused,
    /// since tree walks over them would exhaust the stack.
    pub html_depth: usize,
    /// The longest JSON Lines line, in bytes (default 16 MB), read before parsing.
    pub jsonl_line_bytes: usize,
    /// The largest WARC record, in bytes (default 64 MB), decompressed.
    pub warc_record_bytes: usize,
    /// The most time reading and the stages may spend on one article, in
    /// seconds (default 120; 0 for no limit). Every stage is linear, and the largest article
    /// (10 MB) takes well under a minute, so only a machine far slower than
    /// expected, or a bug, reaches it; then the stage running stops, the later
    /// ones are skipped, and the article says which layers it lacks (see
    /// [`crate::Budget`]), rather than holding a worker without end.
    pub article_seconds: u64,
}

impl Limits {
    /// The defaults described on each field.
    pub const DEFAULT: Limits = Limits {
        article_bytes: 10_000_000,
        sentence_tokens: 2_000,
        html_depth: 256,
        jsonl_line_bytes: 16_000_000,
        warc_record_bytes: 64_000_000,
        article_seconds: 120,
    };
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::DEFAULT
    }
}
