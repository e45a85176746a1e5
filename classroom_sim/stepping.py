"""How a World step is carried out: one compiled function, contact by contact.

1. Bodies at rest against a wall stay there: the wall holds up what presses
   them into it (`walls.settle_on_walls`).
2. Each body gets a disc that holds all of its motion until the end of the
   step: about the middle of its straight path, its radius grown by half that
   path and by what its acceleration may add (`_midway`); only bodies whose
   discs overlap may touch (`broad.plan`).
3. For each such pair, and each body whose disc reaches a wall, the time at
   which they first touch, if within the step (`schedule.contact`), goes
   into a queue in time order.
4. The earliest contact is taken: its bodies are moved to that instant (by one
   integrator step from where they were), resolved there (`contacts.collide`,
   `walls.hit_wall`), and their contacts with everything near them found anew
   (a collision may have sped a body out of its disc: its disc is drawn anew,
   and its new neighbours found, `redrawn.partners`). Stale contacts, found
   before one of their bodies changed course, are passed over.
5. When no contact is left within the step, every body is moved to its end: a
   body that touched nothing moves by exactly one integrator step.
6. What touches at the end is settled (`resting.settle`): resting contacts,
   overlaps that exist anyway, and the walls.
7. What stands still is noted, and an island of bodies that all have for long
   enough is put to rest (`still`): in the next steps it is fixed, until a body
   awake reaches it (its disc overlaps theirs as a step begins: the island wakes
   and the step is taken again from its start; so too where a collision within
   the step speeds a body towards it).

Compiled without the GIL, so that other threads run while the physics thread steps.

Reference counts: numba counts a reference to every array handed to a helper, and
again when the helper is done with it (an atomic operation each), and copies and
counts a structure that a loop may replace at every turn of the loop. In a loop that
runs per contact these cost more than the physics, so the contact loop (`_events`) is
handed `compiled.lent` views and never replaces a structure (`advance` grows them
between its calls), and every compiled function lends its arguments again as it begins
(inside a function, an argument is not known to be lent).
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np

from .collisions import broad, redrawn, scratch, still
from .collisions.contacts import collide, pair_resting_speed
from .collisions.resting import settle
from .collisions.supports import AFLOAT, supports, within
from .collisions.motion import move, path
from .collisions.schedule import APPROACH, NONE, TOUCH, contact, grown, pop, push, queue
from .collisions.walls import BOUNCED, contain, hit_wall, settle_on_walls, wall_contact
from .compiled import jit as _jit, lent, unsigned

EVENTS_PER_BODY = 256
"""A step resolves at most this many contacts of one body: a body that would need more (a
light ball squeezed between a heavy one and a corner) goes on to the step's end without
meeting anything more, and what it then overlaps is left to the settling there, rather
than hang the thread. Every other body goes on colliding as before."""

DISC_MARGIN = 1.5
"""As a step begins, a body's disc is grown by this many times what it needs to hold the
body's motion (`_midway`): a collision that speeds it up (half of them do) then mostly
leaves it inside its disc, and its new neighbours need not be looked for
(`redrawn.partners`). (With discs about the middle of the path, 2 measured the same as 1.5:
``python -m bench.ab`` 0.998, 0.994 and 0.992 at 100, 1,000 and 5,000 bodies.) Measured with
``python -m bench.box``, discs then about where the bodies were: at 1.5 against 1, about
the same ns per body-step at 1,000 bodies, 17% fewer at 5,000 and 30% fewer at 20,000 (the
pairs to try grow less than the searches shrink)."""

DISC_SLOP = 1e-9
"""Relative: a disc's radius is grown by this much, so that bodies that just touch share a pair."""

CUT_EVENTS = 1
"""A flag of `advance`'s report: a body needed more contacts than it may have in a step."""
CUT_PASSES = 2
"""A flag of `advance`'s report: overlaps of pressed bodies were left for later steps."""
WAKE = 4
"""A flag of `advance`'s report: a body awake reached one at rest (`collisions.still`), whose
island it woke: take the step again from its start (`step_call.step`)."""

Reach = namedtuple("Reach", "centre extent fixed loose first other found asleep rest")
"""Each body's disc (``centre``, ``extent``: it holds the body's motion until the end of
the step), whether it is ``fixed`` (or at rest), whether its disc was drawn anew off the
plan's grid (``loose``), its neighbours from the plan (``other[first[i]:first[i + 1]]``),
room for the neighbours found when a disc is drawn anew (``found``), and whether it is at
rest (``asleep``, by ``rest``: `collisions.still`)."""

Later = namedtuple("Later", "head next other first second count")
"""The pairs found during a step (a body's disc drawn anew met another's), each body's
as a list: ``head`` of each body, ``next`` and ``other`` of each entry (two entries a
pair, -1 ending a list); and the pairs themselves, once each (``first``, ``second``),
``count[0]`` of them."""


@_jit
def _later(n, room, block):
    """A `Later` for ``n`` bodies with room for ``room`` pairs, from ``block`` (`scratch`)."""
    out = Later(scratch.ints(block, n), scratch.ints(block, 2 * room), scratch.ints(block, 2 * room),
                scratch.ints(block, room), scratch.ints(block, room), scratch.ints(block, 1))
    out.head[:] = -1
    out.count[0] = 0
    return out


@_jit
def _more(later, need):
    """A copy of ``later`` with room for ``need`` more pairs (and then some)."""
    m = later.count[0]
    out = _later(len(later.head), 2 * (m + need) + 16, scratch.none())
    out.head[:] = later.head
    out.next[:2 * m] = later.next[:2 * m]
    out.other[:2 * m] = later.other[:2 * m]
    out.first[:m] = later.first[:m]
    out.second[:m] = later.second[:m]
    out.count[0] = m
    return out


@_jit(inline=True)
def _disc(b, i, t, rules):
    """The radius (m) of a disc about body ``i``'s position at ``t`` that holds its motion until
    the step's end, and the reach within which the settling there looks for what it may come
    to rest on (`supports.within`, by its summed acceleration: a wall may hold part of what
    moves it)."""
    span = rules.end - t
    step = rules.end - rules.start
    speed = math.sqrt(b.vel[i, 0] * b.vel[i, 0] + b.vel[i, 1] * b.vel[i, 1])
    pull = abs(b.acc[i, 0]) + abs(b.acc[i, 1])  # at least |a|, without a square root
    within = (abs(b.pull[i, 0]) + abs(b.pull[i, 1])) * step * step
    return b.radius[i] * (1.0 + DISC_SLOP) + speed * span + 0.5 * pull * span * span + within


@_jit(inline=True)
def _midway(b, i, t, rules):
    """A disc that holds body ``i``'s motion from ``t`` to the step's end, about the middle
    of its straight path (p + v s / 2): (x, y, radius). Smaller than `_disc` by half the
    way it travels, for a body that flies (|x(s) - p - v S / 2| <= |v| S / 2 + |c a| S²)."""
    half = 0.5 * (rules.end - t)
    speed = math.sqrt(b.vel[i, 0] * b.vel[i, 0] + b.vel[i, 1] * b.vel[i, 1])
    return (b.pos[i, 0] + b.vel[i, 0] * half, b.pos[i, 1] + b.vel[i, 1] * half,
            _disc(b, i, t, rules) - speed * half)


@_jit(inline=True)
def _clear_of_walls(centre, extent, i, bounds):
    return ((bounds[0] <= centre[i, 0] - extent[i]) & (centre[i, 0] + extent[i] <= bounds[2])
            & (bounds[1] <= centre[i, 1] - extent[i]) & (centre[i, 1] + extent[i] <= bounds[3]))


@_jit(inline=True)
def _too_far(px, py, vx, vy, ax, ay, reach, span):
    """Whether two discs ``reach`` apart at most to touch, their centres p + v s + a s² apart,
    cannot touch within ``span``, erring towards "may touch": without a square root, first
    by how far they may travel at most (|v| <= |vx| + |vy|); then, if they fly straight
    relative to each other (a = 0, the usual case), by their closest approach within the
    span."""
    # (Every test is worked out and combined without a branch: which way each goes is
    # random from pair to pair, and a branch guessed wrong costs more than the tests.)
    most = reach * (1.0 + 2.0 * TOUCH) + ((abs(vx) + abs(vy)) + (abs(ax) + abs(ay)) * span) * span
    far = px * px + py * py
    near = reach * (1.0 + 4.0 * TOUCH)
    c0 = far - near * near  # |p + v s|² - near² = c0 + 2 b s + a s²
    b = px * vx + py * vy
    a = vx * vx + vy * vy
    late = a * span <= -b  # still closing in at the span's end: apart then, or the closest
    apart = (b >= 0.0) | (late & (c0 + (2.0 * b + a * span) * span > 0.0)) | \
        ((a * span > -b) & (a * c0 > b * b))  # approach, within the span, is apart
    straight = (ax == 0.0) & (ay == 0.0)
    return (far > most * most) | (straight & (c0 > 0.0) & apart)


@_jit(inline=True)
def _relative(b, i, way, j, t, square):
    """Body j's path from ``t`` relative to body i's (``way``, its `motion.path`): (px, py,
    vx, vy, ax, ay), and the sum of their radii."""
    pix, piy, vix, viy, aix, aiy = way
    pjx, pjy, vjx, vjy, ajx, ajy = path(b, j, t, square)
    reach = b.radius[unsigned(i)] + b.radius[unsigned(j)]
    return pjx - pix, pjy - piy, vjx - vix, vjy - viy, ajx - aix, ajy - aiy, reach


@_jit(inline=True)
def _pair_time(b, i, j, t, rules, level, loaded):
    """When bodies i and j first touch after ``t`` within the step, closing in faster than
    a resting contact (`contacts.pair_resting_speed`), or `NONE`. Slower contacts, now
    or later in the step, are left to the settling at the step's end (`resting.settle`):
    resolved one contact at a time, a body resting in the notch between two others would
    bounce between them at one instant, ever more slowly, without end."""
    px, py, vx, vy, ax, ay, reach = _relative(b, i, path(b, i, t, rules.square), j, t, rules.square)
    span = rules.end - t
    if _too_far(px, py, vx, vy, ax, ay, reach, span):  # (most pairs: said before anything else)
        return NONE
    s = contact(px, py, vx, vy, ax, ay, reach, span)
    if s == NONE:
        return NONE
    dx = px + (vx + ax * s) * s
    dy = py + (vy + ay * s) * s
    closing = -(dx * (vx + 2.0 * ax * s) + dy * (vy + 2.0 * ay * s))
    dist = math.sqrt(dx * dx + dy * dy)
    if not closing > APPROACH * dist:
        return NONE
    held = (level[i] != AFLOAT) | (level[j] != AFLOAT)
    resting = pair_resting_speed(b, i, j, dx / dist, dy / dist, rules.end - rules.start, held, loaded[i] | loaded[j])
    if not closing > dist * resting:
        return NONE
    return t + s


@_jit(inline=True)
def _may_touch(b, i, way, j, t, square, span):
    """Whether bodies i (whose `motion.path` from ``t`` is ``way``) and j may touch within
    ``span`` of ``t``: the test `_pair_time` begins with, alone."""
    px, py, vx, vy, ax, ay, reach = _relative(b, i, way, j, t, square)
    return not _too_far(px, py, vx, vy, ax, ay, reach, span)


@_jit
def _may_meet(b, pi, pj, span, block):
    """The places in (pi, pj) of the pairs near enough to meet within ``span`` of the step's
    start (the test `_pair_time` begins with), in one pass without a branch: most pairs
    are not, and a branch taken at random costs more than the test. (Memory from
    ``block``: `scratch`.)"""
    b, block = lent(b), lent(block)
    out = scratch.ints(block, len(pi) + 1)
    m = 0
    for k in range(len(pi)):
        i, j = unsigned(pi[k]), unsigned(pj[k])  # (`compiled.unsigned`)
        px, py = b.pos[j, 0] - b.pos[i, 0], b.pos[j, 1] - b.pos[i, 1]
        vx, vy = b.vel[j, 0] - b.vel[i, 0], b.vel[j, 1] - b.vel[i, 1]
        ax, ay = b.acc[j, 0] - b.acc[i, 0], b.acc[j, 1] - b.acc[i, 1]  # (c a <= a: c <= 1)
        out[m] = k
        m += not _too_far(px, py, vx, vy, ax, ay, b.radius[i] + b.radius[j], span)
    return out[:m]


@_jit(inline=True)
def _stamps(stamp, i, j):
    return (stamp[i] << 32) | (stamp[j] if j >= 0 else 0)


@_jit(inline=True)
def _known(x, j, first, other, later):
    for k in range(first[x], first[x + 1]):
        if other[k] == j:
            return True
    k = later.head[x]
    while k >= 0:
        if later.other[k] == j:
            return True
        k = later.next[k]
    return False


@_jit(inline=True)
def _meet(later, x, found, count, first, other):
    """List the pairs of ``x`` with ``found[:count]`` that are not known yet (`later` has room)."""
    for m in range(count):
        j = found[m]
        if _known(x, j, first, other, later):
            continue
        p = later.count[0]
        later.first[p], later.second[p] = x, j
        for a, z, slot in ((x, j, 2 * p), (j, x, 2 * p + 1)):
            later.other[slot] = z
            later.next[slot] = later.head[a]
            later.head[a] = slot
        later.count[0] = p + 1


@_jit
def _events(b, rules, log, q, later, reach, grid, biggest, spare, level, loaded, stamp, hits, logged, flags):
    """Resolve the contacts of ``q`` in time order, and those they lead to, until none is
    left within the step: returns True, the log's count and the flags. Returns False
    first if ``q`` or ``later`` may not have room for what the next contact queues: grow
    them and call again. (The loop here never replaces a structure: compiled code copies
    one that a loop may replace at each turn, and counts references to its arrays each
    time; see `compiled.lent`.)

    ``stamp`` counts the changes of course of each body (a contact queued before one of
    its bodies changed course is stale), ``hits`` the contacts resolved of each body."""
    b, rules, log, q, later, reach, grid, spare = lent(b), lent(rules), lent(log), lent(q), lent(later), \
        lent(reach), lent(grid), lent(spare)
    level, loaded, stamp, hits = lent(level), lent(loaded), lent(stamp), lent(hits)
    n = len(stamp)
    walls = len(rules.bounds) == 4
    centre, extent, fixed, loose, first, other, found, asleep, rest = reach
    while q.size[0] > 0:
        if q.size[0] + 2 * n > len(q.time) or later.count[0] + 2 * n > len(later.first):
            return False, logged, flags  # (a contact queues at most n - 1 + 1 for each body)
        t, i, o, stamps = pop(q)
        if stamps >> 32 != stamp[i] or (o >= 0 and (stamps & 0xFFFFFFFF) != stamp[o]):
            continue  # one of them changed course since
        if hits[i] == EVENTS_PER_BODY or (o >= 0 and hits[o] == EVENTS_PER_BODY):
            flags |= CUT_EVENTS
            continue  # (it is not queued again: see EVENTS_PER_BODY)
        hits[i] += 1
        if o >= 0:
            hits[o] += 1
        if o >= 0:
            held = level[i] != AFLOAT or level[o] != AFLOAT
            was = logged
            changed, logged = collide(b, i, o, t, rules, log, logged, held, loaded[i] or loaded[o])
            impact = logged != was  # (a collision is logged; a resting contact met is not)
        else:
            hit = hit_wall(b, i, t, -1 - o, rules, loaded[i])
            changed, impact = hit != 0, hit == BOUNCED
        if not changed:
            continue
        for x in (i, o):
            if x < 0 or fixed[x]:
                continue  # a wall, or a fixed body: its course never changes
            stamp[x] += 1
            if impact and len(rest):
                rest[x, still.HIT] = 1.0  # (it does not stand still: `still.look`)
            if hits[x] == EVENTS_PER_BODY:
                flags |= CUT_EVENTS  # its contacts from here on are left to the settling
                continue
            # Keep the disc holding the body's motion: if it left it, draw it anew and find its neighbours.
            cx, cy, e = _midway(b, x, t, rules)
            dx = cx - centre[x, 0]
            dy = cy - centre[x, 1]
            if math.sqrt(dx * dx + dy * dy) + e > extent[x]:
                centre[x, 0], centre[x, 1] = cx, cy
                extent[x] = e
                loose[x] = True
                redrawn.loose_add(spare, centre, extent, grid, x)
                count = redrawn.partners(x, centre, extent, fixed, grid, biggest, loose, spare, found)
                for m in range(count):
                    if asleep[found[m]]:  # (sped out of its disc, it may reach a body at rest)
                        still.wake(rest, asleep, found[m], b.pos, rules.start)
                        flags |= WAKE
                if flags & WAKE:
                    return True, logged, flags
                _meet(later, x, found, count, first, other)
            # Queue its contacts with its neighbours and the walls. (Two bodies that just
            # collided part; moved by the same acceleration, they part in a straight line and
            # never meet again within the step: no need to ask.)
            # First the neighbours that may touch it at all (most may not), without a branch
            # (a branch that goes either way at random stalls the work of the next ones), in
            # ``found``; then their contacts.
            y = o if x == i else i
            parted = y >= 0 and b.acc[x, 0] == b.acc[y, 0] and b.acc[x, 1] == b.acc[y, 1]
            way = path(b, x, t, rules.square)
            span = rules.end - t
            m = 0
            for k in range(first[x], first[x + 1]):
                j = other[k]
                found[m] = j
                m += (not (parted and j == y)) & _may_touch(b, x, way, j, t, rules.square, span)
            k = later.head[x]
            while k >= 0:
                j = later.other[k]
                found[m] = j
                m += (not (parted and j == y)) & _may_touch(b, x, way, j, t, rules.square, span)
                k = later.next[k]
            for k in range(m):
                j = found[k]
                s = _pair_time(b, x, j, t, rules, level, loaded)
                if s != NONE:
                    push(q, s, x, j, _stamps(stamp, x, j))
            if walls and not _clear_of_walls(centre, extent, x, rules.bounds):  # (its disc holds its motion)
                tw, w = wall_contact(b, x, t, rules)
                if tw != NONE:
                    push(q, tw, x, -1 - w, _stamps(stamp, x, -1))
    return True, logged, flags


@_jit
def advance(b, rules, log, owners, block, rest, asleep, resting):
    """Advance every body of ``b`` (`motion.Bodies`, their clocks at ``rules.start``) to
    ``rules.end``, in place (``owners``: arrays that ``b`` holds `compiled.lent` views
    of, alive while this runs; ``block``: the memory to work in, `scratch`; ``rest``,
    ``asleep``: which bodies are at rest, ``resting`` of them, `collisions.still`, fixed
    in ``b``). Returns the number of collisions (each written to ``log`` while there is
    room) and the flags of the caps that cut the work short (`CUT_EVENTS`, `CUT_PASSES`),
    or `WAKE` as soon as a body awake reaches one at rest."""
    b, rules, log = lent(b), lent(rules), lent(log)  # (see `compiled.lent`: arguments, alive meanwhile)
    block, rest, asleep = lent(block), lent(rest), lent(asleep)
    n = b.pos.shape[0]
    t0, end = rules.start, rules.end
    walls = len(rules.bounds) == 4
    fixed = scratch.flags(block, n)
    centre = scratch.floats(block, 2 * n).reshape((n, 2))
    extent = scratch.floats(block, n)
    near = scratch.floats(block, n)  # how near each body comes to rest on something within the step (`supports.within`)
    near[:] = 0.0
    for i in range(n):  # (one pass over the bodies for what each needs alone)
        fixed[i] = b.inv_mass[i] == 0.0
        if walls and not fixed[i]:
            settle_on_walls(b, i, rules)
        centre[i, 0], centre[i, 1], e = _midway(b, i, t0, rules)
        extent[i] = b.radius[i] + (e - b.radius[i]) * DISC_MARGIN
        if end > t0:
            near[i] = within(b, i, end - t0)
    # the pairs that may touch, in grid order; loose: the bodies not in the grid as it is now
    pi, pj, _, grid, loose, biggest = broad.plan_in(centre, extent, fixed, block)
    if resting and still.reached(pi, pj, fixed, rest, asleep, b.pos, t0):
        return 0, WAKE
    level, loaded, touching = supports(b, pi, pj, rules, near, block)  # what rests on what, held up by it
    # each body's neighbours: those of the plan (first, other), and those found later (a list each)
    first = scratch.ints(block, n + 1)
    first[:] = 0
    for k in range(len(pi)):  # (places read from arrays unsigned: `compiled.unsigned`)
        first[unsigned(pi[k] + 1)] += 1
        first[unsigned(pj[k] + 1)] += 1
    for i in range(n):
        first[i + 1] += first[i]
    fill = scratch.ints(block, n)
    fill[:] = first[:-1]
    other = scratch.ints(block, 2 * len(pi))
    for k in range(len(pi)):
        i, j = unsigned(pi[k]), unsigned(pj[k])
        other[unsigned(fill[i])] = j
        fill[i] += 1
        other[unsigned(fill[j])] = i
        fill[j] += 1
    later = _later(n, 2 * n + 16, block)
    q = queue(len(pi) + 3 * n + 64, block)  # room for the contacts found as the step begins, and more
    for k in _may_meet(b, pi, pj, end - t0, block):
        s = _pair_time(b, pi[k], pj[k], t0, rules, lent(level), lent(loaded))
        if s != NONE:
            push(lent(q), s, pi[k], pj[k], 0)
    if walls:
        for i in range(n):
            if not fixed[i] and not _clear_of_walls(centre, extent, i, rules.bounds):
                tw, w = wall_contact(b, i, t0, rules)
                if tw != NONE:
                    push(lent(q), tw, i, -1 - w, 0)
    spare = redrawn.loose_start(centre, extent, grid, loose, block)
    reach = Reach(centre, extent, fixed, loose, first, other, scratch.ints(block, n), asleep, rest)
    stamp = scratch.ints(block, n)
    hits = scratch.ints(block, n)
    stamp[:] = 0
    hits[:] = 0
    logged, flags = 0, 0
    while True:
        done, logged, flags = _events(b, rules, log, lent(q), lent(later), lent(reach), lent(grid), biggest,
                                      lent(spare), lent(level), lent(loaded), lent(stamp), lent(hits),
                                      logged, flags)
        if flags & WAKE:
            return 0, WAKE
        if done:
            break
        q = grown(q, 2 * n)
        later = _more(later, 2 * n)
    for i in range(n):
        move(b, i, end, rules.method)
    extra = later.count[0]
    if extra:  # (never among the plan's: `_meet`; after them, in the order found)
        pi = np.concatenate((pi, later.first[:extra]))
        pj = np.concatenate((pj, later.second[:extra]))
    left_over = settle(b, pi, pj, rules, touching, near, block)
    if left_over:
        flags |= CUT_PASSES
    if walls:
        left, bottom, right, top = rules.bounds[0], rules.bounds[1], rules.bounds[2], rules.bounds[3]
        for i in range(n):
            r = b.radius[i]
            if not fixed[i] and not (left + r <= b.pos[i, 0] <= right - r and bottom + r <= b.pos[i, 1] <= top - r):
                contain(b, i, rules.bounds, rules.e_wall)
    if len(rest) and still.due(t0, end):
        _rest_after(b, rules, fixed, touching, near, rest, asleep, pi, pj, block)
    return logged, flags


@_jit
def _rest_after(b, rules, fixed, touching, near, rest, asleep, pi, pj, block):
    """What stands still after a step, and what goes to rest (`collisions.still`)."""
    b, rules, block = lent(b), lent(rules), lent(block)
    n = len(fixed)
    ready = scratch.flags(block, n)
    if still.look(b.pos, b.vel, b.radius, fixed, touching, near, rules.bounds, rest, asleep, rules.end, ready):
        span = rules.end - rules.start
        ahead = np.empty(n)  # each disc about where it is now, holding the one the next step will draw
        for i in range(n):
            ahead[i] = b.radius[i] + (_disc(b, i, rules.end - span, rules) - b.radius[i]) * DISC_MARGIN
        still.to_rest(b.pos, b.vel, fixed, rest, asleep, ready, pi, pj, ahead, block)
