"""bisect: grading scales, insertion into sorted lists, range counts."""
import bisect

breaks = [60, 70, 80, 90]
grades = "FDCBA"
scores = [33, 99, 77, 70, 89, 90, 100, 60, 59]
print([grades[bisect.bisect(breaks, s)] for s in scores])
ordered = []
for x in [5, 1, 4, 1, 3, 9, 2]:
    bisect.insort(ordered, x)
print(ordered, bisect.bisect_left(ordered, 1), bisect.bisect_right(ordered, 1))
print("between 2 and 5:", bisect.bisect_right(ordered, 5) - bisect.bisect_left(ordered, 2))
events = [("2024-03-01", "a"), ("2024-03-05", "b"), ("2024-03-09", "c")]
keys = [e[0] for e in events]
print(events[bisect.bisect_right(keys, "2024-03-06") - 1])
print(bisect.bisect_left([1, 2, 3], 4), bisect.bisect([], 1))
people = [("ada", 36), ("bob", 25), ("cy", 41)]
people.sort(key=lambda p: p[1])
print(bisect.bisect_left(people, 30, key=lambda p: p[1]), people)
bisect.insort(people, ("dee", 33), key=lambda p: p[1])
print([p[0] for p in people])
