"""Accuracy of natural smoothing splines against a 50-digit solve.

    python benchmarks/smoothing_accuracy.py   # ~2 minutes → results/smoothing_accuracy.md

For each (n, λ) — knots uniform on [0, 3] rounded to float32, noisy sin data and
weights, λ in the units where the span is 4 — the exact values f at the knots come
from Reinsch's system solved in mpmath at 50 digits (a banded elimination). Then
the largest |f − exact| of: `splines.CubicSmoothingSpline` in float64 and float32
(on the same float32-representable inputs), interpax's `CubicSmoothingSpline`
(Reinsch's pentadiagonal system), and scipy's `make_smoothing_spline` (its banded
B-spline system), each at the same λ.
"""

import sys
from pathlib import Path

import jax
import mpmath as mp
import numpy as np

jax.config.update("jax_enable_x64", True)

import interpax  # noqa: E402
from scipy.interpolate import make_smoothing_spline  # noqa: E402

import splines  # noqa: E402

UNIT = 4.0  # λ is given in units where the span is UNIT: λ_data = λ · UNIT³


def exact(x, y, w, lam):
    """f at the knots, from Reinsch's system (M + λ Qᵀ W⁻¹ Q) m = Qᵀ y in 50 digits."""
    mp.mp.dps = 50
    n = len(x)
    h = [(mp.mpf(x[i + 1]) - mp.mpf(x[i])) / UNIT for i in range(n - 1)]
    r, v, lam = [1 / t for t in h], [1 / mp.mpf(t) for t in w], mp.mpf(lam)

    def q(k, i):  # Q[k, i] for interior knot i
        return {i - 1: r[i - 1], i: -(r[i - 1] + r[i]), i + 1: r[i]}.get(k, 0)

    size = n - 2
    band = {}
    for a in range(size):
        for b in range(max(0, a - 2), min(size, a + 3)):
            i, j = a + 1, b + 1
            penalty = sum(q(k, i) * q(k, j) * v[k] for k in range(max(0, i - 1), min(n, i + 2)))
            m = (h[i - 1] + h[i]) / 3 if i == j else (h[min(i, j)] / 6 if abs(i - j) == 1 else 0)
            band[a, b] = m + lam * penalty
    rhs = [
        r[i] * (mp.mpf(y[i + 1]) - y[i]) - r[i - 1] * (mp.mpf(y[i]) - y[i - 1])
        for i in range(1, n - 1)
    ]
    for c in range(size):  # banded elimination, no pivoting (positive definite)
        for row in range(c + 1, min(size, c + 3)):
            factor = band[row, c] / band[c, c]
            for col in range(c, min(size, c + 3)):
                band[row, col] = band.get((row, col), 0) - factor * band[c, col]
            rhs[row] -= factor * rhs[c]
    m = [0] * size
    for c in reversed(range(size)):
        m[c] = (rhs[c] - sum(band[c, k] * m[k] for k in range(c + 1, min(size, c + 3)))) / band[
            c, c
        ]
    m = [0] + m + [0]

    def qm(k):  # (Q m)_k
        right = r[k] * (m[k + 1] - m[k]) if k < n - 1 else 0
        left = r[k - 1] * (m[k] - m[k - 1]) if k > 0 else 0
        return right - left

    return np.array([float(mp.mpf(y[k]) - lam * v[k] * qm(k)) for k in range(n)])


def csaps_p(x, w, lam_data):
    """interpax's p for scipy's λ: p̂ = 1/(1 + λ), p = p̂ k / (1 − p̂ + p̂ k)."""
    n, span, h = len(x), x[-1] - x[0], np.diff(x)
    k = 80 * span**3 / (n**2 * np.sqrt(1 + span**2 / np.sum(h**2)))
    k /= np.sqrt(np.sum(w) ** 2 / np.sum(w**2))
    rho = 1 / (1 + lam_data)
    return rho * k / (1 - rho + rho * k)


def main():
    rng = np.random.default_rng(4)
    rows = []
    for n in [30, 300, 3000]:
        x = np.unique(rng.uniform(0, 3, n).astype(np.float32)).astype(np.float64)
        n = len(x)
        y = (np.sin(x) + 0.1 * rng.normal(size=n)).astype(np.float32).astype(np.float64)
        w = rng.uniform(0.5, 2, n).astype(np.float32).astype(np.float64)
        for lam in [1e-6, 1e-3, 0.03, 1.0]:
            f = exact(x, y, w, lam)
            lam_data = lam * UNIT**3
            p = csaps_p(x, w, lam_data)
            errors = []
            for dtype in (np.float64, np.float32):
                ours = splines.CubicSmoothingSpline(
                    x.astype(dtype), y.astype(dtype), p=p, w=w.astype(dtype)
                )
                errors.append(np.max(np.abs(np.asarray(ours(x.astype(dtype)), np.float64) - f)))
            theirs = interpax.CubicSmoothingSpline(x, y, p=p, w=w)
            errors.append(np.max(np.abs(np.asarray(theirs(x)) - f)))
            try:
                errors.append(np.max(np.abs(make_smoothing_spline(x, y, w, lam_data)(x) - f)))
            except ValueError:
                errors.append(np.nan)
            rows.append((n, lam, *errors))
            print(rows[-1], file=sys.stderr)
    lines = [
        "# Natural smoothing splines: max |f − exact| at the knots",
        "",
        "`python benchmarks/smoothing_accuracy.py`; the exact f from a 50-digit solve; "
        f"jax {jax.__version__}, interpax {interpax.__version__}, "
        f"scipy {__import__('scipy').__version__}. λ in units where the span is {UNIT:g} "
        "(|f| ≤ ~1.3).",
        "",
        "| n | λ | splines f64 | splines f32 | interpax (Reinsch) f64 | scipy f64 |",
        "|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {n} | {lam:g} | " + " | ".join(f"{e:.1e}" for e in errors) + " |"
        for n, lam, *errors in rows
    ]
    out = Path(__file__).parent / "results" / "smoothing_accuracy.md"
    out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
