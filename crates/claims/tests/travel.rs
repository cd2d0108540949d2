//! Claims grouped across analysed articles written for this test, through the
//! whole pipeline.

use attest_claims::{Role, group};
use attest_doc::{Article, Doc, Limits};
use attest_pipeline::{LinearModels, Pipeline};

fn analysed(articles: &[(&str, &str, &str)]) -> Vec<Doc> {
    let models = LinearModels::bundled().expect("the bundled models load");
    let pipeline = Pipeline::fast(&Limits::DEFAULT, models).expect("the fast pipeline builds");
    articles
        .iter()
        .map(|(id, published, text)| {
            let mut article = Article::new(*id, *text);
            article.published = published.parse().ok();
            pipeline.analyze(article)
        })
        .collect()
}

/// The claim and role of the statement whose text holds `words`, in the
/// article of that id.
fn found(docs: &[Doc], grouped: &[attest_claims::Grouped], id: &str, words: &str) -> (u64, Role) {
    grouped
        .iter()
        .find(|item| {
            let doc = &docs[item.article];
            doc.article().id == id
                && item
                    .statement
                    .spans
                    .iter()
                    .any(|span| doc.span_text(*span).contains(words))
        })
        .map(|item| (item.claim, item.role))
        .unwrap_or_else(|| panic!("no statement of {id} holds {words:?}"))
}

#[test]
fn a_claim_travels_and_a_look_alike_with_another_figure_stays_apart() {
    let docs = analysed(&[
        (
            "later",
            "2026-03-09T10:00:00Z",
            "The mayor said the Dunmore plant failed 11 safety inspections since 2023.\n\n\
             A spokesman for the water authority denied that the Dunmore plant had failed 11 inspections.",
        ),
        (
            "first",
            "2026-03-02T09:00:00Z",
            "Inspector Ana Ruiz said the Dunmore water plant may have failed 11 safety inspections since 2023.\n\n\
             Ruiz said the Dunmore plant failed 7 fire inspections in 2019.",
        ),
        (
            "last",
            "2026-03-20T16:30:00Z",
            "Inspector Ana Ruiz confirmed on Friday that the Dunmore plant failed 11 safety inspections since 2023.",
        ),
    ]);
    let grouped = group(&docs);
    let origin = found(&docs, &grouped, "first", "may have failed 11");
    let other = found(&docs, &grouped, "first", "failed 7 fire");
    let mayor = found(&docs, &grouped, "later", "plant failed 11 safety");
    let denial = found(&docs, &grouped, "later", "had failed 11");
    let confirmed = found(&docs, &grouped, "last", "failed 11 safety");
    assert_eq!(origin.1, Role::Origin);
    assert_ne!(other.0, origin.0, "another figure is another claim");
    assert_eq!(mayor, (origin.0, Role::Misattributed));
    assert_eq!(denial, (origin.0, Role::Denied));
    assert_eq!(confirmed, (origin.0, Role::Hardened));
}

#[test]
fn grouping_is_the_same_whatever_order_the_articles_come_in() {
    let articles = [
        (
            "a",
            "2026-01-05",
            "Officials said one in five bridges in the county needs repair.",
        ),
        (
            "b",
            "2026-01-07",
            "About 20 percent of the county's bridges need repair, officials said.",
        ),
        (
            "c",
            "2026-01-09",
            "The council said two in five roads in the county need repair.",
        ),
    ];
    let forward = analysed(&articles);
    let mut reversed_articles = articles;
    reversed_articles.reverse();
    let backward = analysed(&reversed_articles);
    let claims_of = |docs: &[Doc]| {
        let grouped = group(docs);
        let mut by_article: Vec<(String, u64, &str)> = grouped
            .iter()
            .map(|item| {
                (
                    docs[item.article].article().id.clone(),
                    item.claim,
                    item.role.name(),
                )
            })
            .collect();
        by_article.sort();
        by_article
    };
    let forward = claims_of(&forward);
    assert_eq!(forward, claims_of(&backward));
    let claim = |id: &str| {
        forward
            .iter()
            .find(|(article, _, _)| article == id)
            .map(|(_, claim, _)| *claim)
    };
    assert_eq!(claim("a"), claim("b"));
    assert_ne!(claim("a"), claim("c"));
}
