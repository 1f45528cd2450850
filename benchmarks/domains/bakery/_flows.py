"""The desk's flows: new orders, moves, cake and writing changes, times, deliveries, the rest."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from benchmarks.domains.bakery import _read as rd
from benchmarks.domains.bakery import _seed

DIET_WORDS = {"none": "", "vegan": "vegan", "gluten_free": "gluten-free"}
ORDINAL = {1: "second", 2: "third"}


def cake_of(o: dict[str, Any], *, serves: bool = True) -> str:
    return rd.say_cake(_seed.tiers_of(o["tiers"]), o["flavour"], o["diet"], serves=serves)


def handover(o: dict[str, Any]) -> str:
    """'collection' or 'delivery to LS7 4HG'."""
    if o["fulfilment"] == "delivery":
        return f"delivery to {o['delivery_postcode']}"
    return "collection"


class Flows:
    """The flows; `CorrectBakeryAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]

    @property
    def today(self) -> date:
        raise NotImplementedError

    async def call(self, tool_name: str, /, **args: Any) -> tuple[Any, str | None]:
        raise NotImplementedError

    def ask(self, what: str, text: str, out: list[str]) -> str:
        raise NotImplementedError

    def propose(self, req: dict[str, Any], out: list[str], text: str,
                calls: list[tuple[str, dict[str, Any]]]) -> str:  # fmt: skip
        raise NotImplementedError

    # -- reading a request -----------------------------------------------------------------
    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_account", customer_id=self.s["customer"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    @staticmethod
    def answered(req: dict[str, Any], key: str) -> str | None:
        value = req["answers"].get(key)
        return str(value) if value is not None else None

    def find_order(self, v: dict[str, Any], text: str) -> dict[str, Any] | str | None:
        """The order meant: by number, by its day, or the only one; a number not theirs: str."""
        ids = rd.orders(text)
        own = [o for o in v["orders"] if o["order_id"] in ids]
        if ids and not own:
            return ids[0]
        if not own:
            days = {d.isoformat() for d in rd.dates(text, self.today, with_old=True)}
            own = [o for o in v["orders"] if o["collection_date"] in days]
        if not own and len(v["orders"]) == 1:
            own = v["orders"]
        return own[0] if own else None

    async def order_for(self, req: dict[str, Any], out: list[str]) -> tuple[dict[str, Any] | None,
                                                                             str]:  # fmt: skip
        """The customer's order the request is about, or (None, status) once answered."""
        v = await self.refresh()
        found = self.find_order(v, self.text(req))
        if isinstance(found, str):
            return None, await self.not_yours(req, found, out)
        if found is None:
            if not v["orders"]:
                out.append("I can't see any cake orders on your account at the moment.")
                return None, "done"
            listed = "; ".join(f"{o['order_id']} for {rd.say_day(o['collection_date'])}"
                               for o in v["orders"])  # fmt: skip
            return None, self.ask("order_id", f"Which order is it? I can see {listed}.", out)
        return found, ""

    async def not_yours(self, req: dict[str, Any], order_id: str, out: list[str]) -> str:
        """Hook: an order number that is not on this account is neither read out nor changed."""
        out.append(
            f"I can't find order {order_id} on your account, and I can only share or change "
            "orders placed on the account I've checked. Whoever placed it can ask us "
            "themselves, and anyone who brings the order number can collect it."
        )
        return "done"

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def diet_pence(self, tiers: list[int], diet: str) -> int:
        """Vegan and gluten-free cost extra for every tier."""
        return _seed.DIET_PENCE[diet] * len(tiers)

    def price(self, tiers: list[int], flavour: str, diet: str) -> tuple[int, str]:
        """The cake's price and how it adds up, in words."""
        parts = [(_seed.SIZE_PENCE[t], f"the {t}-inch tier") for t in tiers]
        for n in range(1, len(tiers)):
            parts.append((_seed.STACK_PENCE, f"stacking the {ORDINAL[n]} tier"))
        if flavour in _seed.PREMIUM:
            parts.append((_seed.PREMIUM_PENCE * len(tiers),
                          f"{flavour} ({rd.pounds(_seed.PREMIUM_PENCE)} a tier)"))  # fmt: skip
        extra = self.diet_pence(tiers, diet)
        if extra:
            each = rd.pounds(_seed.DIET_PENCE[diet])
            parts.append((extra, f"{DIET_WORDS[diet]} ({each} a tier)"))
        total = sum(p for p, _ in parts)
        if len(parts) == 1:
            return total, f"{rd.pounds(total)} for {parts[0][1]}"
        sums = " + ".join(f"{rd.pounds(p)} for {what}" for p, what in parts)
        return total, f"{sums} = {rd.pounds(total)}"

    def earliest(self, need: int) -> date:
        day = self.today + timedelta(days=need)
        while _seed.closed_reason(day):
            day += timedelta(days=1)
        return day

    def lead_problem(self, tiers: list[int], day: date) -> str | None:
        """Why there is too little notice for the cake, or None."""
        need = _seed.LEAD_TIERED if len(tiers) > 1 else _seed.LEAD_SINGLE
        days = (day - self.today).days
        if days >= need:
            return None
        kind = "a tiered cake" if len(tiers) > 1 else "a one-tier cake"
        return (f"{kind} needs at least {need} days' notice, and {rd.say_day(day)} is only "
                f"{days} days away; the earliest day we could make it for is "
                f"{rd.say_day(self.earliest(need))}")  # fmt: skip

    def day_problem(self, day: date, tiers: list[int], diet: str) -> str | None:
        """Why the kitchen can't make this cake for that day, or None (a full day aside)."""
        closed = _seed.closed_reason(day)
        if closed:
            return f"we can't make a cake for {rd.say_day(day)}: {closed}"
        if diet == "gluten_free" and day.weekday() not in _seed.GLUTEN_FREE_DAYS:
            return (f"gluten-free cakes are baked in their own batch and can only be collected "
                    f"on a Friday or a Saturday, and {rd.say_day(day)} isn't one")  # fmt: skip
        return self.lead_problem(tiers, day)

    def inscription_problem(self, o: dict[str, Any]) -> str | None:
        """The writing is piped two days ahead: after that it can't change."""
        if o["days_to_collection"] >= _seed.INSCRIPTION_DAYS:
            return None
        return (
            f"the writing is piped two days before collection, and order {o['order_id']} "
            f"is for {rd.say_day(o['collection_date'])}, so it can't be changed now"
        )

    def refund_for(self, o: dict[str, Any]) -> int:
        """The deposit back: all of it 14+ days ahead, half 7 to 13 days ahead, else none."""
        days, deposit = o["days_to_collection"], int(o["deposit_pence"])
        if days >= _seed.FULL_REFUND_DAYS:
            return deposit
        if days >= _seed.HALF_REFUND_DAYS:
            return deposit // 2
        return 0

    @staticmethod
    def delivery_fee(postcode: str) -> int | None:
        return _seed.ZONE_PENCE.get(rd.district(postcode))

    def free_only(self, req: dict[str, Any], fee: int, what: str, out: list[str]) -> bool:
        """The customer said to go ahead only if it's free: a fee ends the request unchanged."""
        said = " ".join([self.text(req), *self.s["said"]])
        if fee and rd.FREE_ONLY.search(said):
            out.append(f"{what} would cost {rd.pounds(fee)}, and you asked me to go ahead only "
                       "if it was free, so I've left your order as it is — nothing has been "
                       "changed.")  # fmt: skip
            return True
        return False

    # -- a new order -----------------------------------------------------------------------
    def _tiers(self, req: dict[str, Any], text: str, out: list[str]) -> list[int] | str:
        tiers = rd.sizes(self.answered(req, "tiers") or "") or rd.sizes(text)
        count = rd.tier_count(text)
        if not tiers or (count and len(tiers) < count):
            return self.ask(
                "tiers",
                "What size would you like? Our round cakes are 6, 8, 10 or 12 inches across "
                "(serving 12, 22, 35 or 50); for a tiered cake, give each tier's size, such as "
                "'10-inch and 8-inch'.",
                out,
            )
        if any(t not in _seed.SIZE_PENCE for t in tiers) or len(tiers) > _seed.MAX_TIERS:
            req["answers"].pop("tiers", None)
            return self.ask("tiers", "We make tiers of 6, 8, 10 or 12 inches, up to three "
                            "tiers. What size would you like?", out)  # fmt: skip
        return tiers

    def _handover(self, req: dict[str, Any], text: str, delivery: bool,
                  out: list[str]) -> tuple[str | None, int] | str:  # fmt: skip
        """The delivery postcode and fee (None, 0 for a collection), or a question or 'done'."""
        if not delivery:
            return None, 0
        codes = rd.postcodes(self.answered(req, "delivery_postcode") or "") or rd.postcodes(
            rd.unquoted(text)
        )
        if not codes:
            return self.ask("delivery_postcode", "What's the postcode for the delivery?", out)
        fee = self.delivery_fee(codes[-1])
        if fee is None:
            out.append(f"I'm sorry — we don't deliver to {codes[-1]}: our van covers LS2 to LS7 "
                       "and LS16 to LS18 only. I haven't ordered anything; the cake can be "
                       "collected from the shop instead if you'd like.")  # fmt: skip
            return "done"
        return codes[-1], fee

    def _slot(self, req: dict[str, Any], text: str, verb: str, out: list[str]) -> str:
        slot = rd.clock(self.answered(req, "slot") or "", bare=True) or rd.clock(text)
        if slot is None:
            return self.ask("slot", f"What time would you like to {verb}? Any time from "
                            f"{_seed.OPEN_FROM} to {_seed.LAST_SLOT}.", out)  # fmt: skip
        if not _seed.OPEN_FROM <= slot <= _seed.LAST_SLOT:
            req["answers"].pop("slot", None)
            return self.ask(
                "slot",
                f"Cakes are handed over between {_seed.OPEN_FROM} and "
                f"{_seed.LAST_SLOT} — what time in that window suits you?",
                out,
            )
        return slot

    def _writing(self, req: dict[str, Any], text: str, out: list[str]) -> str | None:
        """The writing, or None after asking for it (self.s['asked'] is then set)."""
        answer = self.answered(req, "inscription")
        said = rd.writing(answer, bare=True) if answer else rd.writing(text)
        if said is None:
            self.ask("inscription", "What would you like piped on top? Up to 40 characters — "
                     "or say 'no message'.", out)  # fmt: skip
            return None
        if len(said) > _seed.INSCRIPTION_MAX:
            req["answers"].pop("inscription", None)
            self.ask("inscription", f"That's {len(said)} characters, and we can pipe 40 at "
                     "most. What would you like it to say instead?", out)  # fmt: skip
            return None
        return said

    async def step_order(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        tiers = self._tiers(req, text, out)
        if isinstance(tiers, str):
            return tiers
        flavours = rd.flavours(self.answered(req, "flavour") or "") or rd.flavours(text)
        if not flavours:
            return self.ask("flavour", "Which flavour would you like? Vanilla, chocolate, lemon "
                            "or carrot — or red velvet or salted caramel, which are £4.00 a "
                            "tier more.", out)  # fmt: skip
        diet = rd.diet(text) or "none"
        days = [d for d in rd.dates(text, self.today) if d > self.today]
        if not days:
            return self.ask("collection_date", "Which day is the cake for? We're open Tuesday "
                            "to Saturday.", out)  # fmt: skip
        why = self.day_problem(days[-1], tiers, diet)
        if why:
            out.append(f"I'm sorry — {why}. I haven't ordered anything.")
            return "done"
        delivery = rd.wants_delivery(text)
        where = self._handover(req, text, delivery, out)
        if isinstance(where, str):
            return where
        slot = self._slot(req, text, "have it delivered" if delivery else "collect it", out)
        if self.s["asked"] or slot == "done":
            return slot
        writing = self._writing(req, text, out)
        if writing is None:
            return "wait" if self.s["asked"] else "done"
        return self._propose_order(req, v, tiers, flavours[-1], diet, days[-1], slot, writing,
                                   where, out)  # fmt: skip

    def _propose_order(self, req: dict[str, Any], v: dict[str, Any], tiers: list[int],
                       flavour: str, diet: str, day: date, slot: str, writing: str,
                       where: tuple[str | None, int], out: list[str]) -> str:  # fmt: skip
        postcode, fee = where
        price, sums = self.price(tiers, flavour, diet)
        deposit = _seed.deposit_for(price)
        how = f"delivered to {postcode}" if postcode else "for collection"
        words = f", with '{writing}' piped on top" if writing else ", with no writing"
        van = f" Delivery to {rd.district(postcode)} is {rd.pounds(fee)}." if postcode else ""
        return self.propose(
            req, out,
            f"To order {rd.say_cake(tiers, flavour, diet)} {how} on {rd.say_day(day)} at "
            f"{slot}{words}: {sums}.{van} A 30% deposit of {rd.pounds(deposit)} is taken now "
            f"from your card ending {v['card_last4']}; the other "
            f"{rd.pounds(price - deposit + fee)} is paid on "
            f"{'delivery' if postcode else 'collection'}. Shall I place the order?",
            [("place_order", {"customer_id": v["customer_id"], "collection_date": day.isoformat(),
                              "slot": slot, "tiers": tiers, "flavour": flavour, "diet": diet,
                              "inscription": writing, "price_pence": price,
                              "fulfilment": "delivery" if postcode else "collection",
                              "delivery_postcode": postcode, "delivery_fee_pence": fee})],
        )  # fmt: skip

    # -- changing an order -----------------------------------------------------------------
    def too_late(self, o: dict[str, Any], what: str, out: list[str]) -> bool:
        if o["days_to_collection"] >= _seed.CHANGE_DAYS:
            return False
        out.append(f"I'm sorry — {what} can only be changed 7 or more days before collection, "
                   f"and order {o['order_id']} is for {rd.say_day(o['collection_date'])}, "
                   f"{o['days_to_collection']} days away. Nothing has been changed.")  # fmt: skip
        return True

    async def step_move(self, req: dict[str, Any], out: list[str]) -> str:
        o, status = await self.order_for(req, out)
        if o is None:
            return status
        if self.too_late(o, "the collection day", out):
            return "done"
        new = [d for d in rd.dates(self.text(req), self.today)
               if d > self.today and d.isoformat() != o["collection_date"]]  # fmt: skip
        if not new:
            return self.ask("new_date", "Which day would you like it moved to? We're open "
                            "Tuesday to Saturday.", out)  # fmt: skip
        why = self.day_problem(new[-1], _seed.tiers_of(o["tiers"]), o["diet"])
        if why:
            out.append(f"I'm sorry — {why}. Nothing has been changed.")
            return "done"
        return self.propose(
            req, out,
            f"To move order {o['order_id']} ({cake_of(o, serves=False)}) from "
            f"{rd.say_day(o['collection_date'])} to {rd.say_day(new[-1])}, at the same time "
            f"({o['slot']}). There's no charge for the change. Shall I move it?",
            [("move_order", {"customer_id": self.s["customer"], "order_id": o["order_id"],
                             "new_date": new[-1].isoformat()})],
        )  # fmt: skip

    async def step_cake(self, req: dict[str, Any], out: list[str]) -> str:
        o, status = await self.order_for(req, out)
        if o is None:
            return status
        if self.too_late(o, "the flavour or recipe", out):
            return "done"
        text = self.text(req)
        others = [f for f in rd.flavours(text) if f != o["flavour"]]
        flavour, diet = (others[-1] if others else o["flavour"]), rd.diet(text) or o["diet"]
        if (flavour, diet) == (o["flavour"], o["diet"]):
            return self.ask("flavour", f"Order {o['order_id']} is {cake_of(o)}. What would you "
                            "like it changed to?", out)  # fmt: skip
        tiers = _seed.tiers_of(o["tiers"])
        day = date.fromisoformat(o["collection_date"])
        if diet == "gluten_free" != o["diet"] and day.weekday() not in _seed.GLUTEN_FREE_DAYS:
            out.append(f"I'm sorry — gluten-free cakes can only be collected on a Friday or a "
                       f"Saturday, and order {o['order_id']} is for {rd.say_day(day)}. Nothing "
                       "has been changed.")  # fmt: skip
            return "done"
        price, sums = self.price(tiers, flavour, diet)
        balance = price - o["deposit_pence"] + o["delivery_fee_pence"]
        return self.propose(
            req, out,
            f"To change order {o['order_id']} to {rd.say_cake(tiers, flavour, diet)}: {sums}, "
            f"so the price goes from {rd.pounds(o['price_pence'])} to {rd.pounds(price)}. The "
            f"{rd.pounds(o['deposit_pence'])} deposit you've paid stays as it is, and "
            f"{rd.pounds(balance)} is due on {o['fulfilment']}. Shall I change it?",
            [("change_cake", {"customer_id": self.s["customer"], "order_id": o["order_id"],
                              "flavour": flavour, "diet": diet, "price_pence": price})],
        )  # fmt: skip

    async def step_inscription(self, req: dict[str, Any], out: list[str]) -> str:
        o, status = await self.order_for(req, out)
        if o is None:
            return status
        why = self.inscription_problem(o)
        if why:
            out.append(f"I'm sorry — {why}. Nothing has been changed.")
            return "done"
        writing = self._writing(req, self.text(req), out)
        if writing is None:
            return "wait" if self.s["asked"] else "done"
        if writing == o["inscription"]:
            out.append(f"Order {o['order_id']} already says '{writing}', so there's nothing to "
                       "change.")  # fmt: skip
            return "done"
        old = f"'{o['inscription']}'" if o["inscription"] else "no writing"
        new = f"'{writing}'" if writing else "no writing"
        return self.propose(
            req, out,
            f"To change the writing on order {o['order_id']} ({rd.say_day(o['collection_date'])})"
            f" from {old} to {new}. There's no charge. Shall I change it?",
            [("change_inscription", {"customer_id": self.s["customer"],
                                     "order_id": o["order_id"], "inscription": writing})],
        )  # fmt: skip

    async def step_slot(self, req: dict[str, Any], out: list[str]) -> str:
        o, status = await self.order_for(req, out)
        if o is None:
            return status
        day = rd.say_day(o["collection_date"])
        if o["days_to_collection"] < 1:
            out.append(f"Order {o['order_id']} is for today, so I can't change its time here — "
                       f"please call the shop on {_seed.SHOP_PHONE}.")  # fmt: skip
            return "done"
        verb = "have it delivered" if o["fulfilment"] == "delivery" else "collect it"
        slot = self._slot(req, self.text(req), f"{verb} on {day}", out)
        if self.s["asked"] or slot == "done":
            return slot
        if slot == o["slot"]:
            out.append(f"Order {o['order_id']} is already for {slot} on {day}.")
            return "done"
        return self.propose(
            req, out,
            f"To change the {o['fulfilment']} time for order {o['order_id']} on {day} from "
            f"{o['slot']} to {slot}. There's no charge. Shall I change it?",
            [("set_slot", {"customer_id": self.s["customer"], "order_id": o["order_id"],
                           "slot": slot})],
        )  # fmt: skip

    async def step_delivery(self, req: dict[str, Any], out: list[str]) -> str:
        o, status = await self.order_for(req, out)
        if o is None:
            return status
        if o["fulfilment"] == "delivery":
            out.append(f"Order {o['order_id']} is already being delivered to "
                       f"{o['delivery_postcode']}.")  # fmt: skip
            return "done"
        if o["days_to_collection"] < _seed.DELIVERY_DAYS:
            out.append(f"I'm sorry — deliveries are arranged 2 or more days ahead, and order "
                       f"{o['order_id']} is for {rd.say_day(o['collection_date'])}. Nothing has "
                       "been changed.")  # fmt: skip
            return "done"
        where = self._handover(req, self.text(req), True, out)
        if isinstance(where, str):
            return where
        postcode, fee = where
        if self.free_only(req, fee, f"Delivery to {rd.district(str(postcode))}", out):
            return "done"
        balance = o["balance_pence"] + fee
        return self.propose(
            req, out,
            f"To deliver order {o['order_id']} to {postcode} on "
            f"{rd.say_day(o['collection_date'])} at {o['slot']} instead of you collecting it: "
            f"delivery to {rd.district(str(postcode))} is {rd.pounds(fee)}, added to your "
            f"balance, so {rd.pounds(balance)} is due on delivery. Shall I arrange it?",
            [("arrange_delivery", {"customer_id": self.s["customer"], "order_id": o["order_id"],
                                   "delivery_postcode": postcode, "delivery_fee_pence": fee})],
        )  # fmt: skip

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        o, status = await self.order_for(req, out)
        if o is None:
            return status
        v = self.s["view"]
        refund, deposit = self.refund_for(o), o["deposit_pence"]
        days = o["days_to_collection"]
        if refund == deposit:
            what = (f"it's {days} days before collection, so your {rd.pounds(deposit)} deposit "
                    f"is refunded in full to your card ending {v['card_last4']}")  # fmt: skip
        elif refund:
            what = (f"it's {days} days before collection, so half your deposit, "
                    f"{rd.pounds(refund)}, is refunded to your card ending {v['card_last4']}, "
                    f"and the other {rd.pounds(deposit - refund)} is kept")  # fmt: skip
        else:
            what = (f"it's only {days} days before collection, so the {rd.pounds(deposit)} "
                    "deposit is kept and nothing is refunded")  # fmt: skip
        return self.propose(
            req, out,
            f"To cancel order {o['order_id']} ({cake_of(o, serves=False)}, "
            f"{rd.say_day(o['collection_date'])}): {what}. Shall I cancel it?",
            [("cancel_order", {"customer_id": self.s["customer"], "order_id": o["order_id"],
                               "refund_pence": refund})],
        )  # fmt: skip

    # -- contact details, questions --------------------------------------------------------
    async def step_contact(self, req: dict[str, Any], out: list[str]) -> str:
        text = self.text(req)
        phones, mails = rd.mobiles(text), rd.emails(text)
        if not phones and not mails:
            return self.ask("phone", "What's the new mobile number?", out)
        args: dict[str, Any] = {"customer_id": self.s["customer"]}
        said = []
        if phones:
            args["phone"] = phones[-1]
            said.append(f"your mobile number to {phones[-1]}")
        if mails:
            args["email"] = mails[-1]
            said.append(f"your email address to {mails[-1]}")
        return self.propose(req, out, f"To change {' and '.join(said)}. Shall I update it?",
                            [("update_contact", args)])  # fmt: skip

    def describe(self, r: dict[str, Any]) -> str:
        """An order read out to the customer who placed it."""
        words = f"'{r['inscription']}' piped on top" if r["inscription"] else "no writing"
        van = (f" plus {rd.pounds(r['delivery_fee_pence'])} delivery"
               if r["delivery_fee_pence"] else "")  # fmt: skip
        return (f"Order {r['order_id']} is {cake_of(r)} with {words}, for {handover(r)} on "
                f"{rd.say_day(r['collection_date'])} at {r['slot']}. It's "
                f"{rd.pounds(r['price_pence'])}{van}; you've paid a "
                f"{rd.pounds(r['deposit_pence'])} deposit, so {rd.pounds(r['balance_pence'])} "
                f"is due on {r['fulfilment']}.")  # fmt: skip

    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        o, status = await self.order_for(req, out)
        if o is None:
            return status
        r, error = await self.call("get_order", order_id=o["order_id"])
        if error:
            out.append(f"I'm sorry — I couldn't read order {o['order_id']} just now.")
        else:
            out.append(self.describe(r))
        return "done"

    async def step_nuts(self, req: dict[str, Any], out: list[str]) -> str:
        out.append(
            "I'm sorry — we can't guarantee that any cake is nut-free. Our kitchen uses nuts "
            "and nut flours every day, so even a cake made without them may contain traces, "
            "and we advise against our cakes for anyone with a nut allergy. I haven't changed "
            "anything on your order."
        )
        return "done"

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:
        """What the order book returned, in the customer's words."""
        if intent == "order":
            words = f", with '{r['inscription']}' on top" if r["inscription"] else ""
            return (f"Done — order {r['order_id']} is placed: {cake_of(r)} for {handover(r)} on "
                    f"{rd.say_day(r['collection_date'])} at {r['slot']}{words}. "
                    f"{r['deposit_taken']} "
                    f"deposit taken from your card ending {r['card_last4']}; "
                    f"{rd.pounds(r['balance_pence'])} is due on {r['fulfilment']}.")  # fmt: skip
        if intent == "cancel":
            back = (f"{r['refunded']} refunded to your card ending {r['card_last4']}"
                    if r["refunded"] != "£0.00" else "the deposit is kept, as agreed")  # fmt: skip
            return f"Done — order {r['order_id']} is cancelled; {back}."
        if intent == "contact":
            return f"Done — your mobile number is {r['phone']} and your email is {r['email']}."
        day = rd.say_day(r["collection_date"])
        said = {
            "move": f"order {r['order_id']} is now for {day} at {r['slot']}.",
            "cake": f"order {r['order_id']} is now {cake_of(r)}, "
            f"{rd.pounds(r['price_pence'])}; {rd.pounds(r['balance_pence'])} is due on "
            f"{r['fulfilment']}.",
            "inscription": f"order {r['order_id']} will say '{r['inscription']}'."
            if r["inscription"]
            else f"order {r['order_id']} will have no writing.",
            "slot": f"order {r['order_id']} is now for {r['slot']} on {day}.",
            "delivery": f"order {r['order_id']} will be delivered to {r['delivery_postcode']} "
            f"on {day} at {r['slot']}; {rd.pounds(r['balance_pence'])} is due on delivery.",
        }
        return "Done — " + said[intent]

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the order book refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the order book wouldn't do that: {error}. Nothing has been "
                   "changed.")  # fmt: skip
