"""Drawing many discs in one call: antialiased circles rasterised into an ARGB image.

The canvas hands the grid, every trail and every body's screen position, radius
and colour over at once and gets back one image to draw with a single QPainter call, so that the cost of
a frame does not grow by one Python call per body (and the compiled loop runs
without the GIL, leaving it to the physics thread meanwhile).
"""

from __future__ import annotations

import math

import numpy as np

from classroom_sim import jit


def argb(color: str | None, alpha: int = 255) -> int:
    """``#rrggbb`` as a 32-bit ARGB integer (grey for None)."""
    if not color:
        color = "#808080"
    return (alpha << 24) | int(color[1:7], 16)


@jit
def _over(dst, color, cover):
    """``color`` (opaque ARGB) with coverage ``cover`` (0..1) over the premultiplied pixel ``dst``."""
    keep = 1.0 - cover
    out = 0
    for shift in (0, 8, 16):
        s = (color >> shift) & 255
        d = (dst >> shift) & 255
        out |= min(255, int(s * cover + d * keep + 0.5)) << shift
    a = (dst >> 24) & 255
    out |= min(255, int(255.0 * cover + a * keep + 0.5)) << 24
    return out


@jit
def _mix(a, b, t):
    """Opaque colour between ``a`` (t = 0) and ``b`` (t = 1)."""
    out = 255 << 24
    for shift in (0, 8, 16):
        ca = (a >> shift) & 255
        cb = (b >> shift) & 255
        out |= int(ca + (cb - ca) * t + 0.5) << shift
    return out


@jit
def paint_discs(image, xs, ys, rs, colors, outline, outline_px):
    """Paint discs into ``image`` ((H, W) uint32, premultiplied ARGB), in order.

    ``xs``, ``ys`` are the centres and ``rs`` the radii in pixels; ``colors`` opaque
    ARGB integers. With ``outline_px`` > 0, each disc gets a ring of the colour
    ``outline`` that wide at its edge. Discs smaller than a pixel are drawn a pixel
    wide, so that no body disappears when zoomed out.
    """
    h, w = image.shape
    for k in range(len(xs)):
        x, y = xs[k], ys[k]
        r = max(rs[k], 0.75)
        if not (math.isfinite(x) and math.isfinite(y) and math.isfinite(r)):
            continue
        x0 = max(int(math.floor(x - r - 1.0)), 0)
        x1 = min(int(math.ceil(x + r + 1.0)), w)
        y0 = max(int(math.floor(y - r - 1.0)), 0)
        y1 = min(int(math.ceil(y + r + 1.0)), h)
        ring = min(outline_px, 0.25 * r) if outline_px > 0.0 else 0.0  # small discs keep their colour
        inner = r - ring
        color = colors[k]
        for py in range(y0, y1):
            dy = py + 0.5 - y
            for px in range(x0, x1):
                dx = px + 0.5 - x
                d = math.sqrt(dx * dx + dy * dy)
                cover = min(max(r + 0.5 - d, 0.0), 1.0)
                if cover <= 0.0:
                    continue
                c = color
                if ring > 0.0:
                    c = _mix(outline, color, min(max(inner + 0.5 - d, 0.0), 1.0))
                image[py, px] = _over(image[py, px], c, cover)


@jit
def _band(image, minor0, slope, lo, hi, half, color, alpha, flip):
    """Blend a straight band ``half`` pixels either side of the line minor = minor0 +
    slope * (major + 0.5), for major in [lo, hi): each pixel by the length of its
    overlap with the band across (no square roots, flat ends)."""
    h, w = image.shape
    for m in range(lo, hi):
        centre = minor0 + slope * (m + 0.5)
        top, bottom = centre - half, centre + half
        for n in range(max(int(math.floor(top)), 0), min(int(math.floor(bottom)) + 1, w if flip else h)):
            cover = (min(n + 1.0, bottom) - max(float(n), top)) * alpha
            if cover > 0.0:
                if flip:
                    image[m, n] = _over(image[m, n], color, min(cover, 1.0))
                else:
                    image[n, m] = _over(image[n, m], color, min(cover, 1.0))


@jit
def paint_segments(image, x0, y0, x1, y1, colors, alphas, width):
    """Paint antialiased line segments ``width`` pixels wide into ``image``, segment k
    from (x0[k], y0[k]) to (x1[k], y1[k]) in the opaque ARGB colour ``colors[k]`` at
    opacity ``alphas[k]`` (0..1). Each pixel gets the part of it the line covers,
    measured across the line's main direction: cheap, and exact but for the ends."""
    h, w = image.shape
    for k in range(len(x0)):
        ax, ay, bx, by = x0[k], y0[k], x1[k], y1[k]
        if not (math.isfinite(ax) and math.isfinite(ay) and math.isfinite(bx) and math.isfinite(by)):
            continue
        dx, dy = bx - ax, by - ay
        length = math.sqrt(dx * dx + dy * dy)
        if length < 1e-9:
            continue
        flip = abs(dy) > abs(dx)  # walk down the rows (else along the columns)
        if flip:
            ax, ay, bx, by, dx, dy = ay, ax, by, bx, dy, dx
        if bx < ax:
            ax, ay, bx, by, dx, dy = bx, by, ax, ay, -dx, -dy
        slope = dy / dx
        lo, hi = max(int(math.floor(ax)), 0), min(int(math.ceil(bx)), h if flip else w)
        _band(image, ay - slope * ax, slope, lo, hi, 0.5 * width * length / dx, colors[k], alphas[k], flip)


def warm_up() -> None:
    """Compile (or load from numba's cache) the drawing loops, for the types the canvas hands
    over (`layer`), on an image of a few pixels."""
    xs = np.array([1.0, 3.0])
    layer(4, 4, argb("#ffffff"), [(xs, xs, xs[::-1], xs, [argb(None)] * 2, [1.0, 0.5], 1.0)],
          (xs, xs, xs, [argb(None)] * 2, argb("#000000"), 1.0))


def layer(width: int, height: int, background: int = 0, lines=(), discs=None) -> np.ndarray:
    """A (height, width) premultiplied ARGB image: ``background`` (0: transparent), then
    each batch of ``lines`` (x0, y0, x1, y1, colors, alphas, width) in turn, then the
    ``discs`` (xs, ys, rs, colors, outline, outline_px) on top."""
    image = np.full((height, width), background, np.uint32)
    for x0, y0, x1, y1, colors, alphas, line_width in lines:
        paint_segments(image, *(_plain(a, float) for a in (x0, y0, x1, y1)), _plain(colors, np.int64),
                       _plain(alphas, float), float(line_width))
    if discs is not None:
        xs, ys, rs, colors, outline, outline_px = discs
        paint_discs(image, _plain(xs, float), _plain(ys, float), _plain(rs, float), _plain(colors, np.int64),
                    outline, float(outline_px))
    return image


def _plain(a, dtype) -> np.ndarray:
    """``a`` as a contiguous, writable array of ``dtype`` (copied only if it is not one): the
    one kind of array the drawing loops are compiled for. (A read-only view, as a trail of two
    samples makes, is another type to numba, and was compiled anew at the first paint.)"""
    return np.require(a, dtype, ["C", "W"])
