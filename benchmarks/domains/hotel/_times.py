"""Times of day as guests write them: "13:30", "1.30pm", "half past one", "noon"."""

from __future__ import annotations

import re
from dataclasses import dataclass

from benchmarks.domains.hotel._dates import MONTHS, number


@dataclass(frozen=True)
class Clock:
    """A time of day found in a text; `spoken` when written the 12-hour or spoken way."""

    hour: int
    minute: int
    spoken: bool

    @property
    def hhmm(self) -> str:
        """The time as HH:MM on the 24-hour clock."""
        return f"{self.hour:02d}:{self.minute:02d}"


_HOURS = r"(?P<h>\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_AMPM = r"\s*(?P<ampm>a\.?m\.?|p\.?m\.?|in the afternoon|in the morning)?"
_TIMES: list[tuple[str, re.Pattern[str]]] = [
    ("noon", re.compile(r"\b(?:12\s*)?(?:noon|midday|lunchtime)\b")),
    ("past", re.compile(rf"\b(?P<q>half|quarter)\s+past\s+{_HOURS}\b{_AMPM}")),
    ("to", re.compile(rf"\bquarter\s+to\s+{_HOURS}\b{_AMPM}")),
    ("hm", re.compile(r"\b(?P<h>\d{1,2})\s*[:.h]\s*(?P<m>\d{2})(?!\d)" + _AMPM)),
    ("words", re.compile(rf"\b{_HOURS}\s+(?P<m>thirty|fifteen|forty[\s-]?five|o'?clock)\b{_AMPM}")),
    ("h", re.compile(rf"\b{_HOURS}\s*(?P<ampm>a\.?m\.?|p\.?m\.?|o'?clock|in the afternoon)")),
    ("bare", re.compile(rf"\b(?:at|until|till|til|by|around|about|to)\s+{_HOURS}\b"
                        rf"(?!\s*(?:st\b|nd\b|rd\b|th\b|of\b|{'|'.join(MONTHS)}|nights?|days?|"
                        r"guests?|people|adults?|more|extra|[/.:-]\d|\s*(?:-|–|to|and|until)\s*\d))")),
]  # fmt: skip
_MINUTES = {"thirty": 30, "fifteen": 15, "o'clock": 0, "oclock": 0}


def find_time(text: str) -> Clock | None:
    """The first time of day in `text`, on the 24-hour clock (1 to 7 without am/pm: afternoon)."""
    low = text.lower()
    best: tuple[int, Clock] | None = None
    for kind, pattern in _TIMES:
        m = pattern.search(low)
        if m is None or (best is not None and best[0] <= m.start()):
            continue
        clock = _clock(kind, m)
        if clock is not None:
            best = (m.start(), clock)
    return best[1] if best else None


def _clock(kind: str, m: re.Match[str]) -> Clock | None:
    if kind == "noon":
        return Clock(12, 0, spoken=True)
    g = m.groupdict()
    hour = number(g["h"]) if g["h"] else 0
    minute = 0
    if kind == "past":
        minute = 30 if g["q"] == "half" else 15
    elif kind == "to":
        hour, minute = hour - 1, 45
    elif kind == "hm":
        minute = int(g["m"])
    elif kind == "words":
        minute = _MINUTES.get(g["m"].replace(" ", ""), 45)
    ampm = (g.get("ampm") or "").replace(".", "")
    if ampm.startswith("p") or "afternoon" in ampm:
        hour = hour + 12 if hour < 12 else hour
    elif ampm.startswith("a") or "morning" in ampm:
        hour = 0 if hour == 12 else hour
    elif 1 <= hour <= 7:
        hour += 12
    if not (0 <= hour <= 23 and 0 <= minute <= 59):
        return None
    written = int(g["h"]) if kind == "hm" else 0
    spoken = not (kind == "hm" and not ampm and (written >= 12 or g["h"].startswith("0")))
    return Clock(hour, minute, spoken=spoken)
