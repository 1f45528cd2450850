"""Fresh Basket: the schema and the seed data (customers, products, slots, orders, vouchers)."""

from __future__ import annotations

import sqlite3
from datetime import UTC, date, datetime, timedelta

NOW = datetime(2026, 11, 18, 10, 0, tzinfo=UTC)
"""The desk's clock: Wednesday 18 November 2026, 10:00 (UK time is UTC in November)."""

FIRST_HOUR, LAST_HOUR = 8, 21
"""Delivery slots are one hour long; the first starts at 8 am, the last at 9 pm."""
BOOKING_DAYS = 14
SLOT_CAPACITY = 10

SCHEMA_SQL = """
CREATE TABLE customers (
    customer_id TEXT PRIMARY KEY,
    account_number TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    email TEXT NOT NULL UNIQUE,
    phone TEXT NOT NULL,
    address_line TEXT NOT NULL,
    postcode TEXT NOT NULL,
    card_last4 TEXT NOT NULL,
    card_expiry TEXT NOT NULL,
    credit_pence INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE delivery_area (
    district TEXT PRIMARY KEY,
    area TEXT NOT NULL
);
CREATE TABLE products (
    sku TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    unit TEXT NOT NULL,
    step REAL NOT NULL,
    price_pence INTEGER NOT NULL,
    price_per REAL NOT NULL,
    max_qty REAL NOT NULL,
    in_stock INTEGER NOT NULL
);
CREATE TABLE slots (
    slot_date TEXT NOT NULL,
    start_hour INTEGER NOT NULL,
    capacity INTEGER NOT NULL,
    booked INTEGER NOT NULL,
    PRIMARY KEY (slot_date, start_hour)
);
CREATE TABLE vouchers (
    code TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    value INTEGER NOT NULL,
    min_basket_pence INTEGER NOT NULL,
    expires_on TEXT NOT NULL,
    description TEXT NOT NULL
);
CREATE TABLE orders (
    order_id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL REFERENCES customers(customer_id),
    status TEXT NOT NULL,
    slot_date TEXT NOT NULL,
    start_hour INTEGER NOT NULL,
    address_line TEXT NOT NULL,
    postcode TEXT NOT NULL,
    phone TEXT NOT NULL,
    delivery_fee_pence INTEGER NOT NULL,
    voucher_code TEXT REFERENCES vouchers(code),
    slot_fee_pence INTEGER NOT NULL DEFAULT 0,
    card_last4 TEXT NOT NULL,
    placed_on TEXT NOT NULL,
    cancelled_at TEXT
);
CREATE TABLE order_items (
    order_id TEXT NOT NULL REFERENCES orders(order_id),
    sku TEXT NOT NULL REFERENCES products(sku),
    quantity REAL NOT NULL,
    substitutions_allowed INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (order_id, sku)
);
CREATE TABLE claims (
    claim_id TEXT PRIMARY KEY,
    order_id TEXT NOT NULL REFERENCES orders(order_id),
    sku TEXT NOT NULL,
    problem TEXT NOT NULL,
    quantity REAL NOT NULL,
    amount_pence INTEGER NOT NULL,
    method TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE payments (
    payment_id INTEGER PRIMARY KEY AUTOINCREMENT,
    order_id TEXT NOT NULL REFERENCES orders(order_id),
    kind TEXT NOT NULL,
    amount_pence INTEGER NOT NULL,
    card_last4 TEXT NOT NULL,
    created_at TEXT NOT NULL
);
"""

CUSTOMERS = [
    # id, account, name, email, phone, address line, postcode, card, card expiry
    ("C1", "40117283", "Priya Shah", "priya.shah@example.com", "07700 900111",
     "Flat 2, 14 Elm Road", "BS6 5JT", "4417", "2028-03"),
    ("C2", "40125590", "Priya Shah", "priya.shah84@example.com", "07700 900218",
     "27 Cotham Hill", "BS6 6JX", "9032", "2027-08"),
    ("C3", "40133012", "Daniel Okafor", "dan.okafor@example.com", "07700 900335",
     "9 Raleigh Road", "BS3 1QR", "5521", "2028-01"),
    ("C4", "40133047", "Grace Okafor", "grace.okafor@example.com", "07700 900342",
     "9 Raleigh Road", "BS3 1QR", "7789", "2027-05"),
    ("C5", "40141108", "Tom Hughes", "tom.hughes@example.com", "07700 900470",
     "Flat 1, 14 Elm Road", "BS6 5JT", "3306", "2027-11"),
    ("C6", "40150221", "Aisha Bello", "aisha.bello@example.com", "07700 900583",
     "3 Chandos Road", "BS6 6PG", "6140", "2029-02"),
    ("C7", "40162274", "Martin Kowalski", "m.kowalski@example.com", "07700 900694",
     "51 Bath Road", "BS4 3AB", "2275", "2027-04"),
    ("C8", "40170033", "Helen Price", "helen.price@example.com", "07700 900701",
     "88 Gloucester Road", "BS7 8BN", "8843", "2028-06"),
    ("C9", "40170068", "Sam Price", "sam.price@example.com", "07700 900709",
     "88 Gloucester Road", "BS7 8BN", "1198", "2026-10"),
]

DELIVERY_AREA = [
    ("BS1", "Bristol city centre"), ("BS2", "St Pauls, St Philips"), ("BS3", "Bedminster"),
    ("BS4", "Knowle, Brislington"), ("BS5", "Easton, Redfield"), ("BS6", "Redland, Cotham"),
    ("BS7", "Bishopston, Horfield"), ("BS8", "Clifton"), ("BS9", "Westbury-on-Trym"),
    ("BS16", "Fishponds"),
]

PRODUCTS = [
    # sku, name, unit, step, price (pence) per `price_per` units, max per order, in stock
    ("P101", "Maris Piper potatoes", "kg", 0.5, 110, 1, 10, 1),
    ("P102", "Carrots", "kg", 0.5, 90, 1, 5, 1),
    ("P103", "Free-range eggs", "each", 6, 30, 1, 36, 1),
    ("P104", "Semi-skimmed milk", "l", 0.5, 90, 1, 6, 1),
    ("P105", "Mature cheddar (deli counter)", "g", 50, 160, 100, 2000, 1),
    ("P106", "Beef mince 5% fat", "g", 500, 450, 500, 3000, 1),
    ("P107", "Bananas", "each", 1, 18, 1, 20, 1),
    ("P108", "Cucumber", "each", 1, 75, 1, 6, 1),
    ("P109", "Sourdough loaf", "each", 1, 260, 1, 4, 1),
    ("P110", "Greek yoghurt 500 g", "each", 1, 210, 1, 6, 1),
    ("P111", "Cherry tomatoes 250 g", "each", 1, 150, 1, 6, 1),
    ("P112", "Oat milk", "l", 1, 180, 1, 6, 0),
    ("P113", "Salmon fillets, pack of 2", "each", 1, 600, 1, 4, 1),
    ("P114", "Avocados", "each", 1, 80, 1, 10, 0),
    ("P115", "Basmati rice", "kg", 1, 250, 1, 5, 1),
    ("P116", "Red onions", "kg", 0.5, 120, 1, 5, 1),
    ("P117", "Strawberries 400 g", "each", 1, 350, 1, 6, 1),
    ("P118", "Butter 250 g", "each", 1, 225, 1, 4, 1),
    ("P119", "Braeburn apples", "each", 1, 40, 1, 20, 1),
    ("P120", "Whole milk", "l", 0.5, 95, 1, 6, 1),
    ("P121", "Frozen peas 1 kg", "each", 1, 200, 1, 4, 1),
]

VOUCHERS = [
    ("SAVE5", "amount", 500, 4000, "2026-12-31", "£5 off a basket of £40 or more"),
    ("FRESH15", "percent", 15, 3000, "2026-11-15", "15% off a basket of £30 or more"),
    ("BASKET3", "amount", 300, 1500, "2026-11-30", "£3 off a basket of £15 or more"),
    ("WELCOME10", "percent", 10, 0, "2026-12-31", "10% off a first order"),
    ("XMAS10", "amount", 1000, 6000, "2026-12-24", "£10 off a basket of £60 or more"),
    ("AUTUMN10", "percent", 10, 4000, "2026-11-30", "10% off a basket of £40 or more"),
]

ORDERS = [
    # order, customer, status, slot date, start hour, delivery fee, voucher, card, placed on
    ("FB-58301", "C1", "placed", "2026-11-19", 18, 150, None, "2026-11-14"),
    ("FB-58302", "C2", "placed", "2026-11-20", 9, 150, None, "2026-11-15"),
    ("FB-58310", "C3", "placed", "2026-11-18", 19, 150, None, "2026-11-13"),
    ("FB-58312", "C3", "delivered", "2026-11-17", 17, 150, None, "2026-11-12"),
    ("FB-58311", "C4", "delivered", "2026-11-17", 19, 0, None, "2026-11-11"),
    ("FB-58314", "C4", "placed", "2026-11-21", 17, 150, None, "2026-11-16"),
    ("FB-58320", "C5", "placed", "2026-11-19", 8, 150, None, "2026-11-15"),
    ("FB-58321", "C6", "placed", "2026-11-20", 12, 0, "AUTUMN10", "2026-11-16"),
    ("FB-58350", "C6", "delivered", "2026-11-17", 12, 150, None, "2026-11-10"),
    ("FB-58330", "C7", "picked", "2026-11-18", 12, 150, None, "2026-11-12"),
    ("FB-58340", "C8", "placed", "2026-11-21", 10, 150, None, "2026-11-17"),
    ("FB-58341", "C9", "delivered", "2026-11-16", 8, 150, None, "2026-11-11"),
    ("FB-58342", "C9", "placed", "2026-11-18", 20, 150, None, "2026-11-16"),
]

ITEMS = {
    "FB-58301": [("P101", 1), ("P103", 6), ("P104", 2), ("P105", 200), ("P107", 5),
                 ("P108", 1), ("P109", 1)],
    "FB-58302": [("P106", 1000), ("P116", 1), ("P111", 2), ("P115", 1), ("P118", 1),
                 ("P110", 1)],
    "FB-58310": [("P113", 2), ("P102", 1), ("P101", 2), ("P119", 6)],
    "FB-58312": [("P109", 1), ("P107", 6), ("P118", 1), ("P104", 1)],
    "FB-58311": [("P103", 12), ("P117", 2), ("P110", 2), ("P113", 1)],
    "FB-58314": [("P119", 8), ("P105", 300), ("P120", 2)],
    "FB-58320": [("P108", 2), ("P111", 1), ("P115", 2), ("P113", 1), ("P107", 4),
                 ("P104", 1)],
    "FB-58321": [("P106", 1500), ("P113", 2), ("P117", 2), ("P105", 400), ("P118", 2),
                 ("P109", 1)],
    "FB-58350": [("P103", 12), ("P110", 1), ("P119", 6), ("P113", 2)],
    "FB-58330": [("P101", 2.5), ("P120", 2), ("P109", 2), ("P115", 1)],
    "FB-58340": [("P117", 2), ("P113", 2), ("P105", 250), ("P119", 10), ("P111", 2),
                 ("P102", 1), ("P108", 1)],
    "FB-58341": [("P117", 1), ("P103", 6), ("P109", 1), ("P119", 4)],
    "FB-58342": [("P121", 1), ("P101", 1.5), ("P107", 6), ("P118", 1)],
}

FULL_SLOTS = {("2026-11-19", 19), ("2026-11-20", 19), ("2026-11-21", 18), ("2026-11-24", 19),
              ("2026-11-18", 18)}


def booking_dates() -> list[date]:
    """Every date with slots on sale: today and the next `BOOKING_DAYS` days."""
    today = NOW.date()
    return [today + timedelta(days=n) for n in range(BOOKING_DAYS + 1)]


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database (schema applied) with the desk's seed data."""
    db.executemany(
        "INSERT INTO customers (customer_id, account_number, name, email, phone, address_line,"
        " postcode, card_last4, card_expiry) VALUES (?,?,?,?,?,?,?,?,?)", CUSTOMERS)
    db.executemany("INSERT INTO delivery_area VALUES (?,?)", DELIVERY_AREA)
    db.executemany("INSERT INTO products VALUES (?,?,?,?,?,?,?,?)", PRODUCTS)
    db.executemany("INSERT INTO vouchers VALUES (?,?,?,?,?,?)", VOUCHERS)
    for day in booking_dates():
        for hour in range(FIRST_HOUR, LAST_HOUR + 1):
            key = (day.isoformat(), hour)
            booked = SLOT_CAPACITY if key in FULL_SLOTS else (day.day * 7 + hour * 3) % 8
            db.execute("INSERT INTO slots VALUES (?,?,?,?)", (*key, SLOT_CAPACITY, booked))
    cards = {c[0]: (c[5], c[6], c[4], c[7]) for c in CUSTOMERS}
    for order_id, cid, status, day, hour, fee, voucher, placed in ORDERS:
        address, postcode, phone, card = cards[cid]
        db.execute(
            "INSERT INTO orders (order_id, customer_id, status, slot_date, start_hour,"
            " address_line, postcode, phone, delivery_fee_pence, voucher_code, card_last4,"
            " placed_on) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (order_id, cid, status, day, hour, address, postcode, phone, fee, voucher, card,
             placed))
        for sku, qty in ITEMS[order_id]:
            db.execute("INSERT INTO order_items (order_id, sku, quantity) VALUES (?,?,?)",
                       (order_id, sku, float(qty)))
