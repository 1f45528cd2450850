"""The desk's flows: entries, transfers, withdrawals, access, results, re-marks, certificates."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from benchmarks.domains.examboard import _read as rd
from benchmarks.domains.examboard import _seed


def minus_days(iso: str, days: int) -> str:
    return (date.fromisoformat(iso) - timedelta(days=days)).isoformat()


class Flows:
    """The flows; `CorrectExamboardAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]
    today: date
    call: Any
    ask: Any
    propose: Any

    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_candidate", candidate_id=self.s["candidate"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    async def sessions(self, level: str) -> list[dict[str, Any]]:
        found, error = await self.call("list_sessions", level=level)
        return [] if error else list(found)

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    def pick_entry(self, v: dict[str, Any], text: str) -> dict[str, Any] | None:
        """The entry meant: by number, by level and session day, or the only one."""
        entries = v["entries"]
        named = [e for e in entries if e["entry_id"] in rd.entries(text)]
        days = {d.isoformat() for d in rd.dates(text, self.today)}
        levels = set(rd.levels(text))
        if not named:
            named = [e for e in entries if e["day"] in days and (not levels or e["level"] in
                                                                  levels)]  # fmt: skip
        if not named and levels:
            named = [e for e in entries if e["level"] in levels]
        if not named and len(entries) == 1:
            named = entries
        return named[0] if named else None

    def pick_result(self, v: dict[str, Any], text: str) -> dict[str, Any] | None:
        levels = set(rd.levels(text))
        named = [r for r in v["results"] if r["level"] in levels]
        return (named or v["results"] or [None])[0]

    def no_entry(self, out: list[str]) -> str:
        out.append("I can't find an entry that matches that on the candidate's record.")
        return "done"

    @staticmethod
    def say_entry(e: dict[str, Any]) -> str:
        return f"the {e['level']} entry {e['entry_id']} for {rd.say_day(e['day'])}"

    @staticmethod
    def listing(sessions: list[dict[str, Any]]) -> str:
        shown = [f"{rd.say_day(s['day'])}" + (" (late entry)" if s["entries"] == "late" else "")
                 for s in sessions if s["entries"] != "closed"]  # fmt: skip
        return ", ".join(shown) or "none still taking entries"

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def third_party_reason(self, v: dict[str, Any], caller: str) -> str | None:
        """Why someone speaking for the candidate may not be helped, or None."""
        first = v["name"].split()[0]
        if v["age"] >= _seed.ADULT_AGE:
            return (f"I'm sorry — {first} is 18 or over, so results and entries can only be "
                    f"discussed with {first} directly. They're welcome to contact us "
                    "themselves. I haven't shared or changed anything.")  # fmt: skip
        parent = (v.get("parent_name") or "").lower()
        if not parent or parent != " ".join(caller.lower().split()):
            return (f"I'm sorry — only {first} or the parent registered on the account can be "
                    "given results or make changes, and that name isn't the one registered. "
                    "I haven't shared or changed anything.")  # fmt: skip
        return None

    def entry_fee(self, level: str, days_away: int) -> tuple[int, int]:
        """The entry fee and any late fee for a session this many days away."""
        late = _seed.LATE_FEE_PENCE if days_away < _seed.ENTRY_CLOSE_DAYS else 0
        return _seed.FEES[level], late

    def transfer_too_late(self, e: dict[str, Any]) -> bool:
        return int(e["days_away"]) < _seed.TRANSFER_DAYS

    def transfer_fee(self, new: dict[str, Any]) -> int:
        return _seed.TRANSFER_FEE_PENCE

    def withdraw_refund(self, e: dict[str, Any]) -> int:
        paid = int(e["fee_paid_pence"])
        if e["medical_cert"]:
            return paid
        return paid // 2 if e["days_away"] >= _seed.HALF_REFUND_DAYS else 0

    # -- entering and transferring ---------------------------------------------------------
    async def step_enter(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        levels = rd.levels(text)
        if not levels:
            return self.ask("session", "Which level would you like to sit — B2, C1 or C2 — "
                            "and on which session date?", out)  # fmt: skip
        level = levels[-1]
        sessions = await self.sessions(level)
        days = {d.isoformat() for d in rd.dates(text, self.today)}
        match = [s for s in sessions if s["day"] in days]
        if not match:
            return self.ask(
                "session",
                f"The {level} sessions still taking entries are "
                f"{self.listing(sessions)}. Which date would you like?",
                out,
            )
        s = match[-1]
        if s["entries"] == "closed":
            out.append(f"I'm sorry — entries for the {level} session on {rd.say_day(s['day'])} "
                       f"closed on {rd.say_day(minus_days(s['day'], _seed.LATE_CLOSE_DAYS))} "
                       "(late entries are taken until 3 weeks before), so I can't enter "
                       f"{v['name'].split()[0]} for it. Sessions still taking entries: "
                       f"{self.listing(sessions)}. Nothing has been changed.")  # fmt: skip
            return "done"
        if any(e["session_id"] == s["session_id"] for e in v["entries"]):
            out.append(f"{v['name'].split()[0]} is already entered for that session.")
            return "done"
        fee, late = self.entry_fee(level, int(s["days_away"]))
        price = (f"{rd.pounds(fee)} plus the {rd.pounds(late)} late-entry fee, as standard "
                 f"entries closed on {rd.say_day(minus_days(s['day'], _seed.ENTRY_CLOSE_DAYS))}"
                 f": {rd.pounds(fee + late)} in all" if late
                 else f"{rd.pounds(fee)}")  # fmt: skip
        return self.propose(
            req, out,
            f"To enter {v['name']} for the {level} exam on {rd.say_day(s['day'])}: {price}, "
            f"taken from the card ending {v['card_last4']}. Shall I make the entry?",
            [("enter_session", {"candidate_id": v["candidate_id"], "session_id": s["session_id"],
                                "fee_pence": fee + late})],
        )  # fmt: skip

    async def step_transfer(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        e = self.pick_entry(v, text)
        if e is None:
            return self.no_entry(out)
        if self.transfer_too_late(e):
            out.append(f"I'm sorry — {self.say_entry(e)} is {e['days_away']} days away, and "
                       "entries can only be moved up to 2 weeks before the session. Nothing "
                       "has been changed.")  # fmt: skip
            return "done"
        sessions = await self.sessions(e["level"])
        days = {d.isoformat() for d in rd.dates(text, self.today)}
        new = [s for s in sessions if s["day"] in days and s["session_id"] != e["session_id"]]
        if not new:
            if set(rd.levels(text)) - {e["level"]}:
                out.append(f"I'm sorry — an entry can only be moved to another {e['level']} "
                           "session, not to another level. Nothing has been changed.")  # fmt: skip
                return "done"
            others = [s for s in sessions if s["session_id"] != e["session_id"]]
            return self.ask(
                "new_session",
                f"Which {e['level']} session would you like "
                f"instead? Still taking entries: {self.listing(others)}.",
                out,
            )
        s = new[-1]
        if s["entries"] == "closed":
            out.append(f"I'm sorry — entries for {rd.say_day(s['day'])} have closed, so I can't "
                       "move the entry there. Nothing has been changed.")  # fmt: skip
            return "done"
        fee = self.transfer_fee(s)
        return self.propose(
            req, out,
            f"To move {self.say_entry(e)} to the {e['level']} session on "
            f"{rd.say_day(s['day'])}: a {rd.pounds(fee)} transfer fee, taken from the card "
            f"ending {v['card_last4']}. Shall I move it?",
            [("transfer_entry", {"candidate_id": v["candidate_id"], "entry_id": e["entry_id"],
                                 "session_id": s["session_id"], "fee_pence": fee})],
        )  # fmt: skip

    # -- withdrawing -----------------------------------------------------------------------
    async def step_withdraw(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        e = self.pick_entry(v, self.text(req))
        if e is None:
            return self.no_entry(out)
        paid, refund = int(e["fee_paid_pence"]), self.withdraw_refund(e)
        if refund < paid and rd.FULL_ONLY.search(" ".join(self.s.get("said", []))):
            out.append(f"Withdrawing {self.say_entry(e)} would refund {rd.pounds(refund)} of the "
                       f"{rd.pounds(paid)} paid — a full refund needs a medical certificate, "
                       "and there isn't one on file — and you asked me to leave it unless it "
                       "was a full refund, so I haven't changed anything.")  # fmt: skip
            return "done"
        if e["medical_cert"]:
            why = f"your medical certificate is on file, so the full {rd.pounds(paid)} is refunded"
        elif refund:
            why = (f"it's 4 or more weeks before the session, so half the {rd.pounds(paid)} "
                   f"paid, {rd.pounds(refund)}, is refunded")  # fmt: skip
        else:
            why = (
                "it's less than 4 weeks before the session, so there's no refund (a full "
                "refund needs a medical certificate, and there isn't one on file)"
            )
        return self.propose(
            req, out,
            f"To withdraw {self.say_entry(e)}: {why}"
            + (f" to the card ending {v['card_last4']}" if refund else "") + ". Shall I "
            "withdraw it?",
            [("withdraw_entry", {"candidate_id": v["candidate_id"], "entry_id": e["entry_id"],
                                 "refund_pence": refund})],
        )  # fmt: skip

    # -- access arrangements ---------------------------------------------------------------
    async def step_access(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        e = self.pick_entry(v, text)
        if e is None:
            return self.no_entry(out)
        kind = rd.arrangement(text)
        if kind is None:
            return self.ask("arrangement", "Which arrangement is needed: 25% extra time or a "
                            "reader?", out)  # fmt: skip
        name = _seed.ARRANGEMENTS[kind]
        if any(a["arrangement"] == kind for a in e["access"]):
            out.append(f"{name.capitalize()} is already recorded on {self.say_entry(e)}.")
            return "done"
        deadline = minus_days(e["day"], _seed.ACCESS_DAYS)
        evidence = v.get("evidence_on")
        if evidence and evidence <= deadline:
            how = (f"the supporting evidence we received on {rd.say_day(evidence)} is on file, "
                   "so it will be approved")  # fmt: skip
        elif e["days_away"] >= _seed.ACCESS_DAYS:
            how = (
                f"we don't have supporting evidence yet: it must reach us by "
                f"{rd.say_day(deadline)}, and until then it's recorded as awaiting evidence"
            )
        else:
            out.append(f"I'm sorry — evidence for access arrangements had to reach us by "
                       f"{rd.say_day(deadline)}, 4 weeks before the session, and we don't have "
                       f"any, so I can't arrange {name} for {self.say_entry(e)}. Nothing has "
                       "been changed.")  # fmt: skip
            return "done"
        return self.propose(
            req, out,
            f"To arrange {name} for {self.say_entry(e)}: there's no charge, and {how}. Shall I "
            "record it?",
            [("request_access", {"candidate_id": v["candidate_id"], "entry_id": e["entry_id"],
                                 "arrangement": kind})],
        )  # fmt: skip

    # -- results, re-marks and certificates ------------------------------------------------
    async def step_results(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        r = self.pick_result(v, self.text(req))
        if r is None:
            out.append("There are no results on the candidate's record yet.")
            return "done"
        cert = (f"the certificate was issued on {rd.say_day(r['certificate_issued'])}"
                if r["certificate_issued"] else "no certificate is issued for it")  # fmt: skip
        out.append(f"{v['name'].split()[0]}'s {r['level']} result from the "
                   f"{rd.say_day(r['session_day'])} session, published on "
                   f"{rd.say_day(r['results_day'])}: {r['grade']}; {cert}.")  # fmt: skip
        return "done"

    async def step_remark(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        r = self.pick_result(v, self.text(req))
        if r is None:
            out.append("There are no results on the candidate's record to re-mark.")
            return "done"
        what = f"the {r['level']} result from the {rd.say_day(r['session_day'])} session"
        if r["days_since_results"] > _seed.REMARK_DAYS:
            out.append(
                f"I'm sorry — re-marks must be asked for within 30 days of results day, "
                f"and {what} was published on {rd.say_day(r['results_day'])}, "
                f"{r['days_since_results']} days ago. Nothing has been changed."
            )
            return "done"
        if r["remarks"]:
            out.append(f"A re-mark of {what} has already been asked for.")
            return "done"
        fee = _seed.REMARK_FEE_PENCE
        return self.propose(
            req, out,
            f"To ask for a re-mark of {what}: {rd.pounds(fee)}, taken from the card ending "
            f"{v['card_last4']}, and refunded if the grade changes. Shall I ask for it?",
            [("request_remark", {"candidate_id": v["candidate_id"], "result_id": r["result_id"],
                                 "fee_pence": fee})],
        )  # fmt: skip

    async def step_certificate(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        r = self.pick_result(v, self.text(req))
        if r is None or not r["certificate_issued"]:
            out.append("There's no issued certificate on the candidate's record to replace.")
            return "done"
        fee = _seed.CERTIFICATE_FEE_PENCE
        return self.propose(
            req, out,
            f"To order a replacement certificate for the {r['level']} result from the "
            f"{rd.say_day(r['session_day'])} session: {rd.pounds(fee)}, taken from the card "
            f"ending {v['card_last4']}, posted to the address on your record. Replacements are "
            "only for certificates issued more than 30 days ago; the system checks the date. "
            "Shall I order it?",
            [("order_certificate", {"candidate_id": v["candidate_id"],
                                    "result_id": r["result_id"], "fee_pence": fee})],
        )  # fmt: skip

    # -- contact details -------------------------------------------------------------------
    async def step_contact(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        emails, phones = rd.emails(text), rd.phones(text)
        wants_email = "email" in text.lower()
        wants_phone = any(w in text.lower() for w in ("phone", "mobile", "number"))
        if wants_email and not emails:
            return self.ask("email", "What's the new email address?", out)
        if wants_phone and not phones or not (emails or phones):
            return self.ask("phone", "What's the new phone number?", out)
        args: dict[str, Any] = {"candidate_id": v["candidate_id"]}
        said = []
        if emails:
            args["email"] = emails[-1]
            said.append(f"the email address to {emails[-1]}")
        if phones:
            args["phone"] = phones[-1]
            said.append(f"the phone number to {phones[-1]}")
        return self.propose(req, out, f"To change {' and '.join(said)}. Shall I update it?",
                            [("update_contact", args)])  # fmt: skip

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:
        """What the system returned, in the customer's words."""
        if intent == "enter":
            return (f"Done — entry {r['entry_id']} is made for the {r['level']} exam on "
                    f"{rd.say_day(r['day'])}; {r['fee']} taken from the card ending "
                    f"{r['card_last4']}.")  # fmt: skip
        if intent == "transfer":
            return (f"Done — entry {r['entry_id']} is now for the {r['level']} session on "
                    f"{rd.say_day(r['day'])}; {r['fee']} transfer fee taken.")  # fmt: skip
        if intent == "withdraw":
            return (f"Done — entry {r['entry_id']} is withdrawn; {r['refunded']} refunded to the "
                    f"card ending {r['card_last4']}.")  # fmt: skip
        if intent == "access":
            state = ("approved" if r["status"] == "approved" else
                     f"recorded, awaiting evidence by {rd.say_day(r['evidence_by'])}")  # fmt: skip
            return (f"Done — {_seed.ARRANGEMENTS[r['arrangement']]} on entry {r['entry_id']} is "
                    f"{state}.")  # fmt: skip
        if intent == "remark":
            return (f"Done — a re-mark of the {r['level']} result is requested; {r['fee']} "
                    "taken, refunded if the grade changes.")  # fmt: skip
        if intent == "certificate":
            return (f"Done — a replacement {r['level']} certificate is ordered and will be "
                    f"posted to the address on your record; {r['fee']} taken.")  # fmt: skip
        return f"Done — the email on the record is {r['email']} and the phone is {r['phone']}."

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed "
                   "and nothing has been charged.")  # fmt: skip
