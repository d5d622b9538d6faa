"""scipy's spline classes on our pieces: `PPoly`, its roots, the power basis, B-spline
conversion, `CubicSpline` and friends.  Imports every layer below it."""
