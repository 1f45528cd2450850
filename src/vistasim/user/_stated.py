"""The typed values a text states, with where it states them (dates, times, sums, ids).

Split from `user/_facts.py`, which gives each such value an owner (a slot named next to it, or
the task) before comparing it with what the user holds.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from vistasim.dates import find_dates
from vistasim.values import id_shape, text_ids, text_values, with_equivalents

__all__ = ["Stated", "stated_values"]

_READ_LIMIT = 8_000
"""Characters of a message read for its values: the reading is quadratic in the worst case."""
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


@dataclass(frozen=True, kw_only=True)
class Stated:
    """A typed value a text states: its type, the values it may mean, where, and its words."""

    kind: str
    """`date`, `time`, `money`, `quantity`, `email`, or `id:<shape>` (`id:A9999`)."""
    values: frozenset[str]
    start: int
    end: int
    surface: str


def stated_values(text: str, today: date | None, shapes: Sequence[str] = ()) -> list[Stated]:
    """Return the typed values a text states, in order (relative dates only with `today`).

    `shapes` (`id_shape` forms such as `9999999`) are ids without letters to look for too: a
    number alone is no id unless the user holds one of that shape.
    """
    text = text[:_READ_LIMIT]  # an oversized reply: what it proposes is said near its start
    found = [
        Stated(kind="date", values=m.days, start=m.start, end=m.end, surface=m.surface)
        for m in find_dates(text, today)
    ]
    found += _located_values(text)
    taken = [(s.start, s.end) for s in found]
    found += _located_ids(text, taken)
    found += _located_shapes(text, shapes, taken)
    return sorted(found, key=lambda s: s.start)


def _located_values(text: str) -> list[Stated]:
    """Times, amounts and quantities with where they are (the smallest run of words saying each)."""
    words = [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]
    # A quantity is one in its context: "a week" alone is a length, but "30 funded hours a week"
    # is a rate (`values._RATE_BEFORE`).
    whole = {pair for pair in text_values(text) if pair[0].startswith("quantity:")}
    found: dict[tuple[str, str], Stated] = {}
    for size in range(1, 5):
        for i in range(len(words) - size + 1):
            start, end = words[i][0], words[i + size - 1][1]
            for kind, value in text_values(text[start:end]):
                if kind == "date":
                    continue  # dates are read by `find_dates`, relative ones included
                if kind.startswith("quantity:") and (kind, value) not in whole:
                    continue
                family, _, unit = kind.partition(":")
                canonical = f"{value} {unit}" if unit else value
                key = (family, canonical)
                if key not in found:  # the smallest run of words is found first
                    found[key] = Stated(
                        kind=family,
                        values=_spans_alike(kind, value) if unit else frozenset({canonical}),
                        start=start,
                        end=end,
                        surface=text[start:end],
                    )
    return list(found.values())


def _spans_alike(kind: str, value: str) -> frozenset[str]:
    """A quantity in its own unit and, for a span, in its other exact unit (whole or a half).

    "a week" is "7 days" and "90 minutes" "1.5 hours"; "4 days" is no part of a week.
    """
    alike = {kind: value}
    for other, number in with_equivalents({(kind, value)}):
        if other != kind and (float(number) * 2).is_integer():
            alike[other] = number
    return frozenset(f"{number} {other.partition(':')[2]}" for other, number in alike.items())


def _located_ids(text: str, taken: list[tuple[int, int]]) -> list[Stated]:
    found: list[Stated] = []
    for match in _EMAIL.finditer(text):
        found.append(_stated_token("email", match))
        taken.append((match.start(), match.end()))
    for token in sorted(text_ids(text)):
        pattern = rf"(?<![\w@.-]){re.escape(token)}(?![\w@-])"
        for match in re.finditer(pattern, text):
            if any(s <= match.start() < e for s, e in taken):
                continue  # "19th" of a date, "10am" of a time, a part of an email
            found.append(_stated_token(f"id:{id_shape(token)}", match))
    return found


def _located_shapes(text: str, shapes: Sequence[str], taken: list[tuple[int, int]]) -> list[Stated]:
    found: list[Stated] = []
    for shape in dict.fromkeys(shapes):
        body = "".join(r"\d" if c == "9" else re.escape(c) for c in shape)
        for match in re.finditer(rf"(?<![\w@.-]){body}(?![\w@-])", text):
            if not any(s <= match.start() < e for s, e in taken):
                found.append(_stated_token(f"id:{shape}", match))
                taken.append((match.start(), match.end()))
    return found


def _stated_token(kind: str, match: re.Match[str]) -> Stated:
    token = match.group(0)
    return Stated(
        kind=kind,
        values=frozenset({token.casefold()}),
        start=match.start(),
        end=match.end(),
        surface=token,
    )
