"""`grp` for the workspace: one group, the process's own (see process_facts)."""

import process_facts


class struct_group(tuple):
    """grp.struct_group: a 4-tuple with named fields."""

    n_sequence_fields = n_fields = 4
    n_unnamed_fields = 0
    _fields = ("gr_name", "gr_passwd", "gr_gid", "gr_mem")

    def __new__(cls, seq):
        seq = tuple(seq)
        if len(seq) != 4:
            raise TypeError(f"grp.struct_group() takes a 4-sequence ({len(seq)}-sequence given)")
        return super().__new__(cls, seq)

    def __repr__(self):
        inner = ", ".join(f"{n}={v!r}" for n, v in zip(self._fields, self))
        return f"grp.struct_group({inner})"

    def __reduce__(self):
        return (struct_group, (tuple(self),))


for _i, _name in enumerate(struct_group._fields):
    setattr(struct_group, _name, property(lambda self, i=_i: self[i]))


def _entry():
    who = process_facts.identity()
    return struct_group((who.group, "x", who.gid, []))


def getgrgid(gid):
    if not isinstance(gid, int):
        raise TypeError(f"'{type(gid).__name__}' object cannot be interpreted as an integer")
    entry = _entry()
    if gid != entry.gr_gid:
        raise KeyError(f"getgrgid(): gid not found: {gid}")
    return entry


def getgrnam(name):
    if not isinstance(name, str):
        raise TypeError(f"getgrnam() argument must be str, not {type(name).__name__}")
    entry = _entry()
    if name != entry.gr_name:
        raise KeyError(f"getgrnam(): name not found: {name!r}")
    return entry


def getgrall():
    return [_entry()]
