"""Prices — with taxes (« TVA » in French)."""

TAX_RATE = 0.2


def price_with_tax(amount: float, rate: float = TAX_RATE) -> float:
    """Return `amount` plus tax at `rate`."""
    return round(amount * (1 + rate), 2)
