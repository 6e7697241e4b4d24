"""A network of one hidden layer of rectified units, fitted by least squares with numpy alone.

The leftover model (azul_fast.core.bots.learned) is such a network: a few units over a dozen counts,
small enough to evaluate at every leaf of a search in nogil C, where a linear model of the same
counts misses how they combine (the worth of an empty line depends on how many tiles are left).
`fit_network` trains it by Adam on mini-batches with a cosine-decayed step, from a seed: the same
data and seed give the same weights. The inputs are standardized for the fit and the scaling
folded back into the first layer, so the core multiplies the raw counts.

The layout is the core's (_learned.pyx): ``hidden[i, u]`` is the weight of input i in unit u
(input 0 is the bias, always 1), ``output[u]`` the weight of unit u and ``output[-1]`` the bias.

>>> rng = np.random.default_rng(1)
>>> X = np.column_stack([np.ones(20000), rng.uniform(-1, 1, (20000, 2))])
>>> y = np.abs(X[:, 1]) + X[:, 2]          # no linear model fits |x| (its error: 0.29)
>>> hidden, output = fit_network(X, y, units=8, seed=0)
>>> hidden.shape, output.shape
((3, 8), (9,))
>>> bool(np.sqrt(np.mean((network_values(hidden, output, X) - y) ** 2)) < 0.1)
True

A fit can stop in a poor optimum that another seed escapes (with four units here, seed 0 ends
near the linear model's error and seed 1 near zero): the seed is part of the recipe.
"""

from __future__ import annotations

import numpy as np

__all__ = ["EPOCHS", "fit_network", "network_values"]

#: Passes over the data (more did not lower the held-out error of the leftover network).
EPOCHS = 30
#: Rows per step of Adam.
BATCH = 1024
#: Adam's step at the start; it decays to zero along a half cosine.
STEP = 3e-3
#: Weight decay on both layers' weights (not the biases), in the standardized inputs' units.
DECAY = 1e-5


def network_values(hidden: np.ndarray, output: np.ndarray, X: np.ndarray) -> np.ndarray:
    """The network's value of every row of `X` (its first column the bias input, 1)."""
    values: np.ndarray = np.maximum(X @ hidden, 0.0) @ output[:-1] + output[-1]
    return values


def fit_network(X: np.ndarray, y: np.ndarray, units: int, seed: int,
                epochs: int = EPOCHS) -> tuple[np.ndarray, np.ndarray]:
    """(hidden, output) of a network of `units` rectified units fitted to ``y ~ X`` (X's first column
    the bias input); see the module docstring."""
    rng = np.random.default_rng(seed)
    inputs = X[:, 1:]
    mean, scale = inputs.mean(axis=0), inputs.std(axis=0)
    scale[scale == 0] = 1.0          # an input that never varies is left as it is
    Z = (inputs - mean) / scale
    n, d = Z.shape
    params = [rng.normal(0.0, np.sqrt(2.0 / d), (d, units)), np.zeros(units),
              rng.normal(0.0, np.sqrt(1.0 / units), units), np.array([y.mean()])]
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    steps = epochs * -(-n // BATCH)
    t = 0
    for _ in range(epochs):
        order = rng.permutation(n)
        for start in range(0, n, BATCH):
            rows = order[start:start + BATCH]
            z, target = Z[rows], y[rows]
            pre = z @ params[0] + params[1]
            act = np.maximum(pre, 0.0)
            error = 2.0 * (act @ params[2] + params[3][0] - target) / len(rows)
            back = np.outer(error, params[2]) * (pre > 0)
            grads = (z.T @ back + DECAY * params[0], back.sum(axis=0), act.T @ error + DECAY * params[2],
                     np.array([error.sum()]))
            t += 1
            step = STEP * 0.5 * (1.0 + np.cos(np.pi * t / steps))
            for p, m, v, g in zip(params, moments, squares, grads):
                m *= 0.9
                m += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                p -= step * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    first, bias, second, out_bias = params
    hidden = np.empty((d + 1, units))
    hidden[1:] = first / scale[:, None]
    hidden[0] = bias - (mean / scale) @ first
    return hidden, np.concatenate([second, out_bias])
