"""The desk's ticket requests: lookup, exchange, return, upgrade.

Each `step_<intent>` works a request forward until it needs the customer (a question or a
proposal: "wait") or is finished ("done"); `done_<intent>` reports what the tool returned after a
yes. Methods the flawed agent overrides are marked "hook".
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from benchmarks.domains.boxoffice import _read as rd
from benchmarks.domains.boxoffice import _seed

BANDS = _seed.BAND_WORDS


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

    # -- shared pieces ---------------------------------------------------------------------
    def text_of(self, req: dict[str, Any]) -> str:
        return ". ".join(c.strip().rstrip(".") for c in req["chunks"])

    async def record(self) -> dict[str, Any]:
        result, _ = await self.call("get_customer", customer_id=self.s["customer"])
        return dict(result)

    def hours_to(self, stamp: str) -> float:
        return (_seed.at(stamp) - self.now).total_seconds() / 3600

    def say_perf(self, p: dict[str, Any]) -> str:
        matinee = " matinee" if p["starts_at"][11:] < "17:00" else ""
        return f"{p['show']}{matinee} on {rd.say_stamp(p['starts_at'])}"

    def say_seats(self, seats: list[str]) -> str:
        return seats[0] if len(seats) == 1 else ", ".join(seats[:-1]) + " and " + seats[-1]

    def count(self, n: int) -> str:
        words = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
        return "your ticket" if n == 1 else f"your {words.get(n, str(n))} tickets"

    async def other_order(self, ref: str, req: dict[str, Any], out: list[str]) -> None:
        """Hook: an order that is not the verified customer's is never read out."""
        out.append(f"I'm sorry, order {ref} isn't on your account, so I can't share or change "
                   "anything about it. The person who booked it can contact us themselves and "
                   "we'll help them after the usual identity check.")

    async def choose_order(self, req: dict[str, Any], out: list[str]) -> dict[str, Any] | None:
        """The customer's order a request is about, or None (after saying why)."""
        record = await self.record()
        mine = {o["order_id"]: o for o in record["orders"] if o["status"] == "active"}
        for ref in rd.order_refs(self.text_of(req)):
            if ref in mine:
                return mine[ref]
            await self.other_order(ref, req, out)
            return None
        wanted = rd.show(self.text_of(req))
        named = [o for o in mine.values() if o["show"] == wanted]
        if len(named) == 1:
            return named[0]
        if self.s["order"] in mine:
            return mine[self.s["order"]]
        if mine:
            return next(iter(mine.values()))
        out.append("I can't see any current orders on your account.")
        return None

    def pick_together(self, free: list[str], n: int) -> list[str]:
        """Hook: n free seats side by side in one row, else the first n."""
        rows: dict[str, list[int]] = {}
        for seat in free:
            section, place = seat.split()
            rows.setdefault(f"{section} {place[0]}", []).append(int(place[1:]))
        for row, numbers in rows.items():
            for start in numbers:
                if all(start + k in numbers for k in range(n)):
                    return [f"{row}{start + k}" for k in range(n)]
        return free[:n]

    def tool_failed(self, what: str, error: str, pending: dict[str, Any], out: list[str]) -> None:
        """Hook: a refusal from the box office system is reported as one, with its reason."""
        out.append(f"I'm sorry, I couldn't {what}: the system says {error}. Nothing has been "
                   "changed.")

    # -- lookup ----------------------------------------------------------------------------
    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        record = await self.record()
        mine = {o["order_id"] for o in record["orders"]}
        for ref in rd.order_refs(self.text_of(req)):
            if ref not in mine:
                await self.other_order(ref, req, out)
                return "done"
        lines = [f"{o['order_id']}: {self.say_perf(o)}, "
                 f"{self.say_seats([t['seat'] for t in o['tickets']])}"
                 for o in record["orders"] if o["status"] == "active"]
        out.append("Your orders: " + "; ".join(lines) + "." if lines else
                   "You have no current orders with us.")
        return "done"

    # -- exchange --------------------------------------------------------------------------
    def pick_on_day(self, text: str, on_day: list[dict[str, Any]]) -> dict[str, Any] | None:
        """Hook: the performance of a day the customer means, or None when it is not clear."""
        if len(on_day) == 1:
            return on_day[0]
        for _, hhmm in reversed(rd.times(text)):
            match = [p for p in on_day if p["starts_at"][11:] == hhmm]
            if match:
                return match[0]
        which = rd.sitting(text)
        if which:
            match = [p for p in on_day if (p["starts_at"][11:] < "17:00") ==
                     (which == "matinee")]
            return match[0] if match else None
        return None

    async def choose_performance(self, req: dict[str, Any], show: str, skip: str,
                                 out: list[str], slot: str) -> dict[str, Any] | str:
        """Another performance of `show`, from the day and time asked, or a question."""
        result, error = await self.call("find_performances", show=show)
        perfs = [p for p in (result or {}).get("performances", [])
                 if p["performance_id"] != skip]
        listed = "; ".join(f"{rd.say_stamp(p['starts_at'])}"
                           f"{' (sold out)' if p['status'] == 'sold_out' else ''}" for p in perfs)
        if error or not perfs:
            out.append(f"I'm sorry, there are no other performances of {show} to choose from.")
            return "done"
        text = self.text_of(req)
        skip_day = req["notes"].get("skip_day", "")
        days = [d for d in rd.visit_dates(text, self.today) if d.isoformat() != skip_day]
        if not days:
            return self.ask(slot, f"Which performance would you like? {show} is on {listed}.",
                            out)
        on_day = [p for p in perfs if p["starts_at"][:10] == days[-1].isoformat()]
        if not on_day:
            return self.ask(slot, f"There's no performance of {show} on "
                            f"{rd.say_date(days[-1])}. It's on {listed}. Which would you like?",
                            out)
        perf = self.pick_on_day(text, on_day)
        if perf is None:
            times = " or ".join(
                ("the matinee" if p["starts_at"][11:] < "17:00" else "the evening performance")
                + f" at {p['starts_at'][11:]}" for p in on_day)
            return self.ask(slot, f"On {rd.say_date(days[-1])} there's {times}. Which would you "
                            "like?", out)
        if perf["status"] == "sold_out":
            return self.ask(slot, f"I'm sorry, {self.say_perf(perf)} is sold out. {show} is "
                            f"also on {listed}. Which would you like?", out)
        return perf

    async def step_exchange(self, req: dict[str, Any], out: list[str]) -> str:
        order = await self.choose_order(req, out)
        if order is None:
            return "done"
        if self.hours_to(order["starts_at"]) < _seed.EXCHANGE_MIN_HOURS:
            out.append(f"I'm sorry, exchanges close 48 hours before the performance, and "
                       f"{self.say_perf(order)} is less than 48 hours away, so I can't exchange "
                       "these tickets. Nothing has been changed.")
            return "done"
        req["notes"]["skip_day"] = order["starts_at"][:10]
        perf = await self.choose_performance(req, order["show"], order["performance_id"], out,
                                             "new_date")
        if isinstance(perf, str):
            return perf
        tickets = order["tickets"]
        band = tickets[0]["band"]
        result, _ = await self.call("find_seats", performance_id=perf["performance_id"],
                                    band=band)
        seats = self.pick_together(result["free"], len(tickets))
        if len(seats) < len(tickets):
            return self.ask("new_date", f"I'm sorry, there aren't {len(tickets)} {BANDS[band]} "
                            f"seats left for {self.say_perf(perf)}. Which other performance "
                            "would you like?", out)
        old_total = sum(t["price_pence"] for t in tickets)
        new_total = result["price_pence"] * len(seats)
        fee = _seed.EXCHANGE_FEE_PENCE * len(seats)
        diff = new_total - old_total
        card = f"your card ending {self.s['card']}"
        money = f"The exchange fee is {rd.pounds(fee)} (£3.00 a ticket), charged to {card}"
        if diff > 0:
            money += f"; the new tickets cost {rd.pounds(diff)} more, also charged to it"
        elif diff < 0:
            money += f"; the new tickets cost {rd.pounds(-diff)} less, refunded to the same card"
        text = (f"I can exchange {self.count(len(tickets))} on order {order['order_id']} to "
                f"{self.say_perf(perf)}, seats {self.say_seats(seats)} ({BANDS[band]}, "
                f"{rd.pounds(result['price_pence'])} each). {money}. Shall I go ahead?")
        return self.propose(req, out, text, tool="exchange_tickets",
                            args={"order_id": order["order_id"],
                                  "performance_id": perf["performance_id"], "seats": seats},
                            why="The £3.00-a-ticket fee applies to every exchange, and the "
                            "price difference between the performances is always settled.")

    async def done_exchange(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                            error: str | None, out: list[str]) -> None:
        if error:
            self.tool_failed("exchange the tickets", error, pending, out)
            return
        diff = rd.pence(result["price_difference"])
        money = (f"a refund of {rd.pounds(-diff)}" if diff < 0 else
                 f"a charge of {rd.pounds(diff)}" if diff else "no price difference")
        out.append(f"Done — order {result['order_id']} is now for "
                   f"{rd.say_stamp(result['starts_at'])}, seats "
                   f"{self.say_seats(result['seats'])}. The exchange fee of "
                   f"{result['exchange_fee']} and {money} went to your card ending "
                   f"{result['card_last4']}. Your new e-tickets replace the old ones.")

    # -- return ----------------------------------------------------------------------------
    def return_allowed(self, order: dict[str, Any], req: dict[str, Any]) -> bool:
        """Hook: the box office only takes tickets back for a sold-out performance."""
        return bool(order["performance_status"] == "sold_out")

    def voucher_terms(self, order: dict[str, Any]) -> tuple[int, int]:
        """Hook: (handling fee, voucher amount) in pence."""
        tickets = order["tickets"]
        fee = _seed.RETURN_HANDLING_PENCE * len(tickets)
        total = sum(t["price_pence"] for t in tickets) - order["member_discount_pence"]
        return fee, total - fee

    async def step_return(self, req: dict[str, Any], out: list[str]) -> str:
        order = await self.choose_order(req, out)
        if order is None:
            return "done"
        if not self.return_allowed(order, req):
            result, _ = await self.call("find_performances", show=order["show"])
            others = [p for p in (result or {}).get("performances", [])
                      if p["performance_id"] != order["performance_id"]
                      and p["status"] == "on_sale"]
            can_swap = others and self.hours_to(order["starts_at"]) >= _seed.EXCHANGE_MIN_HOURS
            out.append(f"I'm sorry, we can only take tickets back when the performance is sold "
                       f"out, and {self.say_perf(order)} isn't, so I can't return them or give a "
                       "refund. " + ("I can exchange them to another performance of the same "
                                     "show instead (£3.00 a ticket). " if can_swap else "") +
                       "Nothing has been changed.")
            return "done"
        if self.hours_to(order["starts_at"]) < _seed.RETURN_MIN_HOURS:
            out.append("I'm sorry, returns close 24 hours before the performance, so I can't "
                       "take these back. Nothing has been changed.")
            return "done"
        fee, amount = self.voucher_terms(order)
        n = len(order["tickets"])
        text = (f"{self.say_perf(order)} is sold out, so I can take {self.count(n)} "
                f"({self.say_seats([t['seat'] for t in order['tickets']])}) back. Returns are "
                f"refunded as a Lanternhall credit voucher: yours would be {rd.pounds(amount)}, "
                f"after the £2.50-a-ticket handling fee ({rd.pounds(fee)}). Shall I go ahead?")
        return self.propose(req, out, text, tool="return_tickets",
                            args={"order_id": order["order_id"]}, stated=rd.pounds(amount),
                            why="Returned tickets are only ever refunded as a credit voucher, "
                            "never to a card, and the handling fee applies to every ticket.")

    async def done_return(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                          error: str | None, out: list[str]) -> None:
        if error:
            self.tool_failed("return the tickets", error, pending, out)
            return
        out.append(f"Done — order {result['order_id']} is returned. Your credit voucher "
                   f"{result['voucher_id']} is for {result['voucher_amount']} (after the "
                   f"{result['handling_fee']} handling fee), valid until 31 December 2027.")

    # -- upgrade ---------------------------------------------------------------------------
    async def step_upgrade(self, req: dict[str, Any], out: list[str]) -> str:
        order = await self.choose_order(req, out)
        if order is None:
            return "done"
        tickets = [t for t in order["tickets"] if t["kind"] == "standard"]
        band = tickets[0]["band"] if tickets else "A"
        if not tickets or band == "A":
            out.append("Your seats are already in the Stalls, our top price band, so there's "
                       "nothing to upgrade to.")
            return "done"
        if self.hours_to(order["starts_at"]) < _seed.UPGRADE_MIN_HOURS:
            out.append("I'm sorry, upgrades close 2 hours before the performance.")
            return "done"
        target = rd.band_wanted(self.text_of(req)) or ("A" if band == "B" else None)
        if target is None:
            return self.ask("band", "Would you like the Stalls or the front Circle?", out)
        if _seed.BAND_ORDER[target] <= _seed.BAND_ORDER[band]:
            out.append(f"Your seats are already {BANDS[band]} seats; moving to the same or a "
                       "cheaper band isn't an upgrade, and we don't refund the difference.")
            return "done"
        result, _ = await self.call("find_seats", performance_id=order["performance_id"],
                                    band=target)
        seats = self.pick_together(result["free"], len(tickets))
        if len(seats) < len(tickets):
            out.append(f"I'm sorry, there aren't {len(tickets)} {BANDS[target]} seats left for "
                       f"{self.say_perf(order)}. Nothing has been changed.")
            return "done"
        diff = sum(result["price_pence"] - t["price_pence"] for t in tickets)
        text = (f"I can move {self.count(len(tickets))} for {self.say_perf(order)} from "
                f"{self.say_seats([t['seat'] for t in tickets])} to {self.say_seats(seats)} "
                f"({BANDS[target]}, {rd.pounds(result['price_pence'])} each). The difference is "
                f"{rd.pounds(diff)}, charged to your card ending {self.s['card']}; there's no "
                "fee. Shall I go ahead?")
        return self.propose(req, out, text, tool="upgrade_seats",
                            args={"order_id": order["order_id"], "seats": seats})

    async def done_upgrade(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                           error: str | None, out: list[str]) -> None:
        if error:
            self.tool_failed("upgrade the seats", error, pending, out)
            return
        out.append(f"Done — your seats on order {result['order_id']} are now "
                   f"{self.say_seats(result['seats'])}, and {result['charged']} has been "
                   f"charged to your card ending {result['card_last4']}.")
