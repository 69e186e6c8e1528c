"""Charts as SVG, drawn on the server: no script, nothing to load, and they print.

A deliberately small writer for the three kinds the player page needs: lines (a score over an
evening, a place over the season), bars with a reference line (a result per evening) and
stacked horizontal bars (games won and lost by game). Colours are presentation attributes, not
CSS, so a chart keeps them when printed or saved on its own, and every line also has its own
dash pattern so that it can be told apart in black and white. Each chart is an ``img`` for
assistive technology, named by its title and described by a sentence the caller gives.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

INK = "#1b1b1b"
MUTED = "#5a5a5a"
GRID = "#d4d4cc"
ACCENT = "#1d5e2f"  # the site's green
NEGATIVE = "#a3111a"
POSITIVE = "#2f7d46"
DROPPED = "#b9b9b0"
# Other lines: distinguishable hues (also for the colour-blind) and dash patterns.
PALETTE = ["#1a4fa0", "#b35900", "#7a3b8f", "#00807a", "#8a6d00"]
DASHES = ["6 3", "2 3", "8 3 2 3", "1 2", "4 2 1 2"]
FONT = 'font-family="DejaVu Sans, sans-serif"'

_ids = itertools.count(1)


def _num(value: float) -> str:
    """Coordinates with at most one decimal: small files, no float noise."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def label_number(value: float) -> str:
    """An axis label: whole numbers with a real minus sign."""
    text = f"{round(value):d}"
    return text.replace("-", "\u2212")


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values (1, 2 or 5 × 10^k apart) covering low…high, zero included when the
    range crosses it."""
    if high < low:
        low, high = high, low
    if high == low:
        high, low = high + 1, low - 1
    raw = (high - low) / max(count - 1, 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    start = math.floor(low / step) * step
    ticks = []
    value = start
    while value < high + step * 0.999:
        ticks.append(round(value, 10))
        value += step
    return ticks


@dataclass
class Line:
    label: str
    values: Sequence[float | None]  # None: no point here (a gap)
    highlight: bool = False


@dataclass
class Frame:
    """The plotting area inside a chart with margins for the axes."""

    width: int
    height: int
    left: int = 52
    right: int = 16
    top: int = 16
    bottom: int = 34
    parts: list[str] = field(default_factory=list)

    @property
    def inner_width(self) -> float:
        return self.width - self.left - self.right

    @property
    def inner_height(self) -> float:
        return self.height - self.top - self.bottom


def _open(frame: Frame, title: str, description: str, css_class: str) -> tuple[str, str]:
    uid = f"chart-{next(_ids)}"
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart {escape(css_class)}" '
        f'viewBox="0 0 {frame.width} {frame.height}" role="img" '
        f'aria-labelledby="{uid}-t {uid}-d" preserveAspectRatio="xMidYMid meet">'
        f'<title id="{uid}-t">{escape(title)}</title>'
        f'<desc id="{uid}-d">{escape(description)}</desc>')
    return uid, head


def _finish(head: str, frame: Frame) -> SafeString:
    # Safe: every text and attribute value that came from outside was escaped on the way in.
    return mark_safe(head + "".join(frame.parts) + "</svg>")


def _y_axis(frame: Frame, ticks: list[float], y_of: Callable[[float], float], *,
            zero: bool = True,
            labels: dict[float, str] | None = None) -> None:
    for tick in ticks:
        y = y_of(tick)
        strong = zero and tick == 0
        frame.parts.append(
            f'<line x1="{frame.left}" x2="{frame.width - frame.right}" y1="{_num(y)}" '
            f'y2="{_num(y)}" stroke="{MUTED if strong else GRID}" '
            f'stroke-width="{1.2 if strong else 0.6}"/>')
        text = (labels or {}).get(tick, label_number(tick))
        frame.parts.append(
            f'<text x="{frame.left - 6}" y="{_num(y + 4)}" text-anchor="end" font-size="11" '
            f'fill="{MUTED}" {FONT}>{escape(text)}</text>')


def _x_labels(frame: Frame, labels: Sequence[str], x_of: Callable[[int], float], *,
              every: int = 0) -> None:
    if not labels:
        return
    every = every or max(1, math.ceil(len(labels) / 12))
    last = len(labels) - 1
    for index, text in enumerate(labels):
        # counted back from the last label, which is always shown
        if (last - index) % every:
            continue
        x = x_of(index)
        frame.parts.append(
            f'<text x="{_num(x)}" y="{frame.height - frame.bottom + 16}" text-anchor="middle" '
            f'font-size="11" fill="{MUTED}" {FONT}>{escape(text)}</text>')


def line_chart(*, title: str, description: str, x_labels: Sequence[str], lines: list[Line],
               width: int = 640, height: int = 240, invert: bool = False,
               dividers: Sequence[tuple[int, str]] = (), legend: bool = True,
               y_min: float | None = None, label_every: int = 0) -> SafeString:
    """Lines over the same x positions. ``invert`` puts small values on top (places);
    ``dividers`` are (index, label) marks drawn before that x position; ``label_every``
    labels every n-th position, counted back from the last (0: about a dozen labels)."""
    frame = Frame(width, height, right=28,
                  bottom=34 + (18 if legend and len(lines) > 1 else 0))
    uid, head = _open(frame, title, description, "chart-line")
    points = [v for line in lines for v in line.values if v is not None]
    count = max((len(line.values) for line in lines), default=0)
    if not points or count == 0:
        return _finish(head, frame)
    low, high = min(points), max(points)
    if y_min is not None:
        low = min(low, y_min)
    if not invert:
        low, high = min(low, 0), max(high, 0)
    if invert:  # places: 1 at the top, then round numbers
        ticks = [1.0, *(t for t in nice_ticks(0, max(high, 2)) if t > 1)]
        low, high = 1, ticks[-1]
    else:
        ticks = nice_ticks(low, high)
        low, high = ticks[0], ticks[-1]
    span = (high - low) or 1

    def y_of(value: float) -> float:
        share = (value - low) / span
        if invert:
            return frame.top + share * frame.inner_height
        return frame.top + (1 - share) * frame.inner_height

    def x_of(index: int) -> float:
        if count == 1:
            return frame.left + frame.inner_width / 2
        return frame.left + index * frame.inner_width / (count - 1)

    _y_axis(frame, ticks, y_of, zero=not invert)
    for index, label in dividers:
        x = (x_of(index - 1) + x_of(index)) / 2 if index > 0 else x_of(0)
        frame.parts.append(
            f'<line x1="{_num(x)}" x2="{_num(x)}" y1="{frame.top}" '
            f'y2="{_num(frame.top + frame.inner_height)}" stroke="{MUTED}" '
            f'stroke-dasharray="3 3" stroke-width="1"/>'
            f'<text x="{_num(x + 4)}" y="{frame.top + 10}" font-size="10" fill="{MUTED}" '
            f'{FONT}>{escape(label)}</text>')
    _x_labels(frame, x_labels, x_of, every=label_every)
    others = itertools.cycle(zip(PALETTE, DASHES, strict=True))
    styles = []
    for line in lines:
        if line.highlight:
            styles.append((ACCENT, "", 3.0))
        else:
            colour, dash = next(others)
            styles.append((colour, dash, 1.6))
    # the highlighted line last, so it is drawn on top
    for line, (colour, dash, stroke) in sorted(zip(lines, styles, strict=True),
                                                key=lambda pair: pair[0].highlight):
        _polyline(frame, line, colour, dash, stroke, x_of, y_of)
    if legend and len(lines) > 1:
        _legend(frame, lines, styles)
    return _finish(head, frame)


def _polyline(frame: Frame, line: Line, colour: str, dash: str, stroke: float,
              x_of: Callable[[int], float], y_of: Callable[[float], float]) -> None:
    runs: list[list[str]] = [[]]
    for index, value in enumerate(line.values):
        if value is None:
            runs.append([])
            continue
        runs[-1].append(f"{_num(x_of(index))},{_num(y_of(value))}")
    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
    for run in runs:
        if len(run) > 1:
            frame.parts.append(
                f'<polyline points="{" ".join(run)}" fill="none" stroke="{colour}" '
                f'stroke-width="{stroke}" stroke-linejoin="round"{dash_attr}/>')
        elif run:
            x, y = run[0].split(",")
            frame.parts.append(f'<circle cx="{x}" cy="{y}" r="3" fill="{colour}"/>')
    if line.highlight and line.values and line.values[-1] is not None:
        last_x, last_y = x_of(len(line.values) - 1), y_of(line.values[-1])
        frame.parts.append(
            f'<circle cx="{_num(last_x)}" cy="{_num(last_y)}" r="4" fill="{colour}"/>')


def _legend(frame: Frame, lines: list[Line], styles: list[tuple[str, str, float]]) -> None:
    x = float(frame.left)
    y = frame.height - 8
    for line, (colour, dash, stroke) in zip(lines, styles, strict=True):
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        weight = ' font-weight="bold"' if line.highlight else ""
        frame.parts.append(
            f'<line x1="{_num(x)}" x2="{_num(x + 22)}" y1="{y - 4}" y2="{y - 4}" '
            f'stroke="{colour}" stroke-width="{stroke}"{dash_attr}/>'
            f'<text x="{_num(x + 27)}" y="{y}" font-size="11" fill="{INK}"{weight} {FONT}>'
            f'{escape(line.label)}</text>')
        x += 38 + 7 * len(line.label)


def bar_chart(*, title: str, description: str, labels: Sequence[str],
              values: Sequence[int], muted: Sequence[bool] = (),
              reference: float | None = None, reference_label: str = "",
              width: int = 640, height: int = 240) -> SafeString:
    """One bar per value, green above zero and red below; ``muted`` bars are drawn pale and
    hatched (dropped results), ``reference`` is a dashed line (an average)."""
    frame = Frame(width, height, right=28)
    uid, head = _open(frame, title, description, "chart-bars")
    if not values:
        return _finish(head, frame)
    extra = [reference] if reference is not None else []
    ticks = nice_ticks(min([0, *values, *extra]), max([0, *values, *extra]))
    low, high = ticks[0], ticks[-1]
    span = (high - low) or 1

    def y_of(value: float) -> float:
        return frame.top + (1 - (value - low) / span) * frame.inner_height

    slot = frame.inner_width / len(values)
    bar = max(2.0, min(28.0, slot * 0.7))

    def x_of(index: int) -> float:
        return frame.left + slot * (index + 0.5)

    frame.parts.append(
        f'<defs><pattern id="{uid}-hatch" width="5" height="5" patternUnits="userSpaceOnUse" '
        f'patternTransform="rotate(45)"><rect width="5" height="5" fill="#f1f1ec"/>'
        f'<line x1="0" y1="0" x2="0" y2="5" stroke="{DROPPED}" stroke-width="2"/></pattern>'
        f'</defs>')
    _y_axis(frame, ticks, y_of)
    zero = y_of(0)
    for index, value in enumerate(values):
        top, bottom = sorted((y_of(value), zero))
        is_muted = index < len(muted) and muted[index]
        fill = f"url(#{uid}-hatch)" if is_muted else (POSITIVE if value >= 0 else NEGATIVE)
        outline = f' stroke="{DROPPED}"' if is_muted else ""
        frame.parts.append(
            f'<rect x="{_num(x_of(index) - bar / 2)}" y="{_num(top)}" width="{_num(bar)}" '
            f'height="{_num(max(bottom - top, 1))}" fill="{fill}"{outline}>'
            f'<title>{escape(labels[index])}: {escape(label_number(value))}</title></rect>')
    if reference is not None:
        y = y_of(reference)
        frame.parts.append(
            f'<line x1="{frame.left}" x2="{frame.width - frame.right}" y1="{_num(y)}" '
            f'y2="{_num(y)}" stroke="{INK}" stroke-width="1.4" stroke-dasharray="6 4"/>'
            f'<text x="{frame.width - frame.right}" y="{_num(y - 5)}" text-anchor="end" '
            f'font-size="11" fill="{INK}" stroke="#fff" stroke-width="3" paint-order="stroke" '
            f'{FONT}>{escape(reference_label)}</text>')
    _x_labels(frame, labels, x_of)
    return _finish(head, frame)


@dataclass
class Segment:
    value: int
    colour: str
    label: str


def stacked_bars(*, title: str, description: str, rows: Sequence[tuple[str, list[Segment]]],
                 width: int = 640, row_height: int = 26) -> SafeString:
    """One horizontal bar per row, made of segments laid end to end (games won, then lost),
    with the row's label on the left and each segment's number inside it."""
    left = 118
    height = 12 + row_height * len(rows)
    frame = Frame(width, height, left=left, right=40, top=6, bottom=6)
    uid, head = _open(frame, title, description, "chart-stacked")
    longest = max((sum(s.value for s in segments) for _l, segments in rows), default=0) or 1
    for index, (label, segments) in enumerate(rows):
        y = frame.top + index * row_height
        frame.parts.append(
            f'<text x="{left - 8}" y="{_num(y + row_height / 2 + 4)}" text-anchor="end" '
            f'font-size="12" fill="{INK}" {FONT}>{escape(label)}</text>')
        x = float(left)
        for segment in segments:
            if segment.value <= 0:
                continue
            w = segment.value / longest * frame.inner_width
            frame.parts.append(
                f'<rect x="{_num(x)}" y="{_num(y + 3)}" width="{_num(w)}" '
                f'height="{row_height - 8}" fill="{segment.colour}">'
                f'<title>{escape(label)}: {escape(segment.label)}</title></rect>')
            if w >= 18:
                frame.parts.append(
                    f'<text x="{_num(x + w / 2)}" y="{_num(y + row_height / 2 + 3)}" '
                    f'text-anchor="middle" font-size="11" fill="#fff" {FONT}>'
                    f'{segment.value}</text>')
            x += w
        total = sum(s.value for s in segments)
        frame.parts.append(
            f'<text x="{_num(x + 6)}" y="{_num(y + row_height / 2 + 4)}" font-size="11" '
            f'fill="{MUTED}" {FONT}>{total}</text>')
    return _finish(head, frame)
