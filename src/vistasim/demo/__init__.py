"""The offline demo: a rule-based order desk agent over a tiny order book, and five scenarios."""

from vistasim.demo._desk import OrderDeskAgent
from vistasim.demo._orders import OrderBook

__all__ = ["OrderBook", "OrderDeskAgent"]
