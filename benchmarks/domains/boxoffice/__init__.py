"""Lanternhall Box Office: a concert hall and theatre box office desk, written blind (held out)."""

from benchmarks.domains.boxoffice._env import BoxofficeEnvironment, make_environment

__all__ = ["BoxofficeEnvironment", "make_environment"]
