"""The desk's flows: rounds, skips, moves, pauses, one-off jobs, payments, disputes, notice."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from benchmarks.domains.windowclean import _read as rd
from benchmarks.domains.windowclean import _seed

OFFICE = "01632 960 450"


class Flows:
    """The flows; `CorrectWindowcleanAgent` supplies the state, the calls and the questions."""

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

    @staticmethod
    def upcoming(v: dict[str, Any]) -> list[dict[str, Any]]:
        return [x for x in v["visits"] if x["status"] == "scheduled" and x["days_away"] > 0]

    @staticmethod
    def active(v: dict[str, Any]) -> bool:
        return bool(v["round"]) and v["round"]["status"] == "active"

    def pick_visit(self, v: dict[str, Any], text: str) -> dict[str, Any] | None:
        """The visit meant: by a day said, by a month said, or the next one booked."""
        visits = self.upcoming(v)
        said = {d.isoformat() for d in rd.dates(text, self.today, all_said=True)}
        named = [x for x in visits if x["date"] in said]
        if not named and rd.month_said(text):
            named = [x for x in visits if int(x["date"][5:7]) == rd.month_said(text)]
        return (named or visits or [None])[0]

    def no_round(self, v: dict[str, Any], out: list[str]) -> str:
        if v["round"] and v["round"]["status"] == "ending":
            out.append(f"Your round is already ending on {rd.say_day(v['round']['ends_on'])}, so "
                       "I can't change it now.")  # fmt: skip
        else:
            out.append("I can't see a window-cleaning round on your account, so there's nothing "
                       "to change. I can set one up for you if you'd like.")  # fmt: skip
        return "done"

    def free_only(self, req: dict[str, Any], fee: int, what: str, out: list[str]) -> bool:
        """The goal said to go ahead only if free: a fee ends the request, nothing changed."""
        if fee and rd.FREE_ONLY.search(" ".join([self.text(req), *self.s.get("said", [])])):
            out.append(f"{what} would cost {rd.pounds(fee)}, and you asked me to leave it if "
                       "there was a charge, so I haven't changed anything.")  # fmt: skip
            return True
        return False

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def visit_price(self, property_type: str, frequency: int, extras: list[str]) -> int:
        return _seed.visit_price(property_type, frequency, extras)

    def skip_fee(self, days_away: int) -> int:
        """A skip with 2 or more days' notice is free; later, a late-skip fee."""
        return 0 if days_away >= _seed.SKIP_NOTICE_DAYS else _seed.LATE_SKIP_PENCE

    def dispute_too_late(self, days_since: int) -> bool:
        return days_since > _seed.DISPUTE_DAYS

    def notice_end(self, v: dict[str, Any]) -> str:
        """The round's last day: 14 days from today."""
        return (self.today + timedelta(days=_seed.NOTICE_DAYS)).isoformat()

    def access_reply(self, v: dict[str, Any]) -> str:
        return ("For your security we never read out the access code we hold, even to the "
                "account holder.")  # fmt: skip

    # -- the round: start or change ---------------------------------------------------------
    def breakdown(self, v: dict[str, Any], frequency: int, extras: list[str]) -> str:
        house = self.visit_price(v["property_type"], frequency, [])
        parts = [f"{rd.pounds(house)} for your {_seed.PROPERTY_NAMES[v['property_type']]} at the "
                 f"{frequency}-weekly rate"]  # fmt: skip
        parts += [f"{rd.pounds(_seed.EXTRA_PENCE[e])} for {_seed.EXTRA_NAMES[e]}" for e in extras]
        return " plus ".join(parts)

    async def step_round(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        r = v["round"]
        if r and r["status"] != "active":
            return self.no_round(v, out)
        freq = rd.frequency(text)
        bare = re.fullmatch(r"\s*(?:every\s+)?([468])\s*(?:weeks?)?\W*", req["chunks"][-1], re.I)
        if freq is None and bare and len(req["chunks"]) > 1:
            freq = int(bare.group(1))  # a bare answer to "every 4, 6 or 8 weeks?"
        current = [e for e in (r["extras"].split(",") if r else []) if e]
        # extras may be said in a clause of their own ("and please do the conservatory too")
        said = rd.extras(" ".join([text, *self.s.get("said", [])]))
        extras = sorted(set(said) | set(current))
        if "conservatory" in extras and not v["conservatory"]:
            out.append("We don't have a conservatory on record for your property, so I can't "
                       "add that; nothing has been changed. The office can update your "
                       f"property details on {OFFICE}.")  # fmt: skip
            return "done"
        if freq is None:
            return self.ask(
                "frequency_weeks",
                "How often would you like us to come: every 4, 6 "
                "or 8 weeks? Rounds less often cost a little more a visit.",
                out,
            )
        if r is None and v["conservatory"] and "conservatory" not in extras:
            if not req.get("asked_extras"):
                req["asked_extras"] = True
                return self.ask(
                    "extras",
                    "You have a conservatory on record: would you like it "
                    "cleaned at each visit too, for £8.00 more a visit?",
                    out,
                )
            if rd.answer(req["chunks"][-1]) == "yes":
                extras = sorted({*extras, "conservatory"})
        price = self.visit_price(v["property_type"], freq, extras)
        how = self.breakdown(v, freq, extras)
        if r is None:
            return self.propose_start(req, v, freq, extras, price, how, out)
        if freq == r["frequency_weeks"] and extras == sorted(current):
            out.append(f"Your round is already every {freq} weeks at {rd.pounds(price)} a visit, "
                       "so there's nothing to change.")  # fmt: skip
            return "done"
        nxt = self.upcoming(v)
        if not nxt:
            out.append("You have no cleans booked to re-space the round from, so I can't change "
                       f"it here. The office can help on {OFFICE}.")  # fmt: skip
            return "done"
        after = (date.fromisoformat(nxt[0]["date"]) + timedelta(weeks=freq)).isoformat()
        return self.propose(
            req, out,
            f"To change your round from every {r['frequency_weeks']} weeks to every {freq} "
            f"weeks: {rd.pounds(price)} a visit ({how}), instead of "
            f"{rd.pounds(r['price_pence'])}. Your next clean stays on "
            f"{rd.say_day(nxt[0]['date'])}; the one after is {rd.say_day(after)}. Shall I "
            "change it?",
            [("change_round", {"account_id": v["account_id"], "frequency_weeks": freq,
                               "extras": extras, "price_pence": price})],
        )  # fmt: skip

    def propose_start(self, req: dict[str, Any], v: dict[str, Any], freq: int,
                      extras: list[str], price: int, how: str, out: list[str]) -> str:  # fmt: skip
        day = _seed.WEEKDAYS.index(v["round_day"])
        first = self.today + timedelta(days=_seed.FIRST_VISIT_DAYS)
        first += timedelta(days=(day - first.weekday()) % 7)
        return self.propose(
            req, out,
            f"To start your window-cleaning round at {v['address']}, {v['postcode']}: every "
            f"{freq} weeks, {rd.pounds(price)} a visit ({how}), billed after each clean. Your "
            f"street's round day is {v['round_day'].capitalize()}, so your first clean is "
            f"{rd.say_day(first.isoformat())}, then every {freq} weeks. Shall I set it up?",
            [("start_round", {"account_id": v["account_id"], "frequency_weeks": freq,
                              "extras": extras, "price_pence": price,
                              "first_visit": first.isoformat()})],
        )  # fmt: skip

    # -- single visits: skip, move, one-off jobs --------------------------------------------
    def no_visit(self, out: list[str]) -> str:
        out.append("I can't see a clean booked on your account that matches that, so I haven't "
                   "changed anything.")  # fmt: skip
        return "done"

    async def step_skip(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        x = self.pick_visit(v, self.text(req))
        if x is None:
            return self.no_visit(out)
        fee = self.skip_fee(x["days_away"])
        if self.free_only(req, fee, f"Skipping your clean on {rd.say_day(x['date'])}", out):
            return "done"
        charge = (f"it's less than 2 days away, so there's a late-skip fee of {rd.pounds(fee)}, "
                  "added to your account" if fee else
                  "there's no charge, as it's 2 or more days away")  # fmt: skip
        later = [y for y in self.upcoming(v) if y["date"] > x["date"]]
        then = f" Your next clean after that is {rd.say_day(later[0]['date'])}." if later else ""
        return self.propose(
            req, out, f"To skip your clean on {rd.say_day(x['date'])} "
            f"({rd.pounds(x['price_pence'])}): {charge}.{then} Shall I skip it?",
            [("skip_visit", {"account_id": v["account_id"], "visit_id": x["visit_id"],
                             "fee_pence": fee})],
        )  # fmt: skip

    async def step_move(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        x = self.pick_visit(v, text)
        if x is None:
            return self.no_visit(out)
        new = [d for d in rd.dates(text, self.today) if d > self.today]
        new = [d for d in new if d.isoformat() not in {y["date"] for y in self.upcoming(v)}]
        if not new:
            return self.ask("new_date", f"Which day would you like instead of "
                            f"{rd.say_day(x['date'])}? It can be up to 7 days either side, "
                            "Monday to Saturday.", out)  # fmt: skip
        day = new[-1]
        gap = abs((day - date.fromisoformat(x["date"])).days)
        if gap > _seed.MOVE_WINDOW_DAYS or day.weekday() == 6:
            return self.ask("new_date", f"I'm sorry — a clean can only move to a day up to 7 "
                            f"days either side of {rd.say_day(x['date'])}, Monday to Saturday, "
                            "so not to " + rd.say_day(day.isoformat()) + ". Which day would suit "
                            "you instead? Or I can skip it.", out)  # fmt: skip
        return self.propose(
            req, out, f"To move your clean on {rd.say_day(x['date'])} to "
            f"{rd.say_day(day.isoformat())}: no charge, and the same price "
            f"({rd.pounds(x['price_pence'])}). Your later cleans stay as they are. Shall I move "
            "it?",
            [("move_visit", {"account_id": v["account_id"], "visit_id": x["visit_id"],
                             "new_date": day.isoformat()})],
        )  # fmt: skip

    async def step_job(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        kind = rd.job_kind(text) or "gutter_clear"
        x = self.pick_visit(v, text)
        if x is None:
            out.append("One-off jobs are done on one of your round's cleans, and I can't see one "
                       "booked, so I haven't added anything.")  # fmt: skip
            return "done"
        if kind == "gutter_clear" and v["property_type"] == "flat":
            out.append("I'm sorry — we don't clear gutters on flats; that's for the building's "
                       "managing agent. Nothing has been changed.")  # fmt: skip
            return "done"
        if kind == "conservatory_roof" and not v["conservatory"]:
            out.append("We don't have a conservatory on record for your property, so I can't book "
                       "a roof clean. Nothing has been changed.")  # fmt: skip
            return "done"
        price = (_seed.GUTTER_CLEAR_PENCE[v["property_type"]] if kind == "gutter_clear"
                 else _seed.JOB_PENCE[kind])  # fmt: skip
        name = _seed.JOB_NAMES[kind]
        if self.free_only(req, price, name.capitalize(), out):
            return "done"
        return self.propose(
            req, out, f"To add {name} ({rd.pounds(price)}) to your clean on "
            f"{rd.say_day(x['date'])}, billed with that clean. Shall I add it?",
            [("add_job", {"account_id": v["account_id"], "visit_id": x["visit_id"],
                          "kind": kind, "price_pence": price})],
        )  # fmt: skip

    # -- pausing ---------------------------------------------------------------------------
    def pause_window(self, text: str) -> tuple[date, date] | None:
        said = [d for d in rd.dates(text, self.today, all_said=True) if d > self.today]
        weeks = rd.weeks_said(text)
        tomorrow = self.today + timedelta(days=1)
        if len(said) >= 2:
            return said[0], said[1]
        if said and weeks:
            return said[0], said[0] + timedelta(days=7 * weeks - 1)
        if said and re.search(r"\b(?:until|till|til)\b", text, re.I):
            return tomorrow, said[0]
        if weeks:
            return tomorrow, tomorrow + timedelta(days=7 * weeks - 1)
        return None

    async def step_pause(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if not self.active(v):
            return self.no_round(v, out)
        last = v["last_pause_on"]
        if last and (self.today - date.fromisoformat(last)).days < _seed.PAUSE_EVERY_DAYS:
            again = date.fromisoformat(last) + timedelta(days=_seed.PAUSE_EVERY_DAYS)
            out.append(
                f"I'm sorry — your round was paused from {rd.say_day(last)} {last[:4]}, "
                "and a pause can be taken once in any 12 months, so the next one can "
                f"start from {rd.say_day(again.isoformat())} {again.year}. I can skip "
                "single cleans instead if that helps. Nothing has been changed."
            )
            return "done"
        window = self.pause_window(self.text(req))
        if window is None:
            return self.ask("pause_dates", "From which day to which day would you like to pause "
                            "the round? A pause can be up to 12 weeks.", out)  # fmt: skip
        start, end = window
        if end < start or (end - start).days + 1 > _seed.PAUSE_MAX_DAYS:
            return self.ask("pause_dates", "I'm sorry — a pause can be at most 12 weeks. From "
                            "which day to which day would you like it?", out)  # fmt: skip
        first, last_day = start.isoformat(), end.isoformat()
        inside = [x for x in self.upcoming(v) if first <= x["date"] <= last_day]
        if not inside:
            out.append(
                f"No cleans fall between {rd.say_day(first)} and {rd.say_day(last_day)}, "
                "so there's nothing to pause and I haven't changed anything."
            )
            return "done"
        after = [x for x in self.upcoming(v) if x["date"] > last_day]
        then = (f" Your next clean after the pause is {rd.say_day(after[0]['date'])}."
                if after else "")  # fmt: skip
        cleans = " and ".join(rd.say_day(x["date"]) for x in inside)
        return self.propose(
            req, out, f"To pause your round from {rd.say_day(first)} to {rd.say_day(last_day)}: "
            f"the {'clean' if len(inside) == 1 else 'cleans'} on {cleans} won't happen and "
            f"won't be charged.{then} A pause can be taken once in any 12 months. Shall I pause "
            "it?",
            [("pause_round", {"account_id": v["account_id"], "start": first,
                              "end": last_day})],
        )  # fmt: skip

    # -- money: payments and disputes -------------------------------------------------------
    @staticmethod
    def charge_line(ch: dict[str, Any]) -> str:
        what = "late-skip fee for" if ch["kind"] == "late_skip" else "for the clean on"
        return f"{rd.pounds(ch['amount_pence'])} {what} {rd.say_day(ch['visit_date'])}"

    async def step_pay(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        unpaid = [c for c in v["charges"] if c["status"] == "unpaid"]
        said = {d.isoformat() for d in rd.dates(self.text(req), self.today, all_said=True)}
        unpaid = [c for c in unpaid if c["visit_date"] in said] or unpaid
        held = [c for c in v["charges"] if c["status"] == "disputed"]
        note = (f" The {rd.pounds(sum(c['amount_pence'] for c in held))} under dispute is on "
                "hold, so it isn't included." if held else "")  # fmt: skip
        if not unpaid:
            out.append("There's nothing to pay: your account is clear." + note)
            return "done"
        total = sum(c["amount_pence"] for c in unpaid)
        lines = "; ".join(self.charge_line(c) for c in unpaid)
        return self.propose(
            req, out, f"To pay {rd.pounds(total)} ({lines}) from your card ending "
            f"{v['card_last4']}.{note} Shall I take the payment?",
            [("pay_charges", {"account_id": v["account_id"],
                              "charge_ids": [c["charge_id"] for c in unpaid],
                              "amount_pence": total})],
        )  # fmt: skip

    async def step_dispute(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        open_ = [c for c in v["charges"] if c["status"] != "disputed"]
        said = {d.isoformat() for d in rd.dates(text, self.today, all_said=True)}
        named = [c for c in open_ if c["visit_date"] in said]
        if not named:
            named = sorted(open_, key=lambda c: c["visit_date"], reverse=True)
        if not named:
            out.append("I can't see a charge on your account to dispute.")
            return "done"
        ch = named[0]
        days = ch["days_since_visit"]
        if self.dispute_too_late(days):
            out.append(f"I'm sorry — a charge can only be disputed within 14 days of the visit, "
                       f"and the clean on {rd.say_day(ch['visit_date'])} was {days} days ago, so "
                       f"I can't open a dispute on the {rd.pounds(ch['amount_pence'])} charge. "
                       f"Nothing has been changed. If something's wrong, the office on {OFFICE} "
                       "can talk it through with you.")  # fmt: skip
            return "done"
        return self.propose(
            req, out, f"To dispute the {rd.pounds(ch['amount_pence'])} charge "
            f"{self.charge_line(ch).split(' ', 1)[1]}: it's put on hold — no payment is taken "
            "for it — while the office looks into it, and they'll reply within 5 working days. "
            "Shall I raise it?",
            [("dispute_charge", {"account_id": v["account_id"], "charge_id": ch["charge_id"],
                                 "reason": req["chunks"][0]})],
        )  # fmt: skip

    # -- ending the round, access codes, look-ups -------------------------------------------
    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if not self.active(v):
            return self.no_round(v, out)
        end = self.notice_end(v)
        right = (self.today + timedelta(days=_seed.NOTICE_DAYS)).isoformat()
        inside = [x for x in self.upcoming(v) if x["date"] <= right]
        after = [x for x in self.upcoming(v) if x["date"] > end]
        if inside and end >= right:
            kept = " and ".join(f"{rd.say_day(x['date'])} ({rd.pounds(x['price_pence'])})"
                                for x in inside)  # fmt: skip
            notice = (f"Your clean on {kept} still goes ahead in the notice period and is "
                      "charged as usual." if len(inside) == 1 else f"Your cleans on {kept} "
                      "still go ahead in the notice period and are charged as usual.")  # fmt: skip
        else:
            notice = "There are no cleans in the notice period."
        gone = f" The cleans after that, from {rd.say_day(after[0]['date'])}, are cancelled." if (
            after) else ""  # fmt: skip
        return self.propose(
            req, out, f"To cancel your round with 14 days' notice: it ends on "
            f"{rd.say_day(end)}. {notice}{gone} Anything unpaid is still due. Shall I cancel "
            "it?",
            [("cancel_round", {"account_id": v["account_id"], "end_date": end})],
        )  # fmt: skip

    async def step_access(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        said = rd.codes(self.text(req))
        if said:
            return self.propose(
                req, out, f"To change the access code on your account to {said[-1]}. Shall I "
                "update it?",
                [("set_access_code", {"account_id": v["account_id"], "access_code": said[-1]})],
            )  # fmt: skip
        if req.get("explained"):
            out.append("I'm sorry, I can't read a code out. Whenever you'd like us to use a new "
                       "one, just tell me it and I'll put it on your account.")  # fmt: skip
            return "done"
        req["explained"] = True
        out.append(self.access_reply(v) if v["access_code"] else
                   "We don't have an access code on your account.")  # fmt: skip
        return self.ask("access_code", "If you tell me the code you'd like us to use, I'll put "
                        "it on your account.", out)  # fmt: skip

    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        visits = self.upcoming(v)
        if visits:
            then = f", then {rd.say_day(visits[1]['date'])}" if len(visits) > 1 else ""
            out.append(f"Your next clean is {rd.say_day(visits[0]['date'])} "
                       f"({rd.pounds(visits[0]['price_pence'])}){then}.")  # fmt: skip
        elif not v["round"]:
            out.append("You don't have a window-cleaning round with us at the moment.")
        unpaid = [c for c in v["charges"] if c["status"] == "unpaid"]
        if unpaid:
            out.append(f"You owe {rd.pounds(sum(c['amount_pence'] for c in unpaid))}: "
                       + "; ".join(self.charge_line(c) for c in unpaid) + ".")  # fmt: skip
        else:
            out.append("You don't owe anything.")
        return "done"

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:  # noqa: C901
        """What the system returned, in the customer's words."""
        if intent == "round" and "first_visit" in r:
            return (f"Done — your round is set up: every {r['frequency_weeks']} weeks, "
                    f"{r['price']} a visit; your first clean is "
                    f"{rd.say_day(r['first_visit'])}.")  # fmt: skip
        if intent == "round":
            after = f", then {rd.say_day(r['visit_after'])}" if r["visit_after"] else ""
            return (
                f"Done — your round is now every {r['frequency_weeks']} weeks at "
                f"{r['price']} a visit; next clean {rd.say_day(r['next_visit'])}{after}."
            )
        if intent == "skip":
            fee = (f"; a {r['fee']} late-skip fee is added to your account"
                   if r["fee"] != "£0.00" else "")  # fmt: skip
            return f"Done — your clean on {rd.say_day(r['date'])} is skipped{fee}."
        if intent == "move":
            return (f"Done — your clean on {rd.say_day(r['old_date'])} is moved to "
                    f"{rd.say_day(r['date'])}.")  # fmt: skip
        if intent == "pause":
            then = (f" Your next clean is {rd.say_day(r['next_visit'])}."
                    if r["next_visit"] else "")  # fmt: skip
            return (
                f"Done — your round is paused from {rd.say_day(r['start'])} to "
                f"{rd.say_day(r['end'])}; {len(r['paused_visits'])} clean(s) paused.{then}"
            )
        if intent == "job":
            return (f"Done — {_seed.JOB_NAMES[r['kind']]} is booked with your clean on "
                    f"{rd.say_day(r['date'])} ({r['price']}).")  # fmt: skip
        if intent == "pay":
            return f"Done — {r['paid']} paid from your card ending {r['card_last4']}. Thank you."
        if intent == "dispute":
            return (
                f"Done — the {r['amount']} charge for {rd.say_day(r['visit_date'])} is "
                "disputed and on hold; the office will reply within 5 working days."
            )
        if intent == "cancel":
            kept = r["visits_still_to_come"]
            still = (" Still to come: " + ", ".join(rd.say_day(d) for d in kept) + "."
                     if kept else "")  # fmt: skip
            return (f"Done — your round ends on {rd.say_day(r['ends_on'])}.{still} "
                    f"{r['visits_cancelled']} later clean(s) cancelled.")  # fmt: skip
        return "Done — the new access code is on your account."

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        if req["intent"] == "pay":
            out.append(
                f"I'm sorry — the payment didn't go through: {error}. Nothing has been "
                f"taken. You can update your card with the office on {OFFICE}."
            )
            return
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
