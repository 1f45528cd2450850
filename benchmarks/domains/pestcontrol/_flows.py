"""The desk's flows: book, quote, revisit, move, cancel, contact details and look-ups."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from benchmarks.domains.pestcontrol import _read as rd
from benchmarks.domains.pestcontrol import _seed

PHONE = "0113 496 0500"
NOT_SURE = re.compile(r"\bnot sure\b|\bdon'?t know\b|\bno idea\b|\bunsure\b|\bcan'?t tell\b", re.I)
PEST_WORDS = {"mice": "mouse", "rats": "rat", "wasps": "wasp nest", "ants": "ant",
              "fleas": "flea", "bedbugs": "bedbug", "cockroaches": "cockroach"}  # fmt: skip


def what(v: dict[str, Any]) -> str:
    """A visit in words: 'mouse treatment', 'bedbug inspection', 'flea warranty revisit'."""
    pest = PEST_WORDS.get(v["pest"], "")
    kind = "warranty revisit" if v["kind"] == "revisit" else v["kind"]
    return f"{pest} {kind}".strip()


def a(words: str) -> str:
    """'a mouse treatment', 'an inspection'."""
    return ("an " if words[:1].lower() in "aeiou" else "a ") + words


def slot_words(slot: str) -> str:
    return _seed.SLOTS[slot]


def vacate_words(hours: int) -> str:
    if not hours:
        return ""
    return (f" Everyone, and any pets, must stay out of the property for {hours} hours from "
            "when the treatment starts; please cover fish tanks and put food away.")  # fmt: skip


class Flows:
    """The flows; `CorrectPestcontrolAgent` supplies the state, the calls and the questions."""

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
        booked = [x for x in v["visits"] if x["status"] == "booked"]
        return sorted(booked, key=lambda x: (x["visit_date"], x["slot"]))

    def pick_visit(self, pool: list[dict[str, Any]], text: str) -> dict[str, Any] | None:
        """The visit meant: by job number, by the pest named, by its day, or the only one."""
        ids = rd.jobs(text)
        named = [x for x in pool if x["job_id"] in ids]
        if not named and rd.pests(text):
            # a pest named that no visit is for: not one of these
            named = [x for x in pool if x["pest"] in set(rd.pests(text))]
            if not named:
                return None
        if len(named) != 1:
            days = {d.isoformat() for d in rd.dates(text, self.today, all_said=True)}
            on_day = [x for x in (named or pool) if x["visit_date"] in days]
            named = on_day or named
        if not named and len(pool) == 1:
            named = pool
        return named[0] if named else None

    def no_visit(self, out: list[str], kind: str = "booked visit") -> str:
        out.append(f"I can't find a {kind} that matches that on your account.")
        return "done"

    def say_visit(self, x: dict[str, Any]) -> str:
        return (f"your {what(x)} (job {x['job_id']}) on {rd.say_day(x['visit_date'])}, "
                f"{slot_words(x['slot'])}")  # fmt: skip

    def when(self, req: dict[str, Any], avoid: str | None = None) -> tuple[str | None, str | None]:
        """The day (the last future one said, not `avoid`) and the slot asked for."""
        days = [d.isoformat() for d in rd.dates(self.text(req), self.today) if d > self.today]
        days = [d for d in days if d != avoid]
        return (days[-1] if days else None), rd.slot(self.text(req))

    def ask_day(self, day: str | None, slot: str | None, out: list[str]) -> str | None:
        """Ask for what is missing of a day and a slot; None when both are there."""
        if day is None:
            return self.ask("visit_date", "Which day would you like? Our technicians visit "
                            "Monday to Saturday.", out)  # fmt: skip
        if date.fromisoformat(day).weekday() == 6:
            return self.ask("visit_date", f"We don't visit on Sundays, so {rd.say_day(day)} "
                            "isn't possible. Which other day would suit?", out)  # fmt: skip
        if slot is None:
            return self.ask("slot", f"Morning (8am to 12pm) or afternoon (12pm to 5pm) on "
                            f"{rd.say_day(day)}?", out)  # fmt: skip
        return None

    def free_only(self, req: dict[str, Any], fee: int, what_: str, out: list[str]) -> bool:
        """The customer said to go ahead only if free: a fee ends the request, nothing changed."""
        if fee and rd.FREE_ONLY.search(" ".join([self.text(req), *self.s.get("said", [])])):
            out.append(f"{what_} would cost {rd.pounds(fee)}, and you asked me to leave it if "
                       "there was a charge, so I haven't changed anything.")  # fmt: skip
            return True
        return False

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def band_of(self, bedrooms: int) -> str:
        return _seed.band(bedrooms)

    def surcharge(self, day: str) -> int:
        """A paid visit on a Saturday costs £20.00 more."""
        return _seed.SATURDAY_PENCE if date.fromisoformat(day).weekday() == 5 else 0

    def warranty_days(self, pest: str) -> int:
        return _seed.PESTS[pest][2]

    def in_warranty(self, t: dict[str, Any]) -> bool:
        """A revisit claimed within the warranty, counted from the treatment day to today."""
        age = (self.today - date.fromisoformat(t["visit_date"])).days
        return age <= self.warranty_days(t["pest"])

    def needs_survey(self, v: dict[str, Any], pest: str) -> bool:
        """Bedbugs and cockroaches: a treatment only after an inspection in the last 30 days."""
        if pest not in _seed.SURVEY_PESTS:
            return False
        since = (self.today - timedelta(days=_seed.SURVEY_DAYS)).isoformat()
        return not any(x["kind"] == "inspection" and x["pest"] == pest and x["status"] == "done"
                       and x["visit_date"] >= since for x in v["visits"])  # fmt: skip

    # -- quotes and bookings ---------------------------------------------------------------
    async def price_list(self, pest: str, bedrooms: int) -> dict[str, Any]:
        result, error = await self.call("quote", pest=pest, size=self.band_of(bedrooms))
        if error:
            raise RuntimeError(error)
        return dict(result)

    async def step_quote(self, req: dict[str, Any], out: list[str]) -> str:
        text = self.text(req)
        pests = rd.pests(text)
        if not pests:
            return self.ask("pest", "Which pest is it: mice, rats, wasps, ants, fleas, bedbugs "
                            "or cockroaches?", out)  # fmt: skip
        beds = next((b for b in map(rd.bedrooms, reversed(req["chunks"])) if b), None)
        if beds is None and self.s.get("view"):
            beds = int(self.s["view"]["bedrooms"])
        if beds is None:
            return self.ask("bedrooms", "How many bedrooms does the property have?", out)
        q = await self.price_list(pests[0], beds)
        out.append(
            f"{a(PEST_WORDS[q['pest']]).capitalize()} treatment for a {beds}-bedroom property is "
            f"{rd.pounds(q['price_pence'])}, or {rd.pounds(q['saturday_surcharge_pence'])} more "
            f"on a Saturday.{vacate_words(q['vacate_hours'])} It comes with a "
            f"{q['warranty_days']}-day warranty: if they come back in that time, we revisit free."
        )
        if q["pest"] in _seed.SURVEY_PESTS:
            out.append(f"We inspect first ({rd.pounds(q['inspection_pence'])}) before treating "
                       f"{q['pest']}.")  # fmt: skip
        return "done"

    async def step_book(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        pest = next(iter(rd.pests(text) or rd.pests(" ".join(self.s.get("said", [])))), "")
        # "inspected last week, book the treatment" is a treatment
        looks = re.search(rd.INSPECT, text, re.I) or NOT_SURE.search(text)
        kind = "inspection" if looks and not re.search(r"\btreat", text, re.I) else "treatment"
        if kind == "treatment" and not pest:
            return self.ask("pest", "Which pest is it: mice, rats, wasps, ants, fleas, bedbugs or "
                            "cockroaches? If you're not sure, I can book an inspection "
                            f"({rd.pounds(_seed.INSPECTION_PENCE)}).", out)  # fmt: skip
        day, slot = self.when(req)
        missing = self.ask_day(day, slot, out)
        if missing or day is None or slot is None:
            return missing or "wait"
        first = ""
        if kind == "treatment" and self.needs_survey(v, pest):
            kind = "inspection"
            first = (f"Before we can treat {pest}, a technician has to inspect the property "
                     "(within the last 30 days) to size the job, so the first visit is an "
                     "inspection; we'll book the treatment after it. ")  # fmt: skip
        vacate, cover = 0, ""
        if kind == "inspection":
            base = _seed.INSPECTION_PENCE
        else:
            q = await self.price_list(pest, int(v["bedrooms"]))
            base, vacate = int(q["price_pence"]), int(q["vacate_hours"])
            cover = f" It comes with a {q['warranty_days']}-day warranty."
        extra = self.surcharge(day)
        sat = f" (including the {rd.pounds(extra)} Saturday surcharge)" if extra else ""
        label = what({"pest": pest, "kind": kind})
        return self.propose(
            req, out,
            f"{first}To book {a(label)} at {v['address']}, {v['postcode']}, on {rd.say_day(day)}, "
            f"{slot_words(slot)}: {rd.pounds(base + extra)}{sat} for a {v['bedrooms']}-bedroom "
            f"property, charged now to your card ending {v['card_last4']}."
            f"{vacate_words(vacate)}{cover} Shall I book it?",
            [("book_visit", {"account_id": v["account_id"], "kind": kind, "pest": pest,
                             "visit_date": day, "slot": slot, "price_pence": base + extra})],
        )  # fmt: skip

    # -- warranty revisits -----------------------------------------------------------------
    async def step_revisit(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        done = [x for x in v["visits"] if x["kind"] == "treatment" and x["status"] == "done"]
        t = self.pick_visit(done, text) or (done[0] if done and not rd.pests(text) else None)
        if t is None:
            return self.no_visit(out, "finished treatment")
        days = self.warranty_days(t["pest"])
        if not self.in_warranty(t):
            ended = (date.fromisoformat(t["visit_date"]) + timedelta(days=days)).isoformat()
            q = await self.price_list(t["pest"], int(v["bedrooms"]))
            out.append(
                f"I'm sorry — the {what(t)} on {rd.say_day(t['visit_date'])} had a {days}-day "
                f"warranty, which ended on {rd.say_day(ended)}, so a free revisit isn't "
                f"possible. A new treatment would be {rd.pounds(q['price_pence'])}; just ask if "
                "you'd like one. Nothing has been booked."
            )
            return "done"
        day, slot = self.when(req)
        missing = self.ask_day(day, slot, out)
        if missing or day is None or slot is None:
            return missing or "wait"
        return self.propose(
            req, out,
            f"Your {what(t)} on {rd.say_day(t['visit_date'])} (job {t['job_id']}) is still under "
            f"its {days}-day warranty. To book a free revisit on {rd.say_day(day)}, "
            f"{slot_words(slot)}: no charge.{vacate_words(t['vacate_hours'])} Shall I book it?",
            [("claim_revisit", {"account_id": v["account_id"], "job_id": t["job_id"],
                                "visit_date": day, "slot": slot})],
        )  # fmt: skip

    # -- moving and cancelling -------------------------------------------------------------
    async def step_move(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        x = self.pick_visit(self.upcoming(v), self.text(req))
        if x is None:
            return self.no_visit(out)
        if x["days_to_visit"] <= 0:
            out.append(f"I'm sorry — {self.say_visit(x)} is today, and a visit can't be moved "
                       "on its own day: the technician's round is already set. Nothing has been "
                       f"changed. You can call us on {PHONE} if you can't be in.")  # fmt: skip
            return "done"
        day, slot = self.when(req, avoid=x["visit_date"])
        missing = self.ask_day(day, slot or x["slot"], out)
        if missing or day is None:
            return missing or "wait"
        slot = slot or x["slot"]
        fee = _seed.MOVE_FEE_PENCE if x["days_to_visit"] < _seed.FREE_MOVE_DAYS else 0
        if self.free_only(req, fee, "Moving a visit less than 2 days before it", out):
            return "done"
        charge = (f"it's less than 2 days away, so there's a {rd.pounds(fee)} change fee, taken "
                  f"from your card ending {v['card_last4']}" if fee else
                  "there's no charge, as it's 2 or more days away")  # fmt: skip
        return self.propose(
            req, out, f"To move {self.say_visit(x)} to {rd.say_day(day)}, {slot_words(slot)}: "
            f"{charge}. The price stays the same. Shall I move it?",
            [("move_visit", {"account_id": v["account_id"], "job_id": x["job_id"],
                             "visit_date": day, "slot": slot, "fee_pence": fee})],
        )  # fmt: skip

    def refund_for(self, x: dict[str, Any]) -> int:
        if x["days_to_visit"] >= _seed.FREE_MOVE_DAYS:
            return int(x["price_pence"])
        return max(0, int(x["price_pence"]) - _seed.CANCEL_FEE_PENCE)

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        x = self.pick_visit(self.upcoming(v), self.text(req))
        if x is None:
            return self.no_visit(out)
        refund, paid = self.refund_for(x), int(x["price_pence"])
        if not paid:
            money = "there's nothing to refund, as the revisit was free"
        elif refund == paid:
            money = (f"as it's 2 or more days away, the {rd.pounds(paid)} you paid is refunded "
                     f"in full to your card ending {v['card_last4']}")  # fmt: skip
        else:
            money = (f"as it's less than 2 days away, {rd.pounds(paid - refund)} is kept as a "
                     f"late-cancellation charge and {rd.pounds(refund)} of the {rd.pounds(paid)} "
                     f"is refunded to your card ending {v['card_last4']}")  # fmt: skip
        return self.propose(
            req, out, f"To cancel {self.say_visit(x)}: {money}. Shall I cancel it?",
            [("cancel_visit", {"account_id": v["account_id"], "job_id": x["job_id"],
                               "refund_pence": refund})],
        )  # fmt: skip

    # -- contact details and look-ups ------------------------------------------------------
    async def step_contact(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        numbers = rd.phones(text)
        codes = rd.key_codes(text, bare=self.s.get("last_asked") == "key_code")
        wants_code = bool(re.search(r"\bcode\b|\bkey ?safe\b", text, re.I))
        if wants_code and not codes:
            return self.ask("key_code", "What's the new key safe code?", out)
        if not wants_code and not numbers:
            return self.ask("phone", "What's the new phone number?", out)
        args: dict[str, Any] = {"account_id": v["account_id"]}
        parts = []
        if numbers:
            args["phone"] = numbers[-1]
            parts.append(f"the contact phone number on your account to {numbers[-1]}")
        if codes:
            args["key_code"] = codes[-1]
            parts.append(f"the key safe code our technicians use to {codes[-1]}")
        return self.propose(req, out, f"To change {' and '.join(parts)}. Shall I update it?",
                            [("update_contact", args)])  # fmt: skip

    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        x = self.pick_visit(self.upcoming(v), self.text(req))
        if x is None:
            out.append("You have no visits booked with us at the moment.")
            return "done"
        out.append(self.describe(x, v["address"]))
        return "done"

    def describe(self, x: dict[str, Any], address: str) -> str:
        paid = f" You paid {rd.pounds(x['price_pence'])}." if x["price_pence"] else ""
        return (
            f"Your {what(x)} (job {x['job_id']}) is on {rd.say_day(x['visit_date'])}, "
            f"{slot_words(x['slot'])}, at {address}.{vacate_words(x['vacate_hours'])}{paid}"
        )

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any], args: dict[str, Any]) -> str:
        """What the system returned, in the customer's words."""
        if intent in {"book", "revisit"}:
            paid = "no charge"
            if r.get("card_last4") and r["charged"] != "£0.00":
                paid = f"{r['charged']} charged to your card ending {r['card_last4']}"
            return (f"Done — job {r['job_id']} is booked for {rd.say_day(r['visit_date'])}, "
                    f"{slot_words(r['slot'])}; {paid}.")  # fmt: skip
        if intent == "move":
            fee = f"{r['fee']} change fee taken" if r["fee"] != "£0.00" else "no charge"
            return (f"Done — job {r['job_id']} is now on {rd.say_day(r['visit_date'])}, "
                    f"{slot_words(r['slot'])}; {fee}.")  # fmt: skip
        if intent == "cancel":
            return (f"Done — job {r['job_id']} is cancelled; {r['refunded']} refunded to your "
                    f"card ending {r['card_last4']}.")  # fmt: skip
        parts = []
        if args.get("phone"):
            parts.append(f"the contact phone number on your account is now {r['phone']}")
        if args.get("key_code"):
            parts.append(f"the key safe code is now {r['key_code']}")
        return f"Done — {' and '.join(parts)}."

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, what is free instead, and that nothing changed."""
        args = pending["calls"][0][1]
        if "fully booked" in error:
            free, _ = await self.call("find_slots", visit_date=args["visit_date"])
            left = [slot_words(s) for s in (free or {}).get("free", [])]
            other = (f" The {left[0].split()[0]} is still free that day, if that would suit."
                     if left else " That day is fully booked.")  # fmt: skip
            out.append(f"I'm sorry — {rd.say_day(args['visit_date'])}, "
                       f"{slot_words(args['slot'])}, is fully booked, so nothing has been "
                       f"changed.{other}")  # fmt: skip
            return
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
