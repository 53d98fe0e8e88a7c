"""ExceptionGroup and except*: collecting validation errors."""


class ValidationError(ValueError):
    pass


def validate(record):
    errors = []
    if not record.get("name"):
        errors.append(ValidationError("name is required"))
    if not isinstance(record.get("qty"), int):
        errors.append(TypeError("qty must be an int"))
    elif record["qty"] < 0:
        errors.append(ValidationError("qty must be >= 0"))
    if errors:
        raise ExceptionGroup(f"record {record.get('id')}", errors)


records = [{"id": 1, "name": "bolt", "qty": 3}, {"id": 2, "name": "", "qty": -1}, {"id": 3, "name": "nut", "qty": "4"}, {"id": 4, "qty": 2.5}]
for r in records:
    try:
        validate(r)
        print(r["id"], "valid")
    except* ValidationError as eg:
        print(r["id"], "validation:", [str(e) for e in eg.exceptions])
    except* TypeError as eg:
        print(r["id"], "type:", [str(e) for e in eg.exceptions])
eg = ExceptionGroup("all", [ValueError(1), TypeError(2), ExceptionGroup("inner", [ValueError(3), KeyError(4)])])
match, rest = eg.split(ValueError)
print(match.message, [repr(e) for e in match.exceptions[:1]], len(rest.exceptions))
print(eg.subgroup(lambda e: isinstance(e, KeyError)).exceptions[0].exceptions)
print(isinstance(eg, Exception), type(BaseExceptionGroup("x", [KeyboardInterrupt()])).__name__)
