"""Reading customers' English: ids, contact details, quantities, dates, slot times, yes and no."""

from __future__ import annotations

import re
from datetime import date, timedelta

WEEKDAY_NAMES = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
MONTH_NAMES = ["january", "february", "march", "april", "may", "june", "july", "august",
               "september", "october", "november", "december"]

EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
ORDER_ID = re.compile(r"\bFB[\s-]?(\d{5})\b", re.I)
ACCOUNT = re.compile(r"(?<![\d-])(4\d{3})[\s-]?(\d{4})(?![\d-])")
POSTCODE = re.compile(r"\b([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})\b", re.I)
PHONE = re.compile(r"(?<!\d)(?:\+44\s?7\d{3}|07\d{3}|01\d{3}|02\d{3})[\s-]?\d{3}[\s-]?\d{3}(?!\d)")
VOUCHER = re.compile(r"\b([A-Za-z]{3,})(\d{1,3})\b")

NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
    "thirty": 30, "fifty": 50, "hundred": 100,
}
HOUR_WORDS = {k: v for k, v in NUMBER_WORDS.items() if v <= 12}


def find_email(text: str) -> str | None:
    match = EMAIL.search(text)
    return match.group(0).rstrip(".").lower() if match else None


def find_order_ids(text: str) -> list[str]:
    return [f"FB-{m.group(1)}" for m in ORDER_ID.finditer(text)]


def _without_ids(text: str) -> str:
    text = EMAIL.sub(" ", text)
    text = ORDER_ID.sub(" ", text)
    return PHONE.sub(" ", text)


def find_account(text: str) -> str | None:
    match = ACCOUNT.search(_without_ids(text))
    return match.group(1) + match.group(2) if match else None


def find_last4(text: str, *, asked: bool) -> str | None:
    """The last four card digits: said with 'card'/'ending'/'last four', or alone when asked."""
    clean = _without_ids(text)
    clean = ACCOUNT.sub(" ", clean)
    clean = re.sub(r"\b(19|20)\d\d-\d\d-\d\d\b", " ", clean)
    cue = re.search(r"card|ending|ends|last\s*(?:four|4)|digits", clean, re.I)
    numbers = re.findall(r"(?<![\d.:£/])(\d{4})(?![\d:/]|\.\d)", clean)
    numbers = [n for n in numbers if not (cue is None and re.fullmatch(r"20[2-3]\d", n))]
    if numbers and (cue or asked or re.fullmatch(r"\W*\d{4}\W*", clean.strip())):
        return numbers[-1]
    return None


def find_postcode(text: str) -> tuple[str, int, int] | None:
    """('BS8 2PH', start, end) for a full UK postcode in the text."""
    for match in POSTCODE.finditer(text):
        outward = match.group(1).upper()
        if outward.startswith("FB"):
            continue
        return f"{outward} {match.group(2).upper()}", match.start(), match.end()
    return None


def find_phone(text: str) -> str | None:
    match = PHONE.search(text)
    if not match:
        return None
    digits = re.sub(r"\D", "", match.group(0))
    if digits.startswith("44"):
        digits = "0" + digits[2:]
    return f"{digits[:5]} {digits[5:]}"


CITY = re.compile(r",?\s*\b(?:bristol|avon|uk|england)\b\s*,?\s*$", re.I)


def find_address_line(text: str) -> str | None:
    """The first line of an address given before its postcode ('5 Whiteladies Road')."""
    found = find_postcode(text)
    if found is None:
        return None
    before = text[:found[1]]
    match = re.search(r"((?:flat|apartment|apt|unit)\s+\w+,?\s+)?\d+[a-z]?,?\s+[A-Za-z][\w' .,-]*$",
                      before, re.I)
    if match is None:
        return None
    line = match.group(0)
    line = CITY.sub("", line.strip()).strip(" ,.")
    line = CITY.sub("", line).strip(" ,.")
    return line or None


NOT_CODES = {"flat", "unit", "last", "apt", "apartment", "house", "card", "account", "order",
             "number", "slot", "item", "step"}
VOUCHER_CUE = re.compile(r"voucher|code|promo|coupon|discount", re.I)


def find_vouchers(text: str) -> list[str]:
    """Voucher codes: letters then digits (SAVE5), in capitals or named as a code."""
    codes = []
    cue = VOUCHER_CUE.search(text) is not None
    for match in VOUCHER.finditer(text):
        letters = match.group(1)
        if letters.lower() in NOT_CODES or letters.upper().startswith("FB"):
            continue
        if cue or letters.isupper():
            codes.append((letters + match.group(2)).upper())
    return codes


# -- numbers and quantities -----------------------------------------------------------------------
def normalize(text: str) -> str:
    """Lower case, plain dashes, number words as digits, time ranges as 'H-H'."""
    text = text.lower().replace("–", "-").replace("—", " - ").replace("’", "'")
    text = re.sub(r"\bhalf a dozen\b", "6", text)
    text = re.sub(r"\b(?:a|one) dozen\b", "12", text)
    text = re.sub(r"\b(\w+) dozen\b", lambda m: str(NUMBER_WORDS.get(m.group(1), 1) * 12)
                  if m.group(1) in NUMBER_WORDS else m.group(0), text)
    text = re.sub(r"\b(\w+) and a half\b", lambda m: f"{NUMBER_WORDS[m.group(1)]}.5"
                  if m.group(1) in NUMBER_WORDS else m.group(0), text)
    text = re.sub(r"\b(\d+) and a half\b", r"\1.5", text)
    text = re.sub(r"\bhalf a (kilo|kg|litre|liter)", r"0.5 \1", text)
    text = re.sub(r"\b(?:a|one) (kilo|kg|litre|liter)\b", r"1 \1", text)
    text = re.sub(r"\b(?:a|one) (couple of)\b", "2", text)
    for word, value in NUMBER_WORDS.items():
        text = re.sub(rf"\b{word}\b", str(value), text)
    text = re.sub(r"\b(\d+)\s*(?:grammes|grams|gram|gr)\b", r"\1 g", text)
    text = re.sub(r"\b(\d+(?:\.\d+)?)\s*(?:kilograms|kilogram|kilos|kilo|kgs)\b", r"\1 kg", text)
    text = re.sub(r"\b(\d+(?:\.\d+)?)\s*(?:litres|liters|litre|liter|ltr|ltrs)\b", r"\1 l", text)
    text = re.sub(r"\b(\d+)\s*(?:millilitres|milliliters|ml)\b", r"\1 ml", text)
    text = re.sub(r"\bbetween (\d{1,2}(?:[:.]\d\d)?)\s*(am|pm)? and (\d{1,2})", r"\1\2-\3", text)
    text = re.sub(r"\b(\d{1,2}(?:[:.]\d\d)?)\s*(am|pm)?\s*(?:to|till|until|-)\s*(\d{1,2})"
                  r"(?=\s*(?:am|pm|a\.m|p\.m|o'clock|in the|at night|tonight|\b(?!\s*(?:kg|g|l|"
                  r"ml)\b)))", r"\1\2-\3", text)
    return re.sub(r"\s+", " ", text)


UNIT = r"(kg|g|l|ml|box(?:es)?|packs?|bags?|bottles?|x)?"
QTY = re.compile(rf"(?<![\w.£:/-])(\d+(?:\.\d+)?)\s*{UNIT}(?![\w/:-])")


def quantities(text: str) -> list[tuple[float, str | None, int]]:
    """(value, unit, position) for each quantity in normalized text, without times and money."""
    text = re.sub(r"\d{1,2}(?::\d\d)?\s*(?:am|pm)?-\d{1,2}\s*(?:am|pm)?", " ", text)
    text = re.sub(r"\b\d{1,2}(?::\d\d)?\s*(?:am|pm|o'clock)", " ", text)
    text = re.sub(r"\d+(?:st|nd|rd|th)\b", " ", text)
    found = []
    for match in QTY.finditer(text):
        unit = match.group(2)
        if unit and unit.startswith("box"):
            unit = "box"
        elif unit and unit[0] in "pb" and unit != "box":
            unit = "pack"
        found.append((float(match.group(1)), unit if unit != "x" else None, match.start()))
    return found


def convert(value: float, unit: str | None, product_unit: str, step: float) -> float | None:
    """A quantity said by the customer in the product's own unit; None when it cannot be."""
    if unit in (None, product_unit):
        if product_unit == "g" and unit is None and value <= 10:
            return value * step  # "2 packs of mince" said as "2 mince"
        return value
    table = {("g", "kg"): 0.001, ("kg", "g"): 1000, ("ml", "l"): 0.001, ("l", "ml"): 1000}
    if (unit, product_unit) in table:
        return round(value * table[(unit, product_unit)], 3)
    if unit in ("box", "pack") and product_unit in ("each", "g"):
        return value * step
    return None


# -- dates -----------------------------------------------------------------------------------------
def _ordinal_day(today: date, day_number: int) -> date | None:
    year, month = today.year, today.month
    for _ in range(2):
        try:
            candidate = date(year, month, day_number)
        except ValueError:
            candidate = None
        if candidate and candidate >= today:
            return candidate
        month = month + 1 if month < 12 else 1
        year = year + 1 if month == 1 else year
    return None


MONTHS_RE = "|".join(MONTH_NAMES) + "|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec"


def find_dates(text: str, today: date) -> list[tuple[date, int, int]]:
    """(date, start, end) for every date said in normalized text, read against `today`."""
    found: list[tuple[date, int, int]] = []

    def add(day: date | None, m: re.Match[str]) -> None:
        if day is None or any(a <= m.start() < b or m.start() <= a < m.end()
                              for _, a, b in found):
            return
        found.append((day, m.start(), m.end()))

    for m in re.finditer(r"\b(\d{4})-(\d\d)-(\d\d)\b", text):
        add(_safe_date(int(m.group(1)), int(m.group(2)), int(m.group(3))), m)
    for m in re.finditer(r"\b(\d{1,2})/(\d{1,2})(?:/(\d{2,4}))?\b", text):
        year = int(m.group(3)) if m.group(3) else today.year
        add(_safe_date(year + 2000 if year < 100 else year, int(m.group(2)), int(m.group(1))), m)
    for m in re.finditer(rf"\b(?:(monday|tuesday|wednesday|thursday|friday|saturday|sunday),?\s+)?"
                         rf"(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({MONTHS_RE})\b",
                         text):
        add(_month_day(today, m.group(3), int(m.group(2))), m)
    for m in re.finditer(rf"\b({MONTHS_RE})\s+(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th)?\b", text):
        add(_month_day(today, m.group(1), int(m.group(2))), m)
    for m in re.finditer(r"\b(?:(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday),?"
                         r"\s+)?(?:the\s+(\d{1,2})(?:st|nd|rd|th)?|(\d{1,2})(?:st|nd|rd|th))\b",
                         text):
        add(_ordinal_day(today, int(m.group(1) or m.group(2))), m)
    for m in re.finditer(r"\bday after tomorrow\b", text):
        add(today + timedelta(days=2), m)
    for m in re.finditer(r"\b(today|tonight|this (?:evening|afternoon|morning))\b", text):
        add(today, m)
    for m in re.finditer(r"\btomorrow\b", text):
        add(today + timedelta(days=1), m)
    for m in re.finditer(r"\b(?:(this|next|coming|on)\s+)?(monday|tuesday|wednesday|thursday|"
                         r"friday|saturday|sunday)\b", text):
        add(_weekday(today, WEEKDAY_NAMES.index(m.group(2)), m.group(1)), m)
    found.sort(key=lambda f: f[1])
    return found


def _safe_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _weekday(today: date, weekday: int, qualifier: str | None) -> date:
    ahead = (weekday - today.weekday()) % 7 or 7
    day = today + timedelta(days=ahead)
    if qualifier == "next":
        # "next Friday" is the Friday of next week when this week's Friday is still to come.
        this_week_end = today + timedelta(days=6 - today.weekday())
        if day <= this_week_end:
            day += timedelta(days=7)
    return day


def _month_day(today: date, month_name: str, day_number: int) -> date | None:
    month = next(i for i, name in enumerate(MONTH_NAMES, 1) if name.startswith(month_name[:3]))
    year = today.year if month >= today.month else today.year + 1
    return _safe_date(year, month, day_number)


# -- times -----------------------------------------------------------------------------------------
EVENING = re.compile(r"\b(pm|p\.m|evening|tonight|night|afternoon|dinner|after work)\b")
MORNING = re.compile(r"\b(am|a\.m|morning|breakfast)\b")


def find_times(text: str) -> list[dict[str, object]]:
    """Slot times in normalized text: {hour (0-23 or None if am/pm unclear), raw, minute, pos}.

    `hour` is the 24-hour start; `ambiguous` is set for 8-11 said without am/pm or a part of
    the day; `half` for a time on the half hour ("half past ten").
    """
    times: list[dict[str, object]] = []
    taken: list[tuple[int, int]] = []
    text = re.sub(r"\d{4}-\d\d-\d\d|\d{1,2}/\d{1,2}(?:/\d{2,4})?", lambda m: " " * len(m.group(0)),
                  text)

    def add(start: int, end: int, hour: int, minute: int, suffix: str | None) -> None:
        if any(a <= start < b for a, b in taken):
            return
        taken.append((start, end))
        tail = text[end:end + 30]
        times.append({"raw_hour": hour, "minute": minute, "suffix": suffix, "pos": start,
                      "tail": tail})

    for m in re.finditer(r"\b(noon|midday)\b", text):
        add(m.start(), m.end(), 12, 0, "pm")
    for m in re.finditer(r"\bhalf past (\d{1,2})\s*(am|pm)?", text):
        add(m.start(), m.end(), int(m.group(1)), 30, m.group(2))
    for m in re.finditer(r"\bquarter (past|to) (\d{1,2})\s*(am|pm)?", text):
        hour = int(m.group(2)) - (1 if m.group(1) == "to" else 0)
        add(m.start(), m.end(), hour, 15 if m.group(1) == "past" else 45, m.group(3))
    for m in re.finditer(r"\b(\d{1,2})(?:[:.](\d\d))?\s*(am|pm|a\.m\.?|p\.m\.?)?-(\d{1,2})"
                         r"(?:[:.]\d\d)?\s*(am|pm|a\.m\.?|p\.m\.?)?", text):
        suffix = (m.group(3) or m.group(5) or "")[:1]
        suffix_full = {"a": "am", "p": "pm"}.get(suffix)
        start_hour = int(m.group(1))
        if m.group(3) is None and m.group(5) == "pm" and int(m.group(4)) == 12:
            suffix_full = "am"  # 11-12 pm is 11 am to noon
        add(m.start(), m.end(), start_hour, int(m.group(2) or 0), suffix_full)
    for m in re.finditer(r"\b(\d{1,2})(?:[:.](\d\d))?\s*(am|pm|a\.m\.?|p\.m\.?|o'clock)", text):
        suffix = m.group(3)
        full = "am" if suffix.startswith("a") else "pm" if suffix.startswith("p") else None
        add(m.start(), m.end(), int(m.group(1)), int(m.group(2) or 0), full)
    for m in re.finditer(r"\b([01]?\d|2[0-3]):(\d\d)\b", text):
        add(m.start(), m.end(), int(m.group(1)), int(m.group(2)), None)
    for m in re.finditer(r"\b(?:at|from|after|around|about|for)\s+(\d{1,2})\b(?!\s*(?:kg|g|l|ml|"
                         r"st|nd|rd|th|of|x|/|\.\d|%|eggs|items))", text):
        add(m.start(1), m.end(), int(m.group(1)), 0, None)
    for t in times:
        t["hour"], t["ambiguous"] = _to_24(t, text)
    times.sort(key=lambda t: int(str(t["pos"])))
    return times


def _to_24(t: dict[str, object], text: str) -> tuple[int | None, bool]:
    raw = int(str(t["raw_hour"]))
    suffix = t["suffix"]
    if raw > 12:
        return raw, False
    if suffix == "pm":
        return (raw % 12) + 12, False
    if suffix == "am":
        return raw % 12, False
    if raw == 12:
        return 12, False
    context = text[int(str(t["pos"])):int(str(t["pos"])) + 40] + " " + text
    evening, morning = bool(EVENING.search(context)), bool(MORNING.search(context))
    if 1 <= raw <= 7:
        return raw + 12, False
    if evening and not morning:
        return raw + 12, False
    if morning and not evening:
        return raw, False
    return None, True


# -- answers ---------------------------------------------------------------------------------------
HEDGE = re.compile(r"\b(not yet|wait|hold on|hang on|hm+|let me think|not sure|one (?:sec|moment)|"
                   r"give me a (?:sec|second|moment|minute)|i'm not sure|maybe later|"
                   r"let me check)\b")
NO = re.compile(r"^\W*(no|nope|nah|don't|do not|never mind|leave it|actually no|no thanks|"
                r"cancel that|stop)\b(?!\s+(?:problem|worries))")
YES = re.compile(r"\b(yes|yeah|yep|yup|yea|sure|please do|go ahead|go for it|do it|do that|"
                 r"ok|okay|fine|confirm(?:ed)?|correct|that's right|sounds good|perfect|great|"
                 r"absolutely|lovely|brilliant|please|alright|all right|happy with that|"
                 r"that works|agreed|definitely|of course)\b")


def answer(text: str) -> str | None:
    """'yes', 'no', 'hedge' or None for a reply to a yes/no question."""
    low = normalize(text)
    if HEDGE.search(low):
        return "hedge"
    if NO.search(low):
        return "no"
    if YES.search(low):
        return "yes"
    return None


CLOSING = re.compile(r"\b(that's all|that is all|nothing else|that's everything|no,? thanks?|"
                     r"thank you|thanks|bye|goodbye|cheers)\b")
