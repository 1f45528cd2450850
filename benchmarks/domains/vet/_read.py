"""Reading the request-specific facts: pets, reasons, appointment times, new pets, addresses."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from benchmarks.domains.vet import _text as tx

SPECIES_WORDS = {
    "dog": r"dogs?|pupp(?:y|ies)|pups?",
    "cat": r"cats?|kittens?|kitty",
    "rabbit": r"rabbits?|bunn(?:y|ies)",
    "guinea pig": r"guinea pigs?",
    "ferret": r"ferrets?",
}
UNTREATED = (r"bearded dragon|lizard|gecko|snake|python|tortoise|turtle|terrapin|parrot|budgie|"
             r"cockatiel|bird|hamster|rat|mouse|gerbil|chinchilla|degu|horse|pony|chicken|hen|"
             r"goat|sheep|pig|axolotl|frog|fish|iguana|chameleon")
ALL_PETS_RE = re.compile(r"\b(both|all (?:of )?(?:them|my|our|three)|each of|the two of them|"
                         r"two (?:cats|dogs)|the (?:cats|dogs)|the pair)\b", re.I)
PRONOUN_RE = re.compile(r"\b(him|her|them|he|she|they|it|his|its|their)\b", re.I)

REASONS = [
    ("vaccination", r"booster|vaccin|\bjabs?\b|injection"),
    ("post_op_check", r"stitch|post-?op|dressing|wound"),
    ("nail_clip", r"\bnails?\b|\bclaws?\b"),
    ("weight_check", r"\bweigh"),
    ("microchip", r"microchip|\bchipp?(?:ed)?\b"),
    ("check_up", r"check-?ups?|health check|annual check|\bmot\b|once-over|looked over|"
                 r"review"),
    ("consultation", r"consult|poorly|unwell|\bill\b|sick|limp|vomit|diarr|lump|itch|scratch|"
                     r"\bears?\b|\beyes?\b|skin|cough|not eating|off (?:his|her|its) food|"
                     r"injur|hurt|bleed|sneez|\blame\b|rash|see (?:a|the) vet|something wrong|"
                     r"not (?:himself|herself|right)"),
]
REASON_WORDS = {
    "vaccination": "vaccination", "check_up": "check-up", "consultation": "consultation",
    "nail_clip": "nail clip", "weight_check": "weight check", "microchip": "microchipping",
    "post_op_check": "post-op check",
}
VET_REASONS = {"vaccination", "check_up", "consultation"}
BREEDS = [
    "Labrador Retriever", "Labrador", "Golden Retriever", "Cocker Spaniel", "Springer Spaniel",
    "Cavalier King Charles Spaniel", "Border Collie", "Cockapoo", "Cavapoo", "Labradoodle",
    "Staffordshire Bull Terrier", "Staffie", "Jack Russell", "West Highland Terrier", "Westie",
    "Border Terrier", "Dachshund", "French Bulldog", "Bulldog", "German Shepherd", "Whippet",
    "Greyhound", "Lurcher", "Beagle", "Poodle", "Miniature Schnauzer", "Shih Tzu", "Pug",
    "Maine Coon", "British Shorthair", "British Blue", "Siamese", "Bengal", "Ragdoll",
    "Persian", "Sphynx", "Burmese", "Norwegian Forest", "Domestic Shorthair",
    "Domestic Longhair", "Netherland Dwarf", "Lionhead", "Mini Lop", "Dwarf Lop", "Rex",
    "Abyssinian", "Teddy", "Crossbreed", "Mixed breed",
]


def latest(chunks: list[str], read: Any) -> Any:
    """The newest non-empty reading over the request's chunks (later answers win)."""
    for chunk in reversed(chunks):
        value = read(chunk)
        if value:
            return value
    return None


def reason_of(text: str) -> str | None:
    for code, pattern in REASONS:
        if re.search(pattern, text, re.I):
            return code
    return None


def pets_in(text: str, pets: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The owner's pets a text names, in order; 'both' is every pet; 'the cat' the only cat."""
    hits = []
    for pet in pets:
        m = re.search(rf"\b{re.escape(pet['name'])}\b", text, re.I)
        if m:
            hits.append((m.start(), pet))
    if hits:
        return [p for _, p in sorted(hits, key=lambda h: h[0])]
    if ALL_PETS_RE.search(text):
        return list(pets)
    for species, pattern in SPECIES_WORDS.items():
        if re.search(rf"\b(?:{pattern})\b", text, re.I):
            same = [p for p in pets if p["species"] == species]
            if len(same) == 1:
                return same
    return []


# -- times and days for a slot ---------------------------------------------------------------
def when(chunks: list[str], today: date, appt: dict[str, Any] | None = None) -> dict[str, Any]:
    """The day, clock times and part of the day the owner asked for (newest answer wins).

    For a move, dates and times that name the appointment being moved are not the new ones.
    """
    day = latest(chunks, lambda c: _new_dates(c, today, appt))
    times = latest(chunks, lambda c: _new_times(c, appt))
    part = latest(chunks, tx.day_part)
    if day is None and appt is not None and (
            times or any(re.search(r"\b(same day|that day|later that|that afternoon|"
                                   r"that morning|later on|earlier)\b", c, re.I)
                         for c in chunks)):
        day = [date.fromisoformat(appt["date"])]
    return {"date": day[-1] if day else None, "times": times or [], "part": part}


def _new_dates(text: str, today: date, appt: dict[str, Any] | None) -> list[date]:
    hits = tx.find_dates(text, today)
    if appt is None:
        return [h.day for h in hits]
    keep = []
    for hit in hits:
        before = text[max(0, hit.start - 14):hit.start].lower()
        is_target = re.search(r"\b(to|until|till|onto|for|instead|into)\s+(?:the\s+)?$", before)
        if hit.day.isoformat() == appt["date"] and not is_target:
            continue
        keep.append(hit.day)
    return keep


def _new_times(text: str, appt: dict[str, Any] | None) -> list[Any]:
    hits = tx.find_times(text) or tx.bare_hour(text)
    if appt is None:
        return hits
    return [h for h in hits if h.time != appt["time"]]


def minutes(hhmm: str) -> int:
    hour, minute = (int(x) for x in hhmm.split(":"))
    return hour * 60 + minute


def in_part(time: str, part: str | None) -> bool:
    if part == "morning":
        return time < "12:30"
    if part == "afternoon":
        return time >= "13:00"
    if part == "late":
        return time >= "16:00"
    return True


def choose(free: list[dict[str, Any]], times: list[Any], part: str | None
           ) -> tuple[str, dict[str, Any] | None, list[dict[str, Any]]]:
    """Pick a slot: ('exact'|'near'|'first', slot or None, other good options)."""
    if times:
        wanted = times[-1]
        if wanted.relation == "after":
            fits = [f for f in free if f["time"] >= wanted.time]
        elif wanted.relation == "before":
            fits = [f for f in free if f["time"] < wanted.time and in_part(f["time"], part)]
        else:
            exact = [f for f in free if f["time"] == wanted.time]
            if exact:
                return "exact", exact[0], []
            near = sorted(free, key=lambda f: abs(minutes(f["time"]) - minutes(wanted.time)))
            near = [f for f in near if abs(minutes(f["time"]) - minutes(wanted.time)) <= 120]
            return "near", (near[0] if near else None), sorted(near[1:3], key=lambda f: f["time"])
        return "first", (fits[0] if fits else None), fits[1:4]
    fits = [f for f in free if in_part(f["time"], part)]
    return "first", (fits[0] if fits else None), fits[1:4]


def constraint_text(times: list[Any], part: str | None) -> str:
    if times:
        wanted = times[-1]
        word = {"after": "after", "before": "before"}.get(wanted.relation, "at")
        return f"{word} {tx.say_time(wanted.time)}"
    return {"morning": "in the morning", "afternoon": "in the afternoon",
            "late": "after 4:00pm", "earliest": ""}.get(part or "", "")


# -- new pets --------------------------------------------------------------------------------
def species_of(text: str) -> str | None:
    m = re.search(rf"\b(?:{UNTREATED})s?\b", text, re.I)
    guinea = re.search(r"\bguinea pigs?\b", text, re.I)
    for species, pattern in SPECIES_WORDS.items():
        if re.search(rf"\b(?:{pattern})\b", text, re.I):
            return species
    if m and not (guinea and m.group(0).lower().startswith("pig")):
        return m.group(0).lower().rstrip("s") if not m.group(0).lower().endswith("ss") else \
            m.group(0).lower()
    return None


_NEW_NAME_RE = re.compile(
    r"\b(?:called|named|(?:her|his|its|their|the \w+'?s) name(?: is|'s| will be)|"
    r"we'?ve called (?:him|her|it)|(?:she|he|it)'?s called|(?:she|he|it) is called)"
    r"\s+([A-Za-z][a-z]+)", re.I)


_AFTER_SPECIES_RE = re.compile(
    r"\b(?:kitten|puppy|dog|cat|rabbit|bunny|guinea pig|ferret|dragon|lizard|snake|tortoise|"
    r"hamster|parrot|budgie)s?,? ([A-Z][a-z]+)\b")


def new_pet_name(text: str, *, short_answer: bool = False) -> str | None:
    m = _NEW_NAME_RE.search(text)
    if m:
        return m.group(1).title()
    m = _AFTER_SPECIES_RE.search(text)
    if m and m.group(1).lower() not in {"and", "who", "she", "he", "it", "called", "named"}:
        return m.group(1)
    if short_answer:
        words = re.findall(r"\b[A-Z][a-z]+\b", text)
        words = [w for w in words if w.lower() not in {"she", "he", "it", "her", "his", "its",
                                                       "the", "a", "my", "our", "yes", "no"}]
        if len(words) == 1:
            return words[0]
    return None


def breed_of(text: str) -> str | None:
    for breed in BREEDS:
        if re.search(rf"\b{re.escape(breed)}\b", text, re.I):
            return breed
    m = re.search(r"\bbreed is (?:a |an )?([A-Za-z][A-Za-z ]{2,30}?)(?:[,.]|$| and )", text, re.I)
    if m:
        return m.group(1).strip().title()
    if re.search(r"\b(not sure|don'?t know|no idea|unknown|moggy|mixed|cross)\b", text, re.I):
        return "unknown"
    return None


def sex_of(text: str) -> str | None:
    if re.search(r"\b(she|her|girl|female)\b", text, re.I):
        return "female"
    if re.search(r"\b(he|him|his|boy|male)\b", text, re.I):
        return "male"
    return None


def birth_date(text: str, today: date) -> str | None:
    m = re.search(r"\b(\d{1,2}|" + "|".join(tx.NUMBER_WORDS) + r")\s+(weeks?|months?|years?)"
                  r" old\b", text, re.I)
    if m:
        count = int(m.group(1)) if m.group(1).isdigit() else tx.NUMBER_WORDS[m.group(1).lower()]
        unit = m.group(2).lower()
        days = count * (7 if unit.startswith("week") else 30 if unit.startswith("month")
                        else 365)
        return (today - timedelta(days=days)).isoformat()
    hits = tx.find_dates(text, today, past=True)
    hits = [h for h in hits if h.day <= today]
    return hits[-1].day.isoformat() if hits else None


# -- contact details -------------------------------------------------------------------------
_ADDRESS_RE = re.compile(
    r"(?:moved to|moving to|new address is|new address:|new address|"
    r"(?<!email )(?<!e-mail )address\b[^.?!\d@]{0,30}?\b(?:is now|to|is)|"
    r"address:|live at|living at|now at|now live at)\s*[:,-]?\s*(.+)", re.I)


def address_of(text: str, *, whole: bool = False) -> tuple[str | None, str | None]:
    """(street address, postcode) from 'I've moved to 3 Kingsdown Parade, Bristol BS6 5UD'."""
    m = _ADDRESS_RE.search(text)
    candidate = m.group(1) if m else (text if whole else "")
    if not candidate:
        return None, None
    codes = list(tx.POSTCODE_RE.finditer(candidate))
    if not codes:
        street = candidate.strip(" ,.")
        return (street if re.search(r"\d", street) else None), None
    code = codes[0]
    street = candidate[:code.start()].strip(" ,.")
    street = re.sub(r"^(?:it'?s|it is|that'?s|the (?:new )?address is|address:?)\s*", "", street,
                    flags=re.I)
    street = re.sub(r"[,.]?\s*(?:and )?(?:the )?post ?code(?: is)?:?$", "", street,
                    flags=re.I).strip(" ,.")
    if not re.search(r"[A-Za-z]{3}", street) or "@" in street:
        street = ""
    postcode = f"{code.group(1)} {code.group(2)}".upper()
    return (street or None), postcode


def wanted_fields(text: str) -> list[str]:
    fields = []
    if re.search(r"\b(phone|mobile|(?<!client )number|landline)\b", text, re.I):
        fields.append("phone")
    if re.search(r"\be-?mail\b", text, re.I):
        fields.append("email")
    if re.search(r"(?<!email )(?<!e-mail )\b(?:home |postal |house )?address\b|\b(moved|moving|"
                 r"house|live at|living at)\b", text.replace("email address", "email"), re.I):
        fields.append("address")
    return fields
