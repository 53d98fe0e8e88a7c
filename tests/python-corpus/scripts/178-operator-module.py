"""operator: itemgetter, attrgetter, methodcaller and operator functions in pipelines."""
import operator as op
from functools import reduce

rows = [{"sku": "A-100", "qty": 1200, "price": 0.12}, {"sku": "B-200", "qty": 800, "price": 0.05}, {"sku": "D-400", "qty": 75, "price": 3.4}]
get = op.itemgetter("sku", "qty")
print([get(r) for r in rows], op.itemgetter(1)("abc"), op.itemgetter(slice(1, 3))("abcd"))
print(list(map(op.methodcaller("upper"), ["a", "b"])), op.methodcaller("split", ",")("x,y"))
print(op.attrgetter("real", "imag")(3 + 4j), op.attrgetter("__class__.__name__")(1))
print(reduce(op.add, [1, 2, 3]), reduce(op.mul, range(1, 6)), reduce(op.or_, [{1}, {2}, {1, 3}]))
print(op.add(1, 2), op.sub(5, 3), op.truediv(7, 2), op.floordiv(7, 2), op.mod(7, 2), op.pow(2, 8), op.neg(3), op.abs(-2))
print(op.eq(1, 1.0), op.lt("a", "b"), op.contains([1, 2], 2), op.countOf([1, 2, 1], 1), op.indexOf("abc", "c"), op.not_(0), op.truth([]))
print(op.concat([1], [2]), op.getitem({"a": 1}, "a"), op.length_hint(iter([1, 2, 3])), op.index(5))
d = {"a": 1}
op.setitem(d, "b", 2)
op.delitem(d, "a")
print(d, op.and_(0b1100, 0b1010), op.xor(0b1100, 0b1010), op.lshift(1, 4), op.inv(0))
x = [1]
x = op.iadd(x, [2])
print(x, sorted(rows, key=op.itemgetter("price"))[0]["sku"], max(rows, key=lambda r: op.mul(r["qty"], r["price"]))["sku"])
