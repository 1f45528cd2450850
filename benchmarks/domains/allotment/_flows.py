"""The desk's flows: waiting lists, rent, concessions, extras, co-workers, keys, appeals,
giving up and swapping plots, site rules, contact details and look-ups."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from benchmarks.domains.allotment import _read as rd
from benchmarks.domains.allotment import _seed
from benchmarks.domains.allotment._env import add_month, total

EXTRA_NAMES = {"shed": "a council shed", "compost_bin": "a compost bin"}
BONFIRE_RULE = (
    "Bonfires are allowed only from 1 November to 31 March, on weekdays (never at weekends "
    "or on bank holidays), of dry plant material from your own plot, lit after 16:00 and put "
    "out before you leave; never plastics, carpet or treated wood."
)
HOSE_RULE = (
    "Hosepipes and sprinklers aren't allowed on any site at any time: please fill watering "
    "cans from the troughs. The water charge on your rent covers the troughs."
)


class Flows:
    """The flows; `CorrectAllotmentAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]
    today: date
    call: Any
    ask: Any
    propose: Any

    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_account", tenancy_id=self.s["account"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    def said(self) -> str:
        return " ".join(self.s.get("said", []))

    @staticmethod
    def no_plot(out: list[str]) -> str:
        out.append("I can't see a plot let to you on the register, so there's nothing to "
                   "change there.")  # fmt: skip
        return "done"

    def pick_site(self, req: dict[str, Any], v: dict[str, Any], *, own: bool) -> str | None:
        """The site meant: the last named in the request; else, for a list, the only entry."""
        named = rd.sites(self.text(req))
        if named:
            return named[-1]
        if own and len(v["entries"]) == 1:
            return str(v["entries"][0]["site"])
        return None

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def late_fee(self, inv: dict[str, Any]) -> int:
        """£10.00 on an invoice paid after its due date."""
        return _seed.LATE_FEE_PENCE if self.today > date.fromisoformat(inv["due"]) else 0

    def concession_discount(self, inv: dict[str, Any]) -> int:
        """Half the rent: never the water charge, sheds or bins."""
        return int(inv["rent_pence"] * _seed.CONCESSION_PERCENT // 100)

    def appeal_open(self, insp: dict[str, Any]) -> bool:
        return int(insp["days_ago"]) <= _seed.APPEAL_DAYS

    def swap_allowed(self, entry: dict[str, Any]) -> bool:
        return int(entry["position"]) == 1

    def position_text(self, entry: dict[str, Any], listed: list[dict[str, Any]]) -> str:
        return (f"You're number {entry['position']} of {entry['of']} on the {entry['site']} "
                f"waiting list (you joined on {rd.say_day(entry['joined'])}). Plots are offered "
                "from the top of the list as they come free.")  # fmt: skip

    def refund_for(self, v: dict[str, Any], end: date) -> int:
        """Paid invoices of a year the tenancy ends before 1 March of come back in full."""
        if end >= date(end.year, *_seed.REFUND_CUTOFF):
            return 0
        return sum(total(i) + i["late_fee_pence"] for i in v["invoices"]
                   if i["year"] >= end.year and i["status"] == "paid")  # fmt: skip

    # -- waiting lists ---------------------------------------------------------------------
    async def step_join(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        site = self.pick_site(req, v, own=False)
        if site is None:
            return self.ask("site", "Which site's waiting list would you like to join: Hill "
                            "Road, Mill Lane or Church Fields?", out)  # fmt: skip
        if v["plot"] and v["plot"]["site"] == site:
            out.append(f"You already have plot {v['plot']['plot_id']} at {site}, so there's no "
                       "need to join its list. Nothing has been changed.")  # fmt: skip
            return "done"
        for other in rd.ALL_SITES:
            listed, error = await self.call("get_waiting_list", site=other)
            if error:
                continue
            same = [e for e in listed["entries"] if e["address"] == v["address"]]
            if same:
                mine = same[0]["tenancy_id"] == v["tenancy_id"]
                who = "you're" if mine else "someone at your address is"
                out.append(f"I'm sorry — {who} already on the {other} waiting list, and it's one "
                           "entry per household across all our sites. I haven't added another "
                           "entry; nothing has been changed.")  # fmt: skip
                return "done"
        return self.propose(
            req, out, f"To put you on the {site} waiting list from today. There's no charge "
            "for joining; we'll write when a plot is offered. Shall I add you?",
            [("join_waiting_list", {"tenancy_id": v["tenancy_id"], "site": site})],
        )  # fmt: skip

    async def step_leave(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if not v["entries"]:
            out.append("You're not on any of our waiting lists, so there's nothing to take you "
                       "off.")  # fmt: skip
            return "done"
        site = self.pick_site(req, v, own=True)
        if site is None:
            return self.ask("site", "Which site's waiting list should I take you off?", out)
        entry = next((e for e in v["entries"] if e["site"] == site), None)
        if entry is None:
            out.append(f"You're not on the {site} waiting list. Nothing has been changed.")
            return "done"
        return self.propose(
            req, out, f"To take you off the {site} waiting list (you're number "
            f"{entry['position']}). If you join again later you'd start at the bottom. Shall I "
            "take you off?",
            [("leave_waiting_list", {"tenancy_id": v["tenancy_id"], "site": site})],
        )  # fmt: skip

    async def step_position(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if not v["entries"]:
            out.append("You're not on any of our waiting lists at the moment.")
            return "done"
        site = self.pick_site(req, v, own=True) or v["entries"][0]["site"]
        entry = next((e for e in v["entries"] if e["site"] == site), v["entries"][0])
        listed, _ = await self.call("get_waiting_list", site=entry["site"])
        out.append(self.position_text(entry, (listed or {}).get("entries", [])))
        return "done"

    # -- rent, concessions, extras ---------------------------------------------------------
    def pick_invoice(self, v: dict[str, Any], text: str) -> dict[str, Any] | None:
        unpaid = [i for i in v["invoices"] if i["status"] == "unpaid"]
        ids = rd.invoices(text)
        named = [i for i in unpaid if i["invoice_id"] in ids]
        if not named and re.search(r"\bsheds?\b", text, re.I):
            named = [i for i in unpaid if i["kind"] == "shed"]
        if not named and re.search(r"\bcompost", text, re.I):
            named = [i for i in unpaid if i["kind"] == "compost_bin"]
        if not named and re.search(r"\brent\b", text, re.I):
            named = [i for i in unpaid if i["kind"] == "rent"]
        if not named and len(unpaid) == 1:
            named = unpaid
        return named[0] if named else None

    async def step_pay(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        unpaid = [i for i in v["invoices"] if i["status"] == "unpaid"]
        if not unpaid:
            out.append("There's nothing unpaid on your account — you're all up to date.")
            return "done"
        inv = self.pick_invoice(v, self.text(req))
        if inv is None:
            listed = "; ".join(f"{i['invoice_id']} ({i['kind'].replace('_', ' ')} "
                               f"{i['year']}, {rd.pounds(total(i))})" for i in unpaid)  # fmt: skip
            return self.ask("invoice", f"Which invoice would you like to pay? {listed}.", out)
        fee = self.late_fee(inv)
        amount = total(inv) + fee
        late = (f" It was due on {rd.say_day(inv['due'])}, so a £{fee / 100:.2f} late fee is "
                "added." if fee else f" It's due by {rd.say_day(inv['due'])}, so there's no "
                "late fee.")  # fmt: skip
        return self.propose(
            req, out, f"To pay invoice {inv['invoice_id']} ({inv['kind'].replace('_', ' ')}, "
            f"{inv['year']}): {rd.pounds(total(inv))}.{late} {rd.pounds(amount)} in all from "
            f"your card ending {v['card_last4']}. Shall I take the payment?",
            [("pay_invoice", {"tenancy_id": v["tenancy_id"], "invoice_id": inv["invoice_id"],
                              "late_fee_pence": fee, "amount_pence": amount})],
        )  # fmt: skip

    async def step_concession(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        rent = [i for i in v["invoices"] if i["kind"] == "rent" and i["status"] == "unpaid"]
        if not rent:
            out.append("There's no unpaid rent invoice to take the concession off; it's applied "
                       "before an invoice is paid. Nothing has been changed.")  # fmt: skip
            return "done"
        inv = rent[-1]
        if inv["discount_pence"]:
            out.append(f"The concession is already on invoice {inv['invoice_id']}.")
            return "done"
        refs = rd.references(self.said())
        if not refs:
            if rd.NO_REFERENCE.search(self.text(req)) and len(req["chunks"]) > 1:
                out.append("I'm sorry — the concession needs the reference from a State Pension, "
                           "Pension Credit or means-tested benefit award letter, so I can't apply "
                           "it without one. Nothing has been changed; you can ask again once "
                           "you have it.")  # fmt: skip
                return "done"
            return self.ask("reference", "The concession is half the plot rent for holders of a "
                            "State Pension, Pension Credit or a means-tested benefit. What's the "
                            "reference on your award letter? It looks like SP-448210 or "
                            "UC-123456789.", out)  # fmt: skip
        discount = self.concession_discount(inv)
        after = total(inv) - discount
        return self.propose(
            req, out, f"To apply the concession with reference {refs[-1]} to invoice "
            f"{inv['invoice_id']}: {rd.pounds(discount)} off the {rd.pounds(inv['rent_pence'])} "
            f"rent (the {rd.pounds(inv['water_pence'])} water charge stays), so "
            f"{rd.pounds(after)} is due by {rd.say_day(inv['due'])}. Shall I apply it?",
            [("apply_concession", {"tenancy_id": v["tenancy_id"], "invoice_id": inv["invoice_id"],
                                   "reference": refs[-1], "discount_pence": discount})],
        )  # fmt: skip

    async def step_extra(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if not v["plot"]:
            return self.no_plot(out)
        kind = "shed" if re.search(r"\bsheds?\b", self.text(req), re.I) else "compost_bin"
        plot = v["plot"]
        if kind == "shed" and plot["size"] != "full":
            out.append(f"I'm sorry — council sheds are only allowed on full plots, and "
                       f"{plot['plot_id']} is a half plot. Nothing has been changed.")  # fmt: skip
            return "done"
        if any(e["kind"] == kind for e in v["extras"]):
            out.append(f"Plot {plot['plot_id']} already has {EXTRA_NAMES[kind]}; it's one per "
                       "plot. Nothing has been changed.")  # fmt: skip
            return "done"
        price = _seed.EXTRAS[kind]
        return self.propose(
            req, out, f"To rent {EXTRA_NAMES[kind]} on plot {plot['plot_id']}: "
            f"{rd.pounds(price)} for the year to 31 December {_seed.RENT_YEAR}, on a new invoice "
            f"due in {_seed.EXTRA_DUE_DAYS} days. Shall I arrange it?",
            [("rent_extra", {"tenancy_id": v["tenancy_id"], "kind": kind, "price_pence": price})],
        )  # fmt: skip

    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if not v["plot"]:
            return self.no_plot(out)
        p = v["plot"]
        rent = [i for i in v["invoices"] if i["kind"] == "rent" and i["year"] == _seed.RENT_YEAR]
        parts = [f"Plot {p['plot_id']} at {p['site']} is a {p['size']} plot of {p['area_m2']} "
                 f"square metres."]  # fmt: skip
        if rent:
            i = rent[0]
            state = ("paid" if i["status"] == "paid"
                     else f"due by {rd.say_day(i['due'])}")  # fmt: skip
            less = f" less {rd.pounds(i['discount_pence'])}" if i["discount_pence"] else ""
            parts.append(f"Your {i['year']} rent is {rd.pounds(i['rent_pence'])} plus "
                         f"{rd.pounds(i['water_pence'])} water{less}: {rd.pounds(total(i))} on "
                         f"invoice {i['invoice_id']}, {state}.")  # fmt: skip
        other = [i for i in v["invoices"] if i["status"] == "unpaid" and i["kind"] != "rent"]
        for i in other:
            parts.append(f"Invoice {i['invoice_id']} ({i['kind'].replace('_', ' ')}) for "
                         f"{rd.pounds(total(i))} is due by {rd.say_day(i['due'])}.")  # fmt: skip
        out.append(" ".join(parts))
        return "done"

    # -- co-workers, keys ------------------------------------------------------------------
    async def step_coworker(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if not v["plot"]:
            return self.no_plot(out)
        have = [c["name"] for c in v["coworkers"]]
        if len(have) >= _seed.MAX_COWORKERS:
            out.append(f"I'm sorry — a plot can have at most two co-workers, and "
                       f"{v['plot']['plot_id']} already has {have[0]} and {have[1]}. Nothing has "
                       "been changed; if one of them stops, we can add someone "
                       "else.")  # fmt: skip
            return "done"
        names = [n for n in rd.full_names(self.text(req)) if n.lower() != v["name"].lower()
                 and n not in have]  # fmt: skip
        if not names:
            return self.ask("coworker_name", "What's your co-worker's full name?", out)
        return self.propose(
            req, out, f"To register {names[-1]} as a co-worker on plot {v['plot']['plot_id']}. "
            "Co-workers can work the plot with you, but the tenancy stays yours and can't pass "
            "to them. Shall I add them?",
            [("add_coworker", {"tenancy_id": v["tenancy_id"], "name": names[-1]})],
        )  # fmt: skip

    def key_holder(self, v: dict[str, Any], text: str) -> str | None:
        everyone = [v["name"]] + [c["name"] for c in v["coworkers"]]
        convo = self.said()
        for name in everyone[1:]:
            if re.search(rf"\b{re.escape(name.split()[0])}\b", convo):
                return name
        if re.search(r"\b(?:for me|myself|my own|i(?:'ve| have) lost)\b", text, re.I):
            return str(v["name"])
        if len(everyone) == 2 and re.search(r"\b(?:her|him|them)\b", text, re.I):
            return everyone[1]
        return None

    async def step_key(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if not v["plot"]:
            return self.no_plot(out)
        holder = self.key_holder(v, self.text(req))
        if holder is None:
            return self.ask("key_holder", "Who is the gate key for — you, or a co-worker "
                            "registered on your plot?", out)  # fmt: skip
        fee = _seed.KEY_DEPOSIT_PENCE
        return self.propose(
            req, out, f"To issue a {v['plot']['site']} gate key to {holder}: a "
            f"{rd.pounds(fee)} deposit from your card ending {v['card_last4']}, refunded when "
            "the key is handed back. Shall I order it?",
            [("order_gate_key", {"tenancy_id": v["tenancy_id"], "holder": holder,
                                 "deposit_pence": fee})],
        )  # fmt: skip

    async def step_transfer(self, req: dict[str, Any], out: list[str]) -> str:
        await self.refresh()
        out.append(
            "I'm sorry — a tenancy can't be passed to a co-worker or anyone else: when a plot "
            "is given up it goes to the top of that site's waiting list. Your co-worker is "
            "welcome to join the waiting list. Nothing has been changed."
        )
        return "done"

    # -- appeals, giving up, swapping ------------------------------------------------------
    async def step_appeal(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        warnings = [i for i in v["inspections"] if i["outcome"] == "warning" and not i["appeal"]]
        ids = rd.inspections(self.text(req))
        named = [i for i in warnings if i["inspection_id"] in ids] or warnings[-1:]
        if not named:
            out.append("I can't see a warning on your plot that could be appealed.")
            return "done"
        insp = named[0]
        when = rd.say_day(insp["inspected_on"])
        if not self.appeal_open(insp):
            out.append(f"I'm sorry — the warning {insp['inspection_id']} was issued on {when}, "
                       f"{insp['days_ago']} days ago, and appeals must be made within 14 days. "
                       "I can't lodge one now; nothing has been changed.")  # fmt: skip
            return "done"
        return self.propose(
            req, out, f"To lodge an appeal against warning {insp['inspection_id']} of {when} "
            f"(\"{insp['note']}\"), with your reasons as you've given them. The allotments "
            "officer reviews it and writes to you. Shall I lodge it?",
            [("lodge_appeal", {"tenancy_id": v["tenancy_id"],
                               "inspection_id": insp["inspection_id"],
                               "reason": self.text(req)})],
        )  # fmt: skip

    async def step_giveup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if not v["plot"]:
            return self.no_plot(out)
        p = v["plot"]
        if p["status"] == "notice":
            out.append(f"Notice is already given on {p['plot_id']}: the tenancy ends on "
                       f"{rd.say_day(p['end_date'])}.")  # fmt: skip
            return "done"
        earliest = add_month(self.today)
        asked = [d for d in rd.dates(self.text(req), self.today) if d > self.today]
        end = max(asked[-1], earliest) if asked else earliest
        early = (f" A tenancy needs a month's notice, so the earliest it can end is "
                 f"{rd.say_day(earliest.isoformat())}." if asked and asked[-1] < earliest
                 else "")  # fmt: skip
        refund = self.refund_for(v, end)
        money = (f"As it ends before 1 March {end.year}, the {rd.pounds(refund)} you've paid "
                 f"for {end.year} is refunded to your card ending {v['card_last4']}" if refund
                 else "No rent is refunded: rent for a year is refunded only when the tenancy "
                 "ends before 1 March of that year")  # fmt: skip
        return self.propose(
            req, out, f"To give notice on plot {p['plot_id']} at {p['site']}: the tenancy ends "
            f"on {rd.say_day(end.isoformat())}.{early} {money}. Please clear your things and "
            "hand back your gate key by then; the key deposit is refunded when it's returned. "
            "Shall I give the notice?",
            [("give_up_plot", {"tenancy_id": v["tenancy_id"], "end_date": end.isoformat(),
                               "refund_pence": refund})],
        )  # fmt: skip

    async def step_swap(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if not v["plot"]:
            return self.no_plot(out)
        p = v["plot"]
        named = [s for s in rd.sites(self.text(req)) if s != p["site"]]
        site = named[-1] if named else (v["entries"][0]["site"] if len(v["entries"]) == 1
                                        else None)  # fmt: skip
        if site is None:
            return self.ask("site", "Which site would you like to move to?", out)
        entry = next((e for e in v["entries"] if e["site"] == site), None)
        if entry is None:
            out.append(f"A swap is only to a plot from the top of that site's waiting list, and "
                       f"you're not on the {site} list. I can add you to it if you like; nothing "
                       "has been changed.")  # fmt: skip
            return "done"
        if not self.swap_allowed(entry):
            out.append(f"I'm sorry — swaps are offered only to whoever is at the top of the "
                       f"{site} waiting list, and you're number {entry['position']}. Nothing has "
                       "been changed; you keep your place and your plot.")  # fmt: skip
            return "done"
        new = next((x for x in v["vacant"] if x["site"] == site and x["size"] == p["size"]),
                   None)  # fmt: skip
        if new is None:
            out.append(f"There's no vacant {p['size']} plot at {site} just now; you stay at the "
                       "top of the list. Nothing has been changed.")  # fmt: skip
            return "done"
        rent = _seed.rent_for(new["area_m2"]) + _seed.WATER[new["size"]]
        return self.propose(
            req, out, f"To swap plot {p['plot_id']} at {p['site']} for {new['plot_id']} at "
            f"{site}, a {new['size']} plot of {new['area_m2']} square metres. The rent you've "
            f"been invoiced for {_seed.RENT_YEAR} stays as it is; from {_seed.RENT_YEAR + 1} the "
            f"new plot's rent applies ({rd.pounds(rent)} a year with water at today's rates). "
            f"Your {site} waiting-list entry closes. Shall I make the swap?",
            [("swap_plot", {"tenancy_id": v["tenancy_id"], "site": site})],
        )  # fmt: skip

    # -- rules and contacts ----------------------------------------------------------------
    async def step_rules(self, req: dict[str, Any], out: list[str]) -> str:
        text = self.text(req)
        said = []
        if re.search(r"\bbonfire|\bburn", text, re.I):
            said.append(BONFIRE_RULE)
        if re.search(r"\bhose|\bsprinkler", text, re.I):
            said.append(HOSE_RULE)
        out.append(" ".join(said) or BONFIRE_RULE)
        return "done"

    async def step_contact(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        numbers, mails = rd.phones(text), rd.emails(text)
        if not numbers and not mails:
            if re.search(r"\be-?mail\b", text, re.I):
                return self.ask("email", "What's the new email address?", out)
            return self.ask("phone", "What's the new phone number?", out)
        args: dict[str, Any] = {"tenancy_id": v["tenancy_id"]}
        what = []
        if numbers:
            args["phone"] = numbers[-1]
            what.append(f"your phone number to {numbers[-1]}")
        if mails:
            args["email"] = mails[-1]
            what.append(f"your email address to {mails[-1]}")
        return self.propose(req, out, f"To change {' and '.join(what)}. Shall I update it?",
                            [("update_contact", args)])  # fmt: skip

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:  # noqa: C901
        """What the register returned, in the customer's words."""
        if intent == "join":
            return (f"Done — you're on the {r['site']} waiting list, number {r['position']}, "
                    f"from {rd.say_day(r['joined'])}.")  # fmt: skip
        if intent == "leave":
            return f"Done — you're off the {r['site']} waiting list."
        if intent == "pay":
            return (f"Done — invoice {r['invoice_id']} is paid: {r['taken']} taken from your "
                    f"card ending {r['card_last4']}.")  # fmt: skip
        if intent == "concession":
            return (f"Done — the concession is on invoice {r['invoice_id']}: {r['discount']} "
                    f"off, so {r['now_due']} is due by {rd.say_day(r['due'])}.")  # fmt: skip
        if intent == "extra":
            return (f"Done — {r['kind'].replace('_', ' ')} rented on plot {r['plot_id']} for "
                    f"{r['price']}; invoice {r['invoice_id']} is due by "
                    f"{rd.say_day(r['due'])}.")  # fmt: skip
        if intent == "coworker":
            return f"Done — co-workers on plot {r['plot_id']}: {', '.join(r['coworkers'])}."
        if intent == "key":
            return (f"Done — a {r['site']} gate key is ordered for {r['holder']}; {r['deposit']} "
                    f"deposit taken from your card ending {r['card_last4']}. It can be "
                    "collected from the council offices.")  # fmt: skip
        if intent == "appeal":
            return (f"Done — your appeal against {r['inspection_id']} is lodged; the allotments "
                    "officer will write to you.")  # fmt: skip
        if intent == "giveup":
            return (f"Done — notice is given on plot {r['plot_id']}: the tenancy ends on "
                    f"{rd.say_day(r['ends'])}; {r['refunded']} refunded to your card ending "
                    f"{r['card_last4']}.")  # fmt: skip
        if intent == "swap":
            return (f"Done — plot {r['old_plot']} is given back and {r['new_plot']} at "
                    f"{r['site']} is yours ({r['area_m2']} square metres).")  # fmt: skip
        return f"Done — your phone number is {r['phone']} and your email is {r['email']}."

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the register refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — that didn't go through: {error}. Nothing has been changed.")
