"""Matching patron words to catalogue titles, fines, waiver reasons and notice channels."""

from __future__ import annotations

import re
from typing import Any

from benchmarks.domains.library._text import norm

_STOP = {"the", "and", "of", "a", "an", "in", "to", "for", "on", "like", "these", "things"}
INVALID_REASON = (r"\b(?:forgot|forget|forgotten|busy|holiday|away|travell?ing|didn't realise|"
                  r"didn't realize|didn't know|lost track|slipped my mind|couldn't get|"
                  r"too far|no time|moved house|work)\b")
_HOSPITAL = r"\b(?:hospital|hospitali[sz]ed|admitted|surgery|operation|a&e|ward)\b"
_LIB_ERROR = (r"\b(?:library error|your (?:mistake|error|system)|system error|returned (?:it )?"
              r"on time|book ?drop|returns? box|already returned|never borrowed|"
              r"wrongly|by mistake|in error|shouldn't have been|did return|i returned it|"
              r"scanned|checked in)\b")


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", norm(text).replace("’", "'"))


def match_titles(text: str, titles: list[dict[str, Any]]) -> list[str]:
    """Title ids the text names, by title (whole, or most of its words) or author surname."""
    low = " ".join(_words(text))
    exact, loose, by_author = [], [], []
    for t in titles:
        name = " ".join(_words(t["title"]))
        key = [w for w in name.split() if w not in _STOP]
        if re.search(rf"\b{re.escape(name)}\b", low) or (
                name.startswith("the ") and re.search(rf"\b{re.escape(name[4:])}\b", low)):
            exact.append(t["title_id"])
            continue
        present = [w for w in key if re.search(rf"\b{re.escape(w)}\b", low)]
        if key and len(present) >= max(1, round(len(key) * 0.6)) and (
                len(key) > 1 or len(key[0]) > 5):
            loose.append(t["title_id"])
            continue
        surname = _words(t["author"])[-1]
        if re.search(rf"\b{re.escape(surname)}\b", low):
            by_author.append(t["title_id"])
    if exact:
        longest = max(len(next(t["title"] for t in titles if t["title_id"] == i)) for i in exact)
        return [i for i in exact
                if len(next(t["title"] for t in titles if t["title_id"] == i)) == longest]
    return loose or by_author


def fine_matches(text: str, fines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    low = norm(text)
    hits = [f for f in fines if f["fine_id"].lower() in low]
    if hits:
        return hits
    for f in fines:
        book = f["description"].split(",")[0].lower()
        if book and book in low:
            hits.append(f)
    if not hits and re.search(r"\b(?:card fee|replacement card|card replacement)\b", low):
        hits = [f for f in fines if "card" in f["description"].lower()]
    return hits


def waive_reason(text: str) -> str | None:
    """'hospital_stay', 'library_error', 'invalid' or None (no reason given)."""
    low = norm(text)
    if re.search(_HOSPITAL, low):
        return "hospital_stay"
    if re.search(_LIB_ERROR, low):
        return "library_error"
    if re.search(INVALID_REASON, low):
        return "invalid"
    return None


def channel(text: str) -> str | None:
    low = norm(text)
    hits = []
    for name, pattern in (("sms", r"\b(?:text|texts|texting|sms|mobile|phone)\b"),
                          ("post", r"\b(?:post|letters?|mail|posted)\b"),
                          ("email", r"\b(?:e-?mail|e-?mails)\b")):
        m = re.search(pattern, low)
        if m:
            hits.append((m.start(), name))
    if not hits:
        return None
    m = re.search(r"\b(?:instead of|rather than|not by|not)\s+(?:by\s+)?(\w+)", low)
    if m and len(hits) > 1:
        hits = [h for h in hits if not m.group(1).startswith(h[1][:3])] or hits
    switch = re.search(r"\b(?:to|by|via|through)\s+(?:a\s+)?(?:text|sms|post|letter|e-?mail)", low)
    if switch:
        after = [h for h in hits if h[0] >= switch.start()]
        if after:
            return after[0][1]
    return hits[0][1]
