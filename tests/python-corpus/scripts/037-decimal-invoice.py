"""An invoice with Decimal: quantize, rounding modes, contexts, tax."""
from decimal import ROUND_DOWN, ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, getcontext, localcontext

lines = [("Steel bolt M6", 1200, "0.12"), ("Washer 6mm", 2500, "0.015"), ("Hinge brass", 3, "3.405"), ("Labour (h)", 2, "45.00")]
CENT = Decimal("0.01")
subtotal = Decimal(0)
for name, qty, price in lines:
    amount = (Decimal(price) * qty).quantize(CENT, rounding=ROUND_HALF_UP)
    subtotal += amount
    print(f"{name:<16}{qty:>6} x {price:>7} = {amount:>9}")
tax = (subtotal * Decimal("0.21")).quantize(CENT, ROUND_HALF_UP)
print(f"{'subtotal':<34}{subtotal:>9}")
print(f"{'VAT 21%':<34}{tax:>9}")
print(f"{'total':<34}{subtotal + tax:>9}")

for mode in (ROUND_HALF_UP, ROUND_HALF_EVEN, ROUND_DOWN):
    print(mode, [str(Decimal(v).quantize(Decimal("0.1"), rounding=mode)) for v in ["0.25", "0.35", "-0.25", "1.05"]])
print(getcontext().prec, Decimal(1) / Decimal(7))
with localcontext() as ctx:
    ctx.prec = 5
    print(Decimal(1) / Decimal(7), Decimal("123456789") + 1)
print(Decimal("1.30") + Decimal("1.20"), Decimal("1.30") * 2, Decimal("10").sqrt())
print(Decimal(0.1), Decimal("0.1") + Decimal("0.2") == Decimal("0.3"), 0.1 + 0.2 == 0.3)
print(Decimal("-0"), Decimal("1e3").normalize(), Decimal("100").normalize(), Decimal("1.500").normalize())
print(Decimal("3.14159").as_tuple())
print(sum(Decimal(p) for _, _, p in lines), max(Decimal(p) for _, _, p in lines))
print(Decimal("7.5") // 2, Decimal("7.5") % 2, divmod(Decimal("-7"), 2))
