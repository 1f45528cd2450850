"""Built-in domains: small but real products (shop, school) to simulate users against."""

from __future__ import annotations

from importlib import import_module

from vistasim.domains._generate import Generation, generate_scenario_set, generate_scenarios
from vistasim.domains._types import Domain
from vistasim.errors import ConfigError

__all__ = [
    "DOMAINS",
    "Domain",
    "Generation",
    "generate_scenario_set",
    "generate_scenarios",
    "get_domain",
]

DOMAINS: dict[str, str] = {
    "shop": "vistasim.domains.shop",
    "school": "vistasim.domains.school",
}
"""Built-in domain names and the packages that define them (each exposes `DOMAIN`)."""


def get_domain(name: str) -> Domain:
    """Return a built-in domain by name; unknown names list the known ones."""
    if name not in DOMAINS:
        raise ConfigError(f"unknown domain {name!r}; known domains: {', '.join(sorted(DOMAINS))}")
    domain: Domain = import_module(DOMAINS[name]).DOMAIN
    return domain
