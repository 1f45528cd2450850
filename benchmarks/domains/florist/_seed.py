"""Bloom & Bough Florists: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Wednesday 9 December 2026, 14:00 (UK, GMT): past the 12:00 cut-off
for same-day orders. Deliveries run Monday to Saturday in a morning (09:00-13:00) or an
afternoon (13:00-17:00) slot; flowers are made up from 12:00 the day before delivery, so every
order for Thursday 10 December is already made up. Customers are identified by their customer
number (BB and four digits) and the postcode on their account.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 9, 14, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"

SLOTS = {"morning": ("09:00", "13:00"), "afternoon": ("13:00", "17:00")}
SAME_DAY_CUTOFF = "12:00"  # same-day orders (afternoon slot only) must be placed before noon
FREE_CHANGE_HOURS = 48  # changes free 48+ hours before the slot starts
CHANGE_FEE_PENCE = 750  # a change inside 48 hours (date, slot, address, a swap by choice)
DEPOSIT_PERCENT = 25  # wedding and funeral orders: a deposit now, the balance on the day
DEPOSIT_OCCASIONS = ("wedding", "funeral")
COMPLAINT_DAYS = 2  # wilted flowers reported on the delivery day or the two days after
CARD_MAX = 200  # characters on a card
SLOT_CAPACITY = 6  # deliveries per slot unless a day says otherwise
CLOSED_DAYS = (date(2026, 12, 25), date(2026, 12, 26), date(2027, 1, 1))  # and every Sunday

# product, name, in stock, {size: price}
PRODUCTS = [
    ("roses", "Classic Red Roses", 1, {"standard": 3500, "large": 5000, "luxe": 7000}),
    ("seasonal", "Seasonal Hand-tied", 1, {"standard": 3000, "large": 4200, "luxe": 6000}),
    ("peony", "Peony Blush", 0, {"standard": 4500, "large": 6000, "luxe": 8000}),
    ("lily", "White Lily Arrangement", 1, {"standard": 3800, "large": 5200}),
    ("orchid", "Potted Orchid", 1, {"standard": 3200}),
    ("door-wreath", "Christmas Door Wreath", 1, {"standard": 4000, "large": 5500}),
    ("ranunculus", "Ranunculus Posy", 0, {"standard": 2800}),
    ("bridal", "Bridal Bouquet", 1, {"standard": 9500, "large": 13000}),
    ("buttonhole", "Buttonhole", 1, {"standard": 850}),
    ("funeral-wreath", "Funeral Wreath", 1, {"standard": 7500, "large": 11000}),
    ("sympathy", "Sympathy Bouquet", 1, {"standard": 4000, "large": 5500}),
]

# postcode district, zone, delivery fee; every other district is not served
ZONES = [
    ("BA1", "A", 500),
    ("BA2", "A", 500),
    ("BA3", "B", 800),
    ("BA14", "B", 800),
    ("BA15", "B", 800),
    ("BS31", "C", 1200),
    ("BA11", "C", 1200),
    ("SN13", "C", 1200),
]

# a day whose slot takes fewer deliveries than usual (a driver off)
CAPACITY = [("2026-12-18", "morning", 2)]


def is_closed(day: date) -> bool:
    """No deliveries on Sundays, Christmas Day, Boxing Day or New Year's Day."""
    return day.weekday() == 6 or day in CLOSED_DAYS


SCHEMA_SQL = """
CREATE TABLE customers (
    customer_id TEXT PRIMARY KEY,             -- BB3001
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    address_line TEXT NOT NULL,
    postcode TEXT NOT NULL,                   -- the postcode that proves identity
    card_last4 TEXT NOT NULL
);
CREATE TABLE products (
    product_id TEXT PRIMARY KEY,              -- roses
    name TEXT NOT NULL,
    in_stock INTEGER NOT NULL
);
CREATE TABLE prices (
    product_id TEXT NOT NULL REFERENCES products(product_id),
    size TEXT NOT NULL,                       -- standard / large / luxe
    price_pence INTEGER NOT NULL,
    PRIMARY KEY (product_id, size)
);
CREATE TABLE zones (
    district TEXT PRIMARY KEY,                -- BA1
    zone TEXT NOT NULL,
    fee_pence INTEGER NOT NULL
);
CREATE TABLE slot_capacity (
    day TEXT NOT NULL,
    slot TEXT NOT NULL,
    capacity INTEGER NOT NULL,
    PRIMARY KEY (day, slot)
);
CREATE TABLE orders (
    order_id TEXT PRIMARY KEY,                -- OR6107
    customer_id TEXT NOT NULL REFERENCES customers(customer_id),
    recipient TEXT NOT NULL,
    address_line TEXT NOT NULL,
    postcode TEXT NOT NULL,
    delivery_date TEXT NOT NULL,
    slot TEXT NOT NULL,                       -- morning / afternoon
    card_message TEXT NOT NULL DEFAULT '',
    occasion TEXT NOT NULL DEFAULT '',        -- '' / wedding / funeral
    delivery_fee_pence INTEGER NOT NULL,
    total_pence INTEGER NOT NULL,             -- flowers and delivery
    paid_pence INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'placed',    -- placed / made_up / delivered / cancelled
    replacement_for TEXT,                     -- a free replacement of that order
    placed_at TEXT NOT NULL
);
CREATE TABLE order_items (
    line_id INTEGER PRIMARY KEY,
    order_id TEXT NOT NULL REFERENCES orders(order_id),
    product_id TEXT NOT NULL,
    size TEXT NOT NULL,
    qty INTEGER NOT NULL,
    price_pence INTEGER NOT NULL              -- the line: unit price x qty
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    customer_id TEXT NOT NULL,
    order_id TEXT NOT NULL,
    kind TEXT NOT NULL,       -- payment / deposit / change_fee / delivery_difference /
                              -- swap_difference / refund
    amount_pence INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE complaints (
    complaint_id INTEGER PRIMARY KEY,
    order_id TEXT NOT NULL,
    customer_id TEXT NOT NULL,
    reason TEXT NOT NULL,
    resolution TEXT NOT NULL,                 -- replacement / refund
    refund_pence INTEGER NOT NULL DEFAULT 0,
    replacement_order TEXT,
    logged_at TEXT NOT NULL
);
"""

# fmt: off
# customer, name, address, postcode, card; emails and phones follow (BB3007: 07700 900707)
PEOPLE = [
    ("BB3001", "Sarah Mills", "21 Forester Road", "BA2 6QE", "4417"),
    ("BB3002", "Tom Reid", "7 Walcot Terrace", "BA1 6AB", "2290"),
    ("BB3003", "Emily Carter", "16 Widcombe Crescent", "BA2 6AH", "8823"),
    ("BB3004", "David Okoro", "3 Fosse Way", "BA3 4JH", "6610"),
    ("BB3005", "Helen Price", "42 Union Street", "BA14 8RY", "3051"),
    ("BB3006", "Ravi Nair", "10 Widcombe Hill", "BA2 6AA", "7702"),
    ("BB3007", "Lucy Bell", "5 Brock Street", "BA1 2LN", "1189"),
    ("BB3008", "James Wood", "88 Wellsway", "BA2 4SB", "5534"),
    ("BB3009", "Anna Kowalski", "12 Hilperton Road", "BA14 7JG", "9046"),
    ("BB3010", "Peter Shaw", "27 Bloomfield Road", "BA2 2AD", "2718"),
    ("BB3011", "Grace Lee", "9 Lansdown Place", "BA1 5HA", "6284"),
    ("BB3012", "Oliver Hughes", "60 Temple Street", "BS31 1EH", "3141"),
    ("BB3013", "Chloe Adams", "4 Weston Lane", "BA1 4AB", "8080"),
    ("BB3014", "Mohammed Ali", "18 Claverton Street", "BA2 4LE", "4242"),
    ("BB3015", "Rachel Dunn", "33 Wells Road", "BA3 3RP", "5150"),
    ("BB3016", "Sophie Marsh", "2 Royal Crescent", "BA1 2LR", "6006"),
    ("BB3017", "Daniel Brooks", "15 Oldfield Road", "BA2 3ND", "7117"),
    ("BB3018", "Priya Desai", "71 Englishcombe Lane", "BA2 2EL", "1212"),
    ("BB3019", "Ian Fletcher", "6 Julian Road", "BA1 2RH", "3434"),
    ("BB3020", "Karen Walsh", "24 Entry Hill", "BA2 5LY", "5656"),
    ("BB3021", "Neil Patterson", "3 Winsley Road", "BA15 1NY", "7878"),
    ("BB3022", "Laura Bennett", "19 Sydney Place", "BA2 6NF", "9090"),
    ("BB3023", "Fiona Bennett", "8 Lyncombe Vale", "BA2 4LS", "1357"),
    ("BB3024", "Ben Harper", "50 Bathwick Hill", "BA2 6EX", "2468"),
]
CUSTOMERS = [
    (c, n, n.lower().replace(" ", ".") + "@example.com", f"07700 900{700 + int(c[-2:]):03d}",
     line, postcode, card)
    for c, n, line, postcode, card in PEOPLE
]

# order, customer, recipient, address, postcode, day, slot, card, occasion, status,
# [(product, size, qty)]
ORDERS = [
    ("OR6101", "BB3001", "Jean Harris", "12 Lansdown Road", "BA1 5DY", "2026-11-20",
     "morning", "Happy birthday!", "", "delivered", [("roses", "standard", 1)]),
    ("OR6105", "BB3005", "Ruth Price", "2 Bath Road", "BA14 0QA", "2026-12-18", "morning",
     "", "", "placed", [("seasonal", "standard", 1)]),
    ("OR6106", "BB3006", "Meera Nair", "10 Widcombe Hill", "BA2 6AA", "2026-12-18", "morning",
     "Happy anniversary", "", "placed", [("orchid", "standard", 1)]),
    ("OR6107", "BB3007", "Margaret Bell", "3 Sion Hill", "BA1 2UH", "2026-12-12", "morning",
     "Thinking of you, Gran. Lots of love, Lucy x", "", "placed", [("seasonal", "large", 1)]),
    ("OR6108", "BB3008", "Alice Wood", "19 Bathwick Street", "BA2 6NX", "2026-12-12",
     "afternoon", "", "", "placed", [("lily", "standard", 1)]),
    ("OR6109", "BB3009", "Ewa Kowalski", "4 Bradford Road", "BA14 9AR", "2026-12-11",
     "morning", "Get well soon", "", "placed", [("roses", "standard", 1)]),
    ("OR6110", "BB3010", "Joan Shaw", "27 Bloomfield Road", "BA2 2AD", "2026-12-17",
     "morning", "", "", "placed", [("door-wreath", "large", 1)]),
    ("OR6111", "BB3011", "Daniel Lee", "6 Camden Crescent", "BA1 5HY", "2026-12-11",
     "afternoon", "", "", "placed", [("seasonal", "standard", 1)]),
    ("OR6112", "BB3012", "Susan Hughes", "14 High Street", "BS31 1DP", "2026-12-10",
     "morning", "", "", "made_up", [("orchid", "standard", 1)]),
    ("OR6113", "BB3013", "Megan Adams", "31 Newbridge Road", "BA1 3HE", "2026-12-16",
     "morning", "Happy 30th!", "", "placed", [("seasonal", "large", 1)]),
    ("OR6114", "BB3014", "Yusuf Ali", "8 Pulteney Road", "BA2 4EZ", "2026-12-11",
     "afternoon", "", "", "placed", [("roses", "large", 1)]),
    ("OR6115", "BB3015", "Tom Dunn", "2 Frome Road", "BA3 3LE", "2026-12-10", "afternoon",
     "", "", "made_up", [("roses", "standard", 1)]),
    ("OR6116", "BB3016", "Clare Marsh", "11 Marlborough Buildings", "BA1 2LY", "2026-12-11",
     "morning", "With love", "", "placed", [("peony", "large", 1)]),
    ("OR6117", "BB3017", "Jane Brooks", "8 Gay Street", "BA1 2PH", "2026-12-14", "morning",
     "Welcome home, Mum", "", "placed", [("seasonal", "large", 1)]),
    ("OR6118", "BB3018", "Neha Joshi", "40 Combe Park", "BA1 3NR", "2026-12-12", "afternoon",
     "Happy housewarming!", "", "placed", [("lily", "large", 1)]),
    ("OR6119", "BB3019", "Ann Fletcher", "5 Rivers Street", "BA1 2QA", "2026-12-08",
     "morning", "", "", "delivered", [("seasonal", "standard", 1)]),
    ("OR6120", "BB3020", "Joy Walsh", "9 Lyncombe Hill", "BA2 4PQ", "2026-12-07", "afternoon",
     "", "", "delivered", [("lily", "large", 1)]),
    ("OR6121", "BB3021", "Eve Patterson", "12 Trowbridge Road", "BA15 1EH", "2026-12-04",
     "morning", "", "", "delivered", [("roses", "large", 1)]),
    ("OR6122", "BB3022", "Laura Bennett", "19 Sydney Place", "BA2 6NF", "2026-11-28",
     "morning", "", "", "delivered", [("orchid", "standard", 1)]),
    ("OR6123", "BB3023", "Mary Bennett", "15 Beechen Cliff Road", "BA2 4QR", "2026-12-11",
     "morning", "Happy 70th, Mum! All our love, Fiona and Tom", "", "placed",
     [("roses", "luxe", 1)]),
    ("OR6124", "BB3024", "Kate Harper", "3 Milsom Street", "BA1 1DA", "2026-12-12",
     "morning", "", "", "placed", [("seasonal", "standard", 1)]),
]
# fmt: on


def district(postcode: str) -> str:
    """The outward code of a postcode ("BA1 5DY" -> "BA1")."""
    return postcode.strip().upper().split()[0] if postcode.strip() else ""


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO customers VALUES (?,?,?,?,?,?,?)", CUSTOMERS)
    for pid, name, stock, sizes in PRODUCTS:
        db.execute("INSERT INTO products VALUES (?,?,?)", (pid, name, stock))
        for size, price in sizes.items():
            db.execute("INSERT INTO prices VALUES (?,?,?)", (pid, size, price))
    db.executemany("INSERT INTO zones VALUES (?,?,?)", ZONES)
    db.executemany("INSERT INTO slot_capacity VALUES (?,?,?)", CAPACITY)
    prices = {(p, s): v for p, _, _, sizes in PRODUCTS for s, v in sizes.items()}
    fees = {d: f for d, _, f in ZONES}
    for oid, cid, who, line, postcode, day, slot, card, occasion, status, items in ORDERS:
        flowers = sum(prices[(p, s)] * q for p, s, q in items)
        fee = fees[district(postcode)]
        total = flowers + fee
        paid = total * DEPOSIT_PERCENT // 100 if occasion in DEPOSIT_OCCASIONS else total
        db.execute(
            "INSERT INTO orders (order_id, customer_id, recipient, address_line, postcode, "
            "delivery_date, slot, card_message, occasion, delivery_fee_pence, total_pence, "
            "paid_pence, status, placed_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                oid,
                cid,
                who,
                line,
                postcode,
                day,
                slot,
                card,
                occasion,
                fee,
                total,
                paid,
                status,
                "2026-11-01 09:00",
            ),
        )
        for p, s, q in items:
            db.execute(
                "INSERT INTO order_items (order_id, product_id, size, qty, price_pence) "
                "VALUES (?,?,?,?,?)",
                (oid, p, s, q, prices[(p, s)] * q),
            )
