"""The flows' shared helpers, and the booking flows: book, move, cancel, extras, look-up."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from benchmarks.domains.garage import _read as rd
from benchmarks.domains.garage import _seed

KIND_NAMES = {"interim": "an interim service", "full": "a full service",
              "major": "a major service", "mot": "an MOT"}  # fmt: skip
CAR_RE = re.compile(r"\bcourtesy car|\bloan car|\bcar (?:for|while)|\bhire car", re.I)
COLLECT_RE = re.compile(r"\bcollect|\bpick(?:ed)? (?:it |the car )?up\b|\bdeliver", re.I)


def say_booking(b: dict[str, Any]) -> str:
    return (
        f"{b['booking_id']} ({KIND_NAMES[b['kind']]} for {b['registration']} on "
        f"{rd.say_day(b['day'])})"
    )


def result_error(results: list[tuple[Any, str | None]]) -> str | None:
    return next((e for _, e in results if e), None)


class Flows:
    """Helpers and the booking flows; `CorrectGarageAgent` supplies the state and the calls."""

    s: dict[str, Any]
    now: datetime
    today: date
    call: Any
    ask: Any
    propose: Any

    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_customer", customer_id=self.s["customer"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    @staticmethod
    def card(view: dict[str, Any]) -> str:
        return f"your card ending {view['card_last4']}"

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    def failed(self, error: str, out: list[str]) -> None:
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")

    def vehicle(self, view: dict[str, Any], text: str) -> dict[str, Any]:
        """The car the request is about: one named on the account, else the verified one."""
        cars = {v["registration"]: v for v in view["vehicles"]}
        named = [r for r in rd.registrations(text) if r in cars]
        return cars[named[-1] if named else self.s["reg"]]

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def price_for(self, kind: str, engine_cc: int) -> int:
        """The price of the work: the MOT is fixed, services go by the engine band."""
        if kind == "mot":
            return _seed.MOT_PENCE
        return _seed.SERVICES[kind][1][_seed.band(engine_cc)]

    def car_refusal(self, view: dict[str, Any], kind: str) -> str | None:
        """Why a courtesy car can't be given, or None when it can."""
        if kind not in {"full", "major"}:
            return "courtesy cars come only with a full or major service"
        if view["licence_years"] < _seed.LICENCE_YEARS:
            return (
                f"the driver needs a full licence held for {_seed.LICENCE_YEARS} years or more, "
                f"and ours shows {view['licence_years']}"
            )
        return None

    def collect_refusal(self, view: dict[str, Any]) -> str | None:
        if view["distance_miles"] > _seed.COLLECTION_MILES:
            return (
                f"we collect within {_seed.COLLECTION_MILES} miles of the garage and your "
                f"address is {view['distance_miles']} miles away"
            )
        return None

    def late(self, b: dict[str, Any]) -> bool:
        return bool(b["hours_to_drop_off"] < _seed.LATE_HOURS)

    # -- booking a service or MOT ----------------------------------------------------------
    async def step_book(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        kind = rd.service(text)
        if kind is None:
            return self.ask(
                "kind", "Which would you like: an interim, full or major service, or an MOT?", out
            )
        days = [d for d in rd.dates(text, self.today) if d > self.today]
        if not days or days[-1].weekday() == 6:
            return self.ask(
                "day", "Which day would you like to drop the car off (Monday to Saturday)?", out
            )
        day = days[-1].isoformat()
        car = self.vehicle(v, text)
        price = self.price_for(kind, car["engine_cc"])
        notes, courtesy, collection = [], False, False
        if CAR_RE.search(text):
            why = self.car_refusal(v, kind)
            if why:
                notes.append(f"I can't offer a courtesy car: {why}.")
            else:
                courtesy = True
        if COLLECT_RE.search(text):
            why = self.collect_refusal(v)
            if why:
                out.append(
                    f"I'm sorry — {why}, so I can't book collection and delivery. Nothing has "
                    "been booked; if you'd like the booking without it, just say so."
                )
                return "done"
            collection = True
        what = f"{KIND_NAMES[kind]} for {car['registration']} ({car['model']})"
        if kind != "mot":
            what += f", {_seed.BANDS[_seed.band(car['engine_cc'])]} engine"
        parts = [*notes, f"To book {what} on {rd.say_day(day)}, drop-off 08:00:"]
        parts.append(f"{rd.pounds(price)}, paid on collection")
        if courtesy:
            parts[-1] += ", with a courtesy car for the day (free)"
        if collection:
            parts[-1] += (
                f", plus collection and delivery at {rd.pounds(_seed.COLLECTION_PENCE)} — "
                f"{rd.pounds(price + _seed.COLLECTION_PENCE)} in all"
            )
        parts[-1] += ". Shall I book it?"
        args = {"customer_id": v["customer_id"], "registration": car["registration"],
                "kind": kind, "day": day, "price_pence": price, "courtesy_car": courtesy,
                "collection": collection}  # fmt: skip
        return self.propose(req, out, " ".join(parts), [("book_service", args)])

    async def done_book(self, req: dict[str, Any], pending: dict[str, Any], results: list[Any],
                        out: list[str]) -> None:  # fmt: skip
        error = result_error(results)
        if error:
            await self.book_failed(req, pending, error, out)
            return
        r = results[0][0]
        extra = " with a courtesy car" if r["courtesy_car"] else ""
        extra += " with collection and delivery" if r["collection"] else ""
        out.append(
            f"Done — booking {r['booking_id']}: {KIND_NAMES[r['kind']]} for {r['registration']} "
            f"on {rd.say_day(r['day'])}, drop-off 08:00{extra}; {r['price']}, paid on collection."
        )

    async def book_failed(
        self, req: dict[str, Any], pending: dict[str, Any], error: str, out: list[str]
    ) -> None:
        """Hook: say the booking was refused and why; book nothing else."""
        self.failed(error, out)
        out.append("If you'd like another day, just tell me which.")
        self.s["offer"] = {"intent": "book", "text": rd.service(self.text(req)) or ""}

    # -- which booking ---------------------------------------------------------------------
    async def pick_booking(
        self, req: dict[str, Any], v: dict[str, Any], out: list[str], verb: str,
        status: str = "confirmed",
    ) -> dict[str, Any] | None:  # fmt: skip
        text = self.text(req)
        mine = [b for b in v["bookings"] if b["status"] == status]
        ids = rd.bookings(text)
        if ids:
            found = [b for b in mine if b["booking_id"] in ids]
            if found:
                return found[0]
            out.append(f"I can't find booking {ids[0]} on your account, so I can't {verb} it.")
            return None
        if not mine:
            out.append(f"I can't see a booking on your account that I could {verb}.")
            return None
        said = {d.isoformat() for d in rd.dates(text, self.today, all_said=True)}
        match = [b for b in mine if b["day"] in said] or mine
        if len(match) == 1:
            return match[0]
        self.ask("booking_id", f"Which booking would you like to {verb}: "
                 + " or ".join(say_booking(b) for b in match) + "?", out)  # fmt: skip
        req["waiting"] = True
        return None

    def fee_words(self, b: dict[str, Any], v: dict[str, Any]) -> tuple[int, str]:
        if self.late(b):
            return _seed.LATE_FEE_PENCE, (
                f"drop-off is less than 24 hours away, so there's a late fee of "
                f"{rd.pounds(_seed.LATE_FEE_PENCE)}, charged to {self.card(v)}"
            )
        return 0, "it's more than 24 hours before drop-off, so there's no fee"

    # -- moving and cancelling -------------------------------------------------------------
    async def step_move(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        b = await self.pick_booking(req, v, out, "move")
        if b is None:
            return "wait" if req.pop("waiting", False) else "done"
        days = [d for d in rd.dates(self.text(req), self.today) if d.isoformat() != b["day"]]
        days = [d for d in days if d > self.today]
        if not days or days[-1].weekday() == 6:
            return self.ask("new_day", f"Which day would you like to move {say_booking(b)} to "
                            "(Monday to Saturday)?", out)  # fmt: skip
        day = days[-1].isoformat()
        fee, words = self.fee_words(b, v)
        return self.propose(
            req, out, f"To move {say_booking(b)} to {rd.say_day(day)}, drop-off 08:00: {words}. "
            "Shall I move it?",
            [("move_booking", {"customer_id": v["customer_id"], "booking_id": b["booking_id"],
                               "day": day, "late_fee_pence": fee})],
        )  # fmt: skip

    async def done_move(self, req: dict[str, Any], pending: dict[str, Any], results: list[Any],
                        out: list[str]) -> None:  # fmt: skip
        error = result_error(results)
        if error:
            self.failed(error, out)
            out.append("If you'd like another day, just tell me which.")
            return
        r = results[0][0]
        fee = "no fee" if r["late_fee"] == "£0.00" else f"a {r['late_fee']} late fee charged"
        out.append(
            f"Done — booking {r['booking_id']} is now on {rd.say_day(r['day'])}, drop-off "
            f"08:00; {fee}."
        )

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        b = await self.pick_booking(req, v, out, "cancel")
        if b is None:
            return "wait" if req.pop("waiting", False) else "done"
        fee, words = self.fee_words(b, v)
        return self.propose(
            req, out, f"Cancelling {say_booking(b)}: {words}. A cancellation can't be undone. "
            "Shall I cancel it?",
            [("cancel_booking", {"customer_id": v["customer_id"], "booking_id": b["booking_id"],
                                 "late_fee_pence": fee})],
        )  # fmt: skip

    async def done_cancel(self, req: dict[str, Any], pending: dict[str, Any], results: list[Any],
                          out: list[str]) -> None:  # fmt: skip
        error = result_error(results)
        if error:
            self.failed(error, out)
            return
        r = results[0][0]
        fee = "no fee" if r["late_fee"] == "£0.00" else f"a {r['late_fee']} late fee charged"
        out.append(f"Done — booking {r['booking_id']} is cancelled; {fee}.")

    # -- courtesy car and collection on an existing booking -------------------------------
    async def step_extra(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        b = await self.pick_booking(req, v, out, "add that to")
        if b is None:
            return "wait" if req.pop("waiting", False) else "done"
        if CAR_RE.search(text):
            why = self.car_refusal(v, b["kind"])
            if why:
                out.append(f"I'm sorry — {why}, so I can't add a courtesy car. Nothing has been "
                           "changed.")  # fmt: skip
                return "done"
            what, extra, cost = "a courtesy car", "courtesy_car", "free of charge"
        else:
            why = self.collect_refusal(v)
            if why:
                out.append(f"I'm sorry — {why}, so I can't add collection and delivery. "
                           "Nothing has been changed.")  # fmt: skip
                return "done"
            what, extra = "collection and delivery", "collection"
            cost = f"{rd.pounds(_seed.COLLECTION_PENCE)}, added to the bill"
        return self.propose(
            req, out, f"To add {what} to {say_booking(b)}: {cost}. Shall I add it?",
            [("add_extra", {"customer_id": v["customer_id"], "booking_id": b["booking_id"],
                            "extra": extra})],
        )  # fmt: skip

    async def done_extra(self, req: dict[str, Any], pending: dict[str, Any], results: list[Any],
                         out: list[str]) -> None:  # fmt: skip
        error = result_error(results)
        if error:
            self.failed(error, out)
            return
        r = results[0][0]
        what = "a courtesy car" if r.get("courtesy_car") else "collection and delivery"
        out.append(f"Done — {what} is on booking {r['booking_id']}.")

    # -- look-up ---------------------------------------------------------------------------
    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        mine = {c["registration"] for c in v["vehicles"]}
        for reg in rd.registrations(self.text(req)):
            if reg not in mine:
                await self.other_vehicle(reg, out)
                return "done"
        shown = [say_booking(b) for b in v["bookings"] if b["status"] != "cancelled"]
        out.append("Your bookings: " + "; ".join(shown) + "." if shown
                   else "You have no bookings with us.")  # fmt: skip
        return "done"

    async def other_vehicle(self, reg: str, out: list[str]) -> None:
        """Hook: a car not on the caller's account is never described."""
        out.append(
            f"I'm sorry — {reg} isn't on your account, so I can't share anything about it, not "
            "even whether it's booked in. Its keeper can contact us with their own reference."
        )
