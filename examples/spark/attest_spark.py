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
"""

import argparse
import os
import subprocess
import threading

from pyspark import SparkFiles
from pyspark.sql import SparkSession


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


def analysed(spark, attest, inputs, partitions):
    context = spark.sparkContext
    context.addFile(attest)
    if __name__ != "__main__":
        # Imported (by a notebook or a test): the functions below are pickled
        # by reference to this module, which the workers must then import.
        context.addPyFile(os.path.abspath(__file__))
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
    import json

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


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--attest", required=True, help="the attest binary to ship to the executors")
    parser.add_argument("--input", required=True, nargs="+", help="JSON Lines or WARC files or directories")
    parser.add_argument("--output", required=True, help="the directory to write")
    parser.add_argument("--format", choices=["jsonl", "parquet"], default="jsonl")
    parser.add_argument("--partitions", type=int, default=None, help="the least number of JSON Lines partitions")
    args = parser.parse_args()

    spark = SparkSession.builder.appName("attest analyze").getOrCreate()
    lines = analysed(spark, os.path.abspath(args.attest), args.input, args.partitions)
    if args.format == "jsonl":
        lines.saveAsTextFile(args.output)
    else:
        write_parquet(spark, lines, args.output)
    spark.stop()


if __name__ == "__main__":
    main()
