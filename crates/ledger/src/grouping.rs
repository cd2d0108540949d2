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
use std::collections::{BTreeSet, HashMap, HashSet};

use attest_claims::{
    BandSlices, ClaimTraits, EXEMPLARS, Figure, Fingerprint, Statement, best_match,
    in_grouping_order, statements,
};
use attest_doc::{Doc, OffsetIndex};
use rusqlite::types::Value;

use crate::batch::{self, Rows};
use crate::db::{Conn, DbResult, Row, values};

/// The rows of `claim_bands` under the band keys of a run's statements
/// (the parameter, `j`, from [`Rows`]), in one statement through the
/// table's primary key: a row a key, which holds the key's statements
/// ([`packed`]), at most [`attest_claims::PER_BAND_KEY`] of them, so this
/// reads a bounded slice of the index at any size.
pub(crate) fn band_slices_sql(db: &Conn<'_>) -> String {
    let keys = Rows::new("claim_bands", &["band_key"]);
    format!(
        "SELECT b.band_key, b.statements FROM claim_bands b WHERE {}",
        keys.holds(db, "b.band_key", "band_key")
    )
}

/// What a run or a removal writes to `claim_bands`, a row a band key, in
/// key order. Keys with statements are given them packed ([`packed`]).
#[derive(Clone, Copy, Debug)]
pub(crate) enum BandWrite<'r> {
    /// Adds keys the table does not hold.
    Insert(&'r [(i64, Vec<u8>)]),
    /// Gives keys the table holds their statements again.
    Update(&'r [(i64, Vec<u8>)]),
    /// Takes out keys left with no statement.
    Clear(&'r [i64]),
}

/// Most band keys one SQLite statement binds. Each statement has a power
/// of two of keys, this many or fewer, so that a batch's last keys too are
/// written by one of a few statements, each prepared once and kept in the
/// connection's cache, rather than by a statement of its own size every
/// batch.
const BOUND_BAND_KEYS: usize = 256;

impl BandWrite<'_> {
    /// The statements that write the keys, each with its parameters.
    ///
    /// PostgreSQL takes all of them as one JSON parameter ([`Rows`]), and
    /// updates keys as an upsert, which finds each through the primary
    /// key whatever it guesses of the table's size. SQLite takes them as
    /// bound values, at most [`BOUND_BAND_KEYS`] a statement, in statements
    /// that cannot stop halfway: a write statement that reads a
    /// table-valued function such as `json_each`, or that may stop halfway
    /// on a constraint (as a plain `INSERT` or `UPDATE`, an upsert or an
    /// `INSERT OR REPLACE` may), makes SQLite keep a statement journal of
    /// every page it changes, so that it alone can be undone. Band keys land
    /// all over `claim_bands`, so that journal was the whole table, twice a
    /// batch: 800 MB of temporary files for 2,000 articles stored into a
    /// ledger of 100,000. The keys inserted are new and no key's statements
    /// are null, so there is nothing for `OR IGNORE` to ignore.
    pub(crate) fn statements(self, db: &Conn<'_>) -> DbResult<Vec<(String, Vec<Value>)>> {
        let rows = match self {
            BandWrite::Insert([]) | BandWrite::Update([]) | BandWrite::Clear([]) => {
                return Ok(Vec::new());
            }
            BandWrite::Clear(keys) => return BandWrite::clear_statements(db, keys),
            BandWrite::Insert(rows) | BandWrite::Update(rows) => rows,
        };
        let update = matches!(self, BandWrite::Update(_));
        if db.is_postgres() {
            let mut json = Rows::new("claim_bands", &["band_key", "statements"]);
            for (key, statements) in rows {
                json.push([Value::Integer(*key), Value::Blob(statements.clone())])?;
            }
            let (mut sql, param) = json.insert_statement(db)?;
            if update {
                sql.push_str(
                    " ON CONFLICT (band_key) DO UPDATE SET statements = excluded.statements",
                );
            }
            return Ok(vec![(sql, vec![param])]);
        }
        Ok(bound_chunks(rows)
            .into_iter()
            .map(|chunk| {
                let values = vec!["(?, ?)"; chunk.len()].join(", ");
                let sql = if update {
                    format!(
                        "UPDATE OR IGNORE claim_bands SET statements = v.column2 \
                         FROM (VALUES {values}) AS v WHERE claim_bands.band_key = v.column1"
                    )
                } else {
                    format!(
                        "INSERT OR IGNORE INTO claim_bands (band_key, statements) VALUES {values}"
                    )
                };
                let params = chunk
                    .iter()
                    .flat_map(|(key, statements)| {
                        [Value::Integer(*key), Value::Blob(statements.clone())]
                    })
                    .collect();
                (sql, params)
            })
            .collect())
    }

    /// The statements that take out `keys`, through the primary key.
    fn clear_statements(db: &Conn<'_>, keys: &[i64]) -> DbResult<Vec<(String, Vec<Value>)>> {
        if db.is_postgres() {
            let mut json = Rows::new("claim_bands", &["band_key"]);
            for key in keys {
                json.push([Value::Integer(*key)])?;
            }
            let sql = format!(
                "DELETE FROM claim_bands WHERE {}",
                json.holds(db, "band_key", "band_key")
            );
            return Ok(vec![(sql, vec![json.into_param()?])]);
        }
        Ok(bound_chunks(keys)
            .into_iter()
            .map(|chunk| {
                let sql = format!(
                    "DELETE FROM claim_bands WHERE band_key IN ({})",
                    vec!["?"; chunk.len()].join(", ")
                );
                (sql, chunk.iter().map(|&key| Value::Integer(key)).collect())
            })
            .collect())
    }

    /// Writes the keys ([`BandWrite::statements`]).
    pub(crate) fn write(self, tx: &Conn<'_>) -> DbResult<()> {
        for (sql, params) in self.statements(tx)? {
            tx.execute(&sql, &params)?;
        }
        Ok(())
    }
}

/// `rows` cut into chunks of [`BOUND_BAND_KEYS`], then of the largest power
/// of two that is left.
fn bound_chunks<T>(rows: &[T]) -> Vec<&[T]> {
    let mut chunks = Vec::new();
    let mut rest = rows;
    while !rest.is_empty() {
        let (chunk, after) = rest.split_at(1 << rest.len().min(BOUND_BAND_KEYS).ilog2());
        chunks.push(chunk);
        rest = after;
    }
    chunks
}

/// A band key's statements as `claim_bands` keeps them: their ids, the
/// oldest first, four bytes each, little-endian, as a statement's stems
/// are. A row a key instead of a row a statement takes the table from
/// about 70 bytes a key to about 30, and a batch, whose keys land all over
/// it, changes and writes that many fewer pages. The ids are those of a
/// ledger's statements, which would need more than four billion to pass
/// four bytes; one that did is refused, not cut.
pub(crate) fn packed(ids: impl IntoIterator<Item = i64>) -> DbResult<Vec<u8>> {
    let ids = ids
        .into_iter()
        .map(|id| {
            u32::try_from(id).map_err(|_| {
                rusqlite::Error::ToSqlConversionFailure(
                    format!("statement id {id} is beyond the band index's four-byte ids").into(),
                )
            })
        })
        .collect::<Result<Vec<u32>, _>>()?;
    Ok(little_endian_bytes(ids))
}

/// The ids [`packed`] keeps, the oldest first.
pub(crate) fn unpacked(bytes: &[u8]) -> impl Iterator<Item = i64> + '_ {
    little_endian_u32s(bytes).map(i64::from)
}

/// Four bytes a number, lowest first: how stems and band keys' statements
/// are stored, and [`little_endian_u32s`] reads them.
fn little_endian_bytes(numbers: impl IntoIterator<Item = u32>) -> Vec<u8> {
    numbers.into_iter().flat_map(u32::to_le_bytes).collect()
}

fn little_endian_u32s(bytes: &[u8]) -> impl Iterator<Item = u32> + '_ {
    bytes
        .chunks_exact(4)
        .map(|bytes| u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
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
                    Value::Blob(little_endian_bytes(print.stems.iter().copied())),
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
/// [`attest_claims::PER_BAND_KEY`] statements.
struct RunBands {
    slices: BandSlices<i64>,
    /// The keys read, which the table holds, in key order.
    held: Vec<u64>,
    /// The keys the run's exemplars were added under.
    changed: Vec<u64>,
}

impl RunBands {
    /// Reads the slices under `keys` ([`band_slices_sql`]).
    fn read<'k>(tx: &Conn<'_>, keys: impl Iterator<Item = &'k u64>) -> DbResult<RunBands> {
        let mut slices = BandSlices::new();
        let mut held = Vec::new();
        for (key, statements) in read_bands(tx, keys)? {
            for statement in unpacked(&statements) {
                slices.add(&[key], statement);
            }
            held.push(key);
        }
        Ok(RunBands {
            slices,
            held,
            changed: Vec::new(),
        })
    }

    /// Indexes a new exemplar under its keys.
    fn add(&mut self, keys: &[u64], statement: i64) {
        self.slices.add(keys, statement);
        self.changed.extend_from_slice(keys);
    }

    /// Gives each key the run changed its slice, the keys the table held in
    /// one statement and the new ones in another, in key order, with the
    /// ids `real` gives the run's statements.
    fn write(mut self, tx: &Conn<'_>, real: impl Fn(i64) -> i64) -> DbResult<()> {
        self.changed.sort_unstable();
        self.changed.dedup();
        let mut held = Vec::new();
        let mut new = Vec::new();
        for &key in &self.changed {
            let slice = self
                .slices
                .slice(key)
                .iter()
                .map(|&statement| real(statement));
            let row = (key as i64, packed(slice)?);
            if self.held.binary_search(&key).is_ok() {
                held.push(row);
            } else {
                new.push(row);
            }
        }
        BandWrite::Update(&held).write(tx)?;
        BandWrite::Insert(&new).write(tx)
    }
}

/// The keys of `claim_bands` among `keys`, each with its statements as
/// stored ([`packed`]), in key order.
fn read_bands<'k>(
    tx: &Conn<'_>,
    keys: impl Iterator<Item = &'k u64>,
) -> DbResult<Vec<(u64, Vec<u8>)>> {
    let mut keys: Vec<u64> = keys.copied().collect();
    keys.sort_unstable();
    keys.dedup();
    if keys.is_empty() {
        return Ok(Vec::new());
    }
    let mut wanted = Rows::new("claim_bands", &["band_key"]);
    for &key in &keys {
        wanted.push([Value::Integer(key as i64)])?;
    }
    let mut read = tx
        .rows(&band_slices_sql(tx), &[wanted.into_param()?])?
        .into_iter()
        .map(|row| Ok((row.get::<i64>("band_key")? as u64, row.get("statements")?)))
        .collect::<DbResult<Vec<_>>>()?;
    read.sort_unstable();
    Ok(read)
}

/// Takes an article's statements out of their claims before the article is
/// removed, and removes the claims left with none. A claim keeps the name
/// words the removed statements brought: they only ever keep statements
/// apart, and a replaced article brings its names back. `claim_bands` has no
/// index by statement, which would cost as much again as the table: each
/// statement's band keys are worked out again from its stored stems. A key
/// left with fewer than [`attest_claims::PER_BAND_KEY`] statements does not
/// get back the older ones that its removed ones pushed out.
pub(crate) fn remove(tx: &Conn<'_>, article: i64) -> DbResult<()> {
    let stored = tx.rows(
        "SELECT id, stems FROM statements WHERE article = ?1",
        values![article],
    )?;
    let mut removed = HashSet::new();
    let mut keys = Vec::new();
    for row in stored {
        removed.insert(row.get::<i64>("id")?);
        let print = Fingerprint {
            stems: stems(&row)?,
            figures: Vec::new(),
            names: Vec::new(),
            years: Vec::new(),
        };
        keys.extend(print.band_keys());
    }
    let mut kept_keys = Vec::new();
    let mut emptied_keys = Vec::new();
    for (key, statements) in read_bands(tx, keys.iter())? {
        let held: Vec<i64> = unpacked(&statements).collect();
        let kept: Vec<i64> = held
            .iter()
            .copied()
            .filter(|statement| !removed.contains(statement))
            .collect();
        if kept.is_empty() {
            emptied_keys.push(key as i64);
        } else if kept.len() < held.len() {
            kept_keys.push((key as i64, packed(kept)?));
        }
    }
    BandWrite::Update(&kept_keys).write(tx)?;
    BandWrite::Clear(&emptied_keys).write(tx)?;
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

/// Rows a page of [`unsound_band_keys`] reads, so that checking a ledger
/// of any size holds a page of rows at a time.
const CHECKED_A_PAGE: i64 = 10_000;

/// How many band keys hold what a key cannot (for the check): no statement,
/// more than [`attest_claims::PER_BAND_KEY`], ids out of order or of bytes
/// that are not whole ids, or a statement not stored. Band keys have no
/// foreign key (schema version 6): removing an article takes its
/// statements out of their keys itself. The stored statements are held as
/// a bit an id.
pub(crate) fn unsound_band_keys(conn: &Conn<'_>) -> DbResult<i64> {
    let mut stored: Vec<u64> = Vec::new();
    let mut after = 0;
    loop {
        let ids: Vec<i64> = conn.column(
            "SELECT id FROM statements WHERE id > ?1 ORDER BY id LIMIT ?2",
            values![after, CHECKED_A_PAGE],
        )?;
        for &id in &ids {
            let (word, bit) = ((id / 64) as usize, id % 64);
            if stored.len() <= word {
                stored.resize(word + 1, 0);
            }
            stored[word] |= 1 << bit;
        }
        match ids.last() {
            Some(&last) => after = last,
            None => break,
        }
    }
    let is_stored = |id: i64| {
        stored
            .get((id / 64) as usize)
            .is_some_and(|word| word & (1 << (id % 64)) != 0)
    };
    let mut unsound = 0;
    let mut after = i64::MIN;
    loop {
        let keys = conn.rows(
            "SELECT band_key, statements FROM claim_bands WHERE band_key > ?1 \
             ORDER BY band_key LIMIT ?2",
            values![after, CHECKED_A_PAGE],
        )?;
        for row in &keys {
            let bytes: Vec<u8> = row.get("statements")?;
            let ids: Vec<i64> = unpacked(&bytes).collect();
            let sound = bytes.len().is_multiple_of(4)
                && (1..=attest_claims::PER_BAND_KEY).contains(&ids.len())
                && ids.is_sorted_by(|a, b| a < b)
                && ids.iter().all(|&id| is_stored(id));
            unsound += i64::from(!sound);
        }
        match keys.last() {
            Some(row) => after = row.get("band_key")?,
            None => break,
        }
    }
    Ok(unsound)
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
    Ok(little_endian_u32s(&row.get::<Vec<u8>>("stems")?).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_band_keys_statements_are_packed_four_bytes_each_and_read_back() {
        let ids = [1, 255, 256, 70_000, i64::from(u32::MAX)];
        let bytes = packed(ids).unwrap();
        assert_eq!(bytes.len(), 4 * ids.len());
        assert_eq!(&bytes[4..8], [255, 0, 0, 0], "little-endian, as stems");
        assert_eq!(unpacked(&bytes).collect::<Vec<_>>(), ids);
        assert_eq!(packed([]).unwrap(), Vec::<u8>::new());
        for beyond in [i64::from(u32::MAX) + 1, -1] {
            let err = packed([7, beyond]).unwrap_err();
            assert!(err.to_string().contains(&beyond.to_string()), "{err}");
        }
    }

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
        assert_eq!(sizes(BOUND_BAND_KEYS), [BOUND_BAND_KEYS]);
        assert_eq!(
            sizes(2 * BOUND_BAND_KEYS + 5),
            [BOUND_BAND_KEYS, BOUND_BAND_KEYS, 4, 1]
        );
        let distinct: BTreeSet<usize> = (0..3 * BOUND_BAND_KEYS).flat_map(sizes).collect();
        assert_eq!(
            distinct.len(),
            BOUND_BAND_KEYS.ilog2() as usize + 1,
            "{distinct:?}"
        );
    }
}
