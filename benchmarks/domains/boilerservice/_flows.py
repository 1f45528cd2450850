"""The desk's flows: book, move, cancel, parts, plans, tenants, look-ups, and the policy hooks."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any

from benchmarks.domains.boilerservice import _read as rd
from benchmarks.domains.boilerservice import _seed
from benchmarks.domains.boilerservice._env import starts

Out = list[str]
Req = dict[str, Any]
Row = dict[str, Any]
WINDOW_QUESTION = (
    "Would you like the morning or afternoon window? Mornings are "
    f"{'–'.join(_seed.WINDOWS['am'])} and afternoons {'–'.join(_seed.WINDOWS['pm'])}."
)


def hours_between(later: datetime, earlier: datetime) -> float:
    return (later - earlier).total_seconds() / 3600


def say_window(window: str) -> str:
    first, last = _seed.WINDOWS[window]
    return f"{_seed.WINDOW_WORDS[window]} ({first}–{last})"


def a_kind(kind: str) -> str:
    """The kind of visit with its article: "an annual boiler service"."""
    name = _seed.KINDS[kind]
    return ("an " if name[0] in "aeiou" else "a ") + name


def street(address: str) -> str:
    """The street of an address: "Flat 3, 40 Station Road" -> "station road"."""
    return rd.squash(re.sub(r"^(?:flat \w+,?\s*)?\d+[a-z]?\s+", "", address, flags=re.I))


class Flows:
    """The flows; `CorrectBoilerAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]

    # -- supplied by the agent -------------------------------------------------------------
    @property
    def now(self) -> datetime:
        raise NotImplementedError

    @property
    def today(self) -> date:
        return self.now.date()

    async def call(self, tool_name: str, /, **args: Any) -> tuple[Any, str | None]:
        raise NotImplementedError

    def ask(self, what: str, text: str, out: Out) -> str:
        raise NotImplementedError

    def propose(self, req: Req, out: Out, text: str, calls: list[list[Any]]) -> str:
        raise NotImplementedError

    async def step(self, req: Req, out: Out) -> str:
        flow = getattr(self, f"step_{req['intent']}")
        status: str = await flow(req, out)
        return status

    # -- shared helpers --------------------------------------------------------------------
    async def refresh(self) -> Row:
        view, error = await self.call("get_account", customer_id=self.s["account"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    @staticmethod
    def text(req: Req) -> str:
        return " ".join(req["chunks"])

    @staticmethod
    def pick_property(v: Row, text: str) -> Row | None:
        """The property meant: by postcode, by address, by street, or the only one."""
        props: list[Row] = v["properties"]
        codes = rd.postcodes(text)
        said = rd.squash(text)
        for matches in (
            [p for p in props if p["postcode"] in codes],
            [p for p in props if rd.squash(p["address"]) in said],
            [p for p in props if street(p["address"]) in said],
        ):
            if len(matches) == 1:
                return matches[0]
        return props[0] if len(props) == 1 else None

    def ask_property(self, out: Out) -> str:
        return self.ask("property", "Which property is it for? The first line of the address "
                        "will do.", out)  # fmt: skip

    def hours_to(self, job: Row) -> float:
        return hours_between(starts(job["day"], job["window"]), self.now)

    def say_visit(self, job: Row) -> str:
        return (f"{job['job_id']}, the {_seed.KINDS[job['kind']]} at {job['address']} on "
                f"{rd.say_day(job['day'])}, {say_window(job['window'])}")  # fmt: skip

    def day_problem(self, kind: str, day: date) -> tuple[str, bool] | None:
        """Why a visit can't be on that day, and whether another day is worth asking for."""
        if day.weekday() == 6 or day in _seed.CLOSED:
            return ("We don't have engineers out on Sundays or on 25, 26 and 28 December or "
                    "1 January.", True)  # fmt: skip
        if day.weekday() == 5 and kind != "breakdown":
            return ("I'm sorry — on Saturdays our engineers take breakdown call-outs only; "
                    f"{_seed.KINDS[kind]}s are done Monday to Friday. I haven't booked "
                    "anything, but I'd be glad to if a weekday suits.", False)  # fmt: skip
        if day == self.today and kind != "breakdown":
            return ("Same-day visits are for breakdowns only; services and gas safety checks "
                    "are booked from tomorrow.", True)  # fmt: skip
        return None

    async def free_windows(self, p: Row, day: date, window: str, kind: str) -> list[Row]:
        """Free windows from `day` on in the property's area, the Saturday rule applied."""
        args: dict[str, Any] = {"postcode": p["postcode"], "from_day": day.isoformat()}
        if window != "any":
            args["window"] = window
        found, error = await self.call("find_slots", **args)
        if error:
            return []
        slots: list[Row] = found["slots"]
        return [s for s in slots if kind == "breakdown"
                or date.fromisoformat(s["day"]).weekday() != 5]  # fmt: skip

    def none_free(self, p: Row, day: date, window: str, others: list[Row], out: Out) -> str:
        when = "" if window == "any" else f" in the {_seed.WINDOW_WORDS[window]}"
        options = "; ".join(f"{rd.say_day(s['day'])}, {_seed.WINDOW_WORDS[s['window']]}"
                            for s in others[:3])  # fmt: skip
        nearest = f" The nearest free windows are {options}." if options else ""
        return self.ask("day", f"No engineer covering {p['district']} is free on "
                        f"{rd.say_day(day.isoformat())}{when}.{nearest} Which day would you "
                        "like instead?", out)  # fmt: skip

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def cover_active(self, p: Row, day: date) -> bool:
        """A plan's breakdown cover: from 14 days after the plan's start."""
        if p["plan"] == "none" or not p["plan_start"]:
            return False
        begins = date.fromisoformat(p["plan_start"]) + timedelta(days=_seed.COVER_WAIT_DAYS)
        return day >= begins

    def callout_fee(self, p: Row, day: date) -> int:
        """The call-out fee: none under active cover, else by weekday or Saturday."""
        if p["plan"] != "none" and self.cover_active(p, day):
            return 0
        return _seed.CALLOUT_SATURDAY_PENCE if day.weekday() == 5 else _seed.CALLOUT_WEEKDAY_PENCE

    def visit_price(self, kind: str, p: Row, day: date) -> int:
        if kind == "breakdown":
            return self.callout_fee(p, day)
        if kind == "gas_safety":
            return _seed.GAS_SAFETY_PENCE
        return 0 if p["plan"] != "none" else _seed.SERVICE_PENCE

    def rebook_fee(self, job: Row) -> int:
        """A move less than 24 hours before the window starts costs the rebooking fee."""
        return _seed.REBOOK_FEE_PENCE if self.hours_to(job) < _seed.CHANGE_NOTICE_HOURS else 0

    def cancel_terms(self, job: Row) -> tuple[int, int]:
        """(fee, refund): a call-out's fee back 4+ hours ahead; a late fee inside 24 hours."""
        hours = self.hours_to(job)
        if job["kind"] == "breakdown":
            return 0, int(job["paid_pence"]) if hours >= _seed.CALLOUT_REFUND_HOURS else 0
        return (_seed.LATE_CANCEL_FEE_PENCE if hours < _seed.CHANGE_NOTICE_HOURS else 0), 0

    def plan_refusal(self, p: Row, plan: str) -> str | None:
        """Why a property can't join a plan, or None: Cover Plus needs a boiler under 10."""
        installed = date.fromisoformat(p["installed"])
        tenth = installed.replace(year=installed.year + _seed.PLUS_MAX_AGE_YEARS)
        if plan == "cover_plus" and tenth <= self.today:
            return (f"Hearth Cover Plus is only for boilers under {_seed.PLUS_MAX_AGE_YEARS} "
                    f"years old, and the boiler at {p['address']} was installed on "
                    f"{rd.say_date(p['installed'])}")  # fmt: skip
        return None

    def foreign_job(self, job: Row, v: Row) -> str:
        """A job number from another account: nothing about it is shared."""
        own = "; ".join(self.say_visit(j) for j in v["visits"])
        mine = f" The visit booked on your account is {own}." if own else ""
        return (f"I'm sorry — I can't find job {job['job_id']} on your account, so I can't "
                f"share its details or change it.{mine}")  # fmt: skip

    # -- booking ---------------------------------------------------------------------------
    async def step_book(self, req: Req, out: Out) -> str:
        v = await self.refresh()
        text = self.text(req)
        p = self.pick_property(v, text)
        if p is None:
            return self.ask_property(out)
        kind = rd.visit_kind(text)
        days = [d for d in rd.dates(text, self.today) if d >= self.today]
        if not days:
            return self.ask("day", f"Which day would you like us to come for the "
                            f"{_seed.KINDS[kind]}?", out)  # fmt: skip
        day = days[-1]
        problem = self.day_problem(kind, day)
        if problem:
            if problem[1]:
                return self.ask("day", problem[0] + " Which other day would suit?", out)
            out.append(problem[0])
            return "done"
        window = rd.window(text)
        if window is None:
            return self.ask("window", WINDOW_QUESTION, out)
        slots = await self.free_windows(p, day, window, kind)
        on_day = [s for s in slots if s["day"] == day.isoformat()]
        if not on_day:
            return self.none_free(p, day, window, slots, out)
        return self._propose_booking(req, v, p, kind, on_day[0], out)

    def _propose_booking(self, req: Req, v: Row, p: Row, kind: str, slot: Row, out: Out) -> str:
        day = date.fromisoformat(slot["day"])
        price = self.visit_price(kind, p, day)
        plan = _seed.PLAN_NAMES[p["plan"]]
        if kind == "breakdown":
            cost = self._callout_words(p, day, price, v)
        elif kind == "service" and not price:
            cost = f"The service is included in your {plan}, so there's nothing to pay."
        else:
            cost = (f"It's {rd.pounds(price)}, paid to the engineer on the day"
                    + (" (plans don't include gas safety checks)." if p["plan"] != "none"
                       else "."))  # fmt: skip
        return self.propose(
            req, out,
            f"I can book {a_kind(kind)} at {p['address']}, {p['postcode']}, on "
            f"{rd.say_day(slot['day'])}, {say_window(slot['window'])}, with {slot['engineer']}. "
            f"{cost} Shall I book it?",
            [["book_visit", {"customer_id": v["customer_id"], "property_id": p["property_id"],
                             "kind": kind, "day": slot["day"], "window": slot["window"],
                             "price_pence": price}]],
        )  # fmt: skip

    def _callout_words(self, p: Row, day: date, price: int, v: Row) -> str:
        if not price:
            return (f"Your {_seed.PLAN_NAMES[p['plan']]} covers the call-out, so there's no fee; "
                    "any parts are quoted separately.")  # fmt: skip
        why = ""
        if p["plan"] != "none" and p["plan_start"]:
            begins = date.fromisoformat(p["plan_start"]) + timedelta(days=_seed.COVER_WAIT_DAYS)
            why = (f" Your {_seed.PLAN_NAMES[p['plan']]} started on "
                   f"{rd.say_day(p['plan_start'])}, and breakdown cover begins 14 days after "
                   f"that, on {rd.say_day(begins.isoformat())}, so this call-out is "
                   "charged.")  # fmt: skip
        rate = "Saturday" if day.weekday() == 5 else "weekday"
        return (f"The {rate} call-out fee is {rd.pounds(price)}, taken now from your card "
                f"ending {v['card_last4']}; it covers the first hour, and any parts are quoted "
                f"separately.{why}")  # fmt: skip

    # -- moving and cancelling -------------------------------------------------------------
    async def find_visit(self, v: Row, text: str, out: Out) -> Row | str:
        """The booked visit meant, or the status after saying why there is none."""
        ids = rd.jobs(text)
        visits: list[Row] = v["visits"]
        own = [j for j in visits if j["job_id"] in ids]
        if ids and not own:
            job, error = await self.call("get_job", job_id=ids[0])
            if error:
                out.append(f"I can't find a job {ids[0]} — could you check the number?")
            elif job["customer_id"] != v["customer_id"]:
                out.append(self.foreign_job(job, v))
            else:
                out.append(f"Job {job['job_id']} is {job['status']}, so there's nothing to change.")
            return "done"
        if own:
            return own[0]
        p = self.pick_property(v, text) if len(v["properties"]) > 1 else None
        found = [j for j in visits if p is None or j["property_id"] == p["property_id"]]
        days = {d.isoformat() for d in rd.dates(text, self.today)}
        found = [j for j in found if j["day"] in days] or found
        if len(found) == 1:
            return found[0]
        if not found:
            out.append("I can't see a booked visit on your account that matches that.")
            return "done"
        listed = "; ".join(self.say_visit(j) for j in found)
        return self.ask("job_id", f"Which visit is it? I can see {listed}.", out)

    def started(self, job: Row, what: str, out: Out) -> str:
        out.append(
            f"I'm sorry — the {say_window(job['window'])} window for {job['job_id']} has "
            f"already started, so the engineer is on the way and I can't {what} it here. "
            f"Please ring the office on {_seed.OFFICE}. Nothing has been changed."
        )
        return "done"

    async def step_move(self, req: Req, out: Out) -> str:
        v = await self.refresh()
        text = self.text(req)
        job = await self.find_visit(v, text, out)
        if isinstance(job, str):
            return job
        if self.hours_to(job) <= 0:
            return self.started(job, "move", out)
        if job["kind"] == "breakdown":
            out.append("Call-outs can't be moved: I can cancel this one (on the usual terms) and "
                       "book a new one if you'd like. Nothing has been changed.")  # fmt: skip
            return "done"
        said = [d for d in rd.dates(text, self.today) if d >= self.today]
        window = rd.window(text)
        days = [d for d in said if d.isoformat() != job["day"]]
        if not days and window not in {None, "any", job["window"]}:
            days = [date.fromisoformat(job["day"])]
        if not days:
            return self.ask("day", f"Which day would you like to move {job['job_id']} to?", out)
        day = days[-1]
        problem = self.day_problem(job["kind"], day)
        if problem:
            if problem[1]:
                return self.ask("day", problem[0] + " Which other day would suit?", out)
            out.append(problem[0])
            return "done"
        if window is None:
            return self.ask("window", WINDOW_QUESTION, out)
        p = next(x for x in v["properties"] if x["property_id"] == job["property_id"])
        slots = await self.free_windows(p, day, window, job["kind"])
        on_day = [s for s in slots if s["day"] == day.isoformat()]
        if not on_day:
            return self.none_free(p, day, window, slots, out)
        return self._propose_move(req, v, job, on_day[0], out)

    def _propose_move(self, req: Req, v: Row, job: Row, slot: Row, out: Out) -> str:
        fee = self.rebook_fee(job)
        cost = (f"It's less than 24 hours before the visit, so there's a {rd.pounds(fee)} "
                f"rebooking fee, taken from your card ending {v['card_last4']}." if fee
                else "There's no charge, as it's 24 hours or more before the visit.")  # fmt: skip
        return self.propose(
            req, out,
            f"I can move {job['job_id']}, the {_seed.KINDS[job['kind']]} at {job['address']}, "
            f"from {rd.say_day(job['day'])}, {_seed.WINDOW_WORDS[job['window']]}, to "
            f"{rd.say_day(slot['day'])}, {say_window(slot['window'])}, with {slot['engineer']}; "
            "the price stays the same. "
            f"{cost} Shall I move it?",
            [["move_visit", {"customer_id": v["customer_id"], "job_id": job["job_id"],
                             "day": slot["day"], "window": slot["window"], "fee_pence": fee}]],
        )  # fmt: skip

    async def step_cancel(self, req: Req, out: Out) -> str:
        v = await self.refresh()
        job = await self.find_visit(v, self.text(req), out)
        if isinstance(job, str):
            return job
        if self.hours_to(job) <= 0:
            return self.started(job, "cancel", out)
        fee, refund = self.cancel_terms(job)
        card = f"your card ending {v['card_last4']}"
        if job["kind"] == "breakdown":
            terms = (f"the {rd.pounds(refund)} call-out fee goes back to {card}, as it's 4 hours "
                     "or more before the window" if refund else
                     f"the {rd.pounds(job['paid_pence'])} call-out fee is kept, as it's less "
                     "than 4 hours before the window")  # fmt: skip
        elif fee:
            terms = (f"it's less than 24 hours before the visit, so there's a {rd.pounds(fee)} "
                     f"late-cancellation fee, taken from {card}")  # fmt: skip
        else:
            terms = "there's no charge, as it's 24 hours or more before the visit"
        return self.propose(
            req, out, f"I can cancel {self.say_visit(job)}: {terms}. Shall I cancel it?",
            [["cancel_visit", {"customer_id": v["customer_id"], "job_id": job["job_id"],
                               "fee_pence": fee, "refund_pence": refund}]],
        )  # fmt: skip

    # -- parts, plans, tenants -------------------------------------------------------------
    def part_share(self, p: Row, price: int) -> int:
        """What the customer pays: Cover Plus pays parts up to the cap, other plans nothing."""
        if p["plan"] == "cover_plus":
            return max(0, price - _seed.PARTS_CAP_PENCE)
        return price

    async def step_part(self, req: Req, out: Out) -> str:
        v = await self.refresh()
        text = self.text(req)
        open_quotes = [q for q in v["quotes"] if q["status"] == "quoted"]
        ids = rd.quotes(text)
        named = [q for q in open_quotes if q["quote_id"] in ids] or [
            q for q in open_quotes if rd.squash(q["part"]) in rd.squash(text)]  # fmt: skip
        q = (named or open_quotes or [None])[0]
        if q is None:
            out.append("I can't see a part quote waiting for approval on your account.")
            return "done"
        expiry = date.fromisoformat(q["quoted_on"]) + timedelta(days=_seed.QUOTE_VALID_DAYS)
        if self.today > expiry:
            out.append(
                f"I'm sorry — quote {q['quote_id']} for the {q['part']} was given on "
                f"{rd.say_date(q['quoted_on'])}, and quotes last {_seed.QUOTE_VALID_DAYS} days, so "
                f"it ran out on {rd.say_date(expiry.isoformat())}. I can't order the part on it: "
                "an engineer needs to check the boiler again and quote afresh. Nothing has been "
                "ordered or charged."
            )
            return "done"
        p = next(x for x in v["properties"] if x["property_id"] == q["property_id"])
        pays = self.part_share(p, q["price_pence"])
        cover = (
            f" Your Hearth Cover Plus pays up to {rd.pounds(_seed.PARTS_CAP_PENCE)} of a "
            f"repair, so you pay {rd.pounds(pays)}."
            if p["plan"] == "cover_plus"
            else ""
        )
        return self.propose(
            req, out,
            f"I can order the {q['part']} for {p['address']} on quote {q['quote_id']}: "
            f"{rd.pounds(q['price_pence'])} fitted.{cover} {rd.pounds(pays)} is taken now from "
            f"your card ending {v['card_last4']}, and the office will ring to arrange fitting "
            "once it arrives. Shall I order it?",
            [["approve_part", {"customer_id": v["customer_id"], "quote_id": q["quote_id"],
                               "customer_pays_pence": pays}]],
        )  # fmt: skip

    async def step_plan(self, req: Req, out: Out) -> str:
        v = await self.refresh()
        text = self.text(req)
        p = self.pick_property(v, text)
        if p is None:
            return self.ask_property(out)
        plan = "cover_plus" if re.search(r"\bplus\b", text, re.I) else "cover"
        name = _seed.PLAN_NAMES[plan]
        if p["plan"] == plan:
            out.append(f"{p['address']} is already on {name}, so there's nothing to change.")
            return "done"
        why = self.plan_refusal(p, plan)
        if why:
            out.append(f"I'm sorry — {why}, so I can't put it on {name}. I haven't changed "
                       f"anything. Hearth Cover ({rd.pounds(_seed.PLAN_MONTHLY['cover'])} a month: "
                       "the annual service and breakdown call-outs, parts not included) is open "
                       "to it if you'd like it — just ask.")  # fmt: skip
            return "done"
        monthly = _seed.PLAN_MONTHLY[plan]
        if p["plan"] == "none":
            start = self.today
            begins = start + timedelta(days=_seed.COVER_WAIT_DAYS)
            when = (f"It starts today, {rd.say_date(start.isoformat())}; the annual service is "
                    f"included straight away, and breakdown call-outs are covered from "
                    f"{rd.say_date(begins.isoformat())}, 14 days after the start.")  # fmt: skip
        else:
            when = (f"It replaces {_seed.PLAN_NAMES[p['plan']]} and keeps its start date, "
                    f"{rd.say_date(p['plan_start'])}.")  # fmt: skip
        parts = (f" Parts are covered up to {rd.pounds(_seed.PARTS_CAP_PENCE)} a repair."
                 if plan == "cover_plus" else " Parts are not included.")  # fmt: skip
        return self.propose(
            req, out,
            f"I can put {p['address']} on {name} at {rd.pounds(monthly)} a month by direct "
            "debit. "
            f"{when}{parts} Shall I set it up?",
            [["change_plan", {"customer_id": v["customer_id"], "property_id": p["property_id"],
                              "plan": plan, "monthly_pence": monthly}]],
        )  # fmt: skip

    async def step_tenant(self, req: Req, out: Out) -> str:
        v = await self.refresh()
        text = self.text(req)
        let = [x for x in v["properties"] if x["rented"]]
        p = self.pick_property({"properties": let}, text) if let else None
        if p is None and let:
            return self.ask_property(out)
        if p is None:
            out.append("I can't see a let property with a tenant on your account.")
            return "done"
        numbers = rd.phones(text)
        if not numbers:
            return self.ask("tenant_phone", f"What's {p['tenant_name']}'s new phone number?", out)
        return self.propose(
            req, out,
            f"I can change the phone number for your tenant at {p['address']}, "
            f"{p['tenant_name']}, to {numbers[-1]}; the engineer uses it to arrange access. "
            "Shall I update it?",
            [["update_tenant", {"customer_id": v["customer_id"], "property_id": p["property_id"],
                                "tenant_phone": numbers[-1]}]],
        )  # fmt: skip

    # -- look-ups --------------------------------------------------------------------------
    async def step_lookup(self, req: Req, out: Out) -> str:
        v = await self.refresh()
        text = self.text(req)
        if re.search(r"\bearliest\b|\bsoonest\b|\bfirst (?:free|available)\b", text, re.I):
            return await self._earliest(v, text, out)
        if re.search(r"\bcertificate\b|\bcp12\b|\bgas safety\b|\brun out\b|\bexpir", text, re.I):
            return self._certificate(v, text, out)
        if not v["visits"]:
            out.append("There are no visits booked on your account at the moment.")
            return "done"
        out.append("Booked on your account: " + "; ".join(
            f"{self.say_visit(j)}, with {j['engineer']}" for j in v["visits"]) + ".")  # fmt: skip
        return "done"

    def _certificate(self, v: Row, text: str, out: Out) -> str:
        p = self.pick_property(v, text)
        if p is None:
            return self.ask_property(out)
        if not p["cert_expiry"]:
            out.append(f"I don't have a gas safety certificate on record for {p['address']}.")
            return "done"
        expiry = date.fromisoformat(p["cert_expiry"])
        month = expiry.month - _seed.CERT_EARLY_MONTHS
        early = expiry.replace(year=expiry.year + (month - 1) // 12, month=(month - 1) % 12 + 1)
        timing = ("You're inside that window now, so booking the check now loses nothing"
                  if early <= self.today else
                  f"So it's best done from {rd.say_date(early.isoformat())}")  # fmt: skip
        out.append(
            f"The gas safety certificate for {p['address']} runs out on "
            f"{rd.say_date(p['cert_expiry'])}. A check in the two months before that doesn't "
            "lose any time: the new certificate runs for 12 months from the old one's expiry. "
            f"{timing}. The check is {rd.pounds(_seed.GAS_SAFETY_PENCE)}. I haven't booked "
            "anything."
        )
        return "done"

    async def _earliest(self, v: Row, text: str, out: Out) -> str:
        p = self.pick_property(v, text)
        if p is None:
            return self.ask_property(out)
        kind = rd.visit_kind(text)
        first = self.today if kind == "breakdown" else self.today + timedelta(days=1)
        slots = await self.free_windows(p, first, "any", kind)
        if not slots:
            out.append(f"I can't see a free window in {p['district']} in the next few weeks; "
                       f"the office on {_seed.OFFICE} can look further ahead.")  # fmt: skip
            return "done"
        s = slots[0]
        out.append(
            f"The earliest an engineer covering {p['district']} can come for {a_kind(kind)} "
            f"is {rd.say_day(s['day'])}, {say_window(s['window'])}, with "
            f"{s['engineer']}. I haven't booked anything — just say if you'd like it."
        )
        return "done"

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: Row) -> str:
        """What the system returned, in the customer's words."""
        if intent == "book":
            paid = (f"; {r['taken_now']} taken from your card ending {r['card_last4']}"
                    if r["taken_now"] != "£0.00" else "")  # fmt: skip
            return (
                f"Booked — job {r['job_id']}, {r['address']}, {rd.say_day(r['day'])}, "
                f"{say_window(r['window'])}, with {r['engineer']} ({r['price']}{paid})."
            )
        if intent == "move":
            fee = f"; {r['fee']} rebooking fee taken" if r["fee"] != "£0.00" else ""
            return (f"Done — {r['job_id']} is now on {rd.say_day(r['day'])}, "
                    f"{say_window(r['window'])}, with {r['engineer']}{fee}.")  # fmt: skip
        if intent == "cancel":
            money = [
                f"{r['fee']} late-cancellation fee taken" if r["fee"] != "£0.00" else "",
                f"{r['refunded']} refunded" if r["refunded"] != "£0.00" else "",
            ]
            paid = "; ".join(m for m in money if m)
            card = f" (card ending {r['card_last4']})" if paid else ""
            return (f"Done — {r['job_id']} is cancelled"
                    f"{'; ' + paid if paid else ', with no charge'}{card}.")  # fmt: skip
        if intent == "part":
            return (f"Done — the {r['part']} on {r['quote_id']} is ordered; {r['customer_pays']} "
                    f"taken from your card ending {r['card_last4']}.")  # fmt: skip
        if intent == "plan":
            return (f"Done — {r['property']} is on {r['plan']} at {r['monthly']} a month, from "
                    f"{rd.say_date(r['plan_start'])}.")  # fmt: skip
        return f"Done — the tenant's number for {r['property']} is now {r['tenant_phone']}."

    async def failed(self, req: Req, pending: Row, error: str, out: Out) -> None:
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system wouldn't do that: {error}. Nothing has been changed.")
