"""The desk's flows: book, quote, extend, late and early returns, cancel, waiver, delivery."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from benchmarks.domains.toolhire import _read as rd
from benchmarks.domains.toolhire import _seed


def a_or_an(name: str) -> str:
    return ("an " if name[0] in "aeiou" else "a ") + name


def plural(name: str, count: int) -> str:
    return name if count == 1 else name + ("es" if name.endswith("s") else "s")


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class Flows:
    """The flows; `CorrectToolHireAgent` supplies the state, the calls and the questions."""

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
    def names(h: dict[str, Any]) -> str:
        return listed([line["name"] for line in h["lines"]])

    @staticmethod
    def say_days(first: str, last: str) -> str:
        if first == last:
            return f"on {rd.say_day(first)}"
        return f"from {rd.say_day(first)} to {rd.say_day(last)}"

    def say_hire(self, h: dict[str, Any]) -> str:
        days = rd.say_day(h["first_day"])
        if h["last_day"] != h["first_day"]:
            days += f" to {rd.say_day(h['last_day'])}"
        return f"hire {h['hire_id']} ({self.names(h)}, {days})"

    def pick_hire(self, v: dict[str, Any], text: str) -> dict[str, Any] | None:
        """The hire meant: named by number, by an item on it, or the only one live."""
        ids = rd.hires(text)
        named = [h for h in v["hires"] if h["hire_id"] in ids]
        if not named:
            codes = set(rd.items(text))
            named = [h for h in v["hires"] if codes & {x["item_code"] for x in h["lines"]}]
        if not named and len(v["hires"]) == 1:
            named = v["hires"]
        return named[0] if named else None

    def no_hire(self, out: list[str]) -> str:
        out.append("I can't find a live hire that matches that on your account.")
        return "done"

    def trade_price(self, v: dict[str, Any], full: int) -> int:
        """Trade accounts get 15% off the hire (never off deposits or fees)."""
        return full * (100 - _seed.TRADE_PERCENT) // 100 if v["trade"] else full

    def day_rates(self, h: dict[str, Any]) -> int:
        return sum(int(x["day_pence"]) for x in h["lines"])

    def count_note(self, first: date, last: date) -> str:
        """The days said for the customer: 3 days, or 7 days charged as 4 (and why)."""
        days, charged = (last - first).days + 1, self.days_charged(first, last)
        if charged == days:
            return f"{days} day{'s' if days != 1 else ''}"
        why = []
        if days >= 7:
            why.append("a whole week counts as 4 days")
        if charged != _seed.WEEK_DAYS * (days // 7) + days % 7:
            why.append("a Saturday and Sunday together count as one day")
        return f"{days} days charged as {charged} ({' and '.join(why)})"

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def days_charged(self, first: date, last: date) -> int:
        """The weekend and week rules: Saturday with Sunday is one day, a week is four."""
        return _seed.charged_days(first, last)

    def safety_missing(self, codes: list[str], found: dict[str, dict[str, Any]]) -> list[str]:
        """The safety items the hire must include and doesn't (a harness with a tower)."""
        return [str(found[c]["needs"]) for c in codes
                if found[c]["needs"] and found[c]["needs"] not in codes]  # fmt: skip

    def delivery_fee(self, v: dict[str, Any]) -> int | None:
        """Delivery and collection by distance; None beyond 15 miles. Never discounted."""
        return _seed.delivery_fee(float(v["miles"]))

    def early_refund(self, v: dict[str, Any], h: dict[str, Any], back: date) -> int:
        """The hire for days not started; the day it comes back is a started day."""
        first = date.fromisoformat(h["first_day"])
        used = self.trade_price(v, self.day_rates(h) * self.days_charged(first, back))
        return max(0, int(h["hire_pence"]) - used)

    async def other_hire(self, v: dict[str, Any], hire_id: str, out: list[str]) -> str:
        """A hire not on the caller's account: nothing about it is shared."""
        out.append(f"I'm sorry — hire {hire_id} isn't on your account, so I can't share "
                   "anything about it. Whoever booked it can contact us from their own "
                   "account.")  # fmt: skip
        return "done"

    # -- booking and quotes ----------------------------------------------------------------
    async def _what_and_when(self, req: dict[str, Any], out: list[str]) -> Any:
        """The items and days asked for, each item's availability; or a status to return."""
        text = self.text(req)
        if req["intent"] == "book" and not rd.items(text) and self.s.get("quoted"):
            # "yes, book it" after a quote: the quote's item and days
            req["chunks"].insert(0, self.s["quoted"])
            text = self.text(req)
        codes = rd.items(text)
        if not codes:
            return self.ask("item", "Which tool or machine would you like to hire?", out)
        # the latest message that names the days wins ("no, make it the 15th to the 16th")
        spans = [rd.span(chunk, self.today) for chunk in req["chunks"]]
        when = next((w for w in reversed(spans) if w), None) or rd.span(text, self.today)
        if when is None:
            return self.ask("dates", "Which day would you like it from, and which day will you "
                            "bring it back? Both days count.", out)  # fmt: skip
        first, last = when
        closed = [d for d in (first, last) if d in _seed.CLOSED]
        if closed:
            shut = rd.say_day(closed[0].isoformat())
            out.append(f"I'm sorry — the depot is closed on {shut}, so a hire can't start or "
                       "end that day. Nothing has been booked.")  # fmt: skip
            return "done"
        found: dict[str, dict[str, Any]] = {}
        for code in codes:
            if not await self._available(code, first, last, found, out):
                return "done"
        for code in self.safety_missing(codes, found):
            codes.append(code)
            if not await self._available(code, first, last, found, out):
                return "done"
        return codes, first, last, found

    async def _available(self, code: str, first: date, last: date,
                         found: dict[str, dict[str, Any]], out: list[str]) -> bool:  # fmt: skip
        info, error = await self.call(
            "check_availability",
            item_code=code,
            first_day=first.isoformat(),
            last_day=last.isoformat(),
        )
        if error:
            out.append(f"I'm sorry — {error}. Nothing has been booked.")
            return False
        if info["units_free"] < 1:
            when = self.say_days(first.isoformat(), last.isoformat())
            out.append(f"I'm sorry — there's no {info['name']} free on every day {when}, so I "
                       "haven't booked anything.")  # fmt: skip
            return False
        found[code] = info
        return True

    def _price_lines(self, v: dict[str, Any], codes: list[str], found: dict[str, Any],
                     first: date, last: date) -> tuple[int, int, str]:  # fmt: skip
        """The hire (after any trade discount), the deposits, and the words for them."""
        days = self.days_charged(first, last)
        full = sum(int(found[c]["day_pence"]) for c in codes) * days
        hire = self.trade_price(v, full)
        if len(codes) == 1:
            rates = f"{rd.pounds(found[codes[0]]['day_pence'])} a day"
        else:
            rates = listed([f"{rd.pounds(found[c]['day_pence'])} a day for the "
                            f"{found[c]['name']}" for c in codes])  # fmt: skip
        words = f"{rd.pounds(full)} hire for {self.count_note(first, last)} at {rates}"
        if hire != full:
            words += f", less your 15% trade discount (on the hire only): {rd.pounds(hire)}"
        deposit = sum(int(found[c]["deposit_pence"]) for c in codes)
        return hire, deposit, words

    async def step_book(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        got = await self._what_and_when(req, out)
        if isinstance(got, str):
            return got
        codes, first, last, found = got
        text = self.text(req)
        fee = 0
        if rd.wants_delivery(text):
            fee = self.delivery_fee(v) or 0
            if not fee:
                out.append(f"I'm sorry — we deliver and collect only within 15 miles of the "
                           f"depot, and {v['address']} is {v['miles']:g} miles away. I "
                           "haven't booked anything; you're welcome to collect from the "
                           "depot.")  # fmt: skip
                return "done"
        hire, deposit, words = self._price_lines(v, codes, found, first, last)
        waiver = hire * _seed.WAIVER_PERCENT // 100 if rd.wants_waiver(text) else 0
        extras = []
        if any(found[c]["needs"] for c in codes):
            extras.append("A scaffold tower is only hired with one of our safety harnesses, so "
                          "the harness is on the hire.")  # fmt: skip
        if waiver:
            extras.append(f"Damage waiver (10% of the hire): {rd.pounds(waiver)}.")
        if fee:
            extras.append(f"Delivery to {v['address']} and collection ({v['miles']:g} miles): "
                          f"{rd.pounds(fee)}.")  # fmt: skip
        total = hire + deposit + waiver + fee
        items = listed([a_or_an(found[c]["name"]) for c in codes])
        when = self.say_days(first.isoformat(), last.isoformat())
        return self.propose(
            req, out,
            f"To hire {items} {when}: {words}. {' '.join([*extras, ''])}Refundable deposit:"
            f" {rd.pounds(deposit)}, back when everything is returned undamaged. In all "
            f"{rd.pounds(total)}, taken now from your card ending {v['card_last4']}. It's due "
            f"back by 17:00 on {rd.say_day(last.isoformat())}. Shall I book it?",
            [("book_hire", {"account_id": v["account_id"], "item_codes": codes,
                            "first_day": first.isoformat(), "last_day": last.isoformat(),
                            "hire_pence": hire, "deposit_pence": deposit, "waiver_pence": waiver,
                            "delivery_fee_pence": fee})],
        )  # fmt: skip

    async def step_quote(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        got = await self._what_and_when(req, out)
        if isinstance(got, str):
            if got == "done" and out:
                # a question books nothing, so there's nothing to say about booking
                out[-1] = out[-1].replace(", so I haven't booked anything.", ".")
                out[-1] = out[-1].replace(" Nothing has been booked.", "")
            return got
        codes, first, last, found = got
        self.s["quoted"] = self.text(req)
        hire, deposit, words = self._price_lines(v, codes, found, first, last)
        counts = [(found[c]["units_free"], found[c]["name"]) for c in codes]
        free = listed([f"{n} {plural(name, n)}" for n, name in counts]) + " free"
        harness = (" A scaffold tower is only hired with one of our safety harnesses, so that's "
                   "included." if any(found[c]["needs"] for c in codes) else "")  # fmt: skip
        out.append(
            f"Yes — {free} {self.say_days(first.isoformat(), last.isoformat())}. It would be "
            f"{words}, plus a refundable deposit of "
            f"{rd.pounds(deposit)}.{harness} I haven't booked anything — just say if you'd like "
            "me to."
        )
        return "done"

    # -- changing a hire -------------------------------------------------------------------
    async def step_extend(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        h = self.pick_hire(v, text)
        if h is None:
            return self.no_hire(out)
        if h["overdue"]:
            return self.late_return(req, v, h, out)
        new = [d for d in rd.dates(text, self.today) if d.isoformat() > h["last_day"]]
        if not new:
            return self.ask("new_last_day", f"Until which day would you like to keep it? It's "
                            f"due back on {rd.say_day(h['last_day'])}.", out)  # fmt: skip
        last = new[-1]
        if last in _seed.CLOSED:
            out.append(f"I'm sorry — the depot is closed on {rd.say_day(last.isoformat())}, so a "
                       "hire can't end that day. Nothing has been changed.")  # fmt: skip
            return "done"
        first = date.fromisoformat(h["last_day"]) + timedelta(days=1)
        full = self.day_rates(h) * self.days_charged(first, last)
        extra = self.trade_price(v, full)
        waiver = extra * _seed.WAIVER_PERCENT // 100 if h["waiver_pence"] else 0
        cost = rd.pounds(extra)
        if extra != full:
            cost = f"{rd.pounds(full)} less your 15% trade discount: {cost}"
        cover = f", plus {rd.pounds(waiver)} damage waiver on the extra days" if waiver else ""
        return self.propose(
            req, out,
            f"To extend {self.say_hire(h)} to {rd.say_day(last.isoformat())}: "
            f"{self.count_note(first, last)} more, {cost}{cover}, taken from your card ending "
            f"{v['card_last4']}. It would then be due back by 17:00 on "
            f"{rd.say_day(last.isoformat())}. A hire is only extended if nobody else has the "
            f"{self.names(h)} booked next; the system checks that when I make the change. Shall "
            "I extend it?",
            [("extend_hire", {"account_id": v["account_id"], "hire_id": h["hire_id"],
                              "last_day": last.isoformat(), "extra_pence": extra,
                              "extra_waiver_pence": waiver})],
        )  # fmt: skip

    def late_return(self, req: dict[str, Any], v: dict[str, Any], h: dict[str, Any],
                    out: list[str]) -> str:  # fmt: skip
        """An overdue hire isn't extended: each late day is charged at the full day rate."""
        back = [d for d in rd.dates(self.text(req), self.today) if d >= self.today]
        if not back:
            return self.ask("return_day", f"{cap(self.say_hire(h))} was due back on "
                            f"{rd.say_day(h['last_day'])}, so it's overdue. Which day will you "
                            "bring it back?", out)  # fmt: skip
        day = back[-1]
        late = (day - date.fromisoformat(h["last_day"])).days
        fee = late * self.day_rates(h)
        return self.propose(
            req, out,
            f"{cap(self.say_hire(h))} was due back on {rd.say_day(h['last_day'])}, so "
            "it's overdue and can't be extended: late returns are charged per day at the full "
            f"day rate. Bringing it back on {rd.say_day(day.isoformat())} is {late} day"
            f"{'s' if late != 1 else ''} late at {rd.pounds(self.day_rates(h))} a day: "
            f"{rd.pounds(fee)}, taken from your card ending {v['card_last4']}. Shall I record "
            "that?",
            [("record_late_return", {"account_id": v["account_id"], "hire_id": h["hire_id"],
                                     "return_day": day.isoformat(), "late_fee_pence": fee})],
        )  # fmt: skip

    async def step_early(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        h = self.pick_hire(v, text)
        if h is None:
            return self.no_hire(out)
        if not h["started"]:
            out.append(f"{cap(self.say_hire(h))} hasn't started yet, so there's nothing "
                       "to return — I can cancel it instead if you like. Nothing has been "
                       "changed.")  # fmt: skip
            return "done"
        back = [d for d in rd.dates(text, self.today) if d >= self.today]
        if not back:
            return self.ask("return_day", "Which day will you bring it back? The day it comes "
                            "back counts as a started day.", out)  # fmt: skip
        day = back[-1]
        if day.isoformat() >= h["last_day"]:
            out.append(f"{cap(self.say_hire(h))} is due back on "
                       f"{rd.say_day(h['last_day'])} anyway, so there are no days to refund. "
                       "Nothing has been changed.")  # fmt: skip
            return "done"
        refund = self.early_refund(v, h, day)
        first = date.fromisoformat(h["first_day"])
        used = int(h["hire_pence"]) - refund
        when = "today," if day == self.today else "on"
        return self.propose(
            req, out,
            f"To end {self.say_hire(h)} early, bringing it back {when} "
            f"{rd.say_day(day.isoformat())}: you'll have had it {self.count_note(first, day)} "
            f"(the day it comes back counts as a started day), {rd.pounds(used)}. Of the "
            f"{rd.pounds(h['hire_pence'])} hire paid, {rd.pounds(refund)} for the days not "
            f"started is refunded to your card ending {v['card_last4']}. The "
            f"{rd.pounds(h['deposit_pence'])} deposit comes back when it's checked in "
            "undamaged. Shall I do that?",
            [("return_early", {"account_id": v["account_id"], "hire_id": h["hire_id"],
                               "return_day": day.isoformat(), "refund_pence": refund})],
        )  # fmt: skip

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        h = self.pick_hire(v, self.text(req))
        if h is None:
            return self.no_hire(out)
        if h["started"]:
            out.append(f"{cap(self.say_hire(h))} started on "
                       f"{rd.say_day(h['first_day'])}, so it can't be cancelled; I can end it "
                       "early when you bring it back. Nothing has been changed.")  # fmt: skip
            return "done"
        parts = [
            ("hire", h["hire_pence"]),
            ("damage waiver", h["waiver_pence"]),
            ("delivery", h["delivery_fee_pence"]),
            ("deposit", h["deposit_pence"]),
        ]
        paid = [f"{rd.pounds(p)} {name}" for name, p in parts if p]
        refund = sum(int(p) for _, p in parts)
        return self.propose(
            req, out,
            f"To cancel {self.say_hire(h)}: it hasn't started, so everything paid comes back — "
            f"{listed(paid)}: {rd.pounds(refund)} to your card ending {v['card_last4']}. Shall "
            "I cancel it?",
            [("cancel_hire", {"account_id": v["account_id"], "hire_id": h["hire_id"],
                              "refund_pence": refund})],
        )  # fmt: skip

    async def step_waiver(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        h = self.pick_hire(v, self.text(req))
        if h is None:
            return self.no_hire(out)
        if h["started"]:
            out.append(f"I'm sorry — the damage waiver can only be added before a hire starts, "
                       f"and {self.say_hire(h)} started on {rd.say_day(h['first_day'])}. "
                       "Nothing has been changed.")  # fmt: skip
            return "done"
        if h["waiver_pence"]:
            out.append(f"{cap(self.say_hire(h))} already has the damage waiver.")
            return "done"
        waiver = int(h["hire_pence"]) * _seed.WAIVER_PERCENT // 100
        return self.propose(
            req, out,
            f"To add the damage waiver to {self.say_hire(h)}: 10% of the "
            f"{rd.pounds(h['hire_pence'])} hire, {rd.pounds(waiver)}, taken from your card "
            f"ending {v['card_last4']}. Shall I add it?",
            [("add_waiver", {"account_id": v["account_id"], "hire_id": h["hire_id"],
                             "waiver_pence": waiver})],
        )  # fmt: skip

    async def step_delivery(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        h = self.pick_hire(v, self.text(req))
        if h is None:
            return self.no_hire(out)
        if h["started"]:
            out.append(f"{cap(self.say_hire(h))} has started, so the item is already "
                       "out. Nothing has been changed.")  # fmt: skip
            return "done"
        if h["delivery_fee_pence"]:
            out.append(f"{cap(self.say_hire(h))} already has delivery and collection.")
            return "done"
        fee = self.delivery_fee(v)
        if fee is None:
            out.append(f"I'm sorry — we deliver and collect only within 15 miles of the depot, "
                       f"and {v['address']} is {v['miles']:g} miles away, so I can't add "
                       "delivery. Nothing has been changed.")  # fmt: skip
            return "done"
        return self.propose(
            req, out,
            f"To deliver {self.say_hire(h)} to {v['address']} on "
            f"{rd.say_day(h['first_day'])} and collect it after {rd.say_day(h['last_day'])}: "
            f"{v['miles']:g} miles from the depot, so {rd.pounds(fee)} for both, taken from "
            f"your card ending {v['card_last4']}. Shall I arrange it?",
            [("arrange_delivery", {"account_id": v["account_id"], "hire_id": h["hire_id"],
                                   "fee_pence": fee})],
        )  # fmt: skip

    # -- look-ups --------------------------------------------------------------------------
    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        mine = {h["hire_id"] for h in v["hires"]}
        said = rd.hires(text)
        foreign = [i for i in said if i not in mine]
        if foreign and not set(said) & mine:
            return await self.other_hire(v, foreign[0], out)
        h = self.pick_hire(v, text)
        if h is None and rd.items(text) and rd.span(text, self.today):
            # "how much for a sander on the 14th and 15th?" is a quote, not one of theirs
            return await self.step_quote(req, out)
        chosen = [h] if h else v["hires"]
        if not chosen:
            out.append("There are no live hires on your account.")
            return "done"
        out.extend(self.describe(h) for h in chosen[:3])
        return "done"

    def describe(self, h: dict[str, Any]) -> str:
        paid = [f"the {rd.pounds(h['hire_pence'])} hire"]
        if h["waiver_pence"]:
            paid.append(f"the {rd.pounds(h['waiver_pence'])} damage waiver")
        if h["delivery_fee_pence"]:
            paid.append(f"{rd.pounds(h['delivery_fee_pence'])} delivery and collection")
        late = ""
        if h["overdue"]:
            late = (f" It's overdue: late returns are charged "
                    f"{rd.pounds(self.day_rates(h))} a day at the full rate.")  # fmt: skip
        return (f"{cap(self.say_hire(h))}: due back by 17:00 on "
                f"{rd.say_day(h['last_day'])}. {cap(listed(paid))} "
                f"{'is' if len(paid) == 1 else 'are'} paid; your "
                f"{rd.pounds(h['deposit_pence'])} deposit comes back when it's returned "
                f"undamaged.{late}")  # fmt: skip

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:
        """What the system returned, in the customer's words."""
        if intent == "book":
            return (f"Done — hire {r['hire_id']} is booked: {listed(r['items'])} "
                    f"{self.say_days(r['first_day'], r['last_day'])}; {r['taken']} "
                    f"taken from your card ending {r['card_last4']}, of which {r['deposit']} is "
                    "the refundable deposit.")  # fmt: skip
        if "late_fee" in r:
            return (f"Done — hire {r['hire_id']} is down to come back on "
                    f"{rd.say_day(r['return_day'])}; {r['late_fee']} late-return charge taken "
                    f"from your card ending {r['card_last4']}.")  # fmt: skip
        if intent == "extend":
            return (f"Done — hire {r['hire_id']} is extended to {rd.say_day(r['last_day'])}; "
                    f"{r['extra']} taken from your card ending {r['card_last4']}.")  # fmt: skip
        if intent == "early":
            return (f"Done — hire {r['hire_id']} now ends on {rd.say_day(r['return_day'])}; "
                    f"{r['refunded']} refunded to your card ending {r['card_last4']}.")  # fmt: skip
        if intent == "cancel":
            return (f"Done — hire {r['hire_id']} is cancelled; {r['refunded']} refunded to your "
                    f"card ending {r['card_last4']}.")  # fmt: skip
        if intent == "waiver":
            return (f"Done — the damage waiver is on hire {r['hire_id']}; {r['waiver']} taken "
                    f"from your card ending {r['card_last4']}.")  # fmt: skip
        return (f"Done — hire {r['hire_id']} will be delivered to {r['delivery_to']} and "
                f"collected after; {r['fee']} taken from your card ending "
                f"{r['card_last4']}.")  # fmt: skip

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        words = re.sub(r"\b20\d\d-\d\d-\d\d\b", lambda m: rd.say_day(m.group(0)), error)
        out.append(f"I'm sorry — the system refused that: {words}. Nothing has been changed.")
