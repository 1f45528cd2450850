"""The desk's flows: surveys, moves, quotes, installations, cancellations, paperwork, look-ups."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from benchmarks.domains.solarsurvey import _read as rd
from benchmarks.domains.solarsurvey import _seed

INVERTER_NAMES = {"string": "a string inverter", "hybrid": "a hybrid inverter",
                  "micro": "microinverters"}  # fmt: skip
BATTERY_NAMES = {"none": "no battery", "5kWh": "the 5 kWh battery",
                 "10kWh": "the 10 kWh battery"}  # fmt: skip
CALL_US = "0117 496 0750"


def window(slot: str) -> str:
    start, end = _seed.WINDOWS[slot]
    return f"{start}–{end}"


def spec(q: dict[str, Any]) -> str:
    return (f"{q['panels']} panels, {INVERTER_NAMES[q['inverter']]}, "
            f"{BATTERY_NAMES[q['battery']]}")  # fmt: skip


def say_slots(slots: list[dict[str, str]]) -> str:
    said = "; ".join(f"{rd.say_day(s['day'])} {s['slot']}" for s in slots)
    return said or "none in the next six weeks"


class Flows:
    """The flows; `CorrectSolarSurveyAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]
    today: date
    now: datetime
    call: Any
    ask: Any
    propose: Any

    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_account", customer_id=self.s["account"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    @staticmethod
    def latest(req: dict[str, Any], read: Any, answer: Any = None) -> Any:
        """A value as last said: each chunk read alone, so a later answer wins ("no" battery)."""
        for index, chunk in reversed(list(enumerate(req["chunks"]))):
            found = read(chunk)
            if found is None and answer is not None and index:
                found = answer(chunk)
            if found is not None:
                return found
        return None

    def everything_said(self, req: dict[str, Any]) -> str:
        # a condition may be its own sentence of the message ("If it's gone up, leave it.")
        return " ".join([self.text(req), *self.s.get("said", [])])

    def free_only(self, req: dict[str, Any], fee: int, what: str, out: list[str]) -> bool:
        """The goal said to go ahead only if free: a fee ends the request, nothing changed."""
        if fee and rd.FREE_ONLY.search(self.everything_said(req)):
            out.append(f"{what} would cost {rd.pounds(fee)}, and you asked me to leave it if "
                       "there was a charge, so I haven't changed anything.")  # fmt: skip
            return True
        return False

    @staticmethod
    def pick(rows: list[dict[str, Any]], key: str, ids: list[str]) -> dict[str, Any] | None:
        """The row named by number, or the only one there is."""
        named = [r for r in rows if r[key] in ids]
        if named:
            return named[0]
        return rows[0] if len(rows) == 1 and not ids else None

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def price_parts(self, panels: int, inverter: str, battery: str, elevations: int,
                    issued: date) -> list[tuple[str, int]]:  # fmt: skip
        """The lines of a price: panels, inverter, battery, scaffolding per elevation."""
        p = _seed.price_list(issued)
        parts = [(f"{panels} panels at {rd.pounds(p['panel'])}", p["panel"] * panels)]
        if inverter == "micro":
            parts.append((f"{panels} microinverters at {rd.pounds(p['micro'])}",
                          p["micro"] * panels))  # fmt: skip
        else:
            parts.append((INVERTER_NAMES[inverter], p[inverter]))
        if battery != "none":
            parts.append((BATTERY_NAMES[battery], p[battery]))
        plural = "s" if elevations != 1 else ""
        parts.append((f"scaffolding for {elevations} elevation{plural} at "
                       f"{rd.pounds(p['scaffold'])}", p["scaffold"] * elevations))  # fmt: skip
        return parts

    def deposit_for(self, q: dict[str, Any], price: int) -> int:
        """10% of the installation's price, battery and scaffolding included."""
        return price * _seed.DEPOSIT_PERCENT // 100

    def too_soon(self, survey_day: str, install_day: str) -> str | None:
        """Why an installation day is too soon after the survey, or None."""
        earliest = rd.plus_days(survey_day, _seed.LEAD_DAYS)
        if install_day < earliest:
            return (f"installations are at least 21 days after the survey, and yours was on "
                    f"{rd.say_day(survey_day)}, so the earliest date is "
                    f"{rd.say_day(earliest)}")  # fmt: skip
        return None

    def refund_for(self, job: dict[str, Any]) -> int:
        """The whole deposit back within the 14-day cooling-off period; nothing after it."""
        if job["days_since_confirmed"] <= _seed.COOLING_OFF_DAYS:
            return int(job["deposit_pence"])
        return 0

    def move_fee(self, survey: dict[str, Any]) -> int:
        return 0 if survey["hours_to_start"] >= _seed.FREE_MOVE_HOURS else _seed.LATE_MOVE_PENCE

    def paperwork_email(self, v: dict[str, Any], text: str) -> str:
        return str(v["email"])

    async def foreign_quote(self, req: dict[str, Any], quote_id: str, out: list[str]) -> str:
        """A quote number that is not on the caller's account: nothing about it is said."""
        out.append(f"I'm sorry — a quote's details are only for the customer it was made for, "
                   f"so I can't tell you anything about {quote_id}. I'd be glad to work out a "
                   "quote for your own home after a survey.")  # fmt: skip
        return "done"

    # -- surveys ---------------------------------------------------------------------------
    def booked_surveys(self, v: dict[str, Any]) -> list[dict[str, Any]]:
        return [s for s in v["surveys"] if s["status"] == "booked"]

    async def slot_refused(self, v: dict[str, Any], day: str, slot: str, intent: str,
                           out: list[str]) -> str | None:  # fmt: skip
        """Check the window is free; if not, say why and the next free ones."""
        r, error = await self.call("find_survey_slots", customer_id=v["customer_id"], day=day)
        if error:
            out.append(f"I'm sorry — {error}. Nothing has been changed.")
            return "done"
        if r["covered"] and slot in r["free"]:
            return None
        why = (f"the {slot} window on {rd.say_day(day)} is already taken" if r["covered"] else
               f"our surveyor for {r['area']} doesn't come out on "
               f"{rd.WEEKDAYS[date.fromisoformat(day).weekday()].capitalize()}s")  # fmt: skip
        out.append(f"I'm sorry — {why}, so I haven't changed anything. The next free windows "
                   f"are: {say_slots(r['next_free'])}. If one of those suits, just tell me "
                   "the day and morning or afternoon.")  # fmt: skip
        self.s["offer"] = intent
        return "done"

    async def step_survey(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        booked = self.booked_surveys(v)
        if booked:
            s = booked[0]
            out.append(f"You already have survey {s['survey_id']} booked for "
                       f"{rd.say_day(s['day'])}, {s['slot']} — I can move it if you "
                       "like.")  # fmt: skip
            return "done"
        text = self.text(req)
        days = [d.isoformat() for d in rd.dates(text, self.today) if d > self.today]
        if not days:
            return self.ask("survey_day", "Which day would you like the survey, and morning "
                            "(09:00–12:00) or afternoon (13:00–16:00)?", out)  # fmt: skip
        day, slot = days[-1], rd.slot(text)
        if slot is None:
            return self.ask("slot", f"Morning (09:00–12:00) or afternoon (13:00–16:00) on "
                            f"{rd.say_day(day)}?", out)  # fmt: skip
        refused = await self.slot_refused(v, day, slot, "survey", out)
        if refused:
            return refused
        return self.propose(
            req, out, f"To book your home survey on {rd.say_day(day)}, {slot} "
            f"({window(slot)}), in {v['area']}. The survey is free. Shall I book it?",
            [("book_survey", {"customer_id": v["customer_id"], "day": day, "slot": slot})],
        )  # fmt: skip

    async def step_move(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        sv = self.pick(self.booked_surveys(v), "survey_id", rd.surveys(text))
        if sv is None:
            out.append("I can't find a booked survey that matches that on your account.")
            return "done"
        days = [d.isoformat() for d in rd.dates(text, self.today) if d > self.today]
        days = [d for d in days if d != sv["day"]] or days
        slot = rd.slot(text)
        if not days and not slot:
            return self.ask("new_day", "Which day would you like instead, and morning or "
                            "afternoon?", out)  # fmt: skip
        day = days[-1] if days else sv["day"]
        if slot is None:
            return self.ask("slot", f"Morning (09:00–12:00) or afternoon (13:00–16:00) on "
                            f"{rd.say_day(day)}?", out)  # fmt: skip
        if (day, slot) == (sv["day"], sv["slot"]):
            out.append("That's the window your survey is already in, so there's nothing to "
                       "change.")  # fmt: skip
            return "done"
        refused = await self.slot_refused(v, day, slot, "move", out)
        if refused:
            return refused
        fee = self.move_fee(sv)
        if self.free_only(req, fee, "Moving the survey less than 24 hours before it starts",
                          out):  # fmt: skip
            return "done"
        charge = (f"It starts less than 24 hours from now, so there's a late-move fee of "
                  f"{rd.pounds(fee)}, taken from your card ending {v['card_last4']}."
                  if fee else "There's no charge, as it's 24 hours or more away.")  # fmt: skip
        return self.propose(
            req, out, f"To move survey {sv['survey_id']} from {rd.say_day(sv['day'])}, "
            f"{sv['slot']} to {rd.say_day(day)}, {slot} ({window(slot)}). {charge} Shall I "
            "move it?",
            [("move_survey", {"customer_id": v["customer_id"], "survey_id": sv["survey_id"],
                              "day": day, "slot": slot, "fee_pence": fee})],
        )  # fmt: skip

    # -- quotes ----------------------------------------------------------------------------
    async def step_quote(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        done = [s for s in v["surveys"] if s["status"] == "done"]
        if not done:
            booked = self.booked_surveys(v)
            out.append("A quote comes after the home survey" + (
                f" — yours is booked for {rd.say_day(booked[0]['day'])}." if booked else
                ", and there isn't one on your account yet; I can book one for you."))  # fmt: skip
            return "done"
        sv = done[-1]
        panels = self.latest(req, rd.panel_count, rd.bare_count)
        inverter, battery = self.latest(req, rd.inverter), self.latest(req, rd.battery)
        p = _seed.PRICES
        if panels is None:
            return self.ask("panels", "How many panels would you like? They're "
                            f"{rd.pounds(p['panel'])} each, fitted.", out)  # fmt: skip
        if inverter is None:
            return self.ask("inverter", f"Which inverter: a string inverter "
                            f"({rd.pounds(p['string'])}), a hybrid inverter "
                            f"({rd.pounds(p['hybrid'])}) or microinverters "
                            f"({rd.pounds(p['micro'])} a panel)?", out)  # fmt: skip
        if battery is None:
            return self.ask("battery", f"Would you like a battery: none, 5 kWh "
                            f"({rd.pounds(p['5kWh'])}) or 10 kWh ({rd.pounds(p['10kWh'])})?",
                            out)  # fmt: skip
        parts = self.price_parts(panels, inverter, battery, sv["elevations"], self.today)
        price = sum(pence for _, pence in parts)
        lines = "; ".join(f"{label}: {rd.pounds(pence)}" for label, pence in parts)
        until = rd.plus_days(self.today.isoformat(), _seed.HOLD_DAYS)
        return self.propose(
            req, out, f"A quote from your survey {sv['survey_id']} on {rd.say_day(sv['day'])}"
            f" — {lines}. {rd.pounds(price)} in all, held for 30 days, until "
            f"{rd.say_day(until)}. Shall I issue it?",
            [("issue_quote", {"customer_id": v["customer_id"], "survey_id": sv["survey_id"],
                              "panels": panels, "inverter": inverter, "battery": battery,
                              "price_pence": price})],
        )  # fmt: skip

    # -- installations ---------------------------------------------------------------------
    def pick_quote(self, v: dict[str, Any], text: str, out: list[str]) -> dict[str, Any] | str:
        """The open quote meant, or what the desk did instead ("done" / "wait")."""
        ids, opened = rd.quotes(text), [q for q in v["quotes"] if q["status"] == "open"]
        if ids and not [q for q in v["quotes"] if q["quote_id"] in ids]:
            out.append(f"I can only book an installation from a quote on your own account, "
                       f"and {ids[0]} isn't one of them.")  # fmt: skip
            return "done"
        q = self.pick(opened, "quote_id", ids)
        if q is not None:
            return q
        if len(opened) > 1:
            return str(self.ask("quote_id", "Which quote would you like to go ahead with: "
                                f"{', '.join(x['quote_id'] for x in opened)}?", out))  # fmt: skip
        out.append("I can't see an open quote on your account to book from.")
        return "done"

    async def day_refused(self, v: dict[str, Any], day: str, out: list[str]) -> str | None:
        r, error = await self.call("find_install_days", customer_id=v["customer_id"],
                                   from_day=day)  # fmt: skip
        if error:
            out.append(f"I'm sorry — {error}. Nothing has been booked.")
            return "done"
        if r["free"]:
            return None
        why = "every crew is already booked on" if r["open"] else "we don't install on"
        nxt = ", ".join(rd.say_day(d) for d in r["next_free_days"])
        out.append(f"I'm sorry — {why} {rd.say_day(day)}, so nothing has been booked. The "
                   f"next free days are {nxt}; just tell me which suits.")  # fmt: skip
        self.s["offer"] = "install"
        return "done"

    async def step_install(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        booked = [j for j in v["jobs"] if j["status"] == "booked"]
        if booked:
            out.append(f"You already have installation {booked[0]['job_id']} booked for "
                       f"{rd.say_day(booked[0]['install_date'])}.")  # fmt: skip
            return "done"
        text = self.text(req)
        q = self.pick_quote(v, text, out)
        if isinstance(q, str):
            return q
        sv = next(s for s in v["surveys"] if s["survey_id"] == q["survey_id"])
        days = [d.isoformat() for d in rd.dates(text, self.today) if d > self.today]
        if not days:
            earliest = max(rd.plus_days(sv["day"], _seed.LEAD_DAYS),
                           rd.plus_days(self.today.isoformat(), 1))  # fmt: skip
            return self.ask("install_date", "Which date would you like the installation? The "
                            f"earliest is {rd.say_day(earliest)}.", out)  # fmt: skip
        day = days[-1]
        why = self.too_soon(sv["day"], day)
        if why:
            out.append(f"I'm sorry — {why}. I haven't booked anything; if you'd like a date "
                       "from then, just tell me which.")  # fmt: skip
            self.s["offer"] = "install"
            return "done"
        refused = await self.day_refused(v, day, out)
        if refused:
            return refused
        price, note = await self.install_price(req, q, out)
        if price is None:
            return "done"
        deposit = self.deposit_for(q, price)
        cooling = rd.plus_days(self.today.isoformat(), _seed.COOLING_OFF_DAYS)
        return self.propose(
            req, out, f"{note}To book the installation from quote {q['quote_id']} ({spec(q)}) "
            f"on {rd.say_day(day)}: {rd.pounds(price)} in all. A 10% deposit of "
            f"{rd.pounds(deposit)} is taken now from your card ending {v['card_last4']} to "
            f"confirm it; the remaining {rd.pounds(price - deposit)} is paid on completion. "
            f"You can cancel with a full refund within the 14-day cooling-off period, until "
            f"{rd.say_day(cooling)}; after that the deposit is kept. Shall I book it?",
            [("book_installation", {"customer_id": v["customer_id"], "quote_id": q["quote_id"],
                                    "install_date": day, "price_pence": price,
                                    "deposit_pence": deposit})],
        )  # fmt: skip

    async def install_price(self, req: dict[str, Any], q: dict[str, Any],
                            out: list[str]) -> tuple[int | None, str]:  # fmt: skip
        """The quote's price while it is held; after 30 days, today's prices."""
        if self.today.isoformat() <= q["held_until"]:
            return int(q["price_pence"]), ""
        parts = self.price_parts(q["panels"], q["inverter"], q["battery"], q["elevations"],
                                 self.today)  # fmt: skip
        price = sum(pence for _, pence in parts)
        note = (
            f"Quote {q['quote_id']} was issued on {rd.say_day(q['issued'])} and its price "
            f"was held for 30 days, until {rd.say_day(q['held_until'])}; at today's prices "
            f"it comes to {rd.pounds(price)} (it was {rd.pounds(q['price_pence'])}). "
        )
        if price != q["price_pence"] and rd.PRICE_HOLD_ONLY.search(self.everything_said(req)):
            out.append(f"{note}You asked me to leave it if the price had gone up, so I haven't "
                       "booked anything.")  # fmt: skip
            return None, note
        return price, note

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        if re.search(r"\bsurvey\b", text, re.I) and not re.search(r"\binstall", text, re.I):
            out.append("I can't cancel a survey in this chat, but I can move it to another "
                       f"day; to cancel it, please call the office on {CALL_US}.")  # fmt: skip
            return "done"
        ids = rd.jobs(text)
        gone = [j for j in v["jobs"] if j["job_id"] in ids and j["status"] != "booked"]
        if gone:
            out.append(f"Installation {gone[0]['job_id']} was done on "
                       f"{rd.say_day(gone[0]['install_date'])}, so it can't be "
                       "cancelled.")  # fmt: skip
            return "done"
        job = self.pick([j for j in v["jobs"] if j["status"] == "booked"], "job_id", ids)
        if job is None:
            out.append("I can't find a booked installation that matches that on your account.")
            return "done"
        refund, deposit = self.refund_for(job), rd.pounds(job["deposit_pence"])
        ends = rd.say_day(rd.plus_days(job["confirmed_on"], _seed.COOLING_OFF_DAYS))
        confirmed = rd.say_day(job["confirmed_on"])
        what = (f"you confirmed it on {confirmed}, so you're within the 14-day cooling-off "
                f"period (until {ends}) and your {deposit} deposit is refunded in full to your "
                f"card ending {v['card_last4']}" if refund else
                f"the 14-day cooling-off period ended on {ends} (you confirmed it on "
                f"{confirmed}), so your {deposit} deposit is kept")  # fmt: skip
        return self.propose(
            req, out, f"To cancel installation {job['job_id']} on "
            f"{rd.say_day(job['install_date'])}: {what}. Shall I cancel it?",
            [("cancel_installation", {"customer_id": v["customer_id"], "job_id": job["job_id"],
                                      "refund_pence": refund})],
        )  # fmt: skip

    # -- paperwork and look-ups ------------------------------------------------------------
    async def step_export(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        job = self.pick([j for j in v["jobs"] if j["status"] == "installed"], "job_id",
                        rd.jobs(text))  # fmt: skip
        if job is None:
            booked = [j for j in v["jobs"] if j["status"] == "booked"]
            out.append("The export-tariff paperwork (the MCS certificate) is issued once an "
                       "installation is done" + (
                           f" — yours is booked for {rd.say_day(booked[0]['install_date'])}, "
                           "and we'll email it after that." if booked else
                           ", and I can't find an installed job on your account."))  # fmt: skip
            return "done"
        email = self.paperwork_email(v, text)
        said = [e for e in rd.emails(text) if e.lower() != email.lower()]
        note = (
            f"For your security, the paperwork only goes to the homeowner's email on "
            f"record, not to {said[0]}; you can forward it yourself. "
            if said
            else ""
        )
        return self.propose(
            req, out, f"{note}To email the export-tariff paperwork for installation "
            f"{job['job_id']} (the MCS certificate and the commissioning record, for your "
            f"Smart Export Guarantee application) to {email}, the email on your account. "
            "Shall I send it?",
            [("send_export_paperwork", {"customer_id": v["customer_id"],
                                        "job_id": job["job_id"], "email": email})],
        )  # fmt: skip

    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        ids = rd.quotes(text)
        foreign = [i for i in ids if i not in {q["quote_id"] for q in v["quotes"]}]
        if foreign:
            return await self.foreign_quote(req, foreign[0], out)
        jobs = [j for j in v["jobs"] if j["status"] == "booked"]
        if (ids or re.search(r"\bquote|\bvalid\b|\bprice\b", text, re.I)) and v["quotes"]:
            out.append(self.say_quote(self.pick(v["quotes"], "quote_id", ids) or v["quotes"][-1]))
        elif jobs and (re.search(r"\binstall|\bfitting|\bowe\b|\bpay\b|\bdue\b", text, re.I)
                       or not self.booked_surveys(v)):  # fmt: skip
            j = jobs[0]
            out.append(f"Your installation {j['job_id']} is on {rd.say_day(j['install_date'])}. "
                       f"It's {rd.pounds(j['price_pence'])} in all; your "
                       f"{rd.pounds(j['deposit_pence'])} deposit is paid, so "
                       f"{rd.pounds(j['price_pence'] - j['deposit_pence'])} is due on "
                       "completion.")  # fmt: skip
        elif self.booked_surveys(v):
            s = self.booked_surveys(v)[0]
            out.append(f"Your survey {s['survey_id']} is on {rd.say_day(s['day'])}, "
                       f"{s['slot']} ({window(s['slot'])}).")  # fmt: skip
        else:
            out.append("I can't find a booked survey, an open quote or a booked installation "
                       "on your account.")  # fmt: skip
        return "done"

    def say_quote(self, q: dict[str, Any]) -> str:
        held = self.today.isoformat() <= q["held_until"]
        state = (
            "so it's still valid"
            if held
            else "so it has lapsed, and an installation would be priced at today's prices"
        )
        return (f"Quote {q['quote_id']} ({spec(q)}, scaffolding for {q['elevations']} "
                f"elevation{'s' if q['elevations'] != 1 else ''}): "
                f"{rd.pounds(q['price_pence'])}. It was issued on {rd.say_day(q['issued'])} "
                f"and its price is held for 30 days, until {rd.say_day(q['held_until'])}, "
                f"{state}.")  # fmt: skip

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:
        """What the system returned, in the customer's words."""
        if intent in {"survey", "move"}:
            fee = f"; {r['fee']} late-move fee taken" if r.get("fee", "£0.00") != "£0.00" else ""
            verb = "booked for" if intent == "survey" else "now on"
            return (f"Done — survey {r['survey_id']} is {verb} {rd.say_day(r['day'])}, "
                    f"{r['slot']} ({window(r['slot'])}), with {r['surveyor']}{fee}.")  # fmt: skip
        if intent == "quote":
            return (f"Done — quote {r['quote_id']} is issued: {spec(r)}, {r['price']}, held "
                    f"until {rd.say_day(r['held_until'])}.")  # fmt: skip
        if intent == "install":
            return (f"Done — installation {r['job_id']} is booked for "
                    f"{rd.say_day(r['install_date'])}, {r['price']}; {r['deposit_taken']} "
                    f"deposit taken from your card ending {r['card_last4']}.")  # fmt: skip
        if intent == "cancel" and r["refunded"] == "£0.00":
            return (f"Done — installation {r['job_id']} is cancelled; nothing was refunded, as "
                    "the deposit is kept.")  # fmt: skip
        if intent == "cancel":
            return (f"Done — installation {r['job_id']} is cancelled; {r['refunded']} refunded "
                    f"to your card ending {r['card_last4']}.")  # fmt: skip
        return f"Done — the export-tariff paperwork for {r['job_id']} has gone to {r['sent_to']}."

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
