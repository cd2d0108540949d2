//! Tests of the ledger through its public API, on articles written for them.

use std::fs;
use std::time::Duration;

use attest_doc::{Article, Doc, Layer, SourceKind, StanceLabel};
use rusqlite::Connection;

use crate::db::{Conn, values};
use crate::testing::{Said, TestDb, remove_ledger, segmented, story, temp_ledger};
use crate::*;

/// The tests every backend passes, run once against a SQLite file and once
/// against PostgreSQL (in a schema of their own in the database that
/// `ATTEST_TEST_POSTGRES` names; ignored without it, and failing when run
/// with `--ignored` and no database).
macro_rules! on_both_backends {
    ($($test:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[test]
                fn $test() {
                    super::$test(&crate::testing::TestDb::sqlite(stringify!($test)));
                }
            )*
        }
        mod postgres {
            $(
                #[test]
                #[ignore = "needs a PostgreSQL server: ATTEST_TEST_POSTGRES=postgres://…"]
                fn $test() {
                    super::$test(&crate::testing::TestDb::postgres(stringify!($test)));
                }
            )*
        }
    };
}

on_both_backends!(
    stores_every_layer_and_passes_its_own_check,
    merges_full_names_across_articles_and_never_bare_surnames,
    lists_and_fetches_articles_and_sources,
    filters_rankings_by_outlet_period_and_kind,
    searches_content_and_unattributed_quotes_and_locates_matches,
    statistics_count_only_layers_that_were_looked_for,
    an_unassigned_layer_is_not_an_empty_one,
    storing_twice_skips_and_replacing_keeps_the_counts_true,
    exports_tables_in_key_order_and_only_read_only_queries,
    dataset_queries_give_each_tables_rows_grouped_by_month,
    an_article_replaced_within_its_own_batch_leaves_a_sound_index,
    refuses_a_newer_schema,
    two_writers_store_each_key_once,
    an_article_the_database_refuses_fails_alone_and_the_rest_are_stored,
    corrections_stand_beside_what_attest_found,
    finds_the_cell_of_an_article_through_its_index,
    finds_stored_articles_and_sources_by_key_through_their_index,
    finds_a_statements_candidates_through_the_band_index,
    a_version_2_ledger_migrates_its_stance_counts_without_loss,
    statistics_give_the_shares_the_writer_hedged_by_outlet_and_month,
    a_version_3_ledger_counts_no_certainty_until_articles_are_stored_again,
    a_version_4_ledger_gains_claims_as_its_articles_are_stored_again,
    a_version_5_ledger_keeps_its_band_rows_and_replaced_articles_take_theirs_out,
    a_version_6_ledger_gains_reviews_and_keeps_its_corrections,
    a_band_key_keeps_its_latest_statements_and_a_version_8_ledger_drops_the_rest,
    the_check_finds_band_keys_that_storing_never_leaves,
    one_claim_is_read_by_its_id_and_claims_by_an_article_they_appear_in,
    a_batch_groups_its_statements_as_storing_them_one_by_one_would,
    a_toy_layer_described_once_is_made_stored_checked_and_exported,
);

fn said<'a>(
    source: &'a str,
    name: &'a str,
    kind: SourceKind,
    cue: &'a str,
    content: &'a str,
    quoted: bool,
    stance: StanceLabel,
) -> Said<'a> {
    Said {
        source,
        name,
        kind,
        cue,
        content,
        quoted,
        stance,
    }
}

/// Three articles of two outlets: one named person in two of them, people who
/// share a surname, unnamed officials, a denial, a hedge.
fn corpus() -> Vec<Doc> {
    use SourceKind::*;
    use StanceLabel::*;
    vec![
        story(
            "a1",
            "Coast Herald",
            "2026-03-02",
            "“We will keep bargaining,” Dana Whitcombe said. Officials said the port would reopen.",
            &[
                said(
                    "Dana Whitcombe",
                    "Dana Whitcombe",
                    Person,
                    "said",
                    "“We will keep bargaining,”",
                    true,
                    Asserts,
                ),
                said(
                    "Officials",
                    "officials",
                    Unnamed,
                    "said",
                    "the port would reopen",
                    false,
                    Asserts,
                ),
            ],
            &[],
        ),
        story(
            "a2",
            "Coast Herald",
            "2026-04-10",
            "Ms. Dana Whitcombe denied the union had signed. Lee Whitcombe said the vote was close. The deal reportedly stalled.",
            &[
                said(
                    "Ms. Dana Whitcombe",
                    "Ms. Dana Whitcombe",
                    Person,
                    "denied",
                    "the union had signed",
                    false,
                    Denies,
                ),
                said(
                    "Lee Whitcombe",
                    "Lee Whitcombe",
                    Person,
                    "said",
                    "the vote was close",
                    false,
                    Asserts,
                ),
            ],
            &[("reportedly", "The deal reportedly stalled")],
        ),
        story(
            "a3",
            "Valley Times",
            "2026-04-12",
            "Mr. Whitcombe declined to comment on the strike. He was \"tired of waiting\" for a deal.",
            &[said(
                "Mr. Whitcombe",
                "Mr. Whitcombe",
                Person,
                "declined to comment",
                "on the strike",
                false,
                Declines,
            )],
            &[],
        ),
    ]
}

fn ingest(db: &TestDb, docs: &[Doc]) -> Ledger {
    let mut ledger = Ledger::open(db.location()).expect("a new ledger opens");
    store_all(&mut ledger, docs, OnConflict::Skip, Stored::Added);
    ledger
}

/// Stores `docs` in one batch, keyed by id, each with the outcome `expected`.
fn store_all(ledger: &mut Ledger, docs: &[Doc], on_conflict: OnConflict, expected: Stored) {
    for outcome in store_batch(ledger, docs, on_conflict) {
        assert_eq!(outcome.expect("each article is stored"), expected);
    }
}

/// Stores `docs` in one batch, keyed by id, and gives each one's outcome.
fn store_batch(
    ledger: &mut Ledger,
    docs: &[Doc],
    on_conflict: OnConflict,
) -> Vec<Result<Stored, LedgerError>> {
    let keys: Vec<ArticleKey> = docs
        .iter()
        .map(|d| ArticleKey::by_id(&d.article().id))
        .collect();
    let entries: Vec<Entry<'_>> = docs
        .iter()
        .zip(&keys)
        .map(|(doc, key)| Entry { doc, key })
        .collect();
    ledger
        .store(&entries, on_conflict)
        .expect("the batch is stored")
}

fn stores_every_layer_and_passes_its_own_check(db: &TestDb) {
    let ledger = ingest(db, &corpus());
    let counts = ledger.counts().unwrap();
    assert_eq!(counts.articles, 3);
    assert_eq!(counts.attributions, 5);
    assert_eq!(counts.appearances, 5);
    assert_eq!(counts.hedges, 1);
    assert_eq!(counts.quotes, 2, "one attributed quotation, one not");
    assert_eq!(
        counts.sources, 4,
        "Dana Whitcombe merged; Lee Whitcombe, Mr. Whitcombe and officials alone"
    );
    let report = ledger.check().unwrap();
    assert!(report.is_ok(), "{report:?}");
    drop(ledger);
}

fn merges_full_names_across_articles_and_never_bare_surnames(db: &TestDb) {
    let ledger = ingest(db, &corpus());
    let top = ledger
        .top_sources(&Filter::default(), Page::first(10))
        .unwrap();
    assert_eq!(top[0].name, "Dana Whitcombe");
    assert_eq!(
        (top[0].statements, top[0].articles, top[0].merged),
        (2, 2, true)
    );
    let whitcombes = ledger.find_sources("Whitcombe").unwrap();
    assert_eq!(
        whitcombes.len(),
        1,
        "only the bare surname is stored under it"
    );
    assert_eq!(whitcombes[0].name, "Mr. Whitcombe");
    assert!(!whitcombes[0].merged);
    let lee = ledger.find_sources("Lee Whitcombe").unwrap();
    assert_eq!(lee.len(), 1);
    assert_ne!(
        lee[0].id, top[0].id,
        "a shared surname is not a shared person"
    );

    let statements = ledger
        .said("Dana Whitcombe", &Filter::default(), 10)
        .unwrap();
    let seen: Vec<(&str, i64, Option<&str>, &str)> = statements
        .iter()
        .map(|s| {
            let place = (s.article.as_str(), s.attribution);
            (place.0, place.1, s.stance.as_deref(), s.content.as_str())
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("a1", 0, Some("asserts"), "“We will keep bargaining,”"),
            ("a2", 0, Some("denies"), "the union had signed"),
        ]
    );
    assert_eq!(
        statements[1].source, "Ms. Dana Whitcombe",
        "the name of that article"
    );
    drop(ledger);
}

fn lists_and_fetches_articles_and_sources(db: &TestDb) {
    let ledger = ingest(db, &corpus());
    let newest: Vec<String> = ledger
        .articles(&Filter::default(), 10, 0)
        .unwrap()
        .into_iter()
        .map(|a| a.id)
        .collect();
    assert_eq!(newest, ["a3", "a2", "a1"], "newest first");
    let page: Vec<String> = ledger
        .articles(&Filter::default(), 1, 1)
        .unwrap()
        .into_iter()
        .map(|a| a.id)
        .collect();
    assert_eq!(page, ["a2"]);
    let herald = Filter {
        outlet: Some("Coast Herald".to_string()),
        ..Filter::default()
    };
    assert_eq!(ledger.articles(&herald, 10, 0).unwrap().len(), 2);

    let a2 = ledger.article("a2").unwrap().expect("a2 is stored");
    assert_eq!(a2.article.outlet.as_deref(), Some("Coast Herald"));
    assert_eq!(a2.article.attributions, Some(2));
    assert_eq!(a2.article.hedges, Some(1));
    assert!(a2.text.starts_with("Ms. Dana Whitcombe denied"));
    let said: Vec<(Option<&str>, &str, Option<&str>)> = a2
        .attributions
        .iter()
        .map(|a| (a.source.as_deref(), a.cue.as_str(), a.stance.as_deref()))
        .collect();
    assert_eq!(
        said,
        [
            (Some("Ms. Dana Whitcombe"), "denied", Some("denies")),
            (Some("Lee Whitcombe"), "said", Some("asserts")),
        ]
    );
    assert_eq!(ledger.article("no-such-article").unwrap(), None);
    // Each role's spans, in bytes and code points, round-trip to their text
    // (a1 quotes in curly quotation marks, three bytes each).
    let a1 = ledger.article("a1").unwrap().expect("a1 is stored");
    assert!(
        a1.attributions
            .iter()
            .any(|a| a.spans.content[0].text.starts_with('“'))
    );
    for detail in [&a1, &a2] {
        for a in &detail.attributions {
            let roles = [&a.spans.source, &a.spans.cue, &a.spans.content];
            for span in roles.into_iter().flatten() {
                let start = usize::try_from(span.byte_start).unwrap();
                let end = usize::try_from(span.byte_end).unwrap();
                assert_eq!(detail.text[start..end], span.text);
                let cp = |byte: usize| i64::try_from(detail.text[..byte].chars().count()).unwrap();
                assert_eq!((span.cp_start, span.cp_end), (cp(start), cp(end)));
            }
        }
    }
    let cues: Vec<&str> = a2
        .attributions
        .iter()
        .map(|a| a.spans.cue[0].text.as_str())
        .collect();
    assert_eq!(cues, ["denied", "said"]);

    let dana = a2.attributions[0].source_id.expect("a source id");
    let source = ledger.source(dana).unwrap().expect("the source is stored");
    assert_eq!(
        (source.name.as_str(), source.statements),
        ("Dana Whitcombe", 2)
    );
    assert_eq!(ledger.source(-1).unwrap(), None);
    drop(ledger);
}

fn filters_rankings_by_outlet_period_and_kind(db: &TestDb) {
    let ledger = ingest(db, &corpus());
    let valley = Filter {
        outlet: Some("Valley Times".into()),
        ..Filter::default()
    };
    let top = ledger.top_sources(&valley, Page::first(10)).unwrap();
    assert_eq!(top.len(), 1);
    assert_eq!(top[0].name, "Mr. Whitcombe");
    let april = Filter {
        since: Some("2026-04-01".parse().unwrap()),
        until: Some("2026-04-10".parse().unwrap()),
        ..Filter::default()
    };
    let names: Vec<String> = ledger
        .top_sources(&april, Page::first(10))
        .unwrap()
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(names, ["Dana Whitcombe", "Lee Whitcombe"]);
    let unnamed = Filter {
        kind: Some(SourceKind::Unnamed),
        ..Filter::default()
    };
    let top = ledger.top_sources(&unnamed, Page::first(10)).unwrap();
    assert_eq!(top.len(), 1);
    assert_eq!(top[0].name, "officials");

    let named = |name: &str, outlet: Option<&str>| Filter {
        name: Some(name.to_string()),
        outlet: outlet.map(str::to_string),
        ..Filter::default()
    };
    let names = |filter: &Filter, page: Page| -> Vec<String> {
        let rows = ledger.top_sources(filter, page).unwrap();
        rows.into_iter().map(|s| s.name).collect()
    };
    let whitcombes = named("WHITCOMBE", None);
    let all = names(&whitcombes, Page::first(10));
    assert_eq!(all.len(), 3, "case does not matter: {all:?}");
    assert!(all.iter().all(|n| n.contains("Whitcombe")));
    assert_eq!(ledger.sources_total(&whitcombes).unwrap(), 3);
    let second = Page {
        offset: 1,
        limit: 1,
    };
    assert_eq!(names(&whitcombes, second), all[1..2]);
    assert_eq!(
        names(&named("dana whit", None), Page::first(10)),
        ["Dana Whitcombe"]
    );
    let valley = named("whitcombe", Some("Valley Times"));
    assert_eq!(names(&valley, Page::first(10)), ["Mr. Whitcombe"]);
    assert_eq!(ledger.sources_total(&valley).unwrap(), 1);
    assert_eq!(
        ledger
            .sources_total(&named("dana", Some("Valley Times")))
            .unwrap(),
        0
    );
    let wildcard = named("%", None);
    assert!(
        names(&wildcard, Page::first(10)).is_empty(),
        "LIKE's wildcards in a name match only themselves"
    );
    assert_eq!(ledger.sources_total(&Filter::default()).unwrap(), 4);
    drop(ledger);
}

fn searches_content_and_unattributed_quotes_and_locates_matches(db: &TestDb) {
    let ledger = ingest(db, &corpus());
    let hits = ledger.search("bargain", &Filter::default(), 10).unwrap();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].found_in, "attribution");
    assert_eq!(hits[0].source.as_deref(), Some("Dana Whitcombe"));
    let [start, end] = hits[0].matches[0];
    assert_eq!(&hits[0].text[start..end], "bargaining");
    let detail = ledger
        .article(&hits[0].article)
        .unwrap()
        .expect("its article");
    let index = hits[0].attribution.expect("an attribution's index");
    let attribution = detail
        .attributions
        .iter()
        .find(|a| a.index == index)
        .expect("the hit's attribution in its article");
    assert_eq!(attribution.content, hits[0].text);
    assert_eq!(Some(&attribution.cue), hits[0].cue.as_ref());
    assert_eq!(attribution.source_id, hits[0].source_id);
    assert_eq!(hits[0].title, detail.article.title);

    let hits = ledger.search("waiting", &Filter::default(), 10).unwrap();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].found_in, "quote");
    assert_eq!(hits[0].text, "\"tired of waiting\"");

    let none = ledger
        .search(
            "bargain",
            &Filter {
                outlet: Some("Valley Times".into()),
                ..Filter::default()
            },
            10,
        )
        .unwrap();
    assert!(none.is_empty());
    let total = |words: &str| ledger.search_total(words, &Filter::default()).unwrap();
    assert_eq!(total("strike"), 1);
    assert_eq!(
        total("waiting"),
        1,
        "quotations no attribution covers count"
    );
    let valley = Filter {
        outlet: Some("Valley Times".into()),
        ..Filter::default()
    };
    assert_eq!(ledger.search_total("bargain", &valley).unwrap(), 0);
    assert_eq!(ledger.search_total("***", &Filter::default()).unwrap(), 0);
    let either = ledger
        .search_fts("bargaining OR waiting", &Filter::default(), 10)
        .unwrap();
    assert_eq!(
        either.len(),
        2,
        "FTS5's OR and websearch_to_tsquery's alike"
    );
    if let Location::Sqlite(_) = db.location() {
        assert!(matches!(
            ledger.search_fts("AND AND", &Filter::default(), 10),
            Err(LedgerError::BadSearch { .. })
        ));
    }
    drop(ledger);
}

fn statistics_count_only_layers_that_were_looked_for(db: &TestDb) {
    let mut docs = corpus();
    let mut bare = Article::new("a4", "The harbour was quiet on Sunday.");
    bare.outlet = Some("Valley Times".into());
    bare.published = Some("2026-04-20".parse().unwrap());
    docs.push(Doc::new(bare));
    let ledger = ingest(db, &docs);
    let rows = ledger.stats(GroupBy::Outlet, &Filter::default()).unwrap();
    let herald = &rows[0];
    assert_eq!(herald.group.as_deref(), Some("Coast Herald"));
    assert_eq!(
        (herald.articles, herald.sources, herald.attributions),
        (2, 4, 4)
    );
    assert_eq!(herald.unnamed_share, Some(0.25));
    assert_eq!(herald.direct_share, Some(0.25));
    assert_eq!(
        (
            herald.stances[&StanceLabel::Asserts],
            herald.stances[&StanceLabel::Denies]
        ),
        (Some(0.75), Some(0.25))
    );
    assert_eq!(herald.stances[&StanceLabel::Claims], Some(0.0));
    let words = herald.words as f64;
    assert_eq!(
        herald.hedges_per_1000_words,
        Some((1000.0 / words * 10_000.0).round() / 10_000.0)
    );
    let valley = &rows[1];
    assert_eq!(valley.articles, 2, "the bare article counts as an article");
    assert_eq!(valley.sources, 1, "but not in shares of layers it lacks");
    assert_eq!(valley.stances[&StanceLabel::Declines], Some(1.0));
    assert_eq!(valley.hedges_per_1000_words, Some(0.0));

    let months = ledger.stats(GroupBy::Month, &Filter::default()).unwrap();
    let groups: Vec<Option<&str>> = months.iter().map(|r| r.group.as_deref()).collect();
    assert_eq!(groups, [Some("2026-03"), Some("2026-04")]);
    let all = ledger.stats(GroupBy::All, &Filter::default()).unwrap();
    assert_eq!(all[0].articles, 4);
    drop(ledger);
}

fn an_unassigned_layer_is_not_an_empty_one(db: &TestDb) {
    let mut looked = segmented("Nobody said anything.");
    looked.set_attributions(Vec::new()).unwrap();
    let not_looked = Doc::new(Article::new("b", "Nobody said anything either."));
    let mut ledger = Ledger::open(db.location()).unwrap();
    for (doc, id) in [(&looked, "a"), (&not_looked, "b")] {
        ledger
            .store_one(doc, &ArticleKey::by_id(id), OnConflict::Skip)
            .unwrap();
    }
    let mut sink = Collect::default();
    ledger
        .export(
            "SELECT article_id, n_attributions, layers FROM articles ORDER BY id",
            &mut sink,
        )
        .unwrap();
    assert_eq!(
        sink.1[0],
        [
            Cell::Text("t".into()),
            Cell::Integer(0),
            Cell::Text("tokens sentences paragraphs attributions".into())
        ]
    );
    assert_eq!(
        sink.1[1],
        [
            Cell::Text("b".into()),
            Cell::Null,
            Cell::Text(String::new())
        ]
    );
    assert!(!not_looked.has(Layer::Attributions));
    drop(ledger);
}

fn storing_twice_skips_and_replacing_keeps_the_counts_true(db: &TestDb) {
    let docs = corpus();
    let mut ledger = ingest(db, &docs);
    let before = ledger.counts().unwrap();
    let key = ArticleKey::by_id("a2");
    assert_eq!(
        ledger.store_one(&docs[1], &key, OnConflict::Skip).unwrap(),
        Stored::Skipped
    );
    assert_eq!(ledger.counts().unwrap(), before);

    // The same id with other content: Lee Whitcombe no longer speaks.
    use SourceKind::*;
    let revised = story(
        "a2",
        "Coast Herald",
        "2026-04-10",
        "Dana Whitcombe denied the union had signed.",
        &[said(
            "Dana Whitcombe",
            "Dana Whitcombe",
            Person,
            "denied",
            "the union had signed",
            false,
            StanceLabel::Denies,
        )],
        &[],
    );
    assert_eq!(
        ledger
            .store_one(&revised, &key, OnConflict::Replace)
            .unwrap(),
        Stored::Replaced
    );
    let after = ledger.counts().unwrap();
    assert_eq!(after.articles, 3);
    assert_eq!(after.attributions, 4);
    assert_eq!(
        after.sources, 3,
        "Lee Whitcombe, left with no article, is gone"
    );
    assert!(ledger.find_sources("Lee Whitcombe").unwrap().is_empty());
    let dana = &ledger.find_sources("Dana Whitcombe").unwrap()[0];
    assert_eq!((dana.statements, dana.articles), (2, 2));
    assert!(
        ledger
            .search("vote", &Filter::default(), 5)
            .unwrap()
            .is_empty(),
        "index follows"
    );
    assert!(ledger.check().unwrap().is_ok());
    drop(ledger);
}

#[test]
fn articles_without_an_id_of_their_own_are_known_by_content() {
    let mut one = Article::new("stdin", "The ferry was late again.");
    let two = Article::new("elsewhere.txt", "The ferry was late again.");
    assert_eq!(ArticleKey::by_content(&one), ArticleKey::by_content(&two));
    one.outlet = Some("Coast Herald".into());
    assert_ne!(
        ArticleKey::by_content(&one),
        ArticleKey::by_content(&two),
        "a syndicated copy in another outlet is another article"
    );
    assert_ne!(ArticleKey::by_id("x"), ArticleKey::by_content(&two));
}

/// Exported columns and rows, kept.
#[derive(Default)]
struct Collect(Vec<Column>, Vec<Vec<Cell>>);

impl RowSink for Collect {
    fn columns(&mut self, columns: &[Column]) -> std::io::Result<()> {
        self.0 = columns.to_vec();
        Ok(())
    }
    fn row(&mut self, cells: &[Cell]) -> std::io::Result<()> {
        self.1.push(cells.to_vec());
        Ok(())
    }
}

fn exports_tables_in_key_order_and_only_read_only_queries(db: &TestDb) {
    let ledger = ingest(db, &corpus());
    let mut sink = Collect::default();
    assert_eq!(ledger.export("articles", &mut sink).unwrap(), 3);
    assert_eq!(sink.0[0].name, "id");
    assert_eq!(sink.0[0].declared, ColumnType::Integer);
    assert_eq!(sink.0.last().unwrap().name, "text");
    assert_eq!(sink.1[0][2], Cell::Text("a1".into()));

    let mut sink = Collect::default();
    let n = ledger
        .export(
            "SELECT kind, count(*) AS n FROM appearances GROUP BY kind ORDER BY kind",
            &mut sink,
        )
        .unwrap();
    assert_eq!(n, 2);
    let computed = match db.location() {
        // SQLite declares the types of table columns only; PostgreSQL knows
        // what count(*) gives.
        Location::Sqlite(_) => ColumnType::Unknown,
        Location::Postgres(_) => ColumnType::Integer,
    };
    assert_eq!(sink.0[1].declared, computed);
    assert_eq!(sink.1[0], [Cell::Text("person".into()), Cell::Integer(4)]);

    for refused in ["DELETE FROM articles", "drop table x", "nonsense"] {
        assert!(
            matches!(
                ledger.export(refused, &mut sink),
                Err(LedgerError::BadQuery { .. })
            ),
            "{refused}"
        );
    }
    assert_eq!(ledger.counts().unwrap().articles, 3);
    drop(ledger);
}

fn dataset_queries_give_each_tables_rows_grouped_by_month(db: &TestDb) {
    let ledger = ingest(db, &corpus());
    assert!(dataset_query("corrections").is_none());
    assert!(dataset_query("articles; DROP TABLE articles").is_none());
    for table in dataset_tables() {
        let mut whole = Collect::default();
        ledger.export(table, &mut whole).unwrap();
        let (query, by_month) = dataset_query(table).unwrap();
        let mut monthly = Collect::default();
        ledger.export(&query, &mut monthly).unwrap();
        if !by_month {
            assert!(matches!(table, "sources" | "claims"), "{table}");
            assert_eq!((&monthly.0, &monthly.1), (&whole.0, &whole.1));
            continue;
        }
        let month = monthly.0.pop().unwrap();
        assert_eq!(month.name, MONTH_COLUMN, "{table}");
        assert_eq!(monthly.0, whole.0, "{table}: the table's own columns");
        assert_eq!(monthly.1.len(), whole.1.len(), "{table}");
        // Each month's rows come together, in the table's own order.
        let mut runs: Vec<(Cell, Vec<usize>)> = Vec::new();
        for row in &monthly.1 {
            let (month, cells) = row.split_last().unwrap();
            let at = whole
                .1
                .iter()
                .position(|w| w == cells)
                .expect("a row of the table");
            match runs.last_mut() {
                Some((last, positions)) if last == month => positions.push(at),
                _ => runs.push((month.clone(), vec![at])),
            }
        }
        let months: Vec<&Cell> = runs.iter().map(|(month, _)| month).collect();
        for (i, month) in months.iter().enumerate() {
            assert!(
                !months[i + 1..].contains(month),
                "{table}: one run per month"
            );
        }
        for (month, positions) in &runs {
            assert!(positions.is_sorted(), "{table} {month:?}: {positions:?}");
            assert!(
                [Cell::Text("2026-03".into()), Cell::Text("2026-04".into())].contains(month),
                "{table}: {month:?}"
            );
        }
        if table == "articles" {
            assert_eq!(
                runs.iter().map(|(_, p)| p.len()).collect::<Vec<_>>(),
                [1, 2]
            );
        }
    }
}

/// Writes a file and returns its bytes, to check later that they did not change.
fn write_bytes(path: &std::path::Path, bytes: &[u8]) -> Vec<u8> {
    fs::write(path, bytes).unwrap();
    bytes.to_vec()
}

#[test]
fn refuses_files_that_are_not_ledgers_without_touching_them() {
    let path = temp_ledger("foreign");
    let text = write_bytes(&path, b"name,quote\nDana,hello\n");
    assert!(matches!(
        Ledger::open(&path),
        Err(LedgerError::NotSqlite { .. })
    ));
    assert_eq!(fs::read(&path).unwrap(), text);

    let mut damaged = b"SQLite format 3\0".to_vec();
    damaged.extend(std::iter::repeat_n(0xA5, 4096));
    let damaged = write_bytes(&path, &damaged);
    let err = Ledger::open(&path).unwrap_err();
    assert!(matches!(err, LedgerError::NotSqlite { .. }), "{err}");
    assert_eq!(fs::read(&path).unwrap(), damaged);

    remove_ledger(&path);
    Connection::open(&path)
        .unwrap()
        .execute_batch("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep');")
        .unwrap();
    let foreign = fs::read(&path).unwrap();
    let err = Ledger::open(&path).unwrap_err();
    assert!(matches!(err, LedgerError::NotALedger { .. }), "{err}");
    assert_eq!(fs::read(&path).unwrap(), foreign);
    remove_ledger(&path);
}

#[test]
fn refuses_a_newer_schema_without_touching_the_file() {
    let path = temp_ledger("newer");
    drop(Ledger::open(&path).unwrap());
    let conn = Connection::open(&path).unwrap();
    conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
        .unwrap();
    conn.pragma_update(None, "journal_mode", "DELETE").unwrap();
    drop(conn);
    let before = fs::read(&path).unwrap();
    let err = Ledger::open(&path).unwrap_err();
    assert!(
        matches!(err, LedgerError::NewerSchema { found, .. } if found == SCHEMA_VERSION + 1),
        "{err}"
    );
    assert!(err.to_string().contains("was not changed"));
    let err = Ledger::open_read_only(&path, &OpenOptions::DEFAULT).unwrap_err();
    assert!(matches!(err, LedgerError::NewerSchema { .. }), "{err}");
    assert_eq!(fs::read(&path).unwrap(), before);
    remove_ledger(&path);
}

#[test]
fn refuses_to_write_a_read_only_file() {
    let db = TestDb::sqlite("readonly");
    let path = db.location().path().unwrap().to_path_buf();
    drop(ingest(&db, &corpus()));
    let before = fs::read(&path).unwrap();
    let mut permissions = fs::metadata(&path).unwrap().permissions();
    permissions.set_readonly(true);
    fs::set_permissions(&path, permissions.clone()).unwrap();
    let err = Ledger::open(&path).unwrap_err();
    assert!(matches!(err, LedgerError::ReadOnly { .. }), "{err}");
    let reader = Ledger::open_read_only(&path, &OpenOptions::DEFAULT).unwrap();
    assert_eq!(
        reader.counts().unwrap().articles,
        3,
        "queries still read it"
    );
    drop(reader);
    assert_eq!(fs::read(&path).unwrap(), before);
    #[allow(clippy::permissions_set_readonly_false)]
    permissions.set_readonly(false);
    fs::set_permissions(&path, permissions).unwrap();
    remove_ledger(&path);
}

#[test]
fn a_locked_ledger_fails_after_the_busy_timeout_and_stays_as_it_was() {
    let db = TestDb::sqlite("locked");
    let path = db.location().path().unwrap().to_path_buf();
    drop(ingest(&db, &corpus()[..1]));
    let holder = Connection::open(&path).unwrap();
    holder.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let options = OpenOptions {
        busy_timeout: Duration::from_millis(50),
    };
    let docs = corpus();
    let outcome = Ledger::open_with(&path, &options).and_then(|mut ledger| {
        ledger.store_one(&docs[1], &ArticleKey::by_id("a2"), OnConflict::Skip)
    });
    let err = outcome.unwrap_err();
    assert!(matches!(err, LedgerError::Locked { .. }), "{err}");
    holder.execute_batch("ROLLBACK").unwrap();
    drop(holder);
    let ledger = Ledger::open_read_only(&path, &options).unwrap();
    assert_eq!(ledger.counts().unwrap().articles, 1);
    drop(ledger);
    remove_ledger(&path);
}

#[test]
fn a_missing_ledger_is_not_created_by_a_query() {
    let path = temp_ledger("missing");
    let err = Ledger::open_read_only(&path, &OpenOptions::DEFAULT).unwrap_err();
    assert!(matches!(err, LedgerError::Missing { .. }), "{err}");
    assert!(!path.exists());
}

/// SQLite writes band keys with no statement journal. A write statement
/// that SQLite may have to undo alone (one that reads `json_each`, or one
/// that may stop halfway on a constraint) copies every page it changes to a
/// temporary file as it goes, and band keys land all over `claim_bands`, so
/// that this journal was the whole table at every batch. Inside a
/// transaction nothing else is written before the commit (the WAL is
/// written then, and the page cache holds the changed pages), so the bytes
/// this thread writes meanwhile are the journal's.
#[cfg(target_os = "linux")]
#[test]
fn sqlite_writes_band_rows_with_no_statement_journal() {
    let written = || -> u64 {
        let io = fs::read_to_string("/proc/thread-self/io").unwrap();
        let line = io.lines().find(|line| line.starts_with("wchar:")).unwrap();
        line["wchar:".len()..].trim().parse().unwrap()
    };
    let db = TestDb::sqlite("band-journal");
    let ledger = Ledger::open(db.location()).unwrap();
    let conn = ledger.conn();
    let spread = |i: i64| (i * 7_919) % 1_000_003 * 1_000;
    conn.batch(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000) \
         INSERT INTO claim_bands (band_key, statements) \
         SELECT (i * 7919) % 1000003 * 1000, unhex(printf('%016x', i)) FROM n",
    )
    .unwrap();
    let pages: i64 = conn
        .value("SELECT page_count FROM pragma_page_count()", &[])
        .unwrap();
    let statements = grouping::packed([1, 2, 3]).unwrap();
    let keys_of = |keys: std::ops::RangeInclusive<i64>, new: i64| {
        let mut rows: Vec<(i64, Vec<u8>)> = keys
            .map(|i| (spread(i * 2) + new, statements.clone()))
            .collect();
        rows.sort_unstable();
        rows
    };
    let updated = keys_of(1..=10_000, 0);
    let inserted = keys_of(1..=10_000, 1);
    let mut cleared: Vec<i64> = (1..=10_000).map(|i| spread(i * 10 + 1)).collect();
    cleared.sort_unstable();
    conn.batch("BEGIN").unwrap();
    let before = written();
    grouping::BandWrite::Update(&updated).write(&conn).unwrap();
    grouping::BandWrite::Insert(&inserted).write(&conn).unwrap();
    grouping::BandWrite::Clear(&cleared).write(&conn).unwrap();
    let journal = written() - before;
    conn.batch("COMMIT").unwrap();
    assert!(pages > 1_000, "{pages} pages");
    assert!(
        journal < 64 * 1024,
        "{journal} bytes written over {pages} pages"
    );
    let keys: i64 = conn.value("SELECT count(*) FROM claim_bands", &[]).unwrap();
    assert_eq!(keys, 200_000 + 10_000 - 10_000);
    let replaced: i64 = conn
        .value(
            "SELECT count(*) FROM claim_bands WHERE statements = ?1",
            &[rusqlite::types::Value::Blob(statements)],
        )
        .unwrap();
    assert_eq!(replaced, 20_000, "every key updated or inserted");
    drop(ledger);
}

fn an_article_replaced_within_its_own_batch_leaves_a_sound_index(db: &TestDb) {
    let docs = corpus();
    let revised = story(
        "a1",
        "Coast Herald",
        "2026-03-02",
        "Officials said the ferry would resume.",
        &[said(
            "Officials",
            "officials",
            SourceKind::Unnamed,
            "said",
            "the ferry would resume",
            false,
            StanceLabel::Asserts,
        )],
        &[],
    );
    let key = ArticleKey::by_id("a1");
    let mut ledger = Ledger::open(db.location()).unwrap();
    let outcomes = ledger
        .store(
            &[
                Entry {
                    doc: &docs[0],
                    key: &key,
                },
                Entry {
                    doc: &revised,
                    key: &key,
                },
            ],
            OnConflict::Replace,
        )
        .unwrap();
    let outcomes: Vec<Stored> = outcomes.into_iter().map(Result::unwrap).collect();
    assert_eq!(outcomes, [Stored::Added, Stored::Replaced]);
    assert!(
        ledger
            .search("bargaining", &Filter::default(), 5)
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        ledger.search("ferry", &Filter::default(), 5).unwrap().len(),
        1
    );
    assert!(ledger.check().unwrap().is_ok());
    drop(ledger);
}

fn refuses_a_newer_schema(db: &TestDb) {
    drop(Ledger::open(db.location()).unwrap());
    db.set_schema_version(SCHEMA_VERSION + 1);
    let err = Ledger::open(db.location()).unwrap_err();
    assert!(
        matches!(err, LedgerError::NewerSchema { found, .. } if found == SCHEMA_VERSION + 1),
        "{err}"
    );
    let err = Ledger::open_read_only(db.location(), &OpenOptions::DEFAULT).unwrap_err();
    assert!(matches!(err, LedgerError::NewerSchema { .. }), "{err}");
    db.set_schema_version(SCHEMA_VERSION);
    assert_eq!(
        Ledger::open(db.location())
            .unwrap()
            .counts()
            .unwrap()
            .articles,
        0
    );
}

/// Two writers, each storing the whole corpus in batches of one, interleaved:
/// each article is stored once, by one of them, and skipped by the other.
fn two_writers_store_each_key_once(db: &TestDb) {
    let docs = corpus();
    let keys: Vec<ArticleKey> = docs
        .iter()
        .map(|d| ArticleKey::by_id(&d.article().id))
        .collect();
    let mut writers = [
        Ledger::open(db.location()).unwrap(),
        Ledger::open(db.location()).unwrap(),
    ];
    let mut added = 0;
    for (doc, key) in docs.iter().zip(&keys) {
        for writer in &mut writers {
            if writer.store_one(doc, key, OnConflict::Skip).unwrap() == Stored::Added {
                added += 1;
            }
        }
    }
    assert_eq!(added, docs.len());
    let [first, _] = writers;
    assert_eq!(first.counts().unwrap().articles, 3);
    assert!(first.check().unwrap().is_ok());
}

/// An article that the database refuses fails alone, with its own error:
/// the batch, written first in one statement a table, is written again an
/// article at a time, and the others are stored.
fn an_article_the_database_refuses_fails_alone_and_the_rest_are_stored(db: &TestDb) {
    let docs = corpus();
    let refused = docs[1].article().id.clone();
    let mut ledger = Ledger::open(db.location()).unwrap();
    {
        let conn = ledger.conn();
        let refuse = if conn.is_postgres() {
            format!("ALTER TABLE articles ADD CONSTRAINT refused CHECK (article_id <> '{refused}')")
        } else {
            format!(
                "CREATE TRIGGER refused BEFORE INSERT ON articles \
                 WHEN NEW.article_id = '{refused}' BEGIN SELECT RAISE(ABORT, 'refused'); END"
            )
        };
        conn.batch(&refuse).unwrap();
    }
    let outcomes = store_batch(&mut ledger, &docs, OnConflict::Skip);
    assert_eq!(outcomes.len(), 3);
    for (i, outcome) in outcomes.iter().enumerate() {
        if i == 1 {
            assert!(
                matches!(outcome, Err(LedgerError::Article { id, .. }) if *id == refused),
                "{outcome:?}"
            );
        } else {
            assert_eq!(outcome.as_ref().unwrap(), &Stored::Added);
        }
    }
    assert_eq!(ledger.counts().unwrap().articles, 2);
    assert!(ledger.check().unwrap().is_ok());
}

fn corrections_stand_beside_what_attest_found(db: &TestDb) {
    let docs = corpus();
    let mut ledger = ingest(db, &docs);
    let before = ledger.counts().unwrap();
    let stats_before = ledger.stats(GroupBy::Outlet, &Filter::default()).unwrap();
    let refused = |ledger: &mut Ledger, id: &str, input: CorrectionInput| {
        ledger
            .correct(id, &input)
            .expect_err("the correction is refused")
            .to_string()
    };
    assert!(refused(&mut ledger, "no-such", CorrectionInput::default()).contains("no article"));
    let past_the_end = CorrectionInput {
        attribution: 7,
        ..CorrectionInput::default()
    };
    assert!(refused(&mut ledger, "a2", past_the_end).contains("no attribution 7"));
    let wrong_and_changed = CorrectionInput {
        attribution: 0,
        wrong: true,
        stance: Some(StanceLabel::Asserts),
        ..CorrectionInput::default()
    };
    assert!(refused(&mut ledger, "a2", wrong_and_changed).contains("marked wrong"));
    let long_note = CorrectionInput {
        attribution: 0,
        note: Some("x".repeat(MAX_NOTE_CHARS + 1)),
        ..CorrectionInput::default()
    };
    assert!(refused(&mut ledger, "a2", long_note).contains("note"));
    let no_such_source = CorrectionInput {
        attribution: 0,
        source: Some(SourceChoice::Pick(9)),
        ..CorrectionInput::default()
    };
    assert!(refused(&mut ledger, "a2", no_such_source).contains("no source 9"));

    // The second statement was Dana Whitcombe's, and a claim, not an assertion.
    let stance = ledger
        .correct(
            "a2",
            &CorrectionInput {
                attribution: 1,
                stance: Some(StanceLabel::Claims),
                note: Some("  a first look  ".into()),
                ..CorrectionInput::default()
            },
        )
        .unwrap();
    assert_eq!(stance.note.as_deref(), Some("a first look"), "trimmed");
    let source = ledger
        .correct(
            "a2",
            &CorrectionInput {
                attribution: 1,
                source: Some(SourceChoice::Pick(0)),
                stance: Some(StanceLabel::Claims),
                ..CorrectionInput::default()
            },
        )
        .unwrap();
    assert_eq!(source.source.as_deref(), Some("Ms. Dana Whitcombe"));
    assert_eq!(source.source_type.as_deref(), Some("person"));
    ledger
        .correct(
            "a2",
            &CorrectionInput {
                attribution: 0,
                wrong: true,
                ..CorrectionInput::default()
            },
        )
        .unwrap();
    assert_eq!(
        ledger.counts().unwrap(),
        before,
        "nothing attest found changed"
    );

    let a2 = ledger.article("a2").unwrap().expect("a2 is stored");
    assert_eq!(a2.corrections.len(), 3);
    assert!(a2.corrections.iter().all(|c| c.applies));
    let first = &a2.attributions[0];
    assert!(first.correction.as_ref().is_some_and(|c| c.wrong));
    let second = &a2.attributions[1];
    assert_eq!(second.source.as_deref(), Some("Ms. Dana Whitcombe"));
    assert_eq!(
        second.source_id, first.source_id,
        "the picked source's ledger id"
    );
    assert_eq!(second.stance.as_deref(), Some("claims"));
    assert_eq!(
        second.correction.as_ref().map(|c| c.id),
        Some(source.id),
        "the latest wins"
    );
    let found = second.found.as_ref().expect("what attest found is kept");
    assert_eq!(
        (found.source.as_deref(), found.stance.as_deref()),
        (Some("Lee Whitcombe"), Some("asserts"))
    );
    every_view_reads_the_corrections(&ledger, &stats_before);

    let mut gold = Vec::new();
    let hand = |ledger: &Ledger, gold: &mut Vec<GoldArticle>| {
        gold.clear();
        ledger
            .reviewed_articles(&mut |article| {
                gold.push(article);
                Ok(())
            })
            .unwrap()
    };
    let unreviewed = GoldCount {
        reviewed: 0,
        unreviewed: 1,
    };
    assert_eq!(
        hand(&ledger, &mut gold),
        unreviewed,
        "a correction alone is no review"
    );
    assert!(ledger.article("a2").unwrap().unwrap().review.is_none());
    assert!(matches!(
        ledger.review("no-such-article"),
        Err(LedgerError::NoArticle { .. })
    ));
    let review = ledger.review("a2").unwrap();
    assert!(review.applies);
    assert_eq!(ledger.article("a2").unwrap().unwrap().review, Some(review));
    // An article reviewed without corrections is gold as attest found it.
    ledger.review("a1").unwrap();
    let both = GoldCount {
        reviewed: 2,
        unreviewed: 0,
    };
    assert_eq!(hand(&ledger, &mut gold), both);
    let a1 = ledger.article("a1").unwrap().unwrap();
    assert_eq!(gold[0].id, "a1");
    assert_eq!(gold[0].attributions.len(), a1.attributions.len());
    let article = &gold[1];
    assert_eq!(article.id, "a2");
    assert_eq!(article.attributions.len(), 1, "the wrong one is left out");
    let only = &article.attributions[0];
    let slice = |[start, end]: [usize; 2]| &article.text[start..end];
    assert_eq!(slice(only.cue[0]), "said");
    assert_eq!(
        slice(only.source[0]),
        "Ms. Dana Whitcombe",
        "the picked source's mention"
    );
    assert_eq!(only.stance, Some(StanceLabel::Claims));

    // Stored again with another analysis, the article keeps its corrections,
    // and those whose attribution moved no longer apply.
    use SourceKind::*;
    let revised = story(
        "a2",
        "Coast Herald",
        "2026-04-10",
        "Ms. Dana Whitcombe denied the union had signed. Lee Whitcombe said the vote was close. The deal reportedly stalled.",
        &[said(
            "Lee Whitcombe",
            "Lee Whitcombe",
            Person,
            "said",
            "the vote was close",
            false,
            StanceLabel::Asserts,
        )],
        &[],
    );
    ledger
        .store_one(&revised, &ArticleKey::by_id("a2"), OnConflict::Replace)
        .unwrap();
    let a2 = ledger.article("a2").unwrap().expect("a2 is stored");
    assert_eq!(a2.corrections.len(), 3, "kept across a replacement");
    assert!(a2.corrections.iter().all(|c| !c.applies));
    assert!(a2.attributions.iter().all(|a| a.correction.is_none()));
    assert!(
        a2.review.is_some_and(|r| !r.applies),
        "a review vouches for the analysis it read, not the one after"
    );
    let a1_only = GoldCount {
        reviewed: 1,
        unreviewed: 0,
    };
    assert_eq!(hand(&ledger, &mut gold), a1_only);
    assert_eq!(gold[0].id, "a1");
    drop(ledger);
}

/// After the corrections of [`corrections_stand_beside_what_attest_found`]
/// (in a2, Lee Whitcombe's statement given to Ms. Dana Whitcombe as a
/// claim, her denial marked as no attribution), statements, search,
/// rankings, statistics and the export read the corrected reading, marked,
/// with what attest found beside it.
fn every_view_reads_the_corrections(ledger: &Ledger, stats_before: &[StatsRow]) {
    let lee = ledger.find_sources("Lee Whitcombe").unwrap();
    assert_eq!(
        lee[0].statements, 0,
        "its one statement was given to another"
    );
    assert!(
        ledger
            .said("Lee Whitcombe", &Filter::default(), 10)
            .unwrap()
            .is_empty()
    );
    let dana = ledger.find_sources("Dana Whitcombe").unwrap();
    assert_eq!(dana[0].statements, 2, "one taken (not one), one given");
    let said = ledger
        .said("Dana Whitcombe", &Filter::default(), 10)
        .unwrap();
    let read: Vec<_> = said
        .iter()
        .map(|s| {
            (
                s.article.as_str(),
                s.attribution,
                s.stance.as_deref(),
                s.found.is_some(),
            )
        })
        .collect();
    assert_eq!(
        read,
        [
            ("a1", 0, Some("asserts"), false),
            ("a2", 1, Some("claims"), true)
        ]
    );
    assert_eq!(said[1].source, "Ms. Dana Whitcombe");
    let found = said[1]
        .found
        .as_ref()
        .expect("marked, with what attest found");
    assert_eq!(found.summary(), "Lee Whitcombe (person), indirect, asserts");
    assert_eq!(
        ledger
            .statements(dana[0].id, &Filter::default(), 10)
            .unwrap(),
        said
    );

    let herald = Filter {
        outlet: Some("Coast Herald".into()),
        ..Filter::default()
    };
    let ranked: Vec<_> = ledger
        .top_sources(&herald, Page::first(10))
        .unwrap()
        .into_iter()
        .map(|s| (s.name, s.statements))
        .collect();
    assert_eq!(
        ranked,
        [
            ("Dana Whitcombe".to_string(), 2),
            ("officials".to_string(), 1),
            ("Lee Whitcombe".to_string(), 0)
        ],
        "counted from the outlet's appearances, as corrected"
    );

    let hits = ledger.search("vote close", &Filter::default(), 10).unwrap();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].source.as_deref(), Some("Ms. Dana Whitcombe"));
    assert_eq!(hits[0].source_id, Some(dana[0].id));
    assert_eq!(hits[0].stance.as_deref(), Some("claims"));
    assert_eq!(
        hits[0].found.as_ref().and_then(|f| f.source.as_deref()),
        Some("Lee Whitcombe")
    );
    assert!(
        ledger
            .search("union signed", &Filter::default(), 10)
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        ledger
            .search_total("union signed", &Filter::default())
            .unwrap(),
        0
    );
    assert_eq!(ledger.search_total("vote close", &herald).unwrap(), 1);

    let stats = ledger.stats(GroupBy::Outlet, &Filter::default()).unwrap();
    let herald_row = |rows: &[StatsRow]| {
        rows.iter()
            .find(|row| row.group.as_deref() == Some("Coast Herald"))
            .cloned()
            .expect("a row for the outlet")
    };
    let (before, after) = (herald_row(stats_before), herald_row(&stats));
    assert_eq!((before.attributions, after.attributions), (4, 3));
    let share = |row: &StatsRow, label: StanceLabel| row.stances.get(&label).copied().flatten();
    assert_eq!(share(&before, StanceLabel::Denies), Some(0.25));
    assert_eq!(share(&after, StanceLabel::Denies), Some(0.0));
    assert_eq!(share(&after, StanceLabel::Claims), Some(0.3333));
    assert_eq!(
        herald_row(&ledger.stats(GroupBy::Outlet, &herald).unwrap()),
        after,
        "the same under a filter"
    );
    let valley = |rows: &[StatsRow]| {
        rows.iter()
            .find(|r| r.group.as_deref() == Some("Valley Times"))
            .cloned()
    };
    assert_eq!(valley(stats_before), valley(&stats), "untouched");

    let a2 = ledger.article("a2").unwrap().unwrap().article;
    assert_eq!(a2.attributions, Some(1), "one of two is no attribution");
    let listed = ledger.articles(&herald, 10, 0).unwrap();
    assert_eq!(listed.iter().find(|a| a.id == "a2"), Some(&a2));

    let mut sink = Collect(Vec::new(), Vec::new());
    assert_eq!(ledger.export("corrected", &mut sink).unwrap(), 2);
    let column = |name: &str| sink.0.iter().position(|c| c.name == name).unwrap();
    let second = &sink.1[1];
    assert_eq!(
        second[column("source")],
        Cell::Text("Ms. Dana Whitcombe".into())
    );
    assert_eq!(
        second[column("found_source")],
        Cell::Text("Lee Whitcombe".into())
    );
    assert_eq!(sink.1[0][column("wrong")], Cell::Integer(1));
    assert!(
        ledger.check().unwrap().is_ok(),
        "the kept counts still add up"
    );
}

/// The lines of the plan either database makes for `sql`. PostgreSQL is told
/// not to scan, since it would rather scan a table this small whatever the
/// condition.
fn query_plan(conn: &Conn<'_>, sql: &str, params: &[rusqlite::types::Value]) -> Vec<String> {
    let explain = if conn.is_postgres() {
        conn.batch("SET enable_seqscan = off").unwrap();
        "EXPLAIN"
    } else {
        "EXPLAIN QUERY PLAN"
    };
    conn.rows(&format!("{explain} {sql}"), params)
        .unwrap()
        .into_iter()
        .flat_map(|row| row.into_values())
        .filter_map(|value| match value {
            rusqlite::types::Value::Text(line) => Some(line),
            _ => None,
        })
        .collect()
}

/// Storing a batch sums its articles and their stances by cell, reading the
/// articles by id, and adds each sum to its statistics cell and stance
/// rows, looked up through their index (`stats_cells_key`,
/// `stats_stances_key`), with or without an outlet and a date. In
/// PostgreSQL `IS NOT DISTINCT FROM` read every cell instead, for each
/// article stored.
fn finds_the_cell_of_an_article_through_its_index(db: &TestDb) {
    let ledger = Ledger::open(db.location()).unwrap();
    let conn = ledger.conn();
    let ids = vec![rusqlite::types::Value::Text(
        r#"[{"id":1},{"id":2}]"#.to_string(),
    )];
    let article_index = if conn.is_postgres() {
        "articles_pkey"
    } else {
        "USING INTEGER PRIMARY KEY"
    };
    for sql in [cells::cell_sums_sql(&conn), cells::stance_sums_sql(&conn)] {
        let plan = query_plan(&conn, &sql, &ids);
        assert!(
            plan.iter().any(|line| line.contains(article_index)),
            "{sql}: {plan:?}"
        );
        assert!(
            !plan.iter().any(|line| line.contains("Seq Scan")
                || line.trim_start().starts_with("SCAN a")
                || line.trim_start().starts_with("SCAN s")
                || line.trim_start().starts_with("SCAN articles")),
            "{sql}: {plan:?}"
        );
    }
    let values = [1; cells::COLUMNS.len()];
    for (outlet, date) in [
        (Some("Coast Herald"), Some("2026-01-02")),
        (None, Some("2026-01-02")),
        (Some("Coast Herald"), None),
        (None, None),
    ] {
        let [remove_cell, remove_stances] = cells::remove_empty_cell(outlet, date);
        for ((sql, params), index) in [
            (
                cells::add_to_cell_sql(outlet, date, &values),
                "stats_cells_key",
            ),
            (remove_cell, "stats_cells_key"),
            (
                cells::add_to_stance_cell(outlet, date, StanceLabel::Denies.name(), 1),
                "stats_stances_key",
            ),
            (remove_stances, "stats_stances_key"),
        ] {
            let plan = query_plan(&conn, &sql, &params);
            assert!(
                plan.iter().any(|line| line.contains(index)),
                "{sql}: {plan:?}"
            );
        }
    }
}

/// A batch looks up its articles and merged sources by key in one
/// statement each, through the tables' unique index of keys: reading the
/// whole table instead would make each batch cost more as the ledger grows.
fn finds_stored_articles_and_sources_by_key_through_their_index(db: &TestDb) {
    let ledger = ingest(db, &corpus());
    let conn = ledger.conn();
    for table in ["articles", "sources"] {
        let keys = ["id:a1", "person:ann lee"];
        let (sql, param) = batch::by_key(&conn, table, keys.into_iter()).unwrap();
        let plan = query_plan(&conn, &sql, &[param]);
        let through_index = |line: &String| {
            if conn.is_postgres() {
                line.contains(&format!("Index Scan using {table}_key_key on {table} t"))
                    || line.contains(&format!(
                        "Index Only Scan using {table}_key_key on {table} t"
                    ))
                    || line.contains(&format!("Bitmap Index Scan on {table}_key_key"))
            } else {
                line.starts_with("SEARCH t USING") && line.contains("(key=?)")
            }
        };
        assert!(plan.iter().any(through_index), "{sql}: {plan:?}");
    }
}

/// A run's band slices are read through the band keys' primary key, a
/// bounded slice of each key, its candidates' statements and claims by
/// primary key, and the keys an article's removal empties are taken out by
/// the same key: never a scan of a table, which would make storing an
/// article cost more as the ledger grows.
fn finds_a_statements_candidates_through_the_band_index(db: &TestDb) {
    let ledger = Ledger::open(db.location()).unwrap();
    let conn = ledger.conn();
    let json = |rows: &str| vec![rusqlite::types::Value::Text(rows.to_string())];
    let band_index = if conn.is_postgres() {
        "claim_bands_pkey"
    } else {
        "USING PRIMARY KEY (band_key=?"
    };
    let statement_index = if conn.is_postgres() {
        "statements_pkey"
    } else {
        "SEARCH s USING INTEGER PRIMARY KEY"
    };
    let only = |write: grouping::BandWrite<'_>| {
        let statements = write.statements(&conn).unwrap();
        assert_eq!(statements.len(), 1, "{statements:?}");
        statements.into_iter().next().unwrap()
    };
    let (update, update_params) = only(grouping::BandWrite::Update(&[
        (1, vec![1, 0, 0, 0]),
        (2, vec![1, 0, 0, 0]),
    ]));
    let (take_out, take_out_params) = only(grouping::BandWrite::Clear(&[1, 2]));
    for (sql, params, index) in [
        (
            grouping::band_slices_sql(&conn),
            json(r#"[{"band_key":1},{"band_key":2}]"#),
            band_index,
        ),
        (
            grouping::candidates_sql(&conn),
            json(r#"[{"id":1},{"id":2}]"#),
            statement_index,
        ),
        (update, update_params, band_index),
        (take_out, take_out_params, band_index),
    ] {
        let plan = query_plan(&conn, &sql, &params);
        assert!(plan.iter().any(|line| line.contains(index)), "{plan:?}");
        // The parameter is read once: a plan that reads it inside a loop
        // reads it again for every row of the loop.
        let parameter_reads = plan
            .iter()
            .filter(|line| line.contains("Function Scan") || line.contains("SCAN json_each"))
            .count();
        assert!(parameter_reads <= 1, "{sql}: {plan:?}");
        // Scanning the parameters' rows (SQLite's `json_each` or bound
        // values, PostgreSQL's function scan) reads the run's own keys; any
        // other scan, or PostgreSQL's sequential one, reads a whole table.
        for line in &plan {
            let scans_a_table = line.contains("Seq Scan")
                || line.trim_start().strip_prefix("SCAN ").is_some_and(|rest| {
                    !rest.starts_with("json_each") && !rest.ends_with("VALUES CLAUSE")
                });
            assert!(!scans_a_table, "{line}: {plan:?}");
        }
    }
}

/// The stances of versions 1 and 2, each a column of `articles` (`n_` and
/// the name) and of `stats_cells`; version 3 made them rows.
const VERSION_2_STANCES: [&str; 8] = [
    "asserts", "confirms", "denies", "declines", "claims", "reports", "believes", "intends",
];

/// Statistics read the same before and after a ledger is taken back to
/// version 2's stance columns and migrated forward again, and the migrated
/// ledger passes its own check.
fn a_version_2_ledger_migrates_its_stance_counts_without_loss(db: &TestDb) {
    let mut docs = corpus();
    docs.push(Doc::new(Article::new("bare", "Nothing was looked for.")));
    let ledger = ingest(db, &docs);
    let questions = [
        (GroupBy::Outlet, Filter::default()),
        (GroupBy::Month, Filter::default()),
        (GroupBy::All, Filter::default()),
        (
            GroupBy::Month,
            Filter {
                outlet: Some("Coast Herald".into()),
                ..Filter::default()
            },
        ),
    ];
    let stats = |ledger: &Ledger| -> Vec<Vec<StatsRow>> {
        questions
            .iter()
            .map(|(by, filter)| ledger.stats(*by, filter).unwrap())
            .collect()
    };
    let before = stats(&ledger);
    let mut downgrade = String::new();
    for name in VERSION_2_STANCES {
        downgrade.push_str(&format!(
            "ALTER TABLE articles ADD COLUMN n_{name} INTEGER;\n\
             UPDATE articles SET n_{name} = CASE WHEN n_stanced IS NULL THEN NULL ELSE \
             coalesce((SELECT s.attributions FROM article_stances s \
             WHERE s.article = articles.id AND s.stance = '{name}'), 0) END;\n\
             ALTER TABLE stats_cells ADD COLUMN {name} INTEGER NOT NULL DEFAULT 0;\n\
             UPDATE stats_cells SET {name} = coalesce((SELECT s.attributions \
             FROM stats_stances s WHERE s.stance = '{name}' \
             AND s.outlet IS NOT DISTINCT FROM stats_cells.outlet \
             AND s.published_date IS NOT DISTINCT FROM stats_cells.published_date), 0);\n"
        ));
    }
    downgrade.push_str(VERSION_7_DROPPED);
    downgrade.push_str("DROP TABLE stats_stances; DROP TABLE article_stances;");
    downgrade.push_str(VERSION_5_DROPPED);
    downgrade.push_str(VERSION_4_DROPPED);
    ledger.conn().batch(&downgrade).unwrap();
    drop(ledger);
    db.set_schema_version(2);

    let ledger = Ledger::open(db.location()).unwrap();
    let without_certainty = |rows: Vec<Vec<StatsRow>>| -> Vec<Vec<StatsRow>> {
        rows.into_iter()
            .map(|rows| {
                rows.into_iter()
                    .map(|row| StatsRow {
                        hedged_attribution_share: None,
                        writers_voice_sentences: 0,
                        hedged_sentence_share: None,
                        ..row
                    })
                    .collect()
            })
            .collect()
    };
    assert_eq!(stats(&ledger), without_certainty(before));
    let report = ledger.check().unwrap();
    assert!(report.is_ok(), "{report:?}");
    drop(ledger);
}

/// What version 5 added, taken away again to make a ledger of version 4.
/// What versions 7 and 8 added, dropped to make a ledger of an earlier version.
const VERSION_7_DROPPED: &str = "DROP VIEW corrected; DROP TABLE reviews;";

/// A ledger of version 6 opens as version 7 with no reviews, its
/// corrections kept, and takes a review at once.
fn a_version_6_ledger_gains_reviews_and_keeps_its_corrections(db: &TestDb) {
    let mut ledger = ingest(db, &corpus());
    let input = CorrectionInput {
        attribution: 0,
        wrong: true,
        ..CorrectionInput::default()
    };
    ledger.correct("a2", &input).unwrap();
    bands_as_version_9(&ledger.conn());
    ledger.conn().batch(VERSION_7_DROPPED).unwrap();
    drop(ledger);
    db.set_schema_version(6);

    let mut ledger = Ledger::open(db.location()).unwrap();
    let a2 = ledger.article("a2").unwrap().expect("a2 is stored");
    assert_eq!(a2.corrections.len(), 1);
    assert_eq!(a2.review, None);
    ledger.review("a2").unwrap();
    assert!(ledger.article("a2").unwrap().unwrap().review.is_some());
    assert!(ledger.check().unwrap().is_ok());
    drop(ledger);
}

const VERSION_5_DROPPED: &str = "
    DROP TABLE claim_bands;
    DROP TABLE statements;
    DROP TABLE claims;
";

/// Two articles in which one claim travels from a named inspector to the
/// mayor.
fn travelling_claim() -> Vec<Doc> {
    use SourceKind::*;
    use StanceLabel::*;
    let text = |who: &str| format!("{who} said the harbour crane contract went to a Dunmore firm.");
    let first = text("Ana Ruiz");
    let later = text("The mayor");
    vec![
        story(
            "c1",
            "Coast Herald",
            "2026-05-04",
            &first,
            &[said(
                "Ana Ruiz",
                "Ana Ruiz",
                Person,
                "said",
                "the harbour crane contract went to a Dunmore firm",
                false,
                Asserts,
            )],
            &[],
        ),
        story(
            "c2",
            "Valley Times",
            "2026-05-06",
            &later,
            &[said(
                "The mayor",
                "the mayor",
                Unnamed,
                "said",
                "the harbour crane contract went to a Dunmore firm",
                false,
                Asserts,
            )],
            &[],
        ),
    ]
}

fn a_version_4_ledger_gains_claims_as_its_articles_are_stored_again(db: &TestDb) {
    let docs = travelling_claim();
    let travel = |ledger: &Ledger| -> Vec<(String, String)> {
        let filter = ClaimFilter {
            min_articles: 2,
            ..ClaimFilter::default()
        };
        ledger
            .claims(&filter, 10)
            .unwrap()
            .iter()
            .flat_map(|claim| claim.appearances.iter())
            .map(|a| (a.article.clone(), a.role.clone()))
            .collect()
    };
    let expected = [
        ("c1".to_string(), "origin".to_string()),
        ("c2".to_string(), "misattributed".to_string()),
    ];
    let ledger = ingest(db, &docs);
    assert_eq!(travel(&ledger), expected);
    ledger
        .conn()
        .batch(&format!("{VERSION_7_DROPPED}{VERSION_5_DROPPED}"))
        .unwrap();
    drop(ledger);
    db.set_schema_version(4);

    let mut ledger = Ledger::open(db.location()).unwrap();
    assert_eq!(
        travel(&ledger),
        [],
        "articles stored before claims carry none"
    );
    store_all(&mut ledger, &docs, OnConflict::Replace, Stored::Replaced);
    assert_eq!(travel(&ledger), expected);
    let report = ledger.check().unwrap();
    assert!(report.is_ok(), "{report:?}");
}

/// Version 5's `claim_bands`: a table of row ids with a foreign key and an
/// index by key and one by statement.
const VERSION_5_BANDS: &str = "
    ALTER TABLE claim_bands RENAME TO claim_bands_6;
    CREATE TABLE claim_bands (
        band_key BIGINT NOT NULL,
        statement BIGINT NOT NULL REFERENCES statements(id) ON DELETE CASCADE
    );
    INSERT INTO claim_bands SELECT band_key, statement FROM claim_bands_6;
    DROP TABLE claim_bands_6;
    CREATE INDEX claim_bands_key ON claim_bands(band_key, statement);
    CREATE INDEX claim_bands_statement ON claim_bands(statement);
";

/// A ledger of version 5 keeps its band rows through the migration, a new
/// article joins the claims they index, and storing an article again takes
/// its old statements' band rows out, though no index by statement finds
/// them.
fn a_version_5_ledger_keeps_its_band_rows_and_replaced_articles_take_theirs_out(db: &TestDb) {
    let docs = travelling_claim();
    let band_rows = |ledger: &Ledger| -> usize {
        band_keys(&ledger.conn())
            .iter()
            .map(|(_, statements)| statements.len())
            .sum()
    };
    let ledger = ingest(db, &docs[..1]);
    let before = band_rows(&ledger);
    assert_eq!(before, attest_claims::BANDS, "one exemplar");
    bands_as_version_9(&ledger.conn());
    ledger
        .conn()
        .batch(&format!("{VERSION_7_DROPPED}{VERSION_5_BANDS}"))
        .unwrap();
    drop(ledger);
    db.set_schema_version(5);

    let mut ledger = Ledger::open(db.location()).unwrap();
    assert_eq!(band_rows(&ledger), before);
    store_all(&mut ledger, &docs[1..], OnConflict::Skip, Stored::Added);
    let filter = ClaimFilter {
        min_articles: 2,
        ..ClaimFilter::default()
    };
    assert_eq!(ledger.claims(&filter, 10).unwrap().len(), 1, "c2 joined c1");
    let both = band_rows(&ledger);
    store_all(&mut ledger, &docs, OnConflict::Replace, Stored::Replaced);
    assert_eq!(
        band_rows(&ledger),
        both,
        "the old rows went with the old statements"
    );
    let report = ledger.check().unwrap();
    assert!(report.is_ok(), "{report:?}");
}

/// Each band key with its statements, the oldest first, in key order.
fn band_keys(conn: &Conn<'_>) -> Vec<(i64, Vec<i64>)> {
    conn.rows(
        "SELECT band_key, statements FROM claim_bands ORDER BY band_key",
        &[],
    )
    .unwrap()
    .iter()
    .map(|row| {
        let statements: Vec<u8> = row.get("statements").unwrap();
        (
            row.get("band_key").unwrap(),
            grouping::unpacked(&statements).collect(),
        )
    })
    .collect()
}

/// Gives band keys (in key order) these bytes, whatever they held.
fn set_band_keys(conn: &Conn<'_>, rows: &[(i64, Vec<u8>)]) {
    let keys: Vec<i64> = rows.iter().map(|(key, _)| *key).collect();
    grouping::BandWrite::Clear(&keys).write(conn).unwrap();
    grouping::BandWrite::Insert(rows).write(conn).unwrap();
}

/// Takes `claim_bands` back to version 9's rows, a row a band key and
/// statement, to make a ledger of an earlier version.
fn bands_as_version_9(conn: &Conn<'_>) {
    let keys = band_keys(conn);
    let table = "CREATE TABLE claim_bands (
        band_key INTEGER NOT NULL,
        statement INTEGER NOT NULL,
        CONSTRAINT claim_bands_key PRIMARY KEY (band_key, statement)
    ) WITHOUT ROWID;";
    let table = if conn.is_postgres() {
        schema::postgres_types(table)
    } else {
        table.to_string()
    };
    conn.batch(&format!("DROP TABLE claim_bands; {table}"))
        .unwrap();
    for (key, statements) in keys {
        for statement in statements {
            conn.execute(
                "INSERT INTO claim_bands (band_key, statement) VALUES (?1, ?2)",
                values![key, statement],
            )
            .unwrap();
        }
    }
}

/// A band key holds at most [`attest_claims::PER_BAND_KEY`] statements,
/// the latest, which are all a lookup reads: a new exemplar pushes the
/// oldest out. A ledger of version 8, which kept a row for every statement
/// under a key, keeps only the latest of each key once it is opened, and the
/// check finds a key that holds a statement not stored.
fn a_band_key_keeps_its_latest_statements_and_a_version_8_ledger_drops_the_rest(db: &TestDb) {
    let per_key = attest_claims::PER_BAND_KEY;
    let statements_of = |ledger: &Ledger, key: i64| -> Vec<i64> {
        band_keys(&ledger.conn())
            .into_iter()
            .find(|(held, _)| *held == key)
            .map(|(_, statements)| statements)
            .unwrap_or_default()
    };
    let docs = crowded_claims();
    let others: Vec<Doc> = docs
        .iter()
        .filter(|doc| doc.text().contains("depot"))
        .take(per_key)
        .cloned()
        .collect();
    assert_eq!(others.len(), per_key, "as many other claims as a key holds");
    let mut keys: Vec<i64> = attest_claims::statements(&docs[0])
        .iter()
        .flat_map(|statement| statement.fingerprint.band_keys())
        .map(|key| key as i64)
        .collect();
    keys.sort_unstable();
    keys.dedup();
    assert!(!keys.is_empty(), "c1 makes a statement");
    // The other claims' statements fill c1's keys: the lookup finds them
    // and joins none, so c1 starts its claim, and its statement goes into
    // full keys.
    let mut ledger = Ledger::open(db.location()).unwrap();
    store_all(&mut ledger, &others, OnConflict::Skip, Stored::Added);
    let older: Vec<i64> = ledger
        .conn()
        .column("SELECT id FROM statements ORDER BY id", &[])
        .unwrap();
    assert_eq!(older.len(), per_key);
    let full = grouping::packed(older.iter().copied()).unwrap();
    let filled: Vec<(i64, Vec<u8>)> = keys.iter().map(|&key| (key, full.clone())).collect();
    set_band_keys(&ledger.conn(), &filled);
    store_all(&mut ledger, &docs[..1], OnConflict::Skip, Stored::Added);
    let statement: i64 = ledger
        .conn()
        .value("SELECT max(id) FROM statements", &[])
        .unwrap();
    let mut expected = older[1..].to_vec();
    expected.push(statement);
    for &key in &keys {
        assert_eq!(statements_of(&ledger, key), expected, "key {key}");
    }

    let crowded = 42;
    bands_as_version_9(&ledger.conn());
    let newest = statement + 4;
    for statement in 1..=newest {
        ledger
            .conn()
            .execute(
                "INSERT INTO claim_bands (band_key, statement) VALUES (?1, ?2)",
                values![crowded, statement],
            )
            .unwrap();
    }
    drop(ledger);
    db.set_schema_version(8);
    let ledger = Ledger::open(db.location()).unwrap();
    let latest: Vec<i64> = (newest + 1 - per_key as i64..=newest).collect();
    assert_eq!(statements_of(&ledger, crowded), latest);
    assert_eq!(statements_of(&ledger, keys[0]), expected);
    let report = ledger.check().unwrap();
    assert_eq!(
        report.count_mismatches,
        ["1 band keys that hold no statement, too many, or one not stored"],
        "key {crowded} holds statements never stored"
    );
    grouping::BandWrite::Clear(&[crowded])
        .write(&ledger.conn())
        .unwrap();
    let report = ledger.check().unwrap();
    assert!(report.is_ok(), "{report:?}");
}

/// The check finds each band key that storing never leaves: one that holds
/// no statement, more than a key keeps, ids out of order, bytes that are
/// not whole ids, or a statement not stored.
fn the_check_finds_band_keys_that_storing_never_leaves(db: &TestDb) {
    let ledger = ingest(db, &crowded_claims());
    assert!(ledger.check().unwrap().is_ok());
    let stored: Vec<i64> = ledger
        .conn()
        .column("SELECT id FROM statements ORDER BY id", &[])
        .unwrap();
    let per_key = attest_claims::PER_BAND_KEY;
    assert!(stored.len() > per_key, "{} statements", stored.len());
    let mut unsound: Vec<(i64, Vec<u8>)> = vec![
        (-3, Vec::new()),
        (
            -2,
            grouping::packed(stored[..=per_key].iter().copied()).unwrap(),
        ),
        (-1, grouping::packed([stored[1], stored[0]]).unwrap()),
        (0, vec![1, 0, 0, 0, 0]),
        (1, grouping::packed([stored[0], 1_000_000]).unwrap()),
    ];
    unsound.sort_unstable();
    set_band_keys(&ledger.conn(), &unsound);
    assert_eq!(
        ledger.check().unwrap().count_mismatches,
        ["5 band keys that hold no statement, too many, or one not stored"]
    );
}

fn one_claim_is_read_by_its_id_and_claims_by_an_article_they_appear_in(db: &TestDb) {
    let ledger = ingest(db, &travelling_claim());
    let listed = ledger.claims(&ClaimFilter::default(), 10).unwrap();
    let [travelled] = listed.as_slice() else {
        panic!("one claim travelled: {listed:?}");
    };
    let by_id = ledger.claim(travelled.claim).unwrap();
    assert_eq!(
        by_id.as_ref(),
        Some(travelled),
        "the same claim, read alone"
    );
    let attributions: Vec<Option<i64>> = travelled
        .appearances
        .iter()
        .map(|a| a.attribution)
        .collect();
    assert_eq!(attributions, [Some(0), Some(0)], "each article's first");
    assert_eq!(ledger.claim(travelled.claim + 1_000).unwrap(), None);
    let in_article = |article: &str| {
        let filter = ClaimFilter {
            article: Some(article.to_string()),
            ..ClaimFilter::default()
        };
        ledger.claims(&filter, 10).unwrap()
    };
    assert_eq!(in_article("c2"), listed);
    assert_eq!(in_article("no-such-article"), []);
}

/// Nine more outlets repeat one claim, more than a claim's exemplars, and
/// ten say the same words of ten different depots, claims that names keep
/// apart, so that their band keys fill and push their oldest rows out.
fn crowded_claims() -> Vec<Doc> {
    use SourceKind::*;
    use StanceLabel::*;
    let mut docs = travelling_claim();
    let depots = [
        "Riverton",
        "Ashford",
        "Belmont",
        "Carrick",
        "Dalby",
        "Elgin",
        "Fenwick",
        "Glenrock",
        "Hartley",
        "Ivybridge",
    ];
    for i in 1..=19 {
        let content = match depots.get(i / 2) {
            Some(depot) if i % 2 == 0 => {
                format!("the {depot} depot opened two years late and over budget")
            }
            _ => "the harbour crane contract went to a Dunmore firm".to_string(),
        };
        let who = ["Ana Ruiz", "The mayor", "Leo Marsh"][i % 3];
        let text = format!("{who} said {content}.");
        docs.push(story(
            &format!("d{i}"),
            &format!("Outlet {i}"),
            &format!("2026-05-{:02}", 6 + i),
            &text,
            &[said(
                &text[..who.len()],
                who,
                Person,
                "said",
                &content,
                false,
                Asserts,
            )],
            &[],
        ));
    }
    docs
}

/// The claims tables, a row a line: what the tests compare.
fn claims_tables(ledger: &Ledger) -> Vec<Vec<String>> {
    [
        "SELECT CAST(id AS TEXT) || ' ' || CAST(claim AS TEXT) || ' ' || CAST(article AS TEXT) \
         || ' ' || said || ' ' || CAST(idx AS TEXT) || ' ' || names FROM statements ORDER BY id",
        "SELECT CAST(id AS TEXT) || ' ' || names || ' ' || years || ' ' \
         || CAST(n_statements AS TEXT) || ' ' || CAST(n_articles AS TEXT) FROM claims ORDER BY id",
    ]
    .iter()
    .map(|sql| ledger.conn().column(sql, &[]).unwrap())
    .chain([band_keys(&ledger.conn())
        .into_iter()
        .flat_map(|(key, statements)| statements.into_iter().map(move |s| format!("{key} {s}")))
        .collect()])
    .collect()
}

/// A batch groups its statements in memory and writes them at its end; what
/// it writes is what storing each article in a batch of its own writes.
fn a_batch_groups_its_statements_as_storing_them_one_by_one_would(db: &TestDb) {
    let docs = crowded_claims();
    let at_once = ingest(db, &docs);
    let alone = db.another("one_by_one");
    let mut one_by_one = Ledger::open(alone.location()).unwrap();
    for doc in &docs {
        store_all(
            &mut one_by_one,
            std::slice::from_ref(doc),
            OnConflict::Skip,
            Stored::Added,
        );
    }
    let tables = claims_tables(&at_once);
    assert_eq!(tables, claims_tables(&one_by_one));
    let [statements, claims, bands] = tables.as_slice() else {
        unreachable!("three tables");
    };
    assert_eq!(statements.len(), docs.len());
    assert_eq!(
        claims.len(),
        1 + 9,
        "one claim travels, nine depots stay apart"
    );
    let per_key = attest_claims::PER_BAND_KEY;
    let mut keys: Vec<&str> = bands
        .iter()
        .filter_map(|row| row.split(' ').next())
        .collect();
    keys.sort_unstable();
    let fullest = keys.chunk_by(|a, b| a == b).map(<[&str]>::len).max();
    assert_eq!(fullest, Some(per_key), "keys filled, and kept their latest");
    let report = at_once.check().unwrap();
    assert!(report.is_ok(), "{report:?}");
}

/// What version 4 added, taken away again to make a ledger of version 3.
const VERSION_4_DROPPED: &str = "
    ALTER TABLE articles DROP COLUMN n_hedged_attributions;
    ALTER TABLE articles DROP COLUMN n_writers_voice_sentences;
    ALTER TABLE articles DROP COLUMN n_hedged_sentences;
    ALTER TABLE stats_cells DROP COLUMN hedged_attributions;
    ALTER TABLE stats_cells DROP COLUMN hedge_attributions;
    ALTER TABLE stats_cells DROP COLUMN writers_voice_sentences;
    ALTER TABLE stats_cells DROP COLUMN hedged_sentences;
";

/// Two outlets over two months: hedges in an attribution's cue, in a
/// sentence of the writer's, and none (a paragraph is a sentence here).
fn hedged_corpus() -> Vec<Doc> {
    use SourceKind::*;
    use StanceLabel::*;
    vec![
        story(
            "h1",
            "Coast Herald",
            "2026-03-02",
            "Officials reportedly said the port would reopen.\n\nThe strike may end soon.\n\nShips waited.",
            &[said(
                "Officials",
                "officials",
                Unnamed,
                "reportedly said",
                "the port would reopen",
                false,
                Asserts,
            )],
            &[
                ("reportedly", "reportedly said the port would reopen"),
                ("may", "may end soon"),
            ],
        ),
        story(
            "h2",
            "Coast Herald",
            "2026-04-10",
            "Ana Ruiz told members the ballot was secret.\n\nDock workers voted on Friday.",
            &[said(
                "Ana Ruiz",
                "Ana Ruiz",
                Person,
                "told members",
                "the ballot was secret",
                false,
                Asserts,
            )],
            &[],
        ),
        story(
            "h3",
            "Valley Times",
            "2026-04-12",
            "The mayor denied the plan had failed.\n\nThe council met.",
            &[said(
                "The mayor",
                "the mayor",
                Person,
                "denied",
                "the plan had failed",
                false,
                Denies,
            )],
            &[],
        ),
    ]
}

/// A statistics group, its hedged share of attributions, its sentences in the
/// writer's voice and their hedged share.
type HedgedIn = (Option<String>, Option<f64>, i64, Option<f64>);

fn statistics_give_the_shares_the_writer_hedged_by_outlet_and_month(db: &TestDb) {
    let mut docs = hedged_corpus();
    docs.push(Doc::new(Article::new("bare", "Nothing was looked for.")));
    let ledger = ingest(db, &docs);
    let shares = |by| -> Vec<HedgedIn> {
        ledger
            .stats(by, &Filter::default())
            .unwrap()
            .into_iter()
            .map(|r| {
                (
                    r.group,
                    r.hedged_attribution_share,
                    r.writers_voice_sentences,
                    r.hedged_sentence_share,
                )
            })
            .collect()
    };
    let herald = Some("Coast Herald".to_string());
    let valley = Some("Valley Times".to_string());
    assert_eq!(
        shares(GroupBy::Outlet),
        [
            (None, None, 0, None),
            (herald, Some(0.5), 3, Some(0.3333)),
            (valley, Some(0.0), 1, Some(0.0)),
        ],
        "the bare article counts in no share"
    );
    assert_eq!(
        shares(GroupBy::Month),
        [
            (None, None, 0, None),
            (Some("2026-03".into()), Some(1.0), 2, Some(0.5)),
            (Some("2026-04".into()), Some(0.0), 2, Some(0.0)),
        ]
    );
    let report = ledger.check().unwrap();
    assert!(report.is_ok(), "{report:?}");
    drop(ledger);
}

fn a_version_3_ledger_counts_no_certainty_until_articles_are_stored_again(db: &TestDb) {
    let docs = hedged_corpus();
    let ledger = ingest(db, &docs);
    ledger
        .conn()
        .batch(&format!(
            "{VERSION_7_DROPPED}{VERSION_5_DROPPED}{VERSION_4_DROPPED}"
        ))
        .unwrap();
    drop(ledger);
    db.set_schema_version(3);

    let mut ledger = Ledger::open(db.location()).unwrap();
    let all = |ledger: &Ledger| ledger.stats(GroupBy::All, &Filter::default()).unwrap();
    let before = all(&ledger).remove(0);
    assert_eq!(before.attributions, 3);
    assert_eq!(
        (
            before.hedged_attribution_share,
            before.hedged_sentence_share
        ),
        (None, None),
        "articles stored before version 4 were not counted"
    );
    assert!(ledger.check().unwrap().is_ok());
    store_all(&mut ledger, &docs, OnConflict::Replace, Stored::Replaced);
    let after = all(&ledger).remove(0);
    assert_eq!(
        (after.hedged_attribution_share, after.hedged_sentence_share),
        (Some(0.3333), Some(0.25))
    );
    assert!(ledger.check().unwrap().is_ok());
    drop(ledger);
}

/// A layer table that no build stores: each word token, with its kind,
/// made by a schema version after this build's.
const TOY: layers::LayerTable = layers::LayerTable {
    name: "toy_words",
    layer: Layer::Tokens,
    count: "n_toy_words",
    since: SCHEMA_VERSION + 1,
    columns: &[
        layers::SPAN_COLUMNS[0],
        layers::SPAN_COLUMNS[1],
        layers::SPAN_COLUMNS[2],
        ("kind", "TEXT NOT NULL"),
    ],
    rows: |doc| {
        let tokens = doc.tokens().iter();
        tokens
            .map(|t| {
                let kind = rusqlite::types::Value::Text(attest_doc::serde_name(&t.kind));
                [layers::span(doc, t.span), vec![kind]].concat()
            })
            .collect()
    },
};

/// What "Adding a layer" in ARCHITECTURE.md promises of the ledger: a layer
/// table described once is made by its schema version's step, in SQLite's
/// types and PostgreSQL's, stored with its count beside the article, held
/// to that count by the check and read back by an export.
fn a_toy_layer_described_once_is_made_stored_checked_and_exported(db: &TestDb) {
    let docs = corpus();
    let ledger = ingest(db, &docs);
    let conn = ledger.conn();
    let create = TOY.create();
    let create = if conn.is_postgres() {
        schema::postgres_types(&create)
    } else {
        create
    };
    conn.batch(&create)
        .expect("the toy table and its count are made");
    let mut words = 0;
    for doc in &docs {
        let key = ArticleKey::by_id(&doc.article().id);
        let article: i64 = conn
            .value(
                "SELECT id FROM articles WHERE key = ?1",
                values![key.as_str()],
            )
            .unwrap();
        let rows = TOY.rows_of(doc).expect("the corpus is tokenized");
        words += rows.len();
        conn.execute(
            &format!("UPDATE articles SET {} = ?1 WHERE id = ?2", TOY.count),
            values![rows.len() as i64, article],
        )
        .unwrap();
        let mut batch = layers::BatchRows::of(&[TOY]);
        batch.add(article, vec![Some(rows)]).unwrap();
        batch.insert(&conn).unwrap();
    }
    assert!(words > 0);
    assert_eq!(
        check::article_count_mismatch(&conn, TOY.count, TOY.name).unwrap(),
        None
    );
    let report = ledger.check().unwrap();
    assert!(report.is_ok(), "{report:?}");

    let mut sink = Collect::default();
    let exported = ledger
        .export("SELECT r.* FROM toy_words r ORDER BY r.id", &mut sink)
        .unwrap();
    assert_eq!(exported, words);
    let names: Vec<&str> = sink.0.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "id",
            "article",
            "idx",
            "byte_start",
            "byte_end",
            "text",
            "kind"
        ]
    );
    let first = docs[0].tokens()[0].span;
    assert_eq!(
        sink.1[0][2..6],
        [
            Cell::Integer(0),
            Cell::Integer(first.byte_start() as i64),
            Cell::Integer(first.byte_end() as i64),
            Cell::Text(docs[0].span_text(first).to_string()),
        ]
    );

    conn.execute("DELETE FROM toy_words WHERE idx = 0", values![])
        .unwrap();
    assert_eq!(
        check::article_count_mismatch(&conn, TOY.count, TOY.name).unwrap(),
        Some(format!(
            "{} articles whose n_toy_words is not their toy_words rows",
            docs.len()
        ))
    );
    drop(ledger);
}
