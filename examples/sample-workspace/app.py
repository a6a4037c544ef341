"""The entry point: fill a cart and print it."""

import shop.pricing as pricing
from shop import Cart, Item


def main() -> None:
    cart = Cart()
    cart.add(Item("book", 12.5))
    print(cart.summary(), pricing.TAX_RATE)
    print(Item("pen", 1.0).describe())


if __name__ == "__main__":
    main()
