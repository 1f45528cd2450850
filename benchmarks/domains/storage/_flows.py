"""The desk's requests: renting, resizing, gate PIN, van, late fees, notice, authorised users.

Each `step_<intent>` works a request forward until it needs the customer (a question or a
proposal: "wait") or is finished ("done"); `done_<intent>` reports what the tool returned after a
yes. Methods the flawed agent overrides are marked "hook".
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any

from benchmarks.domains.storage import _read as rd
from benchmarks.domains.storage import _seed

_FORGOT = re.compile(r"\bforg[eo]t|\bremind|\bwhat(?:'s| is| was) (?:my|the|our|his|her)\b|"
                     r"\btell me (?:my|the|what)|\bcan'?t remember|\bdon'?t (?:know|remember)|"
                     r"\blost\b|\bread (?:it|me)|\bsend me (?:my|the)", re.I)
# "I'm keeping my small unit A04": a unit named to be kept is not the one acted on.
_KEEP = re.compile(r"\b(?:keep|keeping|not|except|other than|rather than|apart from)\b"
                   r"(?:\s+(?:my|the|our|your))?(?:\s+\w+){0,3}\s*$", re.I)
_PRICE_Q = re.compile(r"\bhow much\b|\bwhat (?:would|will|does) (?:it|that) cost|\bprice\b|"
                      r"\bquote\b|\bcost\b", re.I)


def size_word(sqft: int) -> str:
    return f"{_seed.SIZE_NAMES.get(sqft, '')}, {sqft} sq ft".lstrip(", ")


class Flows:
    """Mixed into the agent: everything here runs after the customer is verified."""

    s: dict[str, Any]
    today: date
    now: datetime

    async def call(self, tool_name: str, /, **args: Any) -> tuple[Any, str | None]:
        raise NotImplementedError

    def ask(self, what: str, text: str, out: list[str]) -> str:
        raise NotImplementedError

    def propose(self, req: dict[str, Any], out: list[str], text: str, *, tool: str,
                args: dict[str, Any], **extra: Any) -> str:
        raise NotImplementedError

    async def execute(self, req: dict[str, Any], pending: dict[str, Any],
                      out: list[str]) -> None:
        raise NotImplementedError

    # -- shared pieces ---------------------------------------------------------------------
    def text_of(self, req: dict[str, Any]) -> str:
        return ". ".join(c.strip().rstrip(".") for c in req["chunks"])

    async def record(self) -> dict[str, Any]:
        result, _ = await self.call("get_account", customer_id=self.s["customer"])
        return dict(result)

    def card(self) -> str:
        return f"your card ending {self.s['card']}"

    def say_unit(self, rental: dict[str, Any]) -> str:
        return f"unit {rental['unit_id']} ({size_word(rental['size_sqft'])})"

    async def other_unit(self, unit: str, req: dict[str, Any], out: list[str]) -> None:
        """Hook: a unit that is not the verified customer's is never read out."""
        out.append(f"I'm sorry, unit {unit} isn't on your account, so I can't share or change "
                   "anything about it — including its gate code. The account holder can contact "
                   "us themselves, and they can add you as an authorised user if they wish.")

    def pick_rental(self, text: str, live: list[dict[str, Any]]) -> dict[str, Any] | None:
        """Hook: the rental the customer means among several, or None when it is not clear."""
        named = [u for at, u in rd.units(text)
                 if not _KEEP.search(text[max(0, at - 30):at])] or \
            [u for _, u in rd.units(text)]
        for unit in reversed(named):
            found = [r for r in live if r["unit_id"] == unit]
            if found:
                return found[0]
        by_size = [r for r in live if r["size_sqft"] in rd.sizes(text)]
        if len(by_size) == 1 and not named:
            return by_size[0]
        return None

    async def choose_rental(self, req: dict[str, Any], out: list[str]
                            ) -> dict[str, Any] | str | None:
        """The rental a request is about, a question ("wait"), or None (after saying why)."""
        record = await self.record()
        live = [r for r in record["rentals"] if r["status"] in {"active", "reserved"}]
        text = self.text_of(req)
        mine = {r["unit_id"] for r in record["rentals"]}
        named = [u for _, u in rd.units(text)]
        if named and named[-1] not in mine and not any(u in mine for u in named):
            await self.other_unit(named[-1], req, out)
            return None
        if not live:
            out.append("I can't see a current unit on your account.")
            return None
        if len(live) == 1:
            return live[0]
        found = self.pick_rental(text, live)
        if found is not None:
            return found
        listed = " or ".join(self.say_unit(r) for r in live)
        return self.ask("unit", f"You have two units with us: {listed}. Which one is this "
                        "about?", out)

    def tool_failed(self, what: str, error: str, out: list[str]) -> None:
        out.append(f"I'm sorry, I couldn't {what}: the system says {error}. Nothing has been "
                   "changed.")

    def days_to(self, day: str | date) -> int:
        if isinstance(day, str):
            day = date.fromisoformat(day)
        return (day - self.today).days

    def pick_date(self, text: str) -> date | None:
        """Hook: the day the customer wants: the last one named (a correction comes last)."""
        days = rd.visit_dates(text, self.today)
        return days[-1] if days else None

    # -- renting another unit --------------------------------------------------------------
    async def step_rent(self, req: dict[str, Any], out: list[str]) -> str:
        text = self.text_of(req)
        found = rd.sizes(text)
        if not found:
            prices = "; ".join(f"{size_word(sq)} £{p / 100:.2f}" for sq, p in
                               _seed.PRICES.items())
            return self.ask("size", f"What size of unit would you like? Monthly prices: "
                            f"{prices}.", out)
        sqft = found[-1]
        day = self.pick_date(text)
        if day is None:
            return self.ask("move_in_date", "What date would you like to move in? It can be "
                            "from tomorrow up to 30 days ahead.", out)
        ahead = self.days_to(day)
        if ahead < 1 or ahead > _seed.MOVE_IN_MAX_DAYS:
            latest = self.today + timedelta(days=_seed.MOVE_IN_MAX_DAYS)
            out.append(f"I'm sorry, a move-in date has to be from tomorrow up to 30 days ahead "
                       f"(up to {rd.say_date(latest)}), so I can't reserve a unit from "
                       f"{rd.say_date(day)}. Please get in touch again nearer the time. Nothing "
                       "has been booked.")
            return "done"
        result, error = await self.call("find_units", size_sqft=sqft)
        if error or not result["vacant"]:
            out.append(f"I'm sorry, we have no {size_word(sqft)} units free at the moment. "
                       "Nothing has been booked.")
            return "done"
        unit = result["vacant"][0]
        text = (f"I can reserve unit {unit['unit_id']} ({size_word(sqft)}, {unit['floor']} "
                f"floor) for you from {rd.say_date(day)} at {result['monthly_price']} a month. "
                f"The first month's rent, {result['monthly_price']}, is charged now to "
                f"{self.card()}. Shall I go ahead?")
        return self.propose(req, out, text, tool="rent_unit",
                            args={"customer_id": self.s["customer"], "unit_id": unit["unit_id"],
                                  "move_in_date": day.isoformat()})

    async def done_rent(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                        error: str | None, out: list[str]) -> None:
        if error:
            self.tool_failed("reserve the unit", error, out)
            return
        out.append(f"Done — unit {result['unit_id']} is reserved for you from "
                   f"{rd.say_date(result['move_in_date'])}; {result['charged']} has been "
                   f"charged to your card ending {result['card_last4']}, and your rent is paid "
                   f"until {rd.say_date(result['paid_until'])}. Your gate PIN works for it too.")

    # -- changing unit size ----------------------------------------------------------------
    def resize_terms(self, rental: dict[str, Any], new_pence: int) -> tuple[int, int, int]:
        """(transfer fee, difference charged now, days left) in pence and days."""
        left = max(0, self.days_to(rental["paid_until"]))
        step = new_pence - rental["monthly_pence"]
        diff = round(step * left / _seed.PRO_RATA_DAYS) if step > 0 else 0
        return _seed.TRANSFER_FEE_PENCE, diff, left

    async def step_resize(self, req: dict[str, Any], out: list[str]) -> str:
        rental = await self.choose_rental(req, out)
        if not isinstance(rental, dict):
            return rental or "done"
        text = self.text_of(req)
        wanted = [s for s in rd.sizes(text) if s != rental["size_sqft"]]
        if not wanted:
            up = not re.search(r"\bsmaller|\bdown|\bless (?:space|room)", text, re.I)
            options = [sq for sq in _seed.PRICES if (sq > rental["size_sqft"]) == up
                       and sq != rental["size_sqft"]]
            listed = "; ".join(f"{size_word(sq)} £{_seed.PRICES[sq] / 100:.2f} a month"
                               for sq in options)
            return self.ask("size", f"Your {self.say_unit(rental)} is £"
                            f"{rental['monthly_pence'] / 100:.2f} a month. Which size would "
                            f"you like? {listed}.", out)
        sqft = wanted[-1]
        if sqft < rental["size_sqft"]:
            record = await self.record()
            owed = [f for f in record["fees"] if f["status"] in {"unpaid", "disputed"}]
            if owed:
                fee = owed[0]
                out.append(f"I'm sorry, we can't move you to a smaller unit while a late fee is "
                           f"unpaid, and late fee {fee['fee_id']} (£"
                           f"{fee['amount_pence'] / 100:.2f}, charged on "
                           f"{rd.say_date(fee['charged_on'])}) is still "
                           f"{'under dispute' if fee['status'] == 'disputed' else 'unpaid'}. "
                           "Once it's paid I can move you. Nothing has been changed.")
                return "done"
        result, error = await self.call("find_units", size_sqft=sqft)
        if error or not result["vacant"]:
            out.append(f"I'm sorry, we have no {size_word(sqft)} units free at the moment. "
                       "Nothing has been changed.")
            return "done"
        unit = result["vacant"][0]
        fee, diff, left = self.resize_terms(rental, result["monthly_pence"])
        step = result["monthly_pence"] - rental["monthly_pence"]
        money = f"a £{fee / 100:.2f} transfer fee"
        if diff:
            money += (f" and £{diff / 100:.2f} for the {left} days you've already paid for at "
                      f"the old price (£{step / 100:.2f}"
                      f" a month more × {left} ÷ 30), £{(fee + diff) / 100:.2f} in all")
        elif sqft < rental["size_sqft"]:
            money += "; the rent you've already paid for this month isn't refunded"
        text = (f"Moving from {self.say_unit(rental)} to unit {unit['unit_id']} "
                f"({size_word(sqft)}) costs {money}, charged to {self.card()} now. From "
                f"{rd.say_date(rental['paid_until'])} your rent would be "
                f"{result['monthly_price']} a month. Shall I go ahead?")
        return self.propose(req, out, text, tool="change_unit",
                            args={"rental_id": rental["rental_id"],
                                  "new_unit_id": unit["unit_id"]},
                            why="Every move between units has the £10.00 transfer fee, and a "
                            "bigger unit costs the difference for the days already paid.")

    async def done_resize(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                          error: str | None, out: list[str]) -> None:
        if error:
            self.tool_failed("move you to the new unit", error, out)
            return
        extra = f" and the {result['difference']} difference" if result["difference"] != \
            "£0.00" else ""
        out.append(f"Done — you're moved from unit {result['old_unit']} to unit "
                   f"{result['unit_id']} ({size_word(result['size_sqft'])}). The "
                   f"{result['transfer_fee']} transfer fee{extra} went to your card ending "
                   f"{result['card_last4']}; your rent is {result['monthly_price']} a month "
                   f"from {rd.say_date(result['from'])}.")

    # -- gate PIN --------------------------------------------------------------------------
    def new_pin(self, text: str, current: str) -> str | None:
        """Hook: the PIN the customer wants: the last one named (a correction comes last)."""
        found = [p for p in rd.pins(text) if p != current]
        return found[-1] if found else None

    @staticmethod
    def pin_problem(pin: str) -> str | None:
        steps = {int(b) - int(a) for a, b in zip(pin, pin[1:], strict=False)}
        if len(set(pin)) == 1 or steps in ({1}, {-1}):
            return ("that PIN is too easy to guess (one digit repeated or a straight run isn't "
                    "allowed)")
        return None

    async def step_pin(self, req: dict[str, Any], out: list[str]) -> str:
        text = self.text_of(req)
        named = [u for _, u in rd.units(text)]
        record = await self.record()
        if named and not any(u in {r["unit_id"] for r in record["rentals"]} for u in named):
            await self.other_unit(named[-1], req, out)
            return "done"
        pin = self.new_pin(text, record["gate_pin"])
        if pin is None:
            asked = req["notes"].get("asked_pin", 0)
            if asked >= 2:
                out.append("No problem — your gate PIN stays as it is. Nothing has been "
                           "changed.")
                return "done"
            req["notes"]["asked_pin"] = asked + 1
            if _FORGOT.search(text) and not asked:
                lead = ("For security I can't read a gate PIN out in chat, but I can set a new "
                        "one for you straight away. ")
            else:
                lead = ""
            return self.ask("pin", lead + "What 6-digit PIN would you like? It can't be one "
                            "digit repeated or a straight run like 123456.", out)
        problem = self.pin_problem(pin)
        if problem:
            req["chunks"] = [c for c in req["chunks"] if pin not in re.sub(r"[ -]", "", c)]
            return self.ask("pin", f"I'm sorry, {problem}. What other 6-digit PIN would you "
                            "like?", out)
        lead = ("For security I can't read your current PIN out in chat. " if
                _FORGOT.search(text) else "")
        text = (f"{lead}I'll change your gate PIN to the new one you gave me, ending "
                f"{pin[-2:]}. It "
                "works at once at the gate and for all your units, and the old one stops "
                "working. There's no charge. Shall I go ahead?")
        return self.propose(req, out, text, tool="set_gate_pin",
                            args={"customer_id": self.s["customer"], "pin": pin})

    async def done_pin(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                       error: str | None, out: list[str]) -> None:
        if error:
            self.tool_failed("change the PIN", error, out)
            return
        out.append(f"Done — your new gate PIN (ending {result['pin_ends']}) works from now.")

    # -- van -------------------------------------------------------------------------------
    def move_in_free(self, rental: dict[str, Any], day: date, record: dict[str, Any]) -> bool:
        """Whether this booking is the rental's free move-in van."""
        start = date.fromisoformat(rental["start_date"])
        used = any(v["rental_id"] == rental["rental_id"] and v["move_in"]
                   for v in record["van_bookings"])
        return not used and start <= day < start + timedelta(days=_seed.VAN_FREE_DAYS) and \
            start >= self.today - timedelta(days=_seed.VAN_FREE_DAYS)

    def van_flag(self, free: bool) -> bool:
        """Hook: the move_in flag the booking is made with."""
        return free

    async def step_van(self, req: dict[str, Any], out: list[str]) -> str:
        rental = await self.choose_rental(req, out)
        if not isinstance(rental, dict):
            return rental or "done"
        text = self.text_of(req)
        day = self.pick_date(text)
        if day is None:
            return self.ask("van_date", "Which day would you like the van? It runs Monday to "
                            "Saturday, in two-hour slots from 09:00, 11:00, 13:00 and 15:00.", out)
        ahead = self.days_to(day)
        if ahead < 1:
            out.append("I'm sorry, the van can't be booked for today or a past day — slots "
                       "can be booked from tomorrow. Nothing has been booked.")
            return "done"
        if ahead > _seed.VAN_MAX_DAYS:
            out.append("I'm sorry, van slots open 28 days ahead, so I can't book "
                       f"{rd.say_date(day)} yet. Nothing has been booked.")
            return "done"
        if day.weekday() == 6:
            req["chunks"] = [c for c in req["chunks"] if not rd.visit_dates(c, self.today)]
            return self.ask("van_date", "I'm sorry, the van doesn't run on Sundays. Which other "
                            "day would you like?", out)
        slots, _ = await self.call("find_van_slots", day=day.isoformat())
        free = slots["free"]
        want = rd.van_slot(text)
        if want == "morning":
            want = next((s for s in free if s < "12:00"), "09:00")
        elif want == "afternoon":
            want = next((s for s in free if s >= "12:00"), "13:00")
        if not free:
            req["chunks"] = [c for c in req["chunks"] if not rd.visit_dates(c, self.today)]
            return self.ask("van_date", f"I'm sorry, the van is fully booked on "
                            f"{rd.say_date(day)}. Which other day would you like?", out)
        listed = ", ".join(free)
        if want is None or want not in _seed.VAN_TIMES:
            return self.ask("van_time", f"On {rd.say_date(day)} the free slots start at "
                            f"{listed} (two hours each). Which would you like?", out)
        if want not in free:
            return self.ask("van_time", f"I'm sorry, the {want} slot on {rd.say_date(day)} is "
                            f"taken. The free ones start at {listed}. Which would you like?",
                            out)
        record = await self.record()
        free_van = self.move_in_free(rental, day, record)
        price = ("free of charge — it's the free move-in van for your new unit" if free_van
                 else f"£{_seed.VAN_FEE_PENCE / 100:.2f}, charged to {self.card()}")
        text = (f"I can book the van for {rd.say_date(day)}, {want} to "
                f"{int(want[:2]) + 2:02d}:00, for {self.say_unit(rental)}: {price}. Shall I "
                "book it?")
        return self.propose(req, out, text, tool="book_van",
                            args={"customer_id": self.s["customer"],
                                  "rental_id": rental["rental_id"], "day": day.isoformat(),
                                  "slot": want, "move_in": self.van_flag(free_van)},
                            free=free_van,
                            why="The van is free once per new rental for its move-in week; "
                            "other bookings are £25.00 a slot.")

    async def done_van(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                       error: str | None, out: list[str]) -> None:
        if error:
            self.tool_failed("book the van", error, out)
            return
        cost = ("free of charge" if result["price"] == "£0.00" else
                f"{result['price']} charged to your card ending {result['card_last4']}")
        out.append(f"Done — the van is booked for {rd.say_date(result['day'])} at "
                   f"{result['slot']} (booking {result['booking_id']}), {cost}. Please collect "
                   "the keys from the office 10 minutes before.")

    # -- late fees -------------------------------------------------------------------------
    async def _fees(self, status: set[str]) -> list[dict[str, Any]]:
        record = await self.record()
        return [f for f in record["fees"] if f["status"] in status]

    def say_fee(self, fee: dict[str, Any]) -> str:
        return (f"late fee {fee['fee_id']} of £{fee['amount_pence'] / 100:.2f}, charged on "
                f"{rd.say_date(fee['charged_on'])}")

    async def step_pay_fee(self, req: dict[str, Any], out: list[str]) -> str:
        unpaid = await self._fees({"unpaid"})
        if not unpaid:
            held = await self._fees({"disputed"})
            out.append("Your late fee is under dispute, so there's nothing to pay until the "
                       "Store Manager has replied." if held else
                       "There are no unpaid late fees on your account.")
            return "done"
        fee = unpaid[0]
        text = (f"You have {self.say_fee(fee)}. I can take the £"
                f"{fee['amount_pence'] / 100:.2f} now from {self.card()}. Shall I go ahead?")
        return self.propose(req, out, text, tool="pay_late_fee", args={"fee_id": fee["fee_id"]})

    async def done_pay_fee(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                           error: str | None, out: list[str]) -> None:
        if error:
            self.tool_failed("take the payment", error, out)
            return
        out.append(f"Done — late fee {result['fee_id']} is paid: {result['paid']} from your "
                   f"card ending {result['card_last4']}.")

    async def step_dispute(self, req: dict[str, Any], out: list[str]) -> str:
        unpaid = await self._fees({"unpaid"})
        if not unpaid:
            held = await self._fees({"disputed"})
            out.append("Your late fee is already under dispute; the Store Manager will reply "
                       "within 5 working days." if held else
                       "There are no unpaid late fees on your account to dispute.")
            return "done"
        fee = unpaid[0]
        age = self.days_to(fee["charged_on"]) * -1
        if age > _seed.DISPUTE_DAYS:
            out.append(f"I'm sorry, I can't waive or cancel a late fee, and a fee can only be "
                       f"disputed within 30 days of being charged: your {self.say_fee(fee)}, "
                       f"is {age} days old, so I can't record a dispute either. It stays on "
                       "your account, and I can take payment for it if you'd like. Nothing "
                       "has been changed.")
            return "done"
        reason = re.sub(r"\s+", " ", self.text_of(req)).strip()[:280] or "customer disputes fee"
        text = (f"I can't waive or cancel a late fee myself, but I can record a dispute of your "
                f"{self.say_fee(fee)}, for the Store Manager to review, with your reason: "
                f"\"{reason}\". The fee stays on hold until they reply, within 5 working days. "
                "Shall I record the dispute?")
        return self.propose(req, out, text, tool="dispute_late_fee",
                            args={"fee_id": fee["fee_id"], "reason": reason})

    async def done_dispute(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                           error: str | None, out: list[str]) -> None:
        if error:
            self.tool_failed("record the dispute", error, out)
            return
        out.append(f"Done — your dispute of late fee {result['fee_id']} is recorded; "
                   f"{result['review']}. The fee is on hold until then.")

    # -- moving out ------------------------------------------------------------------------
    def refund_terms(self, rental: dict[str, Any], day: date,
                     fees: list[dict[str, Any]]) -> tuple[int, int, int, int]:
        """Hook: (days refunded, prepaid rent back, late fees deducted, refund) in pence."""
        days = max(0, (date.fromisoformat(rental["paid_until"]) - day).days)
        gross = round(rental["monthly_pence"] * days / _seed.PRO_RATA_DAYS)
        deducted = 0
        for fee in fees:
            if fee["rental_id"] == rental["rental_id"] and fee["status"] == "unpaid" and \
                    deducted + fee["amount_pence"] <= gross:
                deducted += fee["amount_pence"]
        return days, gross, deducted, gross - deducted

    async def step_notice(self, req: dict[str, Any], out: list[str]) -> str:
        rental = await self.choose_rental(req, out)
        if not isinstance(rental, dict):
            return rental or "done"
        if rental["status"] != "active":
            out.append(f"Your {self.say_unit(rental)} hasn't started yet, so there's no notice "
                       f"to give; please call the office on 0161 496 0322 to cancel a "
                       "reservation. Nothing has been changed.")
            return "done"
        earliest = self.today + timedelta(days=_seed.NOTICE_DAYS)
        day = self.pick_date(self.text_of(req))
        if day is None and req["notes"].get("too_soon") and \
                rd.answer(req["chunks"][-1]) == "yes":
            day = earliest       # "yes" to "that date or a later one?": the earliest
        if day is None:
            return self.ask("move_out_date", f"What date would you like to move out of "
                            f"{self.say_unit(rental)}? We need 14 days' notice, so the earliest "
                            f"is {rd.say_date(earliest)}.", out)
        if day < earliest:
            tries = req["notes"].get("too_soon", 0) + 1
            req["notes"]["too_soon"] = tries
            line = (f"I'm sorry, we need at least 14 days' notice, so I can't take a move-out "
                    f"date of {rd.say_date(day)}: the earliest is {rd.say_date(earliest)}.")
            if tries >= 2:
                out.append(line + " Nothing has been changed.")
                return "done"
            req["chunks"] = [c for c in req["chunks"] if not rd.visit_dates(c, self.today)]
            return self.ask("move_out_date", line + " Nothing has been changed. Would you like "
                            "to give notice for that date or a later one? Tell me the date if "
                            "so.", out)
        record = await self.record()
        days, gross, deducted, refund = self.refund_terms(rental, day, record["fees"])
        money = (f"Your rent is paid until {rd.say_date(rental['paid_until'])}, so {days} days "
                 f"come back pro rata: £{gross / 100:.2f}")
        if deducted:
            money += (f", less your unpaid late fee of £{deducted / 100:.2f}, which is deducted, "
                      f"so your refund is £{refund / 100:.2f}")
        money += (f", to {self.card()} within 5 working days." if refund or not deducted else
                  ".")
        if not days:
            money = "There's no prepaid rent after that date, so there's no refund."
        text = (f"I can give notice on {self.say_unit(rental)}, moving out on "
                f"{rd.say_date(day)}. {money} Please have the unit emptied and your padlock "
                "removed by then. Shall I go ahead?")
        return self.propose(req, out, text, tool="give_notice",
                            args={"rental_id": rental["rental_id"],
                                  "move_out_date": day.isoformat()},
                            stated=f"£{refund / 100:.2f}",
                            why="Prepaid rent after the move-out date comes back at a 30th of "
                            "the monthly price a day, less any unpaid late fees.")

    async def done_notice(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                          error: str | None, out: list[str]) -> None:
        if error:
            self.tool_failed("take your notice", error, out)
            return
        back = (f"{result['refund']} is refunded to your card ending {result['card_last4']} "
                f"within 5 working days" if result["refund"] != "£0.00" else
                "there is no refund to make")
        deducted = (f" (after the {result['late_fees_deducted']} late fee deducted)"
                    if result["late_fees_deducted"] != "£0.00" else "")
        out.append(f"Done — your notice on unit {result['unit_id']} is in: you move out on "
                   f"{rd.say_date(result['move_out_date'])}, and {back}{deducted}.")

    # -- authorised users ------------------------------------------------------------------
    async def step_auth(self, req: dict[str, Any], out: list[str]) -> str:
        rental = await self.choose_rental(req, out)
        if not isinstance(rental, dict):
            return rental or "done"
        users = rental.get("authorised_users", [])
        if len(users) >= _seed.MAX_AUTHORISED:
            out.append(f"I'm sorry, {self.say_unit(rental)} already has two authorised users "
                       f"({' and '.join(users)}), the most a unit can have, so I can't add "
                       "another. Nothing has been changed.")
            return "done"
        name = None
        for chunk in reversed(req["chunks"]):
            found = rd.person_name(chunk)
            if found and found != self.s["name"]:
                name = found
                break
        if name is None:
            return self.ask("name", "What's the full name of the person you'd like to add as "
                            "an authorised user?", out)
        text = (f"I'll add {name} as an authorised user on {self.say_unit(rental)}. They'll be "
                "able to open the unit with their own fob from the office, but not change your "
                "account or use your PIN. There's no charge. Shall I go ahead?")
        return self.propose(req, out, text, tool="add_authorised_user",
                            args={"rental_id": rental["rental_id"], "name": name})

    async def done_auth(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                        error: str | None, out: list[str]) -> None:
        if error:
            self.tool_failed("add the authorised user", error, out)
            return
        out.append(f"Done — {result['name']} is now an authorised user on unit "
                   f"{result['unit_id']}. They can collect their fob from the office with photo "
                   "ID.")
