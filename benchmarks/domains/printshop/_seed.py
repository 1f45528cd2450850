"""Inkwell Print Shop: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Monday 7 December 2026, 10:00 (UK, GMT). Customers are identified by
an order number (IW and five digits) and the email address on the account that placed it.
Production and delivery are counted in working days (Monday to Friday).
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 7, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"
SHOP_PHONE = "0117 496 0550"
SHOP_ADDRESS = "Inkwell Print Shop, 12 Mill Lane, Bristol BS2 0QT"

# the price of a quantity band at standard paper and matt finish, in pence
BANDS: dict[str, dict[int, int]] = {
    "business_cards": {100: 1800, 250: 2800, 500: 4000, 1000: 6000},
    "flyers": {100: 2500, 250: 4000, 500: 6000, 1000: 9000},
    "posters": {10: 3000, 25: 6000, 50: 10000, 100: 17000},
    "booklets": {25: 7500, 50: 12000, 100: 20000, 250: 42000},
}
PRODUCT_NAMES = {"business_cards": "business cards", "flyers": "A5 flyers",
                 "posters": "A2 posters", "booklets": "A5 booklets"}  # fmt: skip
PAPER_PERCENT = {"standard": 0, "recycled": 10, "premium": 20}  # added to the band price
FINISH_PERCENT = {"matt": 0, "gloss": 0, "soft-touch": 25}
RUSH_PERCENT = 25  # of the print price (before any trade discount)
TRADE_PERCENT = 10  # a trade code takes 10% off the print price
SETUP_FEE_PENCE = 1500  # kept on a cancellation after the proof is approved
REPRINT_DAYS = 14  # a print fault reported within 14 days of delivery is reprinted free
PRODUCTION_DAYS = {False: 4, True: 1}  # working days after approval: standard, rush
# delivery: fee and working days after dispatch; collection is from the shop on dispatch day
DELIVERY = {"post": (495, 2), "courier": (995, 1), "collect": (0, 0)}
DELIVERY_NAMES = {"post": "standard post", "courier": "next-day courier",
                  "collect": "collection from our shop"}  # fmt: skip
NO_COURIER = ("HS", "ZE", "KW")  # the Scottish islands: post only


def price(product: str, quantity: int, paper: str, finish: str) -> int:
    """The print price of an order: the band's price plus the paper's and finish's percent."""
    base = BANDS[product][quantity]
    return base * (100 + PAPER_PERCENT[paper] + FINISH_PERCENT[finish]) // 100


def add_working_days(day: date, n: int) -> date:
    """The working day `n` working days after `day` (n = 0: `day` itself)."""
    while n > 0:
        day += timedelta(days=1)
        if day.weekday() < 5:
            n -= 1
    return day


SCHEMA_SQL = """
CREATE TABLE customers (
    customer_id TEXT PRIMARY KEY,             -- C201
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    address TEXT NOT NULL,
    postcode TEXT NOT NULL,
    trade_code TEXT,                          -- a trade account's own discount code
    card_last4 TEXT NOT NULL
);
CREATE TABLE trade_codes (
    code TEXT PRIMARY KEY,                    -- TRADE-KESTREL
    customer_id TEXT NOT NULL,
    percent INTEGER NOT NULL,
    expires TEXT NOT NULL
);
CREATE TABLE orders (
    order_id TEXT PRIMARY KEY,                -- IW10401
    customer_id TEXT NOT NULL REFERENCES customers(customer_id),
    product TEXT NOT NULL,                    -- business_cards / flyers / posters / booklets
    quantity INTEGER NOT NULL,
    paper TEXT NOT NULL,                      -- standard / recycled / premium
    finish TEXT NOT NULL,                     -- matt / gloss / soft-touch
    price_pence INTEGER NOT NULL,             -- the print price
    discount_pence INTEGER NOT NULL DEFAULT 0,
    discount_code TEXT,
    rush INTEGER NOT NULL DEFAULT 0,
    rush_fee_pence INTEGER NOT NULL DEFAULT 0,
    delivery TEXT NOT NULL,                   -- post / courier / collect
    delivery_fee_pence INTEGER NOT NULL,
    status TEXT NOT NULL,                     -- proof_sent / approved / dispatched / delivered
                                              -- / cancelled
    placed_on TEXT NOT NULL,
    approved_on TEXT,
    dispatch_on TEXT,
    delivery_date TEXT,                       -- expected (or actual) delivery or collection day
    delivered_on TEXT
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    customer_id TEXT NOT NULL,
    order_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- charge / refund
    reason TEXT NOT NULL,                     -- change / rush / delivery / cancellation /
                                              -- discount
    amount_pence INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE reprints (
    reprint_id TEXT PRIMARY KEY,              -- RP501
    order_id TEXT NOT NULL,
    reason TEXT NOT NULL,
    charge_pence INTEGER NOT NULL DEFAULT 0,
    dispatch_on TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE invoice_copies (
    copy_id INTEGER PRIMARY KEY,
    order_id TEXT NOT NULL,
    email TEXT NOT NULL,
    sent_at TEXT NOT NULL
);
"""

# fmt: off
# customer, name, card, address, postcode, trade code; emails are first.last@example.com and
# phones 07700 900 followed by 600 + the customer's last two digits (C223: 07700 900623)
PEOPLE = [
    ("C201", "Amelia Hart", "4417", "8 Orchard Row, Bath", "BA1 2QP", None),
    ("C202", "Ben Carter", "2290", "41 Gloucester Road, Bristol", "BS7 8AE", None),
    ("C203", "Chloe Dunn", "8823", "2 Elm Close, Cardiff", "CF14 3LN", None),
    ("C204", "Dev Mistry", "6610", "14 Quay Street, Bristol", "BS1 4DJ", None),
    ("C205", "Daniel Reed", "3051", "77 Park Lane, Swindon", "SN1 5DG", None),
    ("C206", "Ella Fraser", "7702", "5 Mill Street, Oxford", "OX2 0AL", None),
    ("C207", "Finn Hughes", "1189", "19 Canal Walk, Bristol", "BS2 9XQ", None),
    ("C208", "Gwen MacLeod", "5534", "3 Harbour Road, Stornoway", "HS1 2AB", None),
    ("C209", "Harry Irwin", "9046", "60 King Street, Gloucester", "GL1 1RT", None),
    ("C210", "Isla Jones", "2718", "12 Bay View, Swansea", "SA1 3EW", None),
    ("C211", "Jack Kemp", "6284", "9 Station Road, Exeter", "EX4 4NT", None),
    ("C212", "Kate Lowe", "3141", "31 Church Lane, Taunton", "TA1 1JD", None),
    ("C213", "Liam Moore", "8080", "4 Brook Street, Bath", "BA2 3LB", None),
    ("C214", "Maya Nash", "4242", "22 Victoria Road, Cheltenham", "GL50 2AH", None),
    ("C215", "Noah Owen", "5150", "15 Queen Square, Bristol", "BS1 4NT", None),
    ("C216", "Olivia Park", "6006", "Kestrel Design Ltd, 3 Dock Yard, Bristol", "BS1 6UH",
     "TRADE-KESTREL"),
    ("C217", "Peter Quinn", "7117", "88 High Street, Chippenham", "SN15 3ER", None),
    ("C218", "Rosa Silva", "1212", "Silva Books, 6 Abbey Green, Bath", "BA1 1NW", None),
    ("C219", "Sam Turner", "3434", "27 Wells Road, Bristol", "BS4 2AX", None),
    ("C220", "Tara Usher", "5656", "50 Briggate, Leeds", "LS1 6HD", None),
    ("C221", "Uma Vance", "7878", "11 Castle Street, Cardiff", "CF10 1BS", None),
    ("C222", "Victor Webb", "9090", "7 North Parade, Bath", "BA2 4DD", None),
    ("C223", "Wendy Xu", "1357", "36 Cotham Hill, Bristol", "BS6 6LA", None),
    ("C224", "Yusuf Zane", "2468", "Harbour Print Co, 1 Wapping Wharf, Bristol", "BS1 4RW",
     "TRADE-HARBOUR"),
]
CUSTOMERS = [
    (c, n, n.lower().replace(" ", ".") + "@example.com", f"07700 900{600 + int(c[-2:])}",
     addr, pc, code, card)
    for c, n, card, addr, pc, code in PEOPLE
]  # fmt: skip

# code, customer, percent, expires
TRADE_CODES = [
    ("TRADE-KESTREL", "C216", TRADE_PERCENT, "2027-12-31"),
    ("TRADE-HARBOUR", "C224", TRADE_PERCENT, "2026-11-30"),
]

# order, customer, product, quantity, paper, finish, delivery, status, placed, approved,
# dispatch, delivery date, delivered; the prices follow from the spec and the delivery method
ORDERS = [
    ("IW10391", "C201", "flyers", 100, "standard", "matt", "post", "delivered",
     "2026-11-02", "2026-11-03", "2026-11-09", "2026-11-11", "2026-11-11"),
    ("IW10401", "C201", "business_cards", 500, "premium", "matt", "post", "proof_sent",
     "2026-12-03", None, None, None, None),
    ("IW10402", "C202", "flyers", 500, "standard", "gloss", "post", "approved",
     "2026-12-02", "2026-12-04", "2026-12-10", "2026-12-14", None),
    ("IW10403", "C203", "flyers", 250, "recycled", "matt", "post", "proof_sent",
     "2026-12-04", None, None, None, None),
    ("IW10404", "C204", "posters", 25, "standard", "gloss", "post", "dispatched",
     "2026-11-27", "2026-11-30", "2026-12-04", "2026-12-08", None),
    ("IW10405", "C205", "business_cards", 250, "standard", "matt", "post", "delivered",
     "2026-11-20", "2026-11-23", "2026-11-27", "2026-12-01", "2026-12-01"),
    ("IW10406", "C206", "booklets", 50, "premium", "matt", "post", "proof_sent",
     "2026-12-03", None, None, None, None),
    ("IW10407", "C207", "posters", 10, "standard", "matt", "collect", "proof_sent",
     "2026-12-04", None, None, None, None),
    ("IW10408", "C208", "flyers", 100, "standard", "matt", "post", "approved",
     "2026-12-01", "2026-12-03", "2026-12-09", "2026-12-11", None),
    ("IW10409", "C209", "business_cards", 1000, "standard", "matt", "post", "proof_sent",
     "2026-12-04", None, None, None, None),
    ("IW10410", "C210", "flyers", 1000, "standard", "matt", "post", "approved",
     "2026-12-02", "2026-12-04", "2026-12-10", "2026-12-14", None),
    ("IW10411", "C211", "posters", 50, "premium", "matt", "courier", "proof_sent",
     "2026-12-04", None, None, None, None),
    ("IW10412", "C212", "booklets", 100, "standard", "matt", "post", "approved",
     "2026-12-01", "2026-12-04", "2026-12-10", "2026-12-14", None),
    ("IW10413", "C213", "business_cards", 100, "standard", "matt", "post", "dispatched",
     "2026-11-26", "2026-11-30", "2026-12-04", "2026-12-08", None),
    ("IW10414", "C214", "flyers", 500, "premium", "gloss", "post", "delivered",
     "2026-11-20", "2026-11-24", "2026-11-30", "2026-12-02", "2026-12-02"),
    ("IW10415", "C215", "posters", 25, "standard", "matt", "post", "delivered",
     "2026-11-04", "2026-11-06", "2026-11-12", "2026-11-16", "2026-11-16"),
    ("IW10416", "C216", "flyers", 1000, "premium", "matt", "post", "proof_sent",
     "2026-12-04", None, None, None, None),
    ("IW10417", "C217", "business_cards", 250, "premium", "matt", "post", "delivered",
     "2026-11-18", "2026-11-20", "2026-11-26", "2026-11-30", "2026-11-30"),
    ("IW10418", "C218", "booklets", 25, "recycled", "matt", "post", "delivered",
     "2026-11-13", "2026-11-17", "2026-11-23", "2026-11-25", "2026-11-25"),
    ("IW10419", "C219", "posters", 25, "standard", "matt", "post", "approved",
     "2026-12-01", "2026-12-03", "2026-12-09", "2026-12-11", None),
    ("IW10420", "C220", "booklets", 25, "standard", "matt", "post", "approved",
     "2026-12-02", "2026-12-04", "2026-12-10", "2026-12-14", None),
    ("IW10421", "C221", "business_cards", 250, "premium", "soft-touch", "courier", "dispatched",
     "2026-11-27", "2026-12-01", "2026-12-07", "2026-12-08", None),
    ("IW10422", "C222", "flyers", 250, "standard", "matt", "collect", "approved",
     "2026-12-02", "2026-12-04", "2026-12-10", "2026-12-10", None),
    ("IW10423", "C223", "posters", 10, "standard", "gloss", "post", "proof_sent",
     "2026-12-04", None, None, None, None),
    ("IW10424", "C224", "flyers", 500, "standard", "matt", "post", "proof_sent",
     "2026-12-04", None, None, None, None),
]
# fmt: on


def order_rows() -> list[tuple[object, ...]]:
    """The orders as table rows, priced from their spec and delivery method."""
    rows = []
    for oid, cid, product, qty, paper, finish, method, status, *days in ORDERS:
        rows.append((oid, cid, product, qty, paper, finish, price(product, qty, paper, finish),
                     method, DELIVERY[method][0], status, *days))  # fmt: skip
    return rows


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO customers VALUES (?,?,?,?,?,?,?,?)", CUSTOMERS)
    db.executemany("INSERT INTO trade_codes VALUES (?,?,?,?)", TRADE_CODES)
    db.executemany(
        "INSERT INTO orders (order_id, customer_id, product, quantity, paper, finish, "
        "price_pence, delivery, delivery_fee_pence, status, placed_on, approved_on, "
        "dispatch_on, delivery_date, delivered_on) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        order_rows(),
    )
