"""A tiny shopping cart: items, quantities, totals in cents."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Item:
    name: str
    price_cents: int
    quantity: int = 1


@dataclass
class Cart:
    items: list[Item] = field(default_factory=list)

    def add(self, name: str, price_cents: int, quantity: int = 1) -> None:
        if price_cents < 0:
            raise ValueError("a price cannot be negative")
        if quantity < 1:
            raise ValueError("a quantity must be at least 1")
        self.items.append(Item(name, price_cents, quantity))

    def count(self) -> int:
        return sum(item.quantity for item in self.items)

    def total_cents(self) -> int:
        return sum(item.price_cents for item in self.items)
