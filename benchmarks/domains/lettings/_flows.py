"""The desk's flows: repairs, rent day, notice, deposit, pets, occupiers, contacts, look-ups."""

from __future__ import annotations

import calendar
import re
from datetime import date, timedelta
from typing import Any

from benchmarks.domains.lettings import _read as rd
from benchmarks.domains.lettings import _seed
from benchmarks.domains.lettings._env import add_working_days

PET_WORDS = (
    ("cat", r"\bcats?\b|\bkittens?\b"),
    ("dog", r"\bdogs?\b|\bpupp(?:y|ies)\b"),
    ("rabbit", r"\brabbits?\b"),
    ("guinea pig", r"\bguinea pigs?\b"),
    ("hamster", r"\bhamsters?\b"),
    ("budgie", r"\bbudgies?\b"),
)
COUNT_WORDS = {"two": 2, "2": 2, "a pair of": 2, "both": 2, "three": 3, "3": 3}
NAME_STOP = {
    "my",
    "please",
    "hi",
    "hello",
    "harbour",
    "row",
    "lettings",
    "i",
    "the",
    "can",
    "could",
    "add",
    "he",
    "she",
    "they",
    "we",
    "thanks",
    "sorry",
    "yes",
    "it",
    "his",
    "her",
    "our",
    "is",
    "as",
    "a",
    "an",
    "and",
    "to",
    "would",
    "like",
    "permitted",
    "occupier",
    "hrl",
    "street",
    "road",
    "flat",
}
SELF_NAME = re.compile(
    r"\b(?:i'?m|i am|this is|my name is|it'?s)\s+([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)"
)


def add_month(day: date) -> date:
    """The same day a calendar month later (the month's last day when it is shorter)."""
    year, month = (day.year + 1, 1) if day.month == 12 else (day.year, day.month + 1)
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def period_end_on_or_after(day: date, rent_day: int) -> date:
    """The first last-day-of-a-rental-period on or after `day` (periods start on rent_day)."""
    probe = day
    while (probe + timedelta(days=1)).day != rent_day:
        probe += timedelta(days=1)
    return probe


def next_rent_date(today: date, rent_day: int) -> date:
    probe = today
    while probe.day != rent_day:
        probe += timedelta(days=1)
    return probe


class Flows:
    """The flows; `CorrectLettingsAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]
    today: date
    call: Any
    ask: Any
    propose: Any

    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_tenancy", tenancy_ref=self.s["account"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    # -- who is speaking (joint tenancies) ---------------------------------------------------
    def caller(self, v: dict[str, Any], req: dict[str, Any], out: list[str]) -> Any:
        """The tenant speaking: the only one, or named; otherwise a question ("wait")."""
        tenants = v["tenants"]
        if len(tenants) == 1:
            return tenants[0]
        said = " ".join(self.s.get("said", []))
        for tenant in tenants:
            first = tenant["name"].split()[0]
            if re.search(rf"\b{tenant['name']}\b", said, re.I) and not re.search(
                rf"\b(?:lead tenant|partner|housemate|flatmate)\W+(?:is\s+)?{tenant['name']}\b",
                said,
                re.I,
            ):
                return tenant
            if any(m.group(1).split()[0] == first for m in SELF_NAME.finditer(said)):
                return tenant
        answers = " ".join(req["chunks"][1:])
        for tenant in tenants:
            if re.search(rf"\b{tenant['name'].split()[0]}\b", answers, re.I):
                return tenant
        return self.ask(
            "tenant_name",
            "There's more than one tenant on this tenancy — which "
            "of you am I speaking to? Your full name, please.",
            out,
        )

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def attend_by(self, priority: str) -> str:
        """When a contractor attends by: 24 hours, or working days (bank holidays off)."""
        if priority == "emergency":
            return (self.s_now() + timedelta(hours=_seed.EMERGENCY_HOURS)).strftime(_seed.STAMP)
        days = _seed.URGENT_WORKING_DAYS if priority == "urgent" else _seed.ROUTINE_WORKING_DAYS
        return add_working_days(self.today, days).isoformat()

    def s_now(self) -> Any:
        return getattr(self, "now", _seed.NOW)

    def notice_end(self, v: dict[str, Any], wanted: date | None) -> date:
        """The end of a rental period at least a month away (and on or after the day wanted)."""
        earliest = add_month(self.today)
        return period_end_on_or_after(max(earliest, wanted or earliest), v["rent_day"])

    def rent_day_blocked(self, v: dict[str, Any]) -> str | None:
        """Why the rent day can't change now (changed in the last 12 months), or None."""
        last = v.get("rent_day_changed_on")
        if last and (self.today - date.fromisoformat(last)).days < _seed.RENT_DAY_GAP_DAYS:
            again = date.fromisoformat(last) + timedelta(days=_seed.RENT_DAY_GAP_DAYS)
            return (
                f"your rent day was last changed on {rd.say_day(last)}, and it can only "
                f"change once in 12 months — the next change can be made from "
                f"{rd.say_day(again.isoformat())}"
            )
        return None

    def pets_over_limit(self, v: dict[str, Any], adding: int) -> bool:
        return len(v["pets"]) + adding > _seed.MAX_PETS

    def may_see_deposit(self, tenant: dict[str, Any]) -> bool:
        return bool(tenant["lead"])

    # -- repairs ---------------------------------------------------------------------------
    async def step_repair(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        kind = rd.repair_kind(text)
        if kind is None:
            return self.ask(
                "issue",
                "What's the problem? Tell me what isn't working and where in the home.",
                out,
            )
        category, priority = kind
        when = self.attend_by(priority)
        window = {
            "emergency": "within 24 hours",
            "urgent": "within 3 working days",
            "routine": "within 20 working days",
        }[priority]
        advice = (
            " If water is coming through, turn it off at the stopcock and keep clear of "
            "any wet electrics."
            if category == "leak"
            else ""
        )
        issue = re.sub(r"\s+", " ", req["chunks"][0]).strip()[:200]
        return self.propose(
            req,
            out,
            f"I'll log this as {'an' if priority[0] in 'eu' else 'a'} {priority} repair "
            f"({category}): a contractor attends {window}, by {rd.say_day(when)}.{advice} "
            "Shall I log it?",
            [
                (
                    "report_repair",
                    {
                        "tenancy_ref": v["tenancy_ref"],
                        "issue": issue,
                        "category": category,
                        "priority": priority,
                        "attend_by": when,
                    },
                )
            ],
        )

    # -- rent day --------------------------------------------------------------------------
    async def step_rentday(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        why = self.rent_day_blocked(v)
        if why:
            out.append(
                f"I'm sorry — {why}. Nothing has been changed; your rent is still "
                f"collected on the {rd.ordinal(v['rent_day'])}."
            )
            return "done"
        days = rd.month_days(self.text(req))
        valid = [d for d in days if _seed.RENT_DAY_FIRST <= d <= _seed.RENT_DAY_LAST]
        if not valid:
            note = (
                "Rent can be collected on any day from the 1st to the 28th, so not the "
                f"{rd.ordinal(days[-1])}. "
                if days
                else ""
            )
            return self.ask(
                "new_day",
                f"{note}Which day of the month would you like your "
                "rent collected on, from the 1st to the 28th?",
                out,
            )
        new_day = valid[-1]
        if new_day == v["rent_day"]:
            out.append(
                f"Your rent is already collected on the {rd.ordinal(new_day)}, so "
                "there's nothing to change."
            )
            return "done"
        first = next_rent_date(self.today + timedelta(days=_seed.RENT_DAY_LEAD_DAYS), new_day)
        note = (
            "Rent can be collected on any day from the 1st to the 28th, so not the "
            f"{rd.ordinal(max(days))}. "
            if max(days) > _seed.RENT_DAY_LAST
            else ""
        )
        return self.propose(
            req,
            out,
            f"{note}To change your rent day from the {rd.ordinal(v['rent_day'])} to "
            f"the {rd.ordinal(new_day)}: the first payment on the new day is "
            f"{rd.say_day(first.isoformat())} ({rd.pounds(v['rent_pence'])}), as it must be at "
            "least 10 days away. The rent day can change only once in 12 months. Shall I "
            "change it?",
            [
                (
                    "change_rent_day",
                    {
                        "tenancy_ref": v["tenancy_ref"],
                        "new_day": new_day,
                        "first_payment": first.isoformat(),
                    },
                )
            ],
        )

    # -- notice ----------------------------------------------------------------------------
    async def step_notice(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if v["kind"] != "periodic":
            out.append(
                f"Your tenancy is a fixed term until {rd.say_day(v['fixed_end'])}, so "
                "it can't be ended by notice before then, and I haven't recorded any "
                f"notice. Your property manager can talk to you about options: {_seed.PHONE}."
            )
            return "done"
        if v["status"] == "notice_given" or v["notices"]:
            end = v["notices"][0]["end_date"] if v["notices"] else "the date already agreed"
            out.append(
                f"Notice has already been given on this tenancy: it ends on "
                f"{rd.say_day(end)}. Nothing has been changed."
            )
            return "done"
        wanted = [d for d in rd.dates(self.text(req), self.today) if d > self.today]
        end = self.notice_end(v, wanted[-1] if wanted else None)
        earliest = self.notice_end(v, None)
        why = (
            f"Your rental periods run from the {rd.ordinal(v['rent_day'])} of each month, and "
            "notice must be at least one month and end on the last day of a period"
        )
        if wanted and end != wanted[-1]:
            why += f", so the tenancy can't end on {rd.say_day(wanted[-1].isoformat())}"
        elif not wanted and end == earliest:
            why += ", so that's the earliest it can end"
        return self.propose(
            req,
            out,
            f"To record your notice to end the tenancy at {v['address']} on "
            f"{rd.say_day(end.isoformat())}. {why}. Rent is due up to and including that day. "
            "Shall I record it?",
            [("give_notice", {"tenancy_ref": v["tenancy_ref"], "end_date": end.isoformat()})],
        )

    # -- deposit ---------------------------------------------------------------------------
    async def step_deposit(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        tenant = self.caller(v, req, out)
        if tenant == "wait" or tenant == "done":
            return str(tenant)
        if not self.may_see_deposit(tenant):
            out.append(
                "I'm sorry — the deposit's details (the scheme protecting it and its "
                "reference) are only given to the lead tenant on the tenancy. The lead "
                "tenant can ask us, or pass them on to you."
            )
            return "done"
        d, error = await self.call("get_deposit", tenancy_ref=v["tenancy_ref"])
        if error:
            out.append(f"I'm sorry — I can't read the deposit just now ({error}).")
            return "done"
        out.append(
            f"Your deposit of {d['amount']} is protected by the {d['scheme']}; its "
            f"reference is {d['scheme_ref']}."
        )
        return "done"

    # -- pets ------------------------------------------------------------------------------
    async def step_pet(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        kind = next((k for k, pattern in PET_WORDS if re.search(pattern, text, re.I)), None)
        if kind is None:
            return self.ask("pet_kind", "What kind of pet would you like to keep?", out)
        count = next((n for w, n in COUNT_WORDS.items() if re.search(rf"\b{w}\b", text, re.I)), 1)
        if self.pets_over_limit(v, count):
            have = len(v["pets"])
            out.append(
                f"I'm sorry — a tenancy can never have more than two pets, and yours "
                f"already has {have} (permitted or waiting for consent), so I can't ask "
                "the landlord for another. Nothing has been sent."
            )
            return "done"
        each = _seed.PET_RENT_PENCE
        what = f"{count} {kind}s" if count > 1 else f"a {kind}"
        return self.propose(
            req,
            out,
            f"To ask your landlord for written consent to keep {what}. Please don't "
            "bring the pet home until the consent is in writing. If they agree, pet rent of "
            f"{rd.pounds(each)} a month for each pet is added to your rent (then "
            f"{rd.pounds(v['rent_pence'] + each * count)} a month). Shall I send the request?",
            [
                (
                    "request_pet",
                    {"tenancy_ref": v["tenancy_ref"], "kind": kind, "pet_rent_pence": each},
                )
            ]
            * count,
        )

    # -- permitted occupiers ---------------------------------------------------------------
    def occupier_name(self, v: dict[str, Any], text: str, asked: bool) -> str | None:
        tenants = {t["name"].lower() for t in v["tenants"]}
        pairs = re.findall(r"\b([A-Z][a-z'-]+)\s+([A-Z][a-z'-]+)\b", text)
        names = [
            f"{a} {b}"
            for a, b in pairs
            if a.lower() not in NAME_STOP
            and b.lower() not in NAME_STOP
            and f"{a} {b}".lower() not in tenants
        ]
        if names:
            return names[-1]
        words = re.findall(r"[A-Za-z'-]+", text)
        if asked and 2 <= len(words) <= 3:
            return " ".join(w.capitalize() for w in words)
        return None

    async def step_occupier(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        name = self.occupier_name(v, self.text(req), False) or self.occupier_name(
            v, " ".join(req["chunks"][1:]), True
        )
        if name is None:
            return self.ask(
                "occupier_name", "What's the full name of the person who'd live with you?", out
            )
        fee = _seed.OCCUPIER_FEE_PENCE
        return self.propose(
            req,
            out,
            f"To add {name} to your tenancy as a permitted occupier: this is a "
            f"tenancy variation, with a fee of {rd.pounds(fee)} (the most the law allows), and "
            "it needs your landlord's written consent — the system checks that it's on file. "
            "Shall I add them?",
            [("add_occupier", {"tenancy_ref": v["tenancy_ref"], "name": name, "fee_pence": fee})],
        )

    # -- contact details -------------------------------------------------------------------
    async def step_contact(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        tenant = self.caller(v, req, out)
        if tenant == "wait" or tenant == "done":
            return str(tenant)
        numbers, mails = rd.phones(text), rd.emails(text)
        if not numbers and not mails:
            if re.search(r"\be-?mail\b", text, re.I):
                return self.ask("email", "What's the new email address?", out)
            return self.ask("phone", "What's the new mobile number?", out)
        args: dict[str, Any] = {"tenancy_ref": v["tenancy_ref"], "tenant_id": tenant["tenant_id"]}
        parts = []
        if numbers:
            args["phone"] = numbers[-1]
            parts.append(f"your mobile number to {numbers[-1]}")
        if mails:
            args["email"] = mails[-1]
            parts.append(f"your email address to {mails[-1]}")
        return self.propose(
            req,
            out,
            f"To change {' and '.join(parts)}. Shall I update it?",
            [("update_contact_details", args)],
        )

    # -- look-ups --------------------------------------------------------------------------
    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        if re.search(r"\bengineer|\bplumber|\bcontractor|\bsomeone|\brepair", text, re.I):
            if not v["repairs"]:
                out.append("I can't see an open repair on your tenancy.")
            for r in v["repairs"]:
                out.append(
                    f"Repair {r['repair_id']} ({r['issue']}) is {r['priority']}: the "
                    f"contractor attends by {rd.say_day(r['attend_by'])}."
                )
            return "done"
        nxt = next_rent_date(self.today, v["rent_day"])
        out.append(
            f"Your rent is {rd.pounds(v['rent_pence'])} a month, collected on the "
            f"{rd.ordinal(v['rent_day'])}; the next payment is on "
            f"{rd.say_day(nxt.isoformat())}."
        )
        return "done"

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:
        """What the system returned, in the tenant's words."""
        if intent == "repair":
            return (
                f"Done — repair {r['repair_id']} is logged as {r['priority']}; a contractor "
                f"attends by {rd.say_day(r['attend_by'])}."
            )
        if intent == "rentday":
            return (
                f"Done — your rent is now collected on the {rd.ordinal(r['rent_day'])}; the "
                f"first payment on the new day is {rd.say_day(r['first_payment'])}."
            )
        if intent == "notice":
            return (
                f"Done — your notice is recorded: the tenancy ends on {rd.say_day(r['end_date'])}."
            )
        if intent == "pet":
            return (
                f"Done — your request for a {r['kind']} has gone to your landlord for written "
                f"consent; if they agree, pet rent is {r['pet_rent_if_agreed']} a month."
            )
        if intent == "occupier":
            return (
                f"Done — {r['occupier']} is now a permitted occupier; the {r['fee']} "
                "variation fee has been charged."
            )
        return f"Done — your mobile number is {r['phone']} and your email is {r['email']}."

    async def failed(
        self, req: dict[str, Any], pending: dict[str, Any], error: str, out: list[str]
    ) -> None:
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(
            f"I'm sorry — the system refused that: {error}. Nothing has been changed "
            "and nothing has been charged."
        )
