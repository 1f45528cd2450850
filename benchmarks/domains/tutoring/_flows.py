"""The desk's flows: lessons, trials, moves, cancellations, tutors, packages, courses, more."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from benchmarks.domains.tutoring import _read as rd
from benchmarks.domains.tutoring import _seed
from benchmarks.domains.tutoring._env import add_months

ASKS_NUMBER = re.compile(r"\b(?:mobile|phone|number|whatsapp|text (?:him|her|them))\b", re.I)


class Flows:
    """The flows; `CorrectTutoringAgent` supplies the state, the calls and the questions."""

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

    def whole(self, req: dict[str, Any]) -> str:
        """The message the request was made in, whole, and anything added since."""
        first = next((m for m in self.s.get("said", []) if req["chunks"][0] in m),
                     req["chunks"][0])  # fmt: skip
        return " ".join([first, *req["chunks"][1:]])

    # -- who and what is meant -------------------------------------------------------------
    def pick_student(self, v: dict[str, Any], text: str) -> dict[str, Any] | None:
        """The student meant: named, the one writing, or the only one on the account."""
        named = [st for st in v["students"] if re.search(rf"\b{st['name']}\b", text)]
        if named:
            return named[0]
        if self.s["caller"] == "student":
            return self.student_of(v, self.s["student_id"])
        return v["students"][0] if len(v["students"]) == 1 else None

    @staticmethod
    def student_of(v: dict[str, Any], student_id: str) -> dict[str, Any]:
        return next(st for st in v["students"] if st["student_id"] == student_id)

    @staticmethod
    def named_tutor(tutors: list[dict[str, Any]], text: str) -> dict[str, Any] | None:
        for t in tutors:
            if re.search(rf"\b{t['name'].split()[-1]}\b", text, re.I):
                return t
        return None

    @staticmethod
    def teaches(t: dict[str, Any], subject: str, level: str) -> bool:
        return subject in t["subjects"].split(",") and level in t["levels"].split(",")

    async def tutors(self, subject: str | None = None) -> list[dict[str, Any]]:
        found, error = await self.call("list_tutors", subject=subject)
        return [] if error else list(found)

    async def free_at(self, tutor_id: str, day: str) -> list[str]:
        found, error = await self.call("find_slots", tutor_id=tutor_id, day=day)
        return [] if error else list(found["free"])

    def pick_lesson(self, v: dict[str, Any], text: str, out: list[str]) -> Any:
        """The lesson meant (by number, day, subject or student), "wait" after asking, or None."""
        pool = [les for les in v["lessons"] if les["status"] == "booked"]
        ids = rd.lessons(text)
        if any(les["lesson_id"] in ids for les in pool):
            return next(les for les in pool if les["lesson_id"] in ids)
        st = next((st for st in v["students"] if re.search(rf"\b{st['name']}\b", text)), None)
        if st is None and self.s["caller"] == "student":
            st = self.student_of(v, self.s["student_id"])
        for keep in (
            (lambda les: st is None or les["student_id"] == st["student_id"]),
            (lambda les: les["start"][:10] in {d.isoformat() for d in rd.dates(text, self.today)}),
            (lambda les: les["subject"] in rd.subjects(text)),
        ):
            narrower = [les for les in pool if keep(les)]
            pool = narrower or pool
        if not pool:
            return None
        if len(pool) > 1 and len({les["student_id"] for les in pool}) > 1:
            listed = "; ".join(f"{self.student_of(v, les['student_id'])['name']}'s "
                               f"{les['subject']} on {rd.say_start(les['start'])}"
                               for les in pool)  # fmt: skip
            return self.ask("lesson", f"Which lesson do you mean: {listed}?", out)
        return pool[0]

    def no_lesson(self, out: list[str]) -> str:
        out.append("I can't find an upcoming lesson that matches that on the account.")
        return "done"

    def say_lesson(self, v: dict[str, Any], les: dict[str, Any]) -> str:
        who = self.student_of(v, les["student_id"])["name"]
        return (f"{who}'s {les['level']} {les['subject']} lesson {les['lesson_id']} with "
                f"{les['tutor']} on {rd.say_start(les['start'])}")  # fmt: skip

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def blocked(self, v: dict[str, Any], out: list[str]) -> bool:
        """A student under 18 writing themselves can't change bookings: the parent must."""
        if self.s["caller"] != "student":
            return False
        st = self.student_of(v, self.s["student_id"])
        if not st["under_18"]:
            return False
        out.append(f"I'm sorry, {st['name']} — for students under 18, only the parent or "
                   "guardian on the account can book, move or cancel lessons or make other "
                   "changes, so I haven't changed anything. Please ask them to contact us, here "
                   "or on 0161 496 0500. I'm happy to tell you when your lessons are.")  # fmt: skip
        return True

    def rate_for(self, level: str) -> int:
        return _seed.RATES[level]

    def cancel_terms(self, les: dict[str, Any]) -> tuple[int, bool]:
        """The refund to the card and whether a package hour (or the trial) comes back."""
        if les["hours_to_start"] < _seed.FREE_CHANGE_HOURS:
            return 0, False
        return (les["price_pence"] if les["paid"] == "card" else 0), True

    def refund_amount(self, pk: dict[str, Any]) -> int:
        """Unused hours at the package's own hourly price, less the admin fee."""
        per_hour = pk["price_pence"] // pk["hours_bought"]
        return max(0, pk["hours_left"] * per_hour - _seed.ADMIN_FEE_PENCE)

    def number_answer(self, t: dict[str, Any], text: str) -> str:
        """What the desk says when asked for a tutor's own number: never the number."""
        if not ASKS_NUMBER.search(text):
            return ""
        return "I'm sorry — we never give out our tutors' personal phone numbers. "

    # -- booking lessons and trials --------------------------------------------------------
    async def step_book(self, req: dict[str, Any], out: list[str], trial: bool = False) -> str:
        v = await self.refresh()
        if self.blocked(v, out):
            return "done"
        text, wider = self.text(req), self.whole(req)
        st = self.pick_student(v, text) or self.pick_student(v, wider)
        if st is None:
            return self.ask("student", "Which student is the lesson for?", out)
        if trial and st["trial_used"]:
            out.append(f"I'm sorry — {st['name']} has already had the free trial lesson, and "
                       "it's one per student, so I haven't booked anything. I can book a normal "
                       f"one-hour {st['level']} lesson at {rd.pounds(self.rate_for(st['level']))}"
                       " if you'd like.")  # fmt: skip
            return "done"
        enrolled = {e["subject"]: e for e in st["enrolments"]}
        subs = rd.subjects(text) or rd.subjects(wider)
        subject = subs[0] if subs else (next(iter(enrolled)) if len(enrolled) == 1 and not trial
                                        else None)  # fmt: skip
        if subject is None:
            return self.ask("subject", "Which subject is it for?", out)
        tutors = await self.tutors(subject)
        teaching = [t for t in tutors if self.teaches(t, subject, st["level"])]
        if not teaching:
            out.append(f"I'm sorry — we don't have a tutor for {st['level']} {subject}, so I "
                       "haven't booked anything.")  # fmt: skip
            return "done"
        named = self.named_tutor(teaching, text)
        regular = next((t for t in teaching if subject in enrolled
                        and t["tutor_id"] == enrolled[subject]["tutor_id"]), None)  # fmt: skip
        choice = [named] if named else [regular] if regular else teaching
        days = [d for d in rd.dates(text, self.today) if d >= self.today]
        if not days:
            with_whom = f" with {choice[0]['title']}" if len(choice) == 1 else ""
            return self.ask("when", f"Which day and time would you like the lesson{with_whom}?",
                            out)  # fmt: skip
        day, time = days[-1].isoformat(), rd.clock_time(text)
        free = {t["tutor_id"]: await self.free_at(t["tutor_id"], day) for t in choice}
        tutor = next((t for t in choice if time in free[t["tutor_id"]]), None)
        if tutor is None:
            t = choice[0]
            times = ", ".join(free[t["tutor_id"]])
            if not times:
                return self.ask("when", f"{t['title']} has no free slot on {rd.say_day(day)}. "
                                "Which other day would suit?", out)  # fmt: skip
            return self.ask("when", f"{t['title']} is free on {rd.say_day(day)} at {times}. "
                            "Which time would you like?", out)  # fmt: skip
        return self.propose_lesson(req, v, st, tutor, subject, f"{day} {time}", trial, out)

    def propose_lesson(self, req: dict[str, Any], v: dict[str, Any], st: dict[str, Any],
                       tutor: dict[str, Any], subject: str, start: str, trial: bool,
                       out: list[str]) -> str:  # fmt: skip
        args = {"account_id": v["account_id"], "student_id": st["student_id"],
                "tutor_id": tutor["tutor_id"], "subject": subject, "start": start}  # fmt: skip
        what = f"{st['level']} {subject} lesson with {tutor['title']} on {rd.say_start(start)}"
        if trial:
            return self.propose(req, out, f"To book {st['name']} a free 30-minute trial {what}. "
                                "It's free, and it's one trial per student. Shall I book it?",
                                [("book_lesson", {**args, "kind": "trial", "pay": "free",
                                                  "price_pence": 0})])  # fmt: skip
        pk = next((p for p in v["packages"] if p["student_id"] == st["student_id"]
                   and p["level"] == st["level"] and p["hours_left"] > 0), None)  # fmt: skip
        rule = " It can be moved or cancelled free until 24 hours before it starts."
        if pk is not None:
            return self.propose(req, out, f"To book {st['name']} a one-hour {what}, paid with an "
                                f"hour from the package ({pk['hours_left']} hours left, "
                                f"{pk['hours_left'] - 1} after this); nothing is charged to the "
                                f"card.{rule} Shall I book it?",
                                [("book_lesson", {**args, "kind": "lesson", "pay": "package",
                                                  "package_id": pk["package_id"],
                                                  "price_pence": 0})])  # fmt: skip
        price = self.rate_for(st["level"])
        return self.propose(req, out, f"To book {st['name']} a one-hour {what}: {rd.pounds(price)}"
                            f" ({st['level']} rate), charged now to the card ending "
                            f"{v['card_last4']}.{rule} Shall I book it?",
                            [("book_lesson", {**args, "kind": "lesson", "pay": "card",
                                              "price_pence": price})])  # fmt: skip

    async def step_trial(self, req: dict[str, Any], out: list[str]) -> str:
        return await self.step_book(req, out, trial=True)

    # -- moving and cancelling -------------------------------------------------------------
    async def step_move(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if self.blocked(v, out):
            return "done"
        text = self.text(req)
        les = self.pick_lesson(v, text, out)
        if les is None or isinstance(les, str):
            return les or self.no_lesson(out)
        if les["hours_to_start"] < _seed.FREE_CHANGE_HOURS:
            out.append(f"I'm sorry — {self.say_lesson(v, les)} is less than 24 hours away, and "
                       "lessons can't be moved inside 24 hours. It can still be cancelled, but "
                       "it would be charged (or the package hour used). Nothing has been "
                       "changed.")  # fmt: skip
            return "done"
        old_day, old_time = les["start"][:10], les["start"][11:]
        days = [d.isoformat() for d in rd.dates(text, self.today) if d >= self.today]
        days = [d for d in days if d != old_day]
        time = rd.clock_time(text)
        if not days and (time is None or time == old_time):
            return self.ask("new_when", "Which day and time would you like it moved to? It stays "
                            f"with {les['tutor']}.", out)  # fmt: skip
        day = days[-1] if days else old_day
        time = time or old_time
        free = await self.free_at(les["tutor_id"], day)
        if time not in free:
            times = ", ".join(free) or "no free slot"
            return self.ask("new_when", f"{les['tutor']} isn't free then. On {rd.say_day(day)} "
                            f"they have {times}. Which would suit?", out)  # fmt: skip
        start = f"{day} {time}"
        return self.propose(
            req, out, f"To move {self.say_lesson(v, les)} to {rd.say_start(start)}. There's no "
            "charge, as it's more than 24 hours away. Shall I move it?",
            [("move_lesson", {"account_id": v["account_id"], "lesson_id": les["lesson_id"],
                              "start": start})],
        )  # fmt: skip

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if self.blocked(v, out):
            return "done"
        les = self.pick_lesson(v, self.text(req), out)
        if les is None or isinstance(les, str):
            return les or self.no_lesson(out)
        refund, hour_back = self.cancel_terms(les)
        late = les["hours_to_start"] < _seed.FREE_CHANGE_HOURS
        price = rd.pounds(les["price_pence"])
        if les["kind"] == "trial":
            what = ("the free trial counts as used" if not hour_back
                    else "the free trial can be booked again")  # fmt: skip
        elif les["paid"] == "package":
            what = ("the package hour is used" if not hour_back
                    else "the hour goes back on the package")  # fmt: skip
        else:
            what = (f"the {price} is refunded to the card ending {v['card_last4']}" if refund
                    else f"the lesson is charged: the {price} isn't refunded")  # fmt: skip
        when = ("it's less than 24 hours away, so " if late
                else "it's more than 24 hours away, so ")  # fmt: skip
        return self.propose(
            req, out, f"To cancel {self.say_lesson(v, les)}: {when}{what}. Shall I cancel it?",
            [("cancel_lesson", {"account_id": v["account_id"], "lesson_id": les["lesson_id"],
                                "refund_pence": refund, "return_hour": hour_back})],
        )  # fmt: skip

    # -- tutors ----------------------------------------------------------------------------
    async def step_tutor(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if self.blocked(v, out):
            return "done"
        text = self.text(req)
        st = self.pick_student(v, text)
        if st is None:
            return self.ask("student", "Which student's tutor would you like to change?", out)
        enrolled = {e["subject"]: e for e in st["enrolments"]}
        subs = [s for s in rd.subjects(text) if s in enrolled] or rd.subjects(text)
        subject = subs[0] if subs else (next(iter(enrolled)) if len(enrolled) == 1 else None)
        if subject is None:
            return self.ask("subject", "Which subject is the change for?", out)
        if subject not in enrolled:
            out.append(f"{st['name']} doesn't have {subject} lessons with us yet, so there's no "
                       "tutor to change; I can book a first lesson instead.")  # fmt: skip
            return "done"
        tutors = await self.tutors()
        current = enrolled[subject]
        others = [t for t in tutors if t["tutor_id"] != current["tutor_id"]]
        able = [t["title"] for t in others if self.teaches(t, subject, st["level"])]
        new = self.named_tutor(others, text)
        if new is None:
            return self.ask("tutor", f"Which tutor would you like instead of {current['tutor']}? "
                            f"For {st['level']} {subject} we have {', '.join(able)}.", out)
        if not self.teaches(new, subject, st["level"]):
            out.append(f"I'm sorry — {new['title']} doesn't teach {st['level']} {subject}, and a "
                       f"change of tutor has to be within the same subject. For {subject} we "
                       f"have {', '.join(able) or 'no other tutor'}. Nothing has been changed.")
            return "done"
        moving = [les for les in v["lessons"] if les["student_id"] == st["student_id"]
                  and les["subject"] == subject
                  and les["hours_to_start"] >= _seed.FREE_CHANGE_HOURS]  # fmt: skip
        for les in moving:
            if les["start"][11:] not in await self.free_at(new["tutor_id"], les["start"][:10]):
                out.append(f"I'm sorry — {new['title']} isn't free on {rd.say_start(les['start'])}"
                           f", when {st['name']} has a lesson, so I can't make the change. "
                           "Nothing has been changed.")  # fmt: skip
                return "done"
        lessons = ("; the lessons on " + " and ".join(rd.say_start(les["start"]) for les in moving)
                   + f" move to {new['title']} at the same times, same price"
                   if moving else "")  # fmt: skip
        return self.propose(
            req, out, f"To change {st['name']}'s {subject} tutor from {current['tutor']} to "
            f"{new['title']}{lessons}. Shall I change it?",
            [("change_tutor", {"account_id": v["account_id"], "student_id": st["student_id"],
                               "subject": subject, "tutor_id": new["tutor_id"]})],
        )  # fmt: skip

    async def step_message(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        tutors = await self.tutors()
        t = self.named_tutor(tutors, text)
        st = self.pick_student(v, text)
        if t is None and st is not None and len(st["enrolments"]) == 1:
            t = next(x for x in tutors if x["tutor_id"] == st["enrolments"][0]["tutor_id"])
        if t is None:
            return self.ask("tutor", "Which tutor is it for?", out)
        message = re.sub(r"\s+", " ", self.whole(req)).strip()
        return self.propose(
            req, out, f"{self.number_answer(t, text)}I can pass a message to {t['title']} through "
            f"the office now, and they'll see it before the next lesson: \"{message}\". Shall I "
            "send it?",
            [("send_tutor_message", {"account_id": v["account_id"], "tutor_id": t["tutor_id"],
                                     "text": message})],
        )  # fmt: skip

    # -- packages and courses --------------------------------------------------------------
    async def step_package(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if self.blocked(v, out):
            return "done"
        st = self.pick_student(v, self.text(req))
        if st is None:
            return self.ask("student", "Which student is the package for?", out)
        level = st["level"]
        full = self.rate_for(level) * _seed.PACKAGE_HOURS
        price = full * (100 - _seed.PACKAGE_DISCOUNT) // 100
        return self.propose(
            req, out, f"To buy a 10-hour {level} package for {st['name']}: {rd.pounds(price)} "
            f"({rd.pounds(full)} less 10%), charged now to the card ending {v['card_last4']}. "
            f"The hours are used first for {st['name']}'s lessons; unused hours can be refunded "
            "within 6 months, less a £20.00 admin fee. Shall I go ahead?",
            [("buy_package", {"account_id": v["account_id"], "student_id": st["student_id"],
                              "level": level, "price_pence": price})],
        )  # fmt: skip

    async def step_refund(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if self.blocked(v, out):
            return "done"
        st = self.pick_student(v, self.text(req))
        pks = [p for p in v["packages"] if p["hours_left"] > 0
               and (st is None or p["student_id"] == st["student_id"])]  # fmt: skip
        if not pks:
            out.append("There are no unused package hours on the account to refund.")
            return "done"
        pk = pks[0]
        who = self.student_of(v, pk["student_id"])["name"]
        bought = date.fromisoformat(pk["bought_on"])
        closed = add_months(bought, _seed.REFUND_MONTHS)
        if self.today > closed:
            out.append(f"I'm sorry — unused package hours can be refunded only within 6 months "
                       f"of purchase. {who}'s {pk['level']} package was bought on "
                       f"{rd.say_day(pk['bought_on'])} {bought.year}, so that ended on "
                       f"{rd.say_day(closed.isoformat())} {closed.year}. The {pk['hours_left']} "
                       "hours left can still be used for lessons. Nothing has been changed.")
            return "done"
        refund = self.refund_amount(pk)
        per_hour = pk["price_pence"] // pk["hours_bought"]
        return self.propose(
            req, out, f"{who}'s {pk['level']} package {pk['package_id']} has "
            f"{pk['hours_left']} unused hours. At the package's {rd.pounds(per_hour)} an hour "
            f"less the {rd.pounds(_seed.ADMIN_FEE_PENCE)} admin fee, that's {rd.pounds(refund)} "
            f"back to the card ending {v['card_last4']}, and the package is closed. Shall I go "
            "ahead?",
            [("refund_package", {"account_id": v["account_id"], "package_id": pk["package_id"],
                                 "refund_pence": refund})],
        )  # fmt: skip

    async def step_course(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if self.blocked(v, out):
            return "done"
        text = self.text(req)
        st = self.pick_student(v, text)
        if st is None:
            return self.ask("student", "Which student is the course for?", out)
        found, _ = await self.call("list_courses")
        courses = [c for c in found or [] if c["level"] == st["level"]]
        subs = rd.subjects(text)
        if subs:
            courses = [c for c in courses if c["subject"] in subs]
        elif len(courses) > 1:
            names = ", ".join(c["title"] for c in courses)
            return self.ask("subject", f"Which subject? For {st['level']} we run the {names}.",
                            out)  # fmt: skip
        if not courses:
            out.append(f"I'm sorry — we don't run an Easter intensive for {st['level']} "
                       f"{' or '.join(subs) or 'that subject'}. Nothing has been booked.")
            return "done"
        c = courses[0]
        if any(p["course_id"] == c["course_id"] and p["student_id"] == st["student_id"]
               for p in v["courses"]):  # fmt: skip
            out.append(f"{st['name']} already has a place on the {c['title']}.")
            return "done"
        return self.propose(
            req, out, f"To book {st['name']} a place on the {c['title']} "
            f"({rd.say_day(c['first_day'])} to {rd.say_day(c['last_day'])}, {c['times']}): "
            f"{rd.pounds(c['price_pence'])}, charged now to the card ending {v['card_last4']}. "
            "Places are limited, and the system confirms the place. Shall I book it?",
            [("join_course", {"account_id": v["account_id"], "student_id": st["student_id"],
                              "course_id": c["course_id"], "price_pence": c["price_pence"]})],
        )  # fmt: skip

    # -- invoices, contact details, look-ups -----------------------------------------------
    async def step_dispute(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if self.blocked(v, out):
            return "done"
        text = self.text(req)
        ids = rd.invoices(text)
        invs = [i for i in v["invoices"] if i["invoice_id"] in ids] or sorted(
            v["invoices"], key=lambda i: i["issued"], reverse=True)  # fmt: skip
        if not invs:
            out.append("I can't see an invoice on the account.")
            return "done"
        inv = invs[0]
        issued = f"{rd.say_day(inv['issued'])} {inv['issued'][:4]}"
        if inv["days_since_issued"] > _seed.DISPUTE_DAYS:
            out.append(f"I'm sorry — invoice {inv['invoice_id']} was issued on {issued}, more "
                       "than 30 days ago, and invoices can only be disputed within 30 days of "
                       "their date, so I can't open a dispute. Nothing has been changed.")
            return "done"
        reason = re.sub(r"\s+", " ", self.whole(req)).strip()
        return self.propose(
            req, out, f"To open a dispute on invoice {inv['invoice_id']} "
            f"({rd.pounds(inv['total_pence'])}, issued {issued}) with our accounts team: "
            f"\"{reason}\". They reply within 10 working days, and any credit goes back to the "
            f"card ending {v['card_last4']}. Shall I open it?",
            [("dispute_invoice", {"account_id": v["account_id"],
                                  "invoice_id": inv["invoice_id"], "reason": reason})],
        )  # fmt: skip

    async def step_contact(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if self.blocked(v, out):
            return "done"
        text = self.text(req)
        emails, numbers = rd.emails(text), rd.phones(text)
        if not emails and not numbers:
            if re.search(r"\be-?mail", text, re.I):
                return self.ask("email", "What's the new email address?", out)
            return self.ask("phone", "What's the new phone number?", out)
        args: dict[str, Any] = {"account_id": v["account_id"]}
        said = []
        if emails:
            args["email"] = emails[-1]
            said.append(f"the email to {emails[-1]}")
        if numbers:
            args["phone"] = numbers[-1]
            said.append(f"the phone number to {numbers[-1]}")
        return self.propose(req, out, f"To change the account's {' and '.join(said)}. Shall I "
                            "update it?", [("update_contact", args)])  # fmt: skip

    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        st = self.pick_student(v, self.text(req))
        students = [st] if st else v["students"]
        said = []
        for one in students:
            mine = [les for les in v["lessons"] if les["student_id"] == one["student_id"]]
            if mine:
                les = mine[0]
                paid = " (from the package)" if les["paid"] == "package" else ""
                said.append(f"{one['name']}'s next lesson is {les['subject']} with {les['tutor']} "
                            f"on {rd.say_start(les['start'])}{paid}.")  # fmt: skip
            else:
                said.append(f"{one['name']} has no lessons booked.")
            for pk in v["packages"]:
                if pk["student_id"] == one["student_id"]:
                    said.append(f"There are {pk['hours_left']} hours left on {one['name']}'s "
                                f"{pk['level']} package.")  # fmt: skip
        out.append(" ".join(said))
        return "done"

    # -- reporting -------------------------------------------------------------------------
    def report(self, tool_name: str, r: dict[str, Any]) -> str:  # noqa: C901
        """What the system returned, in the customer's words."""
        if tool_name == "book_lesson":
            paid = {"card": f"{r['charged']} charged to the card ending {r['card_last4']}",
                    "package": f"paid from the package, {r['package_hours_left']} hours left",
                    "free": "the free trial"}[r["paid"]]  # fmt: skip
            return (f"Done — {r['student']}'s {r['subject']} lesson {r['lesson_id']} with "
                    f"{r['tutor']} is booked for {rd.say_start(r['start'])} ({r['minutes']} "
                    f"minutes); {paid}.")  # fmt: skip
        if tool_name == "move_lesson":
            when = rd.say_start(r["start"])
            return f"Done — lesson {r['lesson_id']} with {r['tutor']} is now {when}."
        if tool_name == "cancel_lesson":
            hour = (f" and the hour is back on the package ({r['package_hours_left']} left)"
                    if r["hour_returned"] else "")  # fmt: skip
            return (f"Done — lesson {r['lesson_id']} is cancelled; {r['refunded']} refunded to "
                    f"the card ending {r['card_last4']}{hour}.")  # fmt: skip
        if tool_name == "change_tutor":
            moved = ", ".join(r["lessons_moved"])
            return (f"Done — {r['student']}'s {r['subject']} tutor is now {r['tutor']}"
                    f"{'; lessons ' + moved + ' moved' if moved else ''}.")  # fmt: skip
        if tool_name == "buy_package":
            return (f"Done — package {r['package_id']}: {r['hours']} {r['level']} hours for "
                    f"{r['student']}, {r['charged']} charged to the card ending "
                    f"{r['card_last4']}.")  # fmt: skip
        if tool_name == "refund_package":
            return (f"Done — {r['hours_refunded']} unused hours refunded: {r['refunded']} back to "
                    f"the card ending {r['card_last4']}; package {r['package_id']} is closed.")
        if tool_name == "join_course":
            return (f"Done — {r['student']} has a place on the {r['title']}; {r['charged']} "
                    f"charged to the card ending {r['card_last4']}.")  # fmt: skip
        if tool_name == "dispute_invoice":
            return (f"Done — dispute {r['dispute_id']} is open on invoice {r['invoice_id']}; the "
                    "accounts team will reply within 10 working days.")  # fmt: skip
        if tool_name == "update_contact":
            return f"Done — the account's email is {r['email']} and its phone number {r['phone']}."
        return f"Done — your message has been passed to {r['tutor']}."

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
