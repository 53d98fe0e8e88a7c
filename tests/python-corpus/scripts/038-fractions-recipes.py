"""Exact arithmetic with Fraction: scaling a recipe, continued fractions."""
from fractions import Fraction
from math import floor

recipe = {"flour (cup)": Fraction(3, 4), "sugar (cup)": Fraction(1, 3), "butter (tbsp)": Fraction(5, 2), "eggs": Fraction(1)}
for factor in (Fraction(1, 2), Fraction(3, 2), 3):
    scaled = {k: v * factor for k, v in recipe.items()}
    print(f"x{factor}:", ", ".join(f"{k}={v}" for k, v in scaled.items()))


def mixed(f):
    whole = f.numerator // f.denominator
    rest = f - whole
    return f"{whole} {rest}" if whole and rest else str(whole if not rest else rest)


print([mixed(Fraction(n, 4)) for n in range(1, 10)])
print(Fraction("3.1415926535").limit_denominator(1000), Fraction(0.1), Fraction("0.1"))
print(Fraction(1, 3) + Fraction(1, 6), Fraction(2, 4), Fraction(-6, 8), Fraction(1, 3) ** 2, Fraction(4, 9) ** Fraction(1, 2))
print(float(Fraction(22, 7)), round(Fraction(7, 2)), round(Fraction(5, 2)), round(Fraction(22, 7), 2))
print(sum(Fraction(1, n) for n in range(1, 11)))
x = Fraction(415, 93)
terms = []
while True:
    a = floor(x)
    terms.append(a)
    if x == a:
        break
    x = 1 / (x - a)
print("continued fraction of 415/93:", terms)
print(Fraction(3, 4) < 0.76, Fraction(1, 2) == 0.5, Fraction(5, 3).as_integer_ratio(), repr(Fraction(1, 3)))
