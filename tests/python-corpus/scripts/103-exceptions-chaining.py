"""Custom exception hierarchies, chaining (from / implicit), finally ordering, notes."""


class AppError(Exception):
    def __init__(self, message, code):
        super().__init__(message)
        self.code = code


class ConfigError(AppError):
    pass


def load(key, config):
    try:
        return config[key]
    except KeyError as e:
        raise ConfigError(f"missing key {key!r}", 2) from e


def parse_port(text):
    try:
        return int(text)
    except ValueError:
        raise AppError("bad port", 3)


trail = []
for action in [lambda: load("port", {"port": 80}), lambda: load("host", {}), lambda: parse_port("eighty"), lambda: 1 / 0]:
    try:
        trail.append("try")
        result = action()
        trail.append(f"ok {result}")
    except ConfigError as e:
        trail.append(f"config {e} {e.code} cause={type(e.__cause__).__name__} suppress={e.__suppress_context__}")
    except AppError as e:
        trail.append(f"app {e} {e.code} context={type(e.__context__).__name__} cause={e.__cause__}")
    except ArithmeticError as e:
        trail.append(f"arith {type(e).__name__} {e.args}")
    else:
        trail.append("else")
    finally:
        trail.append("finally")
print("\n".join(trail))


def early():
    try:
        return "from try"
    finally:
        print("finally runs before return")


print(early())
e = ValueError("with note")
e.add_note("extra context")
print(e.__notes__, isinstance(ConfigError("x", 1), AppError), ConfigError.__mro__[1].__name__)
try:
    raise KeyError("k")
except LookupError as err:
    print("caught", type(err).__name__, repr(err.args[0]), str(err))
