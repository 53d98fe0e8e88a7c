"""warnings: capturing, filtering, turning into errors."""
import warnings


def old_api(x):
    warnings.warn("old_api is deprecated, use new_api", DeprecationWarning, stacklevel=2)
    return x * 2


def risky(v):
    if v < 0:
        warnings.warn(f"negative value {v}", RuntimeWarning)
    return abs(v)


with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    old_api(1)
    risky(-3)
    risky(2)
    risky(-4)
for w in caught:
    print(w.category.__name__, str(w.message))
with warnings.catch_warnings():
    warnings.simplefilter("error", RuntimeWarning)
    try:
        risky(-1)
    except RuntimeWarning as e:
        print("raised:", e)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("ignore")
    risky(-9)
print("ignored:", len(caught))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("once")
    for _ in range(3):
        warnings.warn("same message", UserWarning)
print("once:", len(caught))
print(issubclass(DeprecationWarning, Warning), issubclass(UserWarning, Exception))
