"""The Spark jobs in local mode with two workers, on generated articles.

Analysis: the job against one `attest analyze` process on the same articles;
the documents must be the same, record for record and byte for byte, and each
run's articles per second are printed.

Claims: the grouping job (`attest_spark.claims`) on those documents against a
SQLite ledger that `attest ingest --analysed` stores them in: every statement
must be in the claim of the same id, with the same statement id, and each
claim's first appearance must be the same. Before it, the Python restatement
of the pair rule decides the cases the Rust tests decide
(crates/claims/tests/data/rule-cases.json).

    python examples/spark/test_local.py --attest target/release/attest \
        --gencorpus target/release/attest-gencorpus [--articles 2000]

Exit status 0 when the outputs agree, 1 when they differ.
"""

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time

from pyspark.sql import SparkSession

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import attest_spark  # noqa: E402
import claim_rule  # noqa: E402

RULE_CASES = os.path.join(HERE, "..", "..", "crates", "claims", "tests", "data", "rule-cases.json")


def ledger_claims(attest, db):
    """The ledger's statements, by (article, said, idx, byte_start): (statement
    id, claim id); and each claim's first appearance, from `attest claims`."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    rows = con.execute(
        "SELECT a.article_id, s.said, s.idx, s.byte_start, s.id, s.claim "
        "FROM statements s JOIN articles a ON a.id = s.article"
    ).fetchall()
    n_claims = con.execute("SELECT count(*) FROM claims").fetchone()[0]
    con.close()
    statements = {tuple(row[:4]): (row[4], row[5]) for row in rows}
    listed = subprocess.run(
        [attest, "claims", "--db", db, "--format", "jsonl", "--min-articles", "1", "--limit", str(n_claims + 1)],
        stdout=subprocess.PIPE,
        check=True,
    ).stdout.decode("utf-8")
    first = {}
    for line in listed.splitlines():
        claim = json.loads(line)
        opening = claim["appearances"][0]
        first[claim["claim"]] = (opening["article"], opening["span"]["byte_start"])
    return statements, first


def compare_claims(spark_rows, published, statements, first):
    """The failures, as text, of Spark's statement rows against the ledger's."""
    found = {(r[1], r[3], r[4], r[5]): (r[0], r[2]) for r in spark_rows}
    failures = []
    if len(found) != len(spark_rows):
        failures.append("Spark gave one statement twice")
    missing = statements.keys() - found.keys()
    extra = found.keys() - statements.keys()
    if missing or extra:
        failures.append(f"{len(missing)} statements of the ledger not in Spark's, {len(extra)} only in Spark's")
    differ = [key for key in statements.keys() & found.keys() if statements[key] != found[key]]
    if differ:
        key = min(differ)
        failures.append(
            f"{len(differ)} statements differ in (id, claim), the first {key}: "
            f"ledger {statements[key]}, Spark {found[key]}"
        )
    # A claim's first appearance: by publication, then input order, then place.
    spark_first = {}
    for (article, _, _, byte_start), (_, claim) in found.items():
        order = (published[article], byte_start)
        if claim not in spark_first or order < spark_first[claim][0]:
            spark_first[claim] = (order, (article, byte_start))
    spark_first = {claim: where for claim, (_, where) in spark_first.items()}
    if spark_first != first:
        wrong = sorted(c for c in first.keys() | spark_first.keys() if first.get(c) != spark_first.get(c))
        failures.append(f"{len(wrong)} claims differ in their first appearance, the first claim {wrong[0]}")
    return failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--attest", required=True)
    parser.add_argument("--gencorpus", required=True)
    parser.add_argument("--articles", type=int, default=2000)
    args = parser.parse_args()
    attest = os.path.abspath(args.attest)

    failures = [f"the pair rule: {failure}" for failure in claim_rule.check_cases(RULE_CASES)]
    with tempfile.TemporaryDirectory(prefix="attest-spark-") as work:
        corpus = os.path.join(work, "corpus.jsonl")
        with open(corpus, "wb") as out:
            subprocess.run([args.gencorpus, str(args.articles), "16"], stdout=out, check=True)

        started = time.monotonic()
        single = subprocess.run(
            [attest, "analyze", "--format", "jsonl", corpus], stdout=subprocess.PIPE, check=True
        ).stdout.decode("utf-8").splitlines()
        single_seconds = time.monotonic() - started

        analysed = os.path.join(work, "analysed.jsonl")
        with open(analysed, "w", encoding="utf-8") as out:
            out.write("\n".join(single) + "\n")
        db = os.path.join(work, "ledger.db")
        started = time.monotonic()
        subprocess.run([attest, "ingest", "--analysed", analysed, "--db", db], check=True, stderr=subprocess.DEVNULL)
        ingest_seconds = time.monotonic() - started
        statements, first = ledger_claims(attest, db)

        spark = (
            SparkSession.builder.master("local[2]")
            .appName("attest local test")
            .config("spark.ui.enabled", "false")
            .config("spark.default.parallelism", "4")
            .config("spark.ui.showConsoleProgress", "false")
            .getOrCreate()
        )
        spark.sparkContext.setLogLevel("ERROR")
        started = time.monotonic()
        piped = attest_spark.analysed(spark, attest, [corpus], 4).collect()
        spark_seconds = time.monotonic() - started

        started = time.monotonic()
        rounds = []
        rows, _ = attest_spark.claims(spark, attest, spark.sparkContext.parallelize(piped, 4), 4, rounds)
        spark_rows = rows.collect()
        claims_seconds = time.monotonic() - started
        spark.stop()

    print(f"single process: {args.articles / single_seconds:.0f} articles/s ({single_seconds:.1f} s)")
    print(f"Spark local[2], 4 partitions: {args.articles / spark_seconds:.0f} articles/s ({spark_seconds:.1f} s)")
    if len(piped) != len(single) or len(single) != args.articles:
        failures.append(f"{len(piped)} documents from Spark, {len(single)} from one process, {args.articles} articles")
    else:
        differ = [index for index, (a, b) in enumerate(zip(piped, single)) if a != b]
        if differ:
            failures.append(f"{len(differ)} documents differ, the first at record {differ[0] + 1}")
        else:
            print(f"ok: {len(single)} documents, the same record for record")

    published = {}
    for index, line in enumerate(single):
        doc = json.loads(line)
        published[doc["id"]] = (doc.get("published") or "~", index)
    print(f"ledger (ingest --analysed): {len(statements)} statements in {len(first)} claims ({ingest_seconds:.1f} s)")
    print(f"Spark claims: {len(spark_rows)} statements in {len({r[2] for r in spark_rows})} claims ({claims_seconds:.1f} s)")
    for number, (pairs, edges) in enumerate(rounds, 1):
        print(f"  round {number}: {pairs} candidate pairs read, {edges} passed the pair check")
    claim_failures = compare_claims(spark_rows, published, statements, first)
    if not claim_failures:
        print("ok: the same statements in the same claims, with the same ids and first appearances")
    failures += claim_failures
    for failure in failures:
        print(f"FAIL: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
