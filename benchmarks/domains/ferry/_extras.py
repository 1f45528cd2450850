"""The flows' shared helpers, and the flows for look-ups, names, cancellations and email."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from benchmarks.domains.ferry import _read as rd
from benchmarks.domains.ferry import _seed


class FlowBase:
    """Helpers and three flows; `CorrectFerryAgent` supplies the state and the tool calls."""

    s: dict[str, Any]
    now: datetime
    today: date
    call: Any
    ask: Any
    propose: Any

    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_booking", booking_ref=self.s["ref"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    def departed(self, view: dict[str, Any]) -> bool:
        return bool(view["sailing"]["depart"] <= self.now.strftime(_seed.STAMP))

    def days_to_go(self, view: dict[str, Any]) -> int:
        return (date.fromisoformat(view["sailing"]["depart"][:10]) - self.today).days

    @staticmethod
    def card(view: dict[str, Any]) -> str:
        return f"your card ending {view['card_last4']}"

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    @staticmethod
    def failed(error: str, out: list[str]) -> None:
        out.append(
            f"I'm sorry — the booking system refused that: {error}. Nothing has been "
            "changed or charged."
        )

    def sailed(self, v: dict[str, Any], out: list[str]) -> bool:
        if self.departed(v):
            out.append(
                f"Booking {v['booking_ref']} was on {rd.say_sailing(v['sailing'])}, "
                "which has already sailed, so it can't be changed, cancelled or "
                "refunded."
            )
            return True
        return False

    def refund_terms(self, view: dict[str, Any]) -> tuple[int, str]:
        """Hook: what a cancellation gives back, and how (card or voucher)."""
        paid, kind = view["paid_pence"], view["fare_type"]
        early = self.days_to_go(view) >= _seed.FULL_REFUND_DAYS
        if kind == "flexi":
            return paid, "card"
        if kind == "standard":
            return (paid if early else paid // 2), "card"
        return (paid if early else 0), "voucher"

    # -- look-up ---------------------------------------------------------------------------
    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        s = v["sailing"]
        arrive = "the next morning at " if s["overnight"] else "at "
        parts = [
            f"Booking {v['booking_ref']} ({v['fare_type'].capitalize()} fare) is on "
            f"{rd.say_sailing(s)}, arriving {arrive}{s['arrive']}.",
            f"Passengers: {', '.join(v['passengers'])}.",
        ]
        if v["vehicle"]:
            parts.append(f"Vehicle: {v['vehicle']['registration']} ({v['vehicle']['length_m']} m).")
        if v["cabin"]:
            parts.append(f"Cabin: {_seed.CABIN_NAMES[v['cabin']]}.")
        if v["pets"]:
            parts.append(f"Pets: {v['pets']}.")
        out.append(" ".join(parts))
        return "done"

    # -- passenger names -------------------------------------------------------------------
    async def step_name(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if self.sailed(v, out):
            return "done"
        if v["fare_type"] == "saver":
            out.append(
                f"I'm sorry — booking {v['booking_ref']} is a Saver fare, and Saver "
                "fares are non-transferable, so I can't change a passenger's name. "
                "Nothing has been changed."
            )
            return "done"
        text = self.text(req)
        people = v["passengers"]
        full = [p for p in people if p.lower() in text.lower()]
        if not full:
            full = [p for p in people if re.search(rf"\b{re.escape(p.split()[0])}\b", text)]
            if len(full) > 1:
                full = [p for p in full if p != v["lead_name"]]
        if len(full) != 1:
            return self.ask(
                "old_name",
                "Which passenger's name is changing? Please give the name as it is on the booking.",
                out,
            )
        old = full[0]
        new = [n for n in rd.full_names(text) if n.lower() not in {p.lower() for p in people}]
        if not new:
            return self.ask(
                "new_name",
                f"What's the full name of the new passenger travelling instead of {old}?",
                out,
            )
        fee = _seed.NAME_FEE_PENCE if v["fare_type"] == "standard" else 0
        money = (
            f"the name-change fee is {rd.pounds(fee)}, charged to {self.card(v)}"
            if fee
            else "Flexi fares change names free of charge"
        )
        return self.propose(
            req,
            out,
            f"To change passenger {old} to {new[-1]} on booking "
            f"{v['booking_ref']}: {money}. Shall I go ahead?",
            tool="change_passenger_name",
            args={"booking_ref": v["booking_ref"], "old_name": old, "new_name": new[-1]},
        )

    async def done_name(
        self,
        req: dict[str, Any],
        pending: dict[str, Any],
        result: Any,
        error: str | None,
        out: list[str],
    ) -> None:
        if error:
            self.failed(error, out)
            return
        out.append(
            f"Done — {result['old_name']} is now {result['new_name']} on booking "
            f"{result['booking_ref']}; fee {result['fee']}."
        )

    # -- cancellation ----------------------------------------------------------------------
    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if self.sailed(v, out):
            return "done"
        back, method = self.refund_terms(v)
        early = self.days_to_go(v) >= _seed.FULL_REFUND_DAYS
        kind = v["fare_type"]
        if kind == "flexi":
            why = "Flexi fares get everything paid back"
        elif kind == "standard":
            why = (
                "as it's 14 or more days before departure, you get everything paid back"
                if early
                else "as it's fewer than 14 days before departure, Standard fares get "
                f"half of the {v['paid']} paid back"
            )
        else:
            why = (
                "Saver fares are refunded as a travel voucher, not to the card"
                if early
                else "Saver fares get nothing back fewer than 14 days before departure"
            )
        if not back:
            money = "gives nothing back"
        elif method == "voucher":
            money = f"gives you a Tidewater travel voucher for {rd.pounds(back)}"
        else:
            money = f"refunds {rd.pounds(back)} to {self.card(v)}"
        return self.propose(
            req,
            out,
            f"Cancelling booking {v['booking_ref']} "
            f"({rd.say_sailing(v['sailing'])}) {money} — {why}. Fees already "
            "paid aren't refunded, and a cancellation can't be undone. Shall I "
            "cancel it?",
            tool="cancel_booking",
            args={"booking_ref": v["booking_ref"]},
            stated=rd.pounds(back),
        )

    async def done_cancel(
        self,
        req: dict[str, Any],
        pending: dict[str, Any],
        result: Any,
        error: str | None,
        out: list[str],
    ) -> None:
        if error:
            self.failed(error, out)
            return
        if result["refund"] == "£0.00":
            money = "there's nothing to refund"
        elif result["method"] == "voucher":
            money = f"a travel voucher for {result['refund']} will be emailed to you"
        else:
            money = (
                f"{result['refund']} is refunded to your card ending "
                f"{result['card_last4']} within 5 to 7 working days"
            )
        out.append(f"Done — booking {result['booking_ref']} is cancelled, and {money}.")

    # -- email -----------------------------------------------------------------------------
    async def step_email(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        found = rd.emails(self.text(req))
        if not found:
            return self.ask("email", "What's the new email address?", out)
        return self.propose(
            req,
            out,
            f"I'll change the email on booking {v['booking_ref']} to "
            f"{found[-1]}. Shall I go ahead?",
            tool="update_email",
            args={"booking_ref": v["booking_ref"], "email": found[-1]},
        )

    async def done_email(
        self,
        req: dict[str, Any],
        pending: dict[str, Any],
        result: Any,
        error: str | None,
        out: list[str],
    ) -> None:
        if error:
            self.failed(error, out)
            return
        out.append(f"Done — the email on booking {result['booking_ref']} is now {result['email']}.")
