"""The desk's order extras: insurance, delivery, gift names, member discount, access, email."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from benchmarks.domains.boxoffice import _read as rd
from benchmarks.domains.boxoffice import _seed
from benchmarks.domains.boxoffice._flows import Flows

_REMOVE = re.compile(r"\b(remove|cancel|take (?:\w+ )?off|drop|don'?t (?:want|need)|get rid|"
                     r"no longer|refund|stop)\b", re.I)
_ETICKET = re.compile(r"\be-?tickets?\b|\bby e-?mail\b|\bon my phone\b", re.I)
_POST = re.compile(r"\bpost(?:ed|ing)?\b|\bby (?:the )?mail\b|\bpaper\b|\bprinted\b|"
                   r"\bphysical\b|\bin the post\b", re.I)
_COMPANION = re.compile(r"\bcompanion|\bcarer\b|\bassistant\b|\bsomeone with me\b|"
                        r"\bcoming with me\b|\bwith a friend\b", re.I)
_NO_COMPANION = re.compile(r"\b(?:no|without a|just me|on my own|alone)\b", re.I)


class MoreFlows(Flows):
    """Mixed into the agent after `Flows`."""

    # -- insurance -------------------------------------------------------------------------
    async def step_insurance(self, req: dict[str, Any], out: list[str]) -> str:
        order = await self.choose_order(req, out)
        if order is None:
            return "done"
        n = len(order["tickets"])
        premium = _seed.INSURANCE_PENCE * n
        if _REMOVE.search(self.text_of(req)):
            if not order["insurance"]:
                out.append(f"Order {order['order_id']} doesn't have ticket insurance, so "
                           "there's nothing to remove.")
                return "done"
            booked = date.fromisoformat(order["booked_on"])
            if (self.today - booked).days > _seed.INSURANCE_REMOVE_DAYS:
                out.append(f"I'm sorry, ticket insurance can only be removed within 14 days of "
                           f"booking, and order {order['order_id']} was booked on "
                           f"{rd.say_date(booked)}, so I can't remove it or refund the "
                           "premium. Nothing has been changed.")
                return "done"
            text = (f"I can remove the ticket insurance from order {order['order_id']} and "
                    f"refund the {rd.pounds(premium)} premium to your card ending "
                    f"{self.s['card']}. Shall I go ahead?")
            return self.propose(req, out, text, tool="set_insurance",
                                args={"order_id": order["order_id"], "insured": False})
        if order["insurance"]:
            out.append(f"Order {order['order_id']} already has ticket insurance.")
            return "done"
        if self.hours_to(order["starts_at"]) < _seed.INSURANCE_ADD_MIN_HOURS:
            out.append("I'm sorry, ticket insurance can only be added up to 72 hours before the "
                       "performance. Nothing has been changed.")
            return "done"
        text = (f"I can add ticket insurance to order {order['order_id']} for "
                f"{self.say_perf(order)}: £2.50 a ticket, {rd.pounds(premium)} for {n}, charged "
                f"to your card ending {self.s['card']}. Shall I go ahead?")
        return self.propose(req, out, text, tool="set_insurance",
                            args={"order_id": order["order_id"], "insured": True})

    async def done_insurance(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                             error: str | None, out: list[str]) -> None:
        if error:
            self.tool_failed("change the insurance", error, pending, out)
            return
        if result["insurance"]:
            out.append(f"Done — ticket insurance is added to order {result['order_id']}; "
                       f"{result['charged']} has been charged to your card ending "
                       f"{result['card_last4']}.")
        else:
            out.append(f"Done — the insurance is removed from order {result['order_id']} and "
                       f"{result['refunded']} refunded to your card ending "
                       f"{result['card_last4']}.")

    # -- delivery --------------------------------------------------------------------------
    async def step_delivery(self, req: dict[str, Any], out: list[str]) -> str:
        order = await self.choose_order(req, out)
        if order is None:
            return "done"
        text = self.text_of(req)
        method = "post" if _POST.search(text) or not _ETICKET.search(text) else "e-ticket"
        if order["delivery"] == method:
            out.append(f"Order {order['order_id']} is already set to "
                       f"{'be posted' if method == 'post' else 'e-tickets'}.")
            return "done"
        if method == "e-ticket":
            text = (f"I can switch order {order['order_id']} to e-tickets, free, emailed to "
                    f"{self.s['email']}; the posting fee isn't refunded. Shall I go ahead?")
            return self.propose(req, out, text, tool="change_delivery",
                                args={"order_id": order["order_id"], "method": method})
        days = (date.fromisoformat(order["starts_at"][:10]) - self.today).days
        if days < _seed.POSTING_MIN_DAYS:
            out.append(f"I'm sorry, we can only post tickets 5 or more days before the "
                       f"performance, and {self.say_perf(order)} is {days} days away, so they "
                       f"can't be posted. Your e-tickets are in your email ({self.s['email']}) "
                       "and can be shown on your phone or printed. Nothing has been changed.")
            return "done"
        text = (f"I can post the tickets for order {order['order_id']} "
                f"({self.say_perf(order)}) to the address on your account, postcode "
                f"{self.s['postcode']}. Posting costs £1.50, charged to your card ending "
                f"{self.s['card']}. Shall I go ahead?")
        return self.propose(req, out, text, tool="change_delivery",
                            args={"order_id": order["order_id"], "method": method})

    async def done_delivery(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                            error: str | None, out: list[str]) -> None:
        if error:
            self.tool_failed("change the delivery", error, pending, out)
            return
        if result["delivery"] == "post":
            out.append(f"Done — the tickets for order {result['order_id']} will be posted to "
                       f"postcode {result['posted_to_postcode']}; {result['charged']} has been "
                       f"charged to your card ending {result['card_last4']}.")
        else:
            out.append(f"Done — order {result['order_id']} is now e-tickets, emailed to you.")

    # -- gift names ------------------------------------------------------------------------
    async def step_name(self, req: dict[str, Any], out: list[str]) -> str:
        order = await self.choose_order(req, out)
        if order is None:
            return "done"
        if not order["gift"]:
            out.append(f"I'm sorry, the tickets on order {order['order_id']} are in your name "
                       "and can't be transferred: only the name on a gift order can be "
                       "changed. Nothing has been changed.")
            return "done"
        if self.hours_to(order["starts_at"]) < _seed.NAME_CHANGE_MIN_HOURS:
            out.append("I'm sorry, names can only be changed until 24 hours before the "
                       "performance. Nothing has been changed.")
            return "done"
        name = next((n for c in reversed(req["chunks"]) for n in reversed(rd.person_names(c))
                     if n != order["holder_name"]), None)
        if name is None:
            return self.ask("holder_name", f"The gift tickets on order {order['order_id']} are "
                            f"in the name of {order['holder_name']}. What name should go on "
                            "them instead?", out)
        text = (f"I'll change the name on the gift tickets for order {order['order_id']} from "
                f"{order['holder_name']} to {name}. There's no charge. Shall I go ahead?")
        return self.propose(req, out, text, tool="change_holder_name",
                            args={"order_id": order["order_id"], "holder_name": name})

    async def done_name(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                        error: str | None, out: list[str]) -> None:
        if error:
            self.tool_failed("change the name", error, pending, out)
            return
        out.append(f"Done — the tickets on order {result['order_id']} are now in the name of "
                   f"{result['holder_name']}.")

    # -- member discount -------------------------------------------------------------------
    async def step_discount(self, req: dict[str, Any], out: list[str]) -> str:
        order = await self.choose_order(req, out)
        if order is None:
            return "done"
        if not self.s["member"]:
            out.append("I'm sorry, the member discount is only for Lanternhall Friends members, "
                       "and your account isn't a member's, so I can't apply it. Nothing has "
                       "been changed.")
            return "done"
        record = await self.record()
        if any(o["performance_id"] == order["performance_id"] and o["member_discount_pence"]
               and o["status"] == "active" for o in record["orders"]):
            out.append("You've already had the member discount for this performance: it's one "
                       "per member per performance.")
            return "done"
        dearest = max(t["price_pence"] for t in order["tickets"])
        amount = round(dearest * _seed.MEMBER_DISCOUNT_SHARE)
        text = (f"As a member you can have 20% off one ticket per performance: on order "
                f"{order['order_id']} that's 20% of {rd.pounds(dearest)}, {rd.pounds(amount)}, "
                f"refunded to your card ending {self.s['card']}. Shall I apply it?")
        return self.propose(req, out, text, tool="apply_member_discount",
                            args={"order_id": order["order_id"]})

    async def done_discount(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                            error: str | None, out: list[str]) -> None:
        if error:
            self.tool_failed("apply the discount", error, pending, out)
            return
        out.append(f"Done — the member discount is applied to order {result['order_id']}: "
                   f"{result['refunded']} refunded to your card ending {result['card_last4']}.")

    # -- wheelchair spaces and companions --------------------------------------------------
    def companion_free(self) -> bool:
        """Hook: a companion ticket is free only with access proof on file."""
        return bool(self.s["proof"])

    async def show_on_day(self, text: str) -> str | None:
        """The one show playing on the day named, when the customer gave a day but no show."""
        days = {d.isoformat() for d in rd.visit_dates(text, self.today)}
        if not days:
            return None
        playing = []
        for show in dict.fromkeys(rd.SHOWS.values()):
            result, _ = await self.call("find_performances", show=show)
            if any(p["starts_at"][:10] in days for p in (result or {}).get("performances", [])):
                playing.append(show)
        return playing[0] if len(playing) == 1 else None

    async def step_access(self, req: dict[str, Any], out: list[str]) -> str:
        text = self.text_of(req)
        show = rd.show(text) or req["notes"].get("show") or await self.show_on_day(text)
        if not show and _COMPANION.search(text):
            record = await self.record()
            held = [o for o in record["orders"] if o["status"] == "active" and
                    any(t["kind"] == "wheelchair" for t in o["tickets"]) and
                    not any(t["kind"] == "companion" for t in o["tickets"])]
            if len(held) == 1:
                return await self.companion_for(req, held[0], True, out)
        if not show:
            return self.ask("performance_date", "Which show and which performance would you "
                            "like the wheelchair space for?", out)
        req["notes"]["show"] = show
        perf = await self.choose_performance(req, show, "", out, "performance_date")
        if isinstance(perf, str):
            return perf
        companion = bool(_COMPANION.search(text))
        record = await self.record()
        held = next((o for o in record["orders"] if o["status"] == "active" and
                     o["performance_id"] == perf["performance_id"] and
                     any(t["kind"] == "wheelchair" for t in o["tickets"])), None)
        if held is not None:
            return await self.companion_for(req, held, companion, out)
        asked = req["notes"].get("asked_companion", 0)
        unclear = asked and rd.answer(req["chunks"][-1]) in {None, "hedge"} and \
            not _NO_COMPANION.search(req["chunks"][-1])
        if not companion and (not asked or (unclear and asked < 2)):
            req["notes"]["asked_companion"] = asked + 1
            return self.ask("companion", "Will someone be coming with you as your companion? "
                            "There's a companion seat beside each wheelchair space.", out)
        if not companion and req["notes"].get("asked_companion"):
            companion = rd.answer(req["chunks"][-1]) == "yes" and not \
                _NO_COMPANION.search(req["chunks"][-1])
        space, _ = await self.call("find_seats", performance_id=perf["performance_id"], band="W")
        if not space["free"]:
            out.append(f"I'm sorry, both wheelchair spaces for {self.say_perf(perf)} are taken. "
                       "Nothing has been booked.")
            return "done"
        price = space["price_pence"]
        free = companion and self.companion_free()
        line = f"a wheelchair space for {self.say_perf(perf)} at {rd.pounds(price)}"
        if companion and free:
            line += (", and the companion seat beside it free of charge (we have your access "
                     "proof on file)")
        elif companion:
            line = ("Companion tickets are free only when we have proof of access needs on "
                    "file, and there's none on your account yet (you can send it to "
                    "access@lanternhall.example for future bookings). I can book " + line +
                    f" and the companion seat beside it at {rd.pounds(price)}")
        total = price + (price if companion and not free else 0)
        text = (f"{'I can book ' if not line.startswith('Companion') else ''}{line}: "
                f"{rd.pounds(total)} in all, charged to your card ending {self.s['card']}. "
                "Shall I book it?")
        return self.propose(req, out, text[0].upper() + text[1:], tool="book_access",
                            args={"customer_id": self.s["customer"],
                                  "performance_id": perf["performance_id"],
                                  "companion": companion, "free_companion": free},
                            why="Companion tickets are free only with proof of access needs on "
                            "file; wheelchair spaces are priced as rear Circle seats.")

    async def companion_for(self, req: dict[str, Any], held: dict[str, Any], companion: bool,
                            out: list[str]) -> str:
        """The customer already has a wheelchair space at this performance: add the companion."""
        seats = [t["seat"] for t in held["tickets"]]
        if not companion or any(t["kind"] == "companion" for t in held["tickets"]):
            out.append(f"You already have {self.say_seats(seats)} for {self.say_perf(held)} on "
                       f"order {held['order_id']}, so there's nothing more to book.")
            return "done"
        free = self.companion_free()
        price = 0 if free else (await self.call(
            "find_seats", performance_id=held["performance_id"], band="V"))[0]["price_pence"]
        why = ("free of charge (we have your access proof on file)" if free else
               f"at {rd.pounds(price)}: companion tickets are free only with proof of access "
               "needs on file, and there's none on your account yet")
        req["intent"] = "access"
        text = (f"You have the wheelchair space {seats[0]} for {self.say_perf(held)} on order "
                f"{held['order_id']}. I can add the companion seat beside it {why}. Shall I add "
                "it?")
        return self.propose(req, out, text, tool="add_companion",
                            args={"order_id": held["order_id"], "free_companion": free})

    async def done_access(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                          error: str | None, out: list[str]) -> None:
        if error:
            self.tool_failed("book the wheelchair space", error, pending, out)
            return
        if pending["tool"] == "add_companion":
            out.append(f"Done — companion seat {result['seat']} is added to order "
                       f"{result['order_id']} ({result['price']}).")
            return
        seats = "; ".join(f"{t['seat']} ({t['kind']}, {t['price']})" for t in result["tickets"])
        out.append(f"Done — order {result['order_id']} for {rd.say_stamp(result['starts_at'])}: "
                   f"{seats}. {result['charged']} has been charged to your card ending "
                   f"{result['card_last4']}.")

    # -- email -----------------------------------------------------------------------------
    async def step_email(self, req: dict[str, Any], out: list[str]) -> str:
        found = rd.emails(self.text_of(req))
        if not found:
            return self.ask("email", "What's the new email address?", out)
        text = (f"I'll change the contact email on your account from {self.s['email']} to "
                f"{found[-1]}. Shall I go ahead?")
        return self.propose(req, out, text, tool="update_email",
                            args={"customer_id": self.s["customer"], "email": found[-1]})

    async def done_email(self, req: dict[str, Any], pending: dict[str, Any], result: Any,
                         error: str | None, out: list[str]) -> None:
        if error:
            self.tool_failed("update the email", error, pending, out)
            return
        self.s["email"] = result["email"]
        out.append(f"Done — your contact email is now {result['email']}.")
