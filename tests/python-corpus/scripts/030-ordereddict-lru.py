"""An LRU cache on OrderedDict, plus move_to_end and popitem behaviour."""
from collections import OrderedDict


class LRU:
    def __init__(self, capacity):
        self.capacity = capacity
        self.data = OrderedDict()
        self.hits = self.misses = 0

    def get(self, key):
        if key in self.data:
            self.hits += 1
            self.data.move_to_end(key)
            return self.data[key]
        self.misses += 1
        return None

    def put(self, key, value):
        self.data[key] = value
        self.data.move_to_end(key)
        if len(self.data) > self.capacity:
            old, _ = self.data.popitem(last=False)
            print("evict", old)


cache = LRU(3)
for op in ["put a 1", "put b 2", "put c 3", "get a", "put d 4", "get b", "get c", "put e 5", "get a", "get d"]:
    parts = op.split()
    if parts[0] == "put":
        cache.put(parts[1], int(parts[2]))
    else:
        print("get", parts[1], "->", cache.get(parts[1]))
print(list(cache.data.items()), cache.hits, cache.misses)

od = OrderedDict.fromkeys("abcde")
od.move_to_end("b")
od.move_to_end("e", last=False)
print("".join(od))
print(od.popitem(), "".join(od))
print(OrderedDict(a=1, b=2) == OrderedDict(b=2, a=1), dict(a=1, b=2) == dict(b=2, a=1))
print(OrderedDict(a=1, b=2) == dict(b=2, a=1))
