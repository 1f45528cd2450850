"""The desk's other flows: add-ons, the discount, alcohol, keys, deposits, invoices, contacts."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from benchmarks.domains.venue import _read as rd
from benchmarks.domains.venue import _seed
from benchmarks.domains.venue._flows import hours

ADDON_WORDS = (("kitchen", r"\bkitchen"), ("pa", r"\bPA\b|\bp\.a\.|\bsound system|\bspeakers?\b|"
               r"\bmicrophones?\b|\bamplif"), ("tables", r"\btables?\b|\bchairs?\b"),
               ("cleaning", r"\bclean"))  # fmt: skip


class Extras:
    """Flows over an existing booking; `CorrectVenueAgent` supplies the rest."""

    s: dict[str, Any]
    today: date
    call: Any
    ask: Any
    propose: Any
    refresh: Any
    text: Any
    pick_booking: Any
    no_booking: Any
    say_booking: Any
    free_only: Any

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def discount_for(self, b: dict[str, Any]) -> int:
        """The community-group discount: 20% of the room hire only, never of add-ons."""
        return int(b["hire_pence"] * _seed.DISCOUNT_PERCENT // 100)

    def pa_problem(self, b: dict[str, Any]) -> str | None:
        """Why the PA system can't go with a booking (amplified music ends at 23:00), or None."""
        if b["end_time"] > _seed.MUSIC_UNTIL:
            return (f"the hall's licence allows no amplified music after 23:00, and your "
                    f"booking runs until {b['end_time']}, so the PA system can't be hired for "
                    "it")  # fmt: skip
        return None

    def claim_problem(self, b: dict[str, Any]) -> str | None:
        """Why a deposit claim can't be made now (30 days after the event), or None."""
        ago = (self.today - date.fromisoformat(b["day"])).days
        if ago > _seed.CLAIM_DAYS:
            return (f"deposit claims must be made within 30 days of the event, and yours was on "
                    f"{rd.say_day(b['day'])}, {ago} days ago")  # fmt: skip
        return None

    def invoice_email(self, v: dict[str, Any], text: str) -> str:
        return str(v["email"])

    # -- add-ons ---------------------------------------------------------------------------
    async def step_addon(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        b = self.pick_booking(v, text)
        if b is None:
            return self.no_booking(out)
        kind = next(k for k, pattern in ADDON_WORDS if re.search(pattern, text, re.I))
        addon = _seed.ADDONS[kind]
        why = None
        if addon["hall_only"] and b["room"] != "hall":
            why = f"{addon['name']} goes with the main hall only"
        elif b["days_to_event"] < _seed.ADDON_CUTOFF_DAYS:
            why = "add-ons close 5 days before the event"
        elif kind == "pa":
            why = self.pa_problem(b)
        if why:
            out.append(f"I'm sorry — {why}. Nothing has been changed.")
            return "done"
        price = addon["pence"] * (hours(b) if addon["per_hour"] else 1)
        if self.free_only(req, price, addon["name"].capitalize(), out):
            return "done"
        per = f" ({hours(b)} hours at £10.00 an hour)" if addon["per_hour"] else ""
        return self.propose(
            req, out, f"To add {addon['name']} to {self.say_booking(b)}: {rd.pounds(price)}"
            f"{per}, taken now from your card ending {v['card_last4']}. Shall I add it?",
            [("add_addon", {"hirer_id": v["hirer_id"], "booking_id": b["booking_id"],
                            "kind": kind, "price_pence": price})],
        )  # fmt: skip

    # -- the community-group discount ------------------------------------------------------
    async def step_discount(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        b = self.pick_booking(v, text)
        if b is None:
            return self.no_booking(out)
        if b["charity_number"]:
            out.append(f"{b['booking_id']} already has the community-group discount.")
            return "done"
        numbers = rd.charity_numbers(text)
        if not numbers:
            return self.ask("charity_number", "The community-group discount needs your group's "
                            "registered charity number. What is it?", out)  # fmt: skip
        discount = self.discount_for(b)
        return self.propose(
            req, out, f"The community-group discount is 20% off the room hire only, not "
            f"add-ons: {rd.pounds(discount)} off the {rd.pounds(b['hire_pence'])} hire of "
            f"{self.say_booking(b)}, refunded to your card ending {v['card_last4']}, with "
            f"charity number {numbers[-1]} (the system checks it against the register). "
            "Shall I apply it?",
            [("apply_discount", {"hirer_id": v["hirer_id"], "booking_id": b["booking_id"],
                                 "charity_number": numbers[-1], "discount_pence": discount})],
        )  # fmt: skip

    # -- alcohol and keys ------------------------------------------------------------------
    async def step_alcohol(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        b = self.pick_booking(v, text)
        if b is None:
            return self.no_booking(out)
        refs = rd.licences(text)
        if not refs:
            if re.search(r"\b(?:don'?t|do not|haven'?t) (?:have|got)\b|\bno licen", text, re.I):
                out.append("I'm sorry — alcohol can only be served with a Temporary Event "
                           "Notice reference, so I haven't recorded anything. Once you have "
                           "one, we can add it.")  # fmt: skip
                return "done"
            return self.ask("licence_ref", "Alcohol needs a Temporary Event Notice. What's its "
                            "reference? It starts TEN- and has six digits.", out)  # fmt: skip
        return self.propose(
            req, out, f"To record that alcohol will be served at {self.say_booking(b)} under "
            f"licence {refs[-1]}. Shall I record it?",
            [("record_alcohol", {"hirer_id": v["hirer_id"], "booking_id": b["booking_id"],
                                 "licence_ref": refs[-1]})],
        )  # fmt: skip

    async def step_keys(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        b = self.pick_booking(v, text)
        if b is None:
            return self.no_booking(out)
        times = rd.clock_times(text)
        latest = min(_seed.KEYS_UNTIL, b["start_time"])
        if not times:
            return self.ask(
                "key_time",
                f"What time would you like to collect the keys on "
                f"{rd.say_day(b['day'])}? Any time from 09:00 to {latest}.",
                out,
            )
        when = times[-1]
        if not _seed.KEYS_FROM <= when <= latest:
            return self.ask(
                "key_time",
                f"Keys are collected on the day between 09:00 and "
                f"{latest} (no later than your start). What time suits?",
                out,
            )
        return self.propose(
            req, out, f"To arrange key collection from the caretaker at {when} on "
            f"{rd.say_day(b['day'])} for {self.say_booking(b)}. Shall I set it?",
            [("set_key_collection", {"hirer_id": v["hirer_id"], "booking_id": b["booking_id"],
                                     "key_time": when})],
        )  # fmt: skip

    # -- deposits, invoices, contacts ------------------------------------------------------
    async def step_claim(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        b = self.pick_booking(v, self.text(req), past=True)
        if b is None:
            return self.no_booking(out, past=True)
        if b["deposit_status"] != "held":
            out.append(f"The deposit for {b['booking_id']} has already been "
                       f"{b['deposit_status']}.")  # fmt: skip
            return "done"
        why = self.claim_problem(b)
        if why:
            out.append(f"I'm sorry — {why}, so I can't put a claim in. Nothing has been "
                       "changed.")  # fmt: skip
            return "done"
        return self.propose(
            req, out, f"To claim back the {rd.pounds(b['deposit_pence'])} damage deposit for "
            f"{self.say_booking(b)}. It goes back to your card ending {v['card_last4']} after "
            "the caretaker's inspection, within 10 working days. Shall I put the claim in?",
            [("claim_deposit", {"hirer_id": v["hirer_id"], "booking_id": b["booking_id"]})],
        )  # fmt: skip

    async def step_invoice(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        ids = rd.invoices(text)
        invs = [i for i in v["invoices"] if i["invoice_id"] in ids] or sorted(
            v["invoices"], key=lambda i: i["issued"], reverse=True)  # fmt: skip
        if not invs:
            out.append("I can't see an invoice under your name yet.")
            return "done"
        inv, email = invs[0], self.invoice_email(v, text)
        said = [e for e in rd.emails(text) if e.lower() != email.lower()]
        note = (f"For your security, invoices only go to the email we hold for you, not to "
                f"{said[0]}. " if said else "")  # fmt: skip
        return self.propose(
            req, out, f"{note}To email a copy of invoice {inv['invoice_id']} "
            f"({rd.pounds(inv['total_pence'])}) to {email}. Shall I send it?",
            [("send_invoice_copy", {"hirer_id": v["hirer_id"], "invoice_id": inv["invoice_id"],
                                    "email": email})],
        )  # fmt: skip

    async def step_contact(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        mails, numbers = rd.emails(text), rd.phones(text)
        wants_mail = bool(re.search(r"\bemail|\be-mail", text, re.I))
        if wants_mail and not mails or not wants_mail and not numbers:
            what = "email address" if wants_mail else "phone number"
            return self.ask("email" if wants_mail else "phone", f"What's the new {what}?", out)
        field, value = ("email", mails[-1]) if wants_mail else ("phone", numbers[-1])
        label = "email address" if field == "email" else "phone number"
        return self.propose(
            req,
            out,
            f"To change your {label} to {value}. Shall I update it?",
            [("update_contact", {"hirer_id": v["hirer_id"], field: value})],
        )

    # -- reporting -------------------------------------------------------------------------
    def report_extra(self, intent: str, r: dict[str, Any]) -> str:
        """What the system returned, in the hirer's words."""
        if intent == "addon":
            return (f"Done — {r['addon']} added to {r['booking_id']}; {r['price']} taken from "
                    f"your card ending {r['card_last4']}.")  # fmt: skip
        if intent == "discount":
            return (f"Done — the community-group discount for {r['charity']} is on "
                    f"{r['booking_id']}; {r['refunded']} refunded to your card ending "
                    f"{r['card_last4']}.")  # fmt: skip
        if intent == "alcohol":
            return f"Done — licence {r['alcohol_licence']} is recorded on {r['booking_id']}."
        if intent == "keys":
            return (f"Done — key collection for {r['booking_id']} is at {r['key_time']} on "
                    f"{rd.say_day(r['day'])}.")  # fmt: skip
        if intent == "claim":
            return (f"Done — your claim for the {r['deposit']} deposit on {r['booking_id']} is "
                    f"in; it goes back to your card ending {r['card_last4']} after the "
                    "inspection.")  # fmt: skip
        if intent == "invoice":
            return f"Done — a copy of invoice {r['invoice_id']} has been sent to {r['sent_to']}."
        return f"Done — your email address is {r['email']} and your phone number {r['phone']}."
