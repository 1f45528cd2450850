"""The box office system's base: helpers, and the tools for smaller changes to an order."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, ClassVar

from benchmarks.domains.boxoffice import _seed
from benchmarks.domains.boxoffice._args import (
    AddCompanion,
    BookAccess,
    ChangeDelivery,
    ChangeHolderName,
    OrderArgs,
    SetInsurance,
    UpdateEmail,
    UpgradeSeats,
)
from vistasim.env import SqliteEnvironment, ToolFailure, tool


def money(pence: int) -> str:
    return f"{'-' if pence < 0 else ''}£{abs(pence) / 100:,.2f}"


def norm_postcode(text: str) -> str:
    squashed = re.sub(r"\s+", "", text).upper()
    return f"{squashed[:-3]} {squashed[-3:]}" if len(squashed) > 4 else squashed


def norm_order(text: str) -> str:
    digits = re.sub(r"\D", "", text)
    return f"LH-{digits}"


def norm_seat(text: str) -> str:
    m = re.fullmatch(r"\s*(stalls|circle)\s*([a-z])\s*(\d{1,2})\s*", text, re.I)
    return f"{m.group(1).title()} {m.group(2).upper()}{int(m.group(3))}" if m else text.strip()


class BoxofficeSystem(SqliteEnvironment):
    """The system's tables, clock and helpers; the writes below are tools of the desk."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "order_id": ["order number", "order reference", "booking reference"],
        "postcode": ["postcode", "post code"],
        "new_date": ["which performance", "which day would you like", "new date"],
        "performance_date": ["which performance", "which date", "what day"],
        "holder_name": ["what name", "whose name", "name should go"],
        "email": ["new email", "email address"],
        "companion": ["companion", "someone with you"],
    }

    def seed(self, db: Any) -> None:
        _seed.seed(db)

    def now(self) -> datetime:
        """The desk's clock: fixed, so every episode sees the same day."""
        return _seed.NOW

    # -- helpers ---------------------------------------------------------------------------
    def _one(self, sql: str, *args: Any) -> dict[str, Any] | None:
        row = self.db.execute(sql, args).fetchone()
        return dict(row) if row else None

    def _stamp(self) -> str:
        return self.now().strftime(_seed.STAMP)

    def _hours_to(self, perf: dict[str, Any]) -> float:
        return (_seed.at(perf["starts_at"]) - self.now()).total_seconds() / 3600

    def _customer(self, customer_id: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM customers WHERE customer_id = ?", customer_id.strip())
        if found is None:
            raise ToolFailure(f"no customer {customer_id}")
        return found

    def _order(self, order_id: str) -> dict[str, Any]:
        order = self._one("SELECT * FROM orders WHERE order_id = ?", norm_order(order_id))
        if order is None:
            raise ToolFailure(f"no order {order_id}")
        if order["status"] != "active":
            raise ToolFailure(f"order {order['order_id']} is {order['status']}")
        return order

    def _perf(self, performance_id: str) -> dict[str, Any]:
        perf = self._one("SELECT * FROM performances WHERE performance_id = ?",
                         performance_id.strip().upper())
        if perf is None:
            raise ToolFailure(f"no performance {performance_id}")
        return perf

    def _tickets(self, order_id: str) -> list[dict[str, Any]]:
        return [dict(r) for r in self.db.execute(
            "SELECT seat, band, kind, price_pence FROM tickets WHERE order_id = ? AND "
            "status = 'active' ORDER BY ticket_id", (order_id,))]

    def _price(self, performance_id: str, band: str) -> int:
        row = self._one("SELECT price_pence FROM prices WHERE performance_id = ? AND band = ?",
                        performance_id, band)
        return int(row["price_pence"]) if row else 0

    def _free(self, performance_id: str, seats: list[str]) -> list[dict[str, Any]]:
        out = []
        for name in seats:
            seat = self._one("SELECT * FROM seats WHERE performance_id = ? AND seat = ?",
                             performance_id, norm_seat(name))
            if seat is None:
                raise ToolFailure(f"no seat {name} at {performance_id}")
            if seat["sold"]:
                raise ToolFailure(f"{seat['seat']} is already sold for {performance_id}")
            out.append(seat)
        if len({s["seat"] for s in out}) != len(out):
            raise ToolFailure("the same seat is named twice")
        return out

    def _charge(self, order: dict[str, Any], kind: str, pence: int) -> None:
        if pence:
            card = self._customer(order["customer_id"])["card_last4"]
            self.db.execute("INSERT INTO charges (customer_id, order_id, kind, amount_pence, "
                            "card_last4, created_at) VALUES (?,?,?,?,?,?)",
                            (order["customer_id"], order["order_id"], kind, pence, card,
                             self._stamp()))

    def _order_view(self, order: dict[str, Any]) -> dict[str, Any]:
        perf = self._perf(order["performance_id"])
        return {"order_id": order["order_id"], "show": perf["show"],
                "performance_id": perf["performance_id"], "starts_at": perf["starts_at"],
                "performance_status": perf["status"], "booked_on": order["booked_on"],
                "delivery": order["delivery"], "insurance": bool(order["insurance"]),
                "gift": bool(order["gift"]), "holder_name": order["holder_name"],
                "member_discount_pence": order["member_discount_pence"],
                "status": order["status"], "tickets": self._tickets(order["order_id"])}


    # -- smaller changes to an order -------------------------------------------------------
    @tool("Move every ticket of an order to free seats in a dearer band at the same "
          "performance, until 2 hours before it starts. The price difference is charged to the "
          "card on file; no fee.")
    def upgrade_seats(self, args: UpgradeSeats) -> dict[str, Any]:
        order = self._order(args.order_id)
        perf = self._perf(order["performance_id"])
        if self._hours_to(perf) < _seed.UPGRADE_MIN_HOURS:
            raise ToolFailure("upgrades close 2 hours before the performance")
        tickets = [t for t in self._tickets(order["order_id"]) if t["kind"] == "standard"]
        seats = self._free(perf["performance_id"], args.seats)
        if len(seats) != len(tickets):
            raise ToolFailure(f"the order has {len(tickets)} tickets: name as many seats")
        if any(_seed.BAND_ORDER.get(s["band"], 0) <= _seed.BAND_ORDER.get(t["band"], 9)
               for s, t in zip(seats, tickets, strict=True)):
            raise ToolFailure("an upgrade must be to a dearer band")
        diff = 0
        for seat, ticket in zip(seats, tickets, strict=True):
            price = self._price(perf["performance_id"], seat["band"])
            diff += price - ticket["price_pence"]
            self.db.execute("UPDATE seats SET sold = 0 WHERE performance_id = ? AND seat = ?",
                            (perf["performance_id"], ticket["seat"]))
            self.db.execute("UPDATE seats SET sold = 1 WHERE performance_id = ? AND seat = ?",
                            (perf["performance_id"], seat["seat"]))
            self.db.execute("UPDATE tickets SET seat = ?, band = ?, price_pence = ? WHERE "
                            "order_id = ? AND seat = ? AND status = 'active'",
                            (seat["seat"], seat["band"], price, order["order_id"],
                             ticket["seat"]))
        self._charge(order, "upgrade", diff)
        return {"order_id": order["order_id"], "seats": [s["seat"] for s in seats],
                "charged": money(diff),
                "card_last4": self._customer(order["customer_id"])["card_last4"]}

    @tool("Add (£2.50 a ticket, until 72 hours before the performance) or remove (within 14 "
          "days of booking: the premium is refunded to the card) ticket insurance.")
    def set_insurance(self, args: SetInsurance) -> dict[str, Any]:
        order = self._order(args.order_id)
        perf = self._perf(order["performance_id"])
        premium = _seed.INSURANCE_PENCE * len(self._tickets(order["order_id"]))
        if args.insured == bool(order["insurance"]):
            raise ToolFailure(f"order {order['order_id']} is already "
                              f"{'insured' if args.insured else 'without insurance'}")
        if args.insured and self._hours_to(perf) < _seed.INSURANCE_ADD_MIN_HOURS:
            raise ToolFailure("insurance can only be added up to 72 hours before the "
                              "performance")
        booked = date.fromisoformat(order["booked_on"])
        if not args.insured and (self.now().date() - booked).days > _seed.INSURANCE_REMOVE_DAYS:
            raise ToolFailure("insurance can only be removed within 14 days of booking")
        self.db.execute("UPDATE orders SET insurance = ? WHERE order_id = ?",
                        (int(args.insured), order["order_id"]))
        self._charge(order, "insurance", premium if args.insured else -premium)
        return {"order_id": order["order_id"], "insurance": args.insured,
                "charged" if args.insured else "refunded": money(premium),
                "card_last4": self._customer(order["customer_id"])["card_last4"]}

    @tool("Change how the tickets are delivered. Posting costs £1.50 an order and closes 5 days "
          "before the performance; e-tickets are free (a posting fee is not refunded).")
    def change_delivery(self, args: ChangeDelivery) -> dict[str, Any]:
        order = self._order(args.order_id)
        perf = self._perf(order["performance_id"])
        if order["delivery"] == args.method:
            raise ToolFailure(f"order {order['order_id']} is already {args.method}")
        days = (date.fromisoformat(perf["starts_at"][:10]) - self.now().date()).days
        if args.method == "post" and days < _seed.POSTING_MIN_DAYS:
            raise ToolFailure("tickets can only be posted 5 or more days before the performance")
        self.db.execute("UPDATE orders SET delivery = ? WHERE order_id = ?",
                        (args.method, order["order_id"]))
        fee = _seed.POSTING_PENCE if args.method == "post" else 0
        self._charge(order, "posting", fee)
        who = self._customer(order["customer_id"])
        return {"order_id": order["order_id"], "delivery": args.method, "charged": money(fee),
                "posted_to_postcode": who["postcode"] if fee else None,
                "card_last4": who["card_last4"]}

    @tool("Change the name on the tickets of a gift order (free, until 24 hours before the "
          "performance). Other orders are in the buyer's name and cannot be renamed.")
    def change_holder_name(self, args: ChangeHolderName) -> dict[str, Any]:
        order = self._order(args.order_id)
        if not order["gift"]:
            raise ToolFailure(f"order {order['order_id']} is not a gift order")
        if self._hours_to(self._perf(order["performance_id"])) < _seed.NAME_CHANGE_MIN_HOURS:
            raise ToolFailure("names can be changed until 24 hours before the performance")
        name = " ".join(args.holder_name.split()).title()
        self.db.execute("UPDATE orders SET holder_name = ? WHERE order_id = ?",
                        (name, order["order_id"]))
        return {"order_id": order["order_id"], "holder_name": name,
                "previous_name": order["holder_name"]}

    @tool("Apply the Lanternhall Friends member discount: 20% off one ticket of the order (the "
          "dearest), refunded to the card. Members only; one per member per performance.")
    def apply_member_discount(self, args: OrderArgs) -> dict[str, Any]:
        order = self._order(args.order_id)
        who = self._customer(order["customer_id"])
        if not who["member"]:
            raise ToolFailure(f"{who['name']} is not a member")
        if self._one("SELECT 1 FROM orders WHERE customer_id = ? AND performance_id = ? AND "
                     "member_discount_pence > 0 AND status = 'active'", who["customer_id"],
                     order["performance_id"]):
            raise ToolFailure("a member discount is already applied for this performance")
        if self._hours_to(self._perf(order["performance_id"])) <= 0:
            raise ToolFailure("the performance has started")
        dearest = max(t["price_pence"] for t in self._tickets(order["order_id"]))
        amount = round(dearest * _seed.MEMBER_DISCOUNT_SHARE)
        self.db.execute("UPDATE orders SET member_discount_pence = ? WHERE order_id = ?",
                        (amount, order["order_id"]))
        self._charge(order, "member_discount", -amount)
        return {"order_id": order["order_id"], "refunded": money(amount),
                "card_last4": who["card_last4"]}

    @tool("Book a wheelchair space (priced as band C) at a performance, and optionally the "
          "companion seat beside it: free_companion makes it free. The system does not check "
          "proof on file: the desk must (free only with proof on file; otherwise band C price).")
    def book_access(self, args: BookAccess) -> dict[str, Any]:
        who = self._customer(args.customer_id)
        perf = self._perf(args.performance_id)
        if perf["status"] == "sold_out" or self._hours_to(perf) <= 0:
            raise ToolFailure(f"performance {perf['performance_id']} is not on sale")
        pid = perf["performance_id"]
        for n in ("1", "2"):
            pair = self._one("SELECT 1 FROM seats WHERE performance_id = ? AND seat = ? AND "
                             "sold = 0", pid, f"Stalls W{n}")
            partner = self._one("SELECT 1 FROM seats WHERE performance_id = ? AND seat = ? AND "
                                "sold = 0", pid, f"Stalls V{n}")
            if pair and (partner or not args.companion):
                break
        else:
            raise ToolFailure(f"no wheelchair space left at {pid}")
        number = self.db.execute("SELECT COUNT(*) FROM orders").fetchone()[0] + 48700
        oid = f"LH-{number}"
        self.db.execute("INSERT INTO orders (order_id, customer_id, performance_id, booked_on, "
                        "delivery, holder_name) VALUES (?,?,?,?,'e-ticket',?)",
                        (oid, who["customer_id"], pid, self.now().date().isoformat(),
                         who["name"]))
        space = self._price(pid, "W")
        seats = [(f"Stalls W{n}", "W", "wheelchair", space)]
        if args.companion:
            seats.append((f"Stalls V{n}", "V", "companion", 0 if args.free_companion else space))
        for seat, band, kind, price in seats:
            self.db.execute("UPDATE seats SET sold = 1 WHERE performance_id = ? AND seat = ?",
                            (pid, seat))
            self.db.execute("INSERT INTO tickets (order_id, customer_id, performance_id, seat, "
                            "band, kind, price_pence) VALUES (?,?,?,?,?,?,?)",
                            (oid, who["customer_id"], pid, seat, band, kind, price))
        total = sum(s[3] for s in seats)
        self._charge({"customer_id": who["customer_id"], "order_id": oid}, "booking", total)
        return {"order_id": oid, "performance_id": pid, "starts_at": perf["starts_at"],
                "tickets": [{"seat": s[0], "kind": s[2], "price": money(s[3])} for s in seats],
                "charged": money(total), "card_last4": who["card_last4"]}

    @tool("Add the companion seat beside the wheelchair space of an existing order: "
          "free_companion makes it free (only with proof on file: the desk must check); "
          "otherwise it is charged at the band C price.")
    def add_companion(self, args: AddCompanion) -> dict[str, Any]:
        order = self._order(args.order_id)
        tickets = self._tickets(order["order_id"])
        space = next((t for t in tickets if t["kind"] == "wheelchair"), None)
        if space is None:
            raise ToolFailure(f"order {order['order_id']} has no wheelchair space")
        if any(t["kind"] == "companion" for t in tickets):
            raise ToolFailure(f"order {order['order_id']} already has a companion seat")
        pid = order["performance_id"]
        seat = space["seat"].replace("W", "V")
        self._free(pid, [seat])
        price = 0 if args.free_companion else self._price(pid, "V")
        self.db.execute("UPDATE seats SET sold = 1 WHERE performance_id = ? AND seat = ?",
                        (pid, seat))
        self.db.execute("INSERT INTO tickets (order_id, customer_id, performance_id, seat, band, "
                        "kind, price_pence) VALUES (?,?,?,?,'V','companion',?)",
                        (order["order_id"], order["customer_id"], pid, seat, price))
        self._charge(order, "booking", price)
        return {"order_id": order["order_id"], "seat": seat, "price": money(price),
                "card_last4": self._customer(order["customer_id"])["card_last4"]}

    @tool("Change the customer's contact email. Refuses an address already on another account.")
    def update_email(self, args: UpdateEmail) -> dict[str, Any]:
        who = self._customer(args.customer_id)
        email = args.email.strip().lower()
        if not re.fullmatch(r"[^@\s]+@[^@\s]+\.[a-z]{2,}", email):
            raise ToolFailure(f"{args.email!r} is not a valid email address")
        if self._one("SELECT 1 FROM customers WHERE email = ? AND customer_id != ?", email,
                     who["customer_id"]):
            raise ToolFailure("that email address is already used by another account")
        self.db.execute("UPDATE customers SET email = ? WHERE customer_id = ?",
                        (email, who["customer_id"]))
        return {"customer_id": who["customer_id"], "email": email, "previous": who["email"]}
