//! Statistics cells: the sums of `attest stats`, kept per outlet and day.
//!
//! Summing the counts of a hundred thousand articles for every `attest stats`
//! takes longer than a query should; the same sums kept per (outlet, date) cell
//! make a few thousand rows, which any grouping by outlet or month and any
//! filter by outlet or day can sum at once. The writer adds each article to
//! its cell and takes it out again when the article is replaced; the check
//! compares the cells with the articles.

use rusqlite::types::Value;

use crate::batch::Rows;
use crate::db::{Conn, DbResult, values};

/// Each cell column and the expression over an `articles` row that it sums.
/// Counts of layers that were not looked for are NULL and add nothing;
/// `hedge_words` counts words only of articles whose hedges were looked for,
/// so that hedges per 1,000 words divide like by like, and `hedge_attributions`
/// counts attributions only of articles whose certainty was looked for, for
/// the hedged share. Counts per stance are
/// rows of `stats_stances` beside the cell, summing `article_stances`.
pub(crate) const COLUMNS: [(&str, &str); 14] = [
    ("articles", "1"),
    ("words", "coalesce(words, 0)"),
    ("sources", "coalesce(n_sources, 0)"),
    ("unnamed", "coalesce(n_unnamed, 0)"),
    ("attributions", "coalesce(n_attributions, 0)"),
    ("direct", "coalesce(n_direct, 0)"),
    ("mixed", "coalesce(n_mixed, 0)"),
    ("stanced", "coalesce(n_stanced, 0)"),
    ("hedges", "coalesce(n_hedges, 0)"),
    (
        "hedge_words",
        "CASE WHEN n_hedges IS NOT NULL THEN coalesce(words, 0) ELSE 0 END",
    ),
    ("hedged_attributions", "coalesce(n_hedged_attributions, 0)"),
    (
        "hedge_attributions",
        "CASE WHEN n_hedged_attributions IS NOT NULL THEN coalesce(n_attributions, 0) ELSE 0 END",
    ),
    (
        "writers_voice_sentences",
        "coalesce(n_writers_voice_sentences, 0)",
    ),
    ("hedged_sentences", "coalesce(n_hedged_sentences, 0)"),
];

/// The sums of [`COLUMNS`] over stored articles (the parameter's ids, from
/// [`Rows`]), a row a cell, in cell order.
pub(crate) fn cell_sums_sql(db: &Conn<'_>) -> String {
    let sums: Vec<String> = COLUMNS
        .iter()
        .map(|(column, expression)| format!("CAST(SUM({expression}) AS BIGINT) AS {column}"))
        .collect();
    format!(
        "SELECT outlet, published_date, {} FROM articles WHERE {} GROUP BY 1, 2 ORDER BY 1, 2",
        sums.join(", "),
        Rows::new("articles", &["id"]).holds(db, "id", "id")
    )
}

/// The attributions of each stance of stored articles (the parameter's
/// ids), a row a cell and stance, in that order.
pub(crate) fn stance_sums_sql(db: &Conn<'_>) -> String {
    format!(
        "SELECT a.outlet, a.published_date, s.stance, \
         CAST(SUM(s.attributions) AS BIGINT) AS attributions \
         FROM article_stances s JOIN articles a ON a.id = s.article WHERE {} \
         GROUP BY 1, 2, 3 ORDER BY 1, 2, 3",
        Rows::new("articles", &["id"]).holds(db, "a.id", "id")
    )
}

/// Adds stored articles to their cells (`sign` 1) or takes them out
/// (`sign` -1): the articles are summed by cell in one statement and their
/// stances in another, and each cell they fall in is written once. Counted
/// an article at a time, a batch ran eight statements an article here, most
/// of PostgreSQL's round trips once the rows were batched.
pub(crate) fn count(tx: &Conn<'_>, articles: &[i64], sign: i64) -> DbResult<()> {
    if articles.is_empty() {
        return Ok(());
    }
    let mut ids = Rows::new("articles", &["id"]);
    for &article in articles {
        ids.push([Value::Integer(article)])?;
    }
    let ids = [ids.into_param()?];
    let mut cells = Vec::new();
    for row in tx.rows(&cell_sums_sql(tx), &ids)? {
        let outlet: Option<String> = row.get("outlet")?;
        let date: Option<String> = row.get("published_date")?;
        let values = COLUMNS
            .iter()
            .map(|(column, _)| Ok(row.get::<i64>(column)? * sign))
            .collect::<DbResult<Vec<i64>>>()?;
        add_to_cell(tx, outlet.as_deref(), date.as_deref(), &values)?;
        cells.push((outlet, date));
    }
    for row in tx.rows(&stance_sums_sql(tx), &ids)? {
        let outlet: Option<String> = row.get("outlet")?;
        let date: Option<String> = row.get("published_date")?;
        let stance: String = row.get("stance")?;
        let n: i64 = row.get("attributions")?;
        let (sql, params) =
            add_to_stance_cell(outlet.as_deref(), date.as_deref(), &stance, n * sign);
        if tx.execute(&sql, &params)? == 0 {
            tx.execute(
                "INSERT INTO stats_stances (outlet, published_date, stance, attributions) \
                 VALUES (?1, ?2, ?3, ?4)",
                values![outlet, date, stance, n * sign],
            )?;
        }
    }
    if sign < 0 {
        for (outlet, date) in &cells {
            for (sql, params) in remove_empty_cell(outlet.as_deref(), date.as_deref()) {
                tx.execute(&sql, &params)?;
            }
        }
    }
    Ok(())
}

/// Adds `values` (one per [`COLUMNS`]) to the cell of `outlet` and `date`,
/// making the cell if there is none.
fn add_to_cell(
    tx: &Conn<'_>,
    outlet: Option<&str>,
    date: Option<&str>,
    values: &[i64],
) -> DbResult<()> {
    let (sql, params) = add_to_cell_sql(outlet, date, values);
    if tx.execute(&sql, &params)? > 0 {
        return Ok(());
    }
    let columns: Vec<&str> = COLUMNS.iter().map(|(column, _)| *column).collect();
    let placeholders: Vec<String> = (1..=COLUMNS.len() + 2).map(|i| format!("?{i}")).collect();
    let mut params: Vec<Value> = vec![
        outlet.map(str::to_string).into(),
        date.map(str::to_string).into(),
    ];
    params.extend(values.iter().copied().map(Value::Integer));
    tx.execute(
        &format!(
            "INSERT INTO stats_cells (outlet, published_date, {}) VALUES ({})",
            columns.join(", "),
            placeholders.join(", ")
        ),
        &params,
    )
    .map(drop)
}

/// The statement that adds `values` (one per [`COLUMNS`]) to the cell of
/// `outlet` and `date`, and its parameters.
pub(crate) fn add_to_cell_sql(
    outlet: Option<&str>,
    date: Option<&str>,
    values: &[i64],
) -> (String, Vec<Value>) {
    let sets: Vec<String> = COLUMNS
        .iter()
        .map(|(column, _)| format!("{column} = {column} + ?"))
        .collect();
    let (condition, keys) = cell_of(outlet, date);
    let mut params: Vec<Value> = values.iter().copied().map(Value::Integer).collect();
    params.extend(keys);
    let sql = format!(
        "UPDATE stats_cells SET {} WHERE {condition}",
        sets.join(", ")
    );
    (sql, params)
}

/// The statement that adds `n` attributions of `stance` to the cell of
/// `outlet` and `date`, and its parameters.
pub(crate) fn add_to_stance_cell(
    outlet: Option<&str>,
    date: Option<&str>,
    stance: &str,
    n: i64,
) -> (String, Vec<Value>) {
    let (condition, keys) = cell_of(outlet, date);
    let mut params = vec![Value::Integer(n)];
    params.extend(keys);
    params.push(Value::Text(stance.to_string()));
    let sql = format!(
        "UPDATE stats_stances SET attributions = attributions + ? WHERE {condition} AND stance = ?"
    );
    (sql, params)
}

/// The statements that remove the cell of `outlet` and `date` once it
/// counts no article, and its stances once they count no attribution, with
/// their parameters.
pub(crate) fn remove_empty_cell(
    outlet: Option<&str>,
    date: Option<&str>,
) -> [(String, Vec<Value>); 2] {
    let (condition, params) = cell_of(outlet, date);
    [
        (
            format!("DELETE FROM stats_cells WHERE {condition} AND articles = 0"),
            params.clone(),
        ),
        (
            format!("DELETE FROM stats_stances WHERE {condition} AND attributions = 0"),
            params,
        ),
    ]
}

/// The condition that picks the cell of `outlet` and `date` (either may be
/// missing), and its parameters. It says `IS NULL` or `=` as the value is
/// missing or not, rather than `IS NOT DISTINCT FROM` for both, which
/// PostgreSQL cannot look up in an index: it read every cell for each article
/// stored, so that storing slowed down as the ledger grew.
fn cell_of(outlet: Option<&str>, date: Option<&str>) -> (String, Vec<Value>) {
    let mut conditions = Vec::new();
    let mut params = Vec::new();
    for (column, value) in [("outlet", outlet), ("published_date", date)] {
        match value {
            Some(value) => {
                conditions.push(format!("{column} = ?"));
                params.push(Value::Text(value.to_string()));
            }
            None => conditions.push(format!("{column} IS NULL")),
        }
    }
    (conditions.join(" AND "), params)
}

/// How many cells disagree with the sums of their articles (for the check).
pub(crate) fn mismatches(conn: &Conn<'_>) -> DbResult<i64> {
    let columns: Vec<&str> = COLUMNS.iter().map(|(column, _)| *column).collect();
    let sums: Vec<String> = COLUMNS
        .iter()
        .map(|(_, expression)| format!("CAST(SUM({expression}) AS BIGINT)"))
        .collect();
    let from_articles = format!(
        "SELECT outlet, published_date, {} FROM articles GROUP BY 1, 2",
        sums.join(", ")
    );
    let from_cells = format!(
        "SELECT outlet, published_date, {} FROM stats_cells",
        columns.join(", ")
    );
    let stances_from_articles = "SELECT a.outlet, a.published_date, s.stance, \
         CAST(SUM(s.attributions) AS BIGINT) FROM article_stances s \
         JOIN articles a ON a.id = s.article GROUP BY 1, 2, 3";
    let stances_from_cells =
        "SELECT outlet, published_date, stance, attributions FROM stats_stances";
    let mut wrong = 0;
    for (articles, cells) in [
        (from_articles.as_str(), from_cells.as_str()),
        (stances_from_articles, stances_from_cells),
    ] {
        wrong += conn.value::<i64>(
            &format!(
                "SELECT (SELECT count(*) FROM ({articles} EXCEPT {cells}) AS missing) + \
                 (SELECT count(*) FROM ({cells} EXCEPT {articles}) AS extra)"
            ),
            values![],
        )?;
    }
    Ok(wrong)
}
