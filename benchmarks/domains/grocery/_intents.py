"""What a customer asks for: one message read into a list of requests (plain dicts, JSON-safe).

A request is `{"kind": ..., ...}` with kind `item`, `subs`, `slot`, `cancel`, `claim`,
`voucher`, `address`, `phone` or `view`. A fallback ("if that's full, 8-9 pm") is kept on the
request it belongs to as `fallback`.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from benchmarks.domains.grocery._text import (
    EMAIL,
    ORDER_ID,
    PHONE,
    WEEKDAY_NAMES,
    find_address_line,
    find_dates,
    find_phone,
    find_postcode,
    find_times,
    find_vouchers,
    normalize,
    quantities,
)

Request = dict[str, Any]

PRODUCTS: list[tuple[str, str]] = [
    (r"oat milk|oat drink", "oat milk"),
    (r"whole milk|full[- ]fat milk", "whole milk"),
    (r"semi[- ]?skimmed(?: milk)?", "semi-skimmed milk"),
    (r"\bmilk\b", "milk"),
    (r"\b(?:maris piper )?potato(?:e?s)?\b|\bspuds\b", "potatoes"),
    (r"\bcarrots?\b", "carrots"),
    (r"\beggs?\b", "eggs"),
    (r"\bcheddar\b|\bcheese\b", "cheddar"),
    (r"\b(?:beef )?mince\b|\bminced beef\b", "mince"),
    (r"\bbananas?\b", "bananas"),
    (r"\bcucumbers?\b", "cucumber"),
    (r"\bsourdough(?: loaf| bread)?\b|\bbread\b|\bloaf\b|\bloaves\b", "sourdough"),
    (r"\b(?:greek )?yogh?urts?\b", "yoghurt"),
    (r"\b(?:cherry )?tomato(?:e?s)?\b", "tomatoes"),
    (r"\bsalmon(?: fillets?)?\b", "salmon"),
    (r"\bavocados?\b", "avocados"),
    (r"\b(?:basmati )?rice\b", "rice"),
    (r"\b(?:red )?onions?\b", "onions"),
    (r"\bstrawberr(?:y|ies)\b", "strawberries"),
    (r"\bbutter\b", "butter"),
    (r"\b(?:braeburn )?apples?\b", "apples"),
    (r"\b(?:frozen )?peas\b", "peas"),
]

FALLBACK = re.compile(
    r"(?:[,;.]|\band\b)?\s*(?:\bif\b(?P<cond>[^,;.]*?\b(?:full|taken|booked|available|free|"
    r"possible|can't|cannot|can not|couldn't|won't|doesn't|isn't|aren't|not|out of stock|"
    r"sold out|expired|none|no)\b[^,;.]*?)(?:,|\bthen\b|;|\.| - )\s*(?:then\s+)?|"
    r"\b(?:otherwise|failing that|or else|if not|else)\b,?\s*(?:then\s+)?)"
    r"(?P<alt>(?:[^.;!?]|\.(?=\d))*)")
SPLIT = re.compile(r"\s*(?:[;!?]|\.(?!\d)|,\s*(?:and\s+)?|\band\b|\balso\b|\bplus\b|"
                   r"\bas well as\b)\s*")

REMOVE = re.compile(r"\b(remove|take\b.{0,30}?\b(?:off|out)|drop|delete|don't want|do not want|"
                    r"no longer (?:want|need)|don't need|do not need|get rid of|cancel|"
                    r"scrap|lose the)\b")
INCREASE = re.compile(r"(?<!any )(?<!no )\b(more|another(?! (?:way|thing|question|time|"
                      r"day|slot|order|delivery))|extra|additional|on top)\b")
ADD = re.compile(r"\b(add|include|throw in|put in|also get|pop in)\b")
SUBS = re.compile(r"substitut|\bswaps?\b|\breplacements?\b|\balternatives?\b")
NEGATIVE = re.compile(r"\b(no|not|don't|do not|never|without|none|nothing|rather not|avoid|"
                      r"stop|turn off|switch off|can't have|shouldn't)\b")
ALL_ITEMS = re.compile(r"\b(anything|everything|nothing|all|whole|entire|any item|any of|"
                       r"the order|my order|none of)\b")
MOVE = re.compile(r"\b(move|moving|change|switch|reschedule|rebook|push|bring|put|swap|"
                  r"deliver|delivered|come|arrive|book|instead|later|earlier|slot)\b")
CANCEL = re.compile(r"\bcancel(?:l?ing|l?ed)?\b|\bdon't need (?:the|my) (?:order|delivery)\b")
ORDER_WORD = re.compile(r"\b(order|delivery|shop|shopping|it|everything|whole thing|booking)\b")
MISSING = re.compile(r"\b(missing|didn't (?:arrive|come|turn up)|did not (?:arrive|come)|"
                     r"wasn't (?:there|in|included|delivered)|weren't (?:there|in|included|"
                     r"delivered)|never (?:arrived|came|turned up)|not (?:there|in the bags?|"
                     r"delivered|included)|left out|short|no sign of|didn't get|did not get|"
                     r"never got|forgot)\b")
DAMAGED = re.compile(r"\b(damaged|broken|smashed|cracked|crushed|squashed|leak(?:ing|ed|y)|"
                     r"split|burst|mouldy|moldy|rotten|gone off|bruised|spoil(?:ed|t)|"
                     r"dented|torn|ripped|out of date|past (?:its|their) date)\b")
CARD = re.compile(r"\b(refund|money back|back to (?:my|the) card|to my card|on my card|"
                  r"card)\b")
CREDIT = re.compile(r"\bcredit\b")
VIEW = re.compile(r"\b(what'?s in|what is in|what did i order|what have i ordered|check my "
                  r"order|when is my|when will my|what time is|status of|look at my order|"
                  r"details of|still coming|still on for|where is my|is my (?:order|delivery|"
                  r"shopping) (?:still|coming|on))\b")
SWAP = re.compile(r"\b(swap|replace|switch|change|exchange)\b.*\b(for|with|to|into)\b")
POSSESSIVE = re.compile(r"^\s*(?:'s|s)?\s*(?:delivery|order|slot|shop|one|booking)\b")


def product_mentions(text: str) -> list[tuple[str, int, int]]:
    """(search query, start, end) of each product named in normalized text."""
    found: list[tuple[str, int, int]] = []
    for pattern, query in PRODUCTS:
        for m in re.finditer(pattern, text):
            if any(a <= m.start() < b or m.start() <= a < m.end() for _, a, b in found):
                continue
            found.append((query, m.start(), m.end()))
    found.sort(key=lambda f: f[1])
    return found


def _mask(text: str, spans: list[tuple[int, int]]) -> str:
    for start, end in sorted(spans, reverse=True):
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def _past_date(text: str, today: date) -> str | None:
    if re.search(r"\b(yesterday|last night)\b", text):
        return (today - timedelta(days=1)).isoformat()
    if re.search(r"\b(this morning|today|earlier today)\b", text):
        return today.isoformat()
    m = re.search(r"\b(?:on |last )?(monday|tuesday|wednesday|thursday|friday|saturday|"
                  r"sunday)\b", text)
    if m:
        back = (today.weekday() - WEEKDAY_NAMES.index(m.group(1))) % 7 or 7
        return (today - timedelta(days=back)).isoformat()
    m = re.search(r"\b(?:the )?(\d{1,2})(?:st|nd|rd|th)\b", text)
    if m and int(m.group(1)) <= today.day:
        return today.replace(day=int(m.group(1))).isoformat()
    return None


# -- the message as a whole ------------------------------------------------------------------------
def parse_message(message: str, today: date, *, context: str | None = None) -> list[Request]:
    """Every request in one customer message, in the order said."""
    requests: list[Request] = []
    spans: list[tuple[int, int]] = [m.span() for m in EMAIL.finditer(message)]
    spans += [m.span() for m in ORDER_ID.finditer(message)]
    postcode = find_postcode(_mask(message, spans))
    if postcode:
        line = find_address_line(_mask(message, spans))
        start = message.lower().rfind(line.lower(), 0, postcode[1]) if line else -1
        spans.append((start if start >= 0 else postcode[1], postcode[2]))
        requests.append({"kind": "address", "address_line": line, "postcode": postcode[0],
                         "pos": max(start, 0)})
    phone = find_phone(_mask(message, spans))
    if phone:
        m = PHONE.search(_mask(message, spans))
        assert m is not None
        spans.append(m.span())
        requests.append({"kind": "phone", "phone": phone, "pos": m.start()})
    codes = find_vouchers(_mask(message, spans))
    if codes:
        first = re.search(codes[0], message, re.I)
        requests.append({"kind": "voucher", "codes": codes, "pos": first.start() if first else 0})
        for code in codes:
            spans += [m.span() for m in re.finditer(re.escape(code), message, re.I)]
    text = normalize(_mask(message, spans))
    requests += _parse_text(text, today, context)
    requests.sort(key=lambda r: r.pop("pos", 0))
    return _merge(requests)


def _merge(requests: list[Request]) -> list[Request]:
    """Drop exact repeats said twice in one message."""
    out: list[Request] = []
    for r in requests:
        if r not in out:
            out.append(r)
    return out


def _parse_text(text: str, today: date, context: str | None) -> list[Request]:
    fallback_text = None
    m = FALLBACK.search(text)
    main, cond = text, ""
    if m and m.group("alt").strip():
        fallback_text = m.group("alt").strip()
        main, cond = text[:m.start()], m.group("cond") or ""
    requests: list[Request] = []
    position = 0
    for segment in SPLIT.split(main):
        segment = segment.strip()
        if segment:
            where = text.find(segment, position)
            position = max(where, position)
            _read_segment(segment, today, requests, context, position)
    if cond.strip():
        _merge_condition(requests, cond, today, context, m.start() if m else 0)
    if fallback_text and requests:
        _attach_fallback(requests, fallback_text, today)
    elif fallback_text and context:
        _read_segment(fallback_text, today, requests, context, len(text))
    return requests


def _merge_condition(requests: list[Request], cond: str, today: date, context: str | None,
                     pos: int) -> None:
    """'If 7-8 pm on Friday is full, ...': the condition may name the first choice."""
    said: list[Request] = []
    _read_segment(cond.strip(), today, said, context or (requests[-1]["kind"] if requests
                                                           else None), pos)
    for req in said:
        same = next((r for r in requests if r["kind"] == req["kind"]
                     and r.get("product") == req.get("product")), None)
        if same is None:
            if req["kind"] == "slot" or (req["kind"] == "item" and req.get("qty") is not None):
                requests.append(req)
            continue
        for key, value in req.items():
            if value is not None and same.get(key) is None:
                same[key] = value


def _attach_fallback(requests: list[Request], alt: str, today: date) -> None:
    target = requests[-1]
    kind = target["kind"]
    if kind == "slot":
        fb = _slot_fields(alt, today)
        if fb.get("hour") is not None or fb.get("date"):
            target["fallback"] = fb
    elif kind == "item":
        sub: list[Request] = []
        _read_segment(alt, today, sub, "item", 0)
        if sub and sub[0]["kind"] == "item":
            target["fallback"] = {k: v for k, v in sub[0].items() if k != "pos"}
    elif kind == "claim":
        if CREDIT.search(alt):
            target["fallback_resolution"] = "credit"
        elif CARD.search(alt):
            target["fallback_resolution"] = "card"


# -- one segment -----------------------------------------------------------------------------------
def _read_segment(seg: str, today: date, out: list[Request], context: str | None,
                  pos: int) -> None:
    products = product_mentions(seg)
    previous = out[-1] if out else None
    if VIEW.search(seg) and not products:
        out.append({"kind": "view", "pos": pos})
        return
    if len(products) >= 2 and SWAP.search(seg) and not MISSING.search(seg):
        _swap(seg, products, out, pos)
        return
    if MISSING.search(seg) or DAMAGED.search(seg) or (context == "claim" and products
                                                       and not ADD.search(seg)):
        _claim(seg, today, products, out, pos)
        return
    if SUBS.search(seg):
        _subs(seg, products, out, pos)
        return
    if CANCEL.search(seg) and not products and ORDER_WORD.search(seg):
        out.append({"kind": "cancel", "pos": pos})
        return
    if products:
        _items(seg, products, out, previous, pos)
        return
    if _resolution_only(seg, previous):
        return
    if _slot_like(seg, context, previous):
        fields = _slot_fields(seg, today)
        if previous and previous["kind"] == "slot" and _fills(previous, fields):
            return
        out.append({"kind": "slot", **fields, "pos": pos})
        return
    _quantity_only(seg, previous)


def _swap(seg: str, products: list[tuple[str, int, int]], out: list[Request], pos: int) -> None:
    """'Swap the semi-skimmed for whole milk': one item off, the other on in its place."""
    first, second = products[0], products[1]
    found = [q for q in quantities(seg) if q[2] > first[2]]
    out.append({"kind": "item", "product": first[0], "op": "remove", "qty": None, "unit": None,
                "pos": pos})
    out.append({"kind": "item", "product": second[0], "op": "set",
                "qty": found[0][0] if found else None, "unit": found[0][1] if found else None,
                "like": first[0], "pos": pos})


def _resolution_only(seg: str, previous: Request | None) -> bool:
    if previous is None or previous["kind"] != "claim":
        return False
    for pattern, value in ((CREDIT, "credit"), (CARD, "card")):
        if pattern.search(seg):
            if previous.get("resolution") is None:
                previous["resolution"] = value
            return True
    return False


def _slot_like(seg: str, context: str | None, previous: Request | None) -> bool:
    if re.search(r"\b(address|phone|mobile|number|email|voucher|code)\b", seg):
        return False
    times = find_times(seg)
    dates = find_dates(seg, date(2000, 1, 3))
    if times:
        return True
    if dates and (MOVE.search(seg) or context == "slot"
                  or (previous is not None and previous["kind"] == "slot")):
        return True
    return bool(MOVE.search(seg) and re.search(r"\b(delivery|slot|deliver)\b", seg))


def _fills(previous: Request, fields: Request) -> bool:
    """Add a date or time said in its own segment to the slot request before it."""
    filled = False
    for key in ("date", "hour", "ambiguous_hour", "half", "range_end"):
        if fields.get(key) is not None and previous.get(key) is None:
            previous[key] = fields[key]
            filled = True
    if filled and previous.get("hour") is not None:
        previous.pop("ambiguous_hour", None)
    return filled or not any(fields.get(k) is not None for k in ("date", "hour",
                                                                 "ambiguous_hour"))


def _quantity_only(seg: str, previous: Request | None) -> None:
    if previous is None or previous["kind"] != "item" or previous.get("qty") is not None:
        return
    found = quantities(seg)
    if found:
        previous["qty"], previous["unit"] = found[-1][0], found[-1][1]


def slot_fields(seg: str, today: date) -> Request:
    """Public: the date and hour said in a piece of text (for answers to questions)."""
    return _slot_fields(normalize(seg), today)


def _slot_fields(seg: str, today: date) -> Request:
    fields: Request = {}
    dates = find_dates(seg, today)
    new_dates = []
    for day, start, end in dates:
        before = seg[max(0, start - 6):start]
        if POSSESSIVE.match(seg[end:]) or re.search(r"\bfrom\s*$", before):
            fields["order_date"] = day.isoformat()
        else:
            new_dates.append(day)
    if new_dates:
        fields["date"] = new_dates[-1].isoformat()
    times = find_times(seg)
    part = re.search(r"\b(morning|afternoon|evening|tonight|night)\b", seg)
    if part and not times:
        fields["part"] = {"tonight": "evening", "night": "evening"}.get(part.group(1),
                                                                          part.group(1))
    if times:
        chosen = times[-1] if len(times) > 1 and re.search(r"\bto\b", seg) else times[0]
        if len(times) > 1 and POSSESSIVE.match(chosen["tail"]):
            chosen = times[0]
        if chosen["hour"] is None:
            fields["ambiguous_hour"] = chosen["raw_hour"]
        else:
            fields["hour"] = chosen["hour"]
        if chosen["minute"]:
            fields["half"] = True
        m = re.search(r"(\d{1,2})\s*(?:am|pm)?-(\d{1,2})", seg[int(chosen["pos"]):][:12])
        if m and (int(m.group(2)) - int(m.group(1))) % 12 > 1:
            fields["range_end"] = int(m.group(2))
    return fields


def _claim(seg: str, today: date, products: list[tuple[str, int, int]], out: list[Request],
           pos: int) -> None:
    problem = "damaged" if DAMAGED.search(seg) else "missing"
    resolution = "credit" if CREDIT.search(seg) else "card" if CARD.search(seg) else None
    # "6 of the 12 eggs": the 12 is how many there were, not how many were damaged
    found = quantities(re.sub(r"\b(of|out of)\s+(the |my |those |these |our )?\d+(?:\.\d+)?\b",
                              r"\1 \2", seg))
    if not products:
        previous = out[-1] if out else None
        if previous and previous["kind"] == "claim" and previous.get("product") is None:
            previous["problem"] = problem
            return
        out.append({"kind": "claim", "problem": problem, "product": None, "qty": None,
                    "unit": None, "resolution": resolution, "when": _past_date(seg, today),
                    "pos": pos})
        return
    for query, start, _ in products:
        qty = _nearest(found, start)
        out.append({"kind": "claim", "problem": problem, "product": query,
                    "qty": qty[0] if qty else None, "unit": qty[1] if qty else None,
                    "resolution": resolution, "when": _past_date(seg, today), "pos": pos})


def _nearest(found: list[tuple[float, str | None, int]],
             start: int) -> tuple[float, str | None] | None:
    """The quantity said for a product: the closest one before it, or just after it."""
    before = [f for f in found if f[2] < start]
    if before:
        return before[-1][0], before[-1][1]
    after = [f for f in found if f[2] > start]
    return (after[0][0], after[0][1]) if after else None


def _subs(seg: str, products: list[tuple[str, int, int]], out: list[Request], pos: int) -> None:
    allowed = not NEGATIVE.search(seg)
    if re.search(r"\b(fine|happy|ok|okay|allow|welcome)\b", seg) and not re.search(
            r"\b(no|not|don't|never)\b[^.]*\b(fine|happy|ok|okay)\b", seg):
        allowed = allowed or not re.search(r"\b(no|don't|never)\b", seg)
    if products and not (ALL_ITEMS.search(seg) and not products):
        for query, _, _ in products:
            out.append({"kind": "subs", "product": query, "allowed": allowed, "pos": pos})
    else:
        out.append({"kind": "subs", "product": None, "allowed": allowed, "pos": pos})


def _items(seg: str, products: list[tuple[str, int, int]], out: list[Request],
           previous: Request | None, pos: int) -> None:
    seg_main = re.split(r"\binstead of\b|\brather than\b", seg)[0]
    seg_main = re.sub(r"\bfrom \d+(?:\.\d+)?\s*(?:kg|g|l|ml)?\s*(?=to\b)", " ", seg_main)
    found = quantities(seg_main)
    op = _op(seg, previous)
    for index, (query, start, _) in enumerate(products):
        qty = _nearest(found, start) if index == 0 or len(found) > 1 else None
        if op != "remove" and len(products) == 1:
            to = re.search(r"\bto (\d+(?:\.\d+)?)\s*(kg|g|l|ml)?", seg_main)
            if to:
                qty = (float(to.group(1)), to.group(2))
        out.append({"kind": "item", "product": query, "op": op,
                    "qty": None if op == "remove" else (qty[0] if qty else None),
                    "unit": None if op == "remove" or not qty else qty[1], "pos": pos})


def _op(seg: str, previous: Request | None) -> str:
    if REMOVE.search(seg) or re.search(r"\b(?:no|zero|0) (?:more )?\w+$", seg):
        return "remove"
    if INCREASE.search(seg):
        return "increase"
    if ADD.search(seg):
        return "add"
    if re.search(r"\b(change|make|set|update|to \d|want|need|like|have|get|order)\b", seg):
        return "set"
    if previous is not None and previous["kind"] == "item":
        return str(previous["op"])
    return "set"
