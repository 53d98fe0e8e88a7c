"""deque for sliding windows, tail, rotation, and a BFS."""
from collections import deque

nums = [float(x) for x in open("data/numbers.txt")]
window = deque(maxlen=3)
for n in nums:
    window.append(n)
    if len(window) == 3:
        print(f"{list(window)} avg={sum(window) / 3:.3f}")

with open("data/server.log") as f:
    last = deque(f, maxlen=2)
print("tail:", [l.split()[2] for l in last])

d = deque(range(6))
d.rotate(2)
print(list(d))
d.rotate(-3)
print(list(d))
d.appendleft(-1)
d.extendleft([-3, -2])
print(list(d), d.popleft(), d.pop(), d.index(3), d.count(0))

graph = {"a": ["b", "c"], "b": ["d"], "c": ["d", "e"], "d": ["f"], "e": ["f"], "f": []}
seen, order, queue = {"a": 0}, [], deque(["a"])
while queue:
    node = queue.popleft()
    order.append(node)
    for nxt in graph[node]:
        if nxt not in seen:
            seen[nxt] = seen[node] + 1
            queue.append(nxt)
print("bfs:", order, "depths:", seen)
