-- The shop's state: catalog, customers, orders and everything support can change.
-- Money is in integer cents; dates are ISO strings relative to the domain's fixed TODAY.

CREATE TABLE customers (
    id TEXT PRIMARY KEY,                 -- 'C1001'
    name TEXT NOT NULL,
    email TEXT NOT NULL UNIQUE,
    phone TEXT NOT NULL,
    address_line TEXT NOT NULL,
    city TEXT NOT NULL,
    zip TEXT NOT NULL,
    member_since TEXT NOT NULL
);

CREATE TABLE payment_methods (
    id TEXT PRIMARY KEY,                 -- 'PM2001'
    customer_id TEXT NOT NULL REFERENCES customers(id),
    kind TEXT NOT NULL CHECK (kind IN ('card', 'paypal', 'gift_card')),
    label TEXT NOT NULL,                 -- 'Visa ending 4242'
    balance_cents INTEGER NOT NULL DEFAULT 0  -- gift cards only
);

CREATE TABLE products (
    id TEXT PRIMARY KEY,                 -- 'P001'
    name TEXT NOT NULL,
    category TEXT NOT NULL,
    description TEXT NOT NULL,
    final_sale INTEGER NOT NULL DEFAULT 0 CHECK (final_sale IN (0, 1))
);

CREATE TABLE variants (
    sku TEXT PRIMARY KEY,                -- 'P001-RED'
    product_id TEXT NOT NULL REFERENCES products(id),
    option TEXT NOT NULL,                -- 'Red', 'M / Blue'
    price_cents INTEGER NOT NULL CHECK (price_cents > 0),
    stock INTEGER NOT NULL CHECK (stock >= 0)
);

CREATE TABLE coupons (
    code TEXT PRIMARY KEY,
    percent_off INTEGER NOT NULL CHECK (percent_off BETWEEN 1 AND 50),
    min_subtotal_cents INTEGER NOT NULL DEFAULT 0,
    expires_on TEXT NOT NULL
);

CREATE TABLE orders (
    id TEXT PRIMARY KEY,                 -- 'W1001'
    customer_id TEXT NOT NULL REFERENCES customers(id),
    status TEXT NOT NULL CHECK (status IN
        ('pending', 'processing', 'shipped', 'delivered', 'cancelled')),
    placed_on TEXT NOT NULL,
    delivered_on TEXT,
    payment_method_id TEXT NOT NULL REFERENCES payment_methods(id),
    address_line TEXT NOT NULL,
    city TEXT NOT NULL,
    zip TEXT NOT NULL,
    coupon_code TEXT REFERENCES coupons(code),
    discount_cents INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE order_items (
    order_id TEXT NOT NULL REFERENCES orders(id),
    sku TEXT NOT NULL REFERENCES variants(sku),
    product_name TEXT NOT NULL,
    quantity INTEGER NOT NULL CHECK (quantity > 0),
    unit_price_cents INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN
        ('ordered', 'cancelled', 'return_requested', 'exchange_requested')),
    PRIMARY KEY (order_id, sku)
);

CREATE TABLE shipments (
    tracking_number TEXT PRIMARY KEY,
    order_id TEXT NOT NULL REFERENCES orders(id),
    carrier TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('label_created', 'in_transit', 'delivered')),
    last_update TEXT NOT NULL,
    eta TEXT
);

CREATE TABLE refunds (
    id INTEGER PRIMARY KEY,
    order_id TEXT NOT NULL REFERENCES orders(id),
    amount_cents INTEGER NOT NULL CHECK (amount_cents >= 0),
    method TEXT NOT NULL CHECK (method IN ('original_payment', 'gift_card')),
    status TEXT NOT NULL CHECK (status IN ('pending', 'issued')),
    reason TEXT NOT NULL,
    created_on TEXT NOT NULL
);

CREATE TABLE exchanges (
    id INTEGER PRIMARY KEY,
    order_id TEXT NOT NULL REFERENCES orders(id),
    old_sku TEXT NOT NULL REFERENCES variants(sku),
    new_sku TEXT NOT NULL REFERENCES variants(sku),
    reason TEXT NOT NULL,
    created_on TEXT NOT NULL
);

CREATE TABLE escalations (
    id INTEGER PRIMARY KEY,
    customer_id TEXT REFERENCES customers(id),
    order_id TEXT REFERENCES orders(id),
    summary TEXT NOT NULL,
    created_on TEXT NOT NULL
);

CREATE TABLE cart_items (
    customer_id TEXT NOT NULL REFERENCES customers(id),
    sku TEXT NOT NULL REFERENCES variants(sku),
    quantity INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 10),
    PRIMARY KEY (customer_id, sku)
);
