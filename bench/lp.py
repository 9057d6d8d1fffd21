# SPDX-License-Identifier: GPL-2.0
"""A small dense two-phase simplex (Bland's rule), enough for the optimum
of the ipcc placement benchmark (tens of rows, hundreds of columns).

    maximize c.x  subject to  A x = b,  x >= 0

Pure Python: the host has no numpy or scipy.
"""

EPS = 1e-9


def _pivot(t, basis, r, col):
    row = t[r]
    p = row[col]
    inv = 1.0 / p
    row[:] = [v * inv for v in row]
    for i, other in enumerate(t):
        if i != r:
            f = other[col]
            if abs(f) > EPS:
                other[:] = [a - f * b for a, b in zip(other, row)]
    basis[r] = col


def _iterate(t, basis, ncols):
    """Maximize the objective in the last row of tableau t (stored as
    reduced costs: row holds c_j - z_j, the last entry -z)."""
    m = len(t) - 1
    for _ in range(100000):
        obj = t[m]
        col = next((j for j in range(ncols) if obj[j] > EPS), None)
        if col is None:
            return True
        best, r = None, None
        for i in range(m):
            a = t[i][col]
            if a > EPS:
                ratio = t[i][-1] / a
                if best is None or ratio < best - EPS or (
                        abs(ratio - best) <= EPS and basis[i] < basis[r]):
                    best, r = ratio, i
        if r is None:
            return False    # unbounded
        _pivot(t, basis, r, col)
    raise RuntimeError("simplex: no convergence")


def simplex_max(c, a_eq, b_eq):
    """Return (value, x) of max c.x s.t. a_eq x = b_eq, x >= 0, or None when
    infeasible or unbounded."""
    m, n = len(a_eq), len(c)
    rows = []
    for i in range(m):
        r, b = list(a_eq[i]), b_eq[i]
        if b < 0:
            r, b = [-v for v in r], -b
        rows.append(r + [1.0 if k == i else 0.0 for k in range(m)] + [b])
    basis = [n + i for i in range(m)]
    # Phase 1: maximize -sum(artificials); reduced costs = sum of rows.
    obj = [0.0] * (n + m + 1)
    for r in rows:
        for j in range(n):
            obj[j] += r[j]
        obj[-1] += r[-1]
    t = rows + [obj]
    _iterate(t, basis, n)
    if t[m][-1] > 1e-7:
        return None
    # Drive artificials out of the basis (degenerate rows) or drop the row.
    i = 0
    while i < len(basis):
        if basis[i] >= n:
            col = next((j for j in range(n) if abs(t[i][j]) > EPS), None)
            if col is None:
                del t[i]
                del basis[i]
                continue
            _pivot(t, basis, i, col)
        i += 1
    m = len(basis)
    t = [r[:n] + [r[-1]] for r in t[:m]]
    # Phase 2: reduced costs of c.
    obj = list(c) + [0.0]
    for i in range(m):
        cb = c[basis[i]]
        if cb:
            obj = [o - cb * v for o, v in zip(obj, t[i])]
    t.append(obj)
    if not _iterate(t, basis, n):
        return None
    x = [0.0] * n
    for i in range(m):
        x[basis[i]] = t[i][-1]
    return sum(ci * xi for ci, xi in zip(c, x)), x
