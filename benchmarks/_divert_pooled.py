"""Branching against its baseline over several seeds: one ratio per desk from the summed counts.

One seed's ratio rests on a handful of distinct failures (5 to 20 per desk and row), so it
moves by a third from seed to seed (garage 1.61 / 2.20 / 0.83): whether branching is below
the baseline on a desk cannot be read from one seed. Pooled over seeds, each side's failures
and agent tokens are summed before they are divided (a ratio of rates, not a mean of ratios, so
a seed with few tokens weighs little), and the seeds on which branching was at least the
baseline are counted beside it.

>>> rows = {0: [_row("x", "perturbed-R4", 4, 8), _row("x", "branch-eq-R4", 6, 12)],
...         1: [_row("x", "perturbed-R4", 6, 10), _row("x", "branch-eq-R4", 5, 15)]}
>>> [(p["uniq_x"], p["err_x"], p["uniq_seeds_ahead"]) for p in pooled(rows)]
[(1.1, 1.5, '1/2')]
"""

from __future__ import annotations

__all__ = ["pooled", "print_pooled"]


def pooled(by_seed: dict[int, list[dict]]) -> list[dict]:
    """Per desk and branch row, its pooled figures against the baseline of its budget."""
    out = []
    seeds = sorted(by_seed)
    first = by_seed[seeds[0]]
    for row in first:
        if not row["variant"].startswith("branch-"):
            continue
        pairs = [_pair(by_seed[s], row["domain"], row["variant"]) for s in seeds]
        found = [p for p in pairs if p is not None]
        if len(found) != len(seeds):
            continue  # a seed without the row or its baseline: nothing to pool
        base = found[0][0]["variant"]
        sums = {side: {k: sum(p[i][k] for p in found) for k in ("unique_failures", "failed",
                                                             "agent_tokens")}
                for i, side in enumerate(("base", "branch"))}  # fmt: skip
        out.append({
            "domain": row["domain"], "variant": row["variant"], "baseline": base,
            "seeds": seeds,
            **{f"{side}_{k}": v for side, kv in sums.items() for k, v in kv.items()},
            "uniq_x": _ratio(sums, "unique_failures"), "err_x": _ratio(sums, "failed"),
            "uniq_seeds_ahead": _ahead(found, "unique_per_100k"),
            "err_seeds_ahead": _ahead(found, "err_per_100k"),
        })  # fmt: skip
    return out


def print_pooled(rows: list[dict]) -> None:
    """The pooled table, in the markdown of the per-seed one."""
    head = ("domain", "branch row", "baseline", "seeds", "unique base / branch",
            "failed base / branch", "agent tok base / branch", "Uniq/100K ×", "Err/100K ×",
            "seeds ≥ 1.0x (uniq, Err)")  # fmt: skip
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        cells = [
            r["domain"], r["variant"], r["baseline"], ",".join(map(str, r["seeds"])),
            f"{r['base_unique_failures']} / {r['branch_unique_failures']}",
            f"{r['base_failed']} / {r['branch_failed']}",
            f"{r['base_agent_tokens']:,} / {r['branch_agent_tokens']:,}",
            _fmt(r["uniq_x"]), _fmt(r["err_x"]),
            f"{r['uniq_seeds_ahead']}, {r['err_seeds_ahead']}",
        ]  # fmt: skip
        print("| " + " | ".join(cells) + " |")


def _pair(rows: list[dict], domain: str, variant: str) -> tuple[dict, dict] | None:
    """The branch row and the baseline it was budgeted against (perturbed, else linear)."""
    branch = next((r for r in rows if r["domain"] == domain and r["variant"] == variant), None)
    if branch is None or "budget_of" not in branch:
        return None
    r = branch["budget_of"].removeprefix("linear-")
    mine = [x for x in rows if x["domain"] == domain]
    base = next((x for x in mine if x["variant"] == f"perturbed-{r}"), None) or next(
        (x for x in mine if x["variant"] == f"linear-{r}"), None
    )
    return (base, branch) if base is not None else None


def _ratio(sums: dict[str, dict[str, int]], key: str) -> float | None:
    base, branch = sums["base"], sums["branch"]
    if not base[key] or not base["agent_tokens"] or not branch["agent_tokens"]:
        return None
    rate = (branch[key] / branch["agent_tokens"]) / (base[key] / base["agent_tokens"])
    return round(rate, 2)


def _ahead(pairs: list[tuple[dict, dict]], key: str) -> str:
    ahead = sum(1 for base, branch in pairs if branch[key] >= base[key])
    return f"{ahead}/{len(pairs)}"


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def _row(domain: str, variant: str, unique: int, failed: int, tokens: int = 100_000) -> dict:
    """A per-seed row as `divert.py` writes it, with what pooling reads (for the examples)."""
    row = {"domain": domain, "variant": variant, "unique_failures": unique, "failed": failed,
           "agent_tokens": tokens, "unique_per_100k": unique / tokens * 1e5,
           "err_per_100k": failed / tokens * 1e5}  # fmt: skip
    if variant.startswith("branch-"):
        row["budget_of"] = "linear-R" + variant.rsplit("R", 1)[1]
    return row
