"""The desk's flows, one per request: work out the change, state its cost, report the result.

Each `step_<intent>` returns "wait" (a question or a proposal is out) or "done"; each
`done_<intent>` reports what the system returned for the agreed call, and returns True when it
asked for another value (the request then stays open).
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from benchmarks.domains.removals import _read as rd
from benchmarks.domains.removals import _seed
from benchmarks.domains.removals._env import van_for

PHONE = "0117 496 0321"


def m3(n: int) -> str:
    return f"{n} cubic metre{'' if n == 1 else 's'}"


class Flows:
    """Mixin: the flows of `CorrectRemovalsAgent` (which supplies the state and helpers)."""

    s: dict[str, Any]
    today: date
    call: Any
    ask: Any
    propose: Any

    # -- hooks the flawed agent overrides --------------------------------------------------
    def pick_date(self, text: str) -> date | None:
        said = rd.dates(text, self.today)
        return said[-1] if said else None

    def date_fee(self, days: int) -> int:
        return 0 if days >= _seed.FREE_CHANGE_DAYS else _seed.DATE_FEE_PENCE

    def deposit_back(self, days: int) -> bool:
        return days >= _seed.CANCEL_REFUND_DAYS

    def claim_payable(self, view: dict[str, Any], value: int) -> int:
        cap = _seed.EXTENDED_CAP_PENCE if view["extended_cover"] else _seed.CLAIM_CAP_PENCE
        return min(value, cap)

    # -- helpers ---------------------------------------------------------------------------
    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_move", move_ref=self.s["ref"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    @staticmethod
    def card(view: dict[str, Any]) -> str:
        return f"your card ending {view['card_last4']}"

    @staticmethod
    def failed(error: str, out: list[str]) -> None:
        out.append(
            f"I'm sorry — the system refused that: {error}. Nothing has been changed or charged."
        )

    def args(self, **more: Any) -> dict[str, Any]:
        return {"move_ref": self.s["ref"], **more}

    def booked(self, view: dict[str, Any], out: list[str]) -> bool:
        if view["status"] == "booked":
            return True
        out.append(f"Your move {view['move_ref']} is {view['status']}, so I can't change it.")
        return False

    # -- look-up ---------------------------------------------------------------------------
    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        extras = [
            f"packing for {v['packing_rooms']} rooms" if v["packing_rooms"] else "",
            f"{v['storage_weeks']} weeks' storage" if v["storage_weeks"] else "",
            f"stairs surcharge for {v['stairs_floors']} floors" if v["stairs_floors"] else "",
        ]
        extra = ", ".join(e for e in extras if e) or "no extras"
        out.append(
            f"Your move {v['move_ref']} is on {rd.say_date(v['move_date'])} ({v['status']}), from "
            f"{v['from_address']}, {v['from_postcode']} to {v['to_address']}, {v['to_postcode']}: "
            f"{m3(v['volume_m3'])} in a {v['van']} van with a crew of {v['crew']}, a fixed price "
            f"of {v['price']} ({extra}); your {v['deposit']} deposit is paid."
        )
        return "done"

    # -- date change -----------------------------------------------------------------------
    async def step_date(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if not self.booked(v, out):
            return "done"
        days = v["days_to_move"]
        if days < _seed.NO_CHANGE_DAYS:
            out.append(
                f"I'm sorry — your move is on {rd.say_date(v['move_date'])}, fewer than 3 days "
                "away, so the date can no longer be changed. The only option is to cancel, and "
                f"at this stage the {v['deposit']} deposit would not be refunded. Nothing has "
                "been changed."
            )
            return "done"
        new = self.pick_date(self.text(req))
        if new is None or new.isoformat() == v["move_date"]:
            return self.ask("new_date", "Which date would you like to move to instead?", out)
        fee = self.date_fee(days)
        cost = (
            f"As your move is {days} days away, there's a {rd.pounds(fee)} date-change fee, "
            f"charged to {self.card(v)}."
            if fee
            else f"As your move is {days} days away, the change is free."
        )
        text = (
            f"I'll move your removal from {rd.say_date(v['move_date'])} to "
            f"{rd.say_date(new.isoformat())}, same crew, van and price. {cost} Shall I go ahead?"
        )
        args = self.args(new_date=new.isoformat(), fee_pence=fee)
        return self.propose(req, out, text, tool="change_date", args=args)

    async def done_date(
        self,
        req: dict[str, Any],
        pending: dict[str, Any],
        result: Any,
        error: str | None,
        out: list[str],
    ) -> bool:
        if error and "fully booked" in error:
            req["chunks"] = []
            self.ask(
                "new_date",
                f"I'm sorry — the system refused that: {error}. Nothing has been changed or "
                "charged. Which other date would you like?",
                out,
            )
            return True
        if error:
            self.failed(error, out)
            return False
        fee = (
            f" The {result['fee_charged']} fee is charged to your card."
            if pending["args"]["fee_pence"]
            else ""
        )
        out.append(f"Done — your move is now on {rd.say_date(result['move_date'])}.{fee}")
        return False

    # -- cancellation ----------------------------------------------------------------------
    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if not self.booked(v, out):
            return "done"
        days = v["days_to_move"]
        back = self.deposit_back(days)
        money = (
            f"As it's {days} days away, your {v['deposit']} deposit is refunded to {self.card(v)}."
            if back
            else f"As it's {days} days away — fewer than 14 — your {v['deposit']} deposit is not "
            "refunded."
        )
        text = f"I'll cancel your move on {rd.say_date(v['move_date'])}. {money} Shall I cancel it?"
        args = self.args(refund_deposit=back)
        return self.propose(req, out, text, tool="cancel_move", args=args)

    async def done_cancel(
        self,
        req: dict[str, Any],
        pending: dict[str, Any],
        result: Any,
        error: str | None,
        out: list[str],
    ) -> bool:
        if error:
            self.failed(error, out)
            return False
        money = (
            f"{result['deposit_refunded']} goes back to your card ending {result['card_last4']} "
            "within 5 working days."
            if pending["args"]["refund_deposit"]
            else "The deposit is not refunded."
        )
        out.append(f"Done — your move is cancelled. {money}")
        return False

    # -- packing ---------------------------------------------------------------------------
    async def step_packing(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if not self.booked(v, out):
            return "done"
        rooms = rd.rooms(self.text(req))
        if not rooms:
            return self.ask("rooms", "How many rooms would you like us to pack?", out)
        cost = rooms * _seed.PACKING_ROOM_PENCE
        text = (
            f"I'll add our packing service for {rooms} room{'s' if rooms > 1 else ''} the day "
            f"before your move, at £45.00 a room: {rd.pounds(cost)} added to your price, making "
            f"it {rd.pounds(v['price_pence'] + cost)}. Shall I add it?"
        )
        return self.propose(req, out, text, tool="add_packing", args=self.args(rooms=rooms))

    async def done_packing(
        self,
        req: dict[str, Any],
        pending: dict[str, Any],
        result: Any,
        error: str | None,
        out: list[str],
    ) -> bool:
        if error:
            self.failed(error, out)
            return False
        out.append(
            f"Done — packing for {result['packing_rooms']} rooms is booked; {result['added']} "
            f"added, your price is now {result['price']}."
        )
        return False

    # -- items -----------------------------------------------------------------------------
    async def step_items(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if not self.booked(v, out):
            return "done"
        text = self.text(req)
        size = rd.volume(text)
        if not size:
            return self.ask(
                "volume",
                "Roughly how many cubic metres do the items come to? Our survey guide gives a "
                "figure for each item.",
                out,
            )
        change = -size if rd.removing(text) else size
        volume = max(1, v["volume_m3"] + change)
        van = van_for(volume)
        if van is None:
            out.append(
                f"That would make your move {m3(volume)}, more than our largest van holds (35), so "
                f"I can't add it here; our office can arrange a second van on {PHONE}. Nothing "
                "has been changed."
            )
            return "done"
        steps = max(0, _seed.VAN_ORDER.index(van) - _seed.VAN_ORDER.index(v["van"]))
        cost = change * _seed.PER_M3_PENCE + steps * _seed.VAN_STEP_PENCE
        upgrade = (
            f" That's more than your {v['van']} van holds ({v['van_holds_m3']}), so you'd move "
            f"up to a {van} van with a crew of {_seed.CREW[van]}: £120.00 a size, "
            f"{rd.pounds(steps * _seed.VAN_STEP_PENCE)}."
            if steps
            else ""
        )
        change_said = (
            f"{rd.pounds(cost)} added to" if cost >= 0 else f"{rd.pounds(-cost)} taken off"
        )
        verb = "remove" if change < 0 else "add"
        text = (
            f"I'll {verb} {m3(abs(change))}, making your move {m3(volume)} at £28.00 a cubic "
            f"metre.{upgrade} That's {change_said} your price, making it "
            f"{rd.pounds(v['price_pence'] + cost)}. Shall I go ahead?"
        )
        args = self.args(volume_change_m3=change)
        return self.propose(req, out, text, tool="change_items", args=args)

    async def done_items(
        self,
        req: dict[str, Any],
        pending: dict[str, Any],
        result: Any,
        error: str | None,
        out: list[str],
    ) -> bool:
        if error:
            self.failed(error, out)
            return False
        out.append(
            f"Done — your move is now {m3(result['volume_m3'])} in a {result['van']} van with a "
            f"crew of {result['crew']}; your price is now {result['price']}."
        )
        return False

    # -- storage ---------------------------------------------------------------------------
    async def step_storage(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if not self.booked(v, out):
            return "done"
        weeks = rd.weeks(self.text(req))
        if not weeks:
            return self.ask("weeks", "How many weeks of storage would you like?", out)
        short = ""
        if weeks < _seed.STORAGE_MIN_WEEKS:
            short = f"Storage is for 2 weeks at least, so {weeks} week isn't possible. "
            weeks = _seed.STORAGE_MIN_WEEKS
        cost = weeks * _seed.STORAGE_WEEK_PENCE
        text = (
            f"{short}I'll add {weeks} weeks' storage between collection and delivery, at £30.00 a "
            f"week: {rd.pounds(cost)} added to your price, making it "
            f"{rd.pounds(v['price_pence'] + cost)}. Shall I add {weeks} weeks?"
        )
        return self.propose(req, out, text, tool="add_storage", args=self.args(weeks=weeks))

    async def done_storage(
        self,
        req: dict[str, Any],
        pending: dict[str, Any],
        result: Any,
        error: str | None,
        out: list[str],
    ) -> bool:
        if error:
            self.failed(error, out)
            return False
        out.append(
            f"Done — {result['storage_weeks']} weeks' storage is booked; {result['added']} "
            f"added, your price is now {result['price']}."
        )
        return False

    # -- damage claims ---------------------------------------------------------------------
    def _claim_closed(self, v: dict[str, Any], out: list[str]) -> bool:
        if v["status"] != "done":
            out.append("Claims are for damage on a move that has taken place; yours hasn't yet.")
            return True
        if -v["days_to_move"] > _seed.CLAIM_DAYS:
            out.append(
                f"I'm sorry — damage claims must be made within 7 days of the move, and yours "
                f"was on {rd.say_date(v['move_date'])}, so I can't register one. Nothing has "
                "been changed."
            )
            return True
        return False

    async def step_claim(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if self._claim_closed(v, out):
            return "done"
        if req.pop("want_item", False):
            # The answer to "which item?" is the item, whatever words it uses.
            said = req["chunks"][-1].strip(" .!").lower()
            req["item"] = re.sub(r"^(?:it was |it's )?(?:the |my |a |an |our )", "", said)
        item = req.get("item") or rd.item(self.text(req))
        if not item:
            req["want_item"] = True
            return self.ask("item", "I'm sorry to hear that. Which item was damaged?", out)
        req["item"] = item
        value = rd.value_pence(self.text(req))
        if value is None:
            return self.ask("value", f"What is the {item} worth, in pounds?", out)
        pay = self.claim_payable(v, value)
        cover = (
            "extended cover, up to £1,500.00"
            if v["extended_cover"]
            else ("standard cover, up to £100.00")
        )
        text = (
            f"I'll register a damage claim for your {item}, valued at {rd.pounds(value)}. Your "
            f"move has {cover} an item, so {rd.pounds(pay)} is payable. Shall I register it?"
        )
        args = self.args(item=item, value_pence=value)
        return self.propose(req, out, text, tool="file_claim", args=args, stated=rd.pounds(pay))

    async def done_claim(
        self,
        req: dict[str, Any],
        pending: dict[str, Any],
        result: Any,
        error: str | None,
        out: list[str],
    ) -> bool:
        if error:
            self.failed(error, out)
            return False
        out.append(
            f"Done — claim {result['claim_id']} for your {result['item']} is registered: "
            f"{result['payable']} is payable to your card within 10 working days."
        )
        return False

    # -- access notes ----------------------------------------------------------------------
    async def step_access(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if not self.booked(v, out):
            return "done"
        text = self.text(req)
        floors = rd.floors(text)
        permit = rd.parking(text)
        if floors is None and not permit:
            return self.ask(
                "floors",
                "How many floors of stairs without a lift will the crew carry things up or down?",
                out,
            )
        floors = floors or 0
        notes = [
            f"{floors} floors of stairs, no lift" if floors else "",
            "parking permit needed" if permit else "",
        ]
        note = "; ".join(n for n in notes if n)
        cost = floors * _seed.STAIRS_FLOOR_PENCE
        price = (
            f"Stairs without a lift are £25.00 a floor: {rd.pounds(cost)} added to your price, "
            f"making it {rd.pounds(v['price_pence'] + cost)}."
            if cost
            else "There's no charge for this."
        )
        text_out = f"I'll add this note for the crew: {note}. {price} Shall I add it?"
        args = self.args(floors=floors, note=note)
        return self.propose(req, out, text_out, tool="add_access", args=args)

    async def done_access(
        self,
        req: dict[str, Any],
        pending: dict[str, Any],
        result: Any,
        error: str | None,
        out: list[str],
    ) -> bool:
        if error:
            self.failed(error, out)
            return False
        out.append(
            f"Done — the crew's notes now say: {result['access_notes']}. Your price is "
            f"{result['price']}."
        )
        return False

    # -- contact details -------------------------------------------------------------------
    async def step_contact(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        phone, email = rd.phone(text), rd.email(text)
        if not phone and not email:
            return self.ask("contact", "What's the new phone number or email address, please?", out)
        parts = (f"phone number to {phone}" if phone else "", f"email to {email}" if email else "")
        said = " and ".join(p for p in parts if p)
        text_out = f"I'll change the {said} on move {v['move_ref']}. Shall I update it?"
        args = self.args(phone=phone or "", email=email or "")
        return self.propose(req, out, text_out, tool="update_contact", args=args)

    async def done_contact(
        self,
        req: dict[str, Any],
        pending: dict[str, Any],
        result: Any,
        error: str | None,
        out: list[str],
    ) -> bool:
        if error:
            self.failed(error, out)
            return False
        out.append(f"Done — we'll now use {result['phone']} and {result['email']}.")
        return False
