"""math: integer helpers, rounding, logs, trig, fsum, dist; rounded where float noise could appear."""
import math

print(math.isqrt(10**12 + 7), math.gcd(84, 36, 120), math.lcm(4, 6, 10), math.comb(10, 3), math.perm(5, 2), math.factorial(20))
print(math.floor(-2.5), math.ceil(-2.5), math.trunc(-2.7), round(-2.5), round(2.5), round(3.14159, 3), math.modf(3.75))
print(math.fsum([0.1] * 10), math.prod([1, 2, 3, 4]), math.prod([0.5, 4]))
print(math.sqrt(2), math.hypot(3, 4), math.dist((0, 0), (3, 4)), math.exp(1) == math.e, math.pi)
print(math.log(100, 10), math.log10(1000), math.log2(1024), math.log1p(0), math.log(math.e ** 2))
print(round(math.sin(math.pi / 6), 12), round(math.cos(math.pi / 3), 12), math.degrees(math.pi), math.radians(180) == math.pi, round(math.atan2(1, 1), 12))
print(math.isclose(0.1 + 0.2, 0.3), math.isclose(1.0, 1.001, rel_tol=1e-2), math.isfinite(1e308 * 10), math.isnan(float("nan")), math.inf > 1e308)
print(math.copysign(3, -0.0), math.fabs(-4), math.fmod(-7, 3), -7 % 3, divmod(-7, 3), math.remainder(7, 3))
print(math.frexp(8.0), math.ldexp(0.5, 4), math.nextafter(1.0, 2.0) > 1.0, math.ulp(1.0))
print(2 ** 100, 10 ** 30 // 7, pow(3, 100, 1000), pow(3, -1, 7), (-8) ** (1 / 3) if False else abs(-8) ** (1 / 3))
print(int("ff", 16), int("0b101", 0), int("  42 "), float("1e-3"), float("  -inf "), int(7.99), int(-7.99))
