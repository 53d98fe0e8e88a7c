"""Combinatorics and accumulation with itertools."""
import itertools as it
import operator

items = ["bolt", "nut", "washer", "hinge"]
print(list(it.combinations(items, 2)))
print(len(list(it.permutations(items, 3))), list(it.permutations("abc"))[:4])
print(list(it.product("ab", [0, 1])))
print(list(it.combinations_with_replacement("xy", 3)))
print(list(it.accumulate([3, 1, 4, 1, 5, 9, 2, 6])))
print(list(it.accumulate([3, 1, 4, 1, 5, 9, 2, 6], max)))
print(list(it.accumulate([1, 2, 3, 4], operator.mul, initial=10)))
print(list(it.pairwise("ABCDE")))
print(list(it.starmap(pow, [(2, 5), (3, 2), (10, 3)])))
print(list(it.compress("ABCDEF", [1, 0, 1, 0, 1, 1])))
print(list(it.dropwhile(lambda x: x < 5, [1, 4, 6, 4, 1])), list(it.takewhile(lambda x: x < 5, [1, 4, 6, 4, 1])))
print(list(it.filterfalse(lambda x: x % 2, range(10))))
print(list(it.zip_longest("ABCD", "xy", fillvalue="-")))
# Subsets of prices that add up to a budget.
prices = {"bolt": 3, "nut": 2, "washer": 1, "hinge": 5, "screw": 4}
budget = 7
for r in range(1, len(prices) + 1):
    for combo in it.combinations(sorted(prices), r):
        if sum(prices[c] for c in combo) == budget:
            print(budget, "=", " + ".join(combo))
