#!/usr/bin/env python3
"""plan.py LABELDIR: lays out the labelling batches of PolNeAR dev and train in
LABELDIR, one directory per batch with its articles.txt ("SPLIT NAME" per line).

Dev is six batches of 14 articles (D1-D6); train is 56 batches of 15 (T01-T56),
in name order, since the guideline labels a split from its first article. Each
batch's annotator works from BRIEF.md alone. 26 articles (5.4% of dev and the
first 400 of train) are labelled a second time, blind, by the next batch: two of
each dev batch go to the next dev batch, and one of each of T01-T14 to the next of
those. doubles.tsv records them (split, name, primary batch, second batch);
collect.py keeps the primary labels and reports the agreement."""
import os, random, sys

from ann import ROOT

lab = sys.argv[1]
dev = sorted(f[:-4] for f in os.listdir(os.path.join(ROOT, "dev", "text")))
train = sorted(f[:-4] for f in os.listdir(os.path.join(ROOT, "train", "text")))
batches = {}
for k in range(6):
    batches["D%d" % (k + 1)] = [("dev", n) for n in dev[k * 14:(k + 1) * 14]]
for k in range(56):
    batches["T%02d" % (k + 1)] = [("train", n) for n in train[k * 15:(k + 1) * 15]]
doubles = []
for k in range(6):
    for i in (2, 9):
        doubles.append((batches["D%d" % (k + 1)][i], "D%d" % (k + 1), "D%d" % ((k + 1) % 6 + 1)))
for k in range(14):
    doubles.append((batches["T%02d" % (k + 1)][6], "T%02d" % (k + 1), "T%02d" % ((k + 1) % 14 + 1)))
extra = {}
for article, _, second in doubles:
    extra.setdefault(second, []).append(article)
shuffle = random.Random(7)
for batch, articles in batches.items():
    os.makedirs(os.path.join(lab, batch), exist_ok=True)
    listed = articles + extra.get(batch, [])
    if batch in extra:
        # The second labelling's articles hide among the batch's own.
        shuffle.shuffle(listed)
    with open(os.path.join(lab, batch, "articles.txt"), "w") as f:
        f.writelines("%s %s\n" % a for a in listed)
with open(os.path.join(lab, "doubles.tsv"), "w") as f:
    for (split, name), primary, second in doubles:
        f.write("%s\t%s\t%s\t%s\n" % (split, name, primary, second))
