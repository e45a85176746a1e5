"""The broad phase: which pairs of bodies may touch within a step.

Each body's motion until the end of the step is held in a disc: its centre,
and its radius grown to hold the way it may travel (its ``extent``:
`stepping._midway`). Two bodies may touch only if their discs overlap. A
uniform grid finds those pairs without a loop over all pairs.

- `plan`: every pair at the start of a step, in grid order (neighbours next
  to each other), which is the order in which contacts are resolved.
- `pairs_again`: the pairs of bodies whose discs were drawn anew.
- (`redrawn`, a module of its own: a body's new neighbours, found one body at
  a time during a step, on this grid.)
- `merge_pairs`, `where`: small helpers over pair lists and masks.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..compiled import jit as _jit, unsigned
from . import scratch


Grid = namedtuple("Grid", "cx cy ncx ncy start order rank cell xmin ymin")
"""The grid of a step (see `_cells`): each body's cell column and row, the grid's size in
cells, where each cell starts in the bodies' cell order, that order, each body's place in
it (its rank), the side of a cell (m) and the grid's corner (m)."""


@_jit
def _grow(a, size):
    out = np.empty(max(size, 2 * len(a)), np.int64)
    out[: len(a)] = a
    return out


@_jit
def _cells(pos, small, cell, block):
    """Bin the ``small`` bodies into square cells of side at least ``cell``: each
    body's cell column and row, the grid's size, where each cell starts in the
    bodies' cell order, that order (then the other bodies, by number), each
    body's place in it (its rank), the side used and the grid's corner. (Memory
    from ``block``: `scratch`.)"""
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
    cx = scratch.ints(block, n)
    cy = scratch.ints(block, n)
    cx[:] = 0
    cy[:] = 0
    start = scratch.ints(block, ncx * ncy + 1)
    start[:] = 0
    count = 0
    for i in range(n):
        if small[i]:
            cx[i] = min(int((pos[i, 0] - xmin) * per), ncx - 1)
            cy[i] = min(int((pos[i, 1] - ymin) * per), ncy - 1)
            start[unsigned(cx[i] * ncy + cy[i] + 1)] += 1
            count += 1
    for c in range(ncx * ncy):
        start[c + 1] += start[c]
    fill = scratch.ints(block, ncx * ncy)
    fill[:] = start[:-1]
    order = scratch.ints(block, n)
    rank = scratch.ints(block, n)
    for i in range(n):
        if small[i]:
            c = unsigned(cx[i] * ncy + cy[i])
            order[unsigned(fill[c])] = i
            rank[i] = fill[c]
            fill[c] += 1
        else:
            order[count] = i
            rank[i] = count
            count += 1
    return Grid(cx, cy, ncx, ncy, start, order, rank, cell, xmin, ymin)


@_jit
def _every_grid_pair(pos, extent, skip, grid, block):
    """Every pair of two small bodies, from the grid, in grid order (see `plan`).
    (Memory from ``block``: `scratch`.)

    Each pair is visited once: a body looks at the rest of its own cell and the
    cell above it (side by side in cell order), and at the three cells of the
    next column; positions are read in cell order. Every candidate is written
    and kept only if it is a pair (no branch to mispredict), as one number
    (both places in cell order), decoded afterwards.
    """
    cx, cy, ncx, ncy, start, order, _, cell, _, _ = grid
    held = start[-1]  # the bodies in the grid, first in its order
    xs = scratch.floats(block, held)
    ys = scratch.floats(block, held)
    es = scratch.floats(block, held)
    for s in range(held):
        i = unsigned(order[s])
        xs[s], ys[s], es[s] = pos[i, 0], pos[i, 1], extent[i]
    # each cell's neighbours in cell order: up to ``up`` (its own rest and the cell
    # above), and ``b0``..``b1`` (three cells of the next column); and room for
    # every candidate (an upper bound on the pairs)
    cells = ncx * ncy
    up = scratch.ints(block, cells)
    b0 = scratch.ints(block, cells)
    b1 = scratch.ints(block, cells)
    b0[:] = 0
    b1[:] = 0
    room = 0
    for gx in range(ncx):
        for gy in range(ncy):
            c = gx * ncy + gy
            up[c] = start[c + 2] if gy + 1 < ncy else start[c + 1]
            if gx + 1 < ncx:
                b0[c] = start[c + ncy - 1] if gy > 0 else start[c + ncy]
                b1[c] = start[min(c + ncy + 2, (gx + 2) * ncy)]
            room += (start[c + 1] - start[c]) * (up[c] - start[c] + b1[c] - b0[c])
    found = scratch.ints(block, room + 1).view(np.uint64)
    m = unsigned(0)  # (places unsigned throughout: `compiled.unsigned`)
    for c in range(cells):
        # a body's two ranges as one (one loop a body: the end of a loop is a branch
        # mispredicted, dearer than the tests of a few candidates): the first ``mine``
        # places from s + 1, then from b0 on
        u, a, z = unsigned(up[c]), unsigned(b0[c]), unsigned(b1[c])
        for s in range(unsigned(start[c]), unsigned(start[c + 1])):
            x, y, e = xs[s], ys[s], es[s]
            tag = s << unsigned(32)
            mine = u - s - unsigned(1)
            after, further = s + unsigned(1), a - mine
            for k in range(mine + z - a):
                t = k + (after if k < mine else further)
                dx = xs[t] - x
                dy = ys[t] - y
                lim = e + es[t]
                found[m] = tag | t
                m += unsigned(dx * dx + dy * dy < lim * lim)
    out_i = scratch.ints(block, m)
    out_j = scratch.ints(block, m)
    k = unsigned(0)
    low = unsigned(0xFFFFFFFF)
    for p in range(m):  # (found in order: by the first place, then the second)
        i, j = order[found[p] >> unsigned(32)], order[found[p] & low]
        out_i[k] = i
        out_j[k] = j
        k += unsigned(not (skip[unsigned(i)] and skip[unsigned(j)]))
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
def _nine_in_ten(extent, block):
    """The nine-in-ten mark of a sample of at most 64 of ``extent`` (evenly spaced): the
    k-th largest, k a tenth of the sample, kept in a list of the k largest so far (for
    so few, cheaper than sorting the sample: 0.06 against 0.57 µs). (Memory from ``block``:
    `scratch`.)"""
    n = len(extent)
    every = (n + 63) // 64
    size = (n + every - 1) // every
    k = size - (9 * size) // 10
    top = scratch.floats(block, k)  # the k largest so far, largest first
    top[:] = -np.inf
    for q in range(0, n, every):
        x = extent[q]
        if x > top[k - 1]:
            r = k - 1
            while r > 0 and top[r - 1] < x:
                top[r] = top[r - 1]
                r -= 1
            top[r] = x
    return top[k - 1]


@_jit
def plan(pos, extent, skip):
    """`plan_in`, in memory of its own."""
    return plan_in(pos, extent, skip, scratch.none())


@_jit
def plan_in(pos, extent, skip, block):
    """Every pair with |x_i - x_j| < extent_i + extent_j, except pairs of two
    ``skip`` bodies, in grid order; each body's place in that order (its
    rank, for `merge_pairs`); and what `pairs_again` needs to find more pairs
    later: the grid, the bodies it does not hold, its largest extent.

    ``extent`` is a body's radius grown to hold the way it may travel, so these
    are the pairs that may touch. Bodies share a grid whose cells fit nine in ten
    of them with room to spare; the few larger ones look at the cells within
    their reach and at each other, as `pairs_again` does.

    Grid order: the bodies cell by cell (column by column, each from its bottom
    row up; in a cell by number), then those too large for the grid, by
    number. A pair (i, j) has i first in that order, and the pairs are sorted
    by the place of i, then of j. Neighbours are listed one after another, so
    a pass over the pairs finds its bodies close at hand in memory; and the
    grid's scan finds them in that order, so they need no sorting.

    (Memory from ``block``: `scratch`.)
    """
    n = pos.shape[0]
    if n < 2:
        empty = np.empty(0, np.int64)
        grid = _cells(pos, np.zeros(n, np.bool_), 1.0, block)
        return empty, empty, grid.rank, grid, np.ones(n, np.bool_), 0.0
    cell = 3.0 * _nine_in_ten(extent, block)
    small = scratch.flags(block, n)
    loose = scratch.flags(block, n)
    biggest = 0.0
    for i in range(n):
        small[i] = extent[i] <= 0.5 * cell
        loose[i] = not small[i]
        if small[i]:
            biggest = max(biggest, extent[i])
    grid = _cells(pos, small, cell, block)
    gi, gj = _every_grid_pair(pos, extent, skip, grid, block)
    rank = grid.rank  # each body's place in the grid's order (see _cells)
    if loose.any():
        li, lj = pairs_again(pos, extent, skip, grid, biggest, loose, loose)
        gi, gj = merge_pairs(gi, gj, li, lj, rank)
    return gi, gj, rank, grid, loose, biggest


@_jit(inline=True)
def _column(x, xmin, cell, ncx):
    """The grid column of x (or row of y, given ymin and ncy), clamped to the grid
    (a NaN goes to the first)."""
    c = (x - xmin) * (1.0 / cell)
    return int(min(c, ncx - 1.0)) if c > 0.0 else 0


@_jit(inline=True)
def _near(centre, extent, xb, yb, eb, j):
    """Whether body ``j``'s disc overlaps the disc about (``xb``, ``yb``) of radius ``eb``
    (a body's own, read once for all it is tested against)."""
    dx = centre[j, 0] - xb
    dy = centre[j, 1] - yb
    lim = eb + extent[j]
    return dx * dx + dy * dy < lim * lim


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
                if not (loose[j] or (sb and skip[j])) and _near(centre, extent, xb, yb, eb, j):
                    near[k] = j
                    k += 1
        for j in oorder[ostart[_column(xb - eb - reach, xmin, cell, columns)]:
                        ostart[_column(xb + eb + reach, xmin, cell, columns) + 1]]:
            if not (j == b or (chosen[j] and j < b) or (sb and skip[j])) and _near(centre, extent, xb, yb, eb, j):
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

