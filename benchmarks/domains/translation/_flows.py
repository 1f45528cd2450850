"""The desk's flows: orders, quotes, rush upgrades, revisions, cancellations and look-ups."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from benchmarks.domains.translation import _read as rd
from benchmarks.domains.translation import _seed

STATUS_WORDS = {"queued": "queued for a translator", "in_progress": "with the translator",
                "delivered": "delivered", "cancelled": "cancelled"}  # fmt: skip


class Flows:
    """The flows; `CorrectTranslationAgent` supplies the state, the calls and the questions."""

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
        return " ".join(c["text"] for c in req["chunks"])

    def said(self) -> str:
        """Everything the customer has said in this chat (conditions may be said apart)."""
        return " ".join(self.s.get("said", []))

    @staticmethod
    def slots(req: dict[str, Any]) -> dict[str, Any]:
        """The order's details, read chunk by chunk: a later value replaces an earlier one."""
        s: dict[str, Any] = {"source": None, "target": None, "pages": None, "certified": None,
                             "turnaround": None, "fallback": False, "kind": None}  # fmt: skip
        for chunk in req["chunks"]:
            text, asked = chunk["text"], chunk.get("asked")
            langs = rd.languages(text)
            if asked in {"source_language", "target_language"} and len(langs) == 1:
                s["source" if asked == "source_language" else "target"] = langs[0]
            else:
                src, tgt = rd.pair(text)
                s["source"], s["target"] = src or s["source"], tgt or s["target"]
            pages = rd.pages(text) or (rd.bare_number(text) if asked == "pages" else None)
            s["pages"] = pages or s["pages"]
            cert = rd.certified(text)
            if asked == "certified" and not rd.NOT_CERTIFIED.search(text):
                # an answer to "certified? yes or no": "no", "my certified is no", "yes please"
                if re.search(r"\b(?:no|not|nope|false)\b", text, re.I):
                    cert = False
                elif re.search(r"\b(?:yes|yeah|yep|true|please)\b", text, re.I):
                    cert = True
            s["certified"] = s["certified"] if cert is None else cert
            speed, fallback = rd.turnaround(text)
            if speed:
                s["turnaround"], s["fallback"] = speed, fallback or s["fallback"]
            kind = rd.revision_kind(text)
            if kind is None and asked == "revision_kind":
                if re.search(r"\b(?:i|we) (?:changed|updated|edited)|\bmine\b|\bmy change", text,
                             re.I):  # fmt: skip
                    kind = "source_change"
                elif re.search(r"\byours\b|\byour (?:mistake|error)|\btranslator", text, re.I):
                    kind = "error"
            s["kind"] = kind or s["kind"]
        return s

    def pick_order(self, v: dict[str, Any], text: str,
                   statuses: set[str]) -> tuple[dict[str, Any] | None, str | None]:  # fmt: skip
        """(the order meant, or None; a number said that is not on the account, or None)."""
        ids = rd.orders(text)
        if ids:
            mine = [o for o in v["orders"] if o["order_id"] in ids]
            return (mine[0], None) if mine else (None, ids[-1])
        langs = set(rd.languages(text)) - {"English"}
        named = [o for o in v["orders"]
                 if langs & {o["source_language"], o["target_language"]}]  # fmt: skip
        fits = [o for o in named or v["orders"] if o["status"] in statuses]
        return (fits[0] if len(fits) == 1 or named and fits else None), None

    def no_order(self, out: list[str]) -> str:
        return str(self.ask("order_id", "I can't find an order on your account that matches "
                            "that. What's the order number? It starts TR.", out))  # fmt: skip

    @staticmethod
    def say_order(o: dict[str, Any], first: bool = False) -> str:
        cert = ", certified" if o["certified"] else ""
        word = "Order" if first else "order"
        return (f"{word} {o['order_id']} (your {o['document']}, {o['pages']} pages "
                f"{o['source_language']} to {o['target_language']}{cert})")  # fmt: skip

    def over_limit(self, fee: int, what: str, out: list[str], req: dict[str, Any]) -> bool:
        """The customer set a condition on the price ("only if it's free", "under £50")."""
        said = self.text(req) + " " + self.said()
        ceiling = rd.cap(said)
        if fee and rd.FREE_ONLY.search(said):
            out.append(f"{what} would cost {rd.pounds(fee)}, and you asked me to leave it if "
                       "there was a charge, so I haven't changed anything.")  # fmt: skip
            return True
        if ceiling is not None and fee > ceiling:
            out.append(f"{what} would cost {rd.pounds(fee)}, more than the "
                       f"{rd.pounds(ceiling)} you said, so I've left it as it is — nothing has "
                       "been changed.")  # fmt: skip
            return True
        return False

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def rate_for(self, source: str, target: str) -> int:
        """The page rate of the pair: the rate of the language paired with English."""
        return _seed.LANGUAGES[target if source == "English" else source]

    def rush_surcharge(self, translation: int, cert: int) -> int:
        """Rush adds 50% of the translation price; the certification fee is not marked up."""
        return translation * _seed.RUSH_PERCENT // 100

    def cancel_problem(self, o: dict[str, Any]) -> str | None:
        """Why an order can't be cancelled, or None."""
        if o["status"] == "in_progress":
            return (f"I'm sorry — work has already started on {self.say_order(o)}, and orders "
                    "can only be cancelled before a translator starts. I haven't cancelled it; "
                    f"it's due on {rd.say_day(o['due_date'])}.")  # fmt: skip
        return None

    def revision_fee(self, o: dict[str, Any], kind: str, pages: int) -> tuple[int, bool]:
        """(fee, whether it is a free correction): errors within 30 days of delivery are free."""
        age = (self.today - date.fromisoformat(o["delivered_on"])).days
        if kind == "error" and age <= _seed.FREE_FIX_DAYS:
            return 0, True
        return pages * o["rate_pence"], False

    async def foreign_order(self, order_id: str, req: dict[str, Any], out: list[str]) -> str:
        """An order number that is not on the caller's account: nothing about it is shared."""
        out.append(f"Order {order_id} isn't on your account, so I can't share or change "
                   "anything about it — only its account holder can ask about it.")  # fmt: skip
        return "done"

    # -- new orders and quotes -------------------------------------------------------------
    def priced(self, req: dict[str, Any], out: list[str]) -> dict[str, Any] | str:
        """The order's details and price, or the desk's next question ("wait"/"done")."""
        s = self.slots(req)
        text = self.text(req)
        other = rd.UNOFFERED_RE.search(text)
        if other:
            out.append(f"I'm sorry — we don't translate {other.group(1).capitalize()} at the "
                       "moment, so I haven't set anything up.")  # fmt: skip
            return "done"
        if s["source"] is None:
            return str(self.ask("source_language", "Which language is the document in?", out))
        if s["target"] is None or s["target"] == s["source"]:
            return str(self.ask("target_language", "And which language do you need it "
                                "translated into?", out))  # fmt: skip
        if (s["source"] == "English") == (s["target"] == "English"):
            out.append(f"I'm sorry — we translate only into or out of English, so we can't "
                       f"take a {s['source']} to {s['target']} translation. Nothing has been "
                       "set up.")  # fmt: skip
            return "done"
        if s["pages"] is None:
            return str(self.ask("pages", "How many pages is the document?", out))
        if s["certified"] is None:
            return str(self.ask("certified", "Do you need it certified — a signed translator's "
                                "statement and stamp for official use, £25.00 an order? Yes or "
                                "no?", out))  # fmt: skip
        if s["turnaround"] is None:
            return str(self.ask("turnaround", "Standard turnaround (5 working days) or rush (2 "
                                "working days, 50% more on the translation)?", out))  # fmt: skip
        note = ""
        if s["turnaround"] == "rush" and s["pages"] > _seed.RUSH_MAX_PAGES:
            s["turnaround"] = "standard"
            note = (f"Rush is only for documents of up to {_seed.RUSH_MAX_PAGES} pages, so "
                    "this one would be standard. ")  # fmt: skip
        rate = self.rate_for(s["source"], s["target"])
        translation = s["pages"] * rate
        cert = _seed.CERT_PENCE if s["certified"] else 0
        rush = self.rush_surcharge(translation, cert) if s["turnaround"] == "rush" else 0
        days = _seed.RUSH_DAYS if s["turnaround"] == "rush" else _seed.STANDARD_DAYS
        parts = [f"{s['pages']} page{'s' if s['pages'] > 1 else ''} at {rd.pounds(rate)} a page, "
                 f"{rd.pounds(translation)}"]  # fmt: skip
        if cert:
            parts.append(f"certification {rd.pounds(cert)}")
        if rush:
            parts.append(f"rush surcharge {rd.pounds(rush)} (50% of the translation price)")
        return {**s, "rate": rate, "total": translation + cert + rush, "days": days,
                "note": note, "breakdown": "; ".join(parts) if len(parts) > 1 else
                f"{s['pages']} page{'s' if s['pages'] > 1 else ''} at {rd.pounds(rate)} a page",
                "due": _seed.add_working_days(self.today, days).isoformat()}  # fmt: skip

    @staticmethod
    def spec_args(v: dict[str, Any], p: dict[str, Any]) -> dict[str, Any]:
        return {"account_id": v["account_id"], "source_language": p["source"],
                "target_language": p["target"], "pages": p["pages"],
                "certified": bool(p["certified"]), "turnaround": p["turnaround"],
                "price_pence": p["total"]}  # fmt: skip

    @staticmethod
    def describe(p: dict[str, Any]) -> str:
        cert = ", certified" if p["certified"] else ""
        return (f"{p['pages']}-page {p['source']} to {p['target']} translation, "
                f"{p['turnaround']}{cert}")  # fmt: skip

    async def step_order(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        p = self.priced(req, out)
        if isinstance(p, str):
            return p
        if self.over_limit(p["total"], "That translation", out, req):
            return "done"
        doc = next((m.group(1) for m in re.finditer(
            r"\b(birth certificate|marriage certificate|certificate|contract|letter|cv|report|"
            r"manual|brochure|diploma|transcript|statement|licence|agreement|menu|leaflet|"
            r"website|article|thesis|will|passport)\b", self.text(req), re.I)),
            "document")  # fmt: skip
        return self.propose(
            req, out,
            f"{p['note']}To order a {self.describe(p)}: {p['breakdown']} — {rd.pounds(p['total'])} "
            f"in all, taken now from your card ending {v['card_last4']}. It will be ready by "
            f"{rd.say_day(p['due'])} ({p['days']} working days). Shall I place the order?",
            [("place_order", {**self.spec_args(v, p), "due_date": p["due"],
                              "document": doc.lower()})],
        )  # fmt: skip

    async def step_quote(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        p = self.priced(req, out)
        if isinstance(p, str):
            return p
        return self.propose(
            req, out,
            f"{p['note']}For a {self.describe(p)}: {p['breakdown']} — {rd.pounds(p['total'])} in "
            f"all, ready {p['days']} working days after you order. Shall I email this to you at "
            f"{v['email']} as a written quote? It's valid for {_seed.QUOTE_VALID_DAYS} days.",
            [("send_quote", self.spec_args(v, p))],
        )  # fmt: skip

    # -- changes to existing orders --------------------------------------------------------
    async def step_upgrade(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        o, foreign = self.pick_order(v, self.text(req), {"queued", "in_progress"})
        if foreign:
            return await self.foreign_order(foreign, req, out)
        if o is None:
            return self.no_order(out)
        if o["status"] not in {"queued", "in_progress"}:
            out.append(f"{self.say_order(o, True)} is {o['status']}, so it can't be "
                       "upgraded. Nothing has been changed.")  # fmt: skip
            return "done"
        if o["turnaround"] == "rush":
            out.append(f"{self.say_order(o, True)} is already rush, due "
                       f"{rd.say_day(o['due_date'])}.")  # fmt: skip
            return "done"
        if o["pages"] > _seed.RUSH_MAX_PAGES:
            out.append(f"I'm sorry — rush is only for documents of up to {_seed.RUSH_MAX_PAGES} "
                       f"pages, so {o['order_id']} stays standard, due "
                       f"{rd.say_day(o['due_date'])}. Nothing has been changed.")  # fmt: skip
            return "done"
        due = _seed.add_working_days(self.today, _seed.RUSH_DAYS).isoformat()
        if due >= o["due_date"]:
            out.append(f"{self.say_order(o, True)} is already due on "
                       f"{rd.say_day(o['due_date'])}, no later than rush would deliver it, so "
                       "there's nothing to gain. Nothing has been changed.")  # fmt: skip
            return "done"
        translation = o["pages"] * o["rate_pence"]
        fee = self.rush_surcharge(translation, _seed.CERT_PENCE if o["certified"] else 0)
        if self.over_limit(fee, "The rush upgrade", out, req):
            return "done"
        return self.propose(
            req, out,
            f"To upgrade {self.say_order(o)} to rush: a surcharge of {rd.pounds(fee)} (50% of "
            f"the {rd.pounds(translation)} translation price), taken from your card ending "
            f"{v['card_last4']}. It would be ready by {rd.say_day(due)} instead of "
            f"{rd.say_day(o['due_date'])}. Shall I upgrade it?",
            [("upgrade_turnaround", {"account_id": v["account_id"], "order_id": o["order_id"],
                                     "fee_pence": fee, "due_date": due})],
        )  # fmt: skip

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        o, foreign = self.pick_order(v, self.text(req), {"queued", "in_progress"})
        if foreign:
            return await self.foreign_order(foreign, req, out)
        if o is None:
            return self.no_order(out)
        if o["status"] == "delivered":
            out.append(f"{self.say_order(o, True)} was delivered on "
                       f"{rd.say_day(o['delivered_on'])}, so it can't be cancelled. If "
                       "something in it is wrong, I can arrange a correction. Nothing has been "
                       "changed.")  # fmt: skip
            return "done"
        if o["status"] == "cancelled":
            out.append(f"{self.say_order(o, True)} is already cancelled.")
            return "done"
        why = self.cancel_problem(o)
        if why:
            out.append(why)
            return "done"
        return self.propose(
            req, out,
            f"To cancel {self.say_order(o)}: work hasn't started on it, so the full "
            f"{rd.pounds(o['paid_pence'])} is refunded to your card ending {v['card_last4']}. "
            "Shall I cancel it?",
            [("cancel_order", {"account_id": v["account_id"], "order_id": o["order_id"],
                               "refund_pence": o["paid_pence"]})],
        )  # fmt: skip

    async def step_revision(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        o, foreign = self.pick_order(v, self.text(req), {"delivered"})
        if foreign:
            return await self.foreign_order(foreign, req, out)
        if o is None:
            return self.no_order(out)
        if o["status"] != "delivered":
            out.append(f"{self.say_order(o, True)} hasn't been delivered yet (it's "
                       f"{STATUS_WORDS[o['status']]}); corrections are made once it's "
                       "delivered. Nothing has been changed.")  # fmt: skip
            return "done"
        s = self.slots(req)
        if s["kind"] is None:
            return str(self.ask("revision_kind", "Is it a mistake in our translation, or have "
                                "you changed the original document?", out))  # fmt: skip
        if s["pages"] is None or s["pages"] > o["pages"]:
            return str(self.ask("pages", f"How many pages need correcting? The translation has "
                                f"{o['pages']}.", out))  # fmt: skip
        fee, free = self.revision_fee(o, s["kind"], s["pages"])
        days = _seed.FIX_DAYS if free else _seed.STANDARD_DAYS
        due = _seed.add_working_days(self.today, days).isoformat()
        delivered = rd.say_day(o["delivered_on"])
        if free:
            what = (f"it was delivered on {delivered}, within our {_seed.FREE_FIX_DAYS}-day "
                    "correction window, so correcting our mistakes is free")  # fmt: skip
        elif s["kind"] == "error":
            what = (f"it was delivered on {delivered}, more than {_seed.FREE_FIX_DAYS} days ago, "
                    "so the free correction window has closed; a paid revision is "
                    f"{rd.pounds(o['rate_pence'])} a page, {rd.pounds(fee)}, taken from your "
                    f"card ending {v['card_last4']}")  # fmt: skip
        else:
            what = (
                f"re-translating pages you changed is {rd.pounds(o['rate_pence'])} a page, "
                f"{rd.pounds(fee)}, taken from your card ending {v['card_last4']}"
            )
        if self.over_limit(fee, "That revision", out, req):
            return "done"
        return self.propose(
            req, out,
            f"To revise {s['pages']} page{'s' if s['pages'] > 1 else ''} of {self.say_order(o)}: "
            f"{what}. It will be back by {rd.say_day(due)}. Shall I open the revision?",
            [("request_revision", {"account_id": v["account_id"], "order_id": o["order_id"],
                                   "kind": s["kind"], "pages": s["pages"], "fee_pence": fee,
                                   "due_date": due})],
        )  # fmt: skip

    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        statuses = {"queued", "in_progress", "delivered", "cancelled"}
        o, foreign = self.pick_order(v, self.text(req), statuses)
        if foreign:
            return await self.foreign_order(foreign, req, out)
        if o is None:
            open_orders = [x for x in v["orders"] if x["status"] in {"queued", "in_progress"}]
            o = open_orders[0] if len(open_orders) == 1 else None
        if o is None:
            return self.no_order(out)
        out.append(self.status_line(o))
        return "done"

    def status_line(self, o: dict[str, Any]) -> str:
        when = (f"delivered on {rd.say_day(o['delivered_on'])}" if o["status"] == "delivered"
                else "cancelled" if o["status"] == "cancelled"
                else f"{STATUS_WORDS[o['status']]}, due {rd.say_day(o['due_date'])}")  # fmt: skip
        return (f"{self.say_order(o, True)}, {o['turnaround']} turnaround: {when}. "
                f"You paid {rd.pounds(o['paid_pence'])}.")  # fmt: skip

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:
        """What the system returned, in the customer's words."""
        if intent == "order":
            return (f"Done — order {r['order_id']} is placed: {r['price']} taken from your card "
                    f"ending {r['card_last4']}; it will be ready by "
                    f"{rd.say_day(r['due_date'])}.")  # fmt: skip
        if intent == "quote":
            return (
                f"Done — quote {r['quote_id']} ({r['price']}) has been emailed to "
                f"{r['sent_to']}; it's valid until {rd.say_day(r['valid_until'])}."
            )
        if intent == "upgrade":
            return (f"Done — order {r['order_id']} is now rush, due "
                    f"{rd.say_day(r['due_date'])}; {r['fee']} taken from your card ending "
                    f"{r['card_last4']}.")  # fmt: skip
        if intent == "revision":
            fee = ("free of charge" if r["fee"] == "£0.00"
                   else f"{r['fee']} taken from your card ending {r['card_last4']}")  # fmt: skip
            return (f"Done — a revision of {r['pages']} page{'s' if r['pages'] > 1 else ''} of "
                    f"order {r['order_id']} is open, {fee}; it will be back by "
                    f"{rd.say_day(r['due_date'])}.")  # fmt: skip
        return (f"Done — order {r['order_id']} is cancelled; {r['refunded']} refunded to your "
                f"card ending {r['card_last4']}.")  # fmt: skip

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
