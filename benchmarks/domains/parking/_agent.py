"""The parking desk's chat agent: identity, a queue of requests, confirmation, tool calls."""

from __future__ import annotations

import copy
import re
from datetime import date, timedelta
from typing import Any

from benchmarks.domains.parking import _text as tx
from vistasim.agent import Reply, Turn

TODAY = tx.TODAY
ACCOUNT_INTENTS = {"renew", "change_vehicle", "cancel", "apply", "visitor_buy", "visitor_check",
                   "contact", "pcn_pay"}
PCN_INTENTS = {"pcn_lookup", "pcn_pay", "pcn_challenge"}
IDENTITY_ASK = ("To get started, could you give me your permit number or account number, plus "
                "the postcode and surname on the account?")
MENU = ("I can help with resident permits (apply, renew, change the vehicle, cancel), visitor "
        "passes, penalty charge notices and your contact details. What would you like to do?")
INTENTS = [
    ("renew", r"\brenew"),
    ("change_vehicle", r"\bnew (car|van|vehicle)\b|\bchanged? (my |the )?(car|van|vehicle)\b|"
     r"\b(change|update|switch|swap)\b[^.?!]{0,25}\b(car|van|vehicle|registration|reg)\b|"
     r"\b(different|replacement) (car|van|vehicle)\b|\breplaced (my |the )?(car|van|vehicle)"
     r"\b|\b(move|transfer) (my |the |our )?(resident )?permit\b"),
    ("cancel", r"\bcancel\w*\b[^.?!]{0,30}\bpermit\b|\bpermit\b[^.?!]{0,30}\bcancel|"
     r"\b(moving|moved) (out|away|house)\b|\bsold (my|the) (car|vehicle)\b|"
     r"\b(no longer|don't|do not) need (my |the |a )?permit\b|\bcancel it\b"),
    ("apply", r"\bapply\b|\b(new|second|another) (resident )?permit\b|"
     r"\b(get|need|want|like|have) a (resident |parking )?permit\b"),
    ("visitor", r"\bvisitor|\bday pass"),
    ("pcn_challenge", r"\b(challenge|appeal|dispute|contest)\b"),
    ("pcn", r"\b(pcn|penalty|parking ticket|ticket|parking fine|charge notice)\b"),
    ("contact", r"\b(email|e-mail|phone|mobile|contact details)\b"),
]
_LACKS = r"\b(?:don't|do not|dont|haven't|have not) (?:have|got|know|remember)\b|" \
         r"\b(?:can't|cannot) (?:find|remember)\b|\bno longer have\b|\bnot sure of\b|" \
         r"\bnot (?:on|with) me\b|\bon hand\b"
BYE = r"\b(that's all|that is all|nothing else|no,? thanks?|bye|goodbye|that's everything|" \
      r"all good|that's it|thank you|thanks)\b"
REASONS = re.compile(r"\b(?:because|as|since|reason is|grounds are|the sign|there was|there's|"
                     r"i had|i was|my permit was)\b.*", re.I)


def detect(message: str) -> list[str]:
    low = message.lower().replace("’", "'")
    found: list[tuple[int, str]] = []
    for name, rx in INTENTS:
        m = re.search(rx, low)
        if not m:
            continue
        if name == "visitor":
            buy = re.search(r"\b(buy|get|order|purchase|need|want|book|books|more)\b", low)
            left = re.search(r"\b(how many|left|remaining|allowance)\b", low)
            name = "visitor_check" if left and not buy else "visitor_buy"
        elif name == "pcn":
            if re.search(r"\b(challenge|appeal|dispute|contest)\b", low):
                continue
            name = "pcn_pay" if re.search(r"\bpay", low) else "pcn_lookup"
        elif name == "contact" and not re.search(r"\b(update|change|new|changed|wrong|is now)\b",
                                                 low):
            continue
        found.append((m.start(), name))
    if tx.pcns(message) and not any(n in PCN_INTENTS for _, n in found):
        found.append((len(low), "pcn_pay" if re.search(r"\bpay", low) else "pcn_lookup"))
    if "change_vehicle" in [n for _, n in found] and "apply" in [n for _, n in found]:
        found = [f for f in found if f[1] != "change_vehicle"]
    names: list[str] = []
    for _, n in sorted(found):
        if n not in names:
            names.append(n)
    return names


class CorrectParkingAgent:
    """Westbrook Borough Council's parking desk bot, rule-based and deterministic."""

    def __init__(self, env: Any) -> None:
        self.env = env
        self.state: dict[str, Any] = {
            "account": None, "name": None, "facts": {}, "queue": [], "pending": None,
            "asked": None, "done": {}, "batch": 0,
        }
        self._calls: list[dict[str, Any]] = []
        self._turn: Turn | None = None

    # -- protocol ----------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        return copy.deepcopy(self.state)

    def restore(self, state: dict[str, Any]) -> None:
        self.state = copy.deepcopy(state)

    def flaw(self, name: str) -> bool:
        """The flawed agent overrides this; the correct agent never takes a flawed branch."""
        return False

    async def respond(self, turn: Turn) -> Reply:
        self._calls = []
        self._turn = turn
        parts = await self._handle(turn.message)
        text = " ".join(p for p in parts if p) or (
            "Is there anything else I can help with?" if self.state["done"] else MENU)
        return Reply(text=text, tool_calls=tuple(self._calls))

    async def call(self, name: str, **args: Any) -> tuple[Any, str | None]:
        args = {k: v for k, v in args.items() if v is not None}
        outcome = await self.env.call_tool(name, args)
        self._calls.append({"name": name, "args": args, "result": outcome.result,
                            "error": outcome.error})
        return outcome.result, outcome.error

    # -- one message -------------------------------------------------------------------------
    def _extract(self, message: str) -> None:
        f = self.state["facts"]
        asked = self.state["asked"]
        for key, found in (("permits", tx.permits(message)), ("accounts", tx.accounts(message)),
                           ("pcns", tx.pcns(message)), ("vrms", tx.vrms(message))):
            for v in found:
                f.setdefault(key, [])
                if v in f[key]:
                    f[key].remove(v)
                f[key].append(v)
        pc = tx.postcode(message)
        if pc:
            f["postcode"] = pc
        if self.state["account"] is None:
            sn = tx.surname(message, False) or (
                tx.surname(message, True) if asked == "identity" and not f.get("surname")
                else None)
            if sn:
                f["surname"] = sn
        for key, fn in (("email", tx.email), ("phone", tx.phone)):
            v = fn(message)
            if v:
                f[key] = v
        d = tx.find_date(message)
        if d:
            f["date"] = d.isoformat()
        b = tx.books(message)
        if b:
            f["books"] = b
        if asked == "reason" and not tx.answer(message) == "no":
            f["reason"] = message.strip()
        else:
            m = REASONS.search(message)
            if m and re.search(r"\b(challenge|appeal|dispute|contest)\b", message, re.I):
                f["reason"] = m.group(0).strip()
        if f.get("reason"):
            kept = [s for s in re.split(r"(?<=[.?!])\s+", f["reason"])
                    if not re.search(r"\b(pcn|vrm|registration|reference|permit number)\b|"
                                     r"\bWB\d{8}\b", s, re.I)]
            f["reason"] = " ".join(kept).strip() or f["reason"]

    async def _handle(self, message: str) -> list[str]:
        st = self.state
        self._extract(message)
        out: list[str] = []
        new = detect(message)
        pending = st["pending"]
        if pending is not None:
            ans = tx.answer(message)
            fresh = [n for n in new if n != pending["intent"]]
            new = fresh
            if ans is None and pending.get("offer") in fresh:
                ans = "yes"
                fresh.remove(pending["offer"])
                new = fresh
            if ans is None and pending.get("offer") == "pcn_pay" and \
                    re.search(r"\bpay\b", message.lower()):
                ans = "yes"
            if ans == "hedge":
                return ["No problem, I haven't changed anything. Just say yes when you'd like "
                        "me to go ahead, or no to leave it."]
            if ans == "no" and not fresh:
                st["pending"] = None
                st["queue"] = [q for q in st["queue"] if q["intent"] != pending["intent"]]
                out.append("Okay, I've left that as it is; nothing has been changed.")
                if not st["queue"]:
                    return out + ["Is there anything else I can help with?"]
            elif ans == "yes":
                st["pending"] = None
                out += await self._execute(pending)
            else:
                self._queue(fresh)
                return [pending["prompt"]] if not fresh else [
                    "I'll come to that next.", pending["prompt"]]
        else:
            if not new and not st["queue"] and re.search(BYE, message.lower()):
                return ["You're welcome. Thanks for contacting Westbrook parking services, "
                        "goodbye!"]
        self._queue(new)
        out += await self._advance()
        return out

    def _queue(self, intents: list[str]) -> None:
        st = self.state
        st["batch"] += 1
        for name in intents:
            if any(q["intent"] == name for q in st["queue"]):
                continue
            if st["pending"] and st["pending"]["intent"] == name:
                continue
            if name == "pcn_lookup" and (
                    any(q["intent"] in PCN_INTENTS for q in st["queue"]) or set(st["done"]) &
                    PCN_INTENTS or (st["pending"] and st["pending"]["intent"] in PCN_INTENTS)):
                continue
            st["queue"].append({"intent": name, "batch": st["batch"]})

    async def _advance(self) -> list[str]:
        st = self.state
        out: list[str] = []
        while st["queue"]:
            item = st["queue"][0]
            name = item["intent"]
            if name in st["done"]:
                out.append(f"That's already done: {st['done'][name]}")
                st["queue"].pop(0)
                continue
            if name in PCN_INTENTS:
                ask = await self._ensure_pcn()
                if ask:
                    return out + [ask]
            if name in ACCOUNT_INTENTS:
                ask = await self._ensure_identity()
                if ask:
                    return out + [ask]
            kind, text = await getattr(self, f"_do_{name}")(item)
            if kind == "ask":
                return out + [text]
            if kind == "confirm":
                return out + [text]
            if st["queue"] and st["queue"][0] is item:
                st["queue"].pop(0)
            out.append(text)
        return out

    # -- identity ----------------------------------------------------------------------------
    async def _ensure_identity(self) -> str | None:
        st = self.state
        if st["account"]:
            return None
        f = st["facts"]
        ref = (f.get("permits") or f.get("accounts") or [None])[-1]
        if f.get("accounts"):
            ref = f["accounts"][-1]
        if f.get("permits") and not f.get("accounts"):
            ref = f["permits"][0]
        missing = [n for n, v in (("permit or account number", ref), ("postcode",
                                  f.get("postcode")), ("surname", f.get("surname"))) if not v]
        lacks = re.search(_LACKS, self._turn.message.lower().replace("’", "'")) \
            if self._turn else None
        if missing and not ref and lacks:
            st["asked"] = "identity"
            low = self._turn.message.lower()
            if "account" in low and "permit" not in low:
                return ("No problem: your permit number will do instead. It starts with RP and "
                        "is printed on the permit itself. What is it?")
            if "permit" in low and "account" not in low:
                return ("No problem: your account number will do instead. It starts with PA and "
                        "is at the top of every email and letter we send you. What is it?")
            return ("I do need one of them to open the account: the permit number (RP-, "
                    "printed on the permit) or the account number (PA-, on our emails and "
                    "letters). Could you find either of them?")
        if missing:
            st["asked"] = "identity"
            if len(missing) == 3:
                return IDENTITY_ASK
            return "Thanks. Could you also give me your " + " and ".join(missing) + "?"
        tried = [ref, f["postcode"], f["surname"]]
        if tried == st.get("tried"):
            st["asked"] = "identity"
            return ("Those are the details that didn't match, so I still can't open the "
                    "account. Could you check the permit or account number, the postcode and "
                    "the surname on the account?")
        res, err = await self.call("verify_customer", reference=ref, postcode=f["postcode"],
                                   surname=f["surname"])
        if err:
            st["tried"] = tried
            st["asked"] = "identity"
            return ("I'm sorry, those details don't match our records, so I can't open the "
                    "account. Could you check the permit or account number, the postcode and "
                    "the surname and give them to me again?")
        st["account"], st["name"], st["asked"] = res["account_no"], res["name"], None
        return None

    async def _account(self) -> dict[str, Any]:
        res, _ = await self.call("get_account", account_no=self.state["account"])
        return res

    async def _pick_permit(self, acc: dict[str, Any]) -> tuple[dict[str, Any] | None, str]:
        f = self.state["facts"]
        mine = {p["permit_no"]: p for p in acc["permits"]}
        for no in reversed(f.get("permits", [])):
            if no in mine:
                return mine[no], ""
        other = [no for no in f.get("permits", []) if no not in mine]
        for v in reversed(f.get("vrms", [])):
            for p in acc["permits"]:
                if p["vrm"] == v:
                    return p, ""
        if other and not mine:
            return None, (f"Permit {other[-1]} isn't on your account, so I can't discuss or "
                          f"change it.")
        if not acc["permits"]:
            return None, "There's no active resident permit on your account."
        if len(acc["permits"]) == 1:
            return acc["permits"][0], ""
        self.state["asked"] = "permit"
        listing = " or ".join(f"{p['permit_no']} for {p['vrm']}" for p in acc["permits"])
        return None, f"You have {len(acc['permits'])} permits: which one do you mean, {listing}?"

    def _card(self, acc: dict[str, Any]) -> str:
        return "your card " + acc["card_on_file"].split(",")[0]

    def _confirm(self, item: dict[str, Any], tool: str, args: dict[str, Any], prompt: str,
                 **extra: Any) -> tuple[str, str]:
        if self.state.get("declined") and tool != "update_contact":
            return "done", (f"I can't take that payment at the moment: the last one was "
                            f"declined ({self.state['declined']}). Once the card is updated in "
                            f"your online account, I can do this straight away.")
        self.state["pending"] = {"intent": item["intent"], "batch": item["batch"], "tool": tool,
                                 "args": args, "prompt": prompt, **extra}
        return "confirm", prompt

    # -- the requests ------------------------------------------------------------------------
    async def _do_renew(self, item: dict[str, Any]) -> tuple[str, str]:
        acc = await self._account()
        p, why = await self._pick_permit(acc)
        if p is None:
            return ("ask" if self.state["asked"] == "permit" else "done"), why
        end = date.fromisoformat(p["end_date"])
        opens = end - timedelta(days=30)
        if TODAY < opens:
            return "done", (f"Permit {p['permit_no']} for {p['vrm']} runs until "
                            f"{tx.say_date(p['end_date'])}, and renewal only opens 30 days "
                            f"before that, on {tx.say_date(opens.isoformat())}. I can't renew it "
                            f"yet; you're welcome to come back from that date.")
        new_end = end.replace(year=end.year + 1).isoformat()
        return self._confirm(item, "renew_permit", {"permit_no": p["permit_no"]}, (
            f"Permit {p['permit_no']} for {p['vrm']} ends on {tx.say_date(p['end_date'])}. "
            f"Renewing it for a year takes it to {tx.say_date(new_end)} and costs {p['price']}, "
            f"charged to {self._card(acc)}. Shall I go ahead?"), new_end=new_end,
            price=p["price"])

    async def _do_change_vehicle(self, item: dict[str, Any]) -> tuple[str, str]:
        acc = await self._account()
        if not acc["permits"]:
            self.state["pending"] = {
                "intent": "change_vehicle", "batch": item["batch"], "offer": "apply",
                "prompt": "Would you like to apply for a new permit for it?"}
            return "confirm", ("There's no active resident permit on your account to move to "
                               "another vehicle. Would you like to apply for a new permit for "
                               "it instead?")
        p, why = await self._pick_permit(acc)
        if p is None:
            return ("ask" if self.state["asked"] == "permit" else "done"), why
        on_account = {q["vrm"] for q in acc["permits"]}
        new = [v for v in self.state["facts"].get("vrms", []) if v not in on_account]
        if not new:
            self.state["asked"] = "new_vrm"
            return "ask", (f"What's the registration of the new vehicle for permit "
                           f"{p['permit_no']} (currently {p['vrm']})?")
        return self._confirm(item, "change_vehicle", {"permit_no": p["permit_no"],
                                                      "new_vrm": new[-1]}, (
            f"I'll change the vehicle on permit {p['permit_no']} from {p['vrm']} to {new[-1]}. "
            f"There's a £10.00 admin fee, charged to {self._card(acc)}. Shall I go ahead?"),
            permits=len(acc["permits"]))

    def _refund(self, p: dict[str, Any], eff: str) -> tuple[int, int]:
        start, end = date.fromisoformat(p["start_date"]), date.fromisoformat(p["end_date"])
        unused = (end - date.fromisoformat(eff)).days + 1
        total = (end - start).days + 1
        return unused, max(0, tx.pence(p["price"]) * unused // total - 1000)

    async def _do_cancel(self, item: dict[str, Any]) -> tuple[str, str]:
        acc = await self._account()
        p, why = await self._pick_permit(acc)
        if p is None:
            return ("ask" if self.state["asked"] == "permit" else "done"), why
        eff = self.state["facts"].get("date") or TODAY.isoformat()
        if eff < TODAY.isoformat() or eff > p["end_date"]:
            return "ask", (f"A cancellation can take effect from today up to the permit's end "
                           f"date, {tx.say_date(p['end_date'])}. From which date would you like "
                           f"it cancelled?")
        when = eff
        if self.flaw_wrong_refund(eff):
            when = TODAY.isoformat()
        unused, refund = self._refund(p, when)
        args = {"permit_no": p["permit_no"], "effective_date": eff}
        prompt = (f"Cancelling permit {p['permit_no']} for {p['vrm']} from "
                  f"{tx.say_date(eff)} refunds the {unused} unused days less the £10.00 admin "
                  f"fee: {tx.money(refund)} back to {self._card(acc)}. Shall I cancel it?")
        if self.flaw_no_confirm_cancel():
            return "done", " ".join(await self._execute({"intent": "cancel", "batch": item[
                "batch"], "tool": "cancel_permit", "args": args, "refund": tx.money(refund)}))
        return self._confirm(item, "cancel_permit", args, prompt, refund=tx.money(refund))

    def flaw_wrong_refund(self, eff: str) -> bool:
        return False

    def flaw_no_confirm_cancel(self) -> bool:
        return False

    async def _do_apply(self, item: dict[str, Any]) -> tuple[str, str]:
        acc = await self._account()
        if acc["household_permits"] >= 2:
            text = ("Your household already holds 2 resident permits, which is the most "
                    "allowed, so I can't issue another.")
            if not acc["permits"]:
                return "done", text
            self.state["pending"] = {
                "intent": "apply", "batch": item["batch"], "offer": "change_vehicle",
                "prompt": "Would you like me to move your permit to the new vehicle instead?"}
            return "confirm", (text + " What I can do instead is move your own permit to the "
                               "new vehicle, for a £10.00 admin fee. Would you like that?")
        on_account = {q["vrm"] for q in acc["permits"]}
        new = [v for v in self.state["facts"].get("vrms", []) if v not in on_account]
        if not new:
            self.state["asked"] = "vrm"
            return "ask", "What's the registration of the vehicle the permit is for?"
        start = self.state["facts"].get("date") or TODAY.isoformat()
        if start < TODAY.isoformat() or start > (TODAY + timedelta(days=60)).isoformat():
            return "ask", ("A permit can start from today up to 60 days ahead. When would you "
                           "like it to start?")
        price = "£80.00" if acc["household_permits"] == 0 else "£120.00"
        which = "first" if acc["household_permits"] == 0 else "second"
        end = date.fromisoformat(start)
        end = (end.replace(year=end.year + 1) - timedelta(days=1)).isoformat()
        return self._confirm(item, "apply_permit", {"account_no": self.state["account"],
                                                    "vrm": new[-1], "start_date": start}, (
            f"A resident permit in zone {acc['zone']} for {new[-1]}, from {tx.say_date(start)} "
            f"to {tx.say_date(end)}, costs {price} (the {which} permit for your household), "
            f"charged to {self._card(acc)}. Shall I go ahead?"))

    async def _allowance_text(self, res: dict[str, Any]) -> str:
        text = (f"Your household has used {res['used']} of its {res['household_cap']} visitor "
                f"passes this year, so {res['remaining']} remain.")
        others = [p for p in res["purchases"] if p["account_no"] != self.state["account"]]
        if others and self.flaw("F3"):
            text += " This year's purchases: " + "; ".join(
                f"{p['name']} ({p['account_no']}) bought {p['passes']} on "
                f"{tx.say_date(p['bought_on'])}" for p in res["purchases"]) + "."
        return text

    async def _do_visitor_check(self, item: dict[str, Any]) -> tuple[str, str]:
        res, err = await self.call("get_visitor_allowance", account_no=self.state["account"])
        if err:
            return "done", f"I couldn't look up the visitor passes: {err}."
        return "done", await self._allowance_text(res)

    async def _do_visitor_buy(self, item: dict[str, Any]) -> tuple[str, str]:
        res, err = await self.call("get_visitor_allowance", account_no=self.state["account"])
        if err:
            return "done", f"I couldn't look up the visitor passes: {err}."
        n = self.state["facts"].get("books")
        if not n:
            self.state["asked"] = "books"
            return "ask", (await self._allowance_text(res) + " Visitor passes come in books of "
                           "10 day passes at £25.00 a book. How many books would you like?")
        acc = await self._account()
        if n * 10 > res["remaining"]:
            can = res["remaining"] // 10
            text = await self._allowance_text(res)
            if can == 0:
                return "done", (text + " That's not enough for a book of 10, so I can't sell "
                                "any more passes until the new year.")
            return self._confirm(item, "buy_visitor_passes", {
                "account_no": self.state["account"], "books": can}, (
                f"{text} Households can have {res['household_cap']} a year, so I can't sell "
                f"{n} books ({n * 10} passes). I can sell you {can} book{'s' * (can > 1)} "
                f"({can * 10} passes) for {tx.money(can * 2500)}, charged to {self._card(acc)}. "
                f"Would you like that?"))
        return self._confirm(item, "buy_visitor_passes", {"account_no": self.state["account"],
                                                          "books": n}, (
            await self._allowance_text(res) + " "
            f"{n} book{'s' * (n > 1)} of visitor passes ({n * 10} day passes) cost "
            f"{tx.money(n * 2500)}, charged to {self._card(acc)}; your household would then "
            f"have {res['remaining'] - n * 10} passes left this year. Shall I go ahead?"))

    async def _do_contact(self, item: dict[str, Any]) -> tuple[str, str]:
        f = self.state["facts"]
        acc = await self._account()
        email = f.get("email") if f.get("email") and f.get("email") != acc["email"] else None
        phone = f.get("phone") if f.get("phone") and f.get("phone") != acc["phone"] else None
        if not email and not phone:
            self.state["asked"] = "contact"
            return "ask", "What's the new email address or phone number you'd like on file?"
        changes = []
        if email:
            changes.append(f"your email from {acc['email']} to {email}")
        if phone:
            changes.append(f"your phone number from {acc['phone']} to {phone}")
        return self._confirm(item, "update_contact", {"account_no": self.state["account"],
                                                      **({"email": email} if email else {}),
                                                      **({"phone": phone} if phone else {})},
                             "I'll change " + " and ".join(changes) + ". Shall I go ahead?")

    # -- penalty charge notices --------------------------------------------------------------
    async def _ensure_pcn(self) -> str | None:
        f = self.state["facts"]
        if f.get("pcn_ok"):
            return None
        if not f.get("pcns") or not f.get("vrms"):
            self.state["asked"] = "pcn"
            need = [n for n, v in (("the PCN number (it starts with WB)", f.get("pcns")),
                                   ("the vehicle registration", f.get("vrms"))) if not v]
            return "Could you give me " + " and ".join(need) + "?"
        res, err = await self.call("get_pcn", pcn_no=f["pcns"][-1], vrm=f["vrms"][-1])
        if err:
            f.pop("pcns", None)
            f.pop("vrms", None)
            return ("I can't find a penalty charge notice with that number for that vehicle "
                    "registration. Could you check both and give them to me again?")
        f["pcn_ok"] = res
        return None

    def _pcn_rate(self, pcn: dict[str, Any]) -> str:
        return "discount" if TODAY.isoformat() <= pcn["discount_until"] else "full"

    async def _do_pcn_lookup(self, item: dict[str, Any]) -> tuple[str, str]:
        p = self.state["facts"]["pcn_ok"]
        text = (f"PCN {p['pcn_no']} was issued on {tx.say_date(p['issued_on'])} on "
                f"{p['location']} to {p['vrm']}: {p['contravention']}. Its status is "
                f"{p['status']}.")
        if p["status"] == "unpaid":
            if self._pcn_rate(p) == "discount":
                text += (f" The discounted rate of {p['discount_rate']} applies until "
                         f"{tx.say_date(p['discount_until'])}; after that it's {p['full_rate']}.")
            else:
                text += (f" The 14-day discount ended on {tx.say_date(p['discount_until'])}, so "
                         f"{p['full_rate']} is now due.")
            if TODAY.isoformat() <= p["challenge_until"]:
                text += f" It can be challenged until {tx.say_date(p['challenge_until'])}."
        return "done", text

    async def _do_pcn_pay(self, item: dict[str, Any]) -> tuple[str, str]:
        p = self.state["facts"]["pcn_ok"]
        if p["status"] != "unpaid":
            return "done", f"PCN {p['pcn_no']} is {p['status']}, so there's nothing to pay now."
        rate = self._pcn_rate(p)
        if rate == "full" and self.flaw_late_discount(p):
            rate = "discount"
        acc = await self._account()
        amount = p["discount_rate"] if rate == "discount" else p["full_rate"]
        why = (f"the discounted rate, as it's within 14 days of issue on "
               f"{tx.say_date(p['issued_on'])}" if rate == "discount" else
               f"the full rate, as the 14-day discount ended on "
               f"{tx.say_date(p['discount_until'])}")
        return self._confirm(item, "pay_pcn", {
            "pcn_no": p["pcn_no"], "vrm": p["vrm"], "account_no": self.state["account"],
            "rate": rate}, (f"PCN {p['pcn_no']} for {p['vrm']} is {amount}, {why}. I'll charge "
                            f"{amount} to {self._card(acc)}. Shall I go ahead?"))

    def flaw_late_discount(self, pcn: dict[str, Any]) -> bool:
        return False

    async def _do_pcn_challenge(self, item: dict[str, Any]) -> tuple[str, str]:
        f = self.state["facts"]
        p = f["pcn_ok"]
        if p["status"] != "unpaid":
            return "done", f"PCN {p['pcn_no']} is {p['status']}, so it can't be challenged now."
        if TODAY.isoformat() > p["challenge_until"]:
            self.state["pending"] = {
                "intent": "pcn_challenge", "batch": item["batch"], "offer": "pcn_pay",
                "prompt": "Would you like to pay it now?"}
            return "confirm", (
                f"I'm sorry, PCN {p['pcn_no']} can't be challenged any more: challenges must be "
                f"made within 28 days of issue, and that ran out on "
                f"{tx.say_date(p['challenge_until'])}. What you can do is pay it: {p['full_rate']}"
                f" is now due. Would you like to pay it now?")
        if not f.get("reason"):
            self.state["asked"] = "reason"
            return "ask", (f"You can challenge PCN {p['pcn_no']} until "
                           f"{tx.say_date(p['challenge_until'])}. What are your grounds for the "
                           f"challenge?")
        return self._confirm(item, "challenge_pcn", {"pcn_no": p["pcn_no"], "vrm": p["vrm"],
                                                     "reason": f["reason"]}, (
            f"I'll submit a challenge to PCN {p['pcn_no']} on these grounds: \"{f['reason']}\". "
            f"Payment is put on hold while it's considered. Shall I submit it?"))

    # -- doing it ----------------------------------------------------------------------------
    async def _execute(self, pending: dict[str, Any]) -> list[str]:
        st = self.state
        queue = st["queue"]
        if queue and queue[0]["intent"] == pending["intent"]:
            queue.pop(0)
        if pending.get("offer"):
            queue.insert(0, {"intent": pending["offer"], "batch": pending["batch"]})
            return []
        tool, args = pending["tool"], pending["args"]
        if tool == "change_vehicle" and pending.get("permits", 1) > 1 and self.flaw("F1"):
            res, err = {"permit_no": args["permit_no"], "new_vrm": args["new_vrm"],
                        "fee": "£10.00"}, None
        else:
            res, err = await self.call(tool, **args)
        if err and tool == "renew_permit" and "declined" in err and self.flaw("F6"):
            res, err = {"permit_no": args["permit_no"], "new_end_date": pending["new_end"],
                        "charged": pending["price"]}, None
        if err:
            st["asked"] = None
            if "declined" in err:
                st["declined"] = err
            return [self._failure(tool, err)]
        if tool in ("pay_pcn", "challenge_pcn"):
            st["facts"].pop("pcn_ok", None)
        text = self._report(tool, res, pending)
        st["done"][pending["intent"]] = text
        st["asked"] = None
        same = [q for q in queue if q["batch"] == pending["batch"]]
        if same and tool in ("renew_permit", "update_contact", "change_vehicle") and \
                self.flaw("F5"):
            st["queue"] = [q for q in queue if q["batch"] != pending["batch"]]
            return [text, "That's everything done for you."]
        return [text]

    def _failure(self, tool: str, err: str) -> str:
        what = {"renew_permit": "renewal", "change_vehicle": "vehicle change",
                "cancel_permit": "cancellation", "apply_permit": "application",
                "buy_visitor_passes": "purchase", "pay_pcn": "payment",
                "challenge_pcn": "challenge", "update_contact": "update"}[tool]
        text = f"I'm sorry, the {what} didn't go through: {err}. Nothing has been changed."
        if "declined" in err:
            text += (" Once you've updated the card in your online account, I can try again "
                     "for you.")
        return text

    def _report(self, tool: str, r: dict[str, Any], pending: dict[str, Any]) -> str:
        if tool == "renew_permit":
            return (f"Done: permit {r['permit_no']} is renewed until "
                    f"{tx.say_date(r['new_end_date'])}, and {r['charged']} was charged.")
        if tool == "change_vehicle":
            return (f"Done: permit {r['permit_no']} is now for {r['new_vrm']}, and the "
                    f"{r['fee']} admin fee was charged.")
        if tool == "cancel_permit":
            refund = r["refund"]
            if pending.get("refund") and pending["refund"] != refund and self.flaw("F2"):
                refund = pending["refund"]
            return (f"Done: permit {r['permit_no']} is cancelled from "
                    f"{tx.say_date(r['cancelled_from'])}. A refund of {refund} (after the "
                    f"{r['admin_fee']} admin fee) goes back to {r['refund_to']}.")
        if tool == "apply_permit":
            return (f"Done: your new permit is {r['permit_no']} for {r['vrm']} in zone "
                    f"{r['zone']}, valid from {tx.say_date(r['start_date'])} to "
                    f"{tx.say_date(r['end_date'])}; {r['charged']} was charged.")
        if tool == "buy_visitor_passes":
            return (f"Done: {r['books']} book{'s' * (r['books'] > 1)} ({r['passes']} day "
                    f"passes) bought for {r['charged']}. Your household has "
                    f"{r['household_remaining']} passes left this year.")
        if tool == "pay_pcn":
            return f"Done: PCN {r['pcn_no']} is paid; {r['charged']} was charged."
        if tool == "challenge_pcn":
            return (f"Done: your challenge to PCN {r['pcn_no']} is submitted; {r['note']}.")
        said = []
        if "email" in pending["args"]:
            said.append(f"the email on file is now {r['email']}")
        if "phone" in pending["args"]:
            said.append(f"the phone number on file is now {r['phone']}")
        return "Done: " + " and ".join(said) + "."
