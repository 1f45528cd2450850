"""Branching against its baseline over several seeds: one ratio per desk from the summed counts.

One seed's ratio rests on a handful of distinct failures (5 to 20 per desk and row), so it
moves by a third from seed to seed (garage 1.61 / 2.20 / 0.83): whether branching is below
the baseline on a desk cannot be read from one seed. Pooled over seeds, each side's failures
and agent tokens are summed before they are divided (a ratio of rates, not a mean of ratios, so
a seed with few tokens weighs little), and the seeds on which branching was at least the
baseline are counted beside it. Where the rows keep their `by_scenario` counts, each ratio also
gets its 95 % interval from a paired bootstrap over the scenarios (`_divert_interval.py`),
pooled and per seed: a seed counts as *below* only when its whole interval is. Where the rows
keep their matched counts (`_divert_matched.py`: each arm counted within the smaller of the two
arms' agent tokens), the ratios at exactly equal tokens are pooled too, as ratios of summed
counts: two arms that found the one cause a desk shows are 1.00 there, whichever spent 1 %
more (bakery: 3 / 3 distinct pooled, 0.99 as a ratio of rates).

>>> rows = {0: [_row("x", "perturbed-R4", 4, 8), _row("x", "branch-eq-R4", 6, 12)],
...         1: [_row("x", "perturbed-R4", 6, 10), _row("x", "branch-eq-R4", 5, 15)]}
>>> [(p["uniq_x"], p["err_x"], p["uniq_seeds_ahead"]) for p in pooled(rows)]
[(1.1, 1.5, '1/2')]
"""

from __future__ import annotations

import math

from benchmarks._divert_interval import interval, pooled_scenarios

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
            **_at_equal_tokens(found),
            **_intervals(found),
        })  # fmt: skip
    return out


def _at_equal_tokens(pairs: list[tuple[dict, dict]]) -> dict:
    """The ratios of the matched counts, summed over seeds, where every branch row has them.

    >>> branch = {"matched_unique": 3, "matched_failed": 9, "matched_unique_perturbed": 3,
    ...           "matched_failed_perturbed": 6}
    >>> _at_equal_tokens([({}, branch)])
    {'uniq_eq': 1.0, 'err_eq': 1.5}
    """
    if not all("matched_unique" in branch for _, branch in pairs):
        return {}
    out: dict = {}
    for what, key in (("unique", "uniq"), ("failed", "err")):
        base = sum(branch[f"matched_{what}_perturbed"] for _, branch in pairs)
        mine = sum(branch[f"matched_{what}"] for _, branch in pairs)
        out[f"{key}_eq"] = round(mine / base, 2) if base else None
    return out


def _intervals(pairs: list[tuple[dict, dict]]) -> dict:
    """The 95 % intervals, pooled and per seed, where every row kept its `by_scenario`."""
    if not all("by_scenario" in side for pair in pairs for side in pair):
        return {}
    base = pooled_scenarios(p[0]["by_scenario"] for p in pairs)
    branch = pooled_scenarios(p[1]["by_scenario"] for p in pairs)
    out: dict = {}
    for what, key in (("unique", "uniq"), ("failed", "err")):
        out[f"{key}_ci"] = interval(base, branch, what)
        per_seed = [interval(b["by_scenario"], x["by_scenario"], what) for b, x in pairs]
        out[f"{key}_seed_ci"] = per_seed
        out[f"{key}_seeds_below"] = sum(1 for ci in per_seed if ci is not None and ci[1] < 1.0)
    return out


def print_pooled(rows: list[dict]) -> None:
    """The pooled table, in the markdown of the per-seed one."""
    head = ("domain", "branch row", "baseline", "seeds", "unique base / branch",
            "failed base / branch", "agent tok base / branch", "Uniq/100K ×", "Err/100K ×",
            "Uniq× / Err× at equal tokens", "seeds ≥ 1.0x (uniq, Err)", "Uniq× 95 % CI",
            "Err× 95 % CI",
            "seeds shown below 1.0x (uniq, Err)")  # fmt: skip
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        cells = [
            r["domain"], r["variant"], r["baseline"], ",".join(map(str, r["seeds"])),
            f"{r['base_unique_failures']} / {r['branch_unique_failures']}",
            f"{r['base_failed']} / {r['branch_failed']}",
            f"{r['base_agent_tokens']:,} / {r['branch_agent_tokens']:,}",
            _fmt(r["uniq_x"]), _fmt(r["err_x"]),
            f"{_fmt(r.get('uniq_eq'))} / {_fmt(r.get('err_eq'))}" if "uniq_eq" in r else "n/a",
            f"{r['uniq_seeds_ahead']}, {r['err_seeds_ahead']}",
            _fmt_ci(r.get("uniq_ci")), _fmt_ci(r.get("err_ci")),
            f"{r['uniq_seeds_below']}, {r['err_seeds_below']}" if "uniq_ci" in r else "n/a",
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


def _fmt_ci(ci: tuple[float, float] | None) -> str:
    if ci is None:
        return "n/a"
    return "–".join("∞" if math.isinf(v) else f"{v:.2f}" for v in ci)


def _row(domain: str, variant: str, unique: int, failed: int, tokens: int = 100_000) -> dict:
    """A per-seed row as `divert.py` writes it, with what pooling reads (for the examples)."""
    row = {"domain": domain, "variant": variant, "unique_failures": unique, "failed": failed,
           "agent_tokens": tokens, "unique_per_100k": unique / tokens * 1e5,
           "err_per_100k": failed / tokens * 1e5}  # fmt: skip
    if variant.startswith("branch-"):
        row["budget_of"] = "linear-R" + variant.rsplit("R", 1)[1]
    return row
