"""Where two backends' frames differ: a per-pixel error heat map over a rollout, the
observation region that differs most, and the p5 calls that drew there.

The validator (:mod:`jsgym.validate`) accumulates every compared frame pair into a
:class:`HeatMap`; its report shows the map, the region that differs most over all frames
with the calls of the frame where that region differs most (:meth:`HeatMap.peak_frame`)
whose canvas box meets it, and the region where the worst frame differs most
(:func:`frame_region`) with that frame's calls drawn there. Call boxes come from the L2 call log
(``jsgym/web/capture.js``: every p5 call with its evaluated arguments, transforms included),
replayed here through p5's modes and a transform stack: they are the boxes of the
shapes' geometry (text boxes from the logged size and an average glyph width), which is
enough to name the shape, not to rasterize it.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

#: Side, in observation pixels, of the square region the report names (searched on a
#: grid of half its side).
REGION = 8


def _region_origins(h: int, w: int, side: int):
    """``(side, ys, xs)``: the side searched and the top-left corners of the regions (a
    grid of half the side, plus the last row and column)."""
    side = max(1, min(side, h, w))
    step = max(1, side // 2)
    ys = np.array(list(range(0, h - side + 1, step)) + [h - side])
    xs = np.array(list(range(0, w - side + 1, step)) + [w - side])
    return side, ys, xs


def _region_sums(m: np.ndarray, side: int):
    """``(side, ys, xs, sums)``: :func:`_region_origins` and the sum of ``m`` over each
    region, ``sums[i, j]`` for the region at ``(xs[j], ys[i])``."""
    side, ys, xs = _region_origins(*m.shape, side)
    c = np.pad(m, ((1, 0), (1, 0))).cumsum(0).cumsum(1)
    y, x = ys[:, None], xs[None, :]
    return side, ys, xs, c[y + side, x + side] - c[y, x + side] - c[y + side, x] + c[y, x]


def _best(m: np.ndarray, side: int) -> tuple[int, int, int, int]:
    side, ys, xs, s = _region_sums(m, side)
    i, j = np.unravel_index(int(np.argmax(s)), s.shape)  # the first of equal sums
    return int(xs[j]), int(ys[i]), int(xs[j]) + side, int(ys[i]) + side


def _diff(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return ((a.astype(np.float32) - b.astype(np.float32)) ** 2).mean(axis=2)


def frame_region(a: np.ndarray, b: np.ndarray, side: int = REGION) -> tuple[int, int, int, int]:
    """``(x0, y0, x1, y1)`` of the region where one frame pair differs most."""
    return _best(_diff(a, b), side)


class HeatMap:
    """Sum of squared differences per observation pixel (mean over RGB) and the
    number of frame pairs added; for each searched ``side`` x ``side`` region, the
    frame (its tag) in which that region differed most."""

    def __init__(self, side: int = REGION):
        self.side = side
        self.sum: np.ndarray | None = None
        self.frames = 0
        self.tags: list = []
        self._peak: np.ndarray | None = None
        self._peak_at: np.ndarray | None = None

    def add(self, a: np.ndarray, b: np.ndarray, tag=None) -> None:
        """Adds a frame pair; ``tag`` (e.g. its episode and step) names it in
        :meth:`peak_frame`."""
        d = _diff(a, b)
        self.sum = d if self.sum is None else self.sum + d
        s = _region_sums(d, self.side)[3]
        if self._peak is None:
            self._peak, self._peak_at = np.full(s.shape, -1.0), np.zeros(s.shape, dtype=int)
        new = s > self._peak
        self._peak[new], self._peak_at[new] = s[new], self.frames
        self.tags.append(tag)
        self.frames += 1

    def mse(self) -> np.ndarray:
        """Mean squared error per pixel over the frames added."""
        return self.sum / max(1, self.frames)

    def worst_region(self, side: int | None = None) -> tuple[int, int, int, int]:
        """``(x0, y0, x1, y1)`` of the ``side`` x ``side`` region (observation pixels)
        whose pixels differ most in total."""
        return _best(self.mse(), self.side if side is None else side)

    def peak_frame(self, region: tuple[int, int, int, int]):
        """The tag of the first frame in which ``region`` (a searched region, e.g.
        :meth:`worst_region`) differed most."""
        _, ys, xs = _region_origins(*self.sum.shape, self.side)
        i, j = int(np.flatnonzero(ys == region[1])[0]), int(np.flatnonzero(xs == region[0])[0])
        return self.tags[self._peak_at[i, j]]

    def image(self, scale: int = 4):
        """The map as a PIL image: black (no difference) to white (RMS difference of
        64 levels or more), each pixel ``scale`` x ``scale``."""
        from PIL import Image

        v = np.clip(np.sqrt(self.mse()) / 64.0, 0, 1)
        rgb = np.stack([v, v ** 2, v ** 4], axis=2)  # black -> red -> yellow -> white
        img = Image.fromarray((rgb * 255).astype(np.uint8))
        return img.resize((img.width * scale, img.height * scale), Image.NEAREST)


def obs_to_canvas(region, obs_hw: tuple[int, int], canvas_wh: tuple[float, float],
                  fit: str = "stretch") -> tuple[float, float, float, float]:
    """An observation-pixel box as a canvas-unit box (the inverse of the env's fit)."""
    h, w = obs_hw
    cw, ch = canvas_wh
    if fit == "letterbox":
        s = min(w / cw, h / ch)
        sx = sy = s
        tx, ty = 0.5 * (w - cw * s), 0.5 * (h - ch * s)
    else:
        sx, sy, tx, ty = w / cw, h / ch, 0.0, 0.0
    x0, y0, x1, y1 = region
    return (x0 - tx) / sx, (y0 - ty) / sy, (x1 - tx) / sx, (y1 - ty) / sy


@dataclasses.dataclass
class DrawnCall:
    index: int
    call: list
    box: tuple[float, float, float, float]
    #: drawn under a translate/rotate/scale/...: the description adds the canvas box
    transformed: bool = False

    def describe(self) -> str:
        name, args = self.call[1], self.call[2:]
        shown = [a for a in args if not (isinstance(a, list) and a and a[0] == "style")]
        style = next((a for a in args if isinstance(a, list) and a and a[0] == "style"), None)
        text = f"{name}({', '.join(_short(a) for a in shown)})"
        if self.transformed:
            x0, y0, x1, y1 = self.box
            text += f" -> canvas x {x0:.0f}-{x1:.0f}, y {y0:.0f}-{y1:.0f}"
        if style is not None:
            text += f" fill={_short(style[1])} stroke={_short(style[2])} weight={_short(style[3])}"
        return f"#{self.index} {text}"


def _short(v) -> str:
    if isinstance(v, float):
        return f"{v:.4g}"
    if isinstance(v, str):
        return repr(v if len(v) <= 24 else v[:21] + "...")
    if isinstance(v, list):
        if v and v[0] == "rgba":
            v = v[1:]
        return "[" + ", ".join(_short(x) for x in v) + "]"
    return str(v)


_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


class _Replay:
    """p5's modes and transform stack, replayed from logged calls."""

    def __init__(self, canvas_wh):
        self.m = _IDENTITY  # a, b, c, d, e, f (canvas 2D order)
        self.stack: list = []
        self.rect_mode, self.ellipse_mode = "corner", "center"
        self.degrees = False
        self.text_size, self.weight = 12.0, 1.0
        self.canvas = canvas_wh
        self.vertices: list[tuple[float, float]] = []

    def apply(self, x, y):
        a, b, c, d, e, f = self.m
        return a * x + c * y + e, b * x + d * y + f

    def box(self, pts, pad=0.0):
        q = [self.apply(x, y) for x, y in pts]
        xs, ys = [p[0] for p in q], [p[1] for p in q]
        s = math.sqrt(abs(self.m[0] * self.m[3] - self.m[1] * self.m[2])) or 1.0
        return min(xs) - pad * s, min(ys) - pad * s, max(xs) + pad * s, max(ys) + pad * s

    def mul(self, a2, b2, c2, d2, e2, f2):
        a, b, c, d, e, f = self.m
        self.m = (a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2,
                  a * e2 + c * f2 + e, b * e2 + d * f2 + f)

    def angle(self, v):
        return math.radians(v) if self.degrees else v

    def call(self, name, args) -> tuple[float, float, float, float] | None:
        """The canvas box a call draws in, or None; updates the replayed state."""
        n = [a for a in args if isinstance(a, (int, float)) and not isinstance(a, bool)]
        pad = self.weight / 2
        if name == "push":
            self.stack.append((self.m, self.rect_mode, self.ellipse_mode, self.text_size, self.weight))
        elif name == "pop" and self.stack:
            self.m, self.rect_mode, self.ellipse_mode, self.text_size, self.weight = self.stack.pop()
        elif name == "resetMatrix":
            self.m = _IDENTITY
        elif name == "translate" and len(n) >= 2:
            self.mul(1, 0, 0, 1, n[0], n[1])
        elif name == "rotate" and n:
            t = self.angle(n[0])
            self.mul(math.cos(t), math.sin(t), -math.sin(t), math.cos(t), 0, 0)
        elif name == "scale" and n:
            self.mul(n[0], 0, 0, n[1] if len(n) > 1 else n[0], 0, 0)
        elif name == "shearX" and n:
            self.mul(1, 0, math.tan(self.angle(n[0])), 1, 0, 0)
        elif name == "shearY" and n:
            self.mul(1, math.tan(self.angle(n[0])), 0, 1, 0, 0)
        elif name == "applyMatrix" and len(n) >= 6:
            self.mul(*n[:6])
        elif name == "rectMode" and args:
            self.rect_mode = str(args[0])
        elif name == "ellipseMode" and args:
            self.ellipse_mode = str(args[0])
        elif name == "angleMode" and args:
            self.degrees = str(args[0]) == "degrees"
        elif name == "textSize" and n:
            self.text_size = float(n[0])
        elif name == "strokeWeight" and n:
            self.weight = float(n[0])
        elif name in ("background", "clear"):
            return 0.0, 0.0, float(self.canvas[0]), float(self.canvas[1])
        elif name in ("rect", "square") and len(n) >= 3:
            w = n[2]
            h = n[3] if name == "rect" and len(n) >= 4 else w
            return self.box(_mode_box(self.rect_mode, n[0], n[1], w, h, "corner"), pad)
        elif name in ("ellipse", "circle", "arc") and len(n) >= 3:
            w = n[2]
            h = n[3] if name != "circle" and len(n) >= 4 else w
            return self.box(_mode_box(self.ellipse_mode, n[0], n[1], w, h, "center"), pad)
        elif name in ("line", "triangle", "quad", "bezier", "curve") and len(n) >= 4:
            return self.box(list(zip(n[0::2], n[1::2])), pad)
        elif name == "point" and len(n) >= 2:
            return self.box([(n[0], n[1])], pad)
        elif name == "text" and len(args) >= 3 and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in args[1:3]):
            # text(str, x, y): the first argument may itself be a number
            s = str(args[0])
            width = 0.6 * self.text_size * max(1, max(len(line) for line in s.split("\n")))
            x, y = args[1], args[2]
            return self.box(_corners(x - width, y - 1.2 * self.text_size, x + width,
                                     y + 1.2 * self.text_size))
        elif name == "beginShape":
            self.vertices = []
        elif name in ("vertex", "curveVertex", "bezierVertex", "quadraticVertex") and len(n) >= 2:
            self.vertices.extend(zip(n[0::2], n[1::2]))
        elif name == "endShape" and self.vertices:
            return self.box(self.vertices, pad)
        return None


def _corners(x0, y0, x1, y1):
    """The four corners of a box (all four, so a rotated box's bounds are right)."""
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def _mode_box(mode, a, b, c, d, default):
    mode = mode or default
    if mode == "center":
        return _corners(a - c / 2, b - d / 2, a + c / 2, b + d / 2)
    if mode == "radius":
        return _corners(a - c, b - d, a + c, b + d)
    if mode == "corners":
        return _corners(a, b, c, d)
    return _corners(a, b, a + c, b + d)


def calls_in(calls: list[list], region_canvas, canvas_wh, limit: int = 8) -> list[DrawnCall]:
    """The drawing calls of one frame's log whose box meets ``region_canvas``, the
    last drawn (topmost) first, at most ``limit``."""
    r = _Replay(canvas_wh)
    x0, y0, x1, y1 = region_canvas
    hits = []
    for i, c in enumerate(calls):
        if len(c) < 2:
            continue
        box = r.call(c[1], c[2:])
        if box is not None and box[0] < x1 and box[2] > x0 and box[1] < y1 and box[3] > y0:
            hits.append(DrawnCall(i, c, box, r.m != _IDENTITY))
    return hits[::-1][:limit]
