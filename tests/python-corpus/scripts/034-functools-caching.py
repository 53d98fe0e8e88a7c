"""functools caches: lru_cache statistics, cache, cached_property."""
import functools

calls = []


@functools.lru_cache(maxsize=32)
def fib(n):
    calls.append(n)
    return n if n < 2 else fib(n - 1) + fib(n - 2)


print(fib(30), len(calls))
info = fib.cache_info()
print(info.hits, info.misses, info.maxsize, info.currsize)
fib.cache_clear()
print(fib.cache_info().currsize)


@functools.cache
def ways(n, coins=(1, 2, 5, 10)):
    if n == 0:
        return 1
    if n < 0 or not coins:
        return 0
    return ways(n - coins[0], coins) + ways(n, coins[1:])


print(ways(50), ways(100))


class Report:
    def __init__(self, rows):
        self.rows = rows
        self.computed = 0

    @functools.cached_property
    def total(self):
        self.computed += 1
        return sum(self.rows)


r = Report([1, 2, 3])
print(r.total, r.total, r.computed)
del r.total
print(r.total, r.computed)


@functools.lru_cache(maxsize=2)
def square(x):
    return x * x


for x in [1, 2, 1, 3, 1, 2]:
    square(x)
print(square.cache_info().hits, square.cache_info().misses)
print(fib.__name__, fib.__wrapped__.__name__)
