"""The desk's flows, one per request: work out the change, state its cost, report the result.

Each `step_<intent>` returns "wait" (a question or a proposal is out) or "done"; each
`done_<intent>` reports what the school's system returned for the agreed call.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from benchmarks.domains.driving import _read as rd
from benchmarks.domains.driving import _seed
from benchmarks.domains.driving._env import refund_expired

MOVE_TEST = re.compile(r"\b(?:move|change|reschedule|rearrange|different|another|swap)\b", re.I)


def hrs(n: int) -> str:
    return f"{n} hour{'' if n == 1 else 's'}"


def goes(n: int) -> str:
    return "goes" if n == 1 else "go"


def are(n: int) -> str:
    return "is" if n == 1 else "are"


class Flows:
    """Mixin: the flows of `CorrectDrivingAgent` (which supplies the state and helpers)."""

    s: dict[str, Any]
    now: datetime
    today: date
    call: Any
    ask: Any
    propose: Any
    new_request: Any

    # -- hooks the flawed agent overrides --------------------------------------------------
    def pick_time(self, text: str) -> str | None:
        said = rd.times(text)
        return said[-1] if said else None

    def late(self, lesson: dict[str, Any]) -> bool:
        start = datetime.strptime(lesson["start"], _seed.STAMP).replace(tzinfo=_seed.UK)
        return (start - self.now).total_seconds() < _seed.LATE_HOURS * 3600

    def test_allowed(self, view: dict[str, Any]) -> bool:
        return bool(view["lessons_taken"] >= _seed.MIN_LESSONS_FOR_TEST)

    def refund_quote(self, pack: dict[str, Any]) -> int:
        return max(0, pack["hours_left"] * pack["price_per_hour_pence"] - _seed.REFUND_ADMIN_PENCE)

    # -- helpers ---------------------------------------------------------------------------
    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_learner", learner_no=self.s["no"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    @staticmethod
    def card(view: dict[str, Any]) -> str:
        return f"your card ending {view['card_last4']}"

    @staticmethod
    def failed(error: str, out: list[str]) -> None:
        out.append(
            f"I'm sorry — the booking system refused that: {error}. Nothing has been "
            "changed or charged."
        )

    def instructor_named(self, text: str) -> list[str]:
        """Instructor ids named in `text` (full name or first name), in the order said."""
        low = text.lower()
        hits = []
        for iid, name, _, _ in _seed.INSTRUCTORS:
            for part in (name.lower(), name.split()[0].lower()):
                m = re.search(rf"\b{re.escape(part)}\b", low)
                if m:
                    hits.append((m.start(), iid))
                    break
        return [iid for _, iid in sorted(hits)]

    @staticmethod
    def say_lessons(view: dict[str, Any]) -> str:
        return "; ".join(
            f"{rd.say_start(x['start'])} ({x['hours']} hour{'s' if x['hours'] > 1 else ''})"
            for x in view["upcoming_lessons"]
        )

    def which_lesson(
        self, req: dict[str, Any], view: dict[str, Any], out: list[str], verb: str
    ) -> dict[str, Any] | str:
        """The upcoming lesson the request names, or "wait"/"done" after saying why not."""
        lessons = view["upcoming_lessons"]
        if not lessons:
            out.append("You have no upcoming lessons booked, so there's nothing to " + verb + ".")
            return "done"
        said = rd.dates(self.text(req), self.today, all_said=True)
        match = [x for x in lessons if date.fromisoformat(x["start"][:10]) in said]
        times = rd.times(self.text(req), all_said=True)
        if len(match) > 1:
            match = [x for x in match if x["start"][11:16] in times] or match
        if len(match) == 1:
            return match[0]
        if len(lessons) == 1 and not match:
            return lessons[0]
        return self.ask(
            "lesson",
            f"Which lesson would you like to {verb}? You have: {self.say_lessons(view)}.",
            out,
        )

    async def lateness(
        self, req: dict[str, Any], lesson: dict[str, Any], out: list[str]
    ) -> tuple[str | None, bool]:
        """("wait", _) after asking about a note; else (None, keep_hours)."""
        if not self.late(lesson):
            return None, True
        if rd.ill(self.text(req)):
            if req.get("note") is None and rd.has_note(self.text(req)):
                req["note"] = True
            if req.get("note") is None:
                return (
                    self.ask(
                        "note",
                        "I'm sorry you're unwell. Because the lesson is less than 48 hours "
                        "away, we can only keep your hours if you can send us a doctor's or "
                        "pharmacist's note. Do you have one?",
                        out,
                    ),
                    False,
                )
            return None, bool(req["note"])
        return None, False

    # -- look-up ---------------------------------------------------------------------------
    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        lessons = self.say_lessons(v) or "none"
        parts = [
            f"Your upcoming lessons: {lessons}.",
            f"You have {v['hours_left']} package hour{'s' if v['hours_left'] != 1 else ''} left.",
            f"Your instructor is {v['instructor']} ({v['gearbox']}).",
        ]
        if v["test"]:
            parts.append(
                f"Your practical test is on {rd.say_start(v['test']['start'])} at "
                f"{v['test']['centre']}."
            )
        out.append(" ".join(parts))
        return "done"

    # -- booking a lesson ------------------------------------------------------------------
    async def step_book(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        days = rd.dates(text, self.today)
        if not days:
            return self.ask("date", "Which day would you like the lesson?", out)
        day = days[-1]
        if day <= self.today:
            return self.ask("date", "Lessons can be booked from tomorrow. Which day?", out)
        if day.weekday() == 6:
            return self.ask("date", "We don't teach on Sundays. Which other day?", out)
        refused = [r[11:] for r in req.get("refused", []) if r[:10] == day.isoformat()]
        said = [t for t in rd.times(text) if t not in refused]
        at = self.pick_time(" ".join(said)) if said else None
        if not at:
            return self.ask(
                "time",
                f"What time on {rd.say_date(day.isoformat())}? Lessons start on the hour "
                "from 08:00 (the last 2-hour lesson starts at 16:00).",
                out,
            )
        if f"{day.isoformat()} {at}" in req.get("refused", []):
            return self.ask(
                "time",
                f"{at} on {rd.say_date(day.isoformat())} is taken. Which other time would suit "
                "you?",
                out,
            )
        hours = rd.lesson_hours(text)
        if hours is None:
            return self.ask("hours", "Would you like a 1-hour or a 2-hour lesson?", out)
        if v["hours_left"] < hours:
            out.append(
                f"A {hours}-hour lesson needs {hours} package hours and you have "
                f"{v['hours_left']}, so I can't book it yet — nothing has been booked. "
                "I can sell you a package of 5, 10 or 20 hours first if you'd like."
            )
            return "done"
        return self.propose(
            req,
            out,
            f"A {hours}-hour lesson with {v['instructor']} on "
            f"{rd.say_date(day.isoformat())} at {at} uses {hours} of your {v['hours_left']} "
            f"package hours, leaving {v['hours_left'] - hours}. Shall I book it?",
            tool="book_lesson",
            args={"learner_no": v["learner_no"], "start": f"{day.isoformat()} {at}",
                  "hours": hours},
        )  # fmt: skip

    async def done_book(
        self, req: dict[str, Any], pending: dict[str, Any], result: Any, error: str | None,
        out: list[str],
    ) -> None:  # fmt: skip
        if error:
            await self.book_failed(req, error, out)
            return
        out.append(
            f"Done — your {result['hours']}-hour lesson with {result['instructor']} is booked "
            f"for {rd.say_start(result['start'])}. You have {result['hours_left']} package "
            "hours left."
        )

    async def book_failed(self, req: dict[str, Any], error: str, out: list[str]) -> None:
        """Hook: say the booking was refused; when the time was taken, ask for another."""
        self.failed(error, out)
        if "already teaching" in error:
            again = self.new_request("book", self.text(req))
            again["refused"] = [*req.get("refused", []), self.s["last_args"]["start"]]
            self.s["queue"].insert(1, again)
            self.ask("time", "Which other time that day would suit you?", out)

    # -- moving a lesson -------------------------------------------------------------------
    async def step_move(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        lesson = self.which_lesson(req, v, out, "move")
        if isinstance(lesson, str):
            return lesson
        text = self.text(req)
        old_day = date.fromisoformat(lesson["start"][:10])
        days = [d for d in rd.dates(text, self.today) if d != old_day]
        if not days:
            return self.ask(
                "date",
                f"Which day would you like to move your {rd.say_start(lesson['start'])} lesson to?",
                out,
            )
        day = days[-1]
        if day.weekday() == 6 or day <= self.today:
            return self.ask("date", "I can't book that day. Which other day would suit?", out)
        said = [t for t in rd.times(text) if t != lesson["start"][11:16]]
        at = self.pick_time(" ".join(said)) if said else None
        if at is None and lesson["start"][11:16] in rd.times(text):
            at = lesson["start"][11:16]
        if at is None:
            return self.ask("time", f"What time on {rd.say_date(day.isoformat())}?", out)
        status, keep = await self.lateness(req, lesson, out)
        if status:
            return status
        h = lesson["hours"]
        new = f"{day.isoformat()} {at}"
        if keep:
            cost = (
                "with the note, no hours are lost."
                if self.late(lesson)
                else "it's 48 or more hours away, so there's no charge and no hours are lost."
            )
        else:
            if v["hours_left"] < h:
                out.append(
                    f"Your lesson on {rd.say_start(lesson['start'])} is less than 48 hours "
                    f"away, so moving it loses its {h} hour{'s' if h > 1 else ''} and the new "
                    f"lesson needs {h} more, but you only have {v['hours_left']} left. I can't "
                    "move it — nothing has been changed."
                )
                return "done"
            cost = (
                f"Because it's less than 48 hours away, the {h} hour{'s' if h > 1 else ''} "
                f"for it are lost, and the new lesson uses {h} more package hours "
                f"(leaving {v['hours_left'] - h})."
            )
        return self.propose(
            req,
            out,
            f"To move your {h}-hour lesson from {rd.say_start(lesson['start'])} to "
            f"{rd.say_date(day.isoformat())} at {at}: {cost} Shall I go ahead?",
            tool="move_lesson",
            args={"learner_no": v["learner_no"], "lesson_id": lesson["lesson_id"],
                  "new_start": new, "keep_hours": keep},
        )  # fmt: skip

    async def done_move(
        self, req: dict[str, Any], pending: dict[str, Any], result: Any, error: str | None,
        out: list[str],
    ) -> None:  # fmt: skip
        if error:
            self.failed(error, out)
            return
        lost = f"; {result['hours_lost']} hours lost" if result["hours_lost"] else ""
        out.append(
            f"Done — your lesson is now on {rd.say_start(result['start'])}{lost}. You have "
            f"{result['hours_left']} package hours left."
        )

    # -- cancelling a lesson ---------------------------------------------------------------
    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        lesson = self.which_lesson(req, v, out, "cancel")
        if isinstance(lesson, str):
            return lesson
        status, keep = await self.lateness(req, lesson, out)
        if status:
            return status
        h = lesson["hours"]
        hours = hrs(h)
        if keep and self.late(lesson):
            what = f"with the note, the {hours} {goes(h)} back on your package."
        elif keep:
            what = f"it's 48 or more hours away, so the {hours} {goes(h)} back on your package."
        else:
            what = (
                f"it's less than 48 hours away, so the {hours} for it {are(h)} lost and won't "
                "go back on your package."
            )
        return self.propose(
            req,
            out,
            f"To cancel your lesson on {rd.say_start(lesson['start'])}: {what} "
            "A cancellation can't be undone. Shall I cancel it?",
            tool="cancel_lesson",
            args={"learner_no": v["learner_no"], "lesson_id": lesson["lesson_id"],
                  "keep_hours": keep},
        )  # fmt: skip

    async def done_cancel(
        self, req: dict[str, Any], pending: dict[str, Any], result: Any, error: str | None,
        out: list[str],
    ) -> None:  # fmt: skip
        if error:
            self.failed(error, out)
            return
        out.append(
            f"Done — your lesson is cancelled: {hrs(result['hours_returned'])} returned "
            f"to your package, {hrs(result['hours_lost'])} lost. You have "
            f"{hrs(result['hours_left'])} of package time left."
        )

    # -- instructor ------------------------------------------------------------------------
    async def step_instructor(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        listed, error = await self.call("list_instructors")
        if error:
            self.failed(error, out)
            return "done"
        staff = {i["instructor_id"]: i for i in listed["instructors"]}
        named = [i for i in self.instructor_named(self.text(req)) if i != v["instructor_id"]]
        if not named:
            fits = [
                f"{i['name']}"
                for i in staff.values()
                if i["gearbox"] == v["gearbox"] and i["spaces"] > 0
                and i["instructor_id"] != v["instructor_id"]
            ]  # fmt: skip
            return self.ask(
                "instructor",
                f"Which instructor would you like instead of {v['instructor']}? For "
                f"{v['gearbox']} lessons, {' or '.join(fits) or 'nobody'} has a space.",
                out,
            )
        new = staff[named[-1]]
        if new["gearbox"] != v["gearbox"]:
            article = "an" if v["gearbox"] == "automatic" else "a"
            out.append(
                f"I'm sorry — {new['name']} teaches {new['gearbox']} only and you learn in "
                f"{article} {v['gearbox']} car, so I can't change to them. Nothing has been "
                "changed."
            )
            return "done"
        if new["spaces"] < 1:
            out.append(
                f"I'm sorry — {new['name']} has no space for another regular learner, so I "
                "can't change to them. Nothing has been changed."
            )
            return "done"
        return self.propose(
            req,
            out,
            f"I'll make {new['name']} your regular instructor instead of {v['instructor']}. "
            "There's no charge; lessons already booked stay with the instructor they were "
            "booked with. Shall I go ahead?",
            tool="change_instructor",
            args={"learner_no": v["learner_no"], "instructor_id": new["instructor_id"]},
        )

    async def done_instructor(
        self, req: dict[str, Any], pending: dict[str, Any], result: Any, error: str | None,
        out: list[str],
    ) -> None:  # fmt: skip
        if error:
            self.failed(error, out)
            return
        out.append(f"Done — your regular instructor is now {result['instructor']}.")

    # -- packages --------------------------------------------------------------------------
    async def step_package(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        hours = rd.package_hours(self.text(req))
        if hours is None:
            return self.ask(
                "package_hours",
                "Which package would you like: 5 hours (£38.00 an hour, £190.00), 10 hours "
                "(£36.00 an hour, £360.00) or 20 hours (£34.00 an hour, £680.00)?",
                out,
            )
        pph = _seed.PACKAGES[hours]
        full = pph * hours
        if v["first_discount_used"]:
            price = f"costs {rd.pounds(full)} ({rd.pounds(pph)} an hour)"
        else:
            price = (
                f"is {rd.pounds(full)} ({rd.pounds(pph)} an hour) less your one-off "
                f"first-package discount of {rd.pounds(_seed.FIRST_DISCOUNT_PENCE)}: "
                f"{rd.pounds(full - _seed.FIRST_DISCOUNT_PENCE)}"
            )
        return self.propose(
            req,
            out,
            f"The {hours}-hour package {price}, charged to {self.card(v)}. Shall I go ahead?",
            tool="buy_package",
            args={"learner_no": v["learner_no"], "hours": hours},
        )

    async def done_package(
        self, req: dict[str, Any], pending: dict[str, Any], result: Any, error: str | None,
        out: list[str],
    ) -> None:  # fmt: skip
        if error:
            self.failed(error, out)
            return
        out.append(
            f"Done — {result['hours']} hours are on your account ({result['charged']} charged "
            f"to your card ending {result['card_last4']}). You now have "
            f"{result['hours_left']} package hours."
        )

    # -- the practical test ----------------------------------------------------------------
    async def step_test(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        moving = v["test"] is not None
        if moving and not MOVE_TEST.search(text) and not rd.dates(text, self.today):
            out.append(
                f"Your practical test is booked for {rd.say_start(v['test']['start'])} at "
                f"{v['test']['centre']}."
            )
            return "done"
        if not moving and not self.test_allowed(v):
            out.append(
                f"I'm sorry — we book the practical test once you've taken at least "
                f"{_seed.MIN_LESSONS_FOR_TEST} lessons, and you've taken "
                f"{v['lessons_taken']}, so I can't book it yet. Nothing has been booked."
            )
            return "done"
        slots, error = await self.call("list_test_slots")
        if error:
            self.failed(error, out)
            return "done"
        free = slots["slots"]
        days = rd.dates(text, self.today)
        if moving:
            days = [d for d in days if d.isoformat() != v["test"]["start"][:10]]
        listing = "; ".join(f"{rd.say_start(x['start'])} at {x['centre']}" for x in free)
        if not days:
            return self.ask("date", f"Which test date would you like? Free slots: {listing}.", out)
        on_day = [x for x in free if x["start"][:10] == days[-1].isoformat()]
        if not on_day:
            return self.ask(
                "date",
                f"There's no free test slot on {rd.say_date(days[-1].isoformat())}. Free "
                f"slots: {listing}. Which would you like?",
                out,
            )
        slot = on_day[0]
        if not moving:
            return self.propose(
                req,
                out,
                f"I can book your practical test for {rd.say_start(slot['start'])} at "
                f"{slot['centre']}. The test fee is {rd.pounds(_seed.TEST_FEE_PENCE)}, "
                f"charged to {self.card(v)}. Shall I book it?",
                tool="book_test",
                args={"learner_no": v["learner_no"], "slot_id": slot["slot_id"]},
            )
        old = v["test"]["start"]
        close = (date.fromisoformat(old[:10]) - self.today).days < _seed.TEST_LOCK_DAYS
        cost = (
            f"your test is less than {_seed.TEST_LOCK_DAYS} days away, so the "
            f"{rd.pounds(_seed.TEST_FEE_PENCE)} fee you paid is lost and a new "
            f"{rd.pounds(_seed.TEST_FEE_PENCE)} fee is charged to {self.card(v)}."
            if close
            else "there's no charge, as your test is 14 or more days away."
        )
        return self.propose(
            req,
            out,
            f"To move your test from {rd.say_start(old)} to {rd.say_start(slot['start'])} at "
            f"{slot['centre']}: {cost} Shall I go ahead?",
            tool="move_test",
            args={"learner_no": v["learner_no"], "slot_id": slot["slot_id"]},
        )

    async def done_test(
        self, req: dict[str, Any], pending: dict[str, Any], result: Any, error: str | None,
        out: list[str],
    ) -> None:  # fmt: skip
        if error:
            self.failed(error, out)
            return
        out.append(
            f"Done — your practical test is booked for {rd.say_start(result['start'])} at "
            f"{result['centre']}; {result['charged']} charged to your card ending "
            f"{result['card_last4']}."
        )

    # -- refunds ---------------------------------------------------------------------------
    async def step_refund(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        packs = [p for p in v["packages"] if p["hours_left"] > 0]
        if not packs:
            out.append("You have no unused package hours to refund.")
            return "done"
        fresh = [p for p in packs if not refund_expired(p["bought_on"], self.today)]
        if not fresh:
            out.append(
                "I'm sorry — we refund unused hours only within 12 months of buying the "
                f"package, and your package was bought on {rd.say_date(packs[0]['bought_on'])}, "
                "so I can't refund it. Nothing has been changed; the hours are still yours "
                "to use."
            )
            return "done"
        pack = fresh[0]
        back = self.refund_quote(pack)
        full = pack["hours_left"] * pack["price_per_hour_pence"]
        fee = f", less our {rd.pounds(_seed.REFUND_ADMIN_PENCE)} admin fee" if back < full else ""
        return self.propose(
            req,
            out,
            f"Your {pack['hours']}-hour package ({pack['package_id']}) has "
            f"{pack['hours_left']} unused hours at the {pack['price_per_hour']} an hour you "
            f"paid, {rd.pounds(full)}{fee}: {rd.pounds(back)} back to "
            f"{self.card(v)}. The hours are then gone. Shall I go ahead?",
            tool="refund_package",
            args={"learner_no": v["learner_no"], "package_id": pack["package_id"]},
            stated=rd.pounds(back),
        )

    async def done_refund(
        self, req: dict[str, Any], pending: dict[str, Any], result: Any, error: str | None,
        out: list[str],
    ) -> None:  # fmt: skip
        if error:
            self.failed(error, out)
            return
        out.append(
            f"Done — {result['hours_refunded']} hours refunded: {result['refund']} back to "
            f"your card ending {result['card_last4']} within 5 to 7 working days."
        )

    # -- address ---------------------------------------------------------------------------
    async def step_address(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        street = rd.addresses(text)
        codes = rd.postcodes(text)
        if not street:
            return self.ask(
                "address", "What's the new pick-up address (house number and street)?", out
            )
        if not codes:
            return self.ask("postcode", "And the postcode?", out)
        code = codes[-1]
        if code.split()[0] not in _seed.SERVICE_POSTCODES:
            out.append(
                f"I'm sorry — {code} is outside the area we pick up from ("
                + ", ".join(_seed.SERVICE_POSTCODES)
                + f"), so I can't change your pick-up address to it. It stays "
                f"{v['address']}, {v['postcode']}."
            )
            return "done"
        return self.propose(
            req,
            out,
            f"I'll change your pick-up address to {street[-1]}, {code}. Shall I go ahead?",
            tool="update_address",
            args={"learner_no": v["learner_no"], "address": street[-1], "postcode": code},
        )

    async def done_address(
        self, req: dict[str, Any], pending: dict[str, Any], result: Any, error: str | None,
        out: list[str],
    ) -> None:  # fmt: skip
        if error:
            self.failed(error, out)
            return
        out.append(f"Done — your pick-up address is now {result['address']}, {result['postcode']}.")
