"""random with a fixed seed: functions whose algorithm is stable across versions."""
import random

random.seed(12345)
print([round(random.random(), 10) for _ in range(3)])
print([random.randint(1, 100) for _ in range(5)])
print([random.randrange(0, 50, 5) for _ in range(5)])
items = ["bolt", "nut", "washer", "hinge", "screw", "rivet"]
print(random.choice(items), random.choice(items))
deck = list(range(10))
random.shuffle(deck)
print(deck)
print(random.sample(items, 3), random.sample(range(1000), 4))
print([round(random.uniform(1, 2), 8) for _ in range(2)], random.getrandbits(32))
r = random.Random(7)
print(r.random(), r.randint(0, 9), r.choice("abcdef"))
state = r.getstate()
a = r.random()
r.setstate(state)
print(a == r.random())
random.seed("corpus")
print(random.random())
