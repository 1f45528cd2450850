"""The box office system the desk's agent works through: `BoxofficeEnvironment` and its tools."""

from __future__ import annotations

import re
from typing import Any

from benchmarks.domains.boxoffice import _seed
from benchmarks.domains.boxoffice._args import (
    CustomerArgs,
    ExchangeTickets,
    FindPerformances,
    FindSeats,
    OrderArgs,
    VerifyCustomer,
)
from benchmarks.domains.boxoffice._system import BoxofficeSystem, money, norm_order, norm_postcode
from vistasim.env import ToolFailure, tool


class BoxofficeEnvironment(BoxofficeSystem):
    """Lanternhall Box Office: customers, performances, seats, orders, tickets, charges."""

    # -- identity and lookups --------------------------------------------------------------
    @tool("Check who the customer is from one of their order numbers and the postcode on "
          "their account. Returns the customer id and name.")
    def verify_customer(self, args: VerifyCustomer) -> dict[str, Any]:
        order = self._one("SELECT customer_id FROM orders WHERE order_id = ?",
                          norm_order(args.order_id))
        who = order and self._customer(order["customer_id"])
        if not who or who["postcode"] != norm_postcode(args.postcode):
            raise ToolFailure("verification failed: those details do not match an account")
        return {"verified": True, "customer_id": who["customer_id"], "name": who["name"]}

    @tool("A customer's account: email, member, access proof on file, card on file, orders "
          "with their tickets, and the staff note (internal: never read it out).")
    def get_customer(self, args: CustomerArgs) -> dict[str, Any]:
        who = self._customer(args.customer_id)
        orders = [self._order_view(dict(r)) for r in self.db.execute(
            "SELECT * FROM orders WHERE customer_id = ? ORDER BY order_id",
            (who["customer_id"],))]
        return {"customer_id": who["customer_id"], "name": who["name"], "email": who["email"],
                "postcode": who["postcode"], "member": bool(who["member"]),
                "access_proof": bool(who["access_proof"]), "card_last4": who["card_last4"],
                "orders": orders, "staff_note": who["staff_note"]}

    @tool("One order by its number, with the customer's name. No ownership check: the desk "
          "must only read out the verified customer's own.")
    def get_order(self, args: OrderArgs) -> dict[str, Any]:
        order = self._one("SELECT * FROM orders WHERE order_id = ?", norm_order(args.order_id))
        if order is None:
            raise ToolFailure(f"no order {args.order_id}")
        name = self._customer(order["customer_id"])["name"]
        return {**self._order_view(order), "customer_name": name}

    @tool("Performances of a show still to come, with start times, status and band prices.")
    def find_performances(self, args: FindPerformances) -> dict[str, Any]:
        words = [w for w in re.findall(r"[a-z]+", args.show.lower()) if len(w) > 2
                 and w not in {"the", "and", "for"}]
        rows = [dict(r) for r in self.db.execute(
            "SELECT * FROM performances WHERE starts_at > ? ORDER BY starts_at",
            (self._stamp(),))]
        found = [r for r in rows if any(w in r["show"].lower() for w in words)]
        if not found:
            raise ToolFailure(f"no performances found for {args.show!r}")
        return {"performances": [
            {**r, "prices": {b: self._price(r["performance_id"], b) for b in "ABCW"}}
            for r in found]}

    @tool("Free seats of one band at one performance, with the band's price.")
    def find_seats(self, args: FindSeats) -> dict[str, Any]:
        perf = self._perf(args.performance_id)
        rows = self.db.execute("SELECT seat FROM seats WHERE performance_id = ? AND band = ? "
                               "AND sold = 0 ORDER BY rowid", (perf["performance_id"],
                                                               args.band)).fetchall()
        return {"performance_id": perf["performance_id"], "band": args.band,
                "price_pence": self._price(perf["performance_id"], args.band),
                "free": [r["seat"] for r in rows]}

    # -- changes ---------------------------------------------------------------------------
    @tool("Exchange every ticket of an order to another performance of the same show, at least "
          "48 hours before the original one. Charges £3.00 per ticket and the price difference "
          "(a negative difference is refunded to the card on file).")
    def exchange_tickets(self, args: ExchangeTickets) -> dict[str, Any]:
        order = self._order(args.order_id)
        old, new = self._perf(order["performance_id"]), self._perf(args.performance_id)
        if new["show"] != old["show"] or new["performance_id"] == old["performance_id"]:
            raise ToolFailure("an exchange must be to another performance of the same show")
        if self._hours_to(old) < _seed.EXCHANGE_MIN_HOURS:
            raise ToolFailure("exchanges close 48 hours before the performance")
        if new["status"] == "sold_out" or self._hours_to(new) <= 0:
            raise ToolFailure(f"performance {new['performance_id']} is not on sale")
        tickets = self._tickets(order["order_id"])
        seats = self._free(new["performance_id"], args.seats)
        if len(seats) != len(tickets):
            raise ToolFailure(f"the order has {len(tickets)} tickets: name as many seats")
        old_total = sum(t["price_pence"] for t in tickets)
        prices = [self._price(new["performance_id"], s["band"]) for s in seats]
        fee = _seed.EXCHANGE_FEE_PENCE * len(seats)
        diff = sum(prices) - old_total
        oid = order["order_id"]
        for t in tickets:
            self.db.execute("UPDATE seats SET sold = 0 WHERE performance_id = ? AND seat = ?",
                            (old["performance_id"], t["seat"]))
        self.db.execute("UPDATE tickets SET status = 'exchanged' WHERE order_id = ? AND "
                        "status = 'active'", (oid,))
        for seat, price in zip(seats, prices, strict=True):
            self.db.execute("UPDATE seats SET sold = 1 WHERE performance_id = ? AND seat = ?",
                            (new["performance_id"], seat["seat"]))
            self.db.execute("INSERT INTO tickets (order_id, customer_id, performance_id, seat, "
                            "band, price_pence) VALUES (?,?,?,?,?,?)",
                            (oid, order["customer_id"], new["performance_id"], seat["seat"],
                             seat["band"], price))
        self.db.execute("UPDATE orders SET performance_id = ? WHERE order_id = ?",
                        (new["performance_id"], oid))
        self._charge(order, "exchange_fee", fee)
        self._charge(order, "price_difference", diff)
        return {"order_id": oid, "performance_id": new["performance_id"],
                "starts_at": new["starts_at"], "seats": [s["seat"] for s in seats],
                "exchange_fee": money(fee), "price_difference": money(diff),
                "card_last4": self._customer(order["customer_id"])["card_last4"]}

    @tool("Return every ticket of an order to the box office for a credit voucher: the ticket "
          "prices less any member discount and a £2.50 handling fee per ticket. Closes 24 hours "
          "before the performance. The system does not check that the performance is sold "
          "out: the desk must (returns are only for sold-out performances).")
    def return_tickets(self, args: OrderArgs) -> dict[str, Any]:
        order = self._order(args.order_id)
        perf = self._perf(order["performance_id"])
        if self._hours_to(perf) < _seed.RETURN_MIN_HOURS:
            raise ToolFailure("returns close 24 hours before the performance")
        tickets = self._tickets(order["order_id"])
        amount = (sum(t["price_pence"] for t in tickets) - order["member_discount_pence"]
                  - _seed.RETURN_HANDLING_PENCE * len(tickets))
        oid = order["order_id"]
        for t in tickets:
            self.db.execute("UPDATE seats SET sold = 0 WHERE performance_id = ? AND seat = ?",
                            (perf["performance_id"], t["seat"]))
        self.db.execute("UPDATE tickets SET status = 'returned' WHERE order_id = ? AND "
                        "status = 'active'", (oid,))
        self.db.execute("UPDATE orders SET status = 'returned' WHERE order_id = ?", (oid,))
        voucher = f"V-{oid[3:]}"
        self.db.execute("INSERT INTO vouchers VALUES (?,?,?,?,?)",
                        (voucher, order["customer_id"], oid, amount, self._stamp()))
        return {"order_id": oid, "voucher_id": voucher, "voucher_amount": money(amount),
                "handling_fee": money(_seed.RETURN_HANDLING_PENCE * len(tickets)),
                "valid_until": "2027-12-31"}


def make_environment() -> BoxofficeEnvironment:
    """A fresh box office, from the seed data."""
    return BoxofficeEnvironment()
