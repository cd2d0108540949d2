"""Analyse a corpus with attest on Spark: partitions are piped through
`attest analyze --input-format jsonl --errors inline -`, which writes exactly
one JSON line per input record, in input order.

JSON Lines inputs are split by Spark into records; WARC files are piped whole,
one file to one process, since a WARC record spans many lines. The attest
binary is shipped to the executors with `SparkContext.addFile`, so the workers
need nothing installed (build it static, `--target x86_64-unknown-linux-musl`,
when the executors' libc differs from the driver's).

    spark-submit examples/spark/attest_spark.py --attest target/release/attest \
        --input corpus/ --output analysed/ [--format jsonl|parquet]

JSON Lines output is `attest analyze`'s documents (schema attest.document/1),
which `attest ingest --analysed` stores in a ledger; error lines of records that
could not be read are kept beside them, in the records' places. Parquet output
writes two tables under OUTPUT: `attributions` (one row per attribution: the
article id, its index, kind, confidence, and the source, cue and content texts
joined with " … " as the ledger joins them) and `errors`.

Claims (`--format claims`) groups the statements of the corpus into claims as
one ledger storing the articles in input order would, for a corpus too large
for one ledger, and writes two Parquet tables under OUTPUT: `statements` (the
ledger's `attest export statements` columns, without the text) and `claims`
(`id`, `n_statements`, `n_articles`), with the ids the ledger would give.
`attest statements` gives each statement's stems, figures, names and LSH band
keys; Spark joins statements on band keys, keeps for each statement the
candidates the ledger would read (of the latest exemplars of each key before
it, those found under the most keys),
applies the pair check (claim_rule.py), finds the connected components of the
candidate graph by min-label propagation, and runs the ledger's sequential
assignment in each component, in the ledger's order. Which statements are a
claim's exemplars (its first eight, the only ones indexed) depends on that
assignment, so the candidates are computed from every statement first and
again from the exemplars the assignment found, until the exemplars no longer
change: that fixed point is the ledger's own grouping (see `group_claims`).
"""

import argparse
import json
import os
import subprocess
import threading
from collections import deque
from operator import add

from pyspark import SparkFiles
from pyspark.sql import SparkSession

import claim_rule


def attest_command(binary_name, input_format):
    return [
        SparkFiles.get(binary_name),
        "analyze",
        "--input-format",
        input_format,
        "--format",
        "jsonl",
        "--errors",
        "inline",
        "-",
    ]


def pipe(command, chunks):
    """Feeds `chunks` (bytes) to `command` on a thread of its own and yields
    its output lines; a failed process fails the task, so that Spark retries it
    instead of keeping a partial partition."""
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def feed():
        try:
            for chunk in chunks:
                process.stdin.write(chunk)
        finally:
            process.stdin.close()

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    for line in process.stdout:
        yield line.rstrip(b"\n").decode("utf-8")
    feeder.join()
    status = process.wait()
    if status != 0:
        raise RuntimeError(f"{command[0]} exited with status {status}")


def analyse_jsonl(binary_name):
    def run(records):
        # Blank lines are not records and give no output: leave them out here,
        # so that the count check below holds.
        kept = (record for record in records if record.strip())
        count = [0]

        def encoded():
            for record in kept:
                count[0] += 1
                yield record.encode("utf-8") + b"\n"

        out = 0
        for line in pipe(attest_command(binary_name, "jsonl"), encoded()):
            out += 1
            yield line
        if out != count[0]:
            raise RuntimeError(f"attest wrote {out} lines for {count[0]} records")

    return run


def analyse_warc(binary_name):
    def run(files):
        for _path, content in files:
            yield from pipe(attest_command(binary_name, "warc"), [bytes(content)])

    return run


def ship_modules(context):
    """Sends the workers the Python they import: the claim rule, and this
    module when it was imported (by a notebook or a test), since the
    functions below are then pickled by reference to it."""
    context.addPyFile(os.path.abspath(claim_rule.__file__))
    if __name__ != "__main__":
        context.addPyFile(os.path.abspath(__file__))


def analysed(spark, attest, inputs, partitions):
    context = spark.sparkContext
    context.addFile(attest)
    ship_modules(context)
    name = os.path.basename(attest)
    jsonl = [path for path in inputs if not path.endswith((".warc", ".warc.gz"))]
    warc = [path for path in inputs if path.endswith((".warc", ".warc.gz"))]
    parts = []
    if jsonl:
        records = context.textFile(",".join(jsonl), minPartitions=partitions)
        parts.append(records.mapPartitions(analyse_jsonl(name), preservesPartitioning=True))
    if warc:
        files = context.binaryFiles(",".join(warc))
        parts.append(files.mapPartitions(analyse_warc(name)))
    return parts[0] if len(parts) == 1 else context.union(parts)


def write_parquet(spark, lines, output):
    def attributions(line):
        doc = json.loads(line)
        if "error" in doc:
            return
        joined = lambda spans: " … ".join(span["text"] for span in spans)
        for attribution in doc.get("attributions", []):
            yield (
                doc["id"],
                attribution["index"],
                attribution["kind"],
                attribution["confidence"],
                joined(attribution["source"]),
                joined(attribution["cue"]),
                joined(attribution["content"]),
            )

    def errors(line):
        doc = json.loads(line)
        if "error" in doc:
            yield (doc["id"], doc["line"], doc["error"])

    schema = "article string, idx long, kind string, confidence double, source string, cue string, content string"
    spark.createDataFrame(lines.flatMap(attributions), schema).write.mode("overwrite").parquet(
        os.path.join(output, "attributions")
    )
    spark.createDataFrame(lines.flatMap(errors), "id string, line long, error string").write.mode(
        "overwrite"
    ).parquet(os.path.join(output, "errors"))


def documents_in_order(lines):
    """The analysed documents of `lines` (error lines left out), each with its
    place in the input: the order a ledger stores them in."""

    def parsed(pair):
        line, index = pair
        doc = json.loads(line)
        if "schema" in doc:
            yield doc["id"], (line, index)

    return lines.zipWithIndex().flatMap(parsed)


def statement_records(spark, attest, lines, partitions):
    """Each statement of the documents of `lines`, from `attest statements`,
    keyed by (article's place in the input, position in the article)."""
    context = spark.sparkContext
    context.addFile(attest)
    name = os.path.basename(attest)
    documents = documents_in_order(lines).repartition(partitions).cache()

    def run(pairs):
        chunks = (line.encode("utf-8") + b"\n" for _, (line, _) in pairs)
        for out in pipe([SparkFiles.get(name), "statements", "-"], chunks):
            record = json.loads(out)
            yield record["article"], record

    places = documents.mapValues(lambda pair: pair[1])
    return (
        documents.mapPartitions(run)
        .join(places)
        .map(lambda item: ((item[1][1], item[1][0]["position"]), item[1][0]))
    )


def band_windows(members):
    """For each statement of one band key, the latest PER_BAND_KEY exemplars
    before it: what the ledger's lookup reads from `claim_bands`."""
    recent = deque(maxlen=claim_rule.PER_BAND_KEY)
    for key, exemplar in sorted(members):
        for candidate in recent:
            yield key, candidate
        if exemplar:
            recent.append(key)


def most_shared(group):
    """A statement's candidates, from `(keys it was found under, candidate)`
    pairs: the MOST_CANDIDATES found under the most keys, the latest first
    among equals, as the ledger's lookup orders and cuts them."""
    statement, found = group
    for _, candidate in sorted(found, reverse=True)[: claim_rule.MOST_CANDIDATES]:
        yield statement, candidate


def components(keys, edges):
    """Each key's component: the least key it is connected to, by min-label
    propagation until no label changes."""
    both_ways = edges.flatMap(lambda e: [e, (e[1], e[0])]).cache()
    labels = keys.map(lambda key: (key, key)).cache()
    while True:
        offered = both_ways.join(labels).map(lambda item: (item[1][0], item[1][1]))
        updated = labels.union(offered).reduceByKey(min).cache()
        changed = updated.join(labels).filter(lambda item: item[1][0] != item[1][1]).count()
        labels.unpersist()
        labels = updated
        if changed == 0:
            both_ways.unpersist()
            return labels


def assign_component(group):
    _, members = group
    ordered = sorted(members, key=lambda member: member[0])
    return claim_rule.assign(ordered)


def group_claims(statements, rounds, most_rounds=10):
    """(key, claim key, exemplar) for each statement of `statements` ((key,
    record) pairs) that the ledger would store, with the ledger's claims.

    The ledger reads, for each band key of a statement, the latest
    PER_BAND_KEY exemplars stored before it, where exemplars are the first
    EXEMPLARS statements of each claim, and compares those found under at
    least LEAST_SHARED_BANDS of its keys. Given the set of exemplars, the
    candidates of every statement follow, and the assignment within each
    connected component of the candidate graph is the ledger's sequential
    rule. Started from every statement and repeated with the exemplars each
    round finds, a round that finds the exemplars it started from has
    reproduced the ledger: statement by statement in the ledger's order, the
    same exemplars before it give the same candidates, the same claim, and
    the same exemplar status for it. Appends to `rounds` what each round
    read: its candidate pairs (statement, candidate) and those that passed
    the pair check."""
    prints = statements.mapValues(
        lambda record: (claim_rule.Print.of(record), record["may_start"])
    ).cache()
    bands = statements.flatMap(lambda item: [(item[0], band) for band in item[1]["bands"]]).cache()
    exemplars = statements.keys().map(lambda key: (key, True))
    for _ in range(most_rounds):
        flagged = bands.leftOuterJoin(exemplars).map(
            lambda item: (item[1][0], (item[0], item[1][1] is not None))
        )
        pairs = (
            flagged.groupByKey()
            .flatMap(lambda group: band_windows(group[1]))
            .map(lambda pair: (pair, 1))
            .reduceByKey(add)
            .map(lambda item: (item[0][0], (item[1], item[0][1])))
            .groupByKey()
            .flatMap(most_shared)
            .cache()
        )
        edges = (
            pairs.map(lambda pair: (pair[1], pair[0]))
            .join(prints)
            .map(lambda item: (item[1][0], (item[0], item[1][1][0])))
            .join(prints)
            .filter(lambda item: claim_rule.same_claim(item[1][1][0], item[1][0][1]))
            .map(lambda item: (item[0], item[1][0][0]))
            .cache()
        )
        label = components(prints.keys(), edges)
        candidates = edges.groupByKey().mapValues(list)
        assigned = (
            prints.leftOuterJoin(candidates)
            .join(label)
            .map(
                lambda item: (
                    item[1][1],
                    (item[0], item[1][0][0][0], item[1][0][0][1], item[1][0][1] or []),
                )
            )
            .groupByKey()
            .flatMap(assign_component)
            .cache()
        )
        found = assigned.filter(lambda row: row[2]).map(lambda row: (row[0], True)).cache()
        differ = exemplars.subtractByKey(found).count() + found.subtractByKey(exemplars).count()
        rounds.append((pairs.count(), edges.count()))
        pairs.unpersist()
        edges.unpersist()
        label.unpersist()
        exemplars = found
        if differ == 0:
            return assigned
        assigned.unpersist()
    raise RuntimeError(f"the exemplars did not settle in {most_rounds} rounds")


def claims_tables(statements, assigned):
    """The `statements` and `claims` rows, with the ids a ledger storing the
    corpus in input order gives: statements and claims are numbered in the
    order they are stored and started."""
    statement_ids = assigned.map(lambda row: row[0]).sortBy(lambda key: key).zipWithIndex()
    claim_ids = assigned.map(lambda row: row[1]).distinct().sortBy(lambda key: key).zipWithIndex()
    rows = (
        assigned.map(lambda row: (row[1], row[0]))
        .join(claim_ids)
        .map(lambda item: (item[1][0], item[1][1] + 1))
        .join(statement_ids)
        .join(statements)
        .map(
            lambda item: (
                item[1][0][1] + 1,
                item[1][1]["article"],
                item[1][0][0],
                item[1][1]["said"],
                item[1][1]["idx"],
                item[1][1]["byte_start"],
                item[1][1]["byte_end"],
                item[1][1]["cp_start"],
                item[1][1]["cp_end"],
                item[1][1]["source"],
                item[1][1]["stance"],
                int(item[1][1]["hedged"]),
            )
        )
    )
    counts = rows.map(lambda row: (row[2], (1, {row[1]}))).reduceByKey(
        lambda a, b: (a[0] + b[0], a[1] | b[1])
    )
    claims = counts.map(lambda item: (item[0], item[1][0], len(item[1][1])))
    return rows, claims


STATEMENTS_SCHEMA = (
    "id long, article string, claim long, said string, idx long, byte_start long, byte_end long, "
    "cp_start long, cp_end long, source string, stance string, hedged long"
)
CLAIMS_SCHEMA = "id long, n_statements long, n_articles long"


def claims(spark, attest, lines, partitions, rounds):
    """The claims of the analysed documents `lines`: the `statements` and
    `claims` rows as RDDs (see the module docs); `rounds` as for
    `group_claims`."""
    ship_modules(spark.sparkContext)
    statements = statement_records(spark, attest, lines, partitions).cache()
    return claims_tables(statements, group_claims(statements, rounds))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--attest", required=True, help="the attest binary to ship to the executors")
    parser.add_argument("--input", required=True, nargs="+", help="JSON Lines or WARC files or directories")
    parser.add_argument("--output", required=True, help="the directory to write")
    parser.add_argument("--format", choices=["jsonl", "parquet", "claims"], default="jsonl")
    parser.add_argument("--partitions", type=int, default=None, help="the least number of JSON Lines partitions")
    args = parser.parse_args()

    spark = SparkSession.builder.appName("attest analyze").getOrCreate()
    lines = analysed(spark, os.path.abspath(args.attest), args.input, args.partitions)
    if args.format == "jsonl":
        lines.saveAsTextFile(args.output)
    elif args.format == "claims":
        rounds = []
        statements, grouped = claims(spark, os.path.abspath(args.attest), lines, lines.getNumPartitions(), rounds)
        for name, rows, schema in [
            ("statements", statements, STATEMENTS_SCHEMA),
            ("claims", grouped, CLAIMS_SCHEMA),
        ]:
            spark.createDataFrame(rows, schema).write.mode("overwrite").parquet(os.path.join(args.output, name))
    else:
        write_parquet(spark, lines, args.output)
    spark.stop()


if __name__ == "__main__":
    main()
