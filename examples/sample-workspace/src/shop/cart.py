"""A shopping cart."""

from .models import Item
from .pricing import price_with_tax as pwt


class Cart:
    """Items a customer is about to buy."""

    def __init__(self) -> None:
        self.items: list[Item] = []

    def add(self, item: Item) -> None:
        """Put an item in the cart."""
        self.items.append(item)

    def total(self) -> float:
        """The total price, taxes included."""
        return sum(pwt(item.price) for item in self.items)

    def summary(self) -> str:
        label = "Ünïcödé 😀"; count = len(self.items)  # non-ASCII before a name on one line
        return f"{label}: {count} items, {self.total()}"
