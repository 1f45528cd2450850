"""The desk's flows: bulky bookings, moves and cancellations, garden waste, missed bins,
bin orders, contact details and look-ups."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from benchmarks.domains.waste import _read as rd
from benchmarks.domains.waste import _seed

BAND_NAMES = {"small": "small item", "large": "large item", "fridge": "fridge or freezer"}
EXTRA_RE = re.compile(r"\b(?:extra|another|second|additional|spare)\b", re.I)


def a_or_n(item: str, n: int) -> str:
    if n > 1:
        return f"{n} {item}s"
    return f"{'an' if item[0] in 'aeiou' else 'a'} {item}"


class Flows:
    """The flows; `CorrectWasteAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]
    today: date
    call: Any
    ask: Any
    propose: Any

    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_account", account_id=self.s["account"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    def free_only(self, req: dict[str, Any], fee: int, what: str, out: list[str]) -> bool:
        """The resident said to go ahead only if free: a fee ends the request, nothing changed."""
        if fee and rd.FREE_ONLY.search(" ".join([self.text(req), *self.s.get("said", [])])):
            out.append(f"{what} would cost {rd.pounds(fee)}, and you asked me to leave it if "
                       "there was a charge, so I haven't changed anything.")  # fmt: skip
            return True
        return False

    def bulky_problem(self, v: dict[str, Any], day: date) -> str | None:
        """Why a day can't take a bulky collection for this round, or None."""
        bulky_day = v["round"]["bulky_day"]
        if day.strftime("%A") != bulky_day:
            return f"bulky collections on your round are on {bulky_day}s"
        if _seed.working_days_between(self.today, day) < _seed.NOTICE_DAYS:
            return "a bulky collection needs at least 2 working days' notice"
        return None

    def first_bulky_day(self, v: dict[str, Any], after: date | None = None) -> date:
        day = max(after or self.today, self.today) + timedelta(days=1)
        while self.bulky_problem(v, day):
            day += timedelta(days=1)
        return day

    def pick_booking(self, v: dict[str, Any], text: str) -> dict[str, Any] | None:
        """The booking meant: by its number, by an item on it, or the only one booked."""
        ids = rd.bookings(text)
        named = [b for b in v["bookings"] if b["booking_id"] in ids]
        if not named:
            said = set(rd.items(text))
            named = [b for b in v["bookings"] if said & set(b["items"].split(","))]
        if not named and len(v["bookings"]) == 1:
            named = v["bookings"]
        return named[0] if named else None

    def say_booking(self, b: dict[str, Any]) -> str:
        things = ", ".join(b["items"].split(","))
        return f"bulky collection {b['booking_id']} ({things}) on {rd.say_day(b['collect_on'])}"

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def band_price(self, item: str) -> int:
        return _seed.BANDS[_seed.ITEMS[item]]

    def refund_for(self, b: dict[str, Any]) -> int:
        """All of it back with 2 working days' notice; nothing back inside that."""
        return int(b["price_pence"]) if b["working_days_to"] >= _seed.NOTICE_DAYS else 0

    def garden_prices(self, have: int, count: int, concession: bool) -> list[int]:
        """A price per new bin: the first £52.00 (£26.00 with a concession), a second £35.00."""
        prices = []
        for n in range(have + 1, have + count + 1):
            if n == 1:
                prices.append(_seed.GARDEN_CONCESSION_PENCE if concession
                              else _seed.GARDEN_FIRST_PENCE)  # fmt: skip
            else:
                prices.append(_seed.GARDEN_SECOND_PENCE)
        return prices

    def missed_in_window(self, c: dict[str, Any]) -> bool:
        return int(c["working_days_since"]) <= _seed.MISSED_DAYS

    # -- bulky waste -----------------------------------------------------------------------
    async def step_book(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        bad = rd.refused(text)
        things = rd.items(text)
        if bad and not things:
            out.append(f"I'm sorry — we can't collect {bad[0]} as bulky waste; it needs a "
                       "licensed contractor or the Household Waste Recycling Centre. Nothing "
                       "has been booked.")  # fmt: skip
            return "done"
        if not things:
            return self.ask("items", "Which items would you like collected?", out)
        if len(things) > _seed.MAX_ITEMS:
            return self.ask("items", f"A booking takes at most {_seed.MAX_ITEMS} items — which "
                            f"{_seed.MAX_ITEMS} would you like in this one?", out)  # fmt: skip
        said = [d for d in rd.dates(text, self.today) if d > self.today]
        day = said[-1] if said else self.first_bulky_day(v)
        why = self.bulky_problem(v, day)
        note = ""
        if why:
            nearest = self.first_bulky_day(v, day - timedelta(days=1))
            note = (f"{rd.say_day(day.isoformat())} isn't possible: {why}. The nearest day I "
                    f"can book is {rd.say_day(nearest.isoformat())}. ")  # fmt: skip
            day = nearest
        counts: dict[str, int] = {}
        for thing in things:
            counts[thing] = counts.get(thing, 0) + 1
        parts = [f"{a_or_n(t, n)} ({BAND_NAMES[_seed.ITEMS[t]]}, {rd.pounds(self.band_price(t))}"
                 f"{' each' if n > 1 else ''})" for t, n in counts.items()]  # fmt: skip
        price = sum(self.band_price(t) for t in things)
        left = f" We can't take {bad[0]}, so it's left out." if bad else ""
        them = "it" if len(things) == 1 else "them"
        return self.propose(
            req, out, f"{note}To book a bulky collection of {' and '.join(parts)} on "
            f"{rd.say_day(day.isoformat())}: {rd.pounds(price)} in all, taken now from your "
            f"card ending {v['card_last4']}. Please have {them} out by 7am that day.{left} "
            "Shall I book it?",
            [("book_bulky", {"account_id": v["account_id"], "items": things,
                             "collect_on": day.isoformat(), "price_pence": price})],
        )  # fmt: skip

    async def step_move(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        b = self.pick_booking(v, text)
        if b is None:
            out.append("I can't find a bulky collection that matches that on your account.")
            return "done"
        new = [d for d in rd.dates(text, self.today) if d > self.today]
        new = [d for d in new if d.isoformat() != b["collect_on"]]
        if not new:
            return self.ask("collect_on", f"Which day would you like instead? Bulky "
                            f"collections on your round are on {v['round']['bulky_day']}s.",
                            out)  # fmt: skip
        day = new[-1]
        why = self.bulky_problem(v, day)
        if why:
            nearest = self.first_bulky_day(v, day - timedelta(days=1))
            return self.ask("collect_on", f"I'm sorry — {why}, so "
                            f"{rd.say_day(day.isoformat())} isn't possible. The nearest day is "
                            f"{rd.say_day(nearest.isoformat())}. Which day would you like?",
                            out)  # fmt: skip
        late = b["working_days_to"] < _seed.NOTICE_DAYS
        fee = _seed.MOVE_FEE_PENCE if late else 0
        if self.free_only(req, fee, "Moving it with less than 2 working days' notice", out):
            return "done"
        charge = (f"It's less than 2 working days away, so there's a move fee of "
                  f"{rd.pounds(fee)}, taken from your card ending {v['card_last4']}."
                  if fee else
                  "There's no charge, as it's 2 or more working days away.")  # fmt: skip
        return self.propose(
            req, out, f"To move {self.say_booking(b)} to {rd.say_day(day.isoformat())}. "
            f"{charge} Shall I move it?",
            [("move_bulky", {"account_id": v["account_id"], "booking_id": b["booking_id"],
                             "collect_on": day.isoformat(), "fee_pence": fee})],
        )  # fmt: skip

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        b = self.pick_booking(v, self.text(req))
        if b is None:
            out.append("I can't find a bulky collection that matches that on your account.")
            return "done"
        refund = self.refund_for(b)
        paid = rd.pounds(b["price_pence"])
        if refund:
            what = (f"the {paid} you paid is refunded to your card ending {v['card_last4']}, "
                    "as it's 2 or more working days away")  # fmt: skip
        else:
            what = (f"the {paid} you paid is not refunded, as it's less than 2 working days "
                    "before the collection")  # fmt: skip
        return self.propose(
            req, out, f"To cancel {self.say_booking(b)}: {what}. Shall I cancel it?",
            [("cancel_bulky", {"account_id": v["account_id"], "booking_id": b["booking_id"],
                               "refund_pence": refund})],
        )  # fmt: skip

    # -- garden waste ----------------------------------------------------------------------
    async def step_garden(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        have = len(v["garden"])
        if have >= _seed.MAX_GARDEN_BINS:
            out.append("Your property already has two garden-waste bins subscribed, the most "
                       "there can be. Nothing has been changed.")  # fmt: skip
            return "done"
        two = re.search(r"\b(?:two|2|both)\b.{0,25}\bbins\b", text, re.I)
        count = 2 if two and have == 0 else 1
        refs = rd.ctr_refs(" ".join([text, *self.s.get("said", [])]))
        wants = re.search(r"\bcouncil[- ]tax reduction\b|\bconcession|\bdiscount|\breduction\b",
                          text, re.I)  # fmt: skip
        if wants and not refs:
            return self.ask("ctr_ref", "For the concession I need your council-tax-reduction "
                            "reference — it starts CTR and has six digits.", out)  # fmt: skip
        concession = bool(refs) and refs[-1] == v["ctr_ref"]
        note = ""
        if refs and not concession:
            note = (f"I'm sorry — {refs[-1]} doesn't match a council-tax reduction on this "
                    "account, so the concession can't be applied. ")  # fmt: skip
        prices = self.garden_prices(have, count, concession)
        parts = []
        for n, price in enumerate(prices, start=have + 1):
            kind = ("first bin, concession rate" if n == 1 and concession else
                    "first bin" if n == 1 else "second bin")  # fmt: skip
            parts.append(f"{rd.pounds(price)} ({kind})")
        bins = "one bin" if count == 1 else "two bins"
        return self.propose(
            req, out, f"{note}To set up garden waste for {bins} until 31 March 2027: "
            f"{' and '.join(parts)}, {rd.pounds(sum(prices))} in all, taken now from your card "
            f"ending {v['card_last4']}. The fee is the same whenever you join — it isn't "
            "reduced for part of a year. Shall I set it up?",
            [("subscribe_garden", {"account_id": v["account_id"], "prices_pence": prices,
                                   "concession_ref": refs[-1] if concession else None})],
        )  # fmt: skip

    # -- bins ------------------------------------------------------------------------------
    async def step_missed(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        kinds = rd.bins(self.text(req))
        if not kinds:
            return self.ask("bin", "Which bin was missed — grey, blue, green or the food "
                            "caddy?", out)  # fmt: skip
        due = [c for c in v["collections"] if c["bin"] == kinds[0] and c["due"] < str(self.today)]
        name = _seed.BIN_NAMES[kinds[0]]
        if not due:
            out.append(f"I can't see a recent collection of your {name}, so there's nothing to "
                       "report. Nothing has been logged.")  # fmt: skip
            return "done"
        c = due[0]
        if not self.missed_in_window(c):
            out.append(f"I'm sorry — a missed bin can only be reported within 2 working days of "
                       f"its collection day, and your {name} was due on "
                       f"{rd.say_day(c['due'])}, so I can't log a report now. It will be "
                       "emptied on your next collection day.")  # fmt: skip
            return "done"
        back = _seed.add_working_days(self.today, _seed.RETURN_DAYS).isoformat()
        return self.propose(
            req, out, f"To report your {name} as missed on {rd.say_day(c['due'])}: the crew "
            f"will come back within 2 working days, by {rd.say_day(back)}. Please leave it out. "
            "Shall I log the report?",
            [("report_missed", {"account_id": v["account_id"], "bin": c["bin"],
                                "due": c["due"]})],
        )  # fmt: skip

    async def step_bin(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        kinds = rd.bins(text)
        if kinds and kinds[0] == "green":
            out.append("Green garden-waste bins come with a garden-waste subscription — I can "
                       "set one up if you'd like. Nothing has been ordered.")  # fmt: skip
            return "done"
        if not kinds:
            return self.ask("bin", "Which bin do you need — a blue recycling bin, a grey "
                            "general-waste bin or a food caddy?", out)  # fmt: skip
        kind = kinds[0]
        reason = "extra" if EXTRA_RE.search(text) else "replacement"
        if (kind, reason) not in _seed.BIN_PRICES:
            out.append("I'm sorry — each household has one grey general-waste bin, so an extra "
                       "one can't be ordered. Nothing has been ordered.")  # fmt: skip
            return "done"
        price = _seed.BIN_PRICES[(kind, reason)]
        name = f"{'an extra' if reason == 'extra' else 'a replacement'} {_seed.BIN_NAMES[kind]}"
        if self.free_only(req, price, name.capitalize(), out):
            return "done"
        by = _seed.add_working_days(self.today, _seed.DELIVERY_DAYS).isoformat()
        cost = (f"{rd.pounds(price)}, taken now from your card ending {v['card_last4']}"
                if price else "free of charge")  # fmt: skip
        return self.propose(
            req, out, f"To order {name}: {cost}. It will be delivered within 10 working days, "
            f"by {rd.say_day(by)}. Shall I order it?",
            [("order_bin", {"account_id": v["account_id"], "bin": kind, "reason": reason,
                            "price_pence": price})],
        )  # fmt: skip

    # -- contact details and look-ups ------------------------------------------------------
    async def step_contact(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        numbers, mails = rd.phones(text), rd.emails(text)
        if not numbers and not mails:
            return self.ask("phone", "What's the new phone number or email address?", out)
        args: dict[str, Any] = {"account_id": v["account_id"]}
        said = []
        if numbers:
            args["phone"] = numbers[-1]
            said.append(f"your phone number to {numbers[-1]}")
        if mails:
            args["email"] = mails[-1]
            said.append(f"your email address to {mails[-1]}")
        return self.propose(req, out, f"To change {' and '.join(said)}. Shall I update it?",
                            [("update_contact", args)])  # fmt: skip

    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        rnd = v["round"]
        parts = [f"Your bins are collected on {rnd['bin_day']}s and bulky waste on "
                 f"{rnd['bulky_day']}s."]  # fmt: skip
        for b in v["bookings"]:
            parts.append(f"You have {self.say_booking(b)}, {rd.pounds(b['price_pence'])} paid.")
        if not v["bookings"]:
            parts.append("There's no bulky collection booked.")
        out.append(" ".join(parts))
        return "done"

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:
        """What the system returned, in the resident's words."""
        if intent == "book":
            return (f"Done — bulky collection {r['booking_id']} is booked for "
                    f"{rd.say_day(r['collect_on'])}; {r['paid']} taken from your card ending "
                    f"{r['card_last4']}.")  # fmt: skip
        if intent == "move":
            fee = f"; {r['fee']} move fee taken" if r["fee"] != "£0.00" else ""
            return (f"Done — bulky collection {r['booking_id']} is now on "
                    f"{rd.say_day(r['collect_on'])}{fee}.")  # fmt: skip
        if intent == "cancel":
            return (f"Done — bulky collection {r['booking_id']} is cancelled; {r['refunded']} "
                    f"refunded to your card ending {r['card_last4']}.")  # fmt: skip
        if intent == "garden":
            ids = ", ".join(f"{s['sub_id']} ({s['price']})" for s in r["subscriptions"])
            return (f"Done — garden-waste subscription {ids}, until {rd.say_day(r['valid_to'])} "
                    f"2027; {r['total']} taken from your card ending {r['card_last4']}. The "
                    "green bin sticker comes in the post.")  # fmt: skip
        if intent == "missed":
            return (f"Done — missed-bin report {r['report_id']} is logged; the crew will "
                    f"return by {rd.say_day(r['return_by'])}.")  # fmt: skip
        if intent == "bin":
            return (f"Done — order {r['order_id']} for a {_seed.BIN_NAMES[r['bin']]} "
                    f"({r['price']}), delivered by {rd.say_day(r['deliver_by'])}.")  # fmt: skip
        return f"Done — your phone number is {r['phone']} and your email is {r['email']}."

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
