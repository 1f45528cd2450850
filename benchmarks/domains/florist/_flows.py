"""The desk's flows: orders, quotes, look-ups, moves, addresses, cards, swaps, cancels, claims."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from benchmarks.domains.florist import _read as rd
from benchmarks.domains.florist import _seed

SLOT_HOURS = {"morning": "09:00–13:00", "afternoon": "13:00–17:00"}
ADDRESS_ASK = "What's the full delivery address?"
ADDRESS_AGAIN = "I need the full address with its postcode, please."
ONE_SIZE = {pid for pid, _, _, sizes in _seed.PRODUCTS if len(sizes) == 1}
Status = str | None


def flowers_of(o: dict[str, Any]) -> int:
    return int(o["total_pence"] - o["delivery_fee_pence"])


class Flows:
    """The flows; `CorrectFloristAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]
    today: date
    call: Any
    ask: Any
    propose: Any
    now: Any

    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_account", customer_id=self.s["account"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    async def catalogue(self) -> dict[str, Any]:
        cat, _ = await self.call("get_catalogue")
        products = {p["product_id"]: p for p in cat["products"]}
        zones = {z["district"]: z for z in cat["zones"]}
        return {"products": products, "zones": zones}

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    @staticmethod
    def say_items(items: list[dict[str, Any]]) -> str:
        """'Classic Red Roses (large)', '6 x Buttonhole', 'Potted Orchid'."""
        said = []
        for i in items:
            name = i["name"] if i["product_id"] in ONE_SIZE else f"{i['name']} ({i['size']})"
            said.append(f"{i['qty']} x {name}" if i["qty"] > 1 else name)
        return " and ".join(said)

    def say_order(self, o: dict[str, Any]) -> str:
        return (
            f"order {o['order_id']} ({self.say_items(o['items'])} for {o['recipient']}, "
            f"{rd.say_day(o['delivery_date'])}, {o['slot']})"
        )

    @staticmethod
    def card_said(req: dict[str, Any]) -> str | None:
        """The card's words from the last message that gave them (each read on its own)."""
        found = (rd.card_message(chunk) for chunk in reversed(req["chunks"]))
        return next((c for c in found if c), None)

    @staticmethod
    def served(cat: dict[str, Any]) -> str:
        return ", ".join(sorted(cat["zones"]))

    @staticmethod
    def in_stock(cat: dict[str, Any]) -> str:
        names = [p["name"] for p in cat["products"].values() if p["in_stock"]]
        return "In stock today: " + ", ".join(names) + "."

    @staticmethod
    def size_list(p: dict[str, Any]) -> str:
        return ", ".join(f"{s} ({rd.pounds(v)})" for s, v in p["sizes"].items())

    def pick_order(
        self, v: dict[str, Any], text: str, statuses: tuple[str, ...], prefer: Any = None
    ) -> tuple[dict[str, Any] | None, bool]:
        """The order meant: by number, day, flowers or recipient, or the only one; (order, many)."""
        cands = [o for o in v["orders"] if o["status"] in statuses and not o["replacement_for"]]
        ids = rd.orders(text)
        if ids:
            # the last number said: "OR6107, sorry, OR6108" is a correction
            return next((o for o in cands if o["order_id"] == ids[-1]), None), False
        days = {d.isoformat() for d in rd.dates(text, self.today, all_said=True)}
        named = {m.product for m in rd.products(text)}
        narrowers = [
            lambda o: o["delivery_date"] in days,
            lambda o: bool(named & {i["product_id"] for i in o["items"]}),
            lambda o: bool(re.search(rf"\b{re.escape(o['recipient'].split()[0])}\b", text)),
        ]
        if prefer is not None:
            narrowers.insert(0, prefer)
        for keep in narrowers:
            narrowed = [o for o in cands if keep(o)]
            if narrowed:
                cands = narrowed
        if len(cands) == 1:
            return cands[0], False
        return None, len(cands) > 1

    def which_order(self, many: bool, out: list[str], what: str = "an open order") -> str:
        if many:
            return self.ask(
                "order_id",
                "Which order is it? The order number starts OR and is on your confirmation email.",
                out,
            )
        out.append(
            f"I can't find {what} that matches that on your account. Nothing has been changed."
        )
        return "done"

    def made_up(self, o: dict[str, Any], out: list[str]) -> str:
        out.append(
            f"I'm sorry — {self.say_order(o)} has already been made up by our "
            "florists, so it can't be changed now. Nothing has been changed."
        )
        return "done"

    def free_only(self, req: dict[str, Any], fee: int, what: str, out: list[str]) -> bool:
        """The goal said to go ahead only if free: a charge ends the request, nothing changed."""
        if fee > 0 and rd.FREE_ONLY.search(" ".join([self.text(req), *self.s["said"]])):
            out.append(
                f"{what} would cost {rd.pounds(fee)}, and you asked me to leave it if "
                "there was a charge, so I haven't changed anything."
            )
            return True
        return False

    def change_fee(self, o: dict[str, Any]) -> int:
        """A change inside 48 hours of the slot's start costs the change fee."""
        return _seed.CHANGE_FEE_PENCE if o["hours_to_delivery"] < _seed.FREE_CHANGE_HOURS else 0

    def day_problem(self, day: date) -> str | None:
        """Why flowers can't go out on `day` (past, closed, or today after the cut-off)."""
        if day < self.today:
            return f"{rd.say_day(day.isoformat())} has passed."
        if _seed.is_closed(day):
            return (
                f"We don't deliver on {rd.say_day(day.isoformat())}: deliveries run Monday "
                "to Saturday, and not on Christmas Day, Boxing Day or New Year's Day."
            )
        if day == self.today and self.now.strftime("%H:%M") >= _seed.SAME_DAY_CUTOFF:
            return (
                f"Same-day deliveries have to be ordered by {_seed.SAME_DAY_CUTOFF}, and it's "
                f"now {self.now.strftime('%H:%M')}."
            )
        return None

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def line_price(self, unit: int, qty: int) -> int:
        return unit * qty

    def deposit_for(self, total: int) -> int:
        """Wedding and funeral orders: 25% of the order total, rounded down to the penny."""
        return total * _seed.DEPOSIT_PERCENT // 100

    def same_day_problem(self, day: date) -> str | None:
        """A new order for today: only before the cut-off."""
        if day == self.today and self.now.strftime("%H:%M") >= _seed.SAME_DAY_CUTOFF:
            return self.day_problem(day)
        return None

    def delivery_difference(self, old_fee: int, new_fee: int) -> int:
        """A new address in another zone: the difference between the two zones' fees."""
        return new_fee - old_fee

    def refund_for(self, o: dict[str, Any]) -> int:
        """All that was paid 48+ hours out (or when we're out of stock), half inside, none once
        made up."""
        if o["status"] == "made_up":
            return 0
        if any(not i["in_stock"] for i in o["items"]):
            return int(o["paid_pence"])
        if o["hours_to_delivery"] >= _seed.FREE_CHANGE_HOURS:
            return int(o["paid_pence"])
        return int(o["paid_pence"]) // 2

    def complaint_problem(self, o: dict[str, Any]) -> str | None:
        """Wilted flowers are reported on the delivery day or within the two days after."""
        delivered = date.fromisoformat(o["delivery_date"])
        if self.today > delivered + timedelta(days=_seed.COMPLAINT_DAYS):
            return (
                f"I'm sorry — wilted flowers have to be reported within 2 days of delivery, "
                f"and {self.say_order(o)} was delivered on "
                f"{rd.say_day(o['delivery_date'])}, so I can't offer a replacement or a "
                "refund now. Nothing has been changed."
            )
        return None

    async def other_order(self, req: dict[str, Any], order_id: str, out: list[str]) -> str:
        """An order not on the caller's account: nothing about it is shared."""
        out.append(
            f"I'm sorry — {order_id} isn't an order on your account, and I can only "
            "share an order's details with the customer who placed it. They're welcome "
            "to contact us themselves."
        )
        return "done"

    # -- a new order -------------------------------------------------------------------------
    def _lines(
        self, req: dict[str, Any], cat: dict[str, Any], out: list[str]
    ) -> tuple[list[dict[str, Any]], Status]:
        ans = req["answers"]
        mentions = rd.products(self.text(req))
        if not mentions:
            return [], self.ask(
                "items",
                "What would you like to send? "
                + self.in_stock(cat)
                + " Each comes in sizes; I'll give you the prices.",
                out,
            )
        lines: list[dict[str, Any]] = []
        for m in mentions:
            p = cat["products"][m.product]
            if any(line["product_id"] == m.product for line in lines):
                continue
            if not p["in_stock"]:
                out.append(
                    f"I'm sorry — {p['name']} is out of stock at the moment, so I can't "
                    f"take that order. {self.in_stock(cat)} Nothing has been ordered."
                )
                return [], "done"
            size = rd.size_of(ans.get("size_override", "")) or m.size
            size = size if size in p["sizes"] else rd.size_of(ans.get("size", ""))
            size = next(iter(p["sizes"])) if len(p["sizes"]) == 1 else size
            if size not in p["sizes"]:
                return [], self.ask(
                    "size",
                    f"Which size would you like for the {p['name']}: {self.size_list(p)}?",
                    out,
                )
            unit = p["sizes"][size]
            lines.append(
                {
                    "product_id": m.product,
                    "name": p["name"],
                    "size": size,
                    "qty": m.qty,
                    "unit": unit,
                    "price_pence": self.line_price(unit, m.qty),
                }
            )
        return lines, None

    def _order_day(self, req: dict[str, Any], out: list[str]) -> tuple[date | None, Status]:
        days = rd.dates(self.text(req), self.today)
        if not days:
            return None, self.ask(
                "delivery_date",
                "Which day should they be delivered? We deliver Monday to Saturday.",
                out,
            )
        day = days[-1]
        late = self.same_day_problem(day)
        if late:
            tomorrow = rd.say_day((self.today + timedelta(days=1)).isoformat())
            out.append(
                f"I'm sorry — {late[0].lower()}{late[1:]} I can't get flowers out today, "
                "so nothing has been "
                f"ordered. The earliest I can deliver is {tomorrow}, morning or "
                "afternoon."
            )
            return None, "done"
        why = None if day == self.today else self.day_problem(day)
        if why:
            return None, self.ask("delivery_date", f"{why} Which other day would suit?", out)
        return day, None

    def _order_address(
        self, req: dict[str, Any], cat: dict[str, Any], out: list[str]
    ) -> tuple[dict[str, Any], Status]:
        ans = req["answers"]
        said = rd.address_answer(ans["address"]) if "address" in ans else None
        said = said or next(iter(rd.addresses(self.text(req))[-1:]), None)
        if said is None:
            again = "address" in ans
            return {}, self.ask("address", ADDRESS_AGAIN if again else ADDRESS_ASK, out)
        zone = cat["zones"].get(_seed.district(said[1]))
        if zone is None:
            out.append(
                f"I'm sorry — we don't deliver to {_seed.district(said[1])}. We deliver "
                f"to {self.served(cat)}. Nothing has been ordered."
            )
            return {}, "done"
        return {"address_line": said[0], "postcode": said[1], "zone": zone}, None

    async def step_order(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        cat = await self.catalogue()
        text, ans = self.text(req), req["answers"]
        lines, status = self._lines(req, cat, out)
        if status:
            return status
        day, status = self._order_day(req, out)
        if status or day is None:
            return status or "done"
        where, status = self._order_address(req, cat, out)
        if status:
            return status
        slot = rd.slot(text)
        if slot is None or (day == self.today and slot == "morning"):
            return self.ask(
                "slot",
                "Morning (09:00–13:00) or afternoon (13:00–17:00)?"
                + (" Same-day deliveries go in the afternoon." if day == self.today else ""),
                out,
            )
        who = rd.name_answer(ans["recipient"]) if "recipient" in ans else rd.recipient(text)
        if not who:
            return self.ask(
                "recipient",
                "Who are the flowers for? I need the recipient's name for the driver.",
                out,
            )
        card = rd.card_answer(ans["card_message"]) if "card_message" in ans else self.card_said(req)
        if card is None:
            return self.ask(
                "card_message", "What would you like the card to say? (Or say no card.)", out
            )
        return self._propose_order(req, v, lines, day, slot, who, where, card, out)

    def _propose_order(
        self,
        req: dict[str, Any],
        v: dict[str, Any],
        lines: list[dict[str, Any]],
        day: date,
        slot: str,
        who: str,
        where: dict[str, Any],
        card: str,
        out: list[str],
    ) -> str:
        text = self.text(req)
        ids = {line["product_id"] for line in lines}
        occasion = ""
        if ids & {"bridal", "buttonhole"} or re.search(r"\bwedding|\bmarried|\bbride", text, re.I):
            occasion = "wedding"
        if "funeral-wreath" in ids or re.search(r"\bfuneral", text, re.I):
            occasion = "funeral"
        flowers = sum(line["price_pence"] for line in lines)
        fee = int(where["zone"]["fee_pence"])
        total = flowers + fee
        paid = self.deposit_for(total) if occasion else total
        priced = "; ".join(
            f"{self.say_items([line])} at {rd.pounds(line['price_pence'])}"
            + (f" ({rd.pounds(line['unit'])} each)" if line["qty"] > 1 else "")
            for line in lines
        )
        pay = (
            f"As a {occasion} order, a 25% deposit of {rd.pounds(paid)} is taken now from your "
            f"card ending {v['card_last4']}, and the balance of {rd.pounds(total - paid)} on "
            "the delivery day."
            if occasion
            else f"{rd.pounds(total)} is taken now from your card ending {v['card_last4']}."
        )
        said_card = f"with the card: '{card}'" if card else "with no card message"
        return self.propose(
            req,
            out,
            f"To order {priced}, for {who} at {where['address_line']}, {where['postcode']}, on "
            f"{rd.say_day(day.isoformat())} in the {slot} ({SLOT_HOURS[slot]}), {said_card}. "
            f"Delivery to {_seed.district(where['postcode'])} (zone {where['zone']['zone']}) is "
            f"{rd.pounds(fee)}, so the total is {rd.pounds(total)}. {pay} Shall I place the "
            "order?",
            [
                (
                    "place_order",
                    {
                        "customer_id": v["customer_id"],
                        "items": [
                            {k: line[k] for k in ("product_id", "size", "qty", "price_pence")}
                            for line in lines
                        ],
                        "delivery_date": day.isoformat(),
                        "slot": slot,
                        "recipient": who,
                        "address_line": where["address_line"],
                        "postcode": where["postcode"],
                        "card_message": card,
                        "occasion": occasion,
                        "delivery_fee_pence": fee,
                        "paid_pence": paid,
                    },
                )
            ],
        )

    # -- questions -----------------------------------------------------------------------------
    async def step_quote(self, req: dict[str, Any], out: list[str]) -> str:
        cat = await self.catalogue()
        text = self.text(req)
        places = rd.districts(text)
        if not places:
            return self.ask("delivery_postcode", "Which postcode would the flowers go to?", out)
        zone = cat["zones"].get(places[-1])
        if zone is None:
            out.append(
                f"I'm sorry — we don't deliver to {places[-1]}. We deliver to {self.served(cat)}."
            )
            return "done"
        fee = int(zone["fee_pence"])
        said = [f"Delivery to {places[-1]} (zone {zone['zone']}) is {rd.pounds(fee)}."]
        for m in rd.products(text):
            p = cat["products"][m.product]
            if not p["in_stock"]:
                said.append(f"{p['name']} is out of stock at the moment.")
            elif (size := m.size if len(p["sizes"]) > 1 else "standard") in p["sizes"]:
                price = self.line_price(p["sizes"][size], m.qty)
                said.append(
                    f"{self.say_items([{**p, 'size': size, 'qty': m.qty}])} is "
                    f"{rd.pounds(price)}, so {rd.pounds(price + fee)} in all with "
                    "delivery."
                )
            else:
                said.append(f"{p['name']}: {self.size_list(p)}, plus delivery.")
        out.append(" ".join(said) + " Nothing has been ordered.")
        return "done"

    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        mine = {o["order_id"] for o in v["orders"]}
        said = rd.orders(text)[-1:]
        if said and said[0] not in mine:
            # the last number said ("OR6123, sorry, OR6122" is a correction)
            return await self.other_order(req, said[0], out)
        o, many = self.pick_order(v, text, ("placed", "made_up"))
        if o is None and not many:
            o, many = self.pick_order(v, text, ("placed", "made_up", "delivered"))
        if o is None:
            return self.which_order(many, out, "an order")
        r, error = await self.call("get_order", order_id=o["order_id"])
        if error:
            out.append(f"I'm sorry — I couldn't read that order: {error}.")
            return "done"
        out.append(self.describe(r))
        return "done"

    def describe(self, r: dict[str, Any]) -> str:
        state = {
            "placed": "It hasn't been made up yet.",
            "made_up": "Our florists have made it up ready for delivery.",
            "delivered": "It has been delivered.",
            "cancelled": "It was cancelled.",
        }[r["status"]]
        card = (
            f"The card says: '{r['card_message']}'."
            if r["card_message"]
            else ("There's no card message.")
        )
        return (
            f"Order {r['order_id']} is {self.say_items(r['items'])} for {r['recipient']} at "
            f"{r['address_line']}, {r['postcode']}, due {rd.say_day(r['delivery_date'])} in "
            f"the {r['slot']} ({SLOT_HOURS[r['slot']]}). {card} {state} It's "
            f"{rd.pounds(r['total_pence'])} in all, {rd.pounds(r['paid_pence'])} paid."
        )

    # -- changes to an order -------------------------------------------------------------------
    async def step_move(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        o, many = self.pick_order(v, text, ("placed", "made_up"))
        if o is None:
            return self.which_order(many, out)
        if o["status"] == "made_up":
            return self.made_up(o, out)
        new = [d for d in rd.dates(text, self.today) if d.isoformat() != o["delivery_date"]]
        day = new[-1] if new else date.fromisoformat(o["delivery_date"])
        slot = rd.slot(text) or o["slot"]
        if day.isoformat() == o["delivery_date"] and slot == o["slot"]:
            return self.ask(
                "new_date",
                "Which day would you like it delivered instead, and morning or afternoon?",
                out,
            )
        why = self.day_problem(day)
        if why:
            return self.ask("new_date", f"{why} Which other day would suit?", out)
        fee = self.change_fee(o)
        if self.free_only(req, fee, "Changing the delivery less than 48 hours before it", out):
            return "done"
        charge = (
            f"It's less than 48 hours before the delivery, so there's a change fee of "
            f"{rd.pounds(fee)}, taken from your card ending {v['card_last4']}."
            if fee
            else "There's no charge, as it's 48 hours or more before the delivery."
        )
        return self.propose(
            req,
            out,
            f"To move {self.say_order(o)} to {rd.say_day(day.isoformat())} in the "
            f"{slot} ({SLOT_HOURS[slot]}). {charge} Shall I move it?",
            [
                (
                    "change_delivery",
                    {
                        "customer_id": v["customer_id"],
                        "order_id": o["order_id"],
                        "delivery_date": day.isoformat(),
                        "slot": slot,
                        "fee_pence": fee,
                    },
                )
            ],
        )

    async def step_address(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        cat = await self.catalogue()
        text, ans = self.text(req), req["answers"]
        o, many = self.pick_order(v, text, ("placed", "made_up"))
        if o is None:
            return self.which_order(many, out)
        if o["status"] == "made_up":
            return self.made_up(o, out)
        said = rd.address_answer(ans["new_address"]) if "new_address" in ans else None
        said = said or next(iter(rd.addresses(text)[-1:]), None)
        if said is None:
            return self.ask(
                "new_address", ADDRESS_AGAIN if "new_address" in ans else ADDRESS_ASK, out
            )
        zone = cat["zones"].get(_seed.district(said[1]))
        if zone is None:
            out.append(
                f"I'm sorry — we don't deliver to {_seed.district(said[1])}, so I can't "
                f"send the order there. We deliver to {self.served(cat)}. Nothing has "
                "been changed."
            )
            return "done"
        diff = self.delivery_difference(int(o["delivery_fee_pence"]), int(zone["fee_pence"]))
        fee = self.change_fee(o)
        if self.free_only(req, max(diff, 0) + fee, "Changing the address", out):
            return "done"
        return self.propose(
            req,
            out,
            f"To send {self.say_order(o)} to {said[0]}, {said[1]} instead of "
            f"{o['address_line']}, {o['postcode']}. {self._say_difference(diff, zone, v)} "
            f"{self._say_fee(fee, v)} Shall I change it?",
            [
                (
                    "change_address",
                    {
                        "customer_id": v["customer_id"],
                        "order_id": o["order_id"],
                        "address_line": said[0],
                        "postcode": said[1],
                        "fee_difference_pence": diff,
                        "fee_pence": fee,
                    },
                )
            ],
        )

    @staticmethod
    def _say_difference(diff: int, zone: dict[str, Any], v: dict[str, Any]) -> str:
        where = f"{zone['district']} is in zone {zone['zone']} ({rd.pounds(zone['fee_pence'])})"
        if diff > 0:
            return (
                f"{where}: {rd.pounds(diff)} more for delivery, taken from your card ending "
                f"{v['card_last4']}."
            )
        if diff < 0:
            return (
                f"{where}: {rd.pounds(-diff)} less for delivery, refunded to your card "
                f"ending {v['card_last4']}."
            )
        return f"{where}, the same delivery fee."

    @staticmethod
    def _say_fee(fee: int, v: dict[str, Any]) -> str:
        if fee:
            return (
                f"It's less than 48 hours before the delivery, so there's also a change fee "
                f"of {rd.pounds(fee)}, taken from your card ending {v['card_last4']}."
            )
        return "There's no change fee, as it's 48 hours or more before the delivery."

    async def step_card(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text, ans = self.text(req), req["answers"]
        o, many = self.pick_order(v, text, ("placed", "made_up"))
        if o is None:
            return self.which_order(many, out)
        if o["status"] == "made_up":
            return self.made_up(o, out)
        words = (
            rd.card_answer(ans["card_message"]) if "card_message" in ans else self.card_said(req)
        )
        if not words:
            return self.ask("card_message", "What would you like the card to say?", out)
        if len(words) > _seed.CARD_MAX:
            req["answers"].pop("card_message", None)
            return self.ask(
                "card_message",
                f"That's {len(words)} characters, and a card takes "
                f"at most {_seed.CARD_MAX}. What would you like it to say?",
                out,
            )
        return self.propose(
            req,
            out,
            f"To change the card on {self.say_order(o)} to: '{words}'. There's no "
            "charge. Shall I change it?",
            [
                (
                    "set_card_message",
                    {"customer_id": v["customer_id"], "order_id": o["order_id"], "message": words},
                )
            ],
        )

    async def step_swap(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        cat = await self.catalogue()
        text = self.text(req)
        short = lambda o: any(not i["in_stock"] for i in o["items"])  # noqa: E731
        o, many = self.pick_order(v, text, ("placed", "made_up"), prefer=short)
        if o is None:
            return self.which_order(many, out)
        if o["status"] == "made_up":
            return self.made_up(o, out)
        said = rd.products(text)
        on_order = {i["product_id"]: i for i in o["items"]}
        old = next((on_order[m.product] for m in said if m.product in on_order), None)
        old = old or next((i for i in o["items"] if not i["in_stock"]), None)
        old = old or (o["items"][0] if len(o["items"]) == 1 else None)
        if old is None:
            return self.ask(
                "old_product", "Which flowers on the order would you like to swap?", out
            )
        new = next((m for m in said if m.product != old["product_id"]), None)
        if new is None or not cat["products"][new.product]["in_stock"]:
            return self.ask(
                "new_product", "What would you like instead? " + self.in_stock(cat), out
            )
        p = cat["products"][new.product]
        size = next(
            (
                s
                for s in (new.size, old["size"], rd.size_of(req["answers"].get("size", "")))
                if s in p["sizes"]
            ),
            None,
        )
        size = next(iter(p["sizes"])) if len(p["sizes"]) == 1 else size
        if size is None:
            return self.ask("size", f"Which size of {p['name']}: {self.size_list(p)}?", out)
        return self._propose_swap(req, v, o, old, p, size, out)

    def _propose_swap(
        self,
        req: dict[str, Any],
        v: dict[str, Any],
        o: dict[str, Any],
        old: dict[str, Any],
        p: dict[str, Any],
        size: str,
        out: list[str],
    ) -> str:
        price = self.line_price(p["sizes"][size], old["qty"])
        diff = price - int(old["price_pence"])
        short = not old["in_stock"]
        fee = 0 if short else self.change_fee(o)
        if self.free_only(req, max(diff, 0) + fee, "Swapping the flowers", out):
            return "done"
        new_items = [{**p, "size": size, "qty": old["qty"]}]
        money = (
            f"{rd.pounds(diff)} more, taken from your card ending {v['card_last4']}"
            if diff > 0
            else f"{rd.pounds(-diff)} less, refunded to your card ending {v['card_last4']}"
            if diff < 0
            else "the same price"
        )
        why = (
            f"As {old['name']} is out of stock, there's no change fee."
            if short
            else self._say_fee(fee, v)
        )
        return self.propose(
            req,
            out,
            f"To swap {self.say_items([old])} at {rd.pounds(old['price_pence'])} on "
            f"{self.say_order(o)} for {self.say_items(new_items)} at {rd.pounds(price)}: that's "
            f"{money}. {why} Shall I swap them?",
            [
                (
                    "swap_item",
                    {
                        "customer_id": v["customer_id"],
                        "order_id": o["order_id"],
                        "line_id": old["line_id"],
                        "product_id": p["product_id"],
                        "size": size,
                        "difference_pence": diff,
                        "fee_pence": fee,
                    },
                )
            ],
        )

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        o, many = self.pick_order(v, text, ("placed", "made_up"))
        if o is None:
            return self.which_order(many, out)
        refund, paid = self.refund_for(o), int(o["paid_pence"])
        if refund < paid and rd.REFUND_ONLY.search(" ".join([text, *self.s["said"]])):
            out.append(
                f"Cancelling now would refund {rd.pounds(refund)} of the "
                f"{rd.pounds(paid)} paid, and you asked to cancel only for a full refund, "
                "so I've left the order as it is."
            )
            return "done"
        card = v["card_last4"]
        if o["status"] == "made_up":
            what = "the flowers have already been made up, so there's no refund"
        elif refund == paid and o["hours_to_delivery"] < _seed.FREE_CHANGE_HOURS:
            what = (
                f"as flowers on it are out of stock, the {rd.pounds(paid)} paid is refunded "
                f"in full to your card ending {card}"
            )
        elif refund == paid:
            what = (
                f"it's 48 hours or more before delivery, so the {rd.pounds(paid)} paid is "
                f"refunded in full to your card ending {card}"
            )
        else:
            what = (
                f"it's less than 48 hours before delivery, so half of the {rd.pounds(paid)} "
                f"paid, {rd.pounds(refund)}, is refunded to your card ending {card}"
            )
        return self.propose(
            req,
            out,
            f"To cancel {self.say_order(o)}: {what}. Shall I cancel it?",
            [
                (
                    "cancel_order",
                    {
                        "customer_id": v["customer_id"],
                        "order_id": o["order_id"],
                        "refund_pence": refund,
                    },
                )
            ],
        )

    # -- complaints -------------------------------------------------------------------------------
    async def step_complaint(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text, ans = self.text(req), req["answers"]
        o, many = self.pick_order(v, text, ("delivered",))
        if o is None and many:
            o = max(
                (x for x in v["orders"] if x["status"] == "delivered" and not x["replacement_for"]),
                key=lambda x: x["delivery_date"],
            )
        if o is None:
            return self.which_order(False, out, "a delivered order")
        if any(c["order_id"] == o["order_id"] for c in v["complaints"]):
            out.append(
                f"A complaint about {o['order_id']} is already logged, so I can't log "
                "another. Nothing has been changed."
            )
            return "done"
        why = self.complaint_problem(o)
        if why:
            out.append(why)
            return "done"
        wanted = " ".join([text, ans.get("resolution", "")])
        flowers = flowers_of(o)
        if re.search(r"\brefund|\bmoney back|\bpaid back", wanted, re.I):
            return self.propose(
                req,
                out,
                f"I'm sorry they arrived like that. To log a complaint about "
                f"{self.say_order(o)} and refund the flowers' price, {rd.pounds(flowers)}, to "
                f"your card ending {v['card_last4']} (the delivery fee isn't refunded). Shall I "
                "go ahead?",
                [
                    (
                        "log_complaint",
                        {
                            "customer_id": v["customer_id"],
                            "order_id": o["order_id"],
                            "reason": "wilted",
                            "resolution": "refund",
                            "refund_pence": flowers,
                        },
                    )
                ],
            )
        if not re.search(
            r"\breplace|\banother\b|\bnew (?:bouquet|ones?|flowers)|\bredeliver|"
            r"\bsend (?:them |it |some )?again|\bfresh ones",
            wanted,
            re.I,
        ):
            return self.ask(
                "resolution",
                f"I'm sorry they arrived like that. Would you like a "
                f"free replacement delivered, or a refund of {rd.pounds(flowers)} "
                "for the flowers?",
                out,
            )
        return self._replacement(req, v, o, out)

    def _replacement(
        self, req: dict[str, Any], v: dict[str, Any], o: dict[str, Any], out: list[str]
    ) -> str:
        text = self.text(req)
        days = [d for d in rd.dates(text, self.today) if d > date.fromisoformat(o["delivery_date"])]
        if not days:
            return self.ask(
                "replacement_date",
                "Which day should the replacement be delivered? We deliver Monday to Saturday.",
                out,
            )
        why = self.day_problem(days[-1])
        if why:
            return self.ask("replacement_date", f"{why} Which other day would suit?", out)
        slot = rd.slot(text)
        if slot is None:
            return self.ask(
                "replacement_slot", "Morning (09:00–13:00) or afternoon (13:00–17:00)?", out
            )
        day = days[-1].isoformat()
        return self.propose(
            req,
            out,
            f"I'm sorry they arrived like that. To log a complaint about "
            f"{self.say_order(o)} and send a free replacement of the same flowers to "
            f"{o['recipient']} at {o['address_line']}, {o['postcode']}, on {rd.say_day(day)} in "
            f"the {slot} ({SLOT_HOURS[slot]}). There's no charge. Shall I go ahead?",
            [
                (
                    "log_complaint",
                    {
                        "customer_id": v["customer_id"],
                        "order_id": o["order_id"],
                        "reason": "wilted",
                        "resolution": "replacement",
                        "replacement_date": day,
                        "replacement_slot": slot,
                    },
                )
            ],
        )

    # -- reporting ---------------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:
        """What the system returned, in the customer's words."""
        card = f"your card ending {r.get('card_last4', '')}"
        if intent == "order":
            balance = (
                f"; the balance of {r['balance']} is due on the delivery day"
                if (r["balance"] != "£0.00")
                else ""
            )
            return (
                f"Done — order {r['order_id']} is placed for {rd.say_day(r['delivery_date'])}"
                f" in the {r['slot']}, {r['total']} in all; {r['paid_now']} taken from "
                f"{card}{balance}."
            )
        if intent == "move":
            fee = f"; {r['fee']} change fee taken" if r["fee"] != "£0.00" else ""
            return (
                f"Done — order {r['order_id']} is now due {rd.say_day(r['delivery_date'])} "
                f"in the {r['slot']}{fee}."
            )
        if intent == "address":
            return (
                f"Done — order {r['order_id']} now goes to {r['address_line']}, "
                f"{r['postcode']}{self._money_moved(r, card)}."
            )
        if intent == "card":
            return f"Done — the card on {r['order_id']} now says: '{r['card_message']}'."
        if intent == "swap":
            return (
                f"Done — order {r['order_id']} now has {r['product']} ({r['size']}) "
                f"instead{self._money_moved(r, card)}."
            )
        if intent == "cancel":
            refund = (
                f"{r['refunded']} refunded to {card}" if r["refunded"] != "£0.00" else ("no refund")
            )
            return f"Done — order {r['order_id']} is cancelled; {refund}."
        if r["resolution"] == "replacement":
            return (
                f"Done — the complaint is logged and the replacement, order "
                f"{r['replacement_order']}, is due {rd.say_day(r['delivery_date'])} in the "
                f"{r['slot']}, free of charge."
            )
        return f"Done — the complaint is logged and {r['refunded']} is refunded to {card}."

    @staticmethod
    def _money_moved(r: dict[str, Any], card: str) -> str:
        """What a change charged or refunded, as the system returned it."""
        said = []
        if r["difference"].startswith("-"):
            said.append(f"{r['difference'][1:]} refunded to {card}")
        elif r["difference"] != "£0.00":
            said.append(f"{r['difference']} taken from {card}")
        if r["fee"] != "£0.00":
            said.append(f"a {r['fee']} change fee taken")
        return "; " + " and ".join(said) if said else "; nothing to pay"

    async def failed(
        self, req: dict[str, Any], pending: dict[str, Any], error: str, out: list[str]
    ) -> None:
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
