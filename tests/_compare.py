"""Compare our results with a reference's: errors relative to the reference's largest
magnitude, and roots as scipy's arrays."""

import numpy as np

RTOL = 1e-12


def close(ours, ref, rtol=RTOL, floor=1e-300, what=""):
    """Max error ≤ rtol × the reference's largest magnitude (at least ``floor``);
    NaN exactly where the reference is NaN."""
    ours, ref = np.asarray(ours), np.asarray(ref)
    assert ours.shape == ref.shape, (what, ours.shape, ref.shape)
    assert (np.isnan(ours) == np.isnan(ref)).all(), what
    finite = ~np.isnan(ref)
    scale = max(np.max(np.abs(ref[finite]), initial=0.0), floor)
    error = np.max(np.abs(ours[finite] - ref[finite]), initial=0.0) / scale
    assert error <= rtol, (what, error)


def same_roots(ours, ref, tol=1e-10):
    """scipy's arrays (or object arrays of them) to ``tol``."""
    ours, ref = np.asarray(ours), np.asarray(ref)
    if ref.dtype == object:
        assert ours.shape == ref.shape
        for a, b in zip(ours.ravel(), ref.ravel()):
            same_roots(a, b, tol)
        return
    assert ours.shape == ref.shape, (ours, ref)
    np.testing.assert_allclose(ours, ref, rtol=tol, atol=tol)


def padded(roots, size):
    """scipy's roots as a jitted ``roots(size=...)`` gives them: NaN-padded to ``size``."""
    roots = np.asarray(roots, float)
    return np.concatenate([roots, np.full(size - len(roots), np.nan)])
