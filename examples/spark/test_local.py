"""The Spark job in local mode with two workers, against one `attest analyze`
process on the same generated articles: the documents must be the same, record
for record and byte for byte, and each run's articles per second are printed.

    python examples/spark/test_local.py --attest target/release/attest \
        --gencorpus target/release/attest-gencorpus [--articles 2000]

Exit status 0 when the outputs agree, 1 when they differ.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

from pyspark.sql import SparkSession

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import attest_spark  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--attest", required=True)
    parser.add_argument("--gencorpus", required=True)
    parser.add_argument("--articles", type=int, default=2000)
    args = parser.parse_args()
    attest = os.path.abspath(args.attest)

    with tempfile.TemporaryDirectory(prefix="attest-spark-") as work:
        corpus = os.path.join(work, "corpus.jsonl")
        with open(corpus, "wb") as out:
            subprocess.run([args.gencorpus, str(args.articles), "16"], stdout=out, check=True)

        started = time.monotonic()
        single = subprocess.run(
            [attest, "analyze", "--format", "jsonl", corpus], stdout=subprocess.PIPE, check=True
        ).stdout.decode("utf-8").splitlines()
        single_seconds = time.monotonic() - started

        spark = (
            SparkSession.builder.master("local[2]")
            .appName("attest local test")
            .config("spark.ui.enabled", "false")
            .getOrCreate()
        )
        spark.sparkContext.setLogLevel("ERROR")
        started = time.monotonic()
        piped = attest_spark.analysed(spark, attest, [corpus], 4).collect()
        spark_seconds = time.monotonic() - started
        spark.stop()

    print(f"single process: {args.articles / single_seconds:.0f} articles/s ({single_seconds:.1f} s)")
    print(f"Spark local[2], 4 partitions: {args.articles / spark_seconds:.0f} articles/s ({spark_seconds:.1f} s)")
    if len(piped) != len(single) or len(single) != args.articles:
        print(f"FAIL: {len(piped)} documents from Spark, {len(single)} from one process, {args.articles} articles")
        return 1
    differ = [index for index, (a, b) in enumerate(zip(piped, single)) if a != b]
    if differ:
        print(f"FAIL: {len(differ)} documents differ, the first at record {differ[0] + 1}")
        return 1
    print(f"ok: {len(single)} documents, the same record for record")
    return 0


if __name__ == "__main__":
    sys.exit(main())
