"""A product's policy rules and behaviour spec, kept as data next to the product.

Failure detection must know a product's rules (cancel only an order the customer owns) and how its
values look (order numbers, course codes). Both live in a `policy_rules.yaml` file: each built-in
domain ships one, and any product can have its own. `rules_for_run` picks the built-in domain's
file from a stored run's config, so `vistasim metrics RUN` checks a domain run without being told.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from vistasim.errors import ConfigError
from vistasim.metrics._behaviour import BehaviourSpec
from vistasim.metrics._disclosure import DisclosureRule
from vistasim.metrics._failures import PolicyRule
from vistasim.store._view import RunView

__all__ = ["DomainRules", "load_domain_rules", "rules_for_run"]

RULES_FILE = "policy_rules.yaml"


class DomainRules(BaseModel):
    """The contents of a `policy_rules.yaml`: policy rules plus the behaviour detectors' spec."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rules: list[PolicyRule] = []
    """Policy rules checked on every episode."""
    behaviour: BehaviourSpec = BehaviourSpec()
    """Values, write tools and phrasing of the product, for the behavioural detectors."""
    disclosure: list[DisclosureRule] = []
    """Read tools whose results only the record's verified owner may be shown."""

    @model_validator(mode="after")
    def _unique_ids(self) -> DomainRules:
        ids = [rule.id for rule in self.rules] + [rule.id for rule in self.disclosure]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise ValueError(f"rule ids {twice!r} are used twice; give each rule its own id")
        return self


def load_domain_rules(source: str | Path) -> DomainRules:
    """Load a built-in domain's rules by name (`shop`, `school`), or a `policy_rules.yaml` path.

    Raises:
        ConfigError: Unknown domain, unreadable file, or rules that do not validate.
    """
    from vistasim.domains import DOMAINS

    if isinstance(source, str) and source in DOMAINS:
        with resources.as_file(resources.files(DOMAINS[source]) / RULES_FILE) as path:
            return _read(path)
    path = Path(source)
    if not path.is_file():
        raise ConfigError(
            f"no such rules file; give a built-in domain ({', '.join(sorted(DOMAINS))})"
            f" or the path of a {RULES_FILE}",
            path=str(source),
        )
    return _read(path)


def rules_for_run(run: RunView) -> DomainRules:
    """Return the rules of the built-in domain a run used, or generic ones for any other product."""
    from vistasim.domains import DOMAINS

    environment = run.config.get("environment")
    target = environment.get("target") if isinstance(environment, dict) else None
    if isinstance(target, str) and target in DOMAINS:
        return load_domain_rules(target)
    return DomainRules()


def _read(path: Path) -> DomainRules:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"cannot read the rules: {exc}", path=str(path)) from exc
    try:
        return DomainRules.model_validate(data or {})
    except ValidationError as exc:
        raise ConfigError(f"invalid rules: {exc}", path=str(path)) from exc
