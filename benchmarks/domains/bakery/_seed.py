"""Pennywell Bakery: schema, the fixed clock, prices, kitchen rules and the seed data.

The desk's clock is fixed at Thursday 10 December 2026, 09:30 (UK, GMT). The shop is open
Tuesday to Saturday; collections run from 09:00 to 16:30. Customers are identified by their
customer number (PW and four digits) and the postcode on their account.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 10, 9, 30, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

# round sponge tiers by diameter in inches: price and portions
SIZE_PENCE = {6: 3400, 8: 4800, 10: 6400, 12: 8200}
SERVES = {6: 12, 8: 22, 10: 35, 12: 50}
MAX_TIERS = 3
STACK_PENCE = 2000  # dowelling and stacking, per tier above the first
FLAVOURS = ("vanilla", "chocolate", "lemon", "carrot", "red velvet", "salted caramel")
PREMIUM = ("red velvet", "salted caramel")
PREMIUM_PENCE = 400  # per tier
DIET_PENCE = {"none": 0, "vegan": 600, "gluten_free": 900}  # per tier
GLUTEN_FREE_DAYS = (4, 5)  # the gluten-free batch: collection on Fridays and Saturdays only
DEPOSIT_PERCENT = 30  # of the cake's price, taken when the order is placed
LEAD_SINGLE = 5  # days' notice for a one-tier cake
LEAD_TIERED = 10  # days' notice for a cake of two or three tiers
CHANGE_DAYS = 7  # date, flavour and diet changes: 7+ days before the collection day
INSCRIPTION_DAYS = 2  # the writing is piped two days ahead: changes need 2+ days
INSCRIPTION_MAX = 40  # characters
FULL_REFUND_DAYS = 14  # a cancellation 14+ days ahead: the deposit back in full
HALF_REFUND_DAYS = 7  # 7 to 13 days ahead: half the deposit back; under 7: none
DELIVERY_DAYS = 2  # deliveries are arranged 2+ days before the day
OPEN_FROM, LAST_SLOT = "09:00", "16:30"
CLOSED_WEEKDAYS = (6, 0)  # Sunday and Monday
DEFAULT_CAPACITY = 6  # cakes the kitchen finishes on one day
# delivery by postcode district: zone 1 and zone 2; anywhere else is not delivered to
ZONE_PENCE = {
    "LS4": 800, "LS6": 800, "LS16": 800,
    "LS2": 1400, "LS3": 1400, "LS5": 1400, "LS7": 1400, "LS17": 1400, "LS18": 1400,
}  # fmt: skip
SHOP_PHONE = "0113 496 0720"


def tiers_of(text: str) -> list[int]:
    """'10+8' -> [10, 8]."""
    return [int(t) for t in text.split("+") if t]


SCHEMA_SQL = """
CREATE TABLE customers (
    customer_id TEXT PRIMARY KEY,             -- PW3101
    name TEXT NOT NULL,
    postcode TEXT NOT NULL,
    phone TEXT NOT NULL,
    email TEXT NOT NULL,
    card_last4 TEXT NOT NULL
);
CREATE TABLE orders (
    order_id TEXT PRIMARY KEY,                -- PC-7008
    customer_id TEXT NOT NULL REFERENCES customers(customer_id),
    collection_date TEXT NOT NULL,            -- the day it is collected or delivered
    slot TEXT NOT NULL,                       -- HH:MM, collection or delivery time
    tiers TEXT NOT NULL,                      -- '8' or '10+8' (inches, bottom first)
    flavour TEXT NOT NULL,
    diet TEXT NOT NULL DEFAULT 'none',        -- none / vegan / gluten_free
    inscription TEXT NOT NULL DEFAULT '',
    price_pence INTEGER NOT NULL,             -- the cake, delivery not included
    deposit_pence INTEGER NOT NULL,
    fulfilment TEXT NOT NULL DEFAULT 'collection',   -- collection / delivery
    delivery_postcode TEXT,
    delivery_fee_pence INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'confirmed', -- confirmed / cancelled / collected
    placed_on TEXT NOT NULL
);
CREATE TABLE payments (
    payment_id INTEGER PRIMARY KEY,
    customer_id TEXT NOT NULL,
    order_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- deposit / refund
    amount_pence INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE kitchen_days (
    day TEXT PRIMARY KEY,                     -- a day whose capacity is not the usual 6
    capacity INTEGER NOT NULL,                -- 0: the shop is closed
    note TEXT NOT NULL
);
"""

# fmt: off
# customer, name, postcode, card; phones and emails follow from them (PW3118: 07700 900118,
# ellen.shaw@example.com)
PEOPLE = [
    ("PW3101", "Leah Morton", "LS6 1PL", "4021"),
    ("PW3102", "Tom Ashworth", "LS16 5HY", "7730"),
    ("PW3103", "Carol Dyson", "LS4 2QR", "1184"),
    ("PW3104", "Marcus Bell", "LS7 3DW", "5562"),
    ("PW3105", "Hannah Cole", "LS6 3AX", "9017"),
    ("PW3106", "Dev Mistry", "LS17 6PR", "3348"),
    ("PW3107", "Gemma Lowe", "LS5 3BT", "6675"),
    ("PW3108", "Olivia Grant", "LS6 4DN", "2209"),
    ("PW3109", "Robert Kaye", "LS16 7RS", "8843"),
    ("PW3110", "Aisha Rahman", "LS2 9JT", "4456"),
    ("PW3111", "Frank Dobson", "LS4 2AW", "1920"),
    ("PW3112", "Ruth Pemberton", "LS6 2BB", "7301"),
    ("PW3113", "Kieran Walsh", "LS16 8AQ", "6288"),
    ("PW3114", "Sophie Ingram", "LS7 4HG", "3910"),
    ("PW3115", "Neil Brough", "LS17 5DE", "5047"),
    ("PW3116", "Maya Fenwick", "LS6 5QQ", "8126"),
    ("PW3117", "Graham Oakes", "LS16 6JF", "2583"),
    ("PW3118", "Ellen Shaw", "LS5 1RR", "9604"),
    ("PW3119", "Priya Nair", "LS6 4EJ", "1437"),
    ("PW3120", "Callum Hart", "LS4 3LP", "6752"),
    ("PW3121", "Nina Hart", "LS17 8QT", "3079"),
    ("PW3122", "Yusuf Adeyemi", "LS6 7PB", "4815"),
    ("PW3123", "Laura Bishop", "LS16 9ND", "2362"),
    ("PW3124", "Bethan Lloyd", "LS18 4UE", "7194"),
]
CUSTOMERS = [
    (c, n, pc, f"07700 900{c[-3:]}", n.lower().replace(" ", ".") + "@example.com", card)
    for c, n, pc, card in PEOPLE
]  # fmt: skip

# order, customer, day, slot, tiers, flavour, diet, inscription, price, fulfilment, delivery
# postcode, delivery fee, status, placed on
ORDERS = [
    ("PC-7001", "PW3101", "2026-11-14", "10:00", "8", "chocolate", "none", "Happy Birthday Leah",
     4800, "collection", None, 0, "collected", "2026-11-02"),
    ("PC-7002", "PW3106", "2026-10-31", "12:00", "10", "carrot", "none", "",
     6400, "delivery", "LS17 6PR", 1400, "collected", "2026-10-20"),
    ("PC-7008", "PW3108", "2027-01-02", "11:00", "8", "vanilla", "none", "Happy 40th Mark",
     4800, "collection", None, 0, "confirmed", "2026-11-28"),
    ("PC-7009", "PW3109", "2026-12-22", "11:00", "8", "lemon", "none", "Happy Birthday Ivy",
     4800, "collection", None, 0, "confirmed", "2026-11-30"),
    ("PC-7010", "PW3110", "2027-01-09", "13:00", "8", "vanilla", "none", "Happy 21st Zain",
     4800, "collection", None, 0, "confirmed", "2026-12-01"),
    ("PC-7011", "PW3111", "2026-12-19", "10:00", "10", "chocolate", "none", "Happy 70th Dad",
     6400, "collection", None, 0, "confirmed", "2026-11-25"),
    ("PC-7012", "PW3112", "2026-12-11", "15:00", "8", "vanilla", "none", "Happy Anniversary",
     4800, "collection", None, 0, "confirmed", "2026-11-27"),
    ("PC-7013", "PW3113", "2026-12-12", "10:00", "6", "chocolate", "none", "Well Done Finn",
     3400, "collection", None, 0, "confirmed", "2026-12-02"),
    ("PC-7014", "PW3114", "2026-12-22", "11:30", "8", "carrot", "none", "Happy Birthday Rosa",
     4800, "collection", None, 0, "confirmed", "2026-12-03"),
    ("PC-7015", "PW3115", "2026-12-19", "12:00", "10", "red velvet", "none", "Merry Christmas",
     6800, "collection", None, 0, "confirmed", "2026-11-29"),
    ("PC-7016", "PW3116", "2027-01-16", "11:00", "10", "vanilla", "none", "Welcome Baby Ada",
     6400, "collection", None, 0, "confirmed", "2026-12-04"),
    ("PC-7017", "PW3117", "2026-12-23", "14:00", "8+6", "chocolate", "none", "Happy Christmas Team",
     10200, "collection", None, 0, "confirmed", "2026-11-30"),
    ("PC-7018", "PW3118", "2026-12-15", "16:00", "6", "lemon", "none", "Good Luck Jo",
     3400, "collection", None, 0, "confirmed", "2026-12-05"),
    ("PC-7019", "PW3119", "2027-01-09", "10:00", "8", "lemon", "none", "Happy Birthday Arjun",
     4800, "collection", None, 0, "confirmed", "2026-12-06"),
    ("PC-7020", "PW3120", "2026-11-21", "09:30", "6", "vanilla", "none", "Good Luck Sam",
     3400, "collection", None, 0, "collected", "2026-11-12"),
    ("PC-7021", "PW3121", "2026-12-19", "14:00", "8", "lemon", "none", "Happy 60th Mum",
     4800, "collection", None, 0, "confirmed", "2026-11-26"),
    ("PC-7022", "PW3122", "2026-12-18", "15:00", "8+6", "vanilla", "none", "Congratulations Tobi",
     10200, "collection", None, 0, "confirmed", "2026-11-24"),
    ("PC-7023", "PW3123", "2026-12-29", "10:30", "8", "chocolate", "none", "Happy 5th Birthday Leo",
     4800, "collection", None, 0, "confirmed", "2026-12-01"),
    ("PC-7024", "PW3124", "2027-01-08", "12:00", "6", "vanilla", "vegan", "",
     4000, "collection", None, 0, "confirmed", "2026-12-07"),
]

# the Christmas closure and the Saturday before Christmas, with one decorator on
KITCHEN_DAYS = [
    ("2026-12-19", 3, "Christmas rush: one decorator on"),
    *((f"2026-12-{d}", 0, "closed for Christmas") for d in range(25, 29)),
    ("2027-01-01", 0, "closed for New Year's Day"),
]
# fmt: on
CLOSURES = {day: note for day, cap, note in KITCHEN_DAYS if cap == 0}


def deposit_for(price_pence: int) -> int:
    return price_pence * DEPOSIT_PERCENT // 100


def closed_reason(day: date) -> str | None:
    """Why the shop is shut that day, or None: Sundays, Mondays and the Christmas closure."""
    if day.isoformat() in CLOSURES:
        return CLOSURES[day.isoformat()]
    if day.weekday() in CLOSED_WEEKDAYS:
        return "the shop is closed on Sundays and Mondays"
    return None


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO customers VALUES (?,?,?,?,?,?)", CUSTOMERS)
    db.executemany(
        "INSERT INTO orders (order_id, customer_id, collection_date, slot, tiers, flavour, diet, "
        "inscription, price_pence, deposit_pence, fulfilment, delivery_postcode, "
        "delivery_fee_pence, status, placed_on) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        [(*o[:9], deposit_for(o[8]), *o[9:]) for o in ORDERS],
    )
    db.executemany("INSERT INTO kitchen_days VALUES (?,?,?)", KITCHEN_DAYS)
