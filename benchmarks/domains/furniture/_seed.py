"""Oakfold Furniture: schema, the fixed clock, prices, rules and the seed data.

The desk's clock is fixed at Monday 14 December 2026, 10:00 (UK, GMT). Working days are Monday to
Friday except the bank holidays (25 and 28 December 2026, 1 January 2027). Customers are
identified by the order number (OF and five digits) and the delivery postcode; an order's
details are given only to the person who bought it.
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 14, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"
BANK_HOLIDAYS = {date(2026, 12, 25), date(2026, 12, 28), date(2027, 1, 1)}

FREE_MOVE_WORKING_DAYS = 3  # a move is free up to 3 working days before the delivery day
MOVE_FEE_PENCE = 2500  # inside that, until the order is out for delivery
ASSEMBLY_PENCE = 4500  # per item, flat-pack items only
ASSEMBLY_WORKING_DAYS = 2  # added up to 2 working days before the delivery day
DAMAGE_DAYS = 7  # damage or a missing part reported within 7 days of delivery
RETURN_DAYS = 28  # returns within 28 days of delivery, in the original packaging
COLLECTION_PENCE = 3900  # taken off a return's refund
MTO_DEPOSIT_PERCENT = 20  # a made-to-order item's deposit, kept on a cancellation

# delivery zones by postcode area: an address change stays inside the order's zone
ZONES = {"LS": "leeds", "BD": "leeds", "WF": "leeds", "HX": "leeds", "HD": "leeds",
         "YO": "york", "HG": "york", "S": "sheffield", "DN": "sheffield"}  # fmt: skip


def is_working_day(day: date) -> bool:
    return day.weekday() < 5 and day not in BANK_HOLIDAYS


def working_days_before(day: date, count: int) -> date:
    """The working day `count` working days before `day` (the last day a rule allows)."""
    d = day
    while count:
        d -= timedelta(days=1)
        if is_working_day(d):
            count -= 1
    return d


def zone_of(postcode: str) -> str | None:
    area = "".join(ch for ch in postcode.strip().upper()[:2] if ch.isalpha())
    return ZONES.get(area)


SCHEMA_SQL = """
CREATE TABLE customers (
    customer_id TEXT PRIMARY KEY,             -- C301
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    phone TEXT NOT NULL,
    card_last4 TEXT NOT NULL
);
CREATE TABLE orders (
    order_id TEXT PRIMARY KEY,                -- OF20101
    customer_id TEXT NOT NULL REFERENCES customers(customer_id),
    address TEXT NOT NULL,
    postcode TEXT NOT NULL,
    zone TEXT NOT NULL,                       -- leeds / york / sheffield
    ordered_on TEXT NOT NULL,
    delivery_date TEXT NOT NULL,
    status TEXT NOT NULL                      -- processing / dispatched / out_for_delivery /
                                              -- delivered / cancelled
);
CREATE TABLE items (
    item_id TEXT PRIMARY KEY,                 -- I501
    order_id TEXT NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- wardrobe, sofa, coffee table ...
    price_pence INTEGER NOT NULL,
    flat_pack INTEGER NOT NULL DEFAULT 1,
    made_to_order INTEGER NOT NULL DEFAULT 0,
    clearance INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE full_days (
    zone TEXT NOT NULL,
    day TEXT NOT NULL                         -- no van space left that day
);
CREATE TABLE assembly (
    booking_id INTEGER PRIMARY KEY,
    order_id TEXT NOT NULL,
    item_ids TEXT NOT NULL,                   -- "I518,I519"
    price_pence INTEGER NOT NULL
);
CREATE TABLE issues (
    issue_id INTEGER PRIMARY KEY,
    order_id TEXT NOT NULL,
    item_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- damage / missing_part
    photo_ref TEXT,
    detail TEXT NOT NULL,
    replacement TEXT NOT NULL,                -- item / part, delivered free
    created_at TEXT NOT NULL
);
CREATE TABLE returns (
    return_id INTEGER PRIMARY KEY,
    order_id TEXT NOT NULL,
    item_id TEXT NOT NULL,
    refund_pence INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    order_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- move_fee / assembly / refund
    amount_pence INTEGER NOT NULL,
    created_at TEXT NOT NULL
);
"""

# fmt: off
# customer, name, card; email and phone follow (C318: emma.clarke@example.com, 07700 900318)
PEOPLE = [
    ("C301", "Alice Ward", "4417"), ("C302", "Raj Patel", "2290"), ("C303", "Tom Hale", "8823"),
    ("C304", "Gina Moss", "6610"), ("C305", "Owen Price", "3051"), ("C306", "Priya Shah", "7702"),
    ("C307", "Dan Fox", "1189"), ("C308", "Sarah Lin", "5534"), ("C309", "Mark Evans", "9046"),
    ("C310", "Fiona Grey", "2718"), ("C311", "Ian Moss", "6284"), ("C312", "Chloe Ward", "3141"),
    ("C313", "Ben Ortiz", "8080"), ("C314", "Nadia Rossi", "4242"), ("C315", "Paul Adams", "5150"),
    ("C316", "Hannah Webb", "6006"), ("C317", "Jack Turner", "7117"),
    ("C318", "Emma Clarke", "1212"), ("C319", "Margaret Hall", "3434"),
    ("C320", "Ruth Cole", "5656"), ("C321", "Luke Perry", "7878"), ("C322", "Amir Khan", "9090"),
    ("C323", "Zara Bell", "1357"),
]
CUSTOMERS = [
    (c, n, n.lower().replace(" ", ".") + "@example.com", f"07700 900{c[-3:]}", card)
    for c, n, card in PEOPLE
]

# order, customer, address, postcode, zone, ordered, delivery, status
ORDERS = [
    ("OF20101", "C301", "14 Elm Road, Leeds", "LS6 2AB", "leeds",
     "2026-11-30", "2026-12-22", "processing"),
    ("OF20102", "C302", "3 Mill Lane, Bradford", "BD9 4QT", "leeds",
     "2026-11-20", "2026-12-16", "dispatched"),
    ("OF20103", "C303", "27 Holgate Road, York", "YO24 4AB", "york",
     "2026-11-18", "2026-12-14", "out_for_delivery"),
    ("OF20104", "C304", "8 Park Avenue, Harrogate", "HG1 5DL", "york",
     "2026-11-21", "2026-12-15", "dispatched"),
    ("OF20105", "C305", "51 Ecclesall Road, Sheffield", "S11 8HX", "sheffield",
     "2026-12-01", "2026-12-21", "processing"),
    ("OF20106", "C306", "6 Kirkgate, Wakefield", "WF1 1HZ", "leeds",
     "2026-11-22", "2026-12-15", "dispatched"),
    ("OF20107", "C307", "19 Bootham, York", "YO30 7BW", "york",
     "2026-11-12", "2026-12-10", "delivered"),
    ("OF20108", "C308", "2 Chapel Street, Leeds", "LS2 7DR", "leeds",
     "2026-11-15", "2026-12-11", "delivered"),
    ("OF20109", "C309", "77 Shipton Road, York", "YO30 5RD", "york",
     "2026-10-28", "2026-11-20", "delivered"),
    ("OF20110", "C310", "41 Otley Road, Leeds", "LS16 5JT", "leeds",
     "2026-11-09", "2026-12-01", "delivered"),
    ("OF20111", "C311", "12 Queens Road, Halifax", "HX1 3NS", "leeds",
     "2026-10-20", "2026-12-03", "delivered"),
    ("OF20112", "C312", "90 Abbeydale Road, Sheffield", "S7 1FD", "sheffield",
     "2026-12-08", "2027-01-04", "processing"),
    ("OF20113", "C313", "5 Station Road, Doncaster", "DN1 1PA", "sheffield",
     "2026-11-25", "2026-12-17", "dispatched"),
    ("OF20114", "C314", "33 Harehills Lane, Leeds", "LS8 4HS", "leeds",
     "2026-12-02", "2026-12-21", "processing"),
    ("OF20115", "C315", "4 Manor Row, Bradford", "BD1 4PB", "leeds",
     "2026-12-05", "2027-01-06", "processing"),
    ("OF20116", "C316", "22 Fulwood Road, Sheffield", "S10 3BA", "sheffield",
     "2026-12-03", "2026-12-23", "processing"),
    ("OF20117", "C317", "15 Cold Bath Road, Harrogate", "HG2 0NA", "york",
     "2026-12-07", "2027-01-11", "processing"),
    ("OF20118", "C318", "60 Roundhay Road, Leeds", "LS7 1AB", "leeds",
     "2026-12-04", "2026-12-22", "processing"),
    ("OF20119", "C319", "9 Tadcaster Road, York", "YO24 1AB", "york",
     "2026-11-26", "2026-12-17", "dispatched"),
    ("OF20120", "C320", "18 Savile Park, Halifax", "HX1 2XR", "leeds",
     "2026-11-16", "2026-12-07", "delivered"),
    ("OF20121", "C321", "7 Kirkstall Lane, Leeds", "LS5 3BE", "leeds",
     "2026-12-09", "2027-01-05", "processing"),
    ("OF20122", "C322", "45 Lidget Street, Huddersfield", "HD1 4EA", "leeds",
     "2026-12-01", "2026-12-21", "processing"),
    ("OF20123", "C323", "10 Hyde Park Road, Leeds", "LS6 1AG", "leeds",
     "2026-11-28", "2026-12-18", "processing"),
]

# item, order, name, kind, price, flat pack, made to order, clearance
ITEMS = [
    ("I501", "OF20101", "Alder three-door wardrobe", "wardrobe", 64900, 1, 0, 0),
    ("I502", "OF20102", "Hove dining table", "dining table", 54900, 1, 0, 0),
    ("I503", "OF20103", "Linden king bed frame", "bed frame", 44900, 1, 0, 0),
    ("I504", "OF20104", "Calder armchair", "armchair", 32900, 0, 0, 0),
    ("I505", "OF20105", "Alder two-door wardrobe", "wardrobe", 49900, 1, 0, 0),
    ("I506", "OF20106", "Brook bookcase", "bookcase", 17900, 1, 0, 0),
    ("I507", "OF20107", "Hove dining table", "dining table", 54900, 1, 0, 0),
    ("I508", "OF20107", "Hove dining chair", "chair", 8900, 0, 0, 0),
    ("I509", "OF20108", "Linden double bed frame", "bed frame", 39900, 1, 0, 0),
    ("I510", "OF20109", "Brook bookcase", "bookcase", 17900, 1, 0, 0),
    ("I511", "OF20110", "Calder armchair", "armchair", 32900, 0, 0, 0),
    ("I512", "OF20111", "Marlow three-seater sofa in Moss velvet", "sofa", 129900, 0, 1, 0),
    ("I513", "OF20112", "Alder chest of drawers", "chest of drawers", 28900, 1, 0, 0),
    ("I514", "OF20112", "Brook bedside table", "bedside table", 11900, 1, 0, 0),
    ("I515", "OF20113", "Ives sideboard", "sideboard", 39900, 1, 0, 0),
    ("I516", "OF20114", "Linden single bed frame", "bed frame", 24900, 1, 0, 0),
    ("I517", "OF20115", "Calder footstool", "footstool", 9900, 0, 0, 0),
    ("I518", "OF20116", "Hove desk", "desk", 19900, 1, 0, 0),
    ("I519", "OF20117", "Marlow corner sofa in Slate linen", "sofa", 120000, 0, 1, 0),
    ("I520", "OF20117", "Marlow footstool", "footstool", 15000, 0, 0, 0),
    ("I521", "OF20118", "Alder three-door wardrobe", "wardrobe", 64900, 1, 0, 0),
    ("I522", "OF20118", "Alder chest of drawers", "chest of drawers", 28900, 1, 0, 0),
    ("I523", "OF20119", "Linden king bed frame", "bed frame", 44900, 1, 0, 0),
    ("I524", "OF20120", "Ives coffee table", "coffee table", 7900, 1, 0, 1),
    ("I525", "OF20121", "Hove dining table", "dining table", 54900, 1, 0, 0),
    ("I526", "OF20122", "Brook bookcase", "bookcase", 17900, 1, 0, 0),
    ("I527", "OF20123", "Calder sofa bed", "sofa bed", 69900, 0, 0, 0),
]

# days with no van space left, by zone
FULL_DAYS = [("leeds", "2026-12-23"), ("york", "2026-12-23"), ("sheffield", "2026-12-24")]
# fmt: on


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO customers VALUES (?,?,?,?,?)", CUSTOMERS)
    db.executemany("INSERT INTO orders VALUES (?,?,?,?,?,?,?,?)", ORDERS)
    db.executemany("INSERT INTO items VALUES (?,?,?,?,?,?,?,?)", ITEMS)
    db.executemany("INSERT INTO full_days VALUES (?,?)", FULL_DAYS)
