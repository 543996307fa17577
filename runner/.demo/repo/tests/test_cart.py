import unittest

from cart import Cart


class CartTest(unittest.TestCase):
    def test_an_empty_cart_costs_nothing(self) -> None:
        self.assertEqual(Cart().total_cents(), 0)

    def test_count_adds_up_quantities(self) -> None:
        cart = Cart()
        cart.add("apple", 50, quantity=3)
        cart.add("pear", 80)
        self.assertEqual(cart.count(), 4)

    def test_total_counts_every_unit(self) -> None:
        cart = Cart()
        cart.add("apple", 50, quantity=3)
        cart.add("pear", 80)
        self.assertEqual(cart.total_cents(), 230)

    def test_negative_prices_are_refused(self) -> None:
        with self.assertRaises(ValueError):
            Cart().add("refund", -100)


if __name__ == "__main__":
    unittest.main()
