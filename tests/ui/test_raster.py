"""The batched drawing: discs and line segments rasterised with antialiasing."""

import numpy as np
import pytest

from ui.raster import argb, layer


def channels(pixel):
    p = int(pixel)
    return (p >> 24) & 255, (p >> 16) & 255, (p >> 8) & 255, p & 255


def test_a_disc_covers_its_area_in_its_colour_and_nothing_else():
    image = layer(100, 80, discs=([30.0], [40.0], [10.0], [argb("#d62728")], 0, 0.0))
    assert channels(image[40, 30]) == (255, 0xD6, 0x27, 0x28)
    assert image[40, 45] == 0 and image[5, 5] == 0  # outside: untouched, transparent
    # its area, counting partly covered pixels by their alpha, is pi r^2
    alpha = (image >> 24 & 255).astype(float) / 255
    assert alpha.sum() == pytest.approx(np.pi * 100, rel=0.01)


def test_an_outline_ring_and_discs_smaller_than_a_pixel_still_show():
    image = layer(60, 60, discs=([30.0, 5.5], [30.0, 5.5], [10.0, 0.1], [argb("#ffffff")] * 2, argb("#000000"), 2.0))
    assert channels(image[30, 30])[1:] == (255, 255, 255)
    assert channels(image[30, 39])[1:] == (0, 0, 0)  # on the ring, 9 px out
    assert channels(image[5, 5])[0] > 0  # the tiny one is drawn


@pytest.mark.parametrize("x0, y0, x1, y1", [(10.0, 20.0, 90.0, 20.0), (20.0, 5.0, 20.0, 75.0), (10.0, 10.0, 70.0, 70.0)])
def test_a_line_is_as_wide_as_asked_along_its_length(x0, y0, x1, y1):
    width = 3.0
    lines = ([x0], [y0], [x1], [y1], [argb("#000000")], [1.0], width)
    image = layer(100, 80, lines=[lines])
    alpha = (image >> 24 & 255).astype(float) / 255
    length = np.hypot(x1 - x0, y1 - y0)
    assert alpha.sum() == pytest.approx(width * length, rel=0.03)
    mx, my = int((x0 + x1) / 2), int((y0 + y1) / 2)
    assert alpha[my, mx] == pytest.approx(1.0)
    assert alpha[0, 99] == 0.0


def test_a_faded_line_is_fainter():
    lines = ([10.0, 10.0], [10.0, 30.0], [90.0, 90.0], [10.0, 30.0], [argb("#000000")] * 2, [1.0, 0.25], 2.0)
    image = layer(100, 40, lines=[lines])
    assert (image[10, 50] >> 24 & 255) == 255
    assert (image[30, 50] >> 24 & 255) == pytest.approx(64, abs=2)


def test_lines_and_discs_go_over_the_background_in_order():
    background = argb("#fafaf7")
    grid = ([0.0], [10.5], [100.0], [10.5], [argb("#0000ff")], [1.0], 1.0)
    image = layer(100, 40, background, lines=[grid], discs=([50.0], [10.5], [5.0], [argb("#ff0000")], 0, 0.0))
    assert image[30, 10] == background
    assert channels(image[10, 10])[1:] == (0, 0, 255)  # the line
    assert channels(image[10, 50])[1:] == (255, 0, 0)  # the disc covers the line
