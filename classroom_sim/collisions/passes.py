"""Passes over resting contacts: projected Gauss-Seidel for their velocities (`_solve`).

Each contact's push (an impulse, never negative: contacts push, never pull) is changed
until its two bodies no longer close in along the contact's normal, contact after
contact, pass after pass. In the level solve of `velocities` the lower body of a contact
stands firm (`_weights`); a body that its summed acceleration presses into two or more
bodies standing firm has those contacts solved together, exactly, in each pass (`_block`),
within `BLOCK_REACH`. A body standing firm that comes towards the other across a gap
pushes it only by what its approach exceeds the speed that closes the gap within a step
(`_firm_approach`). `velocities` says why each of these is so.
"""

from __future__ import annotations

import numpy as np

from ..compiled import jit as _jit, lent
from .schedule import APPROACH
from .supports import GROUND, _held_sideways

BLOCK_REACH = 3.0
"""The most that solving a body's contacts with what stands firm together (`_block`) may change
its velocity, in steps' worth of its summed acceleration (measured as the sum of its two
components' sizes; a ball resting in a notch needs one).
Solved exactly, bodies standing firm that close in on each other across a body, or one firm
body pressing it into a wall, ask any speed of it: a ball between two side neighbours closing
in at 4 cm/s was squeezed out upwards at 6 m/s, and a column standing on a ball that rose at
0.8 m/s was pressed into the ceiling ever harder, pass after pass (a pile boiled at 46,000
collisions a second). Beyond this reach the contacts are left to the passes, one at a time,
as the others."""

@_jit(inline=True)
def _weights(b, first, second, nx, ny, k, level, side, unfirm):
    """The inverse masses with which contact ``k`` moves its two bodies in `_solve`: 0 for
    a wall, a fixed body, or a body that stands firm (see there)."""
    i, j = first[k], second[k]
    wi = b.inv_mass[i] if i >= 0 else 0.0
    wj = b.inv_mass[j]
    if len(level) and not (i >= 0 and unfirm[k]):
        li = level[i] if i >= 0 else GROUND
        if li < level[j]:
            wi = 0.0
        elif level[j] < li:
            wj = 0.0
        elif i >= 0:
            into_i = b.pull[j, 0] * nx[k] + b.pull[j, 1] * ny[k] < 0.0
            into_j = b.pull[i, 0] * nx[k] + b.pull[i, 1] * ny[k] > 0.0
            if into_i and not into_j and _held_sideways(level, side, i):
                wi = 0.0
            elif into_j and not into_i and _held_sideways(level, side, j):
                wj = 0.0
    return wi, wj


@_jit(inline=True)
def _firm_approach(approach, slack):
    """How fast a body standing firm comes towards the other body of a contact, as the contact
    counts it (m/s): its ``approach`` less the ``slack`` of the contact (the speed that closes
    the contact's gap within one step), never below zero; a body that draws away counts in
    full. (Counted in full, a body below that still moved a little as the step ended
    pushed the one above it away across a gap it would not have crossed in the step, and a
    ball wedged between it and a wall was driven up the wall at twice its speed: piles
    that stood still on screen reported 1-3 cm/s for ever.)"""
    if approach <= 0.0:
        return approach
    return max(approach - slack, 0.0)


@_jit
def _held_by(b, first, second, nx, ny, ks, level, side, unfirm):
    """The bodies that their summed acceleration presses into two or more bodies that stand
    firm, along contacts of ``ks`` (a ball in the notch between two below it): for each
    such body, its contacts' places in ``ks`` (``places[start[x]:start[x + 1]]`` for the
    x-th body, ``bodies[x]``), and for each place, which of them it belongs to (-1: none)."""
    b, first, second, nx, ny, ks = lent(b), lent(first), lent(second), lent(nx), lent(ny), lent(ks)
    level, side, unfirm = lent(level), lent(side), lent(unfirm)  # (arguments: see `compiled.lent`)
    n = b.pos.shape[0]
    free = np.full(len(ks), -1, np.int64)
    count = np.zeros(n, np.int64)
    for q in range(len(ks)):
        k = ks[q]
        wi, wj = _weights(b, first, second, nx, ny, k, level, side, unfirm)
        i, j = first[k], second[k]
        # (held up: pressed into what stands firm by its own summed acceleration)
        if wi == 0.0 and wj > 0.0 and b.pull[j, 0] * nx[k] + b.pull[j, 1] * ny[k] < 0.0:
            free[q] = j
        elif wj == 0.0 and wi > 0.0 and b.pull[i, 0] * nx[k] + b.pull[i, 1] * ny[k] > 0.0:
            free[q] = i
        if free[q] >= 0:
            count[free[q]] += 1
    which = np.full(n, -1, np.int64)
    m = 0
    for q in range(len(ks)):
        x = free[q]
        if x >= 0 and count[x] >= 2 and which[x] < 0:
            which[x] = m
            m += 1
    bodies = np.empty(m, np.int64)
    start = np.zeros(m + 1, np.int64)
    block = np.full(len(ks), -1, np.int64)
    for q in range(len(ks)):
        x = free[q]
        if x >= 0 and which[x] >= 0:
            block[q] = which[x]
            bodies[which[x]] = x
            start[which[x] + 1] += 1
    for x in range(m):
        start[x + 1] += start[x]
    fill = start[:-1].copy()
    places = np.empty(start[m], np.int64)
    for q in range(len(ks)):
        if block[q] >= 0:
            places[fill[block[q]]] = q
            fill[block[q]] += 1
    return bodies, start, places, block


@_jit(inline=True)
def _holds(dx, dy, c, m, vx, vy):
    """Whether velocity (vx, vy) closes in on none of the ``m`` firm bodies (v.d >= c)."""
    for a in range(m):
        if vx * dx[a] + vy * dy[a] < c[a] - APPROACH:
            return False
    return True


@_jit
def _block(b, f, qs, ks, first, second, nx, ny, slack, push, dx, dy, c, lam, reach):
    """The contacts ``ks[qs]`` of body ``f`` with bodies that stand firm, solved together and
    exactly: the velocity nearest the one the other contacts leave it (given their pushes),
    with which it closes in on none of them (each coming towards it as `_firm_approach`
    counts), each pushing it and none pulling (the least change: at most two of them push
    in a plane). Returns the largest change of a push (as a speed), or -1 if no such
    velocity was found, or only one farther than ``reach`` (m/s) from the velocity the
    other contacts leave it (`BLOCK_REACH`); then nothing is changed."""
    b, qs, ks, first, second, nx, ny, push = lent(b), lent(qs), lent(ks), lent(first), lent(second), lent(nx), \
        lent(ny), lent(push)
    dx, dy, c, lam = lent(dx), lent(dy), lent(c), lent(lam)  # (arguments: see `compiled.lent`)
    w = b.inv_mass[f]
    m = len(qs)
    vx, vy = b.vel[f, 0], b.vel[f, 1]
    for a in range(m):
        k = ks[qs[a]]
        i, j = first[k], second[k]
        s = 1.0 if j == f else -1.0  # (pushed along n if it is the second body, against it if the first)
        dx[a], dy[a] = s * nx[k], s * ny[k]
        o = j if i == f else i
        c[a] = 0.0
        if o >= 0:
            c[a] = _firm_approach(b.vel[o, 0] * dx[a] + b.vel[o, 1] * dy[a], slack[k])
        vx -= push[k] * w * dx[a]
        vy -= push[k] * w * dy[a]
        lam[a] = 0.0
    found = _holds(dx, dy, c, m, vx, vy)
    ux, uy = vx, vy
    a = 0
    while not found and a < m:
        r = c[a] - (vx * dx[a] + vy * dy[a])
        if r > 0.0:
            ux, uy = vx + r * dx[a], vy + r * dy[a]
            if _holds(dx, dy, c, m, ux, uy):
                lam[a] = r
                found = True
        a += 1
    a = 0
    while not found and a < m:
        for e in range(a + 1, m):
            g = dx[a] * dx[e] + dy[a] * dy[e]
            det = 1.0 - g * g
            if det < 1e-12:
                continue  # (two contacts along one line: one of them alone, above)
            ra = c[a] - (vx * dx[a] + vy * dy[a])
            re = c[e] - (vx * dx[e] + vy * dy[e])
            la = (ra - g * re) / det
            le = (re - g * ra) / det
            if la < 0.0 or le < 0.0:
                continue
            ux, uy = vx + la * dx[a] + le * dx[e], vy + la * dy[a] + le * dy[e]
            if _holds(dx, dy, c, m, ux, uy):
                lam[a], lam[e] = la, le
                found = True
                break
        a += 1
    if not found or (ux - vx) * (ux - vx) + (uy - vy) * (uy - vy) > reach * reach:
        return -1.0
    most = 0.0
    for a in range(m):
        k = ks[qs[a]]
        most = max(most, abs(lam[a] - push[k] * w))
        push[k] = lam[a] / w
    b.vel[f, 0], b.vel[f, 1] = ux, uy
    return most


@_jit(inline=True)
def _one(b, first, second, nx, ny, slack, push, k, level, side, unfirm):
    """One contact's step of `_solve`: its push changed so that its bodies no longer close
    in (or it is zero and they part), a body standing firm coming towards the other as
    `_firm_approach` counts it. Returns the change, as a speed."""
    i, j = first[k], second[k]
    wi, wj = _weights(b, first, second, nx, ny, k, level, side, unfirm)
    if wi + wj == 0.0:
        return 0.0
    vj = b.vel[j, 0] * nx[k] + b.vel[j, 1] * ny[k]
    vi = b.vel[i, 0] * nx[k] + b.vel[i, 1] * ny[k] if i >= 0 else 0.0
    if wi == 0.0:
        vi = _firm_approach(vi, slack[k])
    elif wj == 0.0:
        vj = -_firm_approach(-vj, slack[k])
    leaving = vj - vi
    change = max(push[k] - leaving / (wi + wj), 0.0) - push[k]
    if change == 0.0:
        return 0.0
    push[k] += change
    if i >= 0:
        b.vel[i, 0] -= change * wi * nx[k]
        b.vel[i, 1] -= change * wi * ny[k]
    b.vel[j, 0] += change * wj * nx[k]
    b.vel[j, 1] += change * wj * ny[k]
    return abs(change) * (wi + wj)


@_jit
def _solve(b, first, second, nx, ny, slack, push, ks, level, side, passes, unfirm, span):
    """Projected Gauss-Seidel over the resting contacts ``ks`` (``slack``: the speed that closes
    each contact's gap within one step, see `_firm_approach`): each contact's accumulated
    push (``push``, an impulse, never negative: contacts push, never pull) is changed
    until the two bodies no longer close in along n, or the push is zero and they part. With ``level``, the lower
    body of a contact between levels stands firm, and between two of one level, the one
    that only the other is pressed into, if something holds it sideways (``side``:
    `_sideways`), unless the contact is marked in ``unfirm``; and the contacts of a body
    pressed into two or more bodies that stand firm are solved together, exactly (`_block`,
    met at the first of them): a ball in the notch between two nearly level with it, pushed
    by one contact and then the other, would need hundreds of passes. Returns the largest
    change of a velocity in the last pass (settled when it is `APPROACH` or less)."""
    b, first, second, nx, ny, push, ks = lent(b), lent(first), lent(second), lent(nx), lent(ny), lent(push), lent(ks)
    level, side, unfirm = lent(level), lent(side), lent(unfirm)  # (arguments: see `compiled.lent`)
    if len(level):
        held, start, places, block = _held_by(b, first, second, nx, ny, ks, level, side, unfirm)
    else:
        held, start, places, block = (np.empty(0, np.int64), np.zeros(1, np.int64), np.empty(0, np.int64),
                                      np.full(len(ks), -1, np.int64))
    size = 0
    for x in range(len(held)):
        size = max(size, start[x + 1] - start[x])
    dx, dy, c, lam = np.empty(size), np.empty(size), np.empty(size), np.empty(size)
    most = np.inf  # (no pass: nothing settled)
    for _ in range(passes):
        most = 0.0
        for q in range(len(ks)):
            x = block[q]
            if x < 0:
                most = max(most, _one(b, first, second, nx, ny, slack, push, ks[q], level, side, unfirm))
                continue
            qs = places[start[x]:start[x + 1]]
            if qs[0] != q:
                continue  # (solved with the first)
            f = held[x]
            reach = BLOCK_REACH * (abs(b.pull[f, 0]) + abs(b.pull[f, 1])) * span
            change = _block(b, f, lent(qs), ks, first, second, nx, ny, slack, push, lent(dx), lent(dy), lent(c),
                            lent(lam), reach)
            if change >= 0.0:
                most = max(most, change)
                continue
            for p in qs:  # (none found: each alone, as the others)
                most = max(most, _one(b, first, second, nx, ny, slack, push, ks[p], level, side, unfirm))
        if most <= APPROACH:
            break
    return most
