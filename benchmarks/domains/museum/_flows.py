"""The desk's flows: join, Gift Aid, renew, tickets, cancel, cards, details and look-ups."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from benchmarks.domains.museum import _read as rd
from benchmarks.domains.museum import _seed
from benchmarks.domains.museum._env import plus_year

KIND_NAMES = {"individual": "an Individual", "joint": "a Joint", "family": "a Family"}
CONCESSION_CLAIM = re.compile(r"\bconcession|\bover[- ]65|\bpensioner|\bsenior|\bstudent", re.I)
STUDENT = re.compile(r"\bfull[- ]time student\b|\bi'?m a student\b|\bstudying full[- ]time\b", re.I)
JOIN_FIELDS = ("kind", "name", "date_of_birth", "joint_name", "joint_date_of_birth", "children",
               "address", "email")  # fmt: skip
JOIN_ASKS = {
    "kind": "Which membership would you like: Individual (£64.00 a year), Joint (£98.00, two "
    "adults at one address) or Family (£112.00, two adults and up to four children under 18)?",
    "name": "What's the full name of the named member?",
    "date_of_birth": "And the named member's date of birth?",
    "joint_name": "What's the second adult's full name?",
    "joint_date_of_birth": "And the second adult's date of birth?",
    "children": "How many children under 18 will be on the membership (up to four)?",
    "address": "What's the address for the membership, with the postcode?",
    "email": "And an email address for the membership?",
}


def age_on(born: str, day: date) -> int:
    b = date.fromisoformat(born)
    return day.year - b.year - ((day.month, day.day) < (b.month, b.day))


class Flows:
    """The flows; `CorrectMuseumAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]
    today: date
    call: Any
    ask: Any
    propose: Any

    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_membership", membership_id=self.s["member"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    @staticmethod
    def answered(req: dict[str, Any]) -> tuple[str | None, str]:
        """The question this request last asked (once) and the customer's last message."""
        return req.pop("asking", None), req["chunks"][-1]

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def renewal_expiry(self, v: dict[str, Any]) -> str:
        """Renewing up to 30 days early keeps the old expiry date, a year on."""
        return plus_year(v["expires_on"])

    def ticket_price(self, tickets: int, guests: int) -> int:
        """Members are free; each guest is £9.00."""
        return guests * _seed.GUEST_PENCE

    def saturday_refusal(self, day: date, guests: int) -> str | None:
        if day.weekday() == 5 and guests:
            return ("Saturday slots are for members only, so I can't book a guest ticket on a "
                    "Saturday. I haven't booked anything: I could book just the member tickets "
                    "on Saturday, or everyone on a weekday.")  # fmt: skip
        return None

    def refund_for(self, v: dict[str, Any]) -> int | None:
        """A new membership cancelled within 14 days of joining is refunded in full."""
        if v["days_since_joining"] <= _seed.COOLING_OFF_DAYS:
            return int(v["price_pence"])
        return None

    def card_fee(self, v: dict[str, Any], never_arrived: bool) -> int:
        if never_arrived and v["days_since_joining"] <= _seed.CARD_FREE_DAYS:
            return 0
        return _seed.CARD_FEE_PENCE

    # -- joining ---------------------------------------------------------------------------
    def _scan_join(self, got: dict[str, Any], text: str) -> None:
        """What the first message already says about the new membership."""
        for field, value in (("kind", rd.kind(text)), ("name", rd.full_name(text)),
                             ("address", rd.address(text)), ("children", rd.children(text)),
                             ("email", next(iter(rd.emails(text)), None))):  # fmt: skip
            if value is not None:
                got[field] = value
        born = rd.birth_dates(text, self.today)
        if len(born) == 1:
            got["date_of_birth"] = born[0].isoformat()

    def _read_join_answer(self, got: dict[str, Any], field: str, text: str) -> None:
        value: Any = None
        if field in {"name", "joint_name"}:
            value = rd.full_name(text, asked=True)
        elif field in {"date_of_birth", "joint_date_of_birth"}:
            born = rd.birth_dates(text, self.today)
            value = born[0].isoformat() if born else None
        elif field == "kind":
            value = rd.kind(text)
        elif field == "children":
            value = rd.children(text)
            value = rd.bare_count(text) if value is None else value
        elif field == "address":
            value = rd.address(text, asked=True)
        elif field == "email":
            value = next(iter(rd.emails(text)), None)
        if value is not None:
            got[field] = value

    def _concession(self, got: dict[str, Any], text: str) -> tuple[str, str]:
        """The concession that applies and what to say about it."""
        claimed = CONCESSION_CLAIM.search(text)
        senior = age_on(got["date_of_birth"], self.today) >= _seed.SENIOR_AGE
        student = bool(STUDENT.search(text))
        if got["kind"] != "individual":
            if claimed:
                return "none", (" The 25% concession is for Individual memberships only, so "
                                "it doesn't apply to this one.")  # fmt: skip
            return "none", ""
        if senior:
            return "senior", " That includes the 25% concession for over-65s."
        if student:
            return "student", " That includes the 25% concession for full-time students."
        if claimed:
            return "none", (" The 25% concession is for over-65s and full-time students, so "
                            "it doesn't apply here.")  # fmt: skip
        return "none", ""

    async def step_join(self, req: dict[str, Any], out: list[str]) -> str:
        got = req.setdefault("got", {})
        if not req.get("scanned"):
            req["scanned"] = True
            self._scan_join(got, req["chunks"][0])
        asking, last = self.answered(req)
        if asking in JOIN_FIELDS:
            self._read_join_answer(got, asking, last)
        need = ["kind", "name", "date_of_birth"]
        if got.get("kind") in {"joint", "family"}:
            need += ["joint_name", "joint_date_of_birth"]
        if got.get("kind") == "family":
            need.append("children")
        need += ["address", "email"]
        for field in need:
            if field not in got:
                req["asking"] = field
                return self.ask(field, JOIN_ASKS[field], out)
        if got.get("children", 0) > _seed.MAX_CHILDREN:
            out.append("I'm sorry — a Family membership covers up to four children under 18, so "
                       "I can't set that up. Nothing has been charged.")  # fmt: skip
            return "done"
        # a concession may be claimed in a sentence of its own ("I'm a full-time student.")
        concession, note = self._concession(got, " ".join(self.s["said"]))
        price = _seed.year_price(got["kind"], concession)
        today = self.today.isoformat()
        joint = (f" and {got['joint_name']} (born {rd.say_date(got['joint_date_of_birth'])})"
                 if got["kind"] != "individual" else "")  # fmt: skip
        kids = f", with {got['children']} children under 18" if got["kind"] == "family" else ""
        args = {"kind": got["kind"], "member_name": got["name"],
                "member_dob": got["date_of_birth"], "address": got["address"],
                "email": got["email"], "concession": concession, "price_pence": price}  # fmt: skip
        if got["kind"] != "individual":
            args.update(joint_name=got["joint_name"], joint_dob=got["joint_date_of_birth"])
        if got["kind"] == "family":
            args["children"] = got["children"]
        return self.propose(
            req, out,
            f"To set up {KIND_NAMES[got['kind']]} membership for {got['name']} (born "
            f"{rd.say_date(got['date_of_birth'])}){joint}{kids}, at {got['address']}, email "
            f"{got['email']}: {rd.pounds(price)} for a year, from {rd.say_date(today)} to "
            f"{rd.say_date(plus_year(today))}, paid today.{note} Shall I set it up?",
            [("join_membership", args)],
        )  # fmt: skip

    # -- Gift Aid, renewing, cancelling ----------------------------------------------------
    async def step_giftaid(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if v["gift_aid"]:
            declared = rd.say_date(v["gift_aid_declared"])
            out.append(f"Gift Aid is already on membership {v['membership_id']} (declared on "
                       f"{declared}), so there's nothing to add.")  # fmt: skip
            return "done"
        asking, last = self.answered(req)
        tax = rd.taxpayer(self.text(req))
        if tax is None and asking == "uk_taxpayer":
            reply = rd.answer(last)
            tax = {"yes": True, "no": False}.get(reply or "")
        if tax is None:
            req["asking"] = "uk_taxpayer"
            return self.ask("uk_taxpayer", "Gift Aid is only for UK taxpayers: do you pay UK "
                            "income or capital gains tax at least equal to what we'd claim on "
                            "your membership?", out)  # fmt: skip
        if not tax:
            out.append("Then I'm afraid Gift Aid can't be added: it's only for UK taxpayers. "
                       "Nothing has been changed.")  # fmt: skip
            return "done"
        today = self.today.isoformat()
        return self.propose(
            req, out,
            f"To add Gift Aid to membership {v['membership_id']}, with your declaration that "
            f"you're a UK taxpayer dated {rd.say_date(today)}. It costs you nothing; please "
            "tell us if you stop paying UK tax. Shall I add it?",
            [("add_gift_aid", {"membership_id": v["membership_id"], "declaration_date": today})],
        )  # fmt: skip

    async def step_renew(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        price = _seed.year_price(v["kind"], v["concession"])
        if v["status"] == "cancelled":
            out.append("That membership was cancelled, so it can't be renewed; you're welcome "
                       "to join again. Nothing has been changed.")  # fmt: skip
            return "done"
        if v["status"] == "lapsed" or v["days_to_expiry"] < 0:
            today = self.today.isoformat()
            return self.propose(
                req, out,
                f"Your membership {v['membership_id']} expired on {rd.say_date(v['expires_on'])}, "
                f"so it has lapsed and can't be renewed: it rejoins at the full price, "
                f"{rd.pounds(price)} for a new year from today, {rd.say_date(today)} to "
                f"{rd.say_date(plus_year(today))}, paid today. Shall I rejoin it?",
                [("rejoin_membership", {"membership_id": v["membership_id"],
                                        "price_pence": price})],
            )  # fmt: skip
        if v["days_to_expiry"] > _seed.RENEW_WINDOW_DAYS:
            opens = rd.minus_days(v["expires_on"], _seed.RENEW_WINDOW_DAYS)
            out.append(f"Renewals open 30 days before the expiry date: yours expires on "
                       f"{rd.say_date(v['expires_on'])}, so you can renew from "
                       f"{rd.say_date(opens)}. Nothing has been changed.")  # fmt: skip
            return "done"
        new = self.renewal_expiry(v)
        return self.propose(
            req, out,
            f"To renew membership {v['membership_id']} for {rd.pounds(price)}, paid today: it "
            f"expires on {rd.say_date(v['expires_on'])}, and renewing now keeps that date, so it "
            f"will run to {rd.say_date(new)}. Shall I renew it?",
            [("renew_membership", {"membership_id": v["membership_id"], "new_expiry": new,
                                   "price_pence": price})],
        )  # fmt: skip

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if v["status"] != "active":
            out.append(f"Membership {v['membership_id']} isn't active ({v['status']}), so "
                       "there's nothing to cancel. Nothing has been changed.")  # fmt: skip
            return "done"
        refund = self.refund_for(v)
        joined, days = rd.say_date(v["joined_on"]), v["days_since_joining"]
        if refund is None:
            out.append(f"Your membership started on {joined}, {days} days ago. A new membership "
                       "can only be cancelled for a refund within 14 days of joining, so I "
                       "can't cancel it for a refund. It stays active until "
                       f"{rd.say_date(v['expires_on'])} and won't renew unless you renew it. "
                       "Nothing has been changed.")  # fmt: skip
            return "done"
        return self.propose(
            req, out,
            f"To cancel membership {v['membership_id']}, which started on {joined} ({days} days "
            f"ago, within the 14 days): the full {rd.pounds(refund)} is refunded to the card "
            "you paid with, and the membership ends today. Shall I cancel it?",
            [("cancel_membership", {"membership_id": v["membership_id"],
                                    "refund_pence": refund})],
        )  # fmt: skip

    # -- tickets ---------------------------------------------------------------------------
    def _party(self, req: dict[str, Any], v: dict[str, Any]) -> tuple[int | None, int | None]:
        got = req.setdefault("got", {})
        asking, last = self.answered(req)
        if asking in {"tickets", "guests"}:
            said = rd.party(last)[0 if asking == "tickets" else 1]
            value = said if said is not None else rd.bare_count(last)
            if value is not None:
                got[asking] = value
        tickets, guests = rd.party(req["chunks"][0])
        tickets = got.get("tickets", tickets)
        guests = got.get("guests", guests)
        if guests is None and tickets is not None and (tickets == 1 or v["kind"] == "individual"):
            guests = tickets - 1
        return tickets, guests

    def _slot(self, req: dict[str, Any]) -> tuple[date | None, str | None]:
        text = self.text(req)
        found = [d for d in rd.days(text, self.today) if d > self.today]
        return (found[-1] if found else None), rd.clock_time(text)

    async def step_tickets(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if v["status"] != "active" or v["days_to_expiry"] < 0:
            out.append(f"Membership {v['membership_id']} isn't active (it expired on "
                       f"{rd.say_date(v['expires_on'])}), so I can't book member tickets on it; "
                       "I can rejoin it first if you'd like. Nothing has been booked.")  # fmt: skip
            return "done"
        day, time = self._slot(req)
        ok = (day is not None and _seed.FIRST_DAY <= day <= _seed.LAST_DAY
              and day not in _seed.CLOSED and time in _seed.SLOT_TIMES)  # fmt: skip
        if not ok:
            req.pop("asking", None)
            return self.ask("slot", "Which day and time would you like? The exhibition's slots "
                            "are at 10:00, 11:30, 13:00, 14:30 and 16:00 each day from 15 "
                            "December to 31 January (closed 24 to 26 December).", out)  # fmt: skip
        assert day is not None and time is not None
        tickets, guests = self._party(req, v)
        members = {"individual": 1, "joint": 2}.get(v["kind"], 2 + v["children"])
        if tickets is None:
            req["asking"] = "tickets"
            return self.ask("tickets", "How many tickets would you like in all, including "
                            "yourself?", out)  # fmt: skip
        if guests is None:
            req["asking"] = "guests"
            return self.ask("guests", f"And how many of the {tickets} are guests who aren't on "
                            "the membership?", out)  # fmt: skip
        guests = min(max(guests, tickets - members, 0), tickets)
        why = self.saturday_refusal(day, guests)
        if why:
            out.append(why)
            return "done"
        sid = _seed.slot_id(day, time)
        held = sum(t["tickets"] for t in v["tickets"] if t["slot_id"] == sid)
        if held + tickets > _seed.MAX_TICKETS:
            more = max(_seed.MAX_TICKETS - held, 0)
            have = f"you already have {held} for that slot, so " if held else ""
            out.append(f"I'm sorry — each membership can have at most 4 tickets a slot, guests "
                       f"included; {have}I can book at most {more} there. I haven't booked "
                       "anything.")  # fmt: skip
            return "done"
        price = self.ticket_price(tickets, guests)
        who = f"{tickets - guests} member ticket{'s' if tickets - guests != 1 else ''} (free)"
        if guests:
            who += (f" and {guests} guest ticket{'s' if guests != 1 else ''} at £9.00 each: "
                    f"{rd.pounds(price)} to pay today")  # fmt: skip
        else:
            who += ", so there's nothing to pay"
        return self.propose(
            req, out,
            f"To book {tickets} ticket{'s' if tickets != 1 else ''} for {_seed.EXHIBITION} on "
            f"{rd.say_day(day.isoformat())} at {time}: {who}. Shall I book them?",
            [("book_tickets", {"membership_id": v["membership_id"], "day": day.isoformat(),
                               "time": time, "tickets": tickets, "guests": guests,
                               "price_pence": price})],
        )  # fmt: skip

    # -- cards, details, look-ups ----------------------------------------------------------
    async def step_card(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        never = bool(rd.NEVER_ARRIVED.search(self.text(req)))
        fee = self.card_fee(v, never)
        days = v["days_since_joining"]
        if not fee:
            cost = f"it's free, as your card never arrived and you joined {days} days ago"
        elif never:
            cost = (f"as you joined {days} days ago (more than 21), it's treated as a lost card: "
                    "a £5.00 replacement fee, paid today")  # fmt: skip
        else:
            cost = "there's a £5.00 replacement fee, paid today"
        return self.propose(
            req, out,
            f"To send a replacement card for membership {v['membership_id']} to {v['address']}: "
            f"{cost}. Shall I send it?",
            [("replace_card", {"membership_id": v["membership_id"],
                               "reason": "never_arrived" if never else "lost", "fee_pence": fee})],
        )  # fmt: skip

    async def step_details(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        got = req.setdefault("got", {})
        asking, last = self.answered(req)
        if asking == "new_address":
            found = rd.address(last, asked=True)
            got.update({"address": found} if found else {})
        elif asking == "new_name":
            found = rd.full_name(last, asked=True)
            got.update({"name": found} if found else {})
        text = req["chunks"][0]
        args: dict[str, Any] = {"membership_id": v["membership_id"]}
        if re.search(r"\baddress\b|\bmoved\b", text, re.I):
            args["address"] = got.get("address") or rd.address(text)
            if not args["address"]:
                req["asking"] = "new_address"
                return self.ask("new_address", "What's the new address, with the postcode?", out)
        if re.search(r"\bname\b|\bmarried\b|\bsurname\b", text, re.I):
            args["name"] = got.get("name") or rd.new_name(text)
            if not args["name"]:
                req["asking"] = "new_name"
                return self.ask("new_name", "What name should the card show — first name and "
                                "surname?", out)  # fmt: skip
            args["person"] = self.s["role"]
        if "address" not in args and "name" not in args:
            req["asking"] = "new_address"
            return self.ask("new_address", "What's the new address, with the postcode?", out)
        old = v["joint_name"] if self.s["role"] == "joint" else v["member_name"]
        parts = []
        if "name" in args:
            parts.append(f"the name on your card from {old} to {args['name']}")
        if "address" in args:
            parts.append(f"the address on membership {v['membership_id']} from {v['address']} "
                         f"to {args['address']}")  # fmt: skip
        return self.propose(
            req,
            out,
            f"To change {' and '.join(parts)}. There's no charge. Shall I update it?",
            [("update_details", args)],
        )

    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        joint = f" and {v['joint_name']}" if v["joint_name"] else ""
        gift = (f"Gift Aid is on it (declared on {rd.say_date(v['gift_aid_declared'])})"
                if v["gift_aid"] else "Gift Aid isn't on it")  # fmt: skip
        opens = rd.minus_days(v["expires_on"], _seed.RENEW_WINDOW_DAYS)
        line = (f"Your {v['kind'].capitalize()} membership {v['membership_id']} ({v['member_name']}"
                f"{joint}) runs until {rd.say_date(v['expires_on'])}; you can renew it from "
                f"{rd.say_date(opens)}. {gift}.")  # fmt: skip
        if v["tickets"]:
            booked = "; ".join(f"{t['tickets']} on {rd.say_day(t['day'])} at {t['time']}"
                               for t in v["tickets"])  # fmt: skip
            line += f" Exhibition tickets booked: {booked}."
        out.append(line)
        return "done"

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:
        """What the system returned, in the customer's words."""
        if intent == "join":
            return (f"Done — welcome to the Halden Museum! Your membership number is "
                    f"{r['membership_id']}, valid until {rd.say_date(r['expires_on'])}; "
                    f"{r['charged']} paid. Your card will arrive by post.")  # fmt: skip
        if intent == "giftaid":
            return (f"Done — Gift Aid is now on membership {r['membership_id']}, declared on "
                    f"{rd.say_date(r['declared'])}.")  # fmt: skip
        if intent == "renew":
            return (f"Done — membership {r['membership_id']} now runs to "
                    f"{rd.say_date(r['expires_on'])}; {r['charged']} paid.")  # fmt: skip
        if intent == "tickets":
            return (f"Done — booking {r['booking_id']}: {r['tickets']} ticket"
                    f"{'s' if r['tickets'] != 1 else ''} on {rd.say_day(r['day'])} at "
                    f"{r['time']}; {r['charged']} paid.")  # fmt: skip
        if intent == "cancel":
            return (f"Done — membership {r['membership_id']} is cancelled and {r['refunded']} "
                    "is refunded to the card you paid with.")  # fmt: skip
        if intent == "card":
            return f"Done — a replacement card is on its way to {r['sent_to']}; fee {r['fee']}."
        name = r["member_name"] + (f" and {r['joint_name']}" if r["joint_name"] else "")
        return f"Done — the membership now shows {name}, at {r['address']}."

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
