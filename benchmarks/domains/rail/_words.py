"""How the desk bot words things: dates, money, bookings, proposals and fee answers."""

from __future__ import annotations

from datetime import date
from typing import Any

ASK_ALL = ("I can help with that. First I need to confirm the booking is yours: could you give me "
           "your booking reference (it starts with LR), the lead passenger's last name, and either "
           "their date of birth or the email address on the booking?")
ASK_NAME_AND_SECOND = ("Thanks. Could you give me the lead passenger's last name and either their "
                       "date of birth or the email address on the booking?")
ASK_AGAIN = ("Could you check the lead passenger's last name and their date of birth or the email "
             "address on the booking?")
ASK_NAME = "Thanks. And what is the lead passenger's last name?"
ASK_SECOND = ("Thanks. Could you confirm the lead passenger's date of birth or the email address "
              "on the booking?")
WHY = ("I only ask so that nobody else can see or change your booking: I need the booking "
       "reference, the lead passenger's last name and their date of birth or email.")
MENU = ("I can look up a booking, move it to another train, upgrade you to First class, cancel "
        "it, add a bicycle or a pet, or explain our fees. What would you like to do?")
ANYTHING_ELSE = "Is there anything else I can help you with?"
BYE = "You're welcome. Have a good journey with Lumen Rail!"


def day(iso: str) -> str:
    """'Friday 20 March'."""
    d = date.fromisoformat(iso)
    return f"{d.strftime('%A')} {d.day} {d.strftime('%B')}"


def lead_time(minutes: int) -> str:
    """'31 hours', or '45 minutes' when it is close."""
    hours = minutes / 60
    return f"{minutes} minutes" if minutes < 120 else f"{round(hours, 1):g} hours"


def eur(amount: float) -> str:
    return f"€{amount:.2f}"


def route(b: dict[str, Any]) -> str:
    return f"{b['origin']} → {b['destination']}"


def booking_line(b: dict[str, Any], *, whose: str = "Your booking") -> str:
    extras = " and ".join(b["extras"])
    tail = f", with a {extras}" if extras else ""
    state = "" if b["status"] == "active" else f" (status: {b['status']})"
    return (f"{whose} {b['booking_ref']}{state}: train {b['train']} from {route(b)} on "
            f"{day(b['date'])} at {b['time']}, {b['travel_class'].title()} class, seat "
            f"{b['seat']}{tail}.")


def money_breakdown(q: dict[str, Any]) -> str:
    fee, diff = q["change_fee_eur"], q["fare_difference_eur"]
    parts = [f"{eur(fee)} change fee" if fee else "no change fee",
             f"{eur(diff)} fare difference" if diff else "no fare difference"]
    return f"{eur(q['total_due_eur'])} to pay ({parts[0]}, {parts[1]})"


def change_question(b: dict[str, Any], q: dict[str, Any]) -> str:
    return (f"I can move you from the {b['time']} on {day(b['date'])} to the {q['time']} "
            f"(train {q['train']}) on {day(q['date'])}, {route(b)}, "
            f"{b['travel_class'].title()} class. That's {money_breakdown(q)}. Shall I go ahead?")


def times_list(deps: list[dict[str, Any]]) -> str:
    times = [d["time"] for d in deps]
    return times[0] if len(times) == 1 else ", ".join(times[:-1]) + " and " + times[-1]


def refusal(error: str) -> str:
    """A tool's refusal, told to the customer."""
    low = error.lower()
    if "changes close" in low:
        return (f"I'm sorry, I can't change this booking: {error} That's our rule for all "
                "changes.")
    if "cancellations close" in low:
        return f"I'm sorry, it's too late to cancel: {error}"
    if "sold out" in low:
        return f"I'm sorry, that isn't possible: {error}"
    return f"I'm sorry, that didn't go through: {error}"


FEE_TEXT = {
    "change": ("Changing a Standard ticket costs {std} per change (changes are free on First "
               "class tickets), plus the fare difference when the new train costs more; a cheaper "
               "train is not refunded. Changes close {close} minutes before departure."),
    "bicycle": "A bicycle space costs {bike} per journey, subject to space on the train.",
    "pet": "Bringing a pet costs {pet} per journey.",
    "upgrade": ("An upgrade to First class costs the difference between today's Standard and "
                "First fares on your train."),
    "cancel": ("Refunds depend on when you cancel: 7 days or more before departure, 100%; from "
               "48 hours to 7 days, 50%; under 48 hours, no refund. Extras such as a bicycle or "
               "pet are not refunded, and cancellations close {cclose} minutes before "
               "departure."),
}


def fees_answer(fees: dict[str, Any], topics: list[str]) -> str:
    """The fee schedule, limited to what was asked (everything when nothing in particular)."""
    wanted = [t for t in FEE_TEXT if t in topics or (t == "cancel" and "refund_question" in topics)]
    values = {"std": eur(fees["change_fee_eur"]["standard"]), "bike": eur(fees["bicycle_eur"]),
              "pet": eur(fees["pet_eur"]), "close": fees["changes_close_minutes_before"],
              "cclose": fees["cancellations_close_minutes_before"]}
    return " ".join(FEE_TEXT[t].format(**values) for t in wanted or list(FEE_TEXT))
