"""The desk's session flows: book, swap, cancel, late collection; reports and policy hooks."""

from __future__ import annotations

from datetime import date
from typing import Any

from benchmarks.domains.nursery import _read as rd
from benchmarks.domains.nursery import _seed
from benchmarks.domains.nursery._family import FamilyFlows

KIND_WITH_ARTICLE = {"morning": "a morning", "afternoon": "an afternoon", "full": "a full day"}


class Flows(FamilyFlows):
    """The flows; `CorrectNurseryAgent` supplies the state, the calls and the questions."""

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def sibling_percent(self, v: dict[str, Any], child: dict[str, Any]) -> int:
        """10% off for each child after the eldest at the nursery; none for the eldest."""
        eldest = min(v["children"], key=lambda c: c["dob"])
        return 0 if child["child_id"] == eldest["child_id"] else _seed.SIBLING_PERCENT

    def credit_for(self, s: dict[str, Any]) -> int:
        """A cancelled session comes off the invoice only with 14+ days' notice."""
        return int(s["price_pence"]) if s["days_to"] >= _seed.NOTICE_DAYS else 0

    def late_fee(self, minutes: int) -> int:
        """£15.00 for each 15 minutes, or part of 15 minutes, after 18:00."""
        blocks = -(-minutes // _seed.LATE_BLOCK_MINUTES)
        return blocks * _seed.LATE_BLOCK_PENCE

    # -- helpers ---------------------------------------------------------------------------
    def pick_session(self, v: dict[str, Any], text: str) -> dict[str, Any] | None:
        """The session meant: by number, by its day, by a child on it, or the only one."""
        ids = rd.sessions(text)
        found = [s for s in v["sessions"] if s["session_id"] in ids]
        days = {d.isoformat() for d in rd.dates(text, self.today)}
        found = found or [s for s in v["sessions"] if s["day"] in days]
        if not found:
            kids = {c["child_id"] for c in self.named_children(v, text)}
            found = [s for s in v["sessions"] if s["child_id"] in kids]
        if not found and len(v["sessions"]) == 1:
            found = v["sessions"]
        return found[0] if len(found) == 1 else None

    def say_session(self, v: dict[str, Any], s: dict[str, Any]) -> str:
        return (f"{self.child_name(v, s['child_id'])}'s {_seed.SESSION_NAMES[s['kind']]} on "
                f"{rd.say_day(s['day'])} ({s['session_id']})")  # fmt: skip

    def no_session(self, v: dict[str, Any], out: list[str]) -> str:
        if len(v["sessions"]) > 1:
            return self.ask("session_id", "Which session do you mean? You have " + "; ".join(
                self.say_session(v, s) for s in v["sessions"]) + ".", out)  # fmt: skip
        out.append("I can't find a booked extra session that matches that on your account.")
        return "done"

    # -- booking ---------------------------------------------------------------------------
    async def step_book(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        child = self.pick_child(v, text)
        if child is None:
            return self.ask("child", "Which of your children is the session for?", out)
        days = [d for d in rd.dates(text, self.today) if d > self.today]
        if not days:
            return self.ask("day", f"Which day would you like for {child['first_name']}?", out)
        day = days[0]
        if day.weekday() > 4:
            out.append("I'm sorry — the nursery is open Monday to Friday only, so I haven't "
                       "booked anything. Would another day suit?")  # fmt: skip
            return "done"
        kind = rd.session_kind(text)
        if kind is None:
            return self.ask("session", "Would you like a morning (08:00-13:00), an afternoon "
                            "(13:00-18:00) or a full day (08:00-18:00)?", out)  # fmt: skip
        percent = self.sibling_percent(v, child)
        price = _seed.PRICES[kind] * (100 - percent) // 100
        discount = (f" (the {percent}% sibling discount off {rd.pounds(_seed.PRICES[kind])})"
                    if percent else "")  # fmt: skip
        return self.propose(
            req, out, f"To book {child['first_name']} an extra {_seed.SESSION_NAMES[kind]} on "
            f"{rd.say_day(day.isoformat())}: {rd.pounds(price)}{discount}, added to your next "
            f"invoice. It needs a free place in the {child['room']}; the system checks when I "
            "book. Shall I book it?",
            [("book_session", {"account_ref": v["account_ref"], "child_id": child["child_id"],
                               "day": day.isoformat(), "kind": kind, "price_pence": price})],
        )  # fmt: skip

    # -- swapping and cancelling -----------------------------------------------------------
    async def step_swap(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        s = self.pick_session(v, text)
        if s is None:
            return self.no_session(v, out)
        booked = {x["day"] for x in v["sessions"]}
        new = [d.isoformat() for d in rd.dates(text, self.today) if d > self.today]
        new = [d for d in new if d not in booked]
        if not new:
            return self.ask("new_day", f"Which day would you like to move it to? It stays a "
                            f"{s['kind']} session.", out)  # fmt: skip
        day = new[-1]
        if date.fromisoformat(day).weekday() > 4:
            out.append("I'm sorry — the nursery is open Monday to Friday only. Nothing has "
                       "been changed.")  # fmt: skip
            return "done"
        fee = 0 if s["days_to"] >= _seed.NOTICE_DAYS else _seed.SWAP_FEE_PENCE
        if self.free_only(req, fee, f"Swapping with less than {_seed.NOTICE_DAYS} days' notice",
                          out):  # fmt: skip
            return "done"
        charge = (f"It's less than {_seed.NOTICE_DAYS} days away, so there's a "
                  f"{rd.pounds(fee)} swap fee on your next invoice." if fee else
                  f"There's no charge, as it's {_seed.NOTICE_DAYS} or more days away.")  # fmt: skip
        return self.propose(
            req, out, f"To move {self.say_session(v, s)} to {rd.say_day(day)}, if there's a "
            f"place that day. {charge} Shall I swap it?",
            [("swap_session", {"account_ref": v["account_ref"], "session_id": s["session_id"],
                               "new_day": day, "fee_pence": fee})],
        )  # fmt: skip

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        s = self.pick_session(v, self.text(req))
        if s is None:
            return self.no_session(v, out)
        credit = self.credit_for(s)
        price = rd.pounds(s["price_pence"])
        if not credit and self.free_only(req, s["price_pence"], "Cancelling it now", out):
            return "done"
        what = (f"the {price} comes off your next invoice, as it's {_seed.NOTICE_DAYS} or more "
                "days away" if credit else f"it's less than {_seed.NOTICE_DAYS} days away, so "
                f"the {price} is still charged")  # fmt: skip
        return self.propose(
            req, out, f"To cancel {self.say_session(v, s)}: {what}. Shall I cancel it?",
            [("cancel_session", {"account_ref": v["account_ref"], "session_id": s["session_id"],
                                 "credit_pence": credit})],
        )  # fmt: skip

    # -- late collection -------------------------------------------------------------------
    async def step_late(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        child = self.pick_child(v, text)
        if child is None:
            return self.ask("child", "Which of your children will be collected late?", out)
        day = rd.day_said(text, self.today)
        if day is None:
            return self.ask("day", "Which day will you be late — is it today?", out)
        when = rd.clock_time(text)
        if when is None:
            return self.ask("collect_time", "What time do you expect to get here?", out)
        if when <= _seed.CLOSING:
            out.append(f"We're open until {_seed.CLOSING}, so {when} isn't late and there's no "
                       "fee — nothing needs logging.")  # fmt: skip
            return "done"
        if when > _seed.LATEST_COLLECTION:
            out.append(
                f"I'm sorry — staff can only wait until {_seed.LATEST_COLLECTION}. Please "
                "send an authorised collector instead; nothing has been logged."
            )
            return "done"
        hour, minute = (int(x) for x in when.split(":"))
        minutes = (hour - 18) * 60 + minute
        fee = self.late_fee(minutes)
        if self.free_only(req, fee, f"Collecting at {when}", out):
            return "done"
        return self.propose(
            req, out, f"To let the {child['room']} know you'll collect {child['first_name']} "
            f"at {when} on {rd.say_day(day.isoformat())}: that's {minutes} minutes after 18:00, "
            f"so a late-collection fee of {rd.pounds(fee)} (£15.00 for each 15 minutes or part "
            "of them) goes on your next invoice. Shall I log it?",
            [("log_late_collection", {"account_ref": v["account_ref"],
                                      "child_id": child["child_id"], "day": day.isoformat(),
                                      "collect_time": when, "fee_pence": fee})],
        )  # fmt: skip

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:
        """What the system returned, in the parent's words."""
        if intent == "book":
            return (f"Done — {r['child']} is booked for {KIND_WITH_ARTICLE[r['kind']]} on "
                    f"{rd.say_day(r['day'])} ({r['session_id']}), {r['price']} on your next "
                    "invoice.")  # fmt: skip
        if intent == "swap":
            fee = f"; {r['fee']} swap fee on your next invoice" if r["fee"] != "£0.00" else ""
            return f"Done — {r['session_id']} is now on {rd.say_day(r['day'])}{fee}."
        if intent == "cancel":
            if r["credited"] == "£0.00":
                return f"Done — {r['session_id']} is cancelled; it is still charged."
            return f"Done — {r['session_id']} is cancelled; {r['credited']} credited."
        if intent == "late":
            return (
                f"Done — the room knows you'll collect {r['child']} at {r['collect_time']} "
                f"on {rd.say_day(r['day'])}; {r['fee']} late fee on your next invoice."
            )
        return self.report_family(intent, r)

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
