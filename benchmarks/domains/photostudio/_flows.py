"""The desk's flows: book, move, cancel, add, orders, gallery links, look-ups."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from benchmarks.domains.photostudio import _read as rd
from benchmarks.domains.photostudio import _seed
from benchmarks.domains.photostudio._env import is_open

KIND_NAMES = {"family": "family session", "newborn": "newborn session", "headshot": "headshot"}


def included(kind: str) -> int:
    return _seed.SESSIONS[kind][1]


def most(kind: str) -> int:
    return _seed.SESSIONS[kind][2]


def over(kind: str, people: int) -> int:
    """People over those the session includes."""
    return max(0, people - included(kind))


def closed_reason(day: date) -> str:
    if _seed.CLOSED_FIRST <= day <= _seed.CLOSED_LAST:
        return "we're closed for Christmas from 25 December to 1 January"
    return "we shoot Tuesday to Saturday only"


class Flows:
    """The flows; `CorrectPhotostudioAgent` supplies the state, the calls and the questions."""

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
    def pick_session(v: dict[str, Any], text: str, status: str) -> dict[str, Any] | None:
        """The session meant: named by number, by its kind, or the only one with that status."""
        pool = [s for s in v["sessions"] if s["status"] == status]
        ids = rd.sessions(text)
        named = [s for s in pool if s["session_id"] in ids]
        kind = rd.session_kind(text)
        if not named and kind:
            named = [s for s in pool if s["kind"] == kind]
        if not named and len(pool) == 1:
            named = pool
        if not named and status == "completed" and pool:
            named = [max(pool, key=lambda s: s["gallery_opened"] or "")]
        return named[0] if named else None

    def no_session(self, out: list[str], what: str = "booked session") -> str:
        out.append(f"I can't find a {what} that matches that on your account.")
        return "done"

    @staticmethod
    def say_session(s: dict[str, Any]) -> str:
        return (f"your {KIND_NAMES[s['kind']]} {s['session_id']} on {rd.say_day(s['day'])} at "
                f"{s['time']}")  # fmt: skip

    def condition(self, req: dict[str, Any], pattern: re.Pattern[str]) -> bool:
        # the condition may be its own sentence of the message ("If there's a fee, leave it.")
        return bool(pattern.search(" ".join([self.text(req), *self.s.get("said", [])])))

    def free_only(self, req: dict[str, Any], fee: int, what: str, out: list[str]) -> bool:
        """The client said to go ahead only if free: a fee ends the request, nothing changed."""
        if fee and self.condition(req, rd.FREE_ONLY):
            out.append(f"{what} would cost {rd.pounds(fee)}, and you asked me to leave it if "
                       "there was a charge, so I haven't changed anything.")  # fmt: skip
            return True
        return False

    async def free_times(self, day: str) -> list[str]:
        result, error = await self.call("check_availability", day=day)
        return [] if error else list(result["free"])

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def newborn_problem(self, day: date, time: str | None) -> str | None:
        """Why a newborn session can't be on that day and time, or None."""
        if day.weekday() not in _seed.NEWBORN_WEEKDAYS or (time and time != _seed.NEWBORN_TIME):
            return (f"newborn sessions are on weekday mornings only — Tuesday to Friday at "
                    f"{_seed.NEWBORN_TIME}, while babies are at their sleepiest — so "
                    f"{rd.say_day(day.isoformat())}{f' at {time}' if time else ''} isn't "
                    "possible")  # fmt: skip
        return None

    def move_terms(self, s: dict[str, Any]) -> int | None:
        """The change fee for moving a session, or None when it can't be moved any more."""
        if s["kind"] == "newborn":
            return 0  # babies come when they come: newborn sessions move free at any notice
        if s["hours_to_start"] < _seed.NO_MOVE_HOURS:
            return None
        return _seed.MOVE_FEE_PENCE if s["hours_to_start"] < _seed.FREE_MOVE_HOURS else 0

    def people_fee(self, s: dict[str, Any], adding: int) -> int:
        """Only people over those the session includes are charged."""
        extra = over(s["kind"], s["people"] + adding) - over(s["kind"], s["people"])
        return extra * _seed.EXTRA_PERSON_PENCE

    def order_discount(self, s: dict[str, Any], subtotal: int) -> int:
        """10% off an order placed within 14 days of the gallery opening."""
        if s["gallery_days_open"] <= _seed.EARLY_ORDER_DAYS:
            return subtotal * _seed.EARLY_ORDER_PERCENT // 100
        return 0

    def refund_for(self, s: dict[str, Any]) -> int:
        if s["hours_to_start"] < _seed.REFUND_DAYS * 24:
            return 0
        return int(s["deposit_pence"])

    def gallery_note(self, session_id: str) -> str:
        """Hook: what is said with a gallery link sent (never the gallery's PIN)."""
        return "The access code is in the email; for your security we never give it in chat."

    # -- booking a session -----------------------------------------------------------------
    def _book_when(self, req: dict[str, Any], kind: str, out: list[str]) -> Any:
        """The day asked for, or a question; a newborn day is checked against its rule."""
        text = self.text(req)
        days = [d for d in rd.dates(text, self.today, all_said=True) if d > self.today]
        if not days:
            return self.ask("date", "Which day would you like? We shoot Tuesday to Saturday, at "
                            "10:00, 12:00, 14:00 and 16:00.", out)  # fmt: skip
        day = days[-1]
        if not is_open(day):
            return self.ask("date", f"I'm sorry — {closed_reason(day)}, so "
                            f"{rd.say_day(day.isoformat())} isn't possible. Which other day "
                            "would suit?", out)  # fmt: skip
        times = rd.clock_times(text)
        if kind == "newborn":
            why = self.newborn_problem(day, times[-1] if times else None)
            if why:
                return self.ask("date", f"I'm sorry — {why}. I haven't booked anything. Which "
                                "weekday would suit instead?", out)  # fmt: skip
        return day

    async def step_book(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        kind = rd.session_kind(text)
        if kind is None:
            return self.ask("kind", "Which kind of session would you like: family, newborn or "
                            "headshot?", out)  # fmt: skip
        day = self._book_when(req, kind, out)
        if isinstance(day, str):
            return day
        iso = day.isoformat()
        free = await self.free_times(iso)
        times = rd.clock_times(text) or ([_seed.NEWBORN_TIME] if kind == "newborn" else [])
        if not times:
            return self.ask("time", f"Which time would you like on {rd.say_day(iso)}? "
                            f"{self.say_free(free)}", out)  # fmt: skip
        time = next((t for t in times if t in free), None)
        if time is None:
            return self.ask("time", f"I'm sorry — {times[-1]} on {rd.say_day(iso)} is already "
                            f"taken. {self.say_free(free)} Which would you like?", out)  # fmt: skip
        people = {"headshot": 1}.get(kind) or rd.people_total(text)
        if people is None and kind == "newborn":
            people = included("newborn")
        if people is None:
            return self.ask("people", "How many people will be in the photos, children "
                            "included?", out)  # fmt: skip
        if not 1 <= people <= most(kind):
            out.append(f"I'm sorry — a {KIND_NAMES[kind]} is for up to {most(kind)} people. "
                       f"For a bigger group please call the studio on 0117 496 0520. Nothing "
                       "has been booked.")  # fmt: skip
            return "done"
        price = _seed.SESSIONS[kind][0] + over(kind, people) * _seed.EXTRA_PERSON_PENCE
        extra = (f" ({included(kind)} people included, {rd.pounds(_seed.EXTRA_PERSON_PENCE)} for "
                 "each extra person)" if over(kind, people) else "")  # fmt: skip
        deposit = _seed.DEPOSIT_PENCE
        return self.propose(
            req, out,
            f"To book a {KIND_NAMES[kind]} on {rd.say_day(iso)} at {time} for {people} "
            f"{'person' if people == 1 else 'people'}: {rd.pounds(price)}{extra}. A "
            f"{rd.pounds(deposit)} deposit is taken now from your card ending {v['card_last4']} "
            f"and counts towards the price; the {rd.pounds(price - deposit)} balance is paid on "
            "the day. Shall I book it?",
            [("book_session", {"account_id": v["account_id"], "kind": kind, "day": iso,
                               "time": time, "people": people, "price_pence": price})],
        )  # fmt: skip

    @staticmethod
    def say_free(free: list[str]) -> str:
        if not free:
            return "Nothing is free that day."
        return f"Free that day: {', '.join(free)}."

    # -- moving and cancelling -------------------------------------------------------------
    async def step_move(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        s = self.pick_session(v, text, "booked")
        if s is None:
            return self.no_session(out)
        fee = self.move_terms(s)
        if fee is None:
            out.append(f"I'm sorry — {self.say_session(s)} is less than 48 hours away, and "
                       "sessions can't be moved that close to the day. Nothing has been "
                       "changed; cancelling now would keep the deposit.")  # fmt: skip
            return "done"
        days = [d for d in rd.dates(text, self.today) if d > self.today]
        days = [d for d in days if d.isoformat() != s["day"]]
        if not days:
            return self.ask("date", f"Which day would you like to move {self.say_session(s)} "
                            "to?", out)  # fmt: skip
        day = days[-1]
        iso = day.isoformat()
        if not is_open(day):
            return self.ask("date", f"I'm sorry — {closed_reason(day)}, so {rd.say_day(iso)} "
                            "isn't possible. Which other day would suit?", out)  # fmt: skip
        times = rd.clock_times(text)
        time = times[-1] if times else s["time"]
        if s["kind"] == "newborn":
            why = self.newborn_problem(day, time)
            if why:
                return self.ask("date", f"I'm sorry — {why}. Which weekday would suit "
                                "instead?", out)  # fmt: skip
        free = await self.free_times(iso)
        if time not in free:
            return self.ask("time", f"I'm sorry — {time} on {rd.say_day(iso)} is already "
                            f"taken. {self.say_free(free)} Which would you like?", out)  # fmt: skip
        if self.free_only(req, fee, "Moving it less than 7 days before the session", out):
            return "done"
        charge = (
            f"It's less than 7 days away, so there's a {rd.pounds(fee)} change fee, taken "
            f"from your card ending {v['card_last4']}."
            if fee
            else "There's no charge."
        )
        return self.propose(
            req, out, f"To move {self.say_session(s)} to {rd.say_day(iso)} at {time}, same "
            f"price. {charge} Shall I move it?",
            [("reschedule_session", {"account_id": v["account_id"],
                                     "session_id": s["session_id"], "day": iso, "time": time,
                                     "fee_pence": fee})],
        )  # fmt: skip

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        s = self.pick_session(v, self.text(req), "booked")
        if s is None:
            return self.no_session(out)
        refund = self.refund_for(s)
        deposit = rd.pounds(s["deposit_pence"])
        if not refund and self.condition(req, rd.REFUND_ONLY):
            out.append(f"{self.say_session(s)[0].upper()}{self.say_session(s)[1:]} is less than "
                       f"14 days away, so the {deposit} deposit would be kept, and you asked "
                       "me to cancel only if you'd get it back — so I haven't cancelled "
                       "anything.")  # fmt: skip
            return "done"
        if refund:
            what = (f"your {deposit} deposit is refunded to your card ending {v['card_last4']}, "
                    "as it's 14 or more days before the session")  # fmt: skip
        else:
            what = f"your {deposit} deposit is kept, as it's less than 14 days before the session"
        return self.propose(
            req, out, f"To cancel {self.say_session(s)}: {what}. Shall I cancel it?",
            [("cancel_session", {"account_id": v["account_id"], "session_id": s["session_id"],
                                 "refund_pence": refund})],
        )  # fmt: skip

    # -- adding people and outfits ---------------------------------------------------------
    async def step_add(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        s = self.pick_session(v, text, "booked")
        if s is None:
            return self.no_session(out)
        if re.search(r"\boutfits?\b", text, re.I):
            n = rd.outfits_added(text)
            if s["outfits"] + n > _seed.MAX_EXTRA_OUTFITS:
                out.append(f"I'm sorry — a session can have at most {_seed.MAX_EXTRA_OUTFITS} "
                           f"extra outfit changes, and {self.say_session(s)} has "
                           f"{s['outfits']}. Nothing has been changed.")  # fmt: skip
                return "done"
            price = n * _seed.OUTFIT_PENCE
            what = f"{n} extra outfit change{'s' if n > 1 else ''}"
            call = {"kind": "outfits", "quantity": n, "price_pence": price}
            terms = f"{rd.pounds(_seed.OUTFIT_PENCE)} each: {rd.pounds(price)}"
        else:
            if s["kind"] == "headshot":
                out.append("I'm sorry — a headshot is for one person, so I can't add anyone to "
                           f"{self.say_session(s)}. I'd be glad to book them a headshot of "
                           "their own. Nothing has been changed.")  # fmt: skip
                return "done"
            n = rd.people_added(text)
            if n is None:
                return self.ask("people", "How many people would you like to add?", out)
            if s["people"] + n > most(s["kind"]):
                out.append(f"I'm sorry — a {KIND_NAMES[s['kind']]} is for up to "
                           f"{most(s['kind'])} people, and {self.say_session(s)} has "
                           f"{s['people']}. Nothing has been changed.")  # fmt: skip
                return "done"
            price = self.people_fee(s, n)
            what = f"{n} {'person' if n == 1 else 'people'} ({s['people'] + n} in all)"
            call = {"kind": "people", "quantity": n, "price_pence": price}
            terms = (
                f"{included(s['kind'])} people are included and each one over that is "
                f"{rd.pounds(_seed.EXTRA_PERSON_PENCE)}, so that's {rd.pounds(price)}"
            )
        if self.free_only(req, price, f"Adding {what}", out):
            return "done"
        return self.propose(
            req, out, f"To add {what} to {self.say_session(s)}: {terms}, added to the balance "
            "paid on the day. Shall I add it?",
            [("add_to_session", {"account_id": v["account_id"], "session_id": s["session_id"],
                                 **call})],
        )  # fmt: skip

    # -- orders and galleries --------------------------------------------------------------
    async def step_order(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        s = self.pick_session(v, text, "completed")
        if s is None or not s.get("gallery_opened"):
            return self.no_session(out, "gallery")
        items = rd.order_items(text)
        if not items:
            return self.ask("order", "What would you like to order? 8x10 prints are £25.00, "
                            "11x14 prints £40.00, a 16x20 canvas £95.00; digital packages are "
                            "5 images £60.00, 10 images £100.00 or the full gallery "
                            "£250.00.", out)  # fmt: skip
        if any(i["image"] is None and not str(i["product"]).startswith("digital") for i in items):
            numbers = rd.image_numbers(text)
            for i in items:
                if i["image"] is None and numbers and not str(i["product"]).startswith("digital"):
                    i["image"] = numbers[-1]
            if any(i["image"] is None and not str(i["product"]).startswith("digital")
                   for i in items):  # fmt: skip
                return self.ask("image", "Which image number would you like printed? It's "
                                "shown under each photo in your gallery.", out)  # fmt: skip
        lines, subtotal = [], 0
        for i in items:
            name, price = _seed.PRODUCTS[str(i["product"])]
            cost = price * int(str(i["quantity"]))
            subtotal += cost
            of = f" of image {i['image']}" if i["image"] else ""
            lines.append(f"{i['quantity']} x {name}{of} ({rd.pounds(cost)})")
        discount = self.order_discount(s, subtotal)
        total = subtotal - discount
        money = (f"{rd.pounds(subtotal)}, less 10% for ordering within 14 days of your gallery "
                 f"opening ({rd.pounds(discount)}): {rd.pounds(total)}" if discount
                 else rd.pounds(total))  # fmt: skip
        return self.propose(
            req, out, f"To order from the gallery of {self.say_session(s)}: "
            f"{'; '.join(lines)}. Total {money}, paid now by your card ending "
            f"{v['card_last4']}. Shall I place the order?",
            [("place_order", {"account_id": v["account_id"], "session_id": s["session_id"],
                              "items": items, "subtotal_pence": subtotal,
                              "discount_pence": discount, "total_pence": total})],
        )  # fmt: skip

    async def step_gallery(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        s = self.pick_session(v, self.text(req), "completed")
        if s is None or not s.get("gallery_opened"):
            return self.no_session(out, "gallery")
        return self.propose(
            req, out, f"To email the gallery link for {self.say_session(s)} to {v['email']}, "
            "the address on your account. Shall I send it?",
            [("resend_gallery_link", {"account_id": v["account_id"],
                                      "session_id": s["session_id"]})],
        )  # fmt: skip

    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        s = self.pick_session(v, self.text(req), "booked")
        if s is None:
            return self.no_session(out)
        due = s["price_pence"] - s["deposit_pence"]
        outfits = (f" with {s['outfits']} extra outfit change{'s' if s['outfits'] > 1 else ''}"
                   if s["outfits"] else "")  # fmt: skip
        who = f"{s['people']} {'person' if s['people'] == 1 else 'people'}"
        out.append(
            f"{self.say_session(s)[0].upper()}{self.say_session(s)[1:]} is for {who}{outfits}: "
            f"{rd.pounds(s['price_pence'])} in all. The "
            f"{rd.pounds(s['deposit_pence'])} deposit is paid, so {rd.pounds(due)} is due on the "
            f"day. The session starts at {s['time']}; please arrive 10 minutes early."
        )
        return "done"

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:
        """What the system returned, in the client's words."""
        if intent == "book":
            return (f"Done — {KIND_NAMES[r['kind']]} {r['session_id']} is booked for "
                    f"{rd.say_day(r['day'])} at {r['time']}, {r['price']}; {r['deposit_taken']} "
                    f"deposit taken from your card ending {r['card_last4']}.")  # fmt: skip
        if intent == "move":
            fee = f"; {r['fee']} change fee taken" if r["fee"] != "£0.00" else ""
            return (f"Done — session {r['session_id']} is now on {rd.say_day(r['day'])} at "
                    f"{r['time']}{fee}.")  # fmt: skip
        if intent == "cancel":
            if r["refunded"] == "£0.00":
                return f"Done — session {r['session_id']} is cancelled; the deposit is kept."
            return (f"Done — session {r['session_id']} is cancelled; {r['refunded']} refunded "
                    f"to your card ending {r['card_last4']}.")  # fmt: skip
        if intent == "add":
            return (f"Done — {r['added']} added to {r['session_id']} ({r['price_added']}); the "
                    f"session is now {r['session_price']}.")  # fmt: skip
        if intent == "order":
            return (f"Done — order {r['order_id']} is placed: {r['total']} charged to your card "
                    f"ending {r['card_last4']}.")  # fmt: skip
        note = self.gallery_note(r["session_id"])
        return f"Done — the gallery link has been sent to {r['sent_to']}. {note}"

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
