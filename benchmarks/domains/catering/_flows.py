"""The desk's flows: book, headcount, menu, dietary counts, payments, cancel, contact, look-ups."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from benchmarks.domains.catering import _read as rd
from benchmarks.domains.catering import _seed

MENU_LIST = ("the canapé reception (£18.50 a guest), the hot and cold buffet (£24.00 a guest) "
             "or the three-course dinner (£42.00 a guest, for 30 guests or more)")  # fmt: skip


def menu_name(package: str) -> str:
    return _seed.PACKAGE_NAMES[package].lower()


def diet_words(o: dict[str, Any]) -> str:
    return (f"{o['vegetarian']} vegetarian, {o['vegan']} vegan and {o['gluten_free']} "
            "gluten-free")  # fmt: skip


class Flows:
    """The flows; `CorrectCateringAgent` supplies the state, the calls and the questions."""

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

    @staticmethod
    def answered(req: dict[str, Any], what: str) -> str:
        return str(req.get("answers", {}).get(what, ""))

    def pick_order(self, v: dict[str, Any], text: str) -> dict[str, Any] | str:
        """The order meant: named by number, or the only one; else "other", "none" or "ask"."""
        named = rd.orders(text)
        mine = [o for o in v["orders"] if o["order_id"] in named]
        if mine:
            return mine[-1]
        if named:
            return "other"
        if len(v["orders"]) == 1:
            return v["orders"][0]
        return "none" if not v["orders"] else "ask"

    async def order_for(self, req: dict[str, Any], out: list[str]) -> tuple[dict[str, Any], Any]:
        """The account view and the order meant, or ({}, status) when the desk can't go on."""
        v = await self.refresh()
        o = self.pick_order(v, self.text(req))
        if isinstance(o, dict):
            return v, o
        if o == "ask":
            return {}, self.ask("order_id", "Which order is it? The order number starts EV and "
                                "is on your confirmation.", out)  # fmt: skip
        if o == "other":
            out.append("I can't find that order on your account, so I can't discuss or change "
                       "it here. The account holder who booked it can contact us.")  # fmt: skip
            return {}, "done"
        out.append("I can't find a live order on your account.")
        return {}, "done"

    @staticmethod
    def say_order(o: dict[str, Any]) -> str:
        return (f"order {o['order_id']} ({_seed.PACKAGE_NAMES[o['package']]} for "
                f"{o['headcount']} guests on {rd.say_day(o['event_date'])})")  # fmt: skip

    def declined_by_condition(self, req: dict[str, Any], cost: int, out: list[str]) -> bool:
        """The goal said to leave it if a late supplement is charged: nothing is changed."""
        if cost and rd.NO_SUPPLEMENT.search(" ".join([self.text(req), *self.s.get("said", [])])):
            out.append(f"Adding guests now carries a late supplement of {rd.pounds(cost)}, and "
                       "you asked me to leave it if there was one, so I haven't changed "
                       "anything.")  # fmt: skip
            return True
        return False

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def package_problem(self, package: str, headcount: int) -> str | None:
        """Why a package can't be served to this many guests, or None."""
        if package == "dinner" and headcount < _seed.DINNER_MIN:
            return (f"the three-course dinner is served to {_seed.DINNER_MIN} guests or more, "
                    f"and this is for {headcount}")  # fmt: skip
        return None

    def late_added_price(self, o: dict[str, Any], new: int) -> int:
        """Guests added inside the cut-off: their meals plus £6.00 each."""
        added = new - o["headcount"]
        return int(o["price_pence"] + added * (_seed.per_head(o["package"])
                                               + _seed.LATE_GUEST_PENCE))  # fmt: skip

    def decrease_late(self, o: dict[str, Any], new: int, out: list[str]) -> int | None:
        """A lower headcount inside the cut-off: refused (the booked number is charged)."""
        out.append(f"I'm sorry — {rd.say_day(o['event_date'])} is less than 10 days away, so "
                   "the headcount can't go down now: the food is ordered, and the order is "
                   f"charged for the {o['headcount']} guests booked ({rd.pounds(o['price_pence'])}"
                   "). Nothing has been changed.")  # fmt: skip
        return None

    def refund_for(self, o: dict[str, Any]) -> int:
        """The cancellation bands, by days before the event."""
        days = o["days_to_event"]
        if days >= _seed.FULL_REFUND_DAYS:
            return int(o["deposit_paid_pence"] + o["balance_paid_pence"])
        if days >= _seed.HALF_REFUND_DAYS:
            return int(o["deposit_paid_pence"] // 2 + o["balance_paid_pence"])
        if days >= _seed.CUTOFF_DAYS:
            return int(o["balance_paid_pence"])
        return 0

    async def other_order(self, req: dict[str, Any], out: list[str]) -> str:
        """An order number that is not on the caller's account: nothing about it is shared."""
        out.append("That order isn't on your account, so I can't share its details. The "
                   "account holder who booked it can contact us, or forward you their "
                   "confirmation.")  # fmt: skip
        return "done"

    # -- booking an event ------------------------------------------------------------------
    async def step_book(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        days = [d for d in rd.dates(text, self.today) if d > self.today]
        if not days:
            return self.ask("event_date", "What's the date of the event?", out)
        day = days[-1]
        if (day - self.today).days < _seed.LEAD_DAYS:
            out.append(f"I'm sorry — {rd.say_day(day.isoformat())} is less than 14 days away, "
                       "and new bookings need at least 14 days' notice. I haven't booked "
                       "anything.")  # fmt: skip
            return "done"
        count = rd.headcount(text) or rd.bare_number(self.answered(req, "headcount"))
        if not count:
            return self.ask("headcount", "How many guests will there be?", out)
        if not _seed.MIN_GUESTS <= count <= _seed.MAX_GUESTS:
            out.append(f"I'm sorry — we cater for {_seed.MIN_GUESTS} to {_seed.MAX_GUESTS} "
                       "guests, so I can't book that. Nothing has been booked.")  # fmt: skip
            return "done"
        said = rd.packages(text)
        if not said:
            return self.ask("package", f"Which menu would you like: {MENU_LIST}?", out)
        package = said[-1]
        why = self.package_problem(package, count)
        if why:
            out.append(f"I'm sorry — {why}. I haven't booked anything; the buffet or the "
                       "canapé reception can be booked for 20 guests or more.")  # fmt: skip
            return "done"
        diet = rd.dietary(text)
        if sum(diet.values()) > count:
            out.append("Those dietary meals come to more than the guests; could you check the "
                       "numbers? Nothing has been booked.")  # fmt: skip
            return "done"
        price = count * _seed.per_head(package)
        deposit = price * _seed.DEPOSIT_PERCENT // 100
        diets = (f", with {diet.get('vegetarian', 0)} vegetarian, {diet.get('vegan', 0)} vegan "
                 f"and {diet.get('gluten_free', 0)} gluten-free meals" if diet else "")  # fmt: skip
        return self.propose(
            req, out,
            f"To book the {menu_name(package)} for {count} guests on "
            f"{rd.say_day(day.isoformat())}{diets}: {rd.pounds(_seed.per_head(package))} a "
            f"guest, {rd.pounds(price)} in all. A 25% deposit of {rd.pounds(deposit)} is taken "
            f"now from your card ending {v['card_last4']}; the balance is due 7 days before "
            "the event. Shall I book it?",
            [("book_event", {"account_id": v["account_id"], "event_date": day.isoformat(),
                             "headcount": count, "package": package,
                             "vegetarian": diet.get("vegetarian", 0),
                             "vegan": diet.get("vegan", 0),
                             "gluten_free": diet.get("gluten_free", 0),
                             "price_pence": price})],
        )  # fmt: skip

    # -- changing the headcount and the menu -----------------------------------------------
    def new_headcount(self, req: dict[str, Any], o: dict[str, Any]) -> int | None:
        text = self.text(req)
        answer = self.answered(req, "headcount")
        if answer:
            return rd.headcount(answer) or rd.bare_number(answer)
        total = rd.headcount(text)
        if total:
            return total
        delta = rd.guest_delta(text)
        return int(o["headcount"] + delta) if delta else None

    async def step_guests(self, req: dict[str, Any], out: list[str]) -> str:
        v, o = await self.order_for(req, out)
        if not v:
            return str(o)
        new = self.new_headcount(req, o)
        if not new:
            return self.ask("headcount", f"Your order is for {o['headcount']} guests now. How "
                            "many guests will there be in all?", out)  # fmt: skip
        if new == o["headcount"]:
            out.append(f"Your order is already for {new} guests, so there's nothing to change.")
            return "done"
        days = o["days_to_event"]
        if days < _seed.FINAL_DAYS:
            out.append("I'm sorry — the kitchen has its final numbers less than 3 days before "
                       "the event, so the headcount can't change now. Nothing has been "
                       "changed.")  # fmt: skip
            return "done"
        if not _seed.MIN_GUESTS <= new <= _seed.MAX_GUESTS:
            out.append(f"I'm sorry — an order is for {_seed.MIN_GUESTS} to {_seed.MAX_GUESTS} "
                       "guests. Nothing has been changed.")  # fmt: skip
            return "done"
        why = self.package_problem(o["package"], new)
        if why:
            out.append(f"I'm sorry — {why}. Nothing has been changed.")
            return "done"
        late = days < _seed.CUTOFF_DAYS
        if late and new < o["headcount"]:
            price = self.decrease_late(o, new, out)
            if price is None:
                return "done"
            how = "the price is for the new number"
        elif late:
            price = self.late_added_price(o, new)
            extra = price - o["price_pence"] - (new - o["headcount"]) * _seed.per_head(o["package"])
            if self.declined_by_condition(req, extra, out):
                return "done"
            how = (f"the event is less than 10 days away, so each added guest is "
                   f"{rd.pounds(_seed.per_head(o['package']))} plus a late supplement of "
                   f"£6.00 ({rd.pounds(extra)} in supplements)")  # fmt: skip
        else:
            price = new * _seed.per_head(o["package"])
            how = (f"at {rd.pounds(_seed.per_head(o['package']))} a guest, with no charge for "
                   "the change as it's 10 or more days before the event")  # fmt: skip
        paid = o["paid_pence"]
        return self.propose(
            req, out,
            f"To change {self.say_order(o)} to {new} guests: {how}. The order comes to "
            f"{rd.pounds(price)} (was {rd.pounds(o['price_pence'])}); {rd.pounds(paid)} is "
            f"paid, so {rd.pounds(price - paid)} is left to pay. Shall I change it?",
            [("change_headcount", {"account_id": v["account_id"], "order_id": o["order_id"],
                                   "headcount": new, "price_pence": price})],
        )  # fmt: skip

    async def step_menu(self, req: dict[str, Any], out: list[str]) -> str:
        v, o = await self.order_for(req, out)
        if not v:
            return str(o)
        said = rd.packages(self.text(req))
        wanted = [p for p in said if p != o["package"]]
        if not wanted:
            if said:
                out.append(f"Your order is already for the {menu_name(o['package'])}.")
                return "done"
            return self.ask("package", f"Which menu would you like instead: {MENU_LIST}?", out)
        package = wanted[-1]
        if o["days_to_event"] < _seed.CUTOFF_DAYS:
            out.append(f"I'm sorry — {rd.say_day(o['event_date'])} is less than 10 days away, "
                       "and the menu can't be changed inside 10 days of the event: the food is "
                       "ordered. Nothing has been changed.")  # fmt: skip
            return "done"
        why = self.package_problem(package, o["headcount"])
        if why:
            out.append(f"I'm sorry — {why}. Nothing has been changed.")
            return "done"
        price = o["headcount"] * _seed.per_head(package)
        paid = o["paid_pence"]
        return self.propose(
            req, out,
            f"To change {self.say_order(o)} to the {menu_name(package)} at "
            f"{rd.pounds(_seed.per_head(package))} a guest: {rd.pounds(price)} in all (was "
            f"{rd.pounds(o['price_pence'])}), no fee as it's 10 or more days before the event. "
            f"{rd.pounds(paid)} is paid, so {rd.pounds(price - paid)} is left to pay. Shall I "
            "change it?",
            [("change_menu", {"account_id": v["account_id"], "order_id": o["order_id"],
                              "package": package, "price_pence": price})],
        )  # fmt: skip

    async def step_dietary(self, req: dict[str, Any], out: list[str]) -> str:
        v, o = await self.order_for(req, out)
        if not v:
            return str(o)
        said = rd.dietary(self.text(req))
        if not said:
            return self.ask("dietary", "How many vegetarian, vegan and gluten-free meals "
                            "should there be?", out)  # fmt: skip
        counts = {k: int(said.get(k, o[k])) for k in ("vegetarian", "vegan", "gluten_free")}
        if o["days_to_event"] < _seed.FINAL_DAYS:
            out.append("I'm sorry — the kitchen has its final numbers less than 3 days before "
                       "the event. Nothing has been changed.")  # fmt: skip
            return "done"
        if sum(counts.values()) > o["headcount"]:
            out.append(f"Those come to more than the {o['headcount']} guests on the order; "
                       "could you check the numbers? Nothing has been changed.")  # fmt: skip
            return "done"
        return self.propose(
            req, out,
            f"To set the dietary meals on {self.say_order(o)} to {diet_words(counts)} (no "
            "charge; the rest are standard). Shall I update it?",
            [("set_dietary", {"account_id": v["account_id"], "order_id": o["order_id"],
                              **counts})],
        )  # fmt: skip

    # -- payments and cancelling -----------------------------------------------------------
    async def step_deposit(self, req: dict[str, Any], out: list[str]) -> str:
        v, o = await self.order_for(req, out)
        if not v:
            return str(o)
        if o["status"] != "held":
            out.append(f"The {rd.pounds(o['deposit_pence'])} deposit on {o['order_id']} is "
                       "already paid.")  # fmt: skip
            return "done"
        return self.propose(
            req, out,
            f"To pay the 25% deposit of {rd.pounds(o['deposit_pence'])} on {self.say_order(o)} "
            f"from your card ending {v['card_last4']}; that confirms the booking. Shall I take "
            "it?",
            [("pay_deposit", {"account_id": v["account_id"], "order_id": o["order_id"]})],
        )  # fmt: skip

    async def step_balance(self, req: dict[str, Any], out: list[str]) -> str:
        v, o = await self.order_for(req, out)
        if not v:
            return str(o)
        if o["status"] == "held":
            out.append("The deposit on that order isn't paid yet; it has to be paid first.")
            return "done"
        due = int(o["outstanding_pence"])
        if due <= 0:
            out.append(f"There's nothing left to pay on {o['order_id']}.")
            return "done"
        return self.propose(
            req, out,
            f"To pay the balance of {rd.pounds(due)} on {self.say_order(o)} from your card "
            f"ending {v['card_last4']}; that's everything owed. Shall I take it?",
            [("pay_balance", {"account_id": v["account_id"], "order_id": o["order_id"],
                              "amount_pence": due})],
        )  # fmt: skip

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v, o = await self.order_for(req, out)
        if not v:
            return str(o)
        refund, days = self.refund_for(o), o["days_to_event"]
        if days >= _seed.FULL_REFUND_DAYS:
            band = "it's 60 or more days before the event, so everything paid is refunded"
        elif days >= _seed.HALF_REFUND_DAYS:
            band = ("it's 30 to 59 days before the event, so half the deposit is refunded, "
                    "with any balance paid")  # fmt: skip
        elif days >= _seed.CUTOFF_DAYS:
            band = ("it's 10 to 29 days before the event, so the deposit is kept; any balance "
                    "paid is refunded")  # fmt: skip
        else:
            band = "it's less than 10 days before the event, so nothing is refunded"
        return self.propose(
            req, out,
            f"To cancel {self.say_order(o)}: {band}. You've paid {rd.pounds(o['paid_pence'])}; "
            f"the refund is {rd.pounds(refund)} to your card ending {v['card_last4']}. Shall I "
            "cancel it?",
            [("cancel_order", {"account_id": v["account_id"], "order_id": o["order_id"],
                               "refund_pence": refund})],
        )  # fmt: skip

    # -- the on-the-day contact and look-ups -----------------------------------------------
    async def step_contact(self, req: dict[str, Any], out: list[str]) -> str:
        v, o = await self.order_for(req, out)
        if not v:
            return str(o)
        numbers = rd.phones(self.text(req))
        if not numbers:
            return self.ask("contact_phone", "What's the on-the-day contact's new phone "
                            "number?", out)  # fmt: skip
        return self.propose(
            req, out,
            f"To change the on-the-day contact number for {o['order_id']} to {numbers[-1]}. "
            "Shall I update it?",
            [("update_event_contact", {"account_id": v["account_id"],
                                       "order_id": o["order_id"],
                                       "contact_phone": numbers[-1]})],
        )  # fmt: skip

    def describe(self, o: dict[str, Any]) -> str:
        due = (date.fromisoformat(o["event_date"]) - timedelta(days=_seed.BALANCE_DAYS)).isoformat()
        owed = int(o["outstanding_pence"])
        left = (f"{rd.pounds(owed)} is left to pay, due by {rd.say_day(due)}" if owed > 0
                else "it's paid in full")  # fmt: skip
        return (f"Order {o['order_id']}: the {menu_name(o['package'])} for {o['headcount']} "
                f"guests on {rd.say_day(o['event_date'])} ({diet_words(o)} meals), "
                f"{rd.pounds(o['price_pence'])} in all; {rd.pounds(o['paid_pence'])} is paid, "
                f"so {left}. The on-the-day contact is {o['contact_phone']}.")  # fmt: skip

    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        o = self.pick_order(v, self.text(req))
        if o == "other":
            return await self.other_order(req, out)
        if not isinstance(o, dict):
            v, o = await self.order_for(req, out)
            if not v:
                return str(o)
        out.append(self.describe(o))
        return "done"

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:
        """What the system returned, in the customer's words."""
        if intent == "book":
            return (f"Done — order {r['order_id']} is booked: the "
                    f"{menu_name(r['package'])} for {r['headcount']} guests on "
                    f"{rd.say_day(r['event_date'])}, {r['price']}; {r['deposit_taken']} "
                    f"deposit taken from your card ending {r['card_last4']}.")  # fmt: skip
        if intent == "guests":
            return (f"Done — order {r['order_id']} is now for {r['headcount']} guests, "
                    f"{r['price']} in all; {r['outstanding']} is left to pay.")  # fmt: skip
        if intent == "menu":
            return (f"Done — order {r['order_id']} is now the {menu_name(r['package'])}, "
                    f"{r['price']} in all; {r['outstanding']} is left to pay.")  # fmt: skip
        if intent == "dietary":
            return f"Done — order {r['order_id']} has {diet_words(r)} meals."
        if intent == "deposit":
            return (f"Done — {r['deposit_taken']} deposit taken from your card ending "
                    f"{r['card_last4']}; order {r['order_id']} is confirmed.")  # fmt: skip
        if intent == "balance":
            return (f"Done — {r['paid']} taken from your card ending {r['card_last4']}; "
                    f"{r['outstanding']} is left to pay on {r['order_id']}.")  # fmt: skip
        if intent == "cancel":
            return (f"Done — order {r['order_id']} is cancelled; {r['refunded']} refunded to "
                    f"your card ending {r['card_last4']}.")  # fmt: skip
        return (f"Done — the on-the-day contact number for {r['order_id']} is now "
                f"{r['contact_phone']}.")  # fmt: skip

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
