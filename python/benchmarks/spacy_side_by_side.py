"""attest.analyze_many against a spaCy pipeline that only parses, on the PolNeAR dev texts, in one run.

Usage: python spacy_side_by_side.py [--model en_core_web_sm] [--rounds 5] [--dev DIR]

DIR defaults to ../shared/data/polnear/dev/text beside the repository; the texts are read, never copied.
spaCy runs its tokenizer, tok2vec and parser only (tagger, attribute ruler, lemmatizer and NER disabled),
attest its whole pipeline; both see the same texts in the same order, alternately, and each figure
is the best of the rounds in articles per second of wall time.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import time

import spacy

import attest

REPO = pathlib.Path(__file__).resolve().parents[2]


def best(rounds: int, run) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="en_core_web_sm")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--dev", type=pathlib.Path, default=REPO.parent / "shared/data/polnear/dev/text")
    args = parser.parse_args()
    texts = [p.read_text(encoding="utf-8") for p in sorted(args.dev.glob("*.txt"))]
    megabytes = sum(len(t.encode()) for t in texts) / 1e6
    nlp = spacy.load(args.model, exclude=["tagger", "attribute_ruler", "lemmatizer", "ner"])
    print(f"{len(texts)} articles, {megabytes:.2f} MB; spaCy {spacy.__version__}, {nlp.meta['name']} {nlp.meta['version']}, pipes {nlp.pipe_names}")
    print(f"cores: {os.cpu_count()}, load average {os.getloadavg()[0]:.1f}")

    def spacy_run() -> None:
        for _ in nlp.pipe(texts, batch_size=16):
            pass

    def attest_run(threads: int):
        return lambda: sum(1 for _ in attest.analyze_many(texts, threads=threads))

    attest_run(1)()
    spacy_run()
    results = {}
    for _ in range(args.rounds):
        for name, run in (("attest, 1 thread", attest_run(1)), ("attest, 2 threads", attest_run(2)), ("spaCy parse, 1 process", spacy_run)):
            results[name] = min(results.get(name, float("inf")), best(1, run))
    print(f"load average {os.getloadavg()[0]:.1f}")
    print("| pipeline | s (best of %d) | articles/s | MB/s |" % args.rounds)
    print("|---|---|---|---|")
    for name, seconds in results.items():
        print(f"| {name} | {seconds:.3f} | {len(texts) / seconds:.1f} | {megabytes / seconds:.2f} |")
    base = results["spaCy parse, 1 process"]
    print(f"attest, 1 thread, over spaCy: {base / results['attest, 1 thread']:.1f}x; 2 threads: {base / results['attest, 2 threads']:.1f}x")


if __name__ == "__main__":
    main()
