"""What a patron asks for: intents found in a message, in the order they are mentioned."""

from __future__ import annotations

import re

from benchmarks.domains.library._text import norm

_HOLD = r"\b(?:holds?|reserv\w*|requests?)\b"
PATTERNS: list[tuple[str, str]] = [
    ("renew", r"\brenew\w*|\bextend\w*|\bextension\b|more time|keep (?:it|them|[a-z]+) "
              r"(?:for )?(?:a bit |a little )?longer"),
    ("replace_card", r"\blost (?:my |the )?(?:library )?card|\breplace\w* (?:my |the )?"
                     r"(?:library )?card|\bnew (?:library )?card\b|"
                     r"card (?:was |has been |got )?stolen|"
                     r"can't find my (?:library )?card|misplaced my (?:library )?card|"
                     r"replacement card"),
    ("waive", r"\bwaive\w*|\bwaiver\b|let (?:me )?off|write (?:it |that |the fine )?off|"
              r"(?:remove|cancel|drop|wipe|scrap) (?:the |my |that |this )?(?:overdue )?"
              r"(?:fine|charge|fee)|hospital|shouldn't have been (?:charged|fined)|"
              r"not my fault|wrongly (?:charged|fined)|charged by mistake"),
    ("pay", r"\bpay\b|\bpaying\b|\bsettle\w*|\bclear (?:the |my |that )?(?:fine|balance|charge)"),
    ("update_contact", r"(?:change|update|new|correct) (?:my |the )?(?:e-?mail|phone|mobile|"
                       r"contact|telephone|number on)|e-?mail (?:address )?(?:has |is )?changed|"
                       r"(?:phone|mobile) number (?:has |is )?changed|new (?:e-?mail|phone)"),
    ("notice", r"\bnotices?\b|notifications?|reminders?|\balerts?\b|by (?:text|sms|post|letter|"
               r"e-?mail)\b|texts? instead|\bsms\b|contact me by|send (?:me )?(?:them|things|it)"
               r" (?:by|via)|via (?:text|sms|post)|(?:text|post|letter) rather|\bby mail\b"),
]
_CANCEL = r"\b(?:cancel\w*|remove|drop|take (?:me |it )?off|don't need|no longer (?:need|want)|" \
          r"don't want|get rid of)\b"
_CHANGE = r"\b(?:change\w*|move|switch\w*|instead|different|rather|prefer|transfer)\b"
_PICKUP = r"\b(?:pick ?up|pick it up|collect\w*|collection)\b"
_FINES = r"\b(?:fines?|owe|balance|charges?|fees?)\b"
_LOANS = r"what (?:books )?(?:do i|have i) (?:have|got)|\bmy loans\b|when (?:is|are) .{0,40}" \
         r"\bdue\b|due dates?|what's due|checked out|\bborrowed\b|what i have out"
_HOLDS_INFO = r"\bmy (?:holds|reservations)\b|where(?:'s| is) my (?:hold|reservation)"
_RELATION = r"\b(?:husband|wife|partner|son|daughter|mum|mom|mother|dad|father|friend|" \
            r"neighbou?r|brother|sister|flatmate|colleague|someone else|another patron|" \
            r"his|her|their)\b"


def _first(pattern: str, low: str) -> int | None:
    m = re.search(pattern, low)
    return m.start() if m else None


def detect(text: str) -> list[dict]:
    """The intents in `text`, ordered by where they are mentioned: dicts with a `kind`."""
    low = norm(text)
    found: dict[str, int] = {}
    for kind, pattern in PATTERNS:
        pos = _first(pattern, low)
        if pos is not None:
            found[kind] = pos
    _holds(low, found)
    _infos(low, found)
    intents = [{"kind": k, "pos": p} for k, p in sorted(found.items(), key=lambda kv: kv[1])]
    _fallbacks(low, intents)
    return intents


def _holds(low: str, found: dict[str, int]) -> None:
    place = _first(r"\b(?:place|put|make|get|add|request)\b.{0,12}\b(?:a |another )?hold\b|"
                   r"\breserve\b|\bput .{0,30} aside\b|\bon hold for me\b", low)
    mine = r"\b(?:my|the|that|this|existing) (?:holds?|reservations?)\b"
    cancel = _first(_CANCEL + r".{0,25}" + mine + "|" + mine + r".{0,40}" + _CANCEL, low)
    if cancel is not None:
        found["cancel_hold"] = cancel
    pickup = _first(_PICKUP + r".{0,40}" + _CHANGE + "|" + _CHANGE + r".{0,40}" + _PICKUP, low)
    if pickup is not None and cancel is None and (place is None or _first(mine, low) is not None):
        found["change_pickup"] = pickup
    if place is not None:
        found["place_hold"] = place
    elif _first(_HOLD, low) is not None and not {"cancel_hold", "change_pickup", "renew"} & \
            found.keys() and _first(mine, low) is None:
        found["place_hold"] = _first(_HOLD, low)


def _infos(low: str, found: dict[str, int]) -> None:
    if "replace_card" in found:
        found.pop("update_contact", None)
    if "update_contact" in found and "notice" in found and not re.search(
            r"notice|notification|reminder|alert|by (?:text|sms|post|letter)|sms|via", low):
        found.pop("notice")
    if not {"pay", "waive"} & found.keys():
        pos = _first(_FINES, low)
        if pos is not None and "replace_card" not in found:
            found["fines_info"] = pos
    if "renew" not in found:
        pos = _first(_LOANS, low)
        if pos is not None:
            found["loans_info"] = pos
    pos = _first(_HOLDS_INFO, low)
    if pos is not None and not {"cancel_hold", "change_pickup"} & found.keys():
        found["holds_info"] = pos
        found.pop("place_hold", None)


def _fallbacks(low: str, intents: list[dict]) -> None:
    for before, intent in zip(intents, intents[1:], strict=False):
        between = low[before["pos"]:intent["pos"]]
        if re.search(r"\bif\b.{0,40}\b(?:limit|can't|cannot|can not|not|isn't|doesn't|won't|"
                     r"unable|no)\b|\botherwise\b|\bif not\b", between):
            intent["fallback"] = True


def about_someone_else(text: str, own_card: str | None, cards: list[str]) -> bool:
    """Whether the message asks about another patron's account, loans or holds."""
    low = norm(text)
    if any(c != own_card for c in cards) and own_card:
        return True
    relation = re.search(_RELATION, low)
    topic = re.search(r"\b(?:loans?|books?|holds?|reservations?|fines?|account|due|out|"
                      r"borrowed|owes?)\b", low)
    if not (relation and topic):
        return False
    if re.search(r"\b(?:his|her|their)\b", low) and not re.search(
            r"\b(?:husband|wife|partner|son|daughter|mum|mom|mother|dad|father|friend|"
            r"neighbou?r|brother|sister|flatmate|colleague|someone else|another patron)\b", low):
        return bool(re.search(r"(?:his|her|their) (?:loans?|books?|holds?|account|card|fines?)",
                              low))
    return True
