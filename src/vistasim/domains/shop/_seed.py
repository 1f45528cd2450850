"""Deterministic seed data for the shop: a catalog, customers and their order histories.

Everything comes from a fixed `random.Random(0)` and dates count from a fixed `TODAY`, never the
clock, so every episode starts from the same realistic store and scenarios can name its orders.
"""

from __future__ import annotations

import random
import sqlite3
from datetime import date, timedelta

__all__ = ["TODAY", "seed_shop"]

TODAY = date(2026, 3, 16)
"""The shop's fixed "today": return windows and coupon expiry are measured from it."""

# (name, category, base price in dollars, option kind); option kinds are listed in _OPTIONS.
_CATALOG: list[tuple[str, str, int, str]] = [
    ("Aurora Blender", "kitchen", 89, "color"),
    ("Crisp Toaster", "kitchen", 45, "color"),
    ("Brewmaster Coffee Maker", "kitchen", 129, "color"),
    ("Steadfast Chef Knife", "kitchen", 59, "none"),
    ("Cast Iron Skillet", "kitchen", 39, "size_in"),
    ("Glass Food Containers", "kitchen", 29, "pack"),
    ("Electric Kettle", "kitchen", 49, "color"),
    ("Stand Mixer", "kitchen", 279, "color"),
    ("Nonstick Pan Set", "kitchen", 99, "pack"),
    ("Spice Rack", "kitchen", 35, "none"),
    ("Trailrunner Sneakers", "shoes", 119, "shoe"),
    ("City Loafers", "shoes", 139, "shoe"),
    ("Summit Hiking Boots", "shoes", 169, "shoe"),
    ("Beach Sandals", "shoes", 29, "shoe"),
    ("Merino Crew Sweater", "apparel", 89, "size"),
    ("Classic Denim Jacket", "apparel", 109, "size"),
    ("Everyday Tee", "apparel", 19, "size"),
    ("Rain Shell Jacket", "apparel", 149, "size"),
    ("Fleece Hoodie", "apparel", 59, "size"),
    ("Linen Shirt", "apparel", 69, "size"),
    ("Wool Beanie", "apparel", 25, "color"),
    ("Chino Trousers", "apparel", 79, "size"),
    ("Pulse Wireless Earbuds", "electronics", 129, "color"),
    ("Studio Headphones", "electronics", 199, "color"),
    ("Beacon Smart Speaker", "electronics", 99, "color"),
    ("Volt Power Bank", "electronics", 39, "capacity"),
    ("Orbit Fitness Watch", "electronics", 249, "color"),
    ("Lumen Desk Lamp", "electronics", 55, "color"),
    ("Pixel Action Camera", "electronics", 299, "none"),
    ("USB-C Charging Hub", "electronics", 45, "none"),
    ("Mechanical Keyboard", "electronics", 139, "switch"),
    ("Ergo Wireless Mouse", "electronics", 49, "color"),
    ("Terra Yoga Mat", "sports", 45, "color"),
    ("Adjustable Dumbbells", "sports", 229, "weight"),
    ("Trail Daypack", "sports", 79, "color"),
    ("Insulated Water Bottle", "sports", 29, "size_oz"),
    ("Camping Hammock", "sports", 59, "color"),
    ("Road Bike Helmet", "sports", 89, "size"),
    ("Resistance Bands", "sports", 25, "pack"),
    ("Foam Roller", "sports", 35, "none"),
    ("Cotton Bath Towels", "home", 49, "color"),
    ("Down Alternative Pillow", "home", 59, "pillow"),
    ("Weighted Blanket", "home", 129, "weight"),
    ("Scented Candle Trio", "home", 32, "scent"),
    ("Ceramic Planter", "home", 27, "size"),
    ("Linen Duvet Cover", "home", 149, "bed"),
    ("Blackout Curtains", "home", 69, "color"),
    ("Bamboo Cutting Board", "home", 34, "none"),
    ("Wall Clock", "home", 42, "color"),
    ("Storage Baskets", "home", 38, "pack"),
    ("Sunrise Alarm Clock", "home", 79, "none"),
    ("Canvas Tote Bag", "accessories", 22, "color"),
    ("Leather Wallet", "accessories", 65, "color"),
    ("Polarized Sunglasses", "accessories", 89, "color"),
]

_OPTIONS: dict[str, list[str]] = {
    "color": ["Black", "White", "Red", "Blue"],
    "size": ["S", "M", "L", "XL"],
    "shoe": ["8", "9", "10", "11"],
    "size_in": ["10 in", "12 in"],
    "size_oz": ["18 oz", "32 oz"],
    "pack": ["2-pack", "4-pack"],
    "capacity": ["10000 mAh", "20000 mAh"],
    "switch": ["Red switches", "Brown switches"],
    "weight": ["15 lb", "25 lb"],
    "pillow": ["Standard", "King"],
    "bed": ["Queen", "King"],
    "scent": ["Cedar", "Citrus"],
    "none": ["Standard"],
}

_FIRST = [
    "Dana",
    "Miguel",
    "Priya",
    "Jonah",
    "Aisha",
    "Liam",
    "Sofia",
    "Kenji",
    "Grace",
    "Omar",
    "Elena",
    "Marcus",
    "Hannah",
    "Tariq",
    "Chloe",
    "Diego",
    "Mei",
    "Samuel",
    "Ava",
    "Ravi",
    "Nora",
    "Felix",
    "Zara",
    "Theo",
    "Ingrid",
    "Kwame",
    "Lucia",
    "Ethan",
    "Yara",
    "Owen",
    "Fatima",
    "Caleb",
]
_LAST = [
    "Reyes",
    "Alvarez",
    "Shah",
    "Becker",
    "Okafor",
    "Murphy",
    "Rossi",
    "Tanaka",
    "Kim",
    "Haddad",
    "Petrova",
    "Green",
    "Schmidt",
    "Aziz",
    "Dubois",
    "Santos",
    "Chen",
    "Adeyemi",
    "Novak",
    "Iyer",
    "Lindqvist",
    "Wagner",
    "Malik",
    "Baker",
    "Hansen",
    "Mensah",
    "Ortiz",
    "Walsh",
    "Nasser",
    "Brennan",
    "Qureshi",
    "Foster",
]
_STREETS = ["Maple Ave", "Oak St", "Pine Rd", "Cedar Ln", "Elm St", "Harbor Way", "Hill Dr"]
_CITIES = [
    ("Portland", "97201"),
    ("Austin", "78701"),
    ("Denver", "80202"),
    ("Columbus", "43004"),
    ("Raleigh", "27601"),
    ("Madison", "53703"),
    ("Tucson", "85701"),
]
_CARDS = ["Visa", "Mastercard", "Amex"]
# Status of each customer's orders, newest first; cycled so every state is well represented.
_HISTORIES = [
    ["processing", "delivered_recent"],
    ["pending", "delivered_old", "cancelled"],
    ["shipped", "delivered_recent"],
    ["delivered_recent", "delivered_old"],
    ["pending", "processing", "delivered_old"],
    ["processing", "delivered_recent", "cancelled", "delivered_old"],
]
_COUPONS = [
    ("SPRING10", 10, 0, "2026-04-30"),
    ("SAVE20", 20, 10000, "2026-06-30"),
    ("WELCOME5", 5, 0, "2026-12-31"),
    ("BIGSPEND25", 25, 30000, "2026-05-31"),
    ("WINTER15", 15, 0, "2026-02-28"),
]


def seed_shop(db: sqlite3.Connection) -> None:
    """Fill an empty shop database (schema applied) with the deterministic seed data."""
    rng = random.Random(0)
    db.executemany("INSERT INTO coupons VALUES (?, ?, ?, ?)", _COUPONS)
    skus = _seed_catalog(db, rng)
    order_no = 1001
    for index in range(len(_FIRST)):
        customer_id, payment_ids = _seed_customer(db, rng, index)
        for status in _HISTORIES[index % len(_HISTORIES)]:
            _seed_order(db, rng, f"W{order_no}", customer_id, payment_ids[0], status, skus)
            order_no += 1


def _seed_catalog(db: sqlite3.Connection, rng: random.Random) -> list[tuple[str, str, int]]:
    skus: list[tuple[str, str, int]] = []
    for number, (name, category, price, kind) in enumerate(_CATALOG, start=1):
        product_id = f"P{number:03d}"
        final_sale = 1 if number % 9 == 0 else 0
        description = f"{name} from our {category} range."
        if final_sale:
            description += " Clearance item: final sale."
        db.execute(
            "INSERT INTO products VALUES (?, ?, ?, ?, ?)",
            (product_id, name, category, description, final_sale),
        )
        for option in _OPTIONS[kind]:
            sku = f"{product_id}-{_sku_suffix(option)}"
            stock = rng.choice([0, 3, 8, 15, 40]) if kind != "none" else 25
            db.execute(
                "INSERT INTO variants VALUES (?, ?, ?, ?, ?)",
                (sku, product_id, option, price * 100 - 1, stock),
            )
            skus.append((sku, name, price * 100 - 1))
    return skus


def _sku_suffix(option: str) -> str:
    return "".join(ch for ch in option.upper() if ch.isalnum())[:8]


def _seed_customer(db: sqlite3.Connection, rng: random.Random, index: int) -> tuple[str, list[str]]:
    first, last = _FIRST[index], _LAST[index]
    customer_id = f"C{1001 + index}"
    city, zip_code = _CITIES[index % len(_CITIES)]
    street = f"{rng.randint(10, 999)} {rng.choice(_STREETS)}"
    since = (TODAY - timedelta(days=rng.randint(60, 1500))).isoformat()
    db.execute(
        "INSERT INTO customers VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            customer_id,
            f"{first} {last}",
            f"{first.lower()}.{last.lower()}@example.com",
            f"555-{rng.randint(100, 999)}-{rng.randint(1000, 9999)}",
            street,
            city,
            zip_code,
            since,
        ),
    )
    card = f"PM{2001 + index * 2}"
    db.execute(
        "INSERT INTO payment_methods VALUES (?, ?, 'card', ?, 0)",
        (card, customer_id, f"{rng.choice(_CARDS)} ending {rng.randint(1000, 9999)}"),
    )
    payment_ids = [card]
    if index % 3 == 0:
        gift = f"PM{2002 + index * 2}"
        db.execute(
            "INSERT INTO payment_methods VALUES (?, ?, 'gift_card', 'Store gift card', ?)",
            (gift, customer_id, rng.choice([0, 1500, 5000])),
        )
        payment_ids.append(gift)
    return customer_id, payment_ids


def _seed_order(
    db: sqlite3.Connection,
    rng: random.Random,
    order_id: str,
    customer_id: str,
    payment_id: str,
    kind: str,
    skus: list[tuple[str, str, int]],
) -> None:
    status, placed, delivered = _order_dates(rng, kind)
    customer = db.execute(
        "SELECT address_line, city, zip FROM customers WHERE id = ?", (customer_id,)
    ).fetchone()
    db.execute(
        "INSERT INTO orders VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, 0)",
        (
            order_id,
            customer_id,
            status,
            placed.isoformat(),
            delivered.isoformat() if delivered else None,
            payment_id,
            *customer,
        ),
    )
    item_status = "cancelled" if status == "cancelled" else "ordered"
    total = 0
    for sku, name, price in rng.sample(skus, rng.choice([1, 2, 2, 3])):
        quantity = rng.choice([1, 1, 1, 2])
        total += quantity * price
        db.execute(
            "INSERT INTO order_items VALUES (?, ?, ?, ?, ?, ?)",
            (order_id, sku, name, quantity, price, item_status),
        )
    _seed_fulfilment(db, rng, order_id, status, placed, delivered, total)


def _order_dates(rng: random.Random, kind: str) -> tuple[str, date, date | None]:
    if kind == "pending":
        return "pending", TODAY - timedelta(days=rng.randint(0, 1)), None
    if kind == "processing":
        return "processing", TODAY - timedelta(days=rng.randint(1, 3)), None
    if kind == "shipped":
        return "shipped", TODAY - timedelta(days=rng.randint(3, 6)), None
    if kind == "cancelled":
        return "cancelled", TODAY - timedelta(days=rng.randint(20, 90)), None
    age = rng.randint(5, 25) if kind == "delivered_recent" else rng.randint(45, 120)
    placed = TODAY - timedelta(days=age + rng.randint(3, 6))
    return "delivered", placed, TODAY - timedelta(days=age)


def _seed_fulfilment(
    db: sqlite3.Connection,
    rng: random.Random,
    order_id: str,
    status: str,
    placed: date,
    delivered: date | None,
    total: int,
) -> None:
    carrier = rng.choice(["UPS", "FedEx", "USPS"])
    tracking = f"1Z{order_id[1:]}{rng.randint(100000, 999999)}"
    if status == "processing":
        db.execute(
            "INSERT INTO shipments VALUES (?, ?, ?, 'label_created', ?, ?)",
            (
                tracking,
                order_id,
                carrier,
                placed.isoformat(),
                (placed + timedelta(days=6)).isoformat(),
            ),
        )
    elif status == "shipped":
        db.execute(
            "INSERT INTO shipments VALUES (?, ?, ?, 'in_transit', ?, ?)",
            (
                tracking,
                order_id,
                carrier,
                (TODAY - timedelta(days=1)).isoformat(),
                (TODAY + timedelta(days=2)).isoformat(),
            ),
        )
    elif status == "delivered" and delivered is not None:
        db.execute(
            "INSERT INTO shipments VALUES (?, ?, ?, 'delivered', ?, NULL)",
            (tracking, order_id, carrier, delivered.isoformat()),
        )
    elif status == "cancelled":
        db.execute(
            "INSERT INTO refunds (order_id, amount_cents, method, status, reason, created_on)"
            " VALUES (?, ?, 'original_payment', 'issued', 'order cancelled', ?)",
            (order_id, total, (placed + timedelta(days=1)).isoformat()),
        )
