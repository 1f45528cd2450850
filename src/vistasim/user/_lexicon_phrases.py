"""The phrases a rule-based user reads agents' messages with: data, not code.

A lexicon maps slot names to the ways agents ask for them ("order number", "which order");
domains extend `DEFAULT_LEXICON`. The other lists mark confirmation requests, done reports and
the words that turn a done phrase into a promise or its opposite. Extend these lists rather than
adding special cases to the readers in `_lexicon.py`.
"""

from __future__ import annotations

DEFAULT_LEXICON: dict[str, list[str]] = {
    "order_id": [
        "order number",
        "order id",
        "order #",
        "order no",
        "which order",
        "order reference",
        "confirmation number",
    ],
    "email": ["email", "e-mail", "email address", "e-mail address"],
    "name": ["your name", "full name", "name on the account", "name on the order"],
    "phone": ["phone", "phone number", "mobile number"],
    "item": ["which item", "which product", "what item", "what product", "which items"],
    "reason": ["reason", "why"],
    "defect": [
        "reason",
        "what's wrong",
        "what is wrong",
        "what was wrong",
        "what happened",
        "damage",
        "damaged",
        "defect",
        "problem with",
        "issue with",
    ],
    "address": ["address", "shipping address", "zip code", "postcode", "postal code"],
    "refund_to": [
        "refund method",
        "refund to",
        "how would you like to be refunded",
        "how would you like your refund",
        "original payment",
    ],
    "student_id": ["student id", "student number"],
    "course": ["which course", "course code", "course name", "what course"],
    "date": ["which date", "what date", "new date", "preferred date", "when would you like"],
    "payment_method": ["payment method", "which card", "how would you like to pay"],
    "age": ["how old", "age"],
    "weight": ["how much does", "weigh", "how heavy"],
}
"""Slot name -> phrases an agent uses to ask for it; `view.lexicon` extends it."""

CONFIRM_PHRASES: tuple[str, ...] = (
    "shall i",
    "should i",
    "would you like me to",
    "would you like that",
    "would you like this",
    "would you like it",
    "do you want",
    "do you want me to",
    "confirm",
    "is that correct",
    "is that right",
    "is this correct",
    "would you like to proceed",
    "ok to proceed",
    "okay to proceed",
    "can i go ahead",
    "yes/no",
    "yes or no",
    "does that work",
    "would that work",
    "does this work",
    "would this work",
    "would that suit",
    "does that suit",
    "is that ok",
    "is that okay",
    "is that fine",
    "sound good",
    "sounds good",
    "works for you",
    "want me to",
    "shall we",
    "should we",
    "go ahead",
)
"""Phrases of an agent asking the user to approve an action."""

DONE_PHRASES: tuple[str, ...] = (
    "has been cancelled",
    "has been canceled",
    "was cancelled",
    "was canceled",
    "is now cancelled",
    "return has been",
    "return is",
    "refund has been",
    "refund of",
    "refund is",
    "refunded",
    "is on its way",
    "has shipped",
    "has been shipped",
    "processed",
    "submitted",
    "updated",
    "rescheduled",
    "enrolled",
    "has been booked",
    "is booked",
    "has been placed",
    "done",
    "all set",
    "confirmed",
    "completed",
    "payment taken",
    "payment received",
    "charged to",
)
"""Phrases of an agent reporting that the request was carried out."""

UNREAL: tuple[str, ...] = (
    "will",
    "'ll",
    "would",
    "could",
    "can",
    "once",
    "if",
    "to be",
    "going to",
    "about to",
    "need to",
    "needs to",
    "has to",
    "must",
    "should",
    "before",
)
"""Words that, just before a done phrase, make it a promise or a condition ("will be booked
once you confirm"): the request is not carried out yet."""

NEGATIONS: tuple[str, ...] = (
    "not",
    "nothing",
    "n't",
    "cannot",
    "unable",
    "never",
    "failed to",
    "yet",
)
"""Words that, just before a done phrase, turn it into its opposite ("cannot be processed")."""
