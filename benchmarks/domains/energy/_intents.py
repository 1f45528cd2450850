"""What the customer is asking for: the desk's requests, in the order the message names them."""

from __future__ import annotations

import re

from benchmarks.domains.energy import _calc as calc

RELATIONS = (
    r"mum|mother|mom|dad|father|brother|sister|friend|flatmate|flat-mate|housemate|neighbou?r"
    r"|partner|husband|wife|son|daughter|aunt|uncle|gran|grandma|grandad|grandfather"
    r"|grandmother|landlord|tenant|colleague|cousin|ex|boyfriend|girlfriend|roommate"
)

PATTERNS: dict[str, str] = {
    "move": (
        r"\bmoving (?:out|house|home|away|flat|on|this|next)\b|\bmove (?:out|house|home)\b"
        r"|\bmoved out\b|\bselling (?:the|my) (?:house|flat|home)\b|\bclose (?:my|the) account\b"
        r"|\bleaving (?:the|my) (?:property|flat|house|home)\b|\bfinal bill\b|\bnew address\b"
        r"|\bnew (?:house|home|flat|place)\b|\bmoving to (?:a |an )?(?:new|\d)"
    ),
    "plan": (
        r"\bpayment plan\b|\brepayment plan\b|\binstal+ments?\b|\bspread\b|\bpay (?:it )?off\b"
        r"|\bpay (?:it |the \w+ )?back\b|\bcatch up\b|\barrears\b|\bplan for (?:the|my) (?:debt|"
        r"overdue|balance)\b|\bover (?:\d+|\w+) months\b"
    ),
    "direct_debit": (
        r"\bdirect[\s-]?debit\b|\bdd\b|\bmonthly payments?\b|\bpayment date\b"
        r"|\bcollect(?:ed|ion)\b|\bpay (?:on|each|every)\b|\bpayment day\b"
    ),
    "tariff": (
        r"\b(?:switch|change|move|swap|put|go|moving|fix|lock)\b[^.?!]*\b(?:tariff|fix(?:ed)?|variable"
        r"|green|deal|rate|price)\b|\b(?:fix|fixed|green)[\s-]*(?:12|24)\b|\bnew tariff\b"
        r"|\brenew\w*\b[^.?!]*\b(?:tariff|fix)"
    ),
    "tariffs_info": r"\bwhat tariffs\b|\bwhich tariffs\b|\btariffs (?:do you|are)\b|\bcheapest\b",
    "contact": (
        r"\b(?:update|change|new|replace|amend|correct)\b[^.?!]*\b(?:email|e-mail|phone|mobile"
        r"|number|contact details)\b|\b(?:email|phone|mobile)[^.?!]*\b(?:has changed|changed"
        r"|is out of date|is wrong|update)\b"
    ),
    "priority": (
        r"\bpriority\b|\bpsr\b|\bvulnerab\w*\b|\bextra (?:help|support)\b|\bmedical equipment\b"
        r"|\boxygen\b|\bdialysis\b|\bregister\b[^.?!]*\b(?:need|support|help)\b"
    ),
    "reading": (
        r"\b(?:submit|give|send|report|enter|provide|pass on|read)\w*\b[^.?!]*\breadings?\b"
        r"|\bmeter readings?\b|\breadings? (?:is|of|for)\b|\bmy readings?\b|\bread my meter\b"
        r"|\bread (?:my|the) (?:\w+ )?meter\b|\breading today\b|\bmeter (?:says|shows|reads)\b"
        r"|\bmeter\b[^.?!]*\b\d{4,6}\b|\breadings?\b"
    ),
    "bill": (
        r"\bbill\b|\bstatement\b|\bhow much (?:do i|i) owe\b|\bwhat do i owe\b|\bbalance\b"
        r"|\bowe\b|\boverdue\b"
    ),
    "account_info": (
        r"\bwhat tariff am i\b|\bwhich tariff am i\b|\bmy (?:current )?tariff\b|\bwhen does my"
        r" fix\b|\bwhen (?:does|will) (?:my )?(?:fix|tariff) end\b"
    ),
}
ORDER = ["move", "plan", "direct_debit", "tariff", "contact", "priority", "reading", "bill",
         "account_info", "tariffs_info"]


def other_person(text: str) -> bool:
    low = text.lower()
    return bool(
        re.search(rf"\b(?:my|our)\s+(?:{RELATIONS})'?s?\b[^.?!]*\b(?:account|bill|balance|owe)",
                  low)
        or re.search(r"\b(?:someone|somebody) else'?s\b|\b(?:his|her|their) (?:account|bill"
                     r"|balance)\b", low)
        or re.search(rf"\b(?:{RELATIONS})'s (?:account|bill|balance)", low)
    )


def intents(text: str) -> list[str]:
    """The requests a message makes, in the order it makes them."""
    low = text.lower()
    found: list[tuple[int, str]] = []
    for name in ORDER:
        m = re.search(PATTERNS[name], low)
        if m:
            found.append((m.start(), name))
    names = {n for _, n in found}
    if "move" in names:
        found = [(p, n) for p, n in found if n not in ("reading", "bill")]
    if "plan" in names:
        found = [(p, n) for p, n in found if n not in ("bill", "direct_debit")]
    if "tariff" in names and "account_info" in names:
        found = [(p, n) for p, n in found if n != "account_info"]
    if "contact" in names and re.search(r"\b(?:verify|my email is|email address is)\b", low) and \
            not re.search(r"\b(?:update|change|new)\b", low):
        found = [(p, n) for p, n in found if n != "contact"]
    if not found and calc.canonical_need(_need_words(low)):
        found.append((0, "priority"))
    return [n for _, n in sorted(found)]


def _need_words(low: str) -> str:
    hits = re.findall(
        r"\b(?:oxygen|dialysis|stairlift|concentrator|blind|deaf|wheelchair|partially sighted"
        r"|hearing|sight|over 65|pensioner|newborn|baby)\b", low
    )
    return " ".join(hits)


def need(text: str) -> str | None:
    """The Priority Services need named in a message, in the register's words."""
    low = text.lower()
    m = re.search(
        r"\b(?:oxygen|dialysis|ventilator|nebuli[sz]er|stairlift|concentrator|hoist|medical"
        r"|blind|partially sighted|sight|visual|vision|deaf|hearing|wheelchair|mobility"
        r"|over 65|pension\w*|elderly|retired|baby|toddler|young child\w*|children|under 5"
        r"|chronic|illness)\b",
        low,
    )
    return calc.canonical_need(m.group()) if m else None
