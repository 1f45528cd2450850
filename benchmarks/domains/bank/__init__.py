"""Northbank cards: a bank card support desk as a held-out vistasim benchmark domain."""

from benchmarks.domains.bank._correct_agent import CorrectBankAgent
from benchmarks.domains.bank._env import BankEnvironment, make_environment
from benchmarks.domains.bank._flawed_agent import FlawedBankAgent

__all__ = ["BankEnvironment", "CorrectBankAgent", "FlawedBankAgent", "make_environment"]
