"""The council's allotment register the desk works through: `AllotmentEnvironment` and its tools."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from benchmarks.domains.allotment import _seed
from vistasim.env import SqliteEnvironment, ToolFailure, tool

REFERENCE_RE = re.compile(r"^(?:SP|PC|UC|ESA|JSA)-\d{6,9}$")


def money(pence: int) -> str:
    return f"£{pence / 100:,.2f}"


def norm_tenancy(text: str) -> str:
    return "GA" + re.sub(r"\D", "", text)


def norm_postcode(text: str) -> str:
    return re.sub(r"\s", "", text).upper()


def add_month(day: date) -> date:
    """The same day next month (the last day of a shorter month)."""
    year, month = (day.year + 1, 1) if day.month == 12 else (day.year, day.month + 1)
    for d in (day.day, 30, 29, 28):
        try:
            return date(year, month, d)
        except ValueError:
            continue
    raise ValueError(day)


def total(inv: dict[str, Any]) -> int:
    """What an invoice comes to (before any late fee)."""
    return int(inv["rent_pence"] + inv["water_pence"] + inv["other_pence"]
               - inv["discount_pence"])  # fmt: skip


class Tenancy(BaseModel):
    tenancy_id: str = Field(description="The tenancy number, e.g. GA2006")


class Verify(Tenancy):
    postcode: str = Field(description="The postcode on the allotment register")


class SiteRef(BaseModel):
    site: str = Field(description="Hill Road, Mill Lane or Church Fields")


class ListEntry(Tenancy):
    site: str = Field(description="Hill Road, Mill Lane or Church Fields")


class Payment(Tenancy):
    invoice_id: str = Field(description="e.g. INV-7006")
    late_fee_pence: int = Field(description="The late fee the desk quoted (0 when on time)")
    amount_pence: int = Field(description="The whole amount taken from the card on file")


class Concession(Tenancy):
    invoice_id: str = Field(description="The unpaid rent invoice, e.g. INV-7008")
    reference: str = Field(description="The pension or benefit reference, e.g. SP-448210")
    discount_pence: int = Field(description="The discount the desk quoted")


class Extra(Tenancy):
    kind: str = Field(description="shed or compost_bin")
    price_pence: int = Field(description="The year's price the desk quoted")


class Coworker(Tenancy):
    name: str = Field(description="The co-worker's full name")


class GateKey(Tenancy):
    holder: str = Field(description="The tenant's or a registered co-worker's full name")
    deposit_pence: int = Field(description="The deposit the desk quoted")


class Appeal(Tenancy):
    inspection_id: str = Field(description="e.g. INS-311")
    reason: str = Field(description="The tenant's reason, in their words")


class GiveUp(Tenancy):
    end_date: str = Field(description="The day the tenancy ends, YYYY-MM-DD (a month's notice)")
    refund_pence: int = Field(description="The refund the desk quoted (0 if none)")


class Contact(Tenancy):
    phone: str | None = Field(default=None, description="New phone number")
    email: str | None = Field(default=None, description="New email address")


class AllotmentEnvironment(SqliteEnvironment):
    """Greenacre Allotments: tenants, plots, waiting lists, invoices, inspections, keys."""

    SCHEMA_SQL: ClassVar[str] = _seed.SCHEMA_SQL
    LEXICON: ClassVar[dict[str, list[str]]] = {
        "tenancy_id": ["tenancy number", "reference number"],
        "postcode": ["postcode", "post code"],
        "site": ["which site", "which allotment site"],
        "reference": ["pension or benefit reference", "award letter"],
        "coworker_name": ["co-worker's name", "full name"],
        "phone": ["new number", "phone number"],
        "email": ["email address"],
        "end_date": ["which day", "end date"],
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

    def _tenant(self, tenancy_id: str) -> dict[str, Any]:
        found = self._one("SELECT * FROM tenants WHERE tenancy_id = ?", norm_tenancy(tenancy_id))
        if found is None:
            raise ToolFailure(f"no tenancy {tenancy_id}")
        return found

    def _plot(self, t: dict[str, Any]) -> dict[str, Any]:
        p = self._one("SELECT * FROM plots WHERE tenancy_id = ? AND status != 'vacant'",
                      t["tenancy_id"])  # fmt: skip
        if p is None:
            raise ToolFailure(f"{t['tenancy_id']} has no plot")
        return p

    @staticmethod
    def _site(site: str) -> str:
        for name in _seed.SITES:
            if name.lower() == site.strip().lower():
                return name
        raise ToolFailure(f"no site {site!r}: Hill Road, Mill Lane or Church Fields")

    def _charge(self, t: dict[str, Any], kind: str, pence: int, ref: str) -> None:
        if pence:
            self.db.execute(
                "INSERT INTO charges (tenancy_id, kind, amount_pence, ref, created_at) "
                "VALUES (?,?,?,?,?)",
                (t["tenancy_id"], kind, pence, ref, self.now().strftime(_seed.STAMP)),
            )

    def waiting(self, site: str) -> list[dict[str, Any]]:
        """A site's list in order, with each household (staff only: names and addresses)."""
        rows = self._rows(
            "SELECT w.entry_id, w.site, w.tenancy_id, w.joined, t.name, t.address "
            "FROM waiting_list w JOIN tenants t USING (tenancy_id) "
            "WHERE w.site = ? AND w.status = 'waiting' ORDER BY w.joined, w.entry_id",
            site,
        )
        for n, r in enumerate(rows, 1):
            r["position"] = n
        return rows

    def view(self, tenancy_id: str) -> dict[str, Any]:
        """The register as staff see it for one person: plot, list entries, invoices, more."""
        t = self._tenant(tenancy_id)
        tid = t["tenancy_id"]
        plot = self._one("SELECT * FROM plots WHERE tenancy_id = ? AND status != 'vacant'", tid)
        entries = []
        for e in self._rows("SELECT * FROM waiting_list WHERE tenancy_id = ? AND "
                            "status = 'waiting'", tid):  # fmt: skip
            listed = self.waiting(e["site"])
            e["position"] = next(r["position"] for r in listed if r["entry_id"] == e["entry_id"])
            e["of"] = len(listed)
            entries.append(e)
        invoices = self._rows("SELECT * FROM invoices WHERE tenancy_id = ? ORDER BY year, "
                              "invoice_id", tid)  # fmt: skip
        for inv in invoices:
            inv["total_pence"] = total(inv)
        inspections = self._rows("SELECT * FROM inspections WHERE tenancy_id = ? ORDER BY "
                                 "inspected_on", tid)  # fmt: skip
        for i in inspections:
            i["days_ago"] = (self.now().date() - date.fromisoformat(i["inspected_on"])).days
        return {
            **t,
            "plot": plot,
            "entries": entries,
            "invoices": invoices,
            "extras": self._rows("SELECT * FROM extras WHERE tenancy_id = ?", tid),
            "coworkers": self._rows("SELECT * FROM coworkers WHERE tenancy_id = ?", tid),
            "keys": self._rows("SELECT * FROM gate_keys WHERE tenancy_id = ?", tid),
            "inspections": inspections,
            "vacant": self._rows("SELECT * FROM plots WHERE status = 'vacant'"),
        }

    # -- reads -----------------------------------------------------------------------------
    @tool(
        "Check the caller's identity: the tenancy number and the postcode on the register "
        "must match. Returns the register entry."
    )
    def verify_tenant(self, args: Verify) -> dict[str, Any]:
        t = self._one("SELECT tenancy_id, postcode FROM tenants WHERE tenancy_id = ?",
                      norm_tenancy(args.tenancy_id))  # fmt: skip
        if t is None or norm_postcode(t["postcode"]) != norm_postcode(args.postcode):
            raise ToolFailure("verification failed: no tenancy matches that number and postcode")
        return self.view(t["tenancy_id"])

    @tool("Read a person's register entry (staff view, after verify_tenant only).")
    def get_account(self, args: Tenancy) -> dict[str, Any]:
        return self.view(args.tenancy_id)

    @tool(
        "A site's waiting list in order, with names and addresses (staff only: never read "
        "out who else is on a list)."
    )
    def get_waiting_list(self, args: SiteRef) -> dict[str, Any]:
        site = self._site(args.site)
        return {"site": site, "entries": self.waiting(site)}

    # -- writes ----------------------------------------------------------------------------
    @tool(
        "Put the person on a site's waiting list. Refuses a second entry for the same person "
        "on that site; it does not check the one-entry-per-household rule: the desk must."
    )
    def join_waiting_list(self, args: ListEntry) -> dict[str, Any]:
        t = self._tenant(args.tenancy_id)
        site = self._site(args.site)
        if self._one("SELECT 1 AS x FROM waiting_list WHERE tenancy_id = ? AND site = ? AND "
                     "status = 'waiting'", t["tenancy_id"], site):  # fmt: skip
            raise ToolFailure(f"{t['tenancy_id']} is already on the {site} list")
        self.db.execute(
            "INSERT INTO waiting_list (site, tenancy_id, joined) VALUES (?,?,?)",
            (site, t["tenancy_id"], self.now().date().isoformat()),
        )
        return {"site": site, "position": len(self.waiting(site)), "joined": str(self.now().date())}

    @tool("Take the person off a site's waiting list.")
    def leave_waiting_list(self, args: ListEntry) -> dict[str, Any]:
        t = self._tenant(args.tenancy_id)
        site = self._site(args.site)
        e = self._one("SELECT * FROM waiting_list WHERE tenancy_id = ? AND site = ? AND status = "
                      "'waiting'", t["tenancy_id"], site)  # fmt: skip
        if e is None:
            raise ToolFailure(f"{t['tenancy_id']} is not on the {site} list")
        self.db.execute("UPDATE waiting_list SET status = 'left' WHERE entry_id = ?",
                        (e["entry_id"],))  # fmt: skip
        return {"site": site, "status": "left"}

    @tool(
        "Pay an invoice with the card on file: amount_pence (the invoice plus any late fee the "
        "desk quoted) is taken. Refuses a paid or cancelled invoice; a declined card fails."
    )
    def pay_invoice(self, args: Payment) -> dict[str, Any]:
        t = self._tenant(args.tenancy_id)
        inv = self._one("SELECT * FROM invoices WHERE invoice_id = ? AND tenancy_id = ?",
                        args.invoice_id.strip().upper(), t["tenancy_id"])  # fmt: skip
        if inv is None:
            raise ToolFailure(f"no invoice {args.invoice_id} for this tenancy")
        if inv["status"] != "unpaid":
            raise ToolFailure(f"invoice {inv['invoice_id']} is {inv['status']}")
        if not t["card_ok"]:
            raise ToolFailure(f"the card ending {t['card_last4']} was declined by the bank")
        self.db.execute(
            "UPDATE invoices SET status = 'paid', late_fee_pence = ? WHERE invoice_id = ?",
            (args.late_fee_pence, inv["invoice_id"]),
        )
        self._charge(t, "payment", args.amount_pence, inv["invoice_id"])
        return {"invoice_id": inv["invoice_id"], "status": "paid",
                "taken": money(args.amount_pence), "late_fee": money(args.late_fee_pence),
                "card_last4": t["card_last4"]}  # fmt: skip

    @tool(
        "Apply the concession to an unpaid rent invoice, with a pension or benefit reference "
        "(SP-, PC-, UC-, ESA- or JSA- and digits). The system does not check the amount."
    )
    def apply_concession(self, args: Concession) -> dict[str, Any]:
        t = self._tenant(args.tenancy_id)
        ref = args.reference.strip().upper()
        if not REFERENCE_RE.fullmatch(ref):
            raise ToolFailure(f"{args.reference!r} is not a pension or benefit reference")
        inv = self._one("SELECT * FROM invoices WHERE invoice_id = ? AND tenancy_id = ?",
                        args.invoice_id.strip().upper(), t["tenancy_id"])  # fmt: skip
        if inv is None or inv["kind"] != "rent" or inv["status"] != "unpaid":
            raise ToolFailure(f"{args.invoice_id} is not an unpaid rent invoice")
        self.db.execute("UPDATE invoices SET discount_pence = ? WHERE invoice_id = ?",
                        (args.discount_pence, inv["invoice_id"]))  # fmt: skip
        self.db.execute("UPDATE tenants SET concession_ref = ? WHERE tenancy_id = ?",
                        (ref, t["tenancy_id"]))  # fmt: skip
        inv["discount_pence"] = args.discount_pence
        return {"invoice_id": inv["invoice_id"], "discount": money(args.discount_pence),
                "now_due": money(total(inv)), "due": inv["due"]}  # fmt: skip

    @tool(
        "Rent a council shed (full plots only) or a compost bin for the year; one of each per "
        "plot. A new invoice is raised, due in 30 days."
    )
    def rent_extra(self, args: Extra) -> dict[str, Any]:
        t = self._tenant(args.tenancy_id)
        p = self._plot(t)
        kind = args.kind.strip().lower().replace(" ", "_")
        if kind not in _seed.EXTRAS:
            raise ToolFailure("kind must be shed or compost_bin")
        if kind == "shed" and p["size"] != "full":
            raise ToolFailure("sheds are only allowed on full plots")
        if self._one("SELECT 1 AS x FROM extras WHERE plot_id = ? AND kind = ?", p["plot_id"],
                     kind):  # fmt: skip
            raise ToolFailure(f"plot {p['plot_id']} already has a {kind.replace('_', ' ')}")
        self.db.execute(
            "INSERT INTO extras (tenancy_id, plot_id, kind, price_pence) VALUES (?,?,?,?)",
            (t["tenancy_id"], p["plot_id"], kind, args.price_pence),
        )
        last = self.db.execute("SELECT MAX(CAST(substr(invoice_id, 5) AS INTEGER)) FROM invoices")
        invoice_id = f"INV-{max(last.fetchone()[0] or 0, 7200) + 1}"
        today = self.now().date()
        due = (today + timedelta(days=_seed.EXTRA_DUE_DAYS)).isoformat()
        self.db.execute(
            "INSERT INTO invoices (invoice_id, tenancy_id, year, kind, other_pence, issued, due) "
            "VALUES (?,?,?,?,?,?,?)",
            (invoice_id, t["tenancy_id"], _seed.RENT_YEAR, kind, args.price_pence,
             today.isoformat(), due),
        )  # fmt: skip
        return {"plot_id": p["plot_id"], "kind": kind, "price": money(args.price_pence),
                "invoice_id": invoice_id, "due": due}  # fmt: skip

    @tool("Register a co-worker on the tenant's plot (two at most).")
    def add_coworker(self, args: Coworker) -> dict[str, Any]:
        t = self._tenant(args.tenancy_id)
        p = self._plot(t)
        have = self._rows("SELECT * FROM coworkers WHERE tenancy_id = ?", t["tenancy_id"])
        if len(have) >= _seed.MAX_COWORKERS:
            raise ToolFailure(f"plot {p['plot_id']} already has two co-workers")
        name = " ".join(args.name.split())
        if len(name.split()) < 2:
            raise ToolFailure("a co-worker is registered by full name")
        self.db.execute("INSERT INTO coworkers (tenancy_id, name) VALUES (?,?)",
                        (t["tenancy_id"], name))  # fmt: skip
        return {"plot_id": p["plot_id"], "coworkers": [c["name"] for c in have] + [name]}

    @tool(
        "Issue a gate key to the tenant or a registered co-worker; deposit_pence is taken "
        "from the card on file."
    )
    def order_gate_key(self, args: GateKey) -> dict[str, Any]:
        t = self._tenant(args.tenancy_id)
        p = self._plot(t)
        names = {t["name"].lower()} | {
            c["name"].lower()
            for c in self._rows("SELECT * FROM coworkers WHERE tenancy_id = ?", t["tenancy_id"])
        }
        holder = " ".join(args.holder.split())
        if holder.lower() not in names:
            raise ToolFailure(f"{holder} is neither the tenant nor a registered co-worker")
        self.db.execute(
            "INSERT INTO gate_keys (tenancy_id, holder, deposit_pence) VALUES (?,?,?)",
            (t["tenancy_id"], holder, args.deposit_pence),
        )
        self._charge(t, "key_deposit", args.deposit_pence, p["plot_id"])
        return {"holder": holder, "site": p["site"], "deposit": money(args.deposit_pence),
                "card_last4": t["card_last4"]}  # fmt: skip

    @tool(
        "Lodge an appeal against an inspection warning. The system does not check the 14-day "
        "window: the desk must."
    )
    def lodge_appeal(self, args: Appeal) -> dict[str, Any]:
        t = self._tenant(args.tenancy_id)
        i = self._one("SELECT * FROM inspections WHERE inspection_id = ? AND tenancy_id = ?",
                      args.inspection_id.strip().upper(), t["tenancy_id"])  # fmt: skip
        if i is None or i["outcome"] != "warning":
            raise ToolFailure(f"no warning {args.inspection_id} for this tenancy")
        if i["appeal"]:
            raise ToolFailure(f"an appeal against {i['inspection_id']} is already lodged")
        self.db.execute("UPDATE inspections SET appeal = 'lodged' WHERE inspection_id = ?",
                        (i["inspection_id"],))  # fmt: skip
        return {"inspection_id": i["inspection_id"], "appeal": "lodged",
                "reason": args.reason.strip()[:200]}  # fmt: skip

    @tool(
        "Give notice on the tenant's plot: the tenancy ends on end_date (at least a month "
        "away). refund_pence goes to the card; unpaid invoices for years the tenancy will "
        "not reach 1 March in are cancelled. The system does not check the refund rule."
    )
    def give_up_plot(self, args: GiveUp) -> dict[str, Any]:
        t = self._tenant(args.tenancy_id)
        p = self._plot(t)
        end = date.fromisoformat(args.end_date)
        if end < add_month(self.now().date()):
            raise ToolFailure("a tenancy needs a month's notice")
        if p["status"] == "notice":
            raise ToolFailure(f"notice has already been given on {p['plot_id']}")
        self.db.execute("UPDATE plots SET status = 'notice', end_date = ? WHERE plot_id = ?",
                        (end.isoformat(), p["plot_id"]))  # fmt: skip
        cutoff = date(end.year, *_seed.REFUND_CUTOFF)
        year = end.year if end < cutoff else end.year + 1
        self.db.execute("UPDATE invoices SET status = 'void' WHERE tenancy_id = ? AND year >= ? "
                        "AND status = 'unpaid'", (t["tenancy_id"], year))  # fmt: skip
        if args.refund_pence:
            self.db.execute("UPDATE invoices SET status = 'refunded' WHERE tenancy_id = ? AND "
                            "year >= ? AND status = 'paid'", (t["tenancy_id"], year))  # fmt: skip
        self._charge(t, "refund", args.refund_pence, p["plot_id"])
        return {"plot_id": p["plot_id"], "ends": end.isoformat(),
                "refunded": money(args.refund_pence), "card_last4": t["card_last4"]}  # fmt: skip

    @tool(
        "Swap the tenant's plot for a vacant plot of the same size on the site of their "
        "waiting-list entry; the entry is closed. The system does not check the position on "
        "the list: the desk must."
    )
    def swap_plot(self, args: ListEntry) -> dict[str, Any]:
        t = self._tenant(args.tenancy_id)
        p = self._plot(t)
        site = self._site(args.site)
        e = self._one("SELECT * FROM waiting_list WHERE tenancy_id = ? AND site = ? AND status = "
                      "'waiting'", t["tenancy_id"], site)  # fmt: skip
        if e is None:
            raise ToolFailure(f"{t['tenancy_id']} is not on the {site} list")
        new = self._one("SELECT * FROM plots WHERE site = ? AND size = ? AND status = 'vacant' "
                        "ORDER BY plot_id", site, p["size"])  # fmt: skip
        if new is None:
            raise ToolFailure(f"no vacant {p['size']} plot at {site}")
        self.db.execute("UPDATE plots SET tenancy_id = NULL, status = 'vacant' WHERE plot_id = ?",
                        (p["plot_id"],))  # fmt: skip
        self.db.execute("UPDATE plots SET tenancy_id = ?, status = 'let' WHERE plot_id = ?",
                        (t["tenancy_id"], new["plot_id"]))  # fmt: skip
        self.db.execute("UPDATE waiting_list SET status = 'housed' WHERE entry_id = ?",
                        (e["entry_id"],))  # fmt: skip
        return {"old_plot": p["plot_id"], "new_plot": new["plot_id"], "site": site,
                "area_m2": new["area_m2"]}  # fmt: skip

    @tool("Change the phone number and/or email address on the register.")
    def update_contact(self, args: Contact) -> dict[str, Any]:
        t = self._tenant(args.tenancy_id)
        if args.phone is not None:
            if len(re.sub(r"\D", "", args.phone)) != 11:
                raise ToolFailure(f"{args.phone!r} is not a UK phone number")
            self.db.execute("UPDATE tenants SET phone = ? WHERE tenancy_id = ?",
                            (args.phone.strip(), t["tenancy_id"]))  # fmt: skip
        if args.email is not None:
            if not re.fullmatch(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", args.email.strip()):
                raise ToolFailure(f"{args.email!r} is not an email address")
            self.db.execute("UPDATE tenants SET email = ? WHERE tenancy_id = ?",
                            (args.email.strip(), t["tenancy_id"]))  # fmt: skip
        now = self._tenant(t["tenancy_id"])
        return {"phone": now["phone"], "email": now["email"]}


def make_environment() -> AllotmentEnvironment:
    """A fresh register, from the seed data."""
    return AllotmentEnvironment()
