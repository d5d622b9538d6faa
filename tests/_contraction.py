"""Compare the results of two different compiled programs of the same computation."""

import numpy as np


def assert_same_but_contraction(ours, other, data):
    """Equal but for one rounding of a product (f64), on the scale of the terms.

    XLA:CPU may contract ``c0 + c1·t`` into an FMA in one program and not in
    another (its fusions decide), so two programs need not agree to the last bit.
    A term is as large as ``data`` inside the knots and as large as the result
    where a polynomial is extrapolated, so the scale is the larger of the two.
    """
    scale = max(np.abs(np.asarray(data)).max(), np.abs(np.asarray(other)).max())
    atol = 4 * np.finfo(np.float64).eps * scale
    np.testing.assert_allclose(np.asarray(ours), np.asarray(other), rtol=0, atol=atol)
