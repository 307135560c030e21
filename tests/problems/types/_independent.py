"""Plain-Python attention for the references: loops and ``math``, never NumPy or the generator's
helpers, so a mistake in the generator's method cannot hide in the test as well."""

from __future__ import annotations

import math


def softmax(row):
    exps = [math.exp(v) for v in row]
    total = math.fsum(exps)
    return [e / total for e in exps]


def attention(Q, K, V, allowed=None):
    d_k = len(Q[0])
    weights, output = [], []
    for i, q in enumerate(Q):
        keys = [j for j in range(len(K)) if allowed is None or allowed(i, j)]
        scores = [math.fsum(q[t] * K[j][t] for t in range(d_k)) / math.sqrt(d_k) for j in keys]
        p = softmax(scores)
        row = [0.0] * len(K)
        for j, w in zip(keys, p, strict=True):
            row[j] = w
        weights.append(row)
        output.append([math.fsum(row[j] * V[j][c] for j in range(len(K))) for c in range(len(V[0]))])
    return weights, output


def matmul(A, B):
    return [
        [math.fsum(A[i][t] * B[t][j] for t in range(len(B))) for j in range(len(B[0]))] for i in range(len(A))
    ]
