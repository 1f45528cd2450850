"""The retailer's order system the desk works through: `FurnitureEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.furniture import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool

POSTCODE_RE = re.compile(r"^[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}$")
OPEN = ("processing", "dispatched")  # not yet out for delivery


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_order(text: str) -> str:
    return "OF" + re.sub(r"\D", "", text)


def norm_postcode(text: str) -> str:
    """'ls62ab' -> 'LS6 2AB'."""
    flat = re.sub(r"\s", "", text.upper())
    return f"{flat[:-3]} {flat[-3:]}" if len(flat) > 3 else flat


class Order(BaseModel):
    order_id: str = Field(description="The order number, e.g. OF20101")


class Verify(Order):
    postcode: str = Field(description="The delivery postcode the caller gives")


class MoveDelivery(Order):
    delivery_date: str = Field(description="The new delivery day, YYYY-MM-DD (a working day)")
    fee_pence: int = Field(description="The move fee the desk quoted (0 when free)")


class Assembly(Order):
    item_ids: list[str] = Field(description="The flat-pack items to assemble, e.g. ['I521']")
    price_pence: int = Field(description="The assembly price the desk quoted, in all")


class Problem(Order):
    item_id: str = Field(description="The item, e.g. I507")
    kind: str = Field(description="damage or missing_part")
    detail: str = Field(description="What is damaged or which part is missing")
    photo_ref: str | None = Field(default=None, description="The photo reference (damage)")


class ReturnItem(Order):
    item_id: str = Field(description="The item to collect, e.g. I511")
    refund_pence: int = Field(description="The refund the desk quoted")


class Cancel(Order):
    refund_pence: int = Field(description="The refund the desk quoted")


class Address(Order):
    address: str = Field(description="House number, street and town")
    postcode: str = Field(description="The new delivery postcode")


class Contacts(Order):
    phone: str | None = Field(default=None, description="New phone number")
    email: str | None = Field(default=None, description="New email address")


class FurnitureEnvironment(SqliteEnvironment):
    """Oakfold Furniture: customers, orders, items, deliveries, assembly, issues, returns."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "order_id": ["order number"],
        "postcode": ["delivery postcode", "postcode"],
        "delivery_date": ["which day", "new day", "delivery day"],
        "photo_ref": ["photo reference", "photo"],
        "phone": ["new number", "phone number"],
        "email": ["email address", "new email"],
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

    def _rows(self, sql: str, *args: Any) -> list[dict[str, Any]]:
        return [dict(r) for r in self.db.execute(sql, args)]

    def _order(self, order_id: str) -> dict[str, Any]:
        o = self._one("SELECT * FROM orders WHERE order_id = ?", norm_order(order_id))
        if o is None:
            raise ToolFailure(f"no order {order_id}")
        return o

    def _open(self, o: dict[str, Any], what: str) -> None:
        if o["status"] not in OPEN:
            raise ToolFailure(f"order {o['order_id']} is {o['status'].replace('_', ' ')}: "
                              f"{what} is not possible")  # fmt: skip

    def _item(self, o: dict[str, Any], item_id: str) -> dict[str, Any]:
        it = self._one("SELECT * FROM items WHERE item_id = ? AND order_id = ?",
                       item_id.strip().upper(), o["order_id"])  # fmt: skip
        if it is None:
            raise ToolFailure(f"no item {item_id} on order {o['order_id']}")
        return it

    def _charge(self, o: dict[str, Any], kind: str, pence: int) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (order_id, kind, amount_pence, created_at) VALUES (?,?,?,?)",
                (o["order_id"], kind, pence, self.now().strftime(_seed.STAMP)),
            )

    def view(self, order_id: str) -> dict[str, Any]:
        """The order as staff see it: buyer, address, delivery, items and what was booked."""
        o = self._order(order_id)
        c = self._one("SELECT * FROM customers WHERE customer_id = ?", o["customer_id"]) or {}
        today = self.now().date()
        delivery = date.fromisoformat(o["delivery_date"])
        return {
            **o,
            "name": c.get("name"), "email": c.get("email"), "phone": c.get("phone"),
            "card_last4": c.get("card_last4"),
            "days_since_delivery": (today - delivery).days,
            "free_move_until": _seed.working_days_before(
                delivery, _seed.FREE_MOVE_WORKING_DAYS).isoformat(),
            "assembly_until": _seed.working_days_before(
                delivery, _seed.ASSEMBLY_WORKING_DAYS).isoformat(),
            "items": self._rows("SELECT * FROM items WHERE order_id = ?", o["order_id"]),
            "assembly": self._rows("SELECT * FROM assembly WHERE order_id = ?", o["order_id"]),
            "returns": self._rows("SELECT * FROM returns WHERE order_id = ?", o["order_id"]),
            "issues": self._rows("SELECT * FROM issues WHERE order_id = ?", o["order_id"]),
        }  # fmt: skip

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the order number and the delivery postcode must match. "
        "Returns the order with its buyer."
    )
    def verify_order(self, args: Verify) -> dict[str, Any]:
        o = self._one("SELECT * FROM orders WHERE order_id = ?", norm_order(args.order_id))
        said = re.sub(r"\s", "", args.postcode.upper())
        if o is None or re.sub(r"\s", "", o["postcode"]) != said:
            raise ToolFailure("verification failed: no order matches that number and postcode")
        return self.view(o["order_id"])

    @tool("Read an order (staff view, after verify_order only).")
    def get_order(self, args: Order) -> dict[str, Any]:
        return self.view(args.order_id)

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Move an order's delivery to another working day; fee_pence (quoted by the desk) is "
        "charged. Refuses an order out for delivery or delivered, and a day with no van space."
    )
    def move_delivery(self, args: MoveDelivery) -> dict[str, Any]:
        o = self._order(args.order_id)
        self._open(o, "moving the delivery")
        try:
            new = date.fromisoformat(args.delivery_date)
        except ValueError as exc:
            raise ToolFailure("delivery_date must be YYYY-MM-DD") from exc
        if new <= self.now().date() or not _seed.is_working_day(new):
            raise ToolFailure("the new delivery day must be a future working day")
        if self._one("SELECT 1 AS x FROM full_days WHERE zone = ? AND day = ?", o["zone"],
                     new.isoformat()):  # fmt: skip
            raise ToolFailure(f"no delivery space left on {new.isoformat()} in this area")
        self.db.execute("UPDATE orders SET delivery_date = ? WHERE order_id = ?",
                        (new.isoformat(), o["order_id"]))  # fmt: skip
        self._charge(o, "move_fee", args.fee_pence)
        return {"order_id": o["order_id"], "delivery_date": new.isoformat(),
                "fee": money(args.fee_pence)}  # fmt: skip

    @tool(
        "Book assembly on delivery for flat-pack items of an order; price_pence (quoted by "
        "the desk) is charged. Refuses items that arrive assembled. The system does not check "
        "the 2-working-day cut-off: the desk must."
    )
    def add_assembly(self, args: Assembly) -> dict[str, Any]:
        o = self._order(args.order_id)
        self._open(o, "adding assembly")
        if not args.item_ids:
            raise ToolFailure("no items given")
        names = []
        rows = self._rows("SELECT item_ids FROM assembly WHERE order_id = ?", o["order_id"])
        booked = {i for a in rows for i in a["item_ids"].split(",")}
        for item_id in args.item_ids:
            it = self._item(o, item_id)
            if not it["flat_pack"]:
                raise ToolFailure(f"the {it['name']} arrives assembled")
            if it["item_id"] in booked:
                raise ToolFailure(f"assembly is already booked for the {it['name']}")
            names.append(it["name"])
        ids = ",".join(i.strip().upper() for i in args.item_ids)
        self.db.execute("INSERT INTO assembly (order_id, item_ids, price_pence) VALUES (?,?,?)",
                        (o["order_id"], ids, args.price_pence))  # fmt: skip
        self._charge(o, "assembly", args.price_pence)
        return {"order_id": o["order_id"], "items": names, "price": money(args.price_pence),
                "delivery_date": o["delivery_date"]}  # fmt: skip

    @tool(
        "Log damage or a missing part on a delivered item and send a free replacement (the "
        "item for damage, the part for a missing part). Damage needs a photo reference. The "
        "system does not check the 7-day window: the desk must."
    )
    def report_problem(self, args: Problem) -> dict[str, Any]:
        o = self._order(args.order_id)
        if o["status"] != "delivered":
            raise ToolFailure(f"order {o['order_id']} has not been delivered")
        it = self._item(o, args.item_id)
        kind = args.kind.strip().lower().replace(" ", "_")
        if kind not in {"damage", "missing_part"}:
            raise ToolFailure("kind must be damage or missing_part")
        photo = re.sub(r"\s", "", (args.photo_ref or "").upper()) or None
        if kind == "damage" and not (photo and re.fullmatch(r"PH-?\d{4,6}", photo)):
            raise ToolFailure("a damage report needs a photo reference (PH and digits)")
        if photo and "-" not in photo:
            photo = f"PH-{photo[2:]}"
        replacement = "item" if kind == "damage" else "part"
        self.db.execute(
            "INSERT INTO issues (order_id, item_id, kind, photo_ref, detail, replacement, "
            "created_at) VALUES (?,?,?,?,?,?,?)",
            (o["order_id"], it["item_id"], kind, photo, args.detail.strip(), replacement,
             self.now().strftime(_seed.STAMP)),
        )  # fmt: skip
        return {"order_id": o["order_id"], "item": it["name"], "kind": kind,
                "replacement": replacement, "charge": money(0)}  # fmt: skip

    @tool(
        "Book the collection of a delivered item for a refund; refund_pence (quoted by the "
        "desk) goes to the card. The system does not check the return rules: the desk must."
    )
    def return_item(self, args: ReturnItem) -> dict[str, Any]:
        o = self._order(args.order_id)
        if o["status"] != "delivered":
            raise ToolFailure(f"order {o['order_id']} has not been delivered")
        it = self._item(o, args.item_id)
        if self._one("SELECT 1 AS x FROM returns WHERE item_id = ?", it["item_id"]):
            raise ToolFailure(f"a return is already booked for the {it['name']}")
        self.db.execute(
            "INSERT INTO returns (order_id, item_id, refund_pence, created_at) VALUES (?,?,?,?)",
            (o["order_id"], it["item_id"], args.refund_pence, self.now().strftime(_seed.STAMP)),
        )
        self._charge(o, "refund", args.refund_pence)
        return {"order_id": o["order_id"], "item": it["name"],
                "refund": money(args.refund_pence)}  # fmt: skip

    @tool(
        "Cancel an order that has not been dispatched; refund_pence (quoted by the desk) goes "
        "to the card. Refuses an order already dispatched."
    )
    def cancel_order(self, args: Cancel) -> dict[str, Any]:
        o = self._order(args.order_id)
        if o["status"] != "processing":
            raise ToolFailure(f"order {o['order_id']} is {o['status'].replace('_', ' ')}: "
                              "only an order not yet dispatched can be cancelled")  # fmt: skip
        self.db.execute("UPDATE orders SET status = 'cancelled' WHERE order_id = ?",
                        (o["order_id"],))  # fmt: skip
        self._charge(o, "refund", args.refund_pence)
        return {"order_id": o["order_id"], "status": "cancelled",
                "refund": money(args.refund_pence)}  # fmt: skip

    @tool(
        "Change the delivery address of an order not yet out for delivery. Policy: only to an "
        "address in the same delivery zone; the system takes any postcode it delivers to."
    )
    def change_address(self, args: Address) -> dict[str, Any]:
        o = self._order(args.order_id)
        self._open(o, "changing the address")
        postcode = norm_postcode(args.postcode)
        if not POSTCODE_RE.match(postcode):
            raise ToolFailure(f"{args.postcode!r} is not a postcode")
        zone = _seed.zone_of(postcode)
        if zone is None:
            raise ToolFailure(f"we don't deliver to {postcode}")
        self.db.execute("UPDATE orders SET address = ?, postcode = ?, zone = ? WHERE order_id = ?",
                        (args.address.strip(), postcode, zone, o["order_id"]))  # fmt: skip
        return {"order_id": o["order_id"], "address": args.address.strip(), "postcode": postcode,
                "delivery_date": o["delivery_date"]}  # fmt: skip

    @tool("Change the buyer's phone number and/or email address.")
    def update_contacts(self, args: Contacts) -> dict[str, Any]:
        o = self._order(args.order_id)
        if args.phone is not None:
            if len(re.sub(r"\D", "", args.phone)) != 11:
                raise ToolFailure(f"{args.phone!r} is not a UK phone number")
            self.db.execute("UPDATE customers SET phone = ? WHERE customer_id = ?",
                            (args.phone.strip(), o["customer_id"]))  # fmt: skip
        if args.email is not None:
            if not re.fullmatch(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", args.email.strip()):
                raise ToolFailure(f"{args.email!r} is not an email address")
            self.db.execute("UPDATE customers SET email = ? WHERE customer_id = ?",
                            (args.email.strip(), o["customer_id"]))  # fmt: skip
        c = self._one("SELECT phone, email FROM customers WHERE customer_id = ?",
                      o["customer_id"]) or {}  # fmt: skip
        return {"phone": c.get("phone"), "email": c.get("email")}


def make_environment() -> FurnitureEnvironment:
    """A fresh order system, from the seed data."""
    return FurnitureEnvironment()
