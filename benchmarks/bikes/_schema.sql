-- Spoke & Pedal, a city bike-rental desk: stations, the fleet, customers, rentals, reservations,
-- charges and damage reports. Times are local wall-clock ISO strings 'YYYY-MM-DDTHH:MM'; money is
-- integer euro cents. Everything is measured from the desk's fixed "now" (see _seed.NOW).

CREATE TABLE stations (
    id TEXT PRIMARY KEY,                 -- 'ST3'
    name TEXT NOT NULL UNIQUE,           -- 'Riverside Park'
    address TEXT NOT NULL,
    docks INTEGER NOT NULL CHECK (docks > 0)
);

CREATE TABLE rates (
    bike_type TEXT PRIMARY KEY CHECK (bike_type IN ('city', 'e-bike', 'cargo')),
    hourly_cents INTEGER NOT NULL CHECK (hourly_cents > 0),
    daily_cents INTEGER NOT NULL CHECK (daily_cents > 0)
);

CREATE TABLE bikes (
    id TEXT PRIMARY KEY,                 -- 'B117'
    bike_type TEXT NOT NULL REFERENCES rates(bike_type),
    station_id TEXT REFERENCES stations(id),   -- NULL while out on a rental
    status TEXT NOT NULL CHECK (status IN ('available', 'reserved', 'rented', 'maintenance')),
    needs_repair INTEGER NOT NULL DEFAULT 0 CHECK (needs_repair IN (0, 1))
);

CREATE TABLE customers (
    id TEXT PRIMARY KEY,                 -- 'C301'
    name TEXT NOT NULL,
    email TEXT NOT NULL UNIQUE,
    phone TEXT NOT NULL UNIQUE,          -- '+31 6 1234 5601'
    plan TEXT NOT NULL CHECK (plan IN ('pay_as_you_go', 'monthly', 'annual')),
    member_since TEXT NOT NULL
);

CREATE TABLE rentals (
    id TEXT PRIMARY KEY,                 -- 'R204'
    customer_id TEXT NOT NULL REFERENCES customers(id),
    bike_id TEXT NOT NULL REFERENCES bikes(id),
    start_station_id TEXT NOT NULL REFERENCES stations(id),
    start_at TEXT NOT NULL,
    original_due_at TEXT NOT NULL,       -- due time as first booked
    due_at TEXT NOT NULL,                -- current due time, after extensions
    extended_hours INTEGER NOT NULL DEFAULT 0 CHECK (extended_hours >= 0),
    status TEXT NOT NULL CHECK (status IN ('active', 'overdue', 'returned')),
    returned_at TEXT,
    return_station_id TEXT REFERENCES stations(id),
    hourly_rate_cents INTEGER NOT NULL,  -- rates locked in when the rental started
    daily_rate_cents INTEGER NOT NULL
);

CREATE TABLE reservations (
    id TEXT PRIMARY KEY,                 -- 'RS411'
    customer_id TEXT NOT NULL REFERENCES customers(id),
    station_id TEXT NOT NULL REFERENCES stations(id),
    bike_type TEXT NOT NULL REFERENCES rates(bike_type),
    bike_id TEXT REFERENCES bikes(id),   -- the bike set aside for it
    pickup_at TEXT NOT NULL,
    hold_until TEXT NOT NULL,            -- pickup_at + 30 minutes
    status TEXT NOT NULL CHECK (status IN ('held', 'collected', 'cancelled', 'expired')),
    created_at TEXT NOT NULL,
    cancelled_at TEXT
);

CREATE TABLE charges (
    id TEXT PRIMARY KEY,                 -- 'CH7001'
    customer_id TEXT NOT NULL REFERENCES customers(id),
    rental_id TEXT REFERENCES rentals(id),
    reservation_id TEXT REFERENCES reservations(id),
    kind TEXT NOT NULL CHECK (kind IN
        ('rental', 'extension', 'late_fee', 'cancellation_fee', 'damage')),
    amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
    charged_at TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('paid', 'refunded'))
);

CREATE TABLE refunds (
    id TEXT PRIMARY KEY,                 -- 'RF901'
    charge_id TEXT NOT NULL REFERENCES charges(id),
    amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
    reason TEXT NOT NULL,
    refunded_at TEXT NOT NULL
);

CREATE TABLE damage_reports (
    id TEXT PRIMARY KEY,                 -- 'D801'
    rental_id TEXT NOT NULL REFERENCES rentals(id),
    bike_id TEXT NOT NULL REFERENCES bikes(id),
    customer_id TEXT NOT NULL REFERENCES customers(id),
    description TEXT NOT NULL,
    reported_at TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('open', 'closed'))
);

-- Customers whose identity the desk checked in this conversation (by email or phone).
CREATE TABLE desk_verifications (
    customer_id TEXT PRIMARY KEY REFERENCES customers(id),
    method TEXT NOT NULL CHECK (method IN ('email', 'phone')),
    verified_at TEXT NOT NULL
);
