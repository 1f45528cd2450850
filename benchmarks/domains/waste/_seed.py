"""Marlow Vale Council, Waste & Recycling: schema, the fixed clock, prices, rules and the seed.

The desk's clock is fixed at Monday 7 December 2026, 10:00 (UK, GMT). Working days are Monday to
Friday (there is no bank holiday before Christmas). Residents are identified by their
council-tax account number (eight digits, starting 60, often said "6041 8273") and the
property's postcode (MV and a district, e.g. "MV3 7QT").
"""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

UK = ZoneInfo("Europe/London")
NOW = datetime(2026, 12, 7, 10, 0, tzinfo=UK)
STAMP = "%Y-%m-%d %H:%M"
PHONE = "01632 870 400"

# bulky waste: a price per item by band; fridges and freezers are their own band
BANDS = {"small": 1200, "large": 2200, "fridge": 3800}
MAX_ITEMS = 5  # items per booking
NOTICE_DAYS = 2  # bookings, moves and free cancellations need 2 working days' notice
MOVE_FEE_PENCE = 1000  # a move inside the notice period
# what each item is; anything not listed is refused at the desk
ITEMS = {
    "sofa": "large", "settee": "large", "armchair": "small", "chair": "small",
    "wardrobe": "large", "mattress": "large", "bed": "large", "table": "small",
    "desk": "small", "microwave": "small", "television": "small", "tv": "small",
    "bike": "small", "bicycle": "small", "chest of drawers": "large",
    "washing machine": "large", "dishwasher": "large", "cooker": "large",
    "fridge freezer": "fridge", "fridge": "fridge", "freezer": "fridge",
}  # fmt: skip
REFUSED = ("asbestos", "rubble", "tyre", "paint", "gas bottle", "plasterboard", "oil")

# garden waste: an annual subscription per bin to 31 March, never pro-rata
GARDEN_FIRST_PENCE = 5200
GARDEN_SECOND_PENCE = 3500  # a second bin at the same property (the most there can be)
GARDEN_CONCESSION_PENCE = 2600  # the first bin, with a council-tax-reduction reference
GARDEN_END = "2027-03-31"
MAX_GARDEN_BINS = 2

MISSED_DAYS = 2  # a missed bin is reported within 2 working days of the scheduled day
RETURN_DAYS = 2  # the crew returns within 2 working days of a report

# bins: (bin, reason) -> price; ("grey", "extra") is refused: one grey bin per household
BIN_PRICES = {
    ("blue", "replacement"): 0, ("blue", "extra"): 1500,
    ("food", "replacement"): 0, ("food", "extra"): 0,
    ("grey", "replacement"): 2800,
}  # fmt: skip
BIN_NAMES = {"blue": "blue recycling bin", "grey": "grey general-waste bin",
             "food": "food-waste caddy", "green": "green garden-waste bin"}  # fmt: skip
DELIVERY_DAYS = 10  # bins are delivered within 10 working days


def is_working(d: date) -> bool:
    return d.weekday() < 5


def add_working_days(d: date, n: int) -> date:
    while n > 0:
        d += timedelta(days=1)
        n -= is_working(d)
    return d


def working_days_between(first: date, last: date) -> int:
    """Working days after `first`, up to and including `last` (0 when last <= first)."""
    count, d = 0, first
    while d < last:
        d += timedelta(days=1)
        count += is_working(d)
    return count


SCHEMA_SQL = """
CREATE TABLE rounds (
    round_id TEXT PRIMARY KEY,                -- RND-T4
    bin_day TEXT NOT NULL,                    -- weekday of the bin collections
    bulky_day TEXT NOT NULL                   -- weekday of the bulky-waste collections
);
CREATE TABLE accounts (
    account_id TEXT PRIMARY KEY,              -- 60418273 (council-tax account)
    name TEXT NOT NULL,
    address TEXT NOT NULL,
    postcode TEXT NOT NULL,
    round_id TEXT NOT NULL REFERENCES rounds(round_id),
    phone TEXT NOT NULL,
    email TEXT NOT NULL,
    ctr_ref TEXT,                             -- council-tax-reduction reference, CTR-123456
    card_last4 TEXT NOT NULL
);
CREATE TABLE bulky_bookings (
    booking_id TEXT PRIMARY KEY,              -- BLK-40512
    account_id TEXT NOT NULL,
    items TEXT NOT NULL,                      -- "sofa,armchair"
    collect_on TEXT NOT NULL,
    price_pence INTEGER NOT NULL,             -- paid at booking
    status TEXT NOT NULL DEFAULT 'booked'     -- booked / cancelled
);
CREATE TABLE garden_subs (
    sub_id TEXT PRIMARY KEY,                  -- GW-77014 (one per bin)
    account_id TEXT NOT NULL,
    bin_no INTEGER NOT NULL,                  -- 1 or 2
    price_pence INTEGER NOT NULL,
    concession INTEGER NOT NULL DEFAULT 0,
    valid_to TEXT NOT NULL
);
CREATE TABLE collections (
    account_id TEXT NOT NULL,
    bin TEXT NOT NULL,                        -- grey / blue / green / food
    due TEXT NOT NULL,
    outcome TEXT NOT NULL                     -- collected / missed / not_presented
);
CREATE TABLE missed_reports (
    report_id TEXT PRIMARY KEY,               -- MB-2201
    account_id TEXT NOT NULL,
    bin TEXT NOT NULL,
    due TEXT NOT NULL,
    return_by TEXT NOT NULL
);
CREATE TABLE bin_orders (
    order_id TEXT PRIMARY KEY,                -- BO-3301
    account_id TEXT NOT NULL,
    bin TEXT NOT NULL,
    reason TEXT NOT NULL,                     -- replacement / extra
    price_pence INTEGER NOT NULL,
    deliver_by TEXT NOT NULL
);
CREATE TABLE charges (
    charge_id INTEGER PRIMARY KEY,
    account_id TEXT NOT NULL,
    kind TEXT NOT NULL,                       -- bulky / move_fee / refund / garden / bin
    amount_pence INTEGER NOT NULL,
    ref TEXT,
    created_at TEXT NOT NULL
);
"""

# fmt: off
ROUNDS = [
    ("RND-T4", "Friday", "Thursday"),
    ("RND-K2", "Wednesday", "Tuesday"),
]
# account, name, address, postcode, round, ctr ref, card; phones and emails follow from them
PEOPLE = [
    ("60418201", "Helen Marsh", "4 Kiln Lane", "MV3 7QT", "RND-T4", None, "3302"),
    ("60418202", "Derek Oyelaran", "12 Mill Rise", "MV3 7QU", "RND-T4", None, "7781"),
    ("60418203", "Sunita Rao", "9 Orchard Close", "MV3 8AB", "RND-T4", None, "1146"),
    ("60418204", "Colin Budd", "31 Weir Street", "MV5 2LX", "RND-K2", None, "9023"),
    ("60418205", "Maggie Thorne", "7 Chapel Row", "MV3 7QT", "RND-T4", None, "5530"),
    ("60418206", "Kwame Asante", "22 Ferry Road", "MV5 2LY", "RND-K2", None, "6617"),
    ("60418207", "Lorna Fitch", "3 Beech Walk", "MV3 8AD", "RND-T4", None, "4410"),
    ("60418208", "Bill Strand", "18 Tanner's Yard", "MV5 2NP", "RND-K2", None, "2255"),
    ("60418209", "Jean Peploe", "40 Meadow View", "MV3 9EF", "RND-T4", None, "8088"),
    ("60418210", "Tariq Hussain", "6 Hollins Court", "MV3 9EG", "RND-T4", "CTR-551207", "3194"),
    ("60418211", "Edith Clay", "15 Rope Walk", "MV5 3BQ", "RND-K2", "CTR-551288", "7006"),
    ("60418212", "Pete Marwood", "27 Linnet Way", "MV3 9EH", "RND-T4", None, "1379"),
    ("60418213", "Aoife Brennan", "2 Quarry Bank", "MV5 3BR", "RND-K2", None, "5821"),
    ("60418214", "Graham Lowe", "11 Station Hill", "MV5 3BS", "RND-K2", None, "6402"),
    ("60418215", "Rosa Delgado", "8 Well Lane", "MV3 7QW", "RND-T4", None, "2938"),
    ("60418216", "Neil Ambrose", "19 Castle Mews", "MV3 7QX", "RND-T4", None, "4115"),
    ("60418217", "Fatima Begum", "33 Brook Street", "MV5 2LZ", "RND-K2", None, "8844"),
    ("60418218", "Owain Pryce", "5 Church View", "MV5 2NQ", "RND-K2", None, "3677"),
    ("60418219", "Dorothy Hale", "14 Garden Terrace", "MV3 8AE", "RND-T4", None, "9150"),
    ("60418220", "Sam Kettering", "1 Pump Court", "MV3 8AF", "RND-T4", None, "6262"),
    ("60418221", "Ivy Wren", "24 Lock Street", "MV5 3BT", "RND-K2", None, "7373"),
    ("60418222", "Marcus Webb", "10 Foundry Lane", "MV5 3BU", "RND-K2", None, "1818"),
    ("60418223", "Joyce Ellery", "16 Hatch End", "MV3 9EJ", "RND-T4", None, "4646"),
]
ACCOUNTS = [
    (a, n, addr, pc, rnd, f"07700 900{int(a[-2:]) + 600}", n.lower().replace(" ", ".")
     + "@example.net", ctr, card)
    for a, n, addr, pc, rnd, ctr, card in PEOPLE
]

# booking, account, items, day, price
BULKY = [
    ("BLK-40506", "60418206", "sofa", "2026-12-15", 2200),
    ("BLK-40507", "60418207", "wardrobe,chair", "2026-12-17", 3400),
    ("BLK-40508", "60418208", "mattress", "2026-12-08", 2200),
    ("BLK-40509", "60418209", "bed,table", "2026-12-17", 3400),
    ("BLK-40504", "60418204", "washing machine", "2026-12-08", 2200),
    ("BLK-40519", "60418219", "armchair,chair", "2026-12-10", 2400),
    ("BLK-40522", "60418222", "cooker", "2026-12-15", 2200),
]
# subscription, account, bin number, price, concession
GARDEN = [
    ("GW-77012", "60418212", 1, 5200, 0),
]
# account, bin, due, outcome
COLLECTIONS = [
    ("60418213", "grey", "2026-12-02", "collected"),
    ("60418214", "blue", "2026-12-02", "missed"),
    ("60418215", "grey", "2026-12-04", "missed"),
    ("60418216", "blue", "2026-12-04", "not_presented"),
    ("60418220", "grey", "2026-12-04", "missed"),
    ("60418223", "blue", "2026-12-04", "missed"),
    ("60418223", "grey", "2026-11-27", "collected"),
]
# fmt: on


def seed(db: sqlite3.Connection) -> None:
    """Fill a fresh database with the seed data (the schema is already there)."""
    db.executemany("INSERT INTO rounds VALUES (?,?,?)", ROUNDS)
    db.executemany("INSERT INTO accounts VALUES (?,?,?,?,?,?,?,?,?)", ACCOUNTS)
    db.executemany(
        "INSERT INTO bulky_bookings (booking_id, account_id, items, collect_on, price_pence) "
        "VALUES (?,?,?,?,?)",
        BULKY,
    )
    db.executemany(
        "INSERT INTO garden_subs VALUES (?,?,?,?,?,?)", [(*g, GARDEN_END) for g in GARDEN]
    )
    db.executemany("INSERT INTO collections VALUES (?,?,?,?)", COLLECTIONS)
