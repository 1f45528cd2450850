"""A product's policy rules and behaviour spec, kept as data next to the product.

The generic detectors need no rules; a product's own rules add what only it knows (cancel only an
order the customer owns, how its values look). They live in a `policy_rules.yaml` file: each
built-in domain ships one, and any product can give its own, as `[environment] rules = "FILE"` or
as its environment class's `POLICY_RULES` (a path next to the class's module, or the rules as a
mapping). A run validates them before it starts and stores them with the run, so
`vistasim metrics RUN` applies the same rules later without being told.
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

__all__ = ["DomainRules", "load_domain_rules", "rules_for_run", "rules_of_environment"]

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


def load_domain_rules(source: str | Path, *, key: str | None = None) -> DomainRules:
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
            key=key,
        )
    return _read(path, key=key)


def rules_of_environment(
    configured: Path | None, env_class: type | None, *, key: str = "environment.rules"
) -> DomainRules | None:
    """The product's own rules: the configured file, else the environment class's `POLICY_RULES`.

    Raises:
        ConfigError: The file is missing or its rules do not validate (naming file and key).
    """
    if configured is not None:
        return load_domain_rules(configured, key=key)
    declared = getattr(env_class, "POLICY_RULES", None) if env_class is not None else None
    if declared is None:
        return None
    name = f"{getattr(env_class, '__qualname__', 'environment')}.POLICY_RULES"
    if isinstance(declared, DomainRules):
        return declared
    if isinstance(declared, dict):
        return _validated(declared, source=name)
    path = Path(declared)
    if not path.is_absolute():
        import sys

        module = sys.modules.get(getattr(env_class, "__module__", ""))
        path = Path(getattr(module, "__file__", ".")).parent / path
    return load_domain_rules(path, key=name)


def rules_for_run(run: RunView) -> DomainRules:
    """Return the rules a run was judged with: its own, its built-in domain's, or none."""
    from vistasim.domains import DOMAINS

    stored = run.metadata.get("policy_rules")
    if isinstance(stored, dict):
        return DomainRules.model_validate(stored)
    environment = run.config.get("environment")
    target = environment.get("target") if isinstance(environment, dict) else None
    if isinstance(target, str) and target in DOMAINS:
        return load_domain_rules(target)
    return DomainRules()


def _read(path: Path, *, key: str | None = None) -> DomainRules:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        reason = " ".join(str(exc).split())
        raise ConfigError(f"cannot read the rules: {reason}", path=str(path), key=key) from exc
    if data is not None and not isinstance(data, dict):
        raise ConfigError(
            "the rules must be a mapping with rules, behaviour and disclosure",
            path=str(path),
            key=key,
        )
    return _validated(data or {}, source=str(path), key=key)


def _validated(data: dict[str, object], *, source: str, key: str | None = None) -> DomainRules:
    try:
        return DomainRules.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "rules"
        more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        raise ConfigError(
            f"invalid rules at {where}: {first['msg']}{more}", path=source, key=key
        ) from None
