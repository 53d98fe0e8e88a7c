"""heapq: a priority job scheduler, nsmallest/nlargest, merging sorted streams."""
import heapq
import itertools

counter = itertools.count()
queue = []
for name, prio in [("backup", 3), ("deploy", 1), ("email", 5), ("rebuild", 1), ("cleanup", 4)]:
    heapq.heappush(queue, (prio, next(counter), name))
print("peek:", queue[0][2])
order = []
while queue:
    prio, _, name = heapq.heappop(queue)
    order.append(f"{name}({prio})")
    if name == "deploy":
        heapq.heappush(queue, (2, next(counter), "smoke-test"))
print(" -> ".join(order))
nums = [float(x) for x in open("data/numbers.txt")]
print(heapq.nsmallest(3, nums), heapq.nlargest(3, nums))
print(heapq.nlargest(2, [("a", 3), ("b", 9), ("c", 1)], key=lambda t: t[1]))
print(list(heapq.merge([1, 4, 9], [2, 3, 10], [0, 11])))
print(list(heapq.merge(["b", "d"], ["a", "c"], reverse=False)))
h = [5, 1, 4]
heapq.heapify(h)
print(h, heapq.heappushpop(h, 0), heapq.heapreplace(h, 7), sorted(h))


def dijkstra(graph, start):
    dist = {start: 0}
    pq = [(0, start)]
    while pq:
        d, node = heapq.heappop(pq)
        if d > dist.get(node, float("inf")):
            continue
        for nxt, w in graph[node]:
            nd = d + w
            if nd < dist.get(nxt, float("inf")):
                dist[nxt] = nd
                heapq.heappush(pq, (nd, nxt))
    return dict(sorted(dist.items()))


g = {"a": [("b", 4), ("c", 1)], "b": [("d", 1)], "c": [("b", 2), ("d", 5)], "d": []}
print(dijkstra(g, "a"))
