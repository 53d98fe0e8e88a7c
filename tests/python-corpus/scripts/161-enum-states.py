"""enum: Enum, IntEnum, Flag, auto, lookups; printing names and values only."""
from enum import Enum, Flag, IntEnum, auto, unique


@unique
class State(Enum):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"

    @property
    def finished(self):
        return self in (State.DONE, State.FAILED)


class Priority(IntEnum):
    LOW = 1
    NORMAL = 2
    HIGH = 3


class Perm(Flag):
    READ = auto()
    WRITE = auto()
    EXEC = auto()
    ALL = READ | WRITE | EXEC


print([s.name for s in State], [s.value for s in State])
print(State("running").name, State["DONE"].value, State.DONE.finished, State.QUEUED.finished)
print(Priority.HIGH > Priority.LOW, Priority.NORMAL + 1, sorted([Priority.HIGH, Priority.LOW, 2]), int(Priority.HIGH))
rw = Perm.READ | Perm.WRITE
print(rw.value, Perm.READ in rw, Perm.EXEC in rw, (rw & Perm.WRITE).name, Perm.ALL.value, bool(Perm(0)))
print(sorted(m.name for m in Perm.__members__.values()), len(Perm.__members__))
print(State.DONE is State("done"), State.DONE == "done", isinstance(State.DONE, State), type(State.DONE).__name__)
try:
    State("paused")
except ValueError:
    print("ValueError for unknown value")
jobs = [("build", State.DONE, Priority.HIGH), ("lint", State.FAILED, Priority.LOW), ("test", State.RUNNING, Priority.NORMAL)]
for name, st, pr in sorted(jobs, key=lambda j: -j[2]):
    print(f"{name:6} {st.value:8} {pr.name}")
Color = Enum("Color", "RED GREEN BLUE")
print([(c.name, c.value) for c in Color])
