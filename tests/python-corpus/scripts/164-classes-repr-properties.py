"""Classes with __repr__/__str__/__eq__/__hash__, properties, class and static methods."""


class Money:
    def __init__(self, cents, currency="EUR"):
        self._cents = int(cents)
        self.currency = currency

    @classmethod
    def parse(cls, text):
        amount, currency = text.split()
        euros, _, cents = amount.partition(".")
        return cls(int(euros) * 100 + int(cents.ljust(2, "0")), currency)

    @staticmethod
    def zero():
        return Money(0)

    @property
    def cents(self):
        return self._cents

    @property
    def amount(self):
        return f"{self._cents // 100}.{self._cents % 100:02d}"

    def __repr__(self):
        return f"Money({self._cents}, {self.currency!r})"

    def __str__(self):
        return f"{self.amount} {self.currency}"

    def __eq__(self, other):
        return isinstance(other, Money) and (self._cents, self.currency) == (other._cents, other.currency)

    def __hash__(self):
        return hash((self._cents, self.currency))

    def __add__(self, other):
        if other == 0:
            return self
        if self.currency != other.currency:
            raise ValueError("currency mismatch")
        return Money(self._cents + other._cents, self.currency)

    __radd__ = __add__

    def __lt__(self, other):
        return self._cents < other._cents

    def __bool__(self):
        return self._cents != 0


prices = [Money.parse(t) for t in ["3.40 EUR", "0.12 EUR", "12.5 EUR", "0.05 EUR"]]
print(prices)
print([str(p) for p in sorted(prices)], str(sum(prices)), repr(Money.zero()), bool(Money.zero()))
print(Money(340) in prices, len({Money(5), Money(5), Money(5, "USD")}), max(prices))
try:
    Money(1) + Money(1, "USD")
except ValueError as e:
    print("ValueError:", e)
try:
    prices[0].cents = 1
except AttributeError:
    print("read-only property")
print(f"{prices[2]!r} / {prices[2]!s} / {prices[2]}")
print(Money.__name__, Money.parse.__name__, type(Money.__dict__["zero"]).__name__, hasattr(Money, "__lt__"))
