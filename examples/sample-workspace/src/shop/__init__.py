"""A tiny shop: carts, items and prices."""

from .cart import Cart
from .models import Item

__all__ = ["Cart", "Item"]
