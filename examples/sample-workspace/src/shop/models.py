"""Domain models."""


class Base:
    """Something with a name."""

    def describe(self) -> str:
        """A one-line description."""
        return f"{type(self).__name__}: {self.name}"


class Item(Base):
    """An item for sale."""

    currency = "EUR"

    def __init__(self, name: str, price: float) -> None:
        self.name = name
        self.price = price
