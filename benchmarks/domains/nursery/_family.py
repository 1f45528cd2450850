"""The desk's family flows: funded hours, collectors, notes, invoices, contact details."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from benchmarks.domains.nursery import _read as rd
from benchmarks.domains.nursery import _seed

OFFICE = "01632 960 400"


class FamilyFlows:
    """Flows about the family's record; `Flows` adds the session flows on top."""

    s: dict[str, Any]
    today: date
    call: Any
    ask: Any
    propose: Any

    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_account", account_ref=self.s["account"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        """What was said for a request, one line per message (so no name spans two)."""
        return "\n".join(req["chunks"])

    @staticmethod
    def named_children(v: dict[str, Any], text: str) -> list[dict[str, Any]]:
        return [c for c in v["children"] if re.search(rf"\b{c['first_name']}\b", text, re.I)]

    def pick_child(self, v: dict[str, Any], text: str) -> dict[str, Any] | None:
        """The child meant: the one named, or the only child on the account."""
        named = self.named_children(v, text)
        if len(named) == 1:
            return named[0]
        return v["children"][0] if len(v["children"]) == 1 else None

    @staticmethod
    def child_name(v: dict[str, Any], child_id: str) -> str:
        return next(c["first_name"] for c in v["children"] if c["child_id"] == child_id)

    def free_only(self, req: dict[str, Any], fee: int, what: str, out: list[str]) -> bool:
        """The goal said to go ahead only if free: a cost ends the request, nothing changed."""
        if fee and rd.FREE_ONLY.search(" ".join([self.text(req), *self.s.get("said", [])])):
            out.append(f"{what} would cost {rd.pounds(fee)}, and you asked me to leave it if "
                       "there was a charge, so I haven't changed anything.")  # fmt: skip
            return True
        return False

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def may_add_collector(self, v: dict[str, Any], caller: str) -> bool:
        """Only the account holder adds collectors (a partner on the account may not)."""
        first = caller.split()[0].lower()
        return first == v["holder_name"].split()[0].lower()

    def password_reply(self, k: dict[str, Any]) -> str:
        """What the desk says when asked for a collector's password: never the password."""
        return (f"For every child's safety we never read out or send a collector's password — "
                f"not even to the account holder — so I can't tell you {k['name']}'s. If it's "
                "been forgotten, the account holder can set a new one in person at the office, "
                "with photo ID. Nothing has been changed.")  # fmt: skip

    # -- funded hours ----------------------------------------------------------------------
    async def step_funding(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        child = self.pick_child(v, text)
        if child is None:
            return self.ask("child", "Which child is the funding code for? It applies to one "
                            "child only.", out)  # fmt: skip
        if not _seed.FUNDED_MIN_AGE <= child["age"] <= _seed.FUNDED_MAX_AGE:
            out.append(f"I'm sorry — funded hours are for children aged 3 and 4, and "
                       f"{child['first_name']} is {child['age']}, so I can't apply a code yet. "
                       "Nothing has been changed.")  # fmt: skip
            return "done"
        found = rd.codes(text)
        if not found:
            return self.ask("code", "What's the 11-digit eligibility code on your government "
                            "letter?", out)  # fmt: skip
        others = [c["first_name"] for c in v["children"] if c["child_id"] != child["child_id"]]
        only = f" only, not to {' or '.join(others)}" if others else ""
        return self.propose(
            req, out, f"To apply eligibility code {found[-1]} to {child['first_name']}{only}; "
            "the system checks the code and sets the weekly funded hours that come with it. "
            "Shall I apply it?",
            [("apply_funding", {"account_ref": v["account_ref"], "child_id": child["child_id"],
                                "code": found[-1]})],
        )  # fmt: skip

    # -- authorised collectors -------------------------------------------------------------
    async def step_add_collector(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        answers = req.get("answers", {})
        caller = self.s.get("caller")
        if not caller:
            return self.ask("parent_name", "Only the account holder can add an authorised "
                            "collector. May I take your full name?", out)  # fmt: skip
        if not self.may_add_collector(v, caller):
            out.append("I'm sorry — only the account holder can add an authorised collector, so "
                       "I haven't added anyone. The account holder can ask in this chat or at "
                       "the office.")  # fmt: skip
            return "done"
        family = {n.lower() for n in (v["holder_name"], v["partner_name"], caller) if n}
        kids = {c["first_name"].lower() for c in v["children"]}
        names = [n for n in rd.full_names(text)
                 if n.lower() not in family and n.split()[0].lower() not in kids]  # fmt: skip
        if not names:
            return self.ask("collector_name", "What's the full name of the person who'll be "
                            "collecting?", out)  # fmt: skip
        relation = rd.relationship(text)
        if relation is None:
            return self.ask("relationship", f"And how is {names[0]} related to your family?",
                            out)  # fmt: skip
        said = answers.get("password", "").strip().strip(".'\"!").split()
        word = rd.password(text) or (said[-1] if said else None)
        if not word:
            return self.ask(
                "password",
                f"What password would you like {names[0]} to give at "
                "the door? Please choose one only you and they know.",
                out,
            )
        for_kids = " and ".join(c["first_name"] for c in v["children"])
        return self.propose(
            req, out, f"To add {names[0]} ({relation}) as an authorised collector for {for_kids}, "
            "with the password you've chosen; they'll need to give it and show photo ID at the "
            "door. Shall I add them?",
            [("add_collector", {"account_ref": v["account_ref"], "name": names[0],
                                "relationship": relation, "password": word,
                                "requested_by": caller})],
        )  # fmt: skip

    def pick_collector(self, v: dict[str, Any], text: str) -> dict[str, Any] | None:
        ks = v["collectors"]
        found = [k for k in ks if re.search(rf"\b{k['name'].split()[0]}\b", text, re.I)]
        relation = rd.relationship(text)
        found = found or [k for k in ks if relation and relation in k["relationship"]]
        return found[0] if len(found) == 1 else (ks[0] if len(ks) == 1 else None)

    async def step_remove_collector(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        k = self.pick_collector(v, self.text(req))
        if k is None:
            names = ", ".join(k["name"] for k in v["collectors"]) or "nobody"
            return self.ask("collector_name", f"Which collector should I remove? On the list: "
                            f"{names}.", out)  # fmt: skip
        return self.propose(
            req, out, f"To remove {k['name']} ({k['relationship']}) from your authorised "
            "collectors: they won't be able to collect from today. Shall I remove them?",
            [("remove_collector", {"account_ref": v["account_ref"],
                                   "collector_id": k["collector_id"]})],
        )  # fmt: skip

    async def step_password(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        k = self.pick_collector(v, self.text(req))
        if k is None:
            out.append("We never read out a collector's password. Nothing has been changed.")
            return "done"
        out.append(self.password_reply(k))
        return "done"

    # -- allergy and medical notes ---------------------------------------------------------
    async def step_note(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        child = self.pick_child(v, text)
        if child is None:
            return self.ask("child", "Which child is the note for?", out)
        kind = "allergy" if re.search(r"allerg|epipen|anaphyla|intoleran", text, re.I) else (
            "medical")  # fmt: skip
        detail = req["chunks"][0].strip()[:300]
        return self.propose(
            req, out, f"To record on {child['first_name']}'s file, as {kind}: \"{detail}\". "
            f"The {child['room']} leader sees it straight away. Shall I record it?",
            [("add_medical_note", {"account_ref": v["account_ref"],
                                   "child_id": child["child_id"], "kind": kind,
                                   "detail": detail})],
        )  # fmt: skip

    # -- invoices --------------------------------------------------------------------------
    def pick_invoice(self, v: dict[str, Any], text: str) -> dict[str, Any] | None:
        invs = v["invoices"]
        ids = rd.invoices(text)
        found = [i for i in invs if i["invoice_id"] in ids]
        found = found or [i for i in invs
                          if re.search(rf"\b{i['period'].split()[0]}\b", text, re.I)]  # fmt: skip
        return (found or invs[-1:] or [None])[0]

    async def step_dispute(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        inv = self.pick_invoice(v, text)
        if inv is None:
            out.append("I can't see an invoice on your account yet.")
            return "done"
        if inv["days_since_issue"] > _seed.DISPUTE_DAYS:
            out.append(f"I'm sorry — invoice {inv['invoice_id']} ({inv['period']}) was issued on "
                       f"{rd.say_day(inv['issued'])} {inv['issued'][:4]}, "
                       f"{inv['days_since_issue']} days ago, and a line can only be disputed "
                       f"within {_seed.DISPUTE_DAYS} days of issue. Nothing has been changed; "
                       f"the nursery manager can be reached on {OFFICE}.")  # fmt: skip
            return "done"
        said = rd.amounts(text)
        lines = [ln for ln in inv["lines"] if ln["amount_pence"] in said]
        words = [w for w in ("late", "extra", "lunch", "regular") if re.search(w, text, re.I)]
        lines = lines or [ln for ln in inv["lines"]
                          if any(w in ln["description"].lower() for w in words)]  # fmt: skip
        if len(lines) != 1:
            listed = "; ".join(f"{ln['description']} {rd.pounds(ln['amount_pence'])}"
                               for ln in inv["lines"])  # fmt: skip
            return self.ask("line", f"Which line of invoice {inv['invoice_id']} is it? "
                            f"{listed}.", out)  # fmt: skip
        line = lines[0]
        return self.propose(
            req, out, f"To raise a dispute on invoice {inv['invoice_id']} ({inv['period']}), the "
            f"line \"{line['description']}\" ({rd.pounds(line['amount_pence'])}). The manager "
            "replies within 5 working days; the rest of the invoice is still due on "
            f"{rd.say_day(inv['due'])}. Shall I raise it?",
            [("raise_dispute", {"account_ref": v["account_ref"],
                                "invoice_id": inv["invoice_id"], "line_no": line["line_no"],
                                "reason": text[:300]})],
        )  # fmt: skip

    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        inv = self.pick_invoice(v, self.text(req))
        if inv is None:
            out.append("I can't see an invoice on your account yet.")
            return "done"
        lines = "; ".join(f"{ln['description']} {rd.pounds(ln['amount_pence'])}"
                          for ln in inv["lines"])  # fmt: skip
        out.append(f"Invoice {inv['invoice_id']} for {inv['period']} is "
                   f"{rd.pounds(inv['total_pence'])} ({lines}), due on "
                   f"{rd.say_day(inv['due'])} {inv['due'][:4]}; it is "
                   f"{inv['status']}.")  # fmt: skip
        return "done"

    # -- contact details -------------------------------------------------------------------
    async def step_contact(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        phones, emails = rd.phones(text), rd.emails(text)
        if not phones and not emails:
            return self.ask("phone", "What's the new phone number or email address?", out)
        args: dict[str, Any] = {"account_ref": v["account_ref"]}
        parts = []
        if phones:
            args["phone"] = phones[-1]
            parts.append(f"your phone number to {phones[-1]}")
        if emails:
            args["email"] = emails[-1]
            parts.append(f"your email address to {emails[-1]}")
        return self.propose(req, out, f"To change {' and '.join(parts)}. Shall I update it?",
                            [("update_contact", args)])  # fmt: skip

    def report_family(self, intent: str, r: dict[str, Any]) -> str:
        """What the system returned for the family flows."""
        if intent == "funding":
            return (f"Done — {r['child']} now has {r['funded_hours']} funded hours a week "
                    f"(the code is valid until {rd.say_day(r['valid_until'])}).")  # fmt: skip
        if intent == "add_collector":
            return f"Done — {r['name']} is now an authorised collector."
        if intent == "remove_collector":
            return f"Done — {r['name']} has been removed from your authorised collectors."
        if intent == "note":
            return f"Done — the {r['kind']} note is on {r['child']}'s file."
        if intent == "dispute":
            return (f"Done — the line \"{r['line']}\" ({r['amount']}) on {r['invoice_id']} is "
                    "disputed; the manager will reply within 5 working days.")  # fmt: skip
        return f"Done — your phone number is {r['phone']} and your email is {r['email']}."
