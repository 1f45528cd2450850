"""The desk agent's task handlers: what each request needs, the proposal, and the report."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any

from benchmarks.domains.gym import _lang as lang
from benchmarks.domains.gym import _rules as rules
from benchmarks.domains.gym._desk import DeskBase, fmt_date, fmt_when, money
from vistasim.env import ToolFailure

CLUB_NAMES = {"camden": "Pulse Camden", "shoreditch": "Pulse Shoreditch",
              "islington": "Pulse Islington"}
MEDICAL = re.compile(r"\b(medical|injur\w*|surgery|operation|doctor|gp|ill|illness|health|"
                     r"pregnan\w*|condition|knee|back|hospital)\b", re.I)


def _set(task: dict[str, Any], key: str, value: Any) -> bool:
    if value is None or value == [] or task.get(key) == value:
        return False
    task[key] = value
    return True


class TaskHandlers(DeskBase):
    """Fill, handle and execute for every kind of request."""

    def fill(self, task: dict[str, Any], text: str) -> bool:
        kind, changed = task["kind"], False
        days = [d.isoformat() for d in lang.dates(text, self.today)]
        if kind in ("book", "cancel_booking", "timetable"):
            changed |= _set(task, "date", days[0] if days else None)
            changed |= _set(task, "time", list(lang.times(text)[0]) if lang.times(text) else None)
            changed |= _set(task, "name", (lang.class_names(text) or [None])[0])
            changed |= _set(task, "club", lang.club(text))
            ids = lang.BOOKING_ID.findall(text)
            changed |= _set(task, "booking_id", ids[0].upper() if ids else None)
        elif kind == "change_plan":
            found = lang.plans(text)
            target = re.search(r"\b(?:to|onto|on to|for|the)\s+(?:the\s+)?(off-?\s?peak|standard|"
                               r"premium)", text, re.I)
            if target:
                found = lang.plans(target[1])
            changed |= _set(task, "plan", found[-1] if found else None)
        elif kind == "freeze":
            changed |= _set(task, "start_date", days[0] if days else None)
            changed |= _set(task, "months", lang.months(text))
        elif kind == "cancel_membership" and MEDICAL.search(text):
            changed |= _set(task, "medical", True)
        elif kind == "guest_pass":
            changed |= _set(task, "date", days[0] if days else None)
            changed |= _set(task, "guest", lang.guest_name(text, self.s["asked"] == "guest"))
        elif kind == "card":
            last4, expiry = lang.card(lang.EMAIL.sub(" ", text))
            changed |= _set(task, "last4", last4)
            changed |= _set(task, "expiry", expiry)
        elif kind == "contact":
            old = (self.s.get("acct") or {}).get("email") or self.s["creds"].get("email")
            new = [e for e in lang.emails(text) if e != old]
            changed |= _set(task, "email", new[-1] if new else None)
            changed |= _set(task, "phone", lang.phone(text))
        return changed

    async def acct(self) -> dict[str, Any]:
        if not self.s.get("acct"):
            self.s["acct"] = await self.account()
        return self.s["acct"]

    async def handle(self, task: dict[str, Any]) -> tuple[str, bool]:
        return await getattr(self, f"h_{task['kind']}")(task)

    async def execute(self, task: dict[str, Any], pending: dict[str, Any]) -> str:
        self.s["acct"] = None
        return await getattr(self, f"x_{task['kind']}")(task, pending)

    def ask(self, slot: str, text: str) -> tuple[str, bool]:
        self.s["asked"] = slot
        return text, False

    # -- classes -----------------------------------------------------------------------------
    async def _day_classes(self, club: str, day: str) -> list[dict[str, Any]]:
        result, error = await self.call("list_classes", club_id=club, date=day)
        return [] if error else result

    @staticmethod
    def _fits(cls: dict[str, Any], task: dict[str, Any]) -> bool:
        if task.get("name") and cls["name"] != task["name"]:
            return False
        if task.get("time"):
            hour, minute, ampm = task["time"]
            start = datetime.fromisoformat(cls["starts_at"])
            hours = {hour + 12} if ampm == "pm" and hour < 12 else {hour}
            if ampm is None and hour < 12:
                hours.add(hour + 12)
            return start.hour in hours and start.minute == minute
        return True

    @staticmethod
    def _listing(classes: list[dict[str, Any]]) -> str:
        return "; ".join(f"{c['name']} at {c['starts_at'][11:]} ({c['spaces_left']} spaces)"
                         for c in classes)

    async def h_timetable(self, task: dict[str, Any]) -> tuple[str, bool]:
        club = task.get("club") or (await self.acct()).get("home_club") if self.s["member"] \
            else task.get("club")
        if not club:
            return self.ask("club", "Which club: Camden, Shoreditch or Islington?")
        day = task.get("date") or self.today.isoformat()
        classes = await self._day_classes(club, day)
        return f"Classes at {CLUB_NAMES[club]} on {fmt_date(day)}: {self._listing(classes)}.", True

    async def h_book(self, task: dict[str, Any]) -> tuple[str, bool]:
        acct = await self.acct()
        club = task.get("club") or acct["home_club"]
        if not task.get("date"):
            return self.ask("date", "Which day would you like to book, and which class or time?")
        classes = [c for c in await self._day_classes(club, task["date"])
                   if c["starts_at"] > self.env.now().strftime("%Y-%m-%d %H:%M")]
        where = f"{CLUB_NAMES[club]} on {fmt_date(task['date'])}"
        if not classes:
            task.pop("date")
            return self.ask("date", f"There are no more classes at {where}. Which other day?")
        if not task.get("name") and not task.get("time"):
            return self.ask("class", f"Classes at {where}: {self._listing(classes)}. "
                                     "Which would you like?")
        matches = [c for c in classes if self._fits(c, task)]
        if len(matches) != 1:
            task.pop("time", None)
            task.pop("name", None)
            lead = "Which of these" if matches else "I can't find that class. Classes"
            shown = matches or classes
            return self.ask("class", f"{lead} at {where}: {self._listing(shown)}. Which would "
                                     "you like?")
        cls = matches[0]
        if cls["spaces_left"] <= 0:
            return await self._offer_instead(task, cls, club, classes, "is full")
        if acct["plan_id"] == "offpeak" and rules.is_peak(datetime.fromisoformat(cls["starts_at"])):
            return await self._offer_instead(task, cls, club, classes, "is at peak time, and the "
                                             "Off-Peak plan covers classes starting before 16:00 "
                                             "on weekdays and any time at weekends")
        return self.propose(task, f"I can book you on {cls['name']} at {CLUB_NAMES[club]} on "
                                  f"{fmt_when(cls['starts_at'])} ({cls['minutes']} minutes, "
                                  f"{cls['spaces_left']} spaces left). Shall I book it?", cls=cls)

    async def _offer_instead(self, task, cls, club, classes, why) -> tuple[str, bool]:
        acct = await self.acct()
        ok = [c for c in classes if c["spaces_left"] > 0 and c["class_id"] != cls["class_id"] and
              not (acct["plan_id"] == "offpeak" and
                   rules.is_peak(datetime.fromisoformat(c["starts_at"])))]
        if not ok:
            for offset in range(1, 8):
                day = (date.fromisoformat(task["date"]) + timedelta(days=offset)).isoformat()
                ok = [c for c in await self._day_classes(club, day)
                      if c["name"] == cls["name"] and c["spaces_left"] > 0]
                if ok:
                    break
        head = f"Sorry, I can't book {cls['name']} on {fmt_when(cls['starts_at'])}: it {why}."
        if not ok:
            return f"{head} I couldn't find another class with space nearby.", True
        alt = min(ok, key=lambda c: (c["name"] != cls["name"], abs(
            datetime.fromisoformat(c["starts_at"]) - datetime.fromisoformat(cls["starts_at"]))))
        task.update(date=alt["starts_at"][:10], name=alt["name"],
                    time=[int(alt["starts_at"][11:13]), int(alt["starts_at"][14:]), None])
        return self.propose(task, f"{head} The nearest alternative is {alt['name']} on "
                                  f"{fmt_when(alt['starts_at'])} ({alt['spaces_left']} spaces). "
                                  "Would you like me to book that instead?", cls=alt)

    async def x_book(self, task: dict[str, Any], pending: dict[str, Any]) -> str:
        cls = pending["cls"]
        result, error = await self.call("book_class", member_id=self.s["member"],
                                        class_id=cls["class_id"])
        self.finish_task()
        if error:
            return await self.book_failed(task, cls, error)
        return self.booked_text(result)

    def booked_text(self, result: dict[str, Any]) -> str:
        return (f"You're booked on {result['name']} at {CLUB_NAMES[result['club_id']]} on "
                f"{fmt_when(result['starts_at'])}. Your booking reference is "
                f"{result['booking_id']}.")

    async def book_failed(self, task: dict[str, Any], cls: dict[str, Any], error: str) -> str:
        if "3 upcoming" in error:
            mine, _ = await self.call("get_bookings", member_id=self.s["member"])
            self.s["suspended"] = {**task, "kind": "book"}
            listed = "; ".join(f"{b['name']} on {fmt_when(b['starts_at'])} ({b['booking_id']})"
                               for b in mine or [])
            return (f"I couldn't book {cls['name']}: you already have 3 upcoming bookings, the "
                    f"maximum ({listed}). If you cancel one of them, I can book this class.")
        return f"I'm sorry, I couldn't book {cls['name']}: {error}."

    async def h_cancel_booking(self, task: dict[str, Any]) -> tuple[str, bool]:
        mine, _ = await self.call("get_bookings", member_id=self.s["member"])
        if not mine:
            return "You don't have any upcoming bookings to cancel.", True
        probe = {"name": task.get("name"), "time": task.get("time")}
        matches = [b for b in mine if (not task.get("booking_id") or
                                       b["booking_id"] == task["booking_id"])
                   and (not task.get("date") or b["starts_at"][:10] == task["date"])
                   and self._fits(b, probe)]
        listed = "; ".join(f"{b['name']} on {fmt_when(b['starts_at'])} ({b['booking_id']})"
                           for b in (matches or mine))
        if len(matches) != 1:
            for key in ("booking_id", "date", "time", "name"):
                task.pop(key, None)
            lead = "Which booking should I cancel?" if matches else \
                "I can't find a booking like that."
            return self.ask("booking", f"{lead} Your upcoming bookings: {listed}.")
        b = matches[0]
        fee = rules.late_fee(datetime.fromisoformat(b["starts_at"]), self.env.now())
        note = (f"It starts within 2 hours, so there is a {money(fee)} late-cancellation fee."
                if fee else "There's no fee, as it's more than 2 hours away.")
        text = (f"Shall I cancel your {b['name']} at {CLUB_NAMES[b['club_id']]} on "
                f"{fmt_when(b['starts_at'])} (booking {b['booking_id']})? {note}")
        if not self.confirm_cancel(b, fee):
            return await self._do_cancel(b), True
        return self.propose(task, text, booking=b)

    def confirm_cancel(self, booking: dict[str, Any], fee: float) -> bool:
        return True

    async def x_cancel_booking(self, task: dict[str, Any], pending: dict[str, Any]) -> str:
        self.finish_task()
        return await self._do_cancel(pending["booking"])

    async def _do_cancel(self, b: dict[str, Any]) -> str:
        result, error = await self.call("cancel_booking", member_id=self.s["member"],
                                        booking_id=b["booking_id"])
        if error:
            return f"I'm sorry, I couldn't cancel that booking: {error}."
        fee = result["late_fee"]
        text = (f"Your {b['name']} on {fmt_when(b['starts_at'])} is cancelled. " +
                (f"A {money(fee)} late-cancellation fee has been charged." if fee else
                 "There was no fee."))
        held = self.s.get("suspended")
        if held:
            self.s["suspended"] = None
            self.s["tasks"].insert(0, held)
        return text

    # -- plans, freezes, cancellation --------------------------------------------------------
    async def h_change_plan(self, task: dict[str, Any]) -> tuple[str, bool]:
        if not task.get("plan"):
            return self.ask("plan", "Which plan would you like: Off-Peak (£25 a month), "
                                    "Standard (£35) or Premium (£50)?")
        quote, error = await self.call("quote_plan_change", member_id=self.s["member"],
                                       plan_id=task["plan"])
        if error:
            return f"I can't change your plan: {error}.", True
        if quote["kind"] == "upgrade":
            text = (f"Moving to {quote['plan']} starts today, with a prorated charge of "
                    f"{money(quote['charge_now'])} for the rest of this billing period, taken now; "
                    f"from {fmt_date(quote['next_billing_date'])} you'll pay "
                    f"{money(quote['new_monthly_fee'])} a month. Shall I go ahead?")
        else:
            text = (f"A move to {quote['plan']} ({money(quote['new_monthly_fee'])} a month) "
                    f"starts on your next billing date, {fmt_date(quote['effective_from'])}; "
                    "until then nothing changes and there's no charge now. Shall I go ahead?")
        return self.propose(task, text, quote=quote)

    async def x_change_plan(self, task: dict[str, Any], pending: dict[str, Any]) -> str:
        result, error = await self.call("change_plan", member_id=self.s["member"],
                                        plan_id=task["plan"])
        self.finish_task()
        if error:
            return f"I'm sorry, the plan change didn't go through: {error}."
        return self.plan_text(result)

    def plan_text(self, r: dict[str, Any]) -> str:
        if r["kind"] == "upgrade":
            return (f"Done: you're now on {r['plan']}. A prorated charge of "
                    f"{money(r['charge_now'])} has been taken today, and from "
                    f"{fmt_date(r['next_billing_date'])} you'll pay "
                    f"{money(r['new_monthly_fee'])} a month.")
        return (f"Done: your plan changes to {r['plan']} from {fmt_date(r['effective_from'])}; "
                "you keep your current plan until then and there's no charge now.")

    async def h_freeze(self, task: dict[str, Any]) -> tuple[str, bool]:
        if not task.get("start_date") or not task.get("months"):
            return self.ask("freeze", "From what date would you like the freeze to start, and "
                                      "for how many months (1 to 3)?")
        start = date.fromisoformat(task["start_date"])
        try:
            end, fee = rules.check_freeze(await self.acct(), start, task["months"], self.today)
        except ToolFailure as refusal:
            found = re.search(r"frozen from (\d{4}-\d{2}-\d{2})", str(refusal))
            if not found:
                task.pop("months" if "month" in str(refusal) else "start_date")
                return self.ask("freeze", f"I can't set that freeze: {refusal}. What would you "
                                          "like instead?")
            task["start_date"] = found[1]
            return self.propose(task, f"I can't freeze it from {fmt_date(start)}: annual "
                                      f"contracts can't be frozen in their first 3 months. The "
                                      f"earliest start is {fmt_date(found[1])}. Would you like "
                                      "me to set the freeze up from then instead?", alt=True)
        return self.propose(task, f"A {task['months']}-month freeze from {fmt_date(start)} to "
                                  f"{fmt_date(end)} costs {money(fee)} (£5 a month), charged "
                                  "now. Shall I set it up?")

    async def x_freeze(self, task: dict[str, Any], pending: dict[str, Any]) -> str:
        if pending.get("alt"):
            return (await self.h_freeze(task))[0]
        result, error = await self.call("freeze_membership", member_id=self.s["member"],
                                        start_date=task["start_date"], months=task["months"])
        self.finish_task()
        if error:
            return f"I'm sorry, I couldn't set up the freeze: {error}."
        return (f"Your membership is frozen from {fmt_date(result['start_date'])} to "
                f"{fmt_date(result['end_date'])}. The {money(result['fee'])} fee has been "
                "charged to your card.")

    async def h_cancel_membership(self, task: dict[str, Any]) -> tuple[str, bool]:
        q, error = await self.call("quote_cancellation", member_id=self.s["member"],
                                   medical_reason=bool(task.get("medical")))
        if error:
            return f"I can't cancel the membership: {error}.", True
        if q["remaining_months"] and "medical" not in task:
            return self.propose(task, "You're on an annual contract, so leaving early means "
                                      f"paying the remaining {q['remaining_months']} months "
                                      f"({money(q['exit_charge'])}), unless you're leaving for "
                                      "a medical reason. Is it for a medical reason?",
                                question="medical")
        if q["exit_charge"]:
            money_note = (f"The remaining {q['remaining_months']} months of your contract, "
                          f"{money(q['exit_charge'])}, will be charged now.")
        elif q["medical_waiver"]:
            money_note = "The charge for the rest of your annual contract is waived on medical " \
                         "grounds."
        else:
            money_note = "There's nothing more to pay beyond your normal fee until then."
        return self.propose(task, f"Cancelling needs one month's notice, so your membership "
                                  f"would end on {fmt_date(q['end_date'])}. {money_note} Do you "
                                  "accept the notice period, and shall I cancel?")

    async def x_cancel_membership(self, task: dict[str, Any], pending: dict[str, Any]) -> str:
        result, error = await self.call("cancel_membership", member_id=self.s["member"],
                                        accept_notice=True,
                                        medical_reason=bool(task.get("medical")))
        self.finish_task()
        if error:
            return f"I'm sorry, I couldn't cancel the membership: {error}."
        charge = (f" The {money(result['exit_charge'])} for the rest of the contract has been "
                  "charged." if result["exit_charge"] else "")
        return (f"Your membership is cancelled and ends on {fmt_date(result['end_date'])}."
                f"{charge}")
