"""Held-out agents: flawed support bots written from each domain's policy and tools only.

They measure how well vistasim's failure detectors find failures they were not designed around;
see README.md for each agent's documented flaws.
"""
