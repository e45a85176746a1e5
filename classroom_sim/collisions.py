"""Collisions: broad phase, overlap test, tilted-axis 1D response,
half-overlap separation, and walls (SCENE_FORMAT.md, "Collisions").

These are the loops of a step, compiled by numba (see `compiled`; without the
GIL, so that the GUI thread keeps painting while the physics thread is inside
one). They work on the World's arrays: positions (m), velocities (m/s),
accelerations (m/s²), radii (m) and inverse masses (1/kg, zero for a fixed body).

- `plan`, `pairs_again`: a uniform grid finds the pairs that may touch; no
  loop over all pairs. They list pairs in grid order (neighbours next to each
  other), which is the order in which they are resolved.
- `fast_pairs`: the pairs that must be checked before the step ends, so that
  no pair can pass through each other between two checks.
- `move`: the integrator, with exact bounces off the walls.
- `resolve_pairs`: the pairs in their order, one by one, as SCENE_FORMAT.md says.
- `contain`: nothing ends a step outside the box.
"""

from __future__ import annotations

import math

import numpy as np

from . import integrators
from .compiled import jit as _jit

OVERLAP_TOLERANCE = 1e-12
"""Relative to the sum of radii: a gap smaller than this counts as touching, not overlapping."""

MAX_PASSES = 64
"""Passes over the pairs in one (sub)step; a chain of collisions running against the
pair order (Newton's cradle hit from the right) needs one per link."""

_kinematic = _jit(integrators.kinematic)
_semi_implicit_euler = _jit(integrators.semi_implicit_euler)
_euler = _jit(integrators.euler)

METHODS = {"kinematic": 0, "semi-implicit-euler": 1, "euler": 2}
"""The integrators' codes for `move`."""


# ---------------------------------------------------------------------------
# Broad phase
# ---------------------------------------------------------------------------

@_jit
def _grow(a, size):
    out = np.empty(max(size, 2 * len(a)), np.int64)
    out[: len(a)] = a
    return out


@_jit
def _cells(pos, small, cell):
    """Bin the ``small`` bodies into square cells of side at least ``cell``: each
    body's cell column and row, the grid's size, where each cell starts in the
    bodies' cell order, that order (then the other bodies, by number), each
    body's place in it (its rank), the side used and the grid's corner."""
    n = pos.shape[0]
    xmin, ymin, xmax, ymax = np.inf, np.inf, -np.inf, -np.inf
    for i in range(n):
        if small[i]:
            xmin = min(xmin, pos[i, 0])
            xmax = max(xmax, pos[i, 0])
            ymin = min(ymin, pos[i, 1])
            ymax = max(ymax, pos[i, 1])
    # Keep the number of cells in proportion to the bodies, however far apart they are.
    while ((xmax - xmin) / cell + 1.0) * ((ymax - ymin) / cell + 1.0) > 4.0 * n + 1024.0:
        cell *= 2.0
    per = 1.0 / cell  # (every place that finds a cell multiplies by this, alike)
    ncx = int((xmax - xmin) * per) + 1
    ncy = int((ymax - ymin) * per) + 1
    cx = np.zeros(n, np.int64)
    cy = np.zeros(n, np.int64)
    start = np.zeros(ncx * ncy + 1, np.int64)
    count = 0
    for i in range(n):
        if small[i]:
            cx[i] = min(int((pos[i, 0] - xmin) * per), ncx - 1)
            cy[i] = min(int((pos[i, 1] - ymin) * per), ncy - 1)
            start[cx[i] * ncy + cy[i] + 1] += 1
            count += 1
    for c in range(ncx * ncy):
        start[c + 1] += start[c]
    fill = start[:-1].copy()
    order = np.empty(n, np.int64)
    rank = np.empty(n, np.int64)
    for i in range(n):
        if small[i]:
            c = cx[i] * ncy + cy[i]
            order[fill[c]] = i
            rank[i] = fill[c]
            fill[c] += 1
        else:
            order[count] = i
            rank[i] = count
            count += 1
    return cx, cy, ncx, ncy, start, order, rank, cell, xmin, ymin


@_jit
def _every_grid_pair(pos, extent, skip, grid):
    """Every pair of two small bodies, from the grid, in grid order (see `plan`).

    Each pair is visited once: a body looks at the rest of its own cell and the
    cell above it (side by side in cell order), and at the three cells of the
    next column; positions are read in cell order. Every candidate is written
    and kept only if it is a pair (no branch to mispredict), as one number
    (both places in cell order), decoded afterwards.
    """
    cx, cy, ncx, ncy, start, order, _, cell, _, _ = grid
    held = start[-1]  # the bodies in the grid, first in its order
    xs = np.empty(held)
    ys = np.empty(held)
    es = np.empty(held)
    for s in range(held):
        i = order[s]
        xs[s], ys[s], es[s] = pos[i, 0], pos[i, 1], extent[i]
    # each cell's neighbours in cell order: up to ``up`` (its own rest and the cell
    # above), and ``b0``..``b1`` (three cells of the next column); and room for
    # every candidate (an upper bound on the pairs)
    cells = ncx * ncy
    up = np.empty(cells, np.int64)
    b0 = np.zeros(cells, np.int64)
    b1 = np.zeros(cells, np.int64)
    room = 0
    for gx in range(ncx):
        for gy in range(ncy):
            c = gx * ncy + gy
            up[c] = start[c + 2] if gy + 1 < ncy else start[c + 1]
            if gx + 1 < ncx:
                b0[c] = start[c + ncy - 1] if gy > 0 else start[c + ncy]
                b1[c] = start[min(c + ncy + 2, (gx + 2) * ncy)]
            room += (start[c + 1] - start[c]) * (up[c] - start[c] + b1[c] - b0[c])
    found = np.empty(room + 1, np.int64)
    m = 0
    for c in range(cells):
        for s in range(start[c], start[c + 1]):
            x, y, e = xs[s], ys[s], es[s]
            tag = s << 32
            for t in range(s + 1, up[c]):
                dx = xs[t] - x
                dy = ys[t] - y
                lim = e + es[t]
                found[m] = tag | t
                m += dx * dx + dy * dy < lim * lim
            for t in range(b0[c], b1[c]):
                dx = xs[t] - x
                dy = ys[t] - y
                lim = e + es[t]
                found[m] = tag | t
                m += dx * dx + dy * dy < lim * lim
    out_i = np.empty(m, np.int64)
    out_j = np.empty(m, np.int64)
    k = 0
    for p in range(m):  # (found in order: by the first place, then the second)
        i, j = order[found[p] >> 32], order[found[p] & 0xFFFFFFFF]
        out_i[k] = i
        out_j[k] = j
        k += not (skip[i] and skip[j])
    return out_i[:k], out_j[:k]


@_jit
def _emit(out_i, out_j, m, b, near, k):
    """Append the pairs of body ``b`` with ``near[:k]``, growing the arrays as
    needed. Returns them and the new count."""
    if m + k > len(out_i):
        out_i = _grow(out_i, m + k)
        out_j = _grow(out_j, m + k)
    for p in range(k):
        out_i[m + p] = b
        out_j[m + p] = near[p]
    return out_i, out_j, m + k


@_jit
def _in_order(pi, pj, order, rank):
    """The pairs (pi, pj), each turned to have its first body first in grid order,
    in grid order (see `plan`): for a few pairs among many bodies, a sort of one
    number a pair; else a counting sort on the first body's rank, then each
    one's few partners in order."""
    n = len(rank)
    lo = np.empty(len(pi), np.int64)
    hi = np.empty(len(pi), np.int64)
    for p in range(len(pi)):
        a, b = rank[pi[p]], rank[pj[p]]
        lo[p], hi[p] = min(a, b), max(a, b)
    if 16 * len(pi) < n:
        keys = np.sort(lo * n + hi)
        return order[keys // n], order[keys % n]
    first = np.zeros(n + 1, np.int64)
    for a in lo:
        first[a + 1] += 1
    for a in range(n):
        first[a + 1] += first[a]
    fill = first[:-1].copy()
    out_i = np.empty(len(pi), np.int64)
    out_j = np.empty(len(pi), np.int64)
    for p in range(len(pi)):
        q = fill[lo[p]]
        out_i[q] = lo[p]
        out_j[q] = hi[p]
        fill[lo[p]] += 1
    for a in range(n):
        for q in range(first[a] + 1, first[a + 1]):
            b = out_j[q]
            r = q
            while r > first[a] and out_j[r - 1] > b:
                out_j[r] = out_j[r - 1]
                r -= 1
            out_j[r] = b
    return order[out_i], order[out_j]


@_jit
def plan(pos, extent, skip):
    """Every pair with |x_i - x_j| < extent_i + extent_j, except pairs of two
    ``skip`` bodies, in grid order; each body's place in that order (its
    rank, for `merge_pairs`); and what `pairs_again` needs to find more pairs
    later: the grid, the bodies it does not hold, its largest extent.

    ``extent`` is a body's radius grown by how far it may travel, so these are
    the pairs that may touch. Bodies share a grid whose cells fit nine in ten
    of them with room to spare; the few larger ones look at the cells within
    their reach and at each other, as `pairs_again` does.

    Grid order: the bodies cell by cell (column by column, each from its bottom
    row up; in a cell by number), then those too large for the grid, by
    number. A pair (i, j) has i first in that order, and the pairs are sorted
    by the place of i, then of j. Neighbours are listed one after another, so
    a pass over the pairs finds its bodies close at hand in memory; and the
    grid's scan finds them in that order, so they need no sorting.
    """
    n = pos.shape[0]
    if n < 2:
        empty = np.empty(0, np.int64)
        grid = _cells(pos, np.zeros(n, np.bool_), 1.0)
        return empty, empty, grid[6], grid, np.ones(n, np.bool_), 0.0  # (grid[6]: the ranks)
    sample = np.sort(extent[:: max(1, n // 256)])
    cell = 3.0 * sample[(9 * len(sample)) // 10]
    small = extent <= 0.5 * cell
    grid = _cells(pos, small, cell)
    gi, gj = _every_grid_pair(pos, extent, skip, grid)
    biggest = 0.0
    for i in range(n):
        if small[i]:
            biggest = max(biggest, extent[i])
    loose = ~small
    rank = grid[6]  # each body's place in the grid's order (see _cells)
    if loose.any():
        li, lj = pairs_again(pos, extent, skip, grid, biggest, loose, loose)
        gi, gj = merge_pairs(gi, gj, li, lj, rank)
    return gi, gj, rank, grid, loose, biggest


@_jit
def _column(x, xmin, cell, ncx):
    """The grid column of x (or row of y, given ymin and ncy), clamped to the grid
    (a NaN goes to the first)."""
    c = (x - xmin) * (1.0 / cell)
    return int(min(c, ncx - 1.0)) if c > 0.0 else 0


@_jit
def where(mask):
    """np.flatnonzero(mask), without a branch to mispredict: the places of the true values."""
    count = 0
    for i in range(len(mask)):
        count += mask[i]
    out = np.empty(count + 1, np.int64)  # (the last place written may be one past them)
    count = 0
    for i in range(len(mask)):
        out[count] = i
        count += mask[i]
    return out[:count]


@_jit
def pairs_again(centre, extent, skip, grid, biggest, chosen, loose):
    """The pairs of the ``chosen`` bodies, whose discs (``centre``, ``extent``) were
    just drawn anew, in grid order (see `plan`). The grid of the plan holds
    every body but the ``loose`` ones, none larger than ``biggest``; the loose
    ones (too large for it, or drawn anew since) are checked one by one in the
    grid columns within reach."""
    n = centre.shape[0]
    cx, cy, ncx, ncy, start, order, rank, cell, xmin, ymin = grid
    out_i = np.empty(64, np.int64)
    out_j = np.empty(64, np.int64)
    near = np.empty(n, np.int64)
    # The loose bodies, binned by column of the same grid: each chosen body looks
    # only at the columns within its reach of them.
    others = where(loose)
    reach = 0.0
    for j in others:
        reach = max(reach, extent[j])
    columns = max(ncx, 1)  # (a grid without bodies has none)
    column = np.empty(len(others), np.int64)
    ostart = np.zeros(columns + 1, np.int64)
    for q in range(len(others)):
        column[q] = _column(centre[others[q], 0], xmin, cell, columns)
        ostart[column[q] + 1] += 1
    for c in range(columns):
        ostart[c + 1] += ostart[c]
    fill = ostart[:-1].copy()
    oorder = np.empty(len(others), np.int64)
    for q in range(len(others)):
        oorder[fill[column[q]]] = others[q]
        fill[column[q]] += 1
    m = 0
    for b in where(chosen):
        xb, yb, eb, sb = centre[b, 0], centre[b, 1], extent[b], skip[b]
        k = 0
        # the cells that the bodies within reach may be binned in: a body is binned by
        # its centre, at most ``biggest`` from the edge of its disc
        g = eb + biggest
        gy0, gy1 = _column(yb - g, ymin, cell, ncy), _column(yb + g, ymin, cell, ncy)
        for gx in range(_column(xb - g, xmin, cell, ncx), _column(xb + g, xmin, cell, ncx) + 1):
            for t in range(start[gx * ncy + gy0], start[gx * ncy + gy1 + 1]):
                j = order[t]
                if loose[j] or (sb and skip[j]):
                    continue
                dx = centre[j, 0] - xb
                dy = centre[j, 1] - yb
                lim = eb + extent[j]
                if dx * dx + dy * dy < lim * lim:
                    near[k] = j
                    k += 1
        for j in oorder[ostart[_column(xb - eb - reach, xmin, cell, columns)]:
                        ostart[_column(xb + eb + reach, xmin, cell, columns) + 1]]:
            if j == b or (chosen[j] and j < b) or (sb and skip[j]):
                continue
            dx = centre[j, 0] - xb
            dy = centre[j, 1] - yb
            lim = eb + extent[j]
            if dx * dx + dy * dy < lim * lim:
                near[k] = j
                k += 1
        out_i, out_j, m = _emit(out_i, out_j, m, b, near, k)
    return _in_order(out_i[:m], out_j[:m], order, rank)


@_jit
def candidate_pairs(pos, extent, skip):
    """The pairs of `plan`, alone."""
    pi, pj, _, _, _, _ = plan(pos, extent, skip)
    return pi, pj


@_jit
def merge_pairs(ai, aj, bi, bj, rank):
    """The union of two lists of pairs, each in the order of ``rank`` (sorted by
    the rank of i, then of j, as `plan` lists them) and without repeats, in that
    order and without repeats.

    Each pair of the shorter list finds its place in the longer one by bisection,
    and the longer list is copied in runs between those places: merging a few
    pairs into thousands costs a few copies, not a test a pair.
    """
    if len(bi) > len(ai):
        ai, aj, bi, bj = bi, bj, ai, aj
    out_i = np.empty(len(ai) + len(bi), np.int64)
    out_j = np.empty(len(ai) + len(bi), np.int64)
    p = m = 0
    for q in range(len(bi)):
        i, j = bi[q], bj[q]
        ri, rj = rank[i], rank[j]
        lo, hi = p, len(ai)
        while lo < hi:
            mid = (lo + hi) // 2
            if rank[ai[mid]] < ri or (ai[mid] == i and rank[aj[mid]] < rj):
                lo = mid + 1
            else:
                hi = mid
        out_i[m:m + lo - p] = ai[p:lo]
        out_j[m:m + lo - p] = aj[p:lo]
        m += lo - p
        p = lo
        if p < len(ai) and ai[p] == i and aj[p] == j:
            continue  # in both: written with the rest of the longer list
        out_i[m] = i
        out_j[m] = j
        m += 1
    out_i[m:m + len(ai) - p] = ai[p:]
    out_j[m:m + len(ai) - p] = aj[p:]
    m += len(ai) - p
    return out_i[:m], out_j[:m]


# ---------------------------------------------------------------------------
# Planning a step
# ---------------------------------------------------------------------------

@_jit
def fast_pairs(pos, vel, acc, radius, pi, pj, t_body, target, among, straight):
    """The pairs, with at least one body ``among`` the given ones, that must be
    checked before ``target``, and the time by which the first of them must be
    (``target`` when none).

    A pair is checked in time if it has moved on, relative to each other, by no
    more than the smaller of their radii since they touched: then neither can
    pass through the other. The end of the step is a check, so a pair that
    moves less than that in the time left, or touches late enough, is left
    whole. Two bodies under the same acceleration, both ``straight`` (no wall
    within reach), move in a straight line relative to each other from the
    later of their times on: when they first touch is known, and a pair that
    moves apart or passes by is left whole. Any other pair is checked in parts
    of the time left, each short enough for the smaller radius."""
    # the pairs of bodies ``among`` the given ones, listed first without a branch
    # (mispredicting one costs more than the test)
    ks = np.empty(len(pi), np.int64)
    m = 0
    for k in range(len(pi)):
        ks[m] = k
        m += among[pi[k]] | among[pj[k]]
    # then, of the usual case, those that may move, relative to each other, more
    # than the smaller radius, and that do not move apart at one instant (the
    # first tests below, the first without its square root)
    count = m
    m = 0
    for k in ks[:count]:
        i, j = pi[k], pj[k]
        span = target - min(t_body[i], t_body[j])
        dvx = vel[j, 0] - vel[i, 0]
        dvy = vel[j, 1] - vel[i, 1]
        rmin = min(radius[i], radius[j])
        apart = ((pos[j, 0] - pos[i, 0]) * dvx + (pos[j, 1] - pos[i, 1]) * dvy >= 0.0) & (t_body[i] == t_body[j])
        ks[m] = k
        m += (((dvx * dvx + dvy * dvy) * span * span > rmin * rmin) & ~(apart & straight[i] & straight[j])
              | (acc[j, 0] != acc[i, 0]) | (acc[j, 1] != acc[i, 1]))
    out_i = np.empty(16, np.int64)
    out_j = np.empty(16, np.int64)
    due = target
    count = m
    m = 0
    for k in ks[:count]:
        i, j = pi[k], pj[k]
        later = max(t_body[i], t_body[j])
        span = target - min(t_body[i], t_body[j])
        dvx = vel[j, 0] - vel[i, 0]
        dvy = vel[j, 1] - vel[i, 1]
        dax = acc[j, 0] - acc[i, 0]
        day = acc[j, 1] - acc[i, 1]
        rmin = min(radius[i], radius[j])
        if dax == 0.0 and day == 0.0:  # the usual case, both under the same gravity
            vv = dvx * dvx + dvy * dvy  # above (rmin / span)², as listed above
            if straight[i] and straight[j]:
                # They move in a straight line relative to each other from the later
                # of their times on: they first touch ``s`` after it (if ever), and
                # must be checked before they have gone on by the smaller radius; the
                # end of the step does if it comes first.
                ti = later - t_body[i]
                tj = later - t_body[j]
                dvx += acc[j, 0] * tj - acc[i, 0] * ti
                dvy += acc[j, 1] * tj - acc[i, 1] * ti
                vv = dvx * dvx + dvy * dvy
                if vv == 0.0:
                    continue
                dx = ((pos[j, 0] + (vel[j, 0] + 0.5 * acc[j, 0] * tj) * tj)
                      - (pos[i, 0] + (vel[i, 0] + 0.5 * acc[i, 0] * ti) * ti))
                dy = ((pos[j, 1] + (vel[j, 1] + 0.5 * acc[j, 1] * tj) * tj)
                      - (pos[i, 1] + (vel[i, 1] + 0.5 * acc[i, 1] * ti) * ti))
                # (exact for the kinematic integrator; the others stray from the
                # parabola by less than |a| span², counted in as a wider reach)
                reach = radius[i] + radius[j] + math.sqrt(acc[i, 0] * acc[i, 0] + acc[i, 1] * acc[i, 1]) * span * span
                b = dx * dvx + dy * dvy
                if b >= 0.0:
                    continue  # moving apart: they only get farther
                c = dx * dx + dy * dy - reach * reach
                s = 0.0  # touching already
                if c > 0.0:
                    root = b * b - vv * c
                    if root <= 0.0:
                        continue  # they pass each other by
                    s = c / (math.sqrt(root) - b)
                by = s + rmin / math.sqrt(vv)
                if by >= target - later:
                    continue
                due = min(due, later + max(by, 1e-9 * span))
            else:
                travel = math.sqrt(vv) * span
                due = min(due, later + (target - later) / math.ceil(min((target - later) / span * travel / rmin, 1e9)))
        else:
            travel = math.sqrt(dvx * dvx + dvy * dvy) * span + 0.5 * math.sqrt(dax * dax + day * day) * span * span
            if travel <= rmin:
                continue
            # the time left after the later of the two cut in parts (the earlier one,
            # not split before, catches up with it in one move)
            due = min(due, later + (target - later) / math.ceil(min((target - later) / span * travel / rmin, 1e9)))
        if m == len(out_i):
            out_i = _grow(out_i, m + 1)
            out_j = _grow(out_j, m + 1)
        out_i[m] = i
        out_j[m] = j
        m += 1
    return out_i[:m], out_j[:m], due


# ---------------------------------------------------------------------------
# Moving, and the walls
# ---------------------------------------------------------------------------

@_jit
def _integrate(method, x, v, a, t):
    if method == 0:
        return _kinematic(x, v, a, t)
    if method == 1:
        return _semi_implicit_euler(x, v, a, t)
    return _euler(x, v, a, t)


@_jit
def _off_wall(z0, w0, b, tau, e):
    """One axis, in the wall's frame (z >= 0 inside, the wall at z = 0), for a body
    that starts at z0 with velocity w0 and acceleration b and ends the step outside:
    where it is and how fast it moves at the end of the step, having bounced once."""
    z0 = max(z0, 0.0)
    den = math.sqrt(max(w0 * w0 - 2.0 * b * z0, 0.0)) - w0
    if z0 > 0.0 and den > 0.0:
        s = 2.0 * z0 / den  # the first root of z0 + w0 s + b s²/2 = 0, stable
    elif w0 < 0.0:
        s = 0.0
    elif b < 0.0:
        s = -2.0 * w0 / b
    else:
        s = tau
    s = min(max(s, 0.0), tau)
    wc = w0 + b * s
    if wc < 0.0:
        wc = -e * wc
    rest = tau - s
    z = wc * rest + 0.5 * b * rest * rest
    if z < 0.0:
        # It would meet the wall again within the step, and again: it comes to rest on it.
        return 0.0, 0.0
    return z, wc + b * rest


@_jit
def _bounce_axis(x0, v0, a, tau, x1, v1, lo, hi, e):
    if x1 < lo:
        z, w = _off_wall(x0 - lo, v0, a, tau, e)
        return lo + z, w
    if x1 > hi:
        z, w = _off_wall(hi - x0, -v0, -a, tau, e)
        return hi - z, -w
    return x1, v1


@_jit
def _box(bounds):
    """The walls (left, bottom, right, top), or none: read into locals once, since
    every store into the bodies' arrays could change them as far as the compiler knows."""
    if len(bounds) == 4:
        return bounds[0], bounds[1], bounds[2], bounds[3]
    return -np.inf, -np.inf, np.inf, np.inf


@_jit
def move(pos, vel, acc, idx, t_body, target, method, radius, movable, bounds, e_wall):
    """Advance the bodies ``idx`` from their own times ``t_body`` to ``target`` by one
    integrator step each, in place. A body whose step ends beyond a wall bounces
    off it exactly: each axis is its own one-dimensional problem, solved along
    x0 + v0 s + a s²/2. ``bounds`` is empty for a world without walls."""
    walls = len(bounds) == 4
    left, bottom, right, top = _box(bounds)
    for i in idx:
        tau = target - t_body[i]
        if tau <= 0.0:
            continue
        x0, y0 = pos[i, 0], pos[i, 1]
        vx0, vy0 = vel[i, 0], vel[i, 1]
        x1, vx1 = _integrate(method, x0, vx0, acc[i, 0], tau)
        y1, vy1 = _integrate(method, y0, vy0, acc[i, 1], tau)
        if walls and movable[i]:
            # (tested here first: a call for each axis of each body costs more than the rest of the step)
            r = radius[i]
            if not left + r <= x1 <= right - r:
                x1, vx1 = _bounce_axis(x0, vx0, acc[i, 0], tau, x1, vx1, left + r, right - r, e_wall)
            if not bottom + r <= y1 <= top - r:
                y1, vy1 = _bounce_axis(y0, vy0, acc[i, 1], tau, y1, vy1, bottom + r, top - r, e_wall)
        pos[i, 0], pos[i, 1] = x1, y1
        vel[i, 0], vel[i, 1] = vx1, vy1
        t_body[i] = target


@_jit
def contain(pos, vel, radius, movable, bounds, e_wall, idx):
    """Put the movable bodies among ``idx`` back inside the box, reflecting an outward
    normal velocity with ``e_wall``."""
    left, bottom, right, top = _box(bounds)
    for i in idx:
        r = radius[i]
        if not movable[i] or (left + r <= pos[i, 0] <= right - r and bottom + r <= pos[i, 1] <= top - r):
            continue
        for k in range(2):
            lo = bounds[k] + r
            hi = bounds[k + 2] - r
            if pos[i, k] < lo:
                pos[i, k] = lo
                if vel[i, k] < 0.0:
                    vel[i, k] = -e_wall * vel[i, k]
            elif pos[i, k] > hi:
                pos[i, k] = hi
                if vel[i, k] > 0.0:
                    vel[i, k] = -e_wall * vel[i, k]


# ---------------------------------------------------------------------------
# Pairs: the tilted-axis 1D response and half-overlap separation
# ---------------------------------------------------------------------------

@_jit
def resolve_pairs(pos, vel, inv_mass, radius, pi, pj, e, log_ij, log_vectors, logged):
    """Resolve the overlapping pairs among the candidates (pi, pj), one by one in
    their order, in place.

    A pair that overlaps and approaches gets the 1D collision formula with
    restitution ``e`` along the line of centres, its tangential parts kept;
    every overlapping pair is then pushed apart along that line, half the
    overlap each (a fixed body moves nothing, the other the whole overlap;
    coincident centres part along +x). A push can make a neighbour overlap
    while approaching (Newton's cradle): each later pass resolves those among
    the pairs of the bodies moved in the pass before, so a chain passes its
    velocity on within the step. Overlaps between bodies that do not approach
    each other and were made by a push wait for the next step.

    Each collision is written to ``log_ij`` (i, j) and ``log_vectors`` (normal,
    v_i and v_j before) from row ``logged`` on, while there is room. Returns
    whether any velocity changed, the number of collisions logged so far
    (counting those that found no room), and whether `MAX_PASSES` cut the
    passes short (overlaps were left for the next step).
    """
    n = pos.shape[0]
    moved = np.zeros(n, np.bool_)
    moving = np.zeros(n, np.bool_)
    collided = False
    capped = False
    count = logged
    ks = np.arange(len(pi))
    todo = len(pi)
    for p in range(MAX_PASSES):
        resolved = False
        if p > 0:
            # the pairs of bodies moved in the last pass, listed without a branch
            todo = 0
            for k in range(len(pi)):
                ks[todo] = k
                todo += moved[pi[k]] | moved[pj[k]]
        for k in ks[:todo]:
            i, j = pi[k], pj[k]
            dx = pos[j, 0] - pos[i, 0]
            dy = pos[j, 1] - pos[i, 1]
            r = radius[i] + radius[j]
            lim = r * (1.0 - OVERLAP_TOLERANCE)
            d2 = dx * dx + dy * dy
            if not d2 < lim * lim:
                continue
            dist = math.sqrt(d2)
            if dist > 0.0:
                nx, ny = dx / dist, dy / dist
            else:
                nx, ny = 1.0, 0.0
            ui = vel[i, 0] * nx + vel[i, 1] * ny
            uj = vel[j, 0] * nx + vel[j, 1] * ny
            if p > 0 and not ui > uj:
                continue
            wi, wj = inv_mass[i], inv_mass[j]
            if wi + wj == 0.0:
                continue  # two fixed bodies (a pair planned before one of them was fixed)
            if ui > uj:
                if count < len(log_ij):
                    log_ij[count, 0], log_ij[count, 1] = i, j
                    log_vectors[count, 0, 0], log_vectors[count, 0, 1] = nx, ny
                    log_vectors[count, 1, 0], log_vectors[count, 1, 1] = vel[i, 0], vel[i, 1]
                    log_vectors[count, 2, 0], log_vectors[count, 2, 1] = vel[j, 0], vel[j, 1]
                count += 1
                collided = True
                # u_i' = u_i - (1 + e) (u_i - u_j) m_j / (m_i + m_j), written with inverse masses
                impulse = (1.0 + e) * (ui - uj) / (wi + wj)
                vel[i, 0] -= impulse * wi * nx
                vel[i, 1] -= impulse * wi * ny
                vel[j, 0] += impulse * wj * nx
                vel[j, 1] += impulse * wj * ny
            share_i = 0.0 if wi == 0.0 else (1.0 if wj == 0.0 else 0.5)
            push = r - dist
            pos[i, 0] -= share_i * push * nx
            pos[i, 1] -= share_i * push * ny
            pos[j, 0] += (1.0 - share_i) * push * nx
            pos[j, 1] += (1.0 - share_i) * push * ny
            moving[i] = True
            moving[j] = True
            resolved = True
        if not resolved:
            break
        moved[:] = moving
        moving[:] = False
    else:
        capped = True  # every pass still resolved something: the rest waits for the next step
    return collided, count, capped
