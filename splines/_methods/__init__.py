"""The interpolation methods: the registry (`registry`) and one file per slope family.
Imports `_utils`, `_linalg` (cubic2's solve) and `_pieces` (each method's pieces rule).

- `cubic2`:            the C² spline's tridiagonal system (boundary conditions);
- `finite_difference`: "cubic", "cardinal", "catmull-rom" (neighbouring secants);
- `pchip`:             "monotonic", "monotonic-0" (shape-preserving);
- `akima`:             "akima", "makima";
- `local`:             what the local rules share (secants, periodic wrap, complex parts);
- `units`:             the unit of each knot's slope;
- `ends`:              end conditions as the rules see them.

Every rule returns the slopes ``(n, k)`` at the knots in units of a cell
width per knot, ``u_i = s_i g_i`` (``g_i = h_i``, the last knot ``h_{n-2}``;
`units`), from cell widths ``h (n-1,)`` — only their ratios enter, except
through cubic2's boundary derivative values, which are in h's unit — and
values ``(n, k)`` (the local rules also take the slice of knots to keep, see
`local`); `_pieces.polynomials.cubic_pieces` turns them into pieces.
"""
