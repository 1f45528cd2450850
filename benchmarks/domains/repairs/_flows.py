"""The desk's flows: repairs, appointments, access, vulnerability, damp, complaints, look-ups."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from benchmarks.domains.repairs import _read as rd
from benchmarks.domains.repairs import _seed

PROBLEMS = {p.key: p for p in rd.PROBLEMS}
TRADE_WORDS = {
    "plumbing": r"\bplumb|\btap\b|\bsink\b|\bbath\b|\btoilet\b|\bleak|\bpipe",
    "electrical": r"\belectric|\bsocket|\blight\b|\bswitch",
    "joinery": r"\bjoiner|\bcarpenter|\bdoor\b|\bcupboard|\block",
    "heating": r"\bheating\b|\bboiler|\bgas engineer|\bradiator",
    "glazing": r"\bglaz|\bwindow",
}
PRIORITY_WORDS = {
    "emergency": "an emergency repair: we attend within 24 hours",
    "urgent": "an urgent repair: we attend within 5 working days",
    "routine": "a routine repair: we attend within 28 days",
}
VULNERABLE_NAMES = {
    "age": "someone over 75 or frail",
    "disability": "a disability",
    "health": "a serious health condition",
    "young_child": "a young child",
}
CHANGERS = {"tenant", "representative"}


def hours(window: str) -> str:
    return "–".join(_seed.WINDOWS[window])


PARTS = {"AM": "morning", "PM": "afternoon", "EM": "emergency visit"}


def say_slot(day: str, window: str) -> str:
    return f"{rd.say_day(day)}, {hours(window)} ({PARTS[window]})"


class Flows:
    """The flows; `CorrectRepairsAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]
    today: date
    call: Any
    ask: Any
    propose: Any

    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_tenancy", tenancy_ref=self.s["tenancy"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    def goal_text(self, req: dict[str, Any]) -> str:
        """The request and every message of the chat: a condition may be its own sentence."""
        return " ".join([self.text(req), *self.s.get("said", [])])

    def may_change(self, what: str, out: list[str]) -> bool:
        """Hook: only the named tenant or a registered representative changes things."""
        if self.s["role"] in CHANGERS:
            return True
        out.append(f"I'm sorry — only the named tenant or a registered representative can "
                   f"{what}. I haven't changed anything; the tenant can contact us, or register "
                   "you as their representative.")  # fmt: skip
        return False

    def pick_repair(self, v: dict[str, Any], text: str) -> dict[str, Any] | None:
        """The repair meant: by number, by its trade's words, or the only one booked."""
        ids = rd.repairs(text)
        named = [r for r in v["repairs"] if r["repair_id"] in ids]
        if not named:
            named = [r for r in v["repairs"] if re.search(TRADE_WORDS[r["trade"]], text, re.I)]
        if not named and len(v["repairs"]) == 1:
            named = v["repairs"]
        return named[0] if named else None

    def no_repair(self, out: list[str]) -> str:
        out.append("I can't find a booked repair appointment that matches that on your tenancy.")
        return "done"

    @staticmethod
    def say_repair(r: dict[str, Any]) -> str:
        return (f"your {r['trade']} appointment {r['repair_id']} ({r['problem']}) on "
                f"{say_slot(r['day'], r['window'])}")  # fmt: skip

    def free_only(self, req: dict[str, Any], fee: int, what: str, out: list[str]) -> bool:
        """The goal said to go ahead only if free: a charge ends the request, nothing booked."""
        if fee and rd.FREE_ONLY.search(self.goal_text(req)):
            out.append(f"{what} would be rechargeable at {rd.pounds(fee)}, and you said you'd "
                       "rather not go ahead if there was a charge, so I haven't booked anything. "
                       "If you use your own tradesperson, please make sure they're qualified "
                       "and keep the receipt.")  # fmt: skip
            return True
        return False

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def priority_for(self, problem: rd.Problem, v: dict[str, Any]) -> str:
        """Loss of heating or hot water is an emergency for a household with a vulnerability."""
        if problem.key in {"no_heating", "no_hot_water"} and v["vulnerability"]:
            return "emergency"
        return problem.priority

    def recharge_quote(self, item: str) -> int:
        """The price list's figure: VAT is already included."""
        return _seed.RECHARGES[item][1]

    def working_days_after(self, day: date, count: int) -> date:
        return _seed.add_working_days(day, count)

    def last_day(self, priority: str) -> date:
        if priority == "emergency":
            return self.today + timedelta(days=1)
        if priority == "urgent":
            return self.working_days_after(self.today, _seed.URGENT_WORKING_DAYS)
        return self.today + timedelta(days=_seed.ROUTINE_DAYS)

    async def slot_for(self, trade: str, first: date, last: date, text: str,
                       emergency: bool) -> tuple[dict[str, Any] | None, str]:  # fmt: skip
        """The slot to offer: the day and part of day asked for, else the earliest free."""
        found, error = await self.call("find_slots", trade=trade, first_day=first.isoformat(),
                                       last_day=last.isoformat())  # fmt: skip
        slots = [] if error else found["slots"]
        if emergency:
            slots = [s for s in slots if s["window"] == "EM"] or slots[:1]
            return (slots[0] if slots else None), ""
        slots = [s for s in slots if s["window"] != "EM"]
        wanted = [d.isoformat() for d in rd.dates(text, self.today) if d > self.today]
        part = rd.window(text)
        if wanted:
            on_day = [s for s in slots if s["day"] == wanted[-1]]
            fit = [s for s in on_day if not part or s["window"] == part] or on_day
            if fit:
                return fit[0], ""
            note = f"There's no free slot on {rd.say_day(wanted[-1])}, so the nearest is this. "
            later = [s for s in slots if s["day"] >= wanted[-1]]
            return (later[0] if later else (slots[0] if slots else None)), note
        fit = [s for s in slots if not part or s["window"] == part] or slots
        return (fit[0] if fit else None), ""

    # -- reporting a repair ----------------------------------------------------------------
    async def step_repair(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        problem = PROBLEMS.get(req.get("key", "")) or next(iter(rd.problems(text)), None)
        if problem is None:
            return self.ask("problem", "What's the problem, and where in your home is it?", out)
        req["key"] = problem.key
        quote = self.recharge_quote(problem.recharge) if problem.recharge else 0
        if quote and not self.may_change("agree to a rechargeable repair", out):
            return "done"
        if self.free_only(req, quote, f"Repairing {problem.label}", out):
            return "done"
        priority = self.priority_for(problem, v)
        emergency = priority == "emergency"
        wish = f"{text} {req.get('context', '')}"
        slot, note = await self.slot_for(problem.trade, self.today, self.last_day(priority),
                                         wish, emergency)  # fmt: skip
        if slot is None:
            out.append(f"I'm sorry — I can't find a free {problem.trade} slot within the target "
                       "right now. I haven't booked anything; please call the repairs line on "
                       "01632 960 500.")  # fmt: skip
            return "done"
        raised = emergency and problem.priority != "emergency"
        why = (" As your household has a vulnerability noted, loss of heating or hot water is "
               "treated as an emergency." if raised else "")  # fmt: skip
        safety = (" Until then, please turn off the water at the stopcock if you can."
                  if problem.key == "leak_uncontained" else "")  # fmt: skip
        charge = ""
        if quote:
            pay_by = rd.say_day_year((self.today + timedelta(days=28)).isoformat())
            charge = (f" This repair is rechargeable, as the damage was caused in the household: "
                      f"{rd.pounds(quote)} (VAT included) for "
                      f"{_seed.RECHARGES[problem.recharge][0]}, added to your rent account and "
                      f"payable by {pay_by}.")  # fmt: skip
        return self.propose(
            req, out,
            f"{note}I'll report {problem.label} as {PRIORITY_WORDS[priority]}.{why} A "
            f"{problem.trade} contractor can come on {say_slot(slot['day'], slot['window'])}."
            f"{charge}{safety} Shall I book it?",
            [("report_repair", {"tenancy_ref": v["tenancy_ref"], "problem": problem.label,
                                "trade": problem.trade, "priority": priority,
                                "slot_id": slot["slot_id"], "reported_by": self.s["caller"],
                                "recharge_pence": quote})],
        )  # fmt: skip

    # -- moving and cancelling appointments ------------------------------------------------
    async def step_move(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        r = self.pick_repair(v, text)
        if r is None:
            return self.no_repair(out)
        if not self.may_change("move a repair appointment", out):
            return "done"
        new = [d for d in rd.dates(text, self.today)
               if d > self.today and d.isoformat() != r["day"]]  # fmt: skip
        if not new:
            return self.ask("new_date", f"Which day would you like instead of "
                            f"{rd.say_day(r['day'])}?", out)  # fmt: skip
        limit = self.today + timedelta(days=_seed.MAX_AHEAD_DAYS)
        if new[-1] > limit:
            out.append(f"I'm sorry — appointments can only be moved up to 28 days ahead, to "
                       f"{rd.say_day(limit.isoformat())} at the latest. Which day up to then "
                       "would suit you?")  # fmt: skip
            self.s["asked"] = "new_date"
            return "wait"
        # the same part of the day as before, unless another is said
        same = "morning" if r["window"] == "AM" else "afternoon"
        keep = text if rd.window(text) else f"{text} {same}"
        slot, note = await self.slot_for(r["trade"], new[-1], limit, keep, False)
        if slot is None:
            out.append(f"I'm sorry — there's no free {r['trade']} slot from that day. Nothing has "
                       "been changed.")  # fmt: skip
            return "done"
        return self.propose(
            req, out, f"{note}To move {self.say_repair(r)} to "
            f"{say_slot(slot['day'], slot['window'])}. Shall I move it?",
            [("reschedule_repair", {"tenancy_ref": v["tenancy_ref"], "repair_id": r["repair_id"],
                                    "slot_id": slot["slot_id"]})],
        )  # fmt: skip

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        r = self.pick_repair(v, self.text(req))
        if r is None:
            return self.no_repair(out)
        if not self.may_change("cancel a repair appointment", out):
            return "done"
        return self.propose(
            req, out, f"To cancel {self.say_repair(r)}; the repair will be closed. Shall I "
            "cancel it?",
            [("cancel_repair", {"tenancy_ref": v["tenancy_ref"], "repair_id": r["repair_id"]})],
        )  # fmt: skip

    # -- access, vulnerability, damp -------------------------------------------------------
    async def step_access(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if not self.may_change("change the access arrangements", out):
            return "done"
        numbers = rd.phones(self.text(req))
        if not numbers:
            return self.ask("call_ahead_phone", "Which number should contractors ring before "
                            "they arrive?", out)  # fmt: skip
        return self.propose(
            req, out, f"To add to your access arrangements: contractors will ring {numbers[-1]} "
            "before they arrive. Shall I save it?",
            [("update_access", {"tenancy_ref": v["tenancy_ref"], "call_ahead_phone": numbers[-1]})],
        )  # fmt: skip

    async def step_vulnerable(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if not self.may_change("change the notes on the tenancy", out):
            return "done"
        kind = rd.vulnerability(self.text(req))
        if kind is None:
            return self.ask("vulnerability", "What should the note say — a young child, a "
                            "disability, a serious health condition, or someone over 75?",
                            out)  # fmt: skip
        if kind in v["vulnerability"].split(","):
            out.append(f"That's already noted on your tenancy ({VULNERABLE_NAMES[kind]}).")
            return "done"
        return self.propose(
            req, out, f"To add a note to your tenancy that the household includes "
            f"{VULNERABLE_NAMES[kind]}, so repairs that affect you can be prioritised. Shall I "
            "add it?",
            [("add_vulnerability", {"tenancy_ref": v["tenancy_ref"], "kind": kind})],
        )  # fmt: skip

    async def step_damp(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        rooms = rd.rooms(text)
        if not rooms:
            return self.ask("rooms", "Which rooms are affected by the damp or mould?", out)
        last = self.working_days_after(self.today, _seed.DAMP_WORKING_DAYS)
        wish = f"{text} {req.get('context', '')}"
        slot, note = await self.slot_for("surveyor", self.today, last, wish, False)
        if slot is None:
            out.append("I'm sorry — I can't find a surveyor's slot in the next 10 working days. "
                       "Nothing is booked; please call 01632 960 500.")  # fmt: skip
            return "done"
        said = ", ".join(rooms)
        return self.propose(
            req, out, f"{note}To book a free damp and mould inspection by our surveyor for the "
            f"{' and '.join(rooms)} on {say_slot(slot['day'], slot['window'])}. Any work "
            "follows from the surveyor's report. Shall I book it?",
            [("book_inspection", {"tenancy_ref": v["tenancy_ref"], "slot_id": slot["slot_id"],
                                  "rooms": said})],
        )  # fmt: skip

    # -- complaints ------------------------------------------------------------------------
    async def step_complaint(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if not self.may_change("make a complaint for the tenancy", out):
            return "done"
        text = self.text(req).strip()
        about = re.sub(r"^(?:i'?d like to |i want to |can i |please )?(?:make |log |raise )?(?:a )?"
                       r"complaint(?: about)?:?\s*|^i(?:'m| am)? complain(?:ing)?(?: about)?\s*",
                       "", text, flags=re.I).strip(" .")  # fmt: skip
        if len(about.split()) < 3:
            return self.ask("complaint", "What is the complaint about?", out)
        respond_by = self.working_days_after(self.today, _seed.STAGE1_WORKING_DAYS).isoformat()
        return self.propose(
            req, out, f"To log a stage 1 complaint: \"{about}\". We'll respond in writing by "
            f"{rd.say_day_year(respond_by)} (10 working days). Shall I log it?",
            [("log_complaint", {"tenancy_ref": v["tenancy_ref"], "summary": about,
                                "respond_by": respond_by})],
        )  # fmt: skip

    async def step_escalate(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if not self.may_change("escalate a complaint", out):
            return "done"
        ids = rd.complaints(self.text(req))
        open_ = [c for c in v["complaints"] if c["status"] != "closed"]
        c = next((c for c in open_ if c["complaint_id"] in ids), None) or (
            open_[-1] if open_ else None)  # fmt: skip
        if c is None:
            out.append("I can't find an open complaint on your tenancy to escalate.")
            return "done"
        if c["stage"] == 2:
            out.append(f"Complaint {c['complaint_id']} is already at stage 2, with a response "
                       f"due by {rd.say_day_year(c['respond_by'])}. After that response you can "
                       "take it to the Housing Ombudsman.")  # fmt: skip
            return "done"
        if c["status"] == "open" and c["respond_by"] >= self.today.isoformat():
            out.append(f"Your stage 1 complaint {c['complaint_id']} is due a response by "
                       f"{rd.say_day_year(c['respond_by'])}. It can go to stage 2 once you've had "
                       "that response, or if that date passes without one — I haven't changed "
                       "anything.")  # fmt: skip
            return "done"
        respond_by = self.working_days_after(self.today, _seed.STAGE2_WORKING_DAYS).isoformat()
        return self.propose(
            req, out, f"To escalate complaint {c['complaint_id']} ({c['summary']}) to stage 2: a "
            f"senior manager reviews it and we'll respond in writing by "
            f"{rd.say_day_year(respond_by)} (20 working days, not counting bank holidays). "
            "Shall I escalate it?",
            [("escalate_complaint", {"tenancy_ref": v["tenancy_ref"],
                                     "complaint_id": c["complaint_id"],
                                     "respond_by": respond_by})],
        )  # fmt: skip

    # -- look-ups and other households -----------------------------------------------------
    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        wanted = [r for r in v["repairs"] if re.search(TRADE_WORDS[r["trade"]], text, re.I)]
        shown = wanted or v["repairs"]
        if not shown and not v["inspections"]:
            out.append("There are no repair appointments booked on your tenancy.")
            return "done"
        for r in shown:
            line = self.say_repair(r)
            out.append(f"{line[0].upper()}{line[1:]}.")
        if not wanted:
            for i in v["inspections"]:
                out.append(f"Your damp inspection {i['inspection_id']} is on "
                           f"{say_slot(i['day'], i['window'])}.")  # fmt: skip
        if v["call_ahead_phone"]:
            out.append(f"The contractor will ring {v['call_ahead_phone']} before arriving.")
        return "done"

    async def step_neighbour(self, req: dict[str, Any], out: list[str]) -> str:
        """Hook: another household's home or repairs are never discussed."""
        out.append("I'm sorry — I can't share anything about another household's home, repairs "
                   "or appointments. If water or damage is coming into your own home, I can "
                   "report that as a repair for you.")  # fmt: skip
        return "done"

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:
        """What the system returned, in the tenant's words."""
        if intent == "repair":
            charge = f"; {r['recharge']} recharge added to your rent account" if (
                r["recharge"] != "£0.00") else ""  # fmt: skip
            return (f"Done — repair {r['repair_id']} is booked ({r['priority']}): "
                    f"{r['trade']} on {say_slot(r['day'], r['window'])}{charge}.")  # fmt: skip
        if intent == "move":
            return (f"Done — appointment {r['repair_id']} is now on "
                    f"{say_slot(r['day'], r['window'])}.")  # fmt: skip
        if intent == "cancel":
            return f"Done — repair {r['repair_id']} is cancelled."
        if intent == "access":
            return f"Done — contractors will ring {r['call_ahead_phone']} before they arrive."
        if intent == "vulnerable":
            names = " and ".join(VULNERABLE_NAMES[k] for k in r["vulnerability"].split(",") if k)
            return f"Done — your tenancy now notes {names}."
        if intent == "damp":
            return (f"Done — damp inspection {r['inspection_id']} is booked for "
                    f"{say_slot(r['day'], r['window'])} ({r['rooms']}).")  # fmt: skip
        return (f"Done — complaint {r['complaint_id']} is at stage {r['stage']}; we'll respond "
                f"by {rd.say_day_year(r['respond_by'])}.")  # fmt: skip

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
        if "dispatched" in error:
            out.append("If you can't be in, please call the repairs line on 01632 960 500 as "
                       "soon as you can.")  # fmt: skip
