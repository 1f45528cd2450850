"""The desk's flows: courts, guests, cancellations, coaching, tier changes, renewals, look-ups."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from benchmarks.domains.tennisclub import _read as rd
from benchmarks.domains.tennisclub import _seed
from benchmarks.domains.tennisclub._env import tier_problem, year_later

TIER_OFFER = ("Adult (£420.00 a year), Off-peak (weekdays before 17:00, £264.00), Junior "
              "(under 18, £120.00) or Senior (65 and over, £300.00)")  # fmt: skip
TITLE_SKIP = {"adult", "tennis", "junior", "the", "and"}


def tier_name(tier: str) -> str:
    return _seed.TIER_NAMES[tier]


def court_desc(c: dict[str, Any]) -> str:
    lights = ", floodlit" if c["kind"] == "outdoor" and c["floodlit"] else ""
    return f"{c['name']} ({c['kind']}{lights})"


class Flows:
    """The flows; `CorrectTennisclubAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]
    today: date
    call: Any
    ask: Any
    propose: Any

    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_member", member_id=self.s["member"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    def free_only(self, req: dict[str, Any], fee: int, what: str, out: list[str]) -> bool:
        """The goal said to go ahead only if free: a fee ends the request, nothing changed."""
        if fee and rd.FREE_ONLY.search(" ".join([self.text(req), *self.s.get("said", [])])):
            out.append(f"{what} would cost {rd.pounds(fee)}, and you asked me to leave it if "
                       "there was a charge, so I haven't booked or changed anything.")  # fmt: skip
            return True
        return False

    def card(self, v: dict[str, Any]) -> str:
        return f"your card ending {v['card_last4']}"

    @staticmethod
    def say_booking(b: dict[str, Any]) -> str:
        return (f"booking {b['booking_id']}, {b['court']} on {rd.say_day(b['day'])} at "
                f"{b['start_time']}")  # fmt: skip

    def pick_booking(self, v: dict[str, Any], text: str) -> dict[str, Any] | None:
        """The booking meant: by number, by the day or court said, the one just made, the only."""
        books = v["bookings"]
        ids = rd.bookings(text)
        named = [b for b in books if b["booking_id"] in ids]
        if not named:
            days = {d.isoformat() for d in rd.dates(text, self.today)}
            named = [b for b in books if b["day"] in days]
        if len(named) > 1 and rd.courts(text):
            named = [b for b in named if b["court_id"] in rd.courts(text)] or named
        if not named and self.s.get("last_booking"):
            named = [b for b in books if b["booking_id"] == self.s["last_booking"]]
        if not named and len(books) == 1:
            named = books
        return named[0] if named else None

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def court_fee(self, court: dict[str, Any]) -> int:
        return _seed.INDOOR_PENCE if court["kind"] == "indoor" else 0

    def light_fee(self, court: dict[str, Any], start: str) -> int:
        """Floodlights: an outdoor floodlit court from 16:00."""
        lit = court["kind"] == "outdoor" and court["floodlit"]
        return _seed.FLOODLIGHT_PENCE if lit and start >= _seed.LIGHTS_FROM else 0

    def taken_note(self, court: dict[str, Any], start: str) -> str:
        """What the desk says of a court someone else has booked (never who)."""
        return f"{court['name']} is already booked at {start}."

    def guest_problem(self, name: str, visits: int, month: str) -> str | None:
        """Why a guest can't be added (the monthly limit), or None."""
        if visits >= _seed.GUEST_MONTH_LIMIT:
            when = date.fromisoformat(month + "-01").strftime("%B")
            return (
                f"{name} has already played {visits} times as a guest in {when}, and a "
                f"guest can play at most {_seed.GUEST_MONTH_LIMIT} times in a month"
            )
        return None

    def booking_refund(self, b: dict[str, Any]) -> int:
        """Everything paid, when cancelled 24 hours or more before the start; else nothing."""
        if b["hours_to_start"] < _seed.NOTICE_HOURS:
            return 0
        return self.paid(b)

    @staticmethod
    def paid(b: dict[str, Any]) -> int:
        return int(b["court_fee_pence"] + b["light_fee_pence"]
                   + sum(g["fee_pence"] for g in b["guests"]))  # fmt: skip

    def coaching_refund(self, e: dict[str, Any]) -> int:
        return 0 if e["hours_to_start"] < _seed.NOTICE_HOURS else int(e["price_pence"])

    def months_left(self, expires: str) -> int:
        """Whole months after this one, to the expiry month (memberships end on a month end)."""
        end = date.fromisoformat(expires)
        return (end.year - self.today.year) * 12 + end.month - self.today.month

    # -- booking a court -------------------------------------------------------------------
    def slot_problem(self, v: dict[str, Any], day: date, start: str) -> str | None:
        if (day - self.today).days > _seed.BOOK_AHEAD_DAYS:
            opens = rd.say_day((day - timedelta(days=_seed.BOOK_AHEAD_DAYS)).isoformat())
            return (f"Courts can be booked up to 7 days ahead, so {rd.say_day(day.isoformat())} "
                    f"opens for booking on {opens}.")  # fmt: skip
        if v["tier"] == "offpeak" and (day.weekday() >= 5 or start >= _seed.OFFPEAK_BEFORE):
            return ("Off-peak membership covers weekday courts starting before 17:00 only, so I "
                    f"can't book {rd.say_day(day.isoformat())} at {start} on it. An upgrade to "
                    "Adult membership would cover it.")  # fmt: skip
        return None

    def choose_court(self, courts: list[dict[str, Any]], named: list[str], kind: str | None,
                     start: str) -> tuple[dict[str, Any] | None, str]:  # fmt: skip
        """The court to offer and what to say first: the one named if free, else its kind's."""
        note = ""
        if named:
            court = next(c for c in courts if c["court_id"] == named[-1])
            if court["free"] and court["playable"]:
                return court, ""
            kind = court["kind"]
            note = (
                self.taken_note(court, start)
                if court["playable"]
                else f"{court['name']} has no floodlights, so it can't be played from 16:00."
            )
        pool = [c for c in courts if c["kind"] == kind and c["free"] and c["playable"]]
        if pool:
            return pool[0], (f"{note} {court_desc(pool[0])} is free then instead." if note else "")
        return None, f"{note} I'm sorry — no {kind} court is free at {start} that day.".strip()

    async def step_book(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        days = [d for d in rd.dates(text, self.today) if d >= self.today]
        if not days:
            return self.ask("date", "Which day would you like to play?", out)
        day = days[-1]
        start = rd.clock_time(text)
        slot = re.fullmatch(r"(?:0[7-9]|1\d|2[01]):00", start or "")
        if not slot or (day == self.today and start <= self.now.strftime("%H:%M")):
            return self.ask(
                "time",
                "What time would you like to start? Courts are booked by "
                "the hour, starting on the hour from 07:00 to 21:00.",
                out,
            )
        assert start is not None
        named, kind = rd.courts(text), rd.court_kind(text)
        if not named and kind is None:
            return self.ask("court_type", "Would you like an indoor or an outdoor court?", out)
        why = self.slot_problem(v, day, start)
        if why:
            out.append(f"I'm sorry — {why[0].lower()}{why[1:]} Nothing has been booked.")
            return "done"
        avail, error = await self.call("court_availability", day=day.isoformat(), start_time=start)
        if error:
            out.append(f"I'm sorry — I couldn't check the courts: {error}.")
            return "done"
        court, note = self.choose_court(avail["courts"], named, kind, start)
        if court is None:
            out.append(f"{note} Nothing has been booked.")
            return "done"
        fee, lights = self.court_fee(court), self.light_fee(court, start)
        if self.free_only(req, fee + lights, f"{court_desc(court)} at {start}", out):
            return "done"
        parts = ([f"the indoor court fee of {rd.pounds(fee)}"] if fee else []) + (
            [f"the floodlight fee of {rd.pounds(lights)}"] if lights else [])  # fmt: skip
        cost = (f"{' and '.join(parts)}, taken now from {self.card(v)}" if parts else
                "no charge — outdoor courts are free to members in daylight")  # fmt: skip
        when = f"{rd.say_day(day.isoformat())}, {start}–{rd.end_of(start)}"
        return self.propose(
            req, out, f"{note + ' ' if note else ''}To book {court_desc(court)} on {when}: "
            f"{cost}. Shall I book it?",
            [("book_court", {"member_id": v["member_id"], "court_id": court["court_id"],
                             "day": day.isoformat(), "start_time": start,
                             "court_fee_pence": fee, "light_fee_pence": lights})],
        )  # fmt: skip

    # -- guests ----------------------------------------------------------------------------
    async def step_guest(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        b = self.pick_booking(v, text)
        if b is None:
            out.append("I can't find an upcoming court booking on your membership for that — "
                       "guests are added to a booking. Nothing has been changed.")  # fmt: skip
            return "done"
        names = [n for n in rd.full_names(text) if n.lower() != v["name"].lower()]
        if not names:
            return self.ask("guest_name", "What's your guest's full name?", out)
        room = _seed.MAX_GUESTS - len(b["guests"])
        if len(names) > room:
            out.append(f"A court takes four players, so a booking can have at most 3 guests; "
                       f"{self.say_booking(b)} has room for {room}. Nothing has been "
                       "changed.")  # fmt: skip
            return "done"
        ok, refused = [], []
        for name in names:
            seen, _ = await self.call("check_guest", guest_name=name, day=b["day"])
            why = self.guest_problem(name, int((seen or {}).get("visits", 0)), b["day"][:7])
            (refused if why else ok).append(why or name)
        if not ok:
            out.append(f"I'm sorry — {'; '.join(refused)}, so I can't add them to "
                       f"{self.say_booking(b)}. Nothing has been changed.")  # fmt: skip
            return "done"
        fee = _seed.GUEST_PENCE * len(ok)
        first = f"I can't add everyone: {'; '.join(refused)}. " if refused else ""
        each = f" ({rd.pounds(_seed.GUEST_PENCE)} each)" if len(ok) > 1 else ""
        return self.propose(
            req, out, f"{first}To add {' and '.join(ok)} as your guest{'s' * (len(ok) > 1)} on "
            f"{self.say_booking(b)}: a guest fee of {rd.pounds(fee)}{each}, taken now from "
            f"{self.card(v)}. Shall I add {'them' if len(ok) > 1 else 'them to it'}?",
            [("add_guests", {"member_id": v["member_id"], "booking_id": b["booking_id"],
                             "guest_names": ok, "fee_pence": fee})],
        )  # fmt: skip

    # -- cancelling ------------------------------------------------------------------------
    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        if re.search(rd.COACHING, text, re.I) or rd.sessions(text) or (
                not v["bookings"] and v["coaching"]):  # fmt: skip
            return await self.cancel_coaching(v, req, out)
        b = self.pick_booking(v, text)
        if b is None:
            out.append("I can't find an upcoming court booking on your membership that matches "
                       "that. Nothing has been changed.")  # fmt: skip
            return "done"
        refund, paid = self.booking_refund(b), self.paid(b)
        if not paid:
            what = "there was nothing to pay for it, so there's nothing to refund"
        elif refund:
            what = (f"the {rd.pounds(paid)} you paid is refunded to {self.card(v)}, as it's 24 "
                    "hours or more before the start")  # fmt: skip
        else:
            what = (f"the {rd.pounds(paid)} you paid is not refunded, as it's less than 24 hours "
                    "before the start")  # fmt: skip
        return self.propose(
            req, out, f"To cancel {self.say_booking(b)}: {what}. Shall I cancel it?",
            [("cancel_booking", {"member_id": v["member_id"], "booking_id": b["booking_id"],
                                 "refund_pence": refund})],
        )  # fmt: skip

    async def cancel_coaching(self, v: dict[str, Any], req: dict[str, Any], out: list[str]) -> str:
        e = self.pick_session(v["coaching"], self.text(req))
        if e is None and len(v["coaching"]) == 1:
            e = v["coaching"][0]
        if e is None:
            out.append("I can't find a coaching place on your membership that matches that. "
                       "Nothing has been changed.")  # fmt: skip
            return "done"
        refund = self.coaching_refund(e)
        what = (f"the {rd.pounds(e['price_pence'])} you paid is refunded to {self.card(v)}, as "
                "it's 24 hours or more before the session" if refund else
                f"the {rd.pounds(e['price_pence'])} you paid is not refunded, as it's less than "
                "24 hours before the session")  # fmt: skip
        return self.propose(
            req, out, f"To give up your place on {e['title']} ({rd.say_day(e['day'])}, "
            f"{e['start_time']}): {what}. Shall I cancel it?",
            [("cancel_coaching", {"member_id": v["member_id"], "session_id": e["session_id"],
                                  "refund_pence": refund})],
        )  # fmt: skip

    # -- coaching --------------------------------------------------------------------------
    def pick_session(self, sessions: list[dict[str, Any]], text: str) -> dict[str, Any] | None:
        """The session meant: by number, by words of its title, or by the day said."""
        ids = rd.sessions(text)
        named = [s for s in sessions if s["session_id"] in ids]
        if not named:
            scores = []
            for s in sessions:
                words = [w for w in s["title"].lower().split() if w not in TITLE_SKIP]
                scores.append(sum(bool(re.search(rf"\b{w}", text, re.I)) for w in words))
            best = max(scores, default=0)
            named = [s for s, n in zip(sessions, scores, strict=True) if best and n == best]
        if len(named) != 1:
            days = {d.isoformat() for d in rd.dates(text, self.today)}
            named = [s for s in (named or sessions) if s["day"] in days]
        return named[0] if len(named) == 1 else None

    async def step_coaching(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        listing, _ = await self.call("coaching_sessions")
        sessions = (listing or {}).get("sessions", [])
        s = self.pick_session(sessions, text)
        if s is None:
            offer = "; ".join(f"{x['title']} ({rd.say_day(x['day'])}, {x['start_time']}, "
                              f"{rd.pounds(x['price_pence'])})" for x in sessions)  # fmt: skip
            return self.ask("session", f"Which session would you like? Coming up: {offer}.", out)
        when = f"{s['title']} ({rd.say_day(s['day'])}, {s['start_time']}, with {s['coach']})"
        if any(e["session_id"] == s["session_id"] for e in v["coaching"]):
            out.append(f"You already have a place on {when}.")
            return "done"
        if s["juniors_only"] and v["tier"] != "junior":
            out.append(f"I'm sorry — {s['title']} is for junior members only. Nothing has been "
                       "booked.")  # fmt: skip
            return "done"
        args = {"member_id": v["member_id"], "session_id": s["session_id"]}
        if s["places_left"] <= 0:
            if s["session_id"] in v["waitlist"]:
                out.append(f"{when} is full, and you're already on its waiting list.")
                return "done"
            return self.propose(
                req, out, f"I'm sorry — {when} is full: all {s['places']} places are taken. I "
                "can put you on its waiting list: there's no charge now, and if a place comes "
                "up the club will offer it to you. Shall I add you to the waiting list?",
                [("join_waitlist", args)],
            )  # fmt: skip
        price = int(s["price_pence"])
        if self.free_only(req, price, f"A place on {s['title']}", out):
            return "done"
        left = s["places_left"]
        return self.propose(
            req, out, f"To book you a place on {when}: {rd.pounds(price)}, taken now from "
            f"{self.card(v)}. There {'is' if left == 1 else 'are'} {left} place"
            f"{'s' * (left != 1)} left. Shall I book it?",
            [("join_session", {**args, "price_pence": price})],
        )  # fmt: skip

    # -- membership ------------------------------------------------------------------------
    @staticmethod
    def latest_tiers(req: dict[str, Any]) -> tuple[list[str], str]:
        """The tiers of the latest message of the request that names any, and that message."""
        for chunk in reversed(req["chunks"]):
            found = rd.tiers(chunk)
            if found:
                return found, chunk
        return [], ""

    async def step_tier(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        current = v["tier"]
        said, _ = self.latest_tiers(req)
        wanted = [t for t in said if t != current]
        if not wanted:
            if said:
                out.append(f"You're already on {tier_name(current)} membership, until "
                           f"{rd.say_date(v['expires'])}. Nothing has been changed.")  # fmt: skip
                return "done"
            return self.ask("tier", f"Which membership would you like to move to: {TIER_OFFER}?",
                            out)  # fmt: skip
        target = wanted[-1]
        why = tier_problem(target, v["dob"], self.today)
        if why:
            out.append(f"I'm sorry — {why.split(';')[0]}, so I can't move you to it. Nothing has "
                       "been changed.")  # fmt: skip
            return "done"
        fees = _seed.FEES
        if fees[target] <= fees[current]:
            out.append(
                f"A move to a cheaper membership can't be made mid-year: it takes effect when you "
                f"renew. Your {tier_name(current)} membership runs to "
                f"{rd.say_date(v['expires'])}, and renewal opens on "
                f"{rd.say_date(v['renewal_opens'])} — you can renew as {tier_name(target)} then. "
                "Nothing has been changed."
            )
            return "done"
        monthly = (fees[target] - fees[current]) // 12
        months = self.months_left(v["expires"])
        charge = monthly * months
        return self.propose(
            req, out, f"To upgrade you from {tier_name(current)} to {tier_name(target)} now: the "
            f"difference is {rd.pounds(monthly)} a month for the {months} whole months left after "
            f"this one, {rd.pounds(charge)}, taken now from {self.card(v)}. Your membership "
            f"still runs to {rd.say_date(v['expires'])}. Shall I upgrade you?",
            [("change_tier", {"member_id": v["member_id"], "tier": target,
                              "charge_pence": charge})],
        )  # fmt: skip

    def renewal_tier(self, v: dict[str, Any], req: dict[str, Any],
                     first_day: date) -> tuple[str | None, str]:  # fmt: skip
        """The tier to renew as (None: ask) and why the one asked for can't be had."""
        said, chunk = self.latest_tiers(req)
        wanted = said or [v["tier"]]
        why = tier_problem(wanted[0], v["dob"], first_day)
        if why is None:
            return wanted[0], ""
        age = why.split("the member is ")[1].split(" on ")[0]
        note = (
            f"You'll be {age} on {rd.say_date(first_day.isoformat())}, when the new year "
            f"starts, so {tier_name(wanted[0])} membership isn't open to you for it."
        )
        others = [t for t in wanted[1:] if tier_problem(t, v["dob"], first_day) is None]
        if others and rd.FALLBACK.search(chunk):
            return others[0], f"{note} As you asked, I'll renew you as {tier_name(others[0])}. "
        return None, note

    async def step_renew(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if self.today.isoformat() < v["renewal_opens"]:
            out.append(
                f"Renewal opens 60 days before a membership ends: yours runs to "
                f"{rd.say_date(v['expires'])}, so you can renew from "
                f"{rd.say_date(v['renewal_opens'])}. Nothing has been changed."
            )
            return "done"
        first_day = date.fromisoformat(v["expires"]) + timedelta(days=1)
        tier, note = self.renewal_tier(v, req, first_day)
        if tier is None:
            return self.ask("tier", f"{note} Which membership would you like to renew as: "
                            f"{TIER_OFFER}?", out)  # fmt: skip
        price = _seed.FEES[tier]
        new = year_later(v["expires"])
        return self.propose(
            req, out, f"{note}To renew your membership as {tier_name(tier)} for "
            f"{rd.say_date(first_day.isoformat())} to {rd.say_date(new)}: {rd.pounds(price)}, "
            f"taken now from {self.card(v)}. Shall I renew it?",
            [("renew_membership", {"member_id": v["member_id"], "tier": tier,
                                   "price_pence": price})],
        )  # fmt: skip

    # -- look-ups --------------------------------------------------------------------------
    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        opens = ("renewal is open now" if self.today.isoformat() >= v["renewal_opens"] else
                 f"renewal opens on {rd.say_date(v['renewal_opens'])}")  # fmt: skip
        lines = [f"Your {tier_name(v['tier'])} membership runs to {rd.say_date(v['expires'])} "
                 f"({opens})."]  # fmt: skip
        books = []
        for b in v["bookings"]:
            guests = " and ".join(g["guest_name"] for g in b["guests"])
            books.append(
                f"{court_desc({**b, 'name': b['court']})} on {rd.say_day(b['day'])}, "
                f"{b['start_time']}–{rd.end_of(b['start_time'])} ({b['booking_id']}"
                f"{', with ' + guests if guests else ''})"
            )
        lines.append("Your court bookings: " + "; ".join(books) + "." if books else
                     "You have no court bookings coming up.")  # fmt: skip
        if v["coaching"]:
            lines.append("Coaching: " + "; ".join(
                f"{e['title']} on {rd.say_day(e['day'])} at {e['start_time']}"
                for e in v["coaching"]) + ".")  # fmt: skip
        out.append(" ".join(lines))
        return "done"

    # -- reporting -------------------------------------------------------------------------
    def report(self, tool_name: str, r: dict[str, Any]) -> str:
        """What the members system returned, in the member's words."""
        paid = f"{r.get('charged', '')} taken from your card ending {r.get('card_last4', '')}"
        if tool_name == "book_court":
            cost = "no charge" if r["charged"] == "£0.00" else paid
            return (f"Done — booking {r['booking_id']}: {r['court']} ({r['kind']}) on "
                    f"{rd.say_day(r['day'])}, {r['start_time']}–{rd.end_of(r['start_time'])}; "
                    f"{cost}.")  # fmt: skip
        if tool_name == "add_guests":
            return (
                f"Done — {' and '.join(r['guests'])} added as your guest"
                f"{'s' * (len(r['guests']) > 1)} on booking {r['booking_id']}; {paid}."
            )
        if tool_name in {"cancel_booking", "cancel_coaching"}:
            what = f"booking {r['booking_id']}" if "booking_id" in r else (
                f"your place on {r['title']}")  # fmt: skip
            back = (f"{r['refunded']} refunded to your card ending {r['card_last4']}"
                    if r["refunded"] != "£0.00" else "nothing is refunded")  # fmt: skip
            return f"Done — {what} is cancelled; {back}."
        if tool_name == "join_session":
            return (f"Done — you have a place on {r['title']}, {rd.say_day(r['day'])} at "
                    f"{r['start_time']}; {paid}.")  # fmt: skip
        if tool_name == "join_waitlist":
            return (
                f"Done — you're on the waiting list for {r['title']} (number "
                f"{r['position']}). There's nothing to pay unless a place comes up."
            )
        what = ("your membership is renewed as" if tool_name == "renew_membership" else
                "you're now on")  # fmt: skip
        return (f"Done — {what} {tier_name(r['tier'])}, until {rd.say_date(r['expires'])}; "
                f"{paid}.")  # fmt: skip

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
        if "declined" in error:
            out.append(
                "You can update your card with the club office on 01483 960 450, and then renew."
            )
