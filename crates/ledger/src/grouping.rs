//! Grouping statements into claims as articles are stored.
//!
//! Grouping runs inside the batch's transaction, under the write lock both
//! backends take, so two writers never start the same claim twice. A run of
//! articles is grouped in memory ([`Run`]): the band rows under all of its
//! statements' keys are read in one statement, the stored candidates they
//! find in one more, and the run's statements, claims and band rows are
//! written at the end, one statement a table. A band key keeps
//! only the rows a lookup reads, so the index grows with the keys, not with
//! the statements under each, and storing an article costs the same at any
//! ledger size (see attest-claims).

use std::collections::hash_map::Entry;
use std::collections::{BTreeSet, HashMap};
use std::sync::LazyLock;

use attest_claims::{
    BANDS, BandSlices, ClaimTraits, EXEMPLARS, Figure, Fingerprint, Statement, best_match,
    in_grouping_order, statements,
};
use attest_doc::{Doc, OffsetIndex};
use rusqlite::types::Value;

use crate::batch::{self, Rows};
use crate::db::{Conn, DbResult, Row, values};

/// The rows of `claim_bands` under the band keys of a run's statements
/// (the parameter, `j`, from [`Rows`]), in one statement through the
/// table's primary key. A key keeps at most [`attest_claims::PER_BAND_KEY`] rows, so this
/// reads a bounded slice of the index at any size.
pub(crate) fn band_slices_sql(db: &Conn<'_>) -> String {
    let keys = Rows::new("claim_bands", &["band_key"]);
    format!(
        "SELECT b.band_key, b.statement FROM claim_bands b WHERE {}",
        keys.holds(db, "b.band_key", "band_key")
    )
}

/// What a run does with band rows, (key, statement) pairs in key order.
#[derive(Clone, Copy, Debug)]
pub(crate) enum BandWrite {
    /// Inserts its exemplars' rows.
    Insert,
    /// Takes out the rows its exemplars pushed out of their keys, through
    /// the table's primary key.
    TakeOut,
}

/// Most band rows one SQLite statement binds. Each statement has a power
/// of two of rows, this many or fewer, so that a batch's last rows too are
/// written by one of a few statements, each prepared once and kept in the
/// connection's cache, rather than by a statement of its own size every
/// batch.
const BOUND_BAND_ROWS: usize = 256;

impl BandWrite {
    /// The statements that write `rows`, each with its parameters.
    ///
    /// PostgreSQL takes all of them as one JSON parameter ([`Rows`]).
    /// SQLite takes them as bound values, at most [`BOUND_BAND_ROWS`] a
    /// statement, and inserts `OR IGNORE`: a write statement that reads a table-valued
    /// function such as `json_each`, or that may stop halfway on a
    /// constraint, makes SQLite keep a statement journal of every page it
    /// changes, so that it alone can be undone. Band rows land all over
    /// `claim_bands`, so that journal was the whole table, twice a batch:
    /// 800 MB of temporary files for 2,000 articles stored into a ledger of
    /// 100,000. The rows are distinct and never null, so there is nothing
    /// for `OR IGNORE` to ignore.
    pub(crate) fn statements(
        self,
        db: &Conn<'_>,
        rows: &[(i64, i64)],
    ) -> DbResult<Vec<(String, Vec<Value>)>> {
        if rows.is_empty() {
            return Ok(Vec::new());
        }
        if db.is_postgres() {
            let mut json = Rows::new("claim_bands", &["band_key", "statement"]);
            for &(key, statement) in rows {
                json.push([Value::Integer(key), Value::Integer(statement)])?;
            }
            let (sql, param) = match self {
                BandWrite::Insert => json.insert_statement(db)?,
                // One read of the parameter: given it twice, as SQLite's
                // planner needs below, PostgreSQL's planner (which guesses a
                // hundred rows for a function's) could plan the second read
                // once for every row taken out, and a batch's delete then ran
                // for longer than a quarter of an hour.
                BandWrite::TakeOut => (
                    format!(
                        "DELETE FROM claim_bands WHERE (band_key, statement) IN \
                         (SELECT j.band_key, j.statement FROM {})",
                        json.source(db)
                    ),
                    json.into_param()?,
                ),
            };
            return Ok(vec![(sql, vec![param])]);
        }
        Ok(bound_chunks(rows)
            .into_iter()
            .map(|chunk| {
                let pairs = vec!["(?, ?)"; chunk.len()].join(", ");
                let bound_pairs = chunk
                    .iter()
                    .flat_map(|&(key, statement)| [Value::Integer(key), Value::Integer(statement)]);
                match self {
                    BandWrite::Insert => (
                        format!(
                            "INSERT OR IGNORE INTO claim_bands (band_key, statement) VALUES {pairs}"
                        ),
                        bound_pairs.collect(),
                    ),
                    BandWrite::TakeOut => (
                        format!(
                            "DELETE FROM claim_bands WHERE band_key IN ({}) \
                             AND (band_key, statement) IN (VALUES {pairs})",
                            vec!["?"; chunk.len()].join(", ")
                        ),
                        chunk
                            .iter()
                            .map(|&(key, _)| Value::Integer(key))
                            .chain(bound_pairs)
                            .collect(),
                    ),
                }
            })
            .collect())
    }

    /// Writes `rows` ([`BandWrite::statements`]).
    pub(crate) fn write(self, tx: &Conn<'_>, rows: &[(i64, i64)]) -> DbResult<()> {
        for (sql, params) in self.statements(tx, rows)? {
            tx.execute(&sql, &params)?;
        }
        Ok(())
    }
}

/// `rows` cut into chunks of [`BOUND_BAND_ROWS`], then of the largest power
/// of two that is left.
fn bound_chunks<T>(rows: &[T]) -> Vec<&[T]> {
    let mut chunks = Vec::new();
    let mut rest = rows;
    while !rest.is_empty() {
        let (chunk, after) = rest.split_at(1 << rest.len().min(BOUND_BAND_ROWS).ilog2());
        chunks.push(chunk);
        rest = after;
    }
    chunks
}

/// Stored statements (the parameter's ids) with their claims, in one
/// statement through their primary keys.
pub(crate) fn candidates_sql(db: &Conn<'_>) -> String {
    format!(
        "SELECT s.id, s.claim, s.stems, s.figures, s.names, s.years, c.names AS claim_names, \
         c.years AS claim_years, c.n_statements AS claim_statements \
         FROM statements s JOIN claims c ON c.id = s.claim WHERE {}",
        Rows::new("statements", &["id"]).holds(db, "s.id", "id")
    )
}

/// Groups the statements of a run of articles just stored (each with its
/// row) into claims, article by article, each one's statements that may start
/// a claim first, in text order, then the writer's sentences that only join
/// one.
///
/// Grouped a statement at a time, each statement searched `claim_bands`
/// under its 63 keys, inserted as many rows and wrote its statement and its
/// claim, a key here and a row there: on PostgreSQL six round trips a
/// statement, and on both every search and insert landed on a random page of
/// a B-tree that grows with the ledger, so that storing an article cost half
/// as much again in a ledger ten times larger.
pub(crate) fn store(tx: &Conn<'_>, articles: &[(&Doc, i64)]) -> DbResult<()> {
    let statements: Vec<Vec<(Statement, Vec<u64>)>> = articles
        .iter()
        .map(|(doc, _)| with_band_keys(in_grouping_order(doc)))
        .collect();
    let keys = || statements.iter().flatten().map(|(_, keys)| keys);
    let mut run = Run::read(tx, keys)?;
    for (&(doc, article), statements) in articles.iter().zip(&statements) {
        run.group_article(tx, doc, article, statements)?;
    }
    run.write(tx)
}

/// The stored claims that the statements of `doc` carry, each once, in the
/// order the statements come.
pub(crate) fn carried(conn: &Conn<'_>, doc: &Doc) -> DbResult<Vec<i64>> {
    let statements = with_band_keys(statements(doc));
    let mut run = Run::read(conn, || statements.iter().map(|(_, keys)| keys))?;
    let mut found = Vec::new();
    for (statement, keys) in &statements {
        if let Some(claim) = run.lookup(conn, &statement.fingerprint, keys)?
            && !found.contains(&claim)
        {
            found.push(claim);
        }
    }
    Ok(found)
}

/// Each statement with its band keys.
fn with_band_keys(statements: Vec<Statement>) -> Vec<(Statement, Vec<u64>)> {
    statements
        .into_iter()
        .map(|statement| {
            let keys = statement.fingerprint.band_keys();
            (statement, keys)
        })
        .collect()
}

/// Ids that a run gives its new statements and claims until it writes them,
/// above any stored id and in the order they are made, so that they rank
/// and break ties as the ids they are then given ([`batch::next_ids`], in
/// the same order) will.
const PROVISIONAL: i64 = 1 << 62;

/// A claim that a run looked at: as stored, with what the run added.
struct RunClaim {
    traits: ClaimTraits,
    /// Its statements, stored and added.
    statements: i64,
    added_statements: i64,
    added_articles: i64,
}

impl RunClaim {
    /// A claim as stored (or, with no traits and no statements, a new one),
    /// to which the run has added nothing yet.
    fn stored(traits: ClaimTraits, statements: i64) -> RunClaim {
        RunClaim {
            traits,
            statements,
            added_statements: 0,
            added_articles: 0,
        }
    }
}

/// A run of articles grouped in memory ([`store`]).
struct Run {
    bands: RunBands,
    /// The candidates read, and the run's exemplars by provisional id,
    /// each with its claim.
    known: HashMap<i64, (i64, Fingerprint)>,
    /// The claims looked at, by id (provisional for a new one).
    claims: HashMap<i64, RunClaim>,
    new_claims: i64,
    /// The run's statements' rows, each with its provisional claim id.
    statements: Vec<(i64, Vec<Value>)>,
}

impl Run {
    /// Reads what a run of statements (`keys`, each one's band keys) will
    /// look up: the band rows under their keys ([`RunBands::read`]) and the
    /// stored candidates each finds in them, with their claims, all in two
    /// statements. As the run's exemplars push stored rows out of their
    /// keys, a statement may find a stored candidate that none found at the
    /// start; [`Run::lookup`] reads it then.
    fn read<'k, K>(conn: &Conn<'_>, keys: impl Fn() -> K) -> DbResult<Run>
    where
        K: Iterator<Item = &'k Vec<u64>>,
    {
        let mut run = Run {
            bands: RunBands::read(conn, keys().flatten())?,
            known: HashMap::new(),
            claims: HashMap::new(),
            new_claims: 0,
            statements: Vec::new(),
        };
        let mut found: Vec<i64> = keys()
            .flat_map(|keys| run.bands.slices.candidates(keys))
            .collect();
        found.sort_unstable();
        found.dedup();
        run.read_stored(conn, &found)?;
        Ok(run)
    }

    /// Reads stored statements by id, with their claims, unless the run
    /// changed a claim already.
    fn read_stored(&mut self, conn: &Conn<'_>, ids: &[i64]) -> DbResult<()> {
        if ids.is_empty() {
            return Ok(());
        }
        let mut wanted = Rows::new("statements", &["id"]);
        for &id in ids {
            wanted.push([Value::Integer(id)])?;
        }
        for row in conn.rows(&candidates_sql(conn), &[wanted.into_param()?])? {
            let claim: i64 = row.get("claim")?;
            self.known
                .insert(row.get("id")?, (claim, fingerprint(&row)?));
            if let Entry::Vacant(vacant) = self.claims.entry(claim) {
                let traits = ClaimTraits {
                    names: words(&row.get::<String>("claim_names")?),
                    years: figures(&row.get::<String>("claim_years")?),
                };
                vacant.insert(RunClaim::stored(traits, row.get("claim_statements")?));
            }
        }
        Ok(())
    }

    /// Groups one article's statements, as [`store`] says.
    fn group_article(
        &mut self,
        tx: &Conn<'_>,
        doc: &Doc,
        article: i64,
        statements: &[(Statement, Vec<u64>)],
    ) -> DbResult<()> {
        let offsets = OffsetIndex::new(doc.text());
        let mut claims_of_article = BTreeSet::new();
        for (statement, keys) in statements {
            let Some(placed) = statement.placement(doc, &offsets) else {
                continue;
            };
            let print = &statement.fingerprint;
            let claim = match self.lookup(tx, print, keys)? {
                Some(claim) => claim,
                None if statement.may_start_a_claim() => {
                    let claim = PROVISIONAL + self.new_claims;
                    self.new_claims += 1;
                    self.claims
                        .insert(claim, RunClaim::stored(ClaimTraits::default(), 0));
                    claim
                }
                None => continue,
            };
            let new_article = claims_of_article.insert(claim);
            let Some(held) = self.claims.get_mut(&claim) else {
                continue;
            };
            // Only the exemplars' names and years count, as only they are
            // compared: a claim's row stays small however often it is repeated.
            let exemplar = held.statements < EXEMPLARS as i64;
            if exemplar {
                held.traits.add(print);
            }
            held.statements += 1;
            held.added_statements += 1;
            held.added_articles += i64::from(new_article);
            let id = PROVISIONAL + self.statements.len() as i64;
            let (said, idx) = statement.said.layer();
            self.statements.push((
                claim,
                vec![
                    Value::Integer(article),
                    Value::Text(said.to_string()),
                    Value::Integer(idx as i64),
                    Value::Integer(placed.extent.byte_start() as i64),
                    Value::Integer(placed.extent.byte_end() as i64),
                    Value::Integer(placed.chars.0 as i64),
                    Value::Integer(placed.chars.1 as i64),
                    placed.source.map(|s| s.name.clone()).into(),
                    placed.source_key.clone().into(),
                    statement
                        .stance
                        .map(|stance| stance.name().to_string())
                        .into(),
                    Value::Integer(i64::from(statement.hedged)),
                    Value::Blob(
                        print
                            .stems
                            .iter()
                            .flat_map(|stem| stem.to_le_bytes())
                            .collect(),
                    ),
                    Value::Text(figures_text(&print.figures)),
                    Value::Text(joined(print.names.iter().cloned())),
                    Value::Text(figures_text(&print.years)),
                ],
            ));
            if exemplar {
                self.bands.add(keys, id);
                self.known.insert(id, (claim, print.clone()));
            }
        }
        Ok(())
    }

    /// The claim, stored or the run's, that a statement of this fingerprint
    /// carries: the best of the candidates its band keys find
    /// ([`BandSlices::candidates`]).
    fn lookup(
        &mut self,
        conn: &Conn<'_>,
        print: &Fingerprint,
        keys: &[u64],
    ) -> DbResult<Option<i64>> {
        let found = self.bands.slices.candidates(keys);
        let unread: Vec<i64> = found
            .iter()
            .copied()
            .filter(|id| !self.known.contains_key(id))
            .collect();
        self.read_stored(conn, &unread)?;
        let candidates = found
            .iter()
            .filter_map(|id| self.known.get(id))
            .map(|(claim, print)| (*claim as u64, print));
        let claim = best_match(print, candidates, |claim| {
            self.claims.get(&(claim as i64)).map(|held| &held.traits)
        });
        Ok(claim.map(|claim| claim as i64))
    }

    /// Writes the run: its new claims, the counts and traits it added to
    /// stored ones, its statements and its band rows, one statement each,
    /// with the ids taken for them in the order they were made.
    fn write(self, tx: &Conn<'_>) -> DbResult<()> {
        let statement_ids = batch::next_ids(tx, "statements", self.statements.len())?;
        let claim_ids = batch::next_ids(tx, "claims", self.new_claims as usize)?;
        let real = |id: i64, ids: &[i64]| -> i64 {
            usize::try_from(id - PROVISIONAL)
                .ok()
                .and_then(|at| ids.get(at).copied())
                .unwrap_or(id)
        };
        let columns = ["id", "names", "years", "n_statements", "n_articles"];
        let mut new = Rows::new("claims", &columns);
        let mut added = Rows::new("claims", &columns);
        let mut claims: Vec<(&i64, &RunClaim)> = self
            .claims
            .iter()
            .filter(|(_, held)| held.added_statements > 0)
            .collect();
        claims.sort_unstable_by_key(|(id, _)| **id);
        for (&id, held) in claims {
            let row = [
                Value::Integer(real(id, &claim_ids)),
                Value::Text(joined(held.traits.names.iter().cloned())),
                Value::Text(figures_text(&held.traits.years)),
                Value::Integer(held.added_statements),
                Value::Integer(held.added_articles),
            ];
            if id >= PROVISIONAL {
                new.push(row)?;
            } else {
                added.push(row)?;
            }
        }
        new.insert(tx)?;
        if !added.is_empty() {
            let sql = format!(
                "UPDATE claims SET names = j.names, years = j.years, \
                 n_statements = claims.n_statements + j.n_statements, \
                 n_articles = claims.n_articles + j.n_articles FROM {} WHERE claims.id = j.id",
                added.source(tx)
            );
            tx.execute(&sql, &[added.into_param()?])?;
        }
        let mut rows = Rows::new("statements", &STATEMENT_COLUMNS);
        for ((claim, values), id) in self.statements.into_iter().zip(&statement_ids) {
            let head = [Value::Integer(*id), Value::Integer(real(claim, &claim_ids))];
            rows.push(head.into_iter().chain(values))?;
        }
        rows.insert(tx)?;
        self.bands
            .write(tx, |statement| real(statement, &statement_ids))
    }
}

/// The columns of a statement's row, as [`Run::group_article`] gives them
/// after its id and claim.
const STATEMENT_COLUMNS: [&str; 17] = [
    "id",
    "claim",
    "article",
    "said",
    "idx",
    "byte_start",
    "byte_end",
    "cp_start",
    "cp_end",
    "source",
    "source_key",
    "stance",
    "hedged",
    "stems",
    "figures",
    "names",
    "years",
];

/// The band rows of a run of articles: the slices of `claim_bands` under
/// the run's band keys, read at once, with the run's exemplars added as they
/// are grouped, so that each statement finds what it would find were every
/// statement before it already written. [`RunBands::write`] then leaves the
/// table as adding them one by one would: each key with its latest
/// [`attest_claims::PER_BAND_KEY`] rows.
struct RunBands {
    slices: BandSlices<i64>,
    /// The rows read, in key order.
    read: Vec<(u64, i64)>,
    /// The rows of the run's exemplars.
    added: Vec<(u64, i64)>,
}

impl RunBands {
    /// Reads the rows under `keys` ([`band_slices_sql`]).
    fn read<'k>(tx: &Conn<'_>, keys: impl Iterator<Item = &'k u64>) -> DbResult<RunBands> {
        let mut keys: Vec<u64> = keys.copied().collect();
        keys.sort_unstable();
        keys.dedup();
        let mut wanted = Rows::new("claim_bands", &["band_key"]);
        for &key in &keys {
            wanted.push([Value::Integer(key as i64)])?;
        }
        let mut read = Vec::new();
        if !wanted.is_empty() {
            for row in tx.rows(&band_slices_sql(tx), &[wanted.into_param()?])? {
                read.push((row.get::<i64>("band_key")? as u64, row.get("statement")?));
            }
        }
        read.sort_unstable();
        let mut slices = BandSlices::new();
        for &(key, statement) in &read {
            slices.add(&[key], statement);
        }
        Ok(RunBands {
            slices,
            read,
            added: Vec::new(),
        })
    }

    /// Indexes a new exemplar under its keys.
    fn add(&mut self, keys: &[u64], statement: i64) {
        self.slices.add(keys, statement);
        self.added.extend(keys.iter().map(|&key| (key, statement)));
    }

    /// Takes out the rows read that the run's exemplars pushed out of their
    /// keys and inserts the run's rows that stayed, each in one statement,
    /// in key order, with the ids `real` gives the run's statements.
    fn write(mut self, tx: &Conn<'_>, real: impl Fn(i64) -> i64) -> DbResult<()> {
        self.added.sort_unstable();
        self.added.dedup();
        // The rows of `rows` that their keys hold (or, `held` false, no
        // longer hold), with their stored ids.
        let stored = |rows: &[(u64, i64)], held: bool| -> Vec<(i64, i64)> {
            rows.iter()
                .filter(|&&(key, statement)| self.slices.slice(key).contains(&statement) == held)
                .map(|&(key, statement)| (key as i64, real(statement)))
                .collect()
        };
        BandWrite::TakeOut.write(tx, &stored(&self.read, false))?;
        BandWrite::Insert.write(tx, &stored(&self.added, true))
    }
}

/// Takes an article's statements out of their claims before the article is
/// removed, and removes the claims left with none. A claim keeps the name
/// words the removed statements brought: they only ever keep statements
/// apart, and a replaced article brings its names back. `claim_bands` has no
/// index by statement, which would cost as much again as the table: each
/// statement's band keys are worked out again from its stored stems. A key
/// left with fewer than [`attest_claims::PER_BAND_KEY`] rows does not get back the older
/// rows that its removed ones pushed out.
pub(crate) fn remove(tx: &Conn<'_>, article: i64) -> DbResult<()> {
    let stored = tx.rows(
        "SELECT id, stems FROM statements WHERE article = ?1",
        values![article],
    )?;
    for row in stored {
        let print = Fingerprint {
            stems: stems(&row)?,
            figures: Vec::new(),
            names: Vec::new(),
            years: Vec::new(),
        };
        let mut keys = band_values(&print);
        keys.push(Value::Integer(row.get("id")?));
        tx.execute(&REMOVE_BANDS_SQL, &keys)?;
    }
    let touched = tx
        .rows(
            "SELECT claim, CAST(COUNT(*) AS BIGINT) AS n FROM statements WHERE article = ?1 \
             GROUP BY claim",
            values![article],
        )?
        .into_iter()
        .map(|row| Ok((row.get::<i64>("claim")?, row.get::<i64>("n")?)))
        .collect::<DbResult<Vec<_>>>()?;
    tx.execute(
        "DELETE FROM statements WHERE article = ?1",
        values![article],
    )?;
    for (claim, n) in touched {
        tx.execute(
            "UPDATE claims SET n_statements = n_statements - ?2, n_articles = n_articles - 1 \
             WHERE id = ?1",
            values![claim, n],
        )?;
        tx.execute(
            "DELETE FROM claims WHERE id = ?1 AND n_statements = 0",
            values![claim],
        )?;
    }
    Ok(())
}

/// Removes a statement's band rows, if it has any, by their keys.
static REMOVE_BANDS_SQL: LazyLock<String> = LazyLock::new(|| {
    let keys: Vec<String> = (1..=BANDS).map(|i| format!("?{i}")).collect();
    format!(
        "DELETE FROM claim_bands WHERE statement = ?{} AND band_key IN ({})",
        BANDS + 1,
        keys.join(", ")
    )
});

/// A fingerprint's band keys as SQL values.
fn band_values(print: &Fingerprint) -> Vec<Value> {
    print
        .band_keys()
        .iter()
        .map(|key| Value::Integer(*key as i64))
        .collect()
}

/// Figures as stored: their bits, space-separated.
fn figures_text(figures: &[Figure]) -> String {
    joined(figures.iter().map(|figure| figure.to_bits().to_string()))
}

fn figures(text: &str) -> Vec<Figure> {
    text.split_whitespace()
        .filter_map(|bits| bits.parse().ok().map(Figure::from_bits))
        .collect()
}

fn joined(words: impl Iterator<Item = String>) -> String {
    words.collect::<Vec<_>>().join(" ")
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

/// A stored statement's fingerprint.
fn fingerprint(row: &Row) -> DbResult<Fingerprint> {
    Ok(Fingerprint {
        stems: stems(row)?,
        figures: figures(&row.get::<String>("figures")?),
        names: words(&row.get::<String>("names")?),
        years: figures(&row.get::<String>("years")?),
    })
}

/// A stored statement's stems.
fn stems(row: &Row) -> DbResult<Vec<u32>> {
    Ok(row
        .get::<Vec<u8>>("stems")?
        .chunks_exact(4)
        .map(|bytes| u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn band_rows_are_bound_in_chunks_of_a_few_sizes() {
        let sizes = |n: usize| -> Vec<usize> {
            let rows: Vec<usize> = (0..n).collect();
            let chunks = bound_chunks(&rows);
            assert_eq!(chunks.concat(), rows, "every row once, in order");
            chunks.iter().map(|chunk| chunk.len()).collect()
        };
        assert_eq!(sizes(0), Vec::<usize>::new());
        assert_eq!(sizes(1), [1]);
        assert_eq!(sizes(7), [4, 2, 1]);
        assert_eq!(sizes(BOUND_BAND_ROWS), [BOUND_BAND_ROWS]);
        assert_eq!(
            sizes(2 * BOUND_BAND_ROWS + 5),
            [BOUND_BAND_ROWS, BOUND_BAND_ROWS, 4, 1]
        );
        let distinct: BTreeSet<usize> = (0..3 * BOUND_BAND_ROWS).flat_map(sizes).collect();
        assert_eq!(
            distinct.len(),
            BOUND_BAND_ROWS.ilog2() as usize + 1,
            "{distinct:?}"
        );
    }
}
