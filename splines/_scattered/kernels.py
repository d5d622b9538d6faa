"""The radial basis functions, as functions of the squared scaled distance ρ = (ε r)².

Each kernel is written in ρ rather than in r, so the fit and the evaluation need
no square root of a sum of squares except where the kernel itself has one.
Where the kernel is not smooth at r = 0 (linear, thin plate, cubic, quintic),
√ρ and ρ log ρ have derivatives defined to be 0 at ρ = 0 (`custom_jvp` rules): the
true gradient of r³, r⁵ and r² log r at a data site, and the subgradient 0 of the
cone −r. A plain `sqrt` there would give 0 · ∞ = NaN.

`MIN_DEGREE` is the order m − 1 of conditional positive definiteness (Fasshauer,
*Meshfree Approximation Methods with MATLAB*, ch. 8): with a polynomial tail of at
least that degree, the kernel matrix is positive definite on the polynomials'
null space, which is what `solve.py` relies on.
"""

import jax
import jax.numpy as jnp


def _where_positive(rho, derivative):
    """``derivative(ρ)`` where ρ > 0, and 0 at ρ = 0, at every order."""
    positive = rho > 0
    return jnp.where(positive, derivative(jnp.where(positive, rho, 1)), 0)


@jax.custom_jvp
def _root(rho):
    """√ρ, with the derivative 0 at ρ = 0 (the module docstring)."""
    return jnp.sqrt(rho)


@_root.defjvp
def _root_jvp(primals, tangents):
    (rho,), (drho,) = primals, tangents
    return _root(rho), _where_positive(rho, lambda r: 0.5 / jnp.sqrt(r)) * drho


def linear(rho):
    return -_root(rho)


@jax.custom_jvp
def thin_plate_spline(rho):
    # r² log r = ρ log(ρ) / 2, and 0 at ρ = 0. The guard is a `maximum`, not a `where`:
    # XLA:CPU runs a logarithm element by element in a fusion that holds a compare
    # (4x slower: 2e7 entries in 64 ms instead of 18). The derivative takes the `where`.
    return 0.5 * rho * jnp.log(jnp.maximum(rho, jnp.finfo(rho.dtype).tiny))


@thin_plate_spline.defjvp
def _thin_plate_spline_jvp(primals, tangents):
    (rho,), (drho,) = primals, tangents
    slope = _where_positive(rho, lambda r: 0.5 * (jnp.log(r) + 1))
    return thin_plate_spline(rho), slope * drho


def cubic(rho):
    return rho * _root(rho)


def quintic(rho):
    return -(rho * rho) * _root(rho)


def multiquadric(rho):
    return -jnp.sqrt(rho + 1)


def inverse_multiquadric(rho):
    return 1 / jnp.sqrt(rho + 1)


def inverse_quadratic(rho):
    return 1 / (rho + 1)


def gaussian(rho):
    return jnp.exp(-rho)


KERNELS = {
    "linear": linear,
    "thin_plate_spline": thin_plate_spline,
    "cubic": cubic,
    "quintic": quintic,
    "multiquadric": multiquadric,
    "inverse_multiquadric": inverse_multiquadric,
    "inverse_quadratic": inverse_quadratic,
    "gaussian": gaussian,
}

# Kernels that ε only rescales (φ(ε r) = ε^p φ(r), up to a polynomial of the tail's
# degree): ε defaults to 1 for them; the others need it given.
SCALE_FREE = frozenset({"linear", "thin_plate_spline", "cubic", "quintic"})

# The least polynomial degree that makes the system solvable for distinct sites;
# -1 (no polynomial) for the positive definite kernels.
MIN_DEGREE = {
    "linear": 0,
    "thin_plate_spline": 1,
    "cubic": 1,
    "quintic": 2,
    "multiquadric": 0,
    "inverse_multiquadric": -1,
    "inverse_quadratic": -1,
    "gaussian": -1,
}


def squared_distances(x, y, epsilon):
    """ρ_ij = Σ_k (ε (x_ik − y_jk))², shape (len(x), len(y)).

    The difference before the scaling: ε x − ε y would round each product first
    (and XLA:CPU fuses it into a multiply-add), so a site's distance to itself
    would not be 0 at large ε, and sites far from the origin would lose the digits
    of their offset (float32 at 1000 ± 1: 5e-4 off with ε = 6).
    Summed over the coordinates one at a time: a reduction over a short last
    axis runs element by element on XLA:CPU, an unrolled sum is one fused,
    vectorised loop (8x faster for 2-D sites).
    """
    return sum((epsilon * (x[:, None, k] - y[None, :, k])) ** 2 for k in range(x.shape[1]))


def kernel_matrix(x, y, kernel: str, epsilon):
    """φ(ε ‖x_i − y_j‖) for every query i and site j."""
    return KERNELS[kernel](squared_distances(x, y, epsilon))
