//! Documents built by hand for the unit tests, with a toy segmentation so that
//! the ledger's tests need no stage crate.

use std::path::PathBuf;

use crate::Location;
use crate::layers::LAYER_TABLES;

use attest_doc::{
    Article, Attribution, AttributionId, AttributionKind, Doc, Hedge, Paragraph, ParagraphRole,
    Published, Segmentation, Sentence, SentenceId, Source, SourceKind, Span, Stance, StanceLabel,
    Token, TokenId, TokenKind,
};

/// A document with one sentence per paragraph and naive tokens: runs of
/// letters, digits and apostrophes are words, double quotation marks are quotes,
/// anything else is punctuation.
pub(crate) fn segmented(text: &str) -> Doc {
    segmented_article(Article::new("t", text))
}

fn segmented_article(article: Article) -> Doc {
    let text = article.text.clone();
    let mut segmentation = Segmentation::default();
    let mut start = 0;
    for block in text.split("\n\n") {
        let first_token = segmentation.tokens.len();
        let mut chars = block.char_indices().peekable();
        while let Some((i, ch)) = chars.next() {
            let at = start + i;
            let (kind, end) = if ch.is_alphanumeric() || ch == '\'' || ch == '’' {
                let mut end = at + ch.len_utf8();
                while let Some((j, next)) =
                    chars.next_if(|(_, c)| c.is_alphanumeric() || *c == '\'' || *c == '’')
                {
                    end = start + j + next.len_utf8();
                }
                (TokenKind::Word, end)
            } else if matches!(ch, '"' | '“' | '”') {
                (TokenKind::Quote, at + ch.len_utf8())
            } else if ch.is_whitespace() {
                continue;
            } else {
                (TokenKind::Punct, at + ch.len_utf8())
            };
            segmentation.tokens.push(Token {
                span: Span::must(at, end),
                kind,
            });
        }
        let last_token = segmentation.tokens.len();
        if last_token > first_token {
            let span = segmentation.tokens[first_token]
                .span
                .cover(segmentation.tokens[last_token - 1].span);
            let sentence = segmentation.sentences.len();
            segmentation.sentences.push(Sentence {
                span,
                tokens: TokenId::must(first_token)..TokenId::must(last_token),
            });
            segmentation.paragraphs.push(Paragraph {
                span,
                sentences: SentenceId::must(sentence)..SentenceId::must(sentence + 1),
                role: ParagraphRole::Body,
            });
        }
        start += block.len() + 2;
    }
    let mut doc = Doc::new(article);
    doc.set_segmentation(segmentation)
        .expect("the toy segmentation fits");
    doc
}

/// One attribution of a [`story`]: each phrase is found in the text, after the
/// phrases of the attributions before it.
pub(crate) struct Said<'a> {
    pub(crate) source: &'a str,
    pub(crate) name: &'a str,
    pub(crate) kind: SourceKind,
    pub(crate) cue: &'a str,
    pub(crate) content: &'a str,
    pub(crate) quoted: bool,
    pub(crate) stance: StanceLabel,
}

/// A fully analysed article: segmentation, attributions, stances, sources (one
/// per distinct name) and the hedges named by `hedges` (cue, scope).
pub(crate) fn story(
    id: &str,
    outlet: &str,
    date: &str,
    text: &str,
    said: &[Said<'_>],
    hedges: &[(&str, &str)],
) -> Doc {
    let mut article = Article::new(id, text);
    article.outlet = Some(outlet.to_string());
    article.published = Some(date.parse::<Published>().expect("a test date"));
    let mut doc = segmented_article(article);
    let mut from = 0;
    let mut find = |phrase: &str| {
        let at = from
            + text[from..]
                .find(phrase)
                .expect("the phrase is in the text");
        from = at;
        Span::try_new_in(text, at, at + phrase.len()).expect("a phrase is a span")
    };
    let mut attributions = Vec::new();
    let mut stances = Vec::new();
    let mut sources: Vec<Source> = Vec::new();
    for (i, s) in said.iter().enumerate() {
        let (source, cue, content) = if s.quoted {
            let content = find(s.content);
            let source = find(s.source);
            (source, find(s.cue), content)
        } else {
            let source = find(s.source);
            let cue = find(s.cue);
            (source, cue, find(s.content))
        };
        attributions.push(Attribution {
            source: vec![source],
            cue: vec![cue],
            content: vec![content],
            kind: if s.quoted {
                AttributionKind::Direct
            } else {
                AttributionKind::Indirect
            },
            confidence: 0.9,
        });
        stances.push(Stance {
            attribution: AttributionId::must(i),
            label: s.stance,
            evidence: vec![cue],
        });
        match sources.iter_mut().find(|known| known.name == s.name) {
            Some(known) => {
                known.mentions.push(source);
                known.attributions.push(AttributionId::must(i));
            }
            None => sources.push(Source {
                name: s.name.to_string(),
                kind: s.kind,
                mentions: vec![source],
                descriptors: Vec::new(),
                gender: None,
                attributions: vec![AttributionId::must(i)],
                merges: Vec::new(),
            }),
        }
    }
    doc.set_attributions(attributions)
        .expect("attributions fit");
    doc.set_stances(stances).expect("stances fit");
    doc.set_sources(sources).expect("sources fit");
    let at = |phrase: &str| {
        let i = text.find(phrase).expect("the hedge is in the text");
        Span::try_new_in(text, i, i + phrase.len()).expect("a phrase is a span")
    };
    doc.set_hedges(
        hedges
            .iter()
            .map(|(cue, scope)| Hedge {
                cue: at(cue),
                scope: at(scope),
            })
            .collect(),
    )
    .expect("hedges fit");
    doc
}

/// A ledger path of its own in the temporary directory, with no file yet.
pub(crate) fn temp_ledger(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!(
        "attest-ledger-test-{}-{name}.db",
        std::process::id()
    ));
    remove_ledger(&path);
    path
}

/// Removes a ledger file and its WAL companions.
pub(crate) fn remove_ledger(path: &std::path::Path) {
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}

/// The variable that names the PostgreSQL server the tests use.
pub(crate) const POSTGRES_VARIABLE: &str = "ATTEST_TEST_POSTGRES";

/// A ledger of a test's own, removed when the test ends: a temporary SQLite
/// file, or a schema of its own in the PostgreSQL database that
/// [`POSTGRES_VARIABLE`] names.
pub(crate) struct TestDb {
    location: Location,
    admin: Option<(String, String)>,
}

impl TestDb {
    pub(crate) fn sqlite(name: &str) -> TestDb {
        TestDb {
            location: Location::Sqlite(temp_ledger(name)),
            admin: None,
        }
    }

    /// Panics when the variable is not set: a PostgreSQL test that cannot
    /// reach a server fails rather than passes.
    pub(crate) fn postgres(name: &str) -> TestDb {
        let url = std::env::var(POSTGRES_VARIABLE).unwrap_or_else(|_| {
            panic!("{POSTGRES_VARIABLE} is not set: it names the PostgreSQL server to test against")
        });
        let schema = format!("attest_test_{}_{name}", std::process::id());
        let mut client = postgres::Client::connect(&url, postgres::NoTls)
            .unwrap_or_else(|err| panic!("{POSTGRES_VARIABLE}={url}: {err}"));
        client
            .batch_execute(&format!(
                "DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}"
            ))
            .expect("a schema of the test's own");
        let separator = if url.contains('?') { '&' } else { '?' };
        TestDb {
            location: Location::Postgres(format!(
                "{url}{separator}options=-csearch_path%3D{schema}"
            )),
            admin: Some((url, schema)),
        }
    }

    /// Another ledger of a test's own, on the same backend.
    pub(crate) fn another(&self, name: &str) -> TestDb {
        match self.location {
            Location::Sqlite(_) => TestDb::sqlite(name),
            Location::Postgres(_) => TestDb::postgres(name),
        }
    }

    pub(crate) fn location(&self) -> &Location {
        &self.location
    }

    /// Writes a schema version into the ledger behind its back, and drops
    /// the layer tables of later versions, which a ledger of that version
    /// lacks (the tests take away the rest of what later versions made).
    pub(crate) fn set_schema_version(&self, version: i64) {
        let later = LAYER_TABLES.iter().filter(|table| table.since > version);
        let drop: String = later
            .map(|table| {
                let (name, count) = (table.name, table.count);
                format!("DROP TABLE {name}; ALTER TABLE articles DROP COLUMN {count};\n")
            })
            .collect();
        match (&self.location, &self.admin) {
            (Location::Sqlite(path), _) => {
                let conn = rusqlite::Connection::open(path).unwrap();
                conn.execute_batch(&drop).unwrap();
                conn.pragma_update(None, "user_version", version).unwrap();
            }
            (Location::Postgres(url), _) => {
                let mut client = postgres::Client::connect(url, postgres::NoTls).unwrap();
                client.batch_execute(&drop).unwrap();
                client
                    .execute("UPDATE attest_ledger SET schema_version = $1", &[&version])
                    .unwrap();
            }
        }
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        match (&self.location, &self.admin) {
            (Location::Sqlite(path), _) => remove_ledger(path),
            (Location::Postgres(_), Some((url, schema))) => {
                if let Ok(mut client) = postgres::Client::connect(url, postgres::NoTls) {
                    let _ = client.batch_execute(&format!("DROP SCHEMA {schema} CASCADE"));
                }
            }
            (Location::Postgres(_), None) => {}
        }
    }
}
