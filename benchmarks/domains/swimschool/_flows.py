"""The desk's flows: book, move, make-ups, assessments, withdrawals, notes, contacts, look-ups."""

from __future__ import annotations

import re
from typing import Any

from benchmarks.domains.swimschool import _read as rd
from benchmarks.domains.swimschool import _seed

ONLY_DAY = re.compile(
    r"\bonly\b.{0,25}\b(?:mon|tue|wed|thu|fri|sat|sun)\w*|\b(?:mon|tue|wed|thu|fri|sat|sun)\w*"
    r"\b.{0,20}\bonly\b|\bno other day",
    re.I,
)
NOTE_LEAD = re.compile(
    r"^\W*(?:hi|hello)?\W*(?:please|could you|can you)?\s*(?:add|put|make)\s+(?:a\s+)?"
    r"(?:medical\s+)?note\s+(?:to|on|for)\s+\w+(?:'s)?\s*(?:record|file)?\s*(?:that|saying|:|-|"
    r"—)?\s*",
    re.I,
)


def ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd"}.get(n, f"{n}th")


class Flows:
    """The flows; `CorrectSwimschoolAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]
    today: Any
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

    def said_all(self, req: dict[str, Any]) -> str:
        return " ".join([self.text(req), *self.s.get("said", [])])

    @staticmethod
    def child_of(v: dict[str, Any], text: str) -> dict[str, Any] | None:
        """The child meant: named, or the only child on the account."""
        named = [k for k in v["children"] if re.search(rf"\b{k['name']}\b", text, re.I)]
        if named:
            return named[-1] if len(named) > 1 and "sorry" in text.lower() else named[0]
        return v["children"][0] if len(v["children"]) == 1 else None

    def ask_child(self, out: list[str]) -> str:
        return self.ask("child_name", "Which of your children is this for?", out)

    @staticmethod
    def enrolment_of(kid: dict[str, Any], text: str, default: str) -> dict[str, Any] | None:
        """The enrolment meant: by the term said, else `default` ('SP1', 'SP2' or 'latest')."""
        es = kid["enrolments"]
        if rd.NEXT_TERM.search(text):
            term = "SP2"
        elif rd.THIS_TERM.search(text):
            term = "SP1"
        elif default == "latest":
            return es[-1] if es else None
        else:
            term = default
        return next((e for e in es if e["term_id"] == term), None)

    @staticmethod
    def say_class(c: dict[str, Any]) -> str:
        return f"{c['day']}s at {c['start_time']} with {c['teacher']}"

    async def classes(self, stage: int, term_id: str) -> list[dict[str, Any]]:
        found, error = await self.call("find_classes", stage=stage, term_id=term_id)
        return [] if error else list(found["classes"])

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def caller_allowed(self, account: dict[str, Any]) -> bool:
        """Only a parent or guardian named on the account is told about or changes lessons."""
        return bool(account["caller_on_account"])

    def price_for(self, stage: int, sibling: bool) -> int:
        """A term's price: 10% off for a second child booked onto the term, and each after."""
        base = _seed.term_price(stage)
        return base - base * _seed.SIBLING_PERCENT // 100 if sibling else base

    def move_too_late(self, e: dict[str, Any]) -> bool:
        return int(e["term_week"]) > _seed.LAST_MOVE_WEEK

    def told_in_time(self, absence: dict[str, Any], e: dict[str, Any]) -> bool:
        """The school was told before the missed lesson started."""
        return str(absence["reported_at"]) < f"{absence['lesson_date']} {e['start_time']}"

    def refund_for(self, e: dict[str, Any]) -> int:
        """The lessons left back, less the admin fee, when told before week 3; else nothing."""
        if int(e["term_week"]) >= _seed.REFUND_BEFORE_WEEK:
            return 0
        left = len(e["lessons_left"])
        return max(0, int(e["price_pence"]) * left // _seed.WEEKS - _seed.ADMIN_FEE)

    # -- booking a term --------------------------------------------------------------------
    async def step_book(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        kid = self.child_of(v, text)
        if kid is None:
            return self.ask_child(out)
        if any(e["term_id"] == "SP2" for e in kid["enrolments"]):
            out.append(f"{kid['name']} is already booked for the Spring 2 term.")
            return "done"
        stage = int(kid["stage"])
        note = ""
        if any(n != stage for n in rd.stages(text)):
            note = (f"A move up a stage is only by the teacher's assessment, so I can only book "
                    f"{kid['name']} at Stage {stage}, the stage {kid['name']} is at now. ")
        options = await self.classes(stage, "SP2")
        open_ = [c for c in options if c["places_left"] > 0]
        days = rd.weekdays(text)
        wanted = rd.last_first(days, options)
        if wanted and wanted[0]["places_left"] <= 0:
            others = [c for c in open_ if c not in wanted]
            c = wanted[0]
            full = (f"{note}I'm sorry — the Stage {stage} class on {c['day']}s at "
                    f"{c['start_time']} next term is full.")  # fmt: skip
            if not others or ONLY_DAY.search(self.said_all(req)):
                out.append(f"{full} As you said only {c['day']} works, I haven't booked "
                           "anything." if others else f"{full} I haven't booked anything.")
                return "done"
            return self.ask("class_day", f"{full} There are places on "
                            f"{' and '.join(self.say_class(o) for o in others)} — would one of "
                            "those suit?", out)  # fmt: skip
        if wanted:
            chosen = wanted[0]
        elif len(open_) == 1:
            chosen = open_[0]
        elif not open_:
            out.append(f"I'm sorry — every Stage {stage} class next term is full. Nothing has "
                       "been booked.")  # fmt: skip
            return "done"
        else:
            return self.ask("class_day", f"Which class would suit {kid['name']} next term? "
                            f"Stage {stage} runs on "
                            f"{' and on '.join(self.say_class(c) for c in open_)}, and both have "
                            "places.", out)  # fmt: skip
        sibling = any(
            e["term_id"] == "SP2" for k in v["children"] if k["child_id"] != kid["child_id"]
            for e in k["enrolments"]
        )  # fmt: skip
        price = self.price_for(stage, sibling)
        full_price = _seed.term_price(stage)
        cost = (f"The term is {rd.pounds(full_price)}, less 10% as a second child booked this "
                f"term: {rd.pounds(price)}" if sibling else f"The term is {rd.pounds(price)}")
        return self.propose(
            req, out,
            f"{note}To book {kid['name']} onto Stage {stage} for the Spring 2 term: "
            f"{self.say_class(chosen)}, 8 weekly lessons. {cost}, charged now to your card "
            f"ending {v['card_last4']}. Shall I book it?",
            [("book_term", {"account_id": v["account_id"], "child_id": kid["child_id"],
                            "class_id": chosen["class_id"], "price_pence": price})],
        )  # fmt: skip

    # -- moving class ----------------------------------------------------------------------
    async def step_move(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        kid = self.child_of(v, text)
        if kid is None:
            return self.ask_child(out)
        e = self.enrolment_of(kid, text, "latest")
        if e is None:
            out.append(f"I can't see {kid['name']} booked into a class for that term.")
            return "done"
        if self.move_too_late(e):
            out.append(f"I'm sorry — a move to another class can't be made after week 4 of the "
                       f"term, and {e['term']} is in week {e['term_week']}. Nothing has been "
                       f"changed. {kid['name']} can be booked into another class for next "
                       "term.")  # fmt: skip
            return "done"
        others = [c for c in await self.classes(int(e["stage"]), e["term_id"])
                  if c["class_id"] != e["class_id"]]  # fmt: skip
        days = [d for d in rd.weekdays(text) if d != e["weekday"]]
        wanted = rd.last_first(days, others)
        if wanted:
            target = wanted[0]
        elif len(others) == 1:
            target = others[0]
        else:
            return self.ask("class_day", "Which class would you like to move to?", out)
        if target["places_left"] <= 0:
            out.append(f"I'm sorry — the {self.say_class(target)} class is full for "
                       f"{e['term']}, so I haven't moved {kid['name']}.")  # fmt: skip
            return "done"
        return self.propose(
            req, out,
            f"To move {kid['name']} from {e['day']}s at {e['start_time']} to "
            f"{self.say_class(target)} (Stage {e['stage']}, {e['term']}), from the next "
            "lesson. There's no charge. Shall I move "
            f"{kid['name']}?",
            [("move_class", {"account_id": v["account_id"], "enrolment_id": e["enrolment_id"],
                             "class_id": target["class_id"]})],
        )  # fmt: skip

    # -- make-up lessons -------------------------------------------------------------------
    def makeup_problem(self, kid: dict[str, Any], e: dict[str, Any],
                       absence: dict[str, Any]) -> str | None:  # fmt: skip
        """Why the missed lesson can't be made up, or None."""
        day = rd.say_day(absence["lesson_date"])
        if absence["reason"] != "illness":
            return (f"make-up lessons are only for a lesson missed through illness, and "
                    f"{kid['name']}'s lesson on {day} was missed for a {absence['reason']}")
        used = [m for m in kid["makeups"] if m["enrolment_id"] == e["enrolment_id"]]
        if len(used) >= _seed.MAX_MAKEUPS:
            return (f"{kid['name']} has already had {_seed.MAX_MAKEUPS} make-up lessons this "
                    "term, the most we can give")  # fmt: skip
        if not self.told_in_time(absence, e):
            return (f"make-ups are only for a lesson we were told about before it started, and "
                    f"we heard about {kid['name']}'s lesson on {day} at "
                    f"{absence['reported_at'][-5:]}, after its {e['start_time']} start")
        return None

    async def step_makeup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        kid = self.child_of(v, text)
        if kid is None:
            return self.ask_child(out)
        e = next((x for x in kid["enrolments"] if x["term_id"] == "SP1"), None)
        if e is None:
            out.append(f"{kid['name']} has no lessons this term, so there's nothing to make up.")
            return "done"
        said = rd.dates(text, self.today)
        past = [d.isoformat() for d in said if d < self.today]
        future = [d.isoformat() for d in said if d >= self.today]
        made_up = {m["absence_id"] for m in kid["makeups"]}
        mine = [a for a in kid["absences"] if a["enrolment_id"] == e["enrolment_id"]]
        if past:
            absence = next((a for a in mine if a["lesson_date"] == past[-1]), None)
            if absence is None:
                out.append(f"I can't see a missed lesson recorded for {kid['name']} on "
                           f"{rd.say_day(past[-1])}, so I can't book a make-up for it.")
                return "done"
        else:
            open_ = [a for a in mine if a["absence_id"] not in made_up]
            if len(open_) != 1:
                if not open_:
                    out.append(f"I can't see a missed lesson for {kid['name']} this term that "
                               "hasn't been made up already.")  # fmt: skip
                    return "done"
                return self.ask("missed_date", f"Which lesson did {kid['name']} miss?", out)
            absence = open_[0]
        if absence["absence_id"] in made_up:
            out.append(f"A make-up is already booked for {kid['name']}'s lesson on "
                       f"{rd.say_day(absence['lesson_date'])}.")  # fmt: skip
            return "done"
        why = self.makeup_problem(kid, e, absence)
        if why:
            out.append(f"I'm sorry — {why}. I haven't booked anything.")
            return "done"
        others = [c for c in await self.classes(int(e["stage"]), "SP1")
                  if c["class_id"] != e["class_id"]]  # fmt: skip
        slots = sorted(((d, c["start_time"], c) for c in others for d in c["lessons"]
                        if c["places_left"] > 0 or d in future), key=lambda x: x[:2])  # fmt: skip
        days = rd.weekdays(re.sub(rd.DATE_RE, " ", text))
        if future:
            slots = [x for x in slots if x[0] in future]
        elif days:
            slots = [x for x in slots if x[2]["weekday"] in days]
        if not slots:
            out.append(f"I'm sorry — there's no other Stage {e['stage']} lesson with a place "
                       "then, so I haven't booked anything.")  # fmt: skip
            return "done"
        day, _, c = slots[0]
        used = len([m for m in kid["makeups"] if m["enrolment_id"] == e["enrolment_id"]])
        return self.propose(
            req, out,
            f"To book {kid['name']} a make-up for the lesson missed on "
            f"{rd.say_day(absence['lesson_date'])}: {rd.say_day(day)} at {c['start_time']} with "
            f"{c['teacher']} (Stage {e['stage']}). Make-ups are free; this is the "
            f"{ordinal(used + 1)} of the {_seed.MAX_MAKEUPS} allowed this term. Shall I book it?",
            [("book_makeup", {"account_id": v["account_id"], "enrolment_id": e["enrolment_id"],
                              "missed_date": absence["lesson_date"], "class_id": c["class_id"],
                              "lesson_date": day})],
        )  # fmt: skip

    # -- assessments and moving up -----------------------------------------------------------
    async def step_assess(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        kid = self.child_of(v, self.text(req))
        if kid is None:
            return self.ask_child(out)
        e = next((x for x in kid["enrolments"] if x["term_id"] == "SP1"), None)
        if e is None:
            out.append(f"Assessments are made in a child's own lessons, and {kid['name']} has "
                       "none this term.")  # fmt: skip
            return "done"
        if any(a["enrolment_id"] == e["enrolment_id"] for a in kid["assessments"]):
            out.append(f"An assessment is already requested for {kid['name']} this term.")
            return "done"
        if not _seed.ASSESS_FROM_WEEK <= int(e["term_week"]) <= _seed.WEEKS:
            out.append(f"Assessments are only in the last two weeks of term, and {e['term']} "
                       f"is in week {e['term_week']}. Nothing has been requested.")  # fmt: skip
            return "done"
        when = " or ".join(rd.say_day(d) for d in e["lessons_left"])
        return self.propose(
            req, out,
            f"To ask {kid['name']}'s teacher, {e['teacher']}, for a stage assessment in a lesson "
            f"in the last two weeks of this term ({when}). It's free; if the teacher finds "
            f"{kid['name']} ready, the move up follows. Shall I request it?",
            [("request_assessment", {"account_id": v["account_id"],
                                     "enrolment_id": e["enrolment_id"]})],
        )  # fmt: skip

    async def step_moveup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        kid = self.child_of(v, self.text(req))
        if kid is None:
            return self.ask_child(out)
        out.append(f"A move up a stage is only by the teacher's assessment, never on request, so "
                   f"I can't move {kid['name']} up myself — {kid['name']} stays at Stage "
                   f"{kid['stage']} until the teacher says so.")  # fmt: skip
        return await self.step_assess(req, out)

    # -- withdrawing -----------------------------------------------------------------------
    async def step_withdraw(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        kid = self.child_of(v, text)
        if kid is None:
            return self.ask_child(out)
        e = self.enrolment_of(kid, text, "latest")
        if e is None:
            out.append(f"I can't see {kid['name']} booked for that term.")
            return "done"
        refund = self.refund_for(e)
        if refund:
            left = len(e["lessons_left"])
            what = (f"as it's before week 3, the {left} lessons left are refunded, "
                    f"{rd.pounds(refund + _seed.ADMIN_FEE)}, less the "
                    f"{rd.pounds(_seed.ADMIN_FEE)} admin fee: {rd.pounds(refund)} back to your "
                    f"card ending {v['card_last4']}")  # fmt: skip
        else:
            what = (f"{e['term']} is in week {e['term_week']}, so there's no refund for the "
                    "lessons left")  # fmt: skip
        return self.propose(
            req, out,
            f"To withdraw {kid['name']} from Stage {e['stage']}, {e['day']}s at "
            f"{e['start_time']}, for the {e['term']} term: {what}. Shall I withdraw "
            f"{kid['name']}?",
            [("withdraw_child", {"account_id": v["account_id"], "enrolment_id": e["enrolment_id"],
                                 "refund_pence": refund})],
        )  # fmt: skip

    # -- medical notes, contacts, look-ups -----------------------------------------------------
    async def step_medical(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        kid = self.child_of(v, text)
        if kid is None:
            return self.ask_child(out)
        note = NOTE_LEAD.sub("", req["chunks"][0]).strip(" .")
        for extra in req["chunks"][1:]:
            if not re.fullmatch(r"\W*\w+\W*", extra):
                note = f"{note}. {extra.strip(' .')}" if note else extra.strip(" .")
        if len(note) < 8:
            return self.ask("note", f"What should the medical note for {kid['name']} say?", out)
        note = note[0].upper() + note[1:] + "."
        return self.propose(
            req, out,
            f"To add this medical note to {kid['name']}'s record, for the teachers at every "
            f'lesson: "{note}" Shall I add it?',
            [("add_medical_note", {"account_id": v["account_id"], "child_id": kid["child_id"],
                                   "note": note})],
        )  # fmt: skip

    async def step_contact(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        args: dict[str, Any] = {}
        if rd.phones(text):
            args["phone"] = rd.phones(text)[-1]
        if rd.emails(text):
            args["email"] = rd.emails(text)[-1]
        if not args:
            if re.search(r"e-?mail", text, re.I):
                return self.ask("email", "What's the new email address?", out)
            return self.ask("phone", "What's the new phone number?", out)
        what = " and ".join(f"your {'phone number' if k == 'phone' else 'email address'} to "
                            f"{val}" for k, val in args.items())  # fmt: skip
        return self.propose(
            req, out, f"To change {what}. Shall I update it?",
            [("update_contacts", {"account_id": v["account_id"], **args})],
        )  # fmt: skip

    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        kid = self.child_of(v, self.text(req))
        if kid is None:
            return self.ask_child(out)
        if not kid["enrolments"]:
            out.append(f"{kid['name']} isn't booked into a class at the moment.")
            return "done"
        for e in kid["enrolments"]:
            nxt = (f"; the next lesson is {rd.say_day(e['lessons_left'][0])} at "
                   f"{e['start_time']}" if e["lessons_left"] else "")  # fmt: skip
            out.append(f"For {e['term']}, {kid['name']} is in Stage {e['stage']} on "
                       f"{self.say_class(e)}{nxt}.")  # fmt: skip
        e = next((x for x in kid["enrolments"] if x["term_id"] == "SP1"), None)
        if e is not None:
            used = len([m for m in kid["makeups"] if m["enrolment_id"] == e["enrolment_id"]])
            left = _seed.MAX_MAKEUPS - used
            out.append(f"{kid['name']} has used {used} of the {_seed.MAX_MAKEUPS} make-up "
                       f"lessons this term, so {left} make-up lesson{'s' if left != 1 else ''} "
                       "left.")  # fmt: skip
        return "done"

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:
        """What the system returned, in the parent's words."""
        if intent == "book":
            return (f"Done — {r['child']} is booked onto Stage {r['stage']} for {r['term']}, "
                    f"{r['day']}s at {r['start_time']} ({r['enrolment_id']}); {r['price']} "
                    f"charged to your card ending {r['card_last4']}.")  # fmt: skip
        if intent == "move":
            return (f"Done — {r['child']} is now in the {r['day']} {r['start_time']} class with "
                    f"{r['teacher']} for {r['term']}.")  # fmt: skip
        if intent == "makeup":
            return (f"Done — {r['child']}'s make-up is booked for {rd.say_day(r['lesson_date'])} "
                    f"at {r['start_time']} with {r['teacher']}.")  # fmt: skip
        if intent in {"assess", "moveup"}:
            return f"Done — a stage assessment is requested for {r['child']}."
        if intent == "withdraw":
            back = (f"{r['refunded']} refunded to your card ending {r['card_last4']}"
                    if r["refunded"] != "£0.00" else "no refund")  # fmt: skip
            return f"Done — {r['child']} is withdrawn ({r['enrolment_id']}); {back}."
        if intent == "medical":
            return f"Done — the medical note is on {r['child']}'s record."
        asked = self.s.get("last_args") or {"phone": 1, "email": 1}
        parts = [f"your {'phone number' if k == 'phone' else 'email address'} is now {r[k]}"
                 for k in ("phone", "email") if k in asked]  # fmt: skip
        return f"Done — {' and '.join(parts)}."

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
