"""What a customer's message says: numbers, PINs, amounts, answers, places, addresses."""

from __future__ import annotations

import re
from datetime import date

from benchmarks.domains.mobile import _dates as dates
from benchmarks.domains.mobile._rules import normalize_phone, normalize_postcode

_UNITS = {
    "zero": 0, "oh": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19,
}
_TENS = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
    "eighty": 80, "ninety": 90,
}
_NUM_WORD = r"(?:" + "|".join(sorted([*_UNITS, *_TENS], key=len, reverse=True)) + r")"
_NUMBER_PHRASE = re.compile(
    r"\b(?:" + _NUM_WORD + r"(?:[\s-]+" + _NUM_WORD + r")*(?:\s+hundred(?:\s+(?:and\s+)?"
    + _NUM_WORD + r"(?:[\s-]+" + _NUM_WORD + r")?)?)?)\b"
)
_CORRECTION = re.compile(
    r"\b(sorry|i mean|i meant|meant to say|correction|actually|my mistake|typo|scratch that|"
    r"not \S+ but|rather)\b"
)
_DONT_KNOW = re.compile(
    r"\b(don'?t know|do not know|don'?t have|do not have|can'?t remember|cannot remember|"
    r"forgot|forgotten|no idea|not sure what|never set|don'?t remember|haven'?t got)\b"
)


def words_to_number(phrase: str) -> int | None:
    """'twenty-eight' -> 28, 'one hundred and five' -> 105 (None when it is not a number)."""
    total, current, seen = 0, 0, False
    for word in re.split(r"[\s-]+", phrase.lower().strip()):
        if word in _UNITS:
            current += _UNITS[word]
        elif word in _TENS:
            current += _TENS[word]
        elif word == "hundred":
            current = max(current, 1) * 100
        elif word == "and":
            continue
        else:
            return None
        seen = True
    return total + current if seen else None


def spell_numbers(text: str) -> str:
    """Number words to digits ("twelve pounds fifty" -> "12 pounds 50"), ordinals kept apart."""
    def swap(match: re.Match[str]) -> str:
        value = words_to_number(match.group(0))
        return match.group(0) if value is None or match.group(0).lower() == "oh" else str(value)

    return _NUMBER_PHRASE.sub(swap, text)


def is_correction(text: str) -> bool:
    """The customer is taking back something they said."""
    return bool(_CORRECTION.search(text.lower()))


def says_dont_know(text: str) -> bool:
    """'I don't know my PIN', 'I've forgotten it'."""
    return bool(_DONT_KNOW.search(text.lower()))


# -- identity ----------------------------------------------------------------------------

_PHONE = re.compile(r"(?<![\d])(?:\+?44[\s-]?\(?0?\)?[\s-]?7|07)(?:[\s-]?\d){9}(?!\d)")


def phones(text: str) -> list[str]:
    """UK mobile numbers in the message, normalised, in order."""
    found: list[str] = []
    for match in _PHONE.finditer(text):
        number = normalize_phone(match.group(0))
        if number.startswith("07") and len(number) == 11 and number not in found:
            found.append(number)
    return found


_THIRD_PARTY = re.compile(
    r"\b(?:brother|sister|son|daughter|wife|husband|partner|mum|mom|mother|dad|father|friend|"
    r"cousin|aunt|uncle|gran|grandma|grandad|grandpa|colleague|flatmate|boss|neighbour|his|her|"
    r"their|someone|somebody|he|she)(?:'s|s'|s|’s)?\b"
)
_OWN = re.compile(
    r"\b(?:my (?:own )?(?:number|phone|mobile|line|account|no\.?)|number is|mine is|i'?m on|"
    r"account (?:number )?is|on the account|my account|it'?s|its|i am|i'?m)\b"
)


def phone_roles(text: str) -> list[tuple[str, str]]:
    """Each number with who it seems to belong to: 'own', 'other' (a third party) or 'unknown'."""
    low = text.lower()
    roles: list[tuple[str, str]] = []
    for match in _PHONE.finditer(low):
        number = normalize_phone(match.group(0))
        if not (number.startswith("07") and len(number) == 11) or number in dict(roles):
            continue
        before = re.split(r"[.!?;]|\band\b|\bbut\b|\balso\b", low[max(0, match.start() - 40):
                                                                       match.start()])[-1]
        if _OWN.search(before) and not _THIRD_PARTY.search(before):
            roles.append((number, "own"))
        elif _THIRD_PARTY.search(before):
            roles.append((number, "other"))
        else:
            roles.append((number, "unknown"))
    return roles


def _strip_phones(text: str) -> str:
    return _PHONE.sub(" ", text)


def pins(text: str, *, expecting: bool = False) -> list[str]:
    """4-digit account PINs: after the word PIN, or any lone 4 digits when one was asked for."""
    low = _strip_phones(text.lower())
    months = "|".join(dates.MONTHS)
    low = re.sub(
        r"\b\d{1,2}[/.-]\d{1,2}[/.-](?:19|20)\d\d\b|\b(?:19|20)\d\d-\d\d-\d\d\b"
        rf"|\b(?:{months})\.?(?:\s+\d{{1,2}}(?:st|nd|rd|th)?)?,?\s+(?:19|20)\d\d\b",
        " ", low,
    )
    said = re.findall(r"\b(?:pin|passcode|security code|code)\b\D{0,25}?(\d{4})(?!\d)", low)
    if said:
        return said
    spaced = re.findall(r"\bpin\b\D{0,25}?(\d)[\s-](\d)[\s-](\d)[\s-](\d)\b", low)
    if spaced:
        return ["".join(group) for group in spaced]
    if not expecting:
        return []
    return re.findall(r"(?<![\d£.,])(\d{4})(?![\d]|[,.]\d|\s*(?:gb|gig|pounds|p\b))", low)


def birth_dates(text: str, today: date) -> list[date]:
    """Dates of birth said in the message (full dates with a year before 2012)."""
    low = _strip_phones(text.lower())
    return [
        m.day for m in dates.find_dates(low, today)
        if m.day is not None and m.kind == "full" and m.day.year < 2012
    ]


# -- amounts, sizes and answers ----------------------------------------------------------

_AMOUNT = re.compile(
    r"£\s?(?P<a>\d+(?:\.\d{1,2})?)(?:\s*(?:pounds?|quid))?(?:\s+(?P<p1>\d{1,2})\b(?!\s*(?:gb|gig)))?"
    r"|(?P<b>\d+(?:\.\d{1,2})?)\s*(?:pounds?|quid|gbp)(?:\s+(?:and\s+)?(?P<p2>\d{1,2})"
    r"(?:\s*p(?:ence)?)?\b(?!\s*(?:gb|gig)))?"
    r"|(?P<c>\d{1,2})\s*p(?:ence)?\b"
)


def amounts(text: str) -> list[float]:
    """'£12.50', 'twelve pounds fifty', '12.50 quid', '50p' -> [12.5, ...]."""
    low = spell_numbers(_strip_phones(text.lower()))
    found: list[float] = []
    for match in _AMOUNT.finditer(low):
        if match.group("c"):
            found.append(int(match.group("c")) / 100)
            continue
        whole = float(match.group("a") or match.group("b"))
        pence = match.group("p1") or match.group("p2")
        if pence and whole == int(whole):
            whole += int(pence) / (100 if len(pence) == 2 else 10)
        found.append(round(whole, 2))
    return found


def data_sizes(text: str) -> list[int]:
    """'5GB', 'twenty gig', '100 gigabytes' -> [5, 20, 100]; unlimited is 0."""
    low = spell_numbers(text.lower())
    sizes = [int(m) for m in re.findall(r"\b(\d{1,3})\s*(?:gb|gig|gigs|gigabytes?|g)\b", low)]
    if re.search(r"\bunlimited\b", low):
        sizes.append(0)
    return sizes


_YES = re.compile(
    r"\b(yes|yeah|yep|yup|ya|aye|sure|ok|okay|go ahead|go for it|please do|do it|do that|"
    r"confirm(?:ed)?|correct|right|that's fine|that is fine|fine|sounds good|perfect|great|"
    r"absolutely|definitely|of course|proceed|happy with that|i accept|accept|agreed|agree|"
    r"book it|add it|cancel it|send it|that works|lovely|brilliant|please)\b"
)
_NO = re.compile(
    r"\b(no|nope|nah|don'?t|do not|rather not|never ?mind|forget it|cancel that|leave it|"
    r"not interested|stop|too much|too expensive|decline|refuse)\b"
)
_HOLD = re.compile(
    r"\b(not yet|hold on|hold off|wait|hang on|let me think|not sure|unsure|hmm+|maybe later|"
    r"one moment|give me a (?:sec|second|minute)|think about it)\b"
)


def answer(text: str) -> str | None:
    """'yes', 'no', 'hold' (hedged, not yet) or None for a reply to a yes/no question."""
    low = text.lower()
    low = re.sub(
        r"\b(no problem|no worries|no rush|don'?t mind|do not mind|no,? that'?s (?:right|"
        r"correct|fine)|nothing else)\b",
        " ok ", low,
    )
    if _HOLD.search(low):
        return "hold"
    if _NO.search(low):
        return "no"
    if _YES.search(low):
        return "yes"
    return None


def is_closing(text: str) -> bool:
    """'That's all, thanks', 'no, nothing else', 'bye'."""
    low = text.lower()
    return bool(
        re.search(
            r"\b(that'?s (?:all|it|everything)|nothing else|no(?:,)? thanks?|no thank you|bye|"
            r"goodbye|all good|that will be all|that'?ll be all|i'?m done|all sorted)\b",
            low,
        )
    )


# -- places, addresses, days -------------------------------------------------------------

ZONES = {
    "europe": (
        "europe", "european", "eu", "spain", "spanish", "france", "french", "italy", "italian",
        "germany", "german", "portugal", "greece", "greek", "netherlands", "holland", "belgium",
        "ireland", "dublin", "austria", "switzerland", "croatia", "poland", "sweden", "norway",
        "denmark", "finland", "czech", "prague", "hungary", "budapest", "malta", "cyprus",
        "iceland", "paris", "rome", "milan", "venice", "barcelona", "madrid", "lisbon", "porto",
        "amsterdam", "berlin", "munich", "vienna", "athens", "crete", "majorca", "mallorca",
        "ibiza", "tenerife", "canaries", "canary islands", "algarve", "nice", "lyon", "brussels",
        "copenhagen", "stockholm", "oslo", "florence", "sicily", "sardinia", "corfu", "krakow",
    ),
    "usa_canada": (
        "usa", "u.s.", "u.s.a.", "the us", "the states", "united states", "america", "american",
        "canada", "canadian", "new york", "nyc", "florida", "california", "texas", "boston",
        "chicago", "las vegas", "vegas", "los angeles", "san francisco", "miami", "orlando",
        "toronto", "vancouver", "montreal", "hawaii", "washington", "seattle",
    ),
    "world": (
        "japan", "tokyo", "australia", "sydney", "melbourne", "india", "thailand", "bangkok",
        "dubai", "uae", "emirates", "china", "hong kong", "south africa", "cape town", "brazil",
        "mexico", "turkey", "istanbul", "egypt", "morocco", "new zealand", "singapore",
        "vietnam", "kenya", "nigeria", "bali", "indonesia", "sri lanka", "maldives", "peru",
        "argentina", "jamaica", "barbados", "caribbean", "korea", "seoul", "philippines",
        "worldwide", "rest of the world", "asia", "africa", "south america",
    ),
}
ZONE_ADDON = {"europe": "ROAM_EU", "usa_canada": "ROAM_NA", "world": "ROAM_WORLD"}


def zone(text: str) -> tuple[str, str] | None:
    """(zone, place as said) for the first destination named."""
    low = " " + re.sub(r"[^\w.' ]", " ", text.lower()) + " "
    best: tuple[int, str, str] | None = None
    for name, places in ZONES.items():
        for place in places:
            match = re.search(rf"(?<![\w.]){re.escape(place)}(?![\w])", low)
            if match and (best is None or match.start() < best[0]):
                best = (match.start(), name, place)
    if best is None:
        return None
    return best[1], best[2]


_POSTCODE_IN_TEXT = re.compile(r"\b([A-Za-z]{1,2}\d[A-Za-z\d]?\s*\d[A-Za-z]{2})\b")
_ADDRESS_START = re.compile(
    r"\b((?:flat|apartment|apt|unit)\s+\w+,?\s+)?\d{1,4}[a-z]?,?\s+[a-z][\w'’-]*", re.IGNORECASE
)


def postcode(text: str) -> str | None:
    """The first UK postcode in the message, normalised."""
    for match in _POSTCODE_IN_TEXT.finditer(_strip_phones(text)):
        normal = normalize_postcode(match.group(1))
        if normal:
            return normal
    return None


def address(text: str) -> str | None:
    """The street address said (without the postcode): '27 Kingsway, Bristol'."""
    clean = _strip_phones(text)
    code = _POSTCODE_IN_TEXT.search(clean)
    stop = code.start() if code and normalize_postcode(code.group(1)) else len(clean)
    head = clean[:stop]
    cue = re.search(r"(?:address(?: is| to| will be)?|moved to|moving to|now at|live at|"
                    r"living at|it'?s|is)\s*:?\s*", head, re.IGNORECASE)
    search_from = cue.end() if cue else 0
    start = _ADDRESS_START.search(head, search_from) or _ADDRESS_START.search(head)
    if start is None:
        return None
    found = head[start.start():].strip(" ,.;:-")
    found = re.split(r"\s+(?:and|also|plus)\s+(?:i|could|can|please|my|the)\b|[.!?](?:\s|$)",
                     found, maxsplit=1)[0]
    found = re.sub(r"\s*,\s*", ", ", found).strip(" ,")
    return found if re.search(r"[a-zA-Z]{3,}", found) and len(found) <= 120 else None


def due_day(text: str, *, expecting: bool = False) -> int | None:
    """'the 28th', 'on the first of each month', '28' (when a day was asked for)."""
    low = spell_numbers(dates.ordinal_words_to_digits(_strip_phones(text.lower())))
    match = re.search(r"\b([0-3]?\d)(?:st|nd|rd|th)\b", low)
    if match is None and expecting:
        match = re.search(r"(?<![\d£.])\b([0-3]?\d)\b(?!\s*(?:gb|gig|pounds|%|p\b|days?))", low)
    if match is None:
        return None
    value = int(match.group(1))
    return value if 1 <= value <= 31 else None


_FULL_MONTHS = (
    "january", "february", "march", "april", "june", "july", "august", "september", "october",
    "november", "december",
)


def bill_month(text: str) -> int | None:
    """The month a bill question names ('my March bill', 'the bill for May'), if any."""
    low = text.lower()
    for name in _FULL_MONTHS:
        if re.search(rf"\b{name}\b", low):
            return dates.MONTHS[name]
    if re.search(r"\bmay(?:'s)? bill\b|\bbill (?:for|from|in) may\b", low):
        return 5
    return None


def wants_previous_bill(text: str) -> bool:
    """'the one before', 'my previous bill'."""
    return bool(re.search(r"\b(previous|one before|bill before|month before)\b", text.lower()))
