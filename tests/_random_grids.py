"""Random grids that several grid test files share: 2-D (6 × 5 knots) and 3-D
(3 × 2 × 4 knots), with values and queries (on knots and at both ends too), drawn
once from one generator; tests draw more from `RNG`."""

import numpy as np

RNG = np.random.default_rng(20240601)
K2 = (np.cumsum(RNG.uniform(0.3, 1.5, 6)), np.cumsum(RNG.uniform(0.3, 1.5, 5)))
F2 = RNG.normal(size=(6, 5))
Q2 = [RNG.uniform(k[0], k[-1], 40) for k in K2]
for _q, _k in zip(Q2, K2):
    _q[:4] = _k[[0, 1, -2, -1]]  # exactly on knots and at both ends
K3 = (np.array([0.0, 0.5, 2.0]), np.array([-1.0, 1.0]), np.array([0.0, 0.25, 1.0, 1.75]))
F3 = RNG.normal(size=(3, 2, 4))
Q3 = [RNG.uniform(k[0], k[-1], 25) for k in K3]
for _q, _k in zip(Q3, K3):
    _q[:2] = _k[[0, -1]]
