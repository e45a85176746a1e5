"""Discs drawn anew during a step, on the grid of the step's plan (`broad`).

A body whose motion changed (a collision sped it up) gets a new disc; `partners` finds
the bodies whose discs overlap it, one body at a time, at a cost that does not grow with
the number of bodies. `Loose` lists the discs that are not where the plan's grid holds
them: `loose_start` as the step begins, `loose_add` as each is drawn anew.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..compiled import jit as _jit, unsigned
from . import scratch
from .broad import _column, _near

Loose = namedtuple("Loose", "head next cell big count reach")
"""The bodies whose discs are not where the grid of `plan` holds them (``loose``): those
drawn anew during the step, listed by the grid cell of their new centre (``head`` of
each cell, ``next`` of each body, -1 ending a list; ``cell``, where each body is listed,
-1 for none), and those too large for a cell (``big``, the first ``count[0]`` of it).
``reach[0]`` is the largest extent of those listed by cell."""


@_jit
def loose_start(centre, extent, grid, loose, block):
    """The `Loose` of a step whose plan left the ``loose`` bodies out of its grid (memory
    from ``block``: `scratch`)."""
    n = centre.shape[0]
    cells = max(grid.ncx * grid.ncy, 1)
    out = Loose(scratch.ints(block, cells), scratch.ints(block, n), scratch.ints(block, n),
                scratch.ints(block, n), scratch.ints(block, 1), scratch.floats(block, 1))
    out.head[:] = -1
    out.next[:] = -1
    out.cell[:] = -1
    out.count[0] = 0
    out.reach[0] = 0.0
    for b in range(n):
        if loose[b]:
            loose_add(out, centre, extent, grid, b)
    return out


@_jit
def _unlist(out, b):
    """Take ``b`` off the list it is on, if any."""
    c = out.cell[b]
    if c < 0:
        return
    if out.head[c] == b:
        out.head[c] = out.next[b]
    else:
        k = out.head[c]
        while out.next[k] != b:
            k = out.next[k]
        out.next[k] = out.next[b]
    out.cell[b] = -1
    out.next[b] = -1


@_jit(inline=True)
def loose_add(out, centre, extent, grid, b):
    """List ``b``, whose disc is (``centre[b]``, ``extent[b]``), as loose: by the cell of
    its centre, or among the big ones if its disc is larger than a cell."""
    _unlist(out, b)
    if extent[b] > grid.cell or grid.ncx * grid.ncy == 0:
        for k in range(out.count[0]):
            if out.big[k] == b:
                return
        out.big[out.count[0]] = b
        out.count[0] += 1
        return
    for k in range(out.count[0]):  # drawn anew smaller: off the big ones, listed once
        if out.big[k] == b:
            out.count[0] -= 1
            out.big[k] = out.big[out.count[0]]
            break
    c = (_column(centre[b, 0], grid.xmin, grid.cell, grid.ncx) * grid.ncy
         + _column(centre[b, 1], grid.ymin, grid.cell, grid.ncy))
    out.next[b] = out.head[c]
    out.head[c] = b
    out.cell[b] = c
    out.reach[0] = max(out.reach[0], extent[b])


@_jit(inline=True)
def partners(b, centre, extent, skip, grid, biggest, loose, out, found):
    """The bodies whose discs overlap the disc of ``b`` (``centre``, ``extent``), written to
    ``found`` (room for every body); returns how many. Those in the grid of `plan` (no
    larger than ``biggest``) are looked for in the cells within reach, unless ``loose``;
    the loose ones in `Loose` ``out``. Pairs of two ``skip`` bodies are left out."""
    if grid.ncx * grid.ncy == 0:
        return 0
    xb, yb, eb, sb = centre[b, 0], centre[b, 1], extent[b], skip[b]
    cx, cy, ncx, ncy, start, order, _, cell, xmin, ymin = grid
    g = eb + biggest
    gy0, gy1 = _column(yb - g, ymin, cell, ncy), _column(yb + g, ymin, cell, ncy)
    ub = unsigned(b)
    u = unsigned(0)  # (places unsigned in this scan: `compiled.unsigned`)
    for gx in range(_column(xb - g, xmin, cell, ncx), _column(xb + g, xmin, cell, ncx) + 1):
        for t in range(unsigned(start[gx * ncy + gy0]), unsigned(start[gx * ncy + gy1 + 1])):
            j = unsigned(order[t])
            found[u] = j  # (kept by counting it, without a branch: see `_every_grid_pair`)
            u += unsigned((j != ub) & (not loose[j]) & (not (sb & skip[j])) & _near(centre, extent, xb, yb, eb, j))
    k = np.int64(u)
    g = eb + out.reach[0]
    gy0, gy1 = _column(yb - g, ymin, cell, ncy), _column(yb + g, ymin, cell, ncy)
    for gx in range(_column(xb - g, xmin, cell, ncx), _column(xb + g, xmin, cell, ncx) + 1):
        for gy in range(gy0, gy1 + 1):
            j = out.head[gx * ncy + gy]
            while j >= 0:
                if j != b and not (sb and skip[j]) and _near(centre, extent, xb, yb, eb, j):
                    found[k] = j
                    k += 1
                j = out.next[j]
    for q in range(out.count[0]):
        j = out.big[q]
        if j != b and not (sb and skip[j]) and _near(centre, extent, xb, yb, eb, j):
            found[k] = j
            k += 1
    return k
