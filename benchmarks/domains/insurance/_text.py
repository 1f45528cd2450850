"""Reading customers' English: references, postcodes, days, dates, amounts, requests, yes / no.

Rule-based on purpose (the desk's agent has no model). A message is split into requests in the
order they were asked; each request keeps its own part of the message, so a day or an address is
read from the request it belongs to.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december"]
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
PERIL_WORDS = {
    "storm": r"storm|wind|gale|blown|blew|fence|roof tiles?|hail",
    "escape_of_water": r"leak|leaking|leaked|burst|pipe|flood|water damage|escape of water",
    "theft": r"stolen|theft|burglar|burglary|break-in|broke in|broken into|thief|thieves",
    "fire": r"fire|smoke|burnt|burned",
    "accidental_damage": r"accidental(?:ly)? damage|spill|spilt|spilled|dropped|knocked|"
                         r"smashed|cracked|broke (?:the|my|our)|accident",
}
PERIL_SAY = {"storm": "storm damage", "escape_of_water": "escape of water",
             "theft": "theft", "fire": "fire", "accidental_damage": "accidental damage"}

POLICY_RE = re.compile(r"\bHH\s*-?\s*(\d{6})\b|\b(10\d{4})\b", re.I)
POSTCODE_RE = re.compile(r"\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})\b", re.I)
CLAIM_RE = re.compile(r"\bCL\s*-?\s*(\d{5})\b", re.I)
MONEY_RE = re.compile(r"£\s?(\d[\d,]*(?:\.\d{1,2})?)\s*(k\b)?|\b(\d[\d,]*(?:\.\d{1,2})?)\s*"
                      r"(?:pounds|quid|gbp)\b", re.I)
ORDINAL_RE = re.compile(r"\b(\d{1,2})\s*(?:st|nd|rd|th)\b|\b(?:day|the)\s+(\d{1,2})\b", re.I)
ADDON_RE = re.compile(r"accidental[- ]damage|\blegal\b(?:\s+(?:cover|expenses|protection))?",
                      re.I)
REMOVE_RE = re.compile(r"\b(remove|removing|drop|tak(?:e|ing)\b.{0,30}\boff|cancel|stop|"
                       r"don'?t (?:need|want|use)|do not (?:need|want)|no longer|get rid)\b",
                       re.I)
DAMAGE_RE = re.compile(r"\b(damage[ds]?|blew|blown|stolen|burst|leak\w*|broke|broken|smashed|"
                       r"cracked|ruined|flooded|spill\w*|spilt|dropped|knocked)\b", re.I)
INTENT_RES = {
    "payment_day": re.compile(r"payment (?:date|day)|direct debit|debit date|pay(?:ments?)? "
                              r"(?:on|date|day)|(?:date|day) (?:i|my payments?|it) (?:pay|"
                              r"go(?:es)? out|(?:is|are) taken)|monthly payment|"
                              r"payments? (?:come|go|goes|comes) out", re.I),
    "claim_status": re.compile(r"(?:status|update|progress|news|happening|going|where).{0,40}"
                               r"claim|claim.{0,40}(?:status|update|progress|going|got to|"
                               r"doing|stand)|chase|\bCL\s*-?\s*\d{5}", re.I),
    "claim_report": re.compile(r"\b(?:make|report|file|open|start|put in|register|log|raise|"
                               r"submit)\b.{0,25}\bclaim|\bclaim (?:for|on)\b|\bclaim\b", re.I),
    "cancel": re.compile(r"\bcancel\w*\b.{0,40}\b(?:policy|insurance|home cover|the cover|"
                         r"it|cover with you)\b|\bcancel\w* (?:my|the|our) (?:home )?"
                         r"(?:policy|insurance)", re.I),
    "address": re.compile(r"\baddress\b|\bletters?\b|\bpost\b(?! ?code)|\bmoved\b", re.I),
    "lookup": re.compile(r"\bexcess\b|\brenew|what(?:'s| is| does).{0,25}cover|\bcovered\b|"
                         r"policy details|\bpremium\b|when does (?:it|my policy) end", re.I),
}


def clean(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("’", "'")).strip()


def policy_numbers(text: str) -> list[str]:
    return [f"HH-{m.group(1) or m.group(2)}" for m in POLICY_RE.finditer(text)]


def postcodes(text: str) -> list[tuple[str, int]]:
    """Postcodes with their positions (policy numbers and claim refs are not postcodes)."""
    found = []
    for m in POSTCODE_RE.finditer(text):
        if m.group(1).upper().startswith(("HH", "CL")):
            continue
        found.append((f"{m.group(1).upper()} {m.group(2).upper()}", m.start()))
    return found


def claim_refs(text: str) -> list[str]:
    return [f"CL-{m.group(1)}" for m in CLAIM_RE.finditer(text)]


def amount(text: str) -> float | None:
    for m in MONEY_RE.finditer(text):
        raw = (m.group(1) or m.group(3)).replace(",", "")
        value = float(raw) * (1000 if m.group(2) else 1)
        if value > 0:
            return value
    return None


def days_of_month(text: str) -> list[int]:
    days = []
    for m in ORDINAL_RE.finditer(text):
        after = text[m.end():m.end() + 12].lower()
        if any(after.strip().startswith(mo[:3]) for mo in MONTHS):
            continue  # "28th November" is a date, not a payment day
        day = int(m.group(1) or m.group(2))
        if 1 <= day <= 31:
            days.append(day)
    return days


def wants_latest(text: str) -> bool:
    return bool(re.search(r"\b(latest|last (?:possible|day|allowed)|as late as|nearest|"
                          r"closest|end of the month)\b", text, re.I))


def perils(text: str) -> list[str]:
    low = text.lower()
    return [p for p, words in PERIL_WORDS.items() if re.search(rf"\b(?:{words})", low)]


def incident_date(text: str, today: date) -> date | None:
    low = text.lower()
    if re.search(r"\b(today|this morning|earlier today|this afternoon)\b", low):
        return today
    if re.search(r"\b(yesterday|last night)\b", low):
        return today - timedelta(days=1)
    if m := re.search(r"\b(\d+|a|two|three) (days?|weeks?) ago\b", low):
        count = {"a": 1, "two": 2, "three": 3}.get(m.group(1)) or int(m.group(1))
        return today - timedelta(days=count * (7 if m.group(2).startswith("week") else 1))
    if "weekend" in low:
        back = (today.weekday() - 5) % 7 or 7
        return today - timedelta(days=back)
    if m := re.search(r"\b(\d{4})-(\d\d)-(\d\d)\b", low):
        return _safe_date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    if m := re.search(r"\b(\d{1,2})/(\d{1,2})(?:/(\d{2,4}))?\b", low):
        year = int(m.group(3) or today.year)
        return _past(_safe_date(year + (2000 if year < 100 else 0), int(m.group(2)),
                                int(m.group(1))), today)
    months = "|".join(MONTHS + [m[:3] for m in MONTHS])
    m = re.search(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?(?: of)? ({months})\b", low) or \
        re.search(rf"\b({months}) (\d{{1,2}})(?:st|nd|rd|th)?\b", low)
    if m:
        day_s, month_s = (m.group(1), m.group(2)) if m.group(1)[0].isdigit() else \
            (m.group(2), m.group(1))
        month = next(i for i, mo in enumerate(MONTHS, 1) if mo.startswith(month_s[:3]))
        return _past(_safe_date(today.year, month, int(day_s)), today)
    if m := re.search(rf"\b({'|'.join(WEEKDAYS)})\b", low):
        back = (today.weekday() - WEEKDAYS.index(m.group(1))) % 7 or 7
        return today - timedelta(days=back)
    return None


def _safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _past(day: date | None, today: date) -> date | None:
    if day is not None and day > today:
        return _safe_date(day.year - 1, day.month, day.day)
    return day


def new_address(text: str) -> tuple[str, str] | None:
    """The address and postcode a customer gives ("... to 4 Vale Close, Otley LS21 3QT"):
    the first postcode with a street before it (a later one is usually the insured home's)."""
    begin = 0
    for postcode, at in postcodes(text):
        before = text[begin:at]
        begin = at + len(postcode)
        start = None
        for m in re.finditer(r"(?:\bflat \d+\w?,? )?\b\d+[a-z]?,? [A-Z][a-z]+|\bflat \d+",
                             before, re.I):
            start = m.start()
        if start is None:
            continue
        address = before[start:].strip(" ,.")
        if re.search(r"[a-z]{3}", address, re.I):
            return address, postcode
    return None


def say_yes(text: str) -> bool | None:
    low = clean(text).lower()
    if re.search(r"\b(hang on|wait|hold on|not yet|let me think)\b", low):
        return None
    if re.search(r"^(no\b|nope|don'?t\b|do not\b|not now|no thanks|leave it|cancel that)", low):
        return False
    if re.search(r"\b(yes|yeah|yep|yup|ok|okay|sure|please do|go ahead|do it|confirm|correct|"
                 r"that'?s (?:fine|right|great|good)|sounds good|fine|perfect|great|lovely|"
                 r"please proceed|proceed|absolutely|of course|that works)\b", low):
        return True
    return None


def intent_spans(text: str) -> list[tuple[int, str, dict[str, Any]]]:
    """(position, intent, extra) for every request in the message, in the order asked."""
    found: list[tuple[int, str, dict[str, Any]]] = []
    for sentence in re.finditer(r"[^.!?;]+(?:[.!?;]|$)", text):
        body, base = sentence.group(0), sentence.start()
        addons = list(ADDON_RE.finditer(body))
        is_claim = bool(INTENT_RES["claim_report"].search(body) or
                        INTENT_RES["claim_status"].search(body))
        for m in addons:
            if is_claim and not re.search(r"\b(add|remove|include|take off|drop)\b", body, re.I):
                continue
            action = "remove" if REMOVE_RE.search(body[max(0, m.start() - 60):m.end() + 40]) \
                else "add"
            addon = "accidental_damage" if m.group(0).lower().startswith("acc") \
                else "legal_cover"
            found.append((base + m.start(), f"{action}_addon", {"addon": addon}))
        status = INTENT_RES["claim_status"].search(body)
        report = INTENT_RES["claim_report"].search(body)
        if status and not (perils(body) and re.search(r"\b(new|another|report|make)\b", body,
                                                        re.I)):
            found.append((base + status.start(), "claim_status", {}))
        elif report and not addons or (report and is_claim and perils(body)):
            found.append((base + report.start(), "claim_report", {}))
        elif not addons and perils(body) and DAMAGE_RE.search(body):
            found.append((base, "claim_report", {}))
        for intent in ("payment_day", "cancel", "address"):
            m2 = INTENT_RES[intent].search(body)
            if m2 and not (intent == "cancel" and addons):
                found.append((base + m2.start(), intent, {}))
        if not any(base <= f[0] < base + len(body) for f in found) and \
                (m3 := INTENT_RES["lookup"].search(body)):
            found.append((base + m3.start(), "lookup", {}))
    found.sort(key=lambda f: f[0])
    unique: list[tuple[int, str, dict[str, Any]]] = []
    for item in found:
        if not any(u[1] == item[1] and u[2] == item[2] for u in unique):
            unique.append(item)
    return unique
