"""The contact schedule: when two bodies, or a body and a wall, first touch within a
step (their time of impact), and the queue of those contacts in time order.

Every body moves along its integrator's path between contacts: over a time s
from its own clock, x + v s + c a s² (c = 1/2 for the kinematic integrator, 1
for semi-implicit Euler, 0 for Euler; `SQUARE`). Where two bodies touch is a
root of a polynomial in s: the square of the distance between their centres
less the square of the sum of their radii, of degree 2 when both feel the
same acceleration (the usual case: relative to each other they fly straight)
and 4 otherwise. Roots are found by the numerically stable formula for
degree 2 and, for degree 4, by cutting [0, span] where the derivatives
change sign and bisecting the one piece where the distance falls through
contact, to the last bit of a double. A wall is the same problem on one
axis, always of degree 2.

`Queue`: a binary heap of contacts by time. A contact is stamped with how many
contacts each of its bodies had when it was found; one whose body has had
another since is stale and is passed over when it comes up.
"""

from __future__ import annotations

import math
from collections import namedtuple

from ..compiled import jit as _jit, unsigned
from . import scratch

SQUARE = (0.5, 1.0, 0.0)
"""Each integrator's c in x + v s + c a s² (by the codes of `METHODS`)."""

METHODS = {"kinematic": 0, "semi-implicit-euler": 1, "euler": 2}
"""The integrators' codes."""

TOUCH = 1e-9
"""Relative to the sum of the radii: two bodies this close (or overlapping) touch now.
(A gap of a few units in the last place of a double is rounding, not a gap.)"""

APPROACH = 1e-9
"""m/s: two surfaces that close in on each other no faster than this do not collide
(below it a contact is a rounding error or a resting contact, never an impact)."""

NONE = -1.0
"""The time of a contact that does not happen within the span."""


# ---------------------------------------------------------------------------
# Roots
# ---------------------------------------------------------------------------

@_jit
def crossing(z0, w, q, span):
    """The first s in [0, span] at which z(s) = z0 + w s + q s² passes downward through
    zero (z'(s) = w + 2 q s < 0 there), or `NONE`. Roots by the numerically stable formula."""
    if q == 0.0:
        if w < 0.0:
            s = -z0 / w
            if 0.0 <= s <= span:
                return s
        return NONE
    disc = w * w - 4.0 * q * z0
    if disc < 0.0:
        return NONE
    big = -0.5 * (w + math.copysign(math.sqrt(disc), w))
    r1 = big / q
    r2 = z0 / big if big != 0.0 else r1
    lo, hi = min(r1, r2), max(r1, r2)
    if 0.0 <= lo <= span and w + 2.0 * q * lo < 0.0:
        return lo
    if 0.0 <= hi <= span and w + 2.0 * q * hi < 0.0:
        return hi
    return NONE


@_jit
def _poly(c, s):
    """c[0] + c[1] s + c[2] s² + ... (Horner; ``c`` a tuple)."""
    out = 0.0
    for k in range(len(c) - 1, -1, -1):
        out = out * s + c[k]
    return out


@_jit
def _bisect(c, lo, hi, flo):
    """The root of the polynomial ``c`` in [lo, hi], where it changes sign once (``flo``
    its value at lo): to the last bit, or where it is exactly zero."""
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if not lo < mid < hi:
            break
        f = _poly(c, mid)
        if f == 0.0:
            return mid
        if (f > 0.0) == (flo > 0.0):
            lo, flo = mid, f
        else:
            hi = mid
    return hi


@_jit
def _turns2(c, span):
    """The places in (0, span) where the quadratic ``c`` changes sign, in order: how many
    (at most 2), and they (`NONE` past them)."""
    a2, a1, a0 = c[2], c[1], c[0]
    if a2 == 0.0:
        if a1 != 0.0:
            s = -a0 / a1
            if 0.0 < s < span:
                return 1, s, NONE
        return 0, NONE, NONE
    disc = a1 * a1 - 4.0 * a2 * a0
    if disc <= 0.0:
        return 0, NONE, NONE
    big = -0.5 * (a1 + math.copysign(math.sqrt(disc), a1))
    r1 = big / a2
    r2 = a0 / big if big != 0.0 else r1
    lo, hi = min(r1, r2), max(r1, r2)
    if 0.0 < lo < span:
        if 0.0 < hi < span:
            return 2, lo, hi
        return 1, lo, NONE
    if 0.0 < hi < span:
        return 1, hi, NONE
    return 0, NONE, NONE


@_jit
def _turns3(c, span):
    """The places in (0, span) where the cubic ``c`` changes sign, in order: how many (at
    most 3), and they (`NONE` past them). It is monotone between the turns of its
    derivative."""
    count, t0, t1 = _turns2((1.0 * c[1], 2.0 * c[2], 3.0 * c[3]), span)
    found = 0
    out0, out1, out2 = NONE, NONE, NONE
    lo, flo = 0.0, _poly(c, 0.0)
    for m in range(count + 1):
        hi = (t0 if m == 0 else t1) if m < count else span
        fhi = _poly(c, hi)
        if (flo > 0.0 and fhi < 0.0) or (flo < 0.0 and fhi > 0.0):
            root = _bisect(c, lo, hi, flo)
            if found == 0:
                out0 = root
            elif found == 1:
                out1 = root
            else:
                out2 = root
            found += 1
        lo, flo = hi, fhi
    return found, out0, out1, out2


@_jit
def _falls(c, span):
    """The first s in [0, span] at which the quartic ``c`` falls from above zero to zero, or
    `NONE`: it is monotone between the turns of its derivative, so it is the first
    piece between them that starts above zero and ends at or below it."""
    count, t0, t1, t2 = _turns3((1.0 * c[1], 2.0 * c[2], 3.0 * c[3], 4.0 * c[4]), span)
    lo, flo = 0.0, _poly(c, 0.0)
    for m in range(count + 1):
        hi = (t0 if m == 0 else (t1 if m == 1 else t2)) if m < count else span
        fhi = _poly(c, hi)
        if flo > 0.0 and fhi <= 0.0:
            return hi if fhi == 0.0 else _bisect(c, lo, hi, flo)
        lo, flo = hi, fhi
    return NONE


@_jit
def contact(px, py, vx, vy, ax, ay, reach, span):
    """The first s in [0, span] at which two discs whose centres are p + v s + a s² apart
    come within ``reach`` (the sum of their radii) of each other while closing in, or
    `NONE`. Two discs that touch or overlap now (within `TOUCH`) and close in do so at 0;
    two that overlap and part meet again, if ever, only after they have been apart."""
    dist = math.sqrt(px * px + py * py)
    gap = dist - reach
    closing = px * vx + py * vy
    if gap <= TOUCH * reach and closing < 0.0:
        return 0.0
    if gap > TOUCH * reach + (math.sqrt(vx * vx + vy * vy) + math.sqrt(ax * ax + ay * ay) * span) * span:
        return NONE  # too far apart to close the gap within the span, however they move
    c0 = gap * (dist + reach)  # |p|² - reach², without cancelling
    if ax == 0.0 and ay == 0.0:
        if gap <= TOUCH * reach:
            return NONE  # touching or overlapping, and parting in a straight line
        return crossing(c0, 2.0 * closing, vx * vx + vy * vy, span)
    return _falls((c0, 2.0 * closing, vx * vx + vy * vy + 2.0 * (ax * px + ay * py), 2.0 * (ax * vx + ay * vy),
                   ax * ax + ay * ay), span)  # (a tuple: no memory to take)


# ---------------------------------------------------------------------------
# The queue
# ---------------------------------------------------------------------------

Queue = namedtuple("Queue", "time item size")
"""A binary heap of contacts: ``time`` (s, the key) and ``item`` (a row each: the body,
the other (a body, or -1 - w for the wall w), and the stamps (the bodies' contact
counts when it was found, packed in one number)), ``size[0]`` of them in use. (A row
holds what moves with a time, one place in memory rather than three: a step of the
heap reads its times and moves one row.)"""


@_jit
def queue(room, block):
    """An empty queue with room for ``room`` contacts, from ``block`` (`scratch`)."""
    size = scratch.ints(block, 1)
    size[0] = 0
    return Queue(scratch.floats(block, room), scratch.ints(block, 3 * room).reshape((room, 3)), size)


@_jit
def grown(q, need):
    """A copy of ``q`` with room for ``need`` more contacts (and then some)."""
    n = q.size[0]
    out = queue(2 * (n + need) + 16, scratch.none())
    out.time[:n] = q.time[:n]
    out.item[:n] = q.item[:n]
    out.size[0] = n
    return out


@_jit(inline=True)
def _put(q, k, t, body, other, stamps):
    q.time[k] = t
    q.item[k, 0], q.item[k, 1], q.item[k, 2] = body, other, stamps


@_jit(inline=True)
def _move(q, k, m):
    """Row ``m`` of the heap to place ``k``."""
    q.time[k] = q.time[m]
    q.item[k, 0], q.item[k, 1], q.item[k, 2] = q.item[m, 0], q.item[m, 1], q.item[m, 2]


@_jit(inline=True)
def push(q, t, body, other, stamps):
    """Add a contact. The caller makes room first (`grown`): a queue handed back from every
    push would cost compiled code a count of references on each of its arrays, each time."""
    n = q.size[0]
    k = unsigned(n)  # (places unsigned: `compiled.unsigned`)
    one = unsigned(1)
    while k > 0:
        up = (k - one) >> one
        if q.time[up] <= t:
            break
        _move(q, k, up)
        k = up
    _put(q, k, t, body, other, stamps)
    q.size[0] = n + 1


@_jit(inline=True)
def pop(q):
    """Take the earliest contact off the queue: (time, body, other, stamps)."""
    t, body, other, stamps = q.time[0], q.item[0, 0], q.item[0, 1], q.item[0, 2]
    n = q.size[0] - 1
    q.size[0] = n
    if n > 0:
        last = unsigned(n)  # (places unsigned: `compiled.unsigned`)
        one = unsigned(1)
        lt, lb, lo, ls = q.time[last], q.item[last, 0], q.item[last, 1], q.item[last, 2]
        k = unsigned(0)
        while True:
            child = k + k + one
            if child >= last:
                break
            # (no branch: it goes either way at random; child + 1 <= n, still in the heap as it was)
            child += unsigned((child + one < last) & (q.time[child + one] < q.time[child]))
            if q.time[child] >= lt:
                break
            _move(q, k, child)
            k = child
        _put(q, k, lt, lb, lo, ls)
    return t, body, other, stamps
