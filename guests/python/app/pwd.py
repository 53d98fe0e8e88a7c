"""`pwd` for the workspace: one user, the process's own (see process_facts)."""

import process_facts


class struct_passwd(tuple):
    """pwd.struct_passwd: a 7-tuple with named fields."""

    n_sequence_fields = n_fields = 7
    n_unnamed_fields = 0
    _fields = ("pw_name", "pw_passwd", "pw_uid", "pw_gid", "pw_gecos", "pw_dir", "pw_shell")

    def __new__(cls, seq):
        seq = tuple(seq)
        if len(seq) != 7:
            raise TypeError(f"pwd.struct_passwd() takes a 7-sequence ({len(seq)}-sequence given)")
        return super().__new__(cls, seq)

    def __repr__(self):
        inner = ", ".join(f"{n}={v!r}" for n, v in zip(self._fields, self))
        return f"pwd.struct_passwd({inner})"

    def __reduce__(self):
        return (struct_passwd, (tuple(self),))


for _i, _name in enumerate(struct_passwd._fields):
    setattr(struct_passwd, _name, property(lambda self, i=_i: self[i]))


def _entry():
    who = process_facts.identity()
    return struct_passwd((who.user, "x", who.uid, who.gid, who.user, process_facts.home(), "/bin/bash"))


def getpwuid(uid):
    if not isinstance(uid, int):
        raise TypeError(f"'{type(uid).__name__}' object cannot be interpreted as an integer")
    entry = _entry()
    if uid != entry.pw_uid:
        raise KeyError(f"getpwuid(): uid not found: {uid}")
    return entry


def getpwnam(name):
    if not isinstance(name, str):
        raise TypeError(f"getpwnam() argument must be str, not {type(name).__name__}")
    entry = _entry()
    if name != entry.pw_name:
        raise KeyError(f"getpwnam(): name not found: {name!r}")
    return entry


def getpwall():
    return [_entry()]
