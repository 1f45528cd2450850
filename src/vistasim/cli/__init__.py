"""The command-line interface: thin commands over the library."""

from vistasim.cli.main import cli, main

__all__ = ["cli", "main"]
