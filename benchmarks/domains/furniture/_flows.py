"""The desk's flows: moves, assembly, damage and missing parts, returns, cancels, addresses."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from benchmarks.domains.furniture import _read as rd
from benchmarks.domains.furniture import _seed

STATUS_WORDS = {"processing": "being prepared at our warehouse", "dispatched": "dispatched",
                "out_for_delivery": "out for delivery today", "delivered": "delivered",
                "cancelled": "cancelled"}  # fmt: skip
PACKAGING_YES = re.compile(
    r"\b(?:still (?:have|got)|kept|in) (?:the |its |it'?s )?(?:original )?(?:packaging|box)", re.I
)


class Flows:
    """The flows; `CorrectFurnitureAgent` supplies the state, the calls and the questions."""

    s: dict[str, Any]
    today: date
    call: Any
    ask: Any
    propose: Any

    async def refresh(self) -> dict[str, Any]:
        view, error = await self.call("get_order", order_id=self.s["order"])
        if not error:
            self.s["view"] = view
        return dict(self.s["view"])

    @staticmethod
    def text(req: dict[str, Any]) -> str:
        return " ".join(req["chunks"])

    @staticmethod
    def names(items: list[dict[str, Any]]) -> str:
        return " and ".join(f"the {i['name']}" for i in items)

    def not_open(self, v: dict[str, Any], what: str, out: list[str]) -> bool:
        """An order out for delivery, delivered or cancelled can't be changed before delivery."""
        if v["status"] in ("processing", "dispatched"):
            return False
        why = {"out_for_delivery": "it's already out for delivery today",
               "delivered": f"it was delivered on {rd.say_day(v['delivery_date'])}",
               "cancelled": "it has been cancelled"}[v["status"]]  # fmt: skip
        out.append(f"I'm sorry — I can't {what} on order {v['order_id']}, as {why}. Nothing has "
                   "been changed.")  # fmt: skip
        return True

    def free_only(self, req: dict[str, Any], fee: int, what: str, out: list[str]) -> bool:
        """The goal said to go ahead only if free: a fee ends the request, nothing changed."""
        if fee and rd.FREE_ONLY.search(" ".join([self.text(req), *self.s.get("said", [])])):
            out.append(f"{what} would cost {rd.pounds(fee)}, and you asked me to leave it if "
                       "there was a charge, so I haven't changed anything.")  # fmt: skip
            return True
        return False

    # -- policy hooks (the flawed agent overrides some) -------------------------------------
    def move_fee(self, v: dict[str, Any]) -> int:
        return 0 if self.today.isoformat() <= v["free_move_until"] else _seed.MOVE_FEE_PENCE

    def assembly_price(self, items: list[dict[str, Any]]) -> int:
        """£45.00 an item."""
        return _seed.ASSEMBLY_PENCE * len(items)

    def kept_deposit(self, v: dict[str, Any]) -> int:
        """On a cancellation, 20% of each made-to-order item's price is kept."""
        return sum(i["price_pence"] * _seed.MTO_DEPOSIT_PERCENT // 100
                   for i in v["items"] if i["made_to_order"])  # fmt: skip

    def return_problem(self, v: dict[str, Any], item: dict[str, Any]) -> str | None:
        """Why an item can't be returned, or None."""
        if item["made_to_order"]:
            return (f"the {item['name']} was made to order, and made-to-order items can't be "
                    "returned")  # fmt: skip
        if item["clearance"]:
            return (f"the {item['name']} was a clearance item, and clearance items can't be "
                    "returned")  # fmt: skip
        if v["days_since_delivery"] > _seed.RETURN_DAYS:
            return (f"it was delivered on {rd.say_day(v['delivery_date'])}, more than 28 days "
                    "ago, and returns are within 28 days of delivery")  # fmt: skip
        return None

    def zone_problem(self, v: dict[str, Any], postcode: str) -> str | None:
        """Why the order can't go to this postcode, or None (same delivery zone)."""
        zone = _seed.zone_of(postcode)
        if zone is None:
            return f"we don't deliver to {postcode}"
        if zone != v["zone"]:
            return (f"{postcode} is in a different delivery zone from {v['postcode']}, so the "
                    "address can't be changed: the order would have to be cancelled and placed "
                    "again for the new address")  # fmt: skip
        return None

    # -- look-ups and moves ----------------------------------------------------------------
    async def step_lookup(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        day = rd.say_day(v["delivery_date"])
        when = (f"it was delivered on {day}" if v["status"] == "delivered" else
                f"it is {STATUS_WORDS[v['status']]}" if v["status"] == "cancelled" else
                f"it is {STATUS_WORDS[v['status']]}, for delivery on {day}")  # fmt: skip
        out.append(f"Your order {v['order_id']} ({self.names(v['items'])}): {when}, to "
                   f"{v['address']}, {v['postcode']}.")  # fmt: skip
        return "done"

    async def step_move(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if self.not_open(v, "move the delivery", out):
            return "done"
        days = [d for d in rd.dates(self.text(req), self.today)
                if d > self.today and d.isoformat() != v["delivery_date"]]  # fmt: skip
        if not days:
            return self.ask("delivery_date", f"Your delivery is on {rd.say_day(v['delivery_date'])}"
                            ". Which day would you like instead? We deliver Monday to Friday.",
                            out)  # fmt: skip
        new = days[-1]
        if not _seed.is_working_day(new):
            return self.ask("delivery_date", f"I'm sorry — we don't deliver on "
                            f"{rd.say_day(new.isoformat())}: we deliver Monday to Friday, not on "
                            "bank holidays. Which other day would suit you?", out)  # fmt: skip
        fee = self.move_fee(v)
        if self.free_only(req, fee, "Moving the delivery less than 3 working days before it",
                          out):  # fmt: skip
            return "done"
        charge = (f"It's less than 3 working days before the delivery, so there's a fee of "
                  f"{rd.pounds(fee)}, taken from your card ending {v['card_last4']}." if fee
                  else "There's no charge, as it's 3 or more working days away.")  # fmt: skip
        return self.propose(
            req, out, f"To move the delivery of order {v['order_id']} from "
            f"{rd.say_day(v['delivery_date'])} to {rd.say_day(new.isoformat())}. {charge} "
            "Shall I move it?",
            [("move_delivery", {"order_id": v["order_id"], "delivery_date": new.isoformat(),
                                "fee_pence": fee})],
        )  # fmt: skip

    # -- assembly --------------------------------------------------------------------------
    async def step_assembly(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if self.not_open(v, "add assembly", out):
            return "done"
        if self.today.isoformat() > v["assembly_until"]:
            out.append(f"I'm sorry — assembly can be added up to 2 working days before the "
                       f"delivery day, and your delivery is on {rd.say_day(v['delivery_date'])}, "
                       "so it's too late to add it. Nothing has been changed.")  # fmt: skip
            return "done"
        booked = {i for a in v["assembly"] for i in a["item_ids"].split(",")}
        named = rd.match_items(v["items"], self.text(req))
        items = [i for i in named if i["item_id"] not in booked]
        assembled = [i for i in items if not i["flat_pack"]]
        if assembled:
            out.append(f"The {assembled[0]['name']} arrives already assembled, so it doesn't "
                       "need our assembly service.")  # fmt: skip
            items = [i for i in items if i["flat_pack"]]
            if not items:
                return "done"
        if not items:
            return self.ask("items", "Which items would you like assembled? "
                            f"Your order has {self.names(v['items'])}.", out)  # fmt: skip
        price = self.assembly_price(items)
        return self.propose(
            req, out, f"To add assembly for {self.names(items)} on delivery "
            f"({rd.say_day(v['delivery_date'])}): £45.00 an item, {rd.pounds(price)} in all, "
            f"taken from your card ending {v['card_last4']}. Shall I book it?",
            [("add_assembly", {"order_id": v["order_id"],
                               "item_ids": [i["item_id"] for i in items], "price_pence": price})],
        )  # fmt: skip

    # -- damage and missing parts ----------------------------------------------------------
    async def step_problem(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        if v["status"] != "delivered":
            out.append(f"Order {v['order_id']} hasn't been delivered yet, so there's nothing to "
                       "report — if anything arrives damaged, tell us within 7 days.")  # fmt: skip
            return "done"
        if v["days_since_delivery"] > _seed.DAMAGE_DAYS:
            out.append(f"I'm sorry — damage and missing parts must be reported within 7 days of "
                       f"delivery, and order {v['order_id']} was delivered on "
                       f"{rd.say_day(v['delivery_date'])}, so I can't log it now. Nothing has "
                       "been changed.")  # fmt: skip
            return "done"
        kind = "missing_part" if re.search(r"\bmissing\b", text, re.I) else "damage"
        items = rd.match_items(v["items"], text)
        if len(items) != 1:
            return self.ask("item", "Which item is it? Your order has "
                            f"{self.names(v['items'])}.", out)  # fmt: skip
        item = items[0]
        photo = next(iter(rd.photos(text)), None)
        if kind == "damage" and photo is None:
            return self.ask("photo_ref", "I'm sorry about that. For damage we need a photo: "
                            "please upload one at oakfold.co.uk/photos and tell me the photo "
                            "reference it gives you (it starts PH).", out)  # fmt: skip
        what = "a replacement part" if kind == "missing_part" else "a replacement " + item["kind"]
        label = "the missing part" if kind == "missing_part" else "the damage"
        detail = re.sub(r"\s+", " ", req["chunks"][0]).strip()[:200]
        photo_note = f" with photo {photo}" if photo else ""
        return self.propose(
            req, out, f"To log {label} to the {item['name']}{photo_note} and send {what}, "
            "delivered free of charge. Shall I log it?",
            [("report_problem", {"order_id": v["order_id"], "item_id": item["item_id"],
                                 "kind": kind, "detail": detail, "photo_ref": photo})],
        )  # fmt: skip

    # -- returns and cancellations ---------------------------------------------------------
    async def step_return(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        if v["status"] != "delivered":
            out.append(f"Order {v['order_id']} hasn't been delivered yet, so it can't be returned;"
                       " I can cancel it instead if it hasn't been dispatched.")  # fmt: skip
            return "done"
        items = rd.match_items(v["items"], text)
        if len(items) != 1:
            return self.ask("item", "Which item would you like to return? Your order has "
                            f"{self.names(v['items'])}.", out)  # fmt: skip
        item = items[0]
        why = self.return_problem(v, item)
        if why:
            out.append(f"I'm sorry — {why}. Nothing has been changed.")
            return "done"
        said = req.get("answers", {}).get("packaging")
        packed = "yes" if PACKAGING_YES.search(text) else rd.answer(said) if said else None
        if packed is None:
            return self.ask("packaging", "Do you still have its original packaging? Returns are "
                            "collected in the original packaging.", out)  # fmt: skip
        if packed != "yes":
            out.append("I'm sorry — returns have to be in the original packaging, so I can't "
                       "book a collection. Nothing has been changed.")  # fmt: skip
            return "done"
        refund = item["price_pence"] - _seed.COLLECTION_PENCE
        return self.propose(
            req, out, f"To collect the {item['name']} in its original packaging and refund "
            f"{rd.pounds(item['price_pence'])} less the £39.00 collection charge: "
            f"{rd.pounds(refund)} to your card ending {v['card_last4']}. Shall I book it?",
            [("return_item", {"order_id": v["order_id"], "item_id": item["item_id"],
                              "refund_pence": refund})],
        )  # fmt: skip

    async def step_cancel(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if v["status"] != "processing":
            why = {"dispatched": "it has already been dispatched",
                   "out_for_delivery": "it's out for delivery today",
                   "delivered": "it has been delivered",
                   "cancelled": "it's already cancelled"}[v["status"]]  # fmt: skip
            after = (" Once it's delivered you can return it within 28 days, in its original "
                     "packaging, for a refund less a £39.00 collection charge."
                     if v["status"] != "cancelled" else "")  # fmt: skip
            out.append(f"I'm sorry — order {v['order_id']} can't be cancelled, as {why}."
                       f"{after} Nothing has been changed.")  # fmt: skip
            return "done"
        paid = sum(i["price_pence"] for i in v["items"])
        kept = self.kept_deposit(v)
        refund = paid - kept
        keep = (f" The 20% deposit on the made-to-order item, {rd.pounds(kept)}, is kept, so the "
                f"refund is {rd.pounds(refund)}." if kept else
                f" That's a full refund of {rd.pounds(refund)}.")  # fmt: skip
        return self.propose(
            req, out, f"To cancel order {v['order_id']} ({self.names(v['items'])}), "
            f"{rd.pounds(paid)} paid.{keep} It goes back to your card ending "
            f"{v['card_last4']}. Shall I cancel it?",
            [("cancel_order", {"order_id": v["order_id"], "refund_pence": refund})],
        )  # fmt: skip

    # -- address and contacts --------------------------------------------------------------
    async def step_address(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        if self.not_open(v, "change the delivery address", out):
            return "done"
        found = rd.address(self.text(req))
        if found is None:
            return self.ask("new_address", "What's the new delivery address, with its "
                            "postcode?", out)  # fmt: skip
        street, postcode = found
        why = self.zone_problem(v, postcode)
        if why:
            out.append(f"I'm sorry — {why}. Nothing has been changed.")
            return "done"
        return self.propose(
            req, out, f"To change the delivery address of order {v['order_id']} to {street}, "
            f"{postcode}. The delivery day stays {rd.say_day(v['delivery_date'])}. Shall I "
            "change it?",
            [("change_address", {"order_id": v["order_id"], "address": street,
                                 "postcode": postcode})],
        )  # fmt: skip

    async def step_contact(self, req: dict[str, Any], out: list[str]) -> str:
        v = await self.refresh()
        text = self.text(req)
        phone = next(iter(rd.phones(text)[-1:]), None)
        email = next(iter(rd.emails(text)[-1:]), None)
        if phone is None and email is None:
            if re.search(r"\bemail", text, re.I):
                return self.ask("email", "What's the new email address?", out)
            return self.ask("phone", "What's the new phone number?", out)
        args: dict[str, Any] = {"order_id": v["order_id"]}
        said = []
        if phone:
            args["phone"] = phone
            said.append(f"your phone number to {phone}")
        if email:
            args["email"] = email
            said.append(f"your email address to {email}")
        return self.propose(req, out, f"To change {' and '.join(said)}. Shall I update it?",
                            [("update_contacts", args)])  # fmt: skip

    # -- reporting -------------------------------------------------------------------------
    def report(self, intent: str, r: dict[str, Any]) -> str:
        """What the system returned, in the customer's words."""
        if intent == "move":
            fee = f"; {r['fee']} fee taken" if r["fee"] != "£0.00" else ""
            return (f"Done — order {r['order_id']} will now be delivered on "
                    f"{rd.say_day(r['delivery_date'])}{fee}.")  # fmt: skip
        if intent == "assembly":
            return (f"Done — assembly is booked for the {' and the '.join(r['items'])} on "
                    f"{rd.say_day(r['delivery_date'])} ({r['price']}).")  # fmt: skip
        if intent == "problem":
            return (f"Done — I've logged it for the {r['item']}; a replacement "
                    f"{r['replacement']} will be sent free of charge, and we'll email you the "
                    "delivery day.")  # fmt: skip
        if intent == "return":
            return (f"Done — a collection is booked for the {r['item']}; {r['refund']} will "
                    "be refunded once it's collected; we'll email you the day.")  # fmt: skip
        if intent == "cancel":
            return f"Done — order {r['order_id']} is cancelled; {r['refund']} refunded."
        if intent == "address":
            return (f"Done — order {r['order_id']} will be delivered to {r['address']}, "
                    f"{r['postcode']}, on {rd.say_day(r['delivery_date'])}.")  # fmt: skip
        return f"Done — your phone number is {r['phone']} and your email is {r['email']}."

    async def failed(self, req: dict[str, Any], pending: dict[str, Any], error: str,
                     out: list[str]) -> None:  # fmt: skip
        """Hook: the system refused; say so, and that nothing changed."""
        out.append(f"I'm sorry — the system refused that: {error}. Nothing has been changed.")
