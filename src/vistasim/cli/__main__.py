"""`python -m vistasim.cli`: the same as the `vistasim` command."""

from vistasim.cli.main import main

main()
