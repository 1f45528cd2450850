"""Who the user is, as the episode established it, and records that belong to someone else.

Any product with accounts has the same two duties: show a person only their own records, and
change nothing before their identity is checked. Neither needs the product's rules to be seen:

- The *established identity* is what the user said about themselves (emails, phones, dates,
  names, ids) plus the identity fields of every record a successful call found with those
  values (a `verify_patient(last_name, date_of_birth)` returns the patient's id and name).
- A record in a later tool result is *someone else's* when it carries identity fields (names,
  dates of birth, emails, phones, person ids) of a family the established identity also has,
  and none of them matches it.
- An *identity check* is a successful call of a tool named for it (`verify_*`,
  `authenticate_*`, `identify_*`, `*_identity`) or one whose arguments carry what the user said
  about themselves and whose result names a person.

>>> record = {"patient_id": "P2", "name": "Ann Lee", "date_of_birth": "1970-01-02"}
>>> sorted(identity_fields(record))
[('dob', '1970-01-02'), ('name', 'ann lee'), ('person', 'p2')]
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from pydantic import JsonValue

__all__ = [
    "Identity",
    "account_keys",
    "identity_fields",
    "is_identity_tool",
    "is_staff_record",
    "records",
    "said_identity",
]

Identity = set[tuple[str, str]]
"""(family, value) pairs: `("email", "ann@example.com")`, `("dob", "1970-01-02")`."""

_PERSON = (
    "customer patient passenger member user account owner holder client student guest"
    " cardholder traveller traveler rider subscriber hirer renter tenant resident booker"
    " borrower patron parent learner applicant payer policyholder tenancy"
).split()
"""Roles a person is named by in a record (`hirer: "Ada Okafor"`); `tenancy_id` names its
tenant as `account_id` names its holder."""
_NAME_KEYS = re.compile(
    rf"^(?:(?:{'|'.join(_PERSON)})_)?(?:full_?name|last_?name|surname|first_?name|name)$"
)
_IDENTITY_TOOL = re.compile(r"verif|authent|identif|identity|log_?in|sign_?in", re.IGNORECASE)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_PHONE = re.compile(r"\+?\d[\d\s().-]{6,}\d")
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_NOT_DIGIT = re.compile(r"\D")


_ACCOUNT_WORDS = frozenset({*_PERSON, "card", "membership", "patron", "policy", "loyalty"})


def account_keys(checks: list[tuple[dict[str, JsonValue], JsonValue]]) -> dict[str, set[str]]:
    """The account ids the user proved theirs: argument and result fields of identity checks.

    `verify_patron(card_number="RL-20417", pin=...)` proves card RL-20417 theirs, so a later
    `list_loans(card_number="RL-20533")` reads someone else's account. Only fields named for an
    account or a person (`card_number`, `member_id`, `account_no`) with an id-like value count:
    an order number that was checked with them names no person.
    """
    found: dict[str, set[str]] = {}
    for args, result in checks:
        fields = [*args.items(), *(result.items() if isinstance(result, dict) else ())]
        for key, value in fields:
            words = set(re.split(r"[_\W]+", key.lower()))
            scalar = isinstance(value, str | int) and not isinstance(value, bool)
            if not scalar or not words & _ACCOUNT_WORDS:
                continue
            text = str(value).strip().casefold()
            if any(c.isdigit() for c in text) and len(text) >= 3:
                found.setdefault(key.lower(), set()).add(text)
    return found


_STAFF = frozenset(
    "tutor teacher instructor trainer coach vet doctor dentist hygienist optometrist nurse"
    " therapist clinician practitioner mechanic technician stylist groomer staff employee"
    " advisor adviser consultant surveyor".split()
)
"""Roles of the desk's own people (`tutor_id`): a record of theirs is a directory entry. Not
`driver` or `agent`: a hire's additional driver and a policy's agent may be customers."""


def is_staff_record(record: dict[str, JsonValue]) -> bool:
    """Whether a record is one of the desk's own people, keyed by a staff role (`tutor_id`).

    "For maths we have Ms Hughes" names a tutor from the desk's list: no customer's record.
    """
    return any(
        key.lower().removesuffix("_id") in _STAFF for key in record if key.lower().endswith("_id")
    ) and not any(key.lower().removesuffix("_id") in _PERSON for key in record)


def is_identity_tool(name: str) -> bool:
    """Whether a tool's name says it checks who the user is."""
    return bool(_IDENTITY_TOOL.search(name))


def identity_fields(record: dict[str, JsonValue], *, bare_name: bool | None = None) -> Identity:
    """The identity fields of one record, by family: name, dob, email, phone, person (an id).

    A bare `name` key counts only where the record has another identity field (a branch's
    `name` is not a person's); `bare_name` forces the choice.
    """
    found: Identity = set()
    named: Identity = set()
    for key, value in record.items():
        if not isinstance(value, str | int) or isinstance(value, bool) or value in ("", None):
            continue
        family = _family(key.lower())
        if family is None and _is_person_name(key.lower(), value):
            family = "name"  # `owner: "Daniel Hughes"`: a person named by their role
        if family is None:
            continue
        text = _normal(family, str(value))
        if family == "name" and key.lower() == "name":
            named.add((family, text))
        elif text:
            found.add((family, text))
    if bare_name if bare_name is not None else bool(found):
        found |= named
    return found


def _is_person_name(key: str, value: str | int) -> bool:
    if key not in _PERSON or not isinstance(value, str):
        return False
    words = value.split()
    return 2 <= len(words) <= 4 and all(w[:1].isupper() and w.isalpha() for w in words)


def said_identity(text: str) -> Identity:
    """What a user's message says about who they are: emails, phones, ISO dates."""
    return set(_said_identity(text))


@lru_cache(maxsize=4096)
def _said_identity(text: str) -> frozenset[tuple[str, str]]:
    # Each tool call of an episode asks again what every earlier message said.
    found: Identity = {("email", e.lower()) for e in _EMAIL.findall(text)}
    found |= {("phone", _digits(p)) for p in _PHONE.findall(_ISO.sub(" ", text))}
    found |= {("dob", "-".join(m.groups())) for m in _ISO.finditer(text)}
    return frozenset(f for f in found if f[1])


def records(value: JsonValue) -> Iterator[dict[str, JsonValue]]:
    """Every JSON object inside a tool result, outermost first."""
    stack = [value]
    while stack:
        item = stack.pop(0)
        if isinstance(item, dict):
            yield item
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


@lru_cache(maxsize=1024)
def _family(key: str) -> str | None:
    if "email" in key:
        return "email"
    if "phone" in key or "mobile" in key:
        return "phone"
    if "birth" in key or key == "dob":
        return "dob"
    if _NAME_KEYS.match(key):
        return "name"
    prefix = key.removesuffix("_id")
    if key.endswith("_id") and prefix in _PERSON:
        return "person"
    return None


def _normal(family: str, value: str) -> str:
    if family == "phone":
        return _digits(value)
    return " ".join(value.split()).casefold()


def _digits(text: str) -> str:
    digits = _NOT_DIGIT.sub("", text)
    return digits[-9:] if len(digits) >= 7 else ""
