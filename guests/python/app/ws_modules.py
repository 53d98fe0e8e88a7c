"""`ws:NAME` modules as the Python package `ws`.

`from ws.github import post_comment` imports a module made from
`modules.list-functions("github")`: one function per WIT function, named in
snake_case, whose call is a synchronous `modules.call` with the arguments
as a JSON array (keyword arguments are put in place by parameter name) and
the JSON result decoded. Module names with `-` are reached with `_`
(`ws.issue_tracker` for `ws:issue-tracker`).

A call can park the whole run at an approval: the host then stops the
instance inside `call`, and replays the run from the start later, with the
recorded results of every earlier call.
"""

import importlib.abc
import importlib.machinery
import json
import keyword
import sys
import types

from componentize_py_types import Err
from wit_world.imports import modules as host

import interpreter

interpreter.own_file(__file__)

PACKAGE = "ws"

# `module-error` cases, as JavaScript's `err.code` names them.
_CODES = {
    "ModuleError_NotFound": "not-found",
    "ModuleError_BadArguments": "bad-arguments",
    "ModuleError_Rejected": "rejected",
    "ModuleError_Failed": "failed",
    "ModuleError_MayHaveTakenEffect": "may-have-taken-effect",
    "ModuleError_ErrorValue": "error-value",
}


class ModuleError(Exception):
    """A `ws:` module call that failed.

    `code` is the case (`not-found`, `bad-arguments`, `rejected`, `failed`,
    `may-have-taken-effect`, `error-value`), `module` is `ws:NAME`,
    `function` the WIT function name and, for `error-value`, `value` the
    function's `err` payload decoded from JSON."""

    def __init__(self, code, message, module, function, value=None):
        super().__init__(message)
        self.code = code
        self.module = module
        self.function = function
        self.value = value


def _error(err, module, function):
    code = _CODES.get(type(err).__name__, "failed")
    message = str(err.value)
    value = None
    if code == "error-value":
        try:
            value = json.loads(message)
        except ValueError:
            value = message
        message = f"ws:{module}.{function} returned an error: {message}"
    return ModuleError(code, message, f"ws:{module}", function, value)


def python_name(wit_name):
    """`post-comment` -> `post_comment`; a Python keyword gets a trailing `_`."""
    name = wit_name.replace("-", "_")
    return name + "_" if keyword.iskeyword(name) else name


def _wrap(module, info):
    params = [python_name(p.name) for p in info.params]
    optional = [p.type_desc.startswith("option<") for p in info.params]
    qualified = f"ws.{python_name(module)}.{python_name(info.name)}"

    def call(*args, **kwargs):
        if len(args) > len(params):
            raise TypeError(
                f"{qualified}() takes {len(params)} arguments but {len(args)} were given"
            )
        values = list(args)
        missing = object()
        values.extend([missing] * (len(params) - len(values)))
        for key, value in kwargs.items():
            if key not in params:
                raise TypeError(f"{qualified}() got an unexpected keyword argument {key!r}")
            i = params.index(key)
            if values[i] is not missing:
                raise TypeError(f"{qualified}() got multiple values for argument {key!r}")
            values[i] = value
        while values and values[-1] is missing and optional[len(values) - 1]:
            values.pop()
        for i, value in enumerate(values):
            if value is missing:
                if not optional[i]:
                    raise TypeError(
                        f"{qualified}() missing required argument {params[i]!r}"
                    )
                values[i] = None
        try:
            args_json = json.dumps(values, allow_nan=False)
        except (TypeError, ValueError) as e:
            raise TypeError(f"{qualified}(): an argument is not JSON: {e}") from None
        try:
            result = host.call(module, info.name, args_json)
        except Err as e:
            raise _error(e.value, module, info.name) from None
        return json.loads(result)

    call.__name__ = python_name(info.name)
    call.__qualname__ = call.__name__
    call.__module__ = f"ws.{python_name(module)}"
    signature = ", ".join(
        f"{p}=None" if opt else p for p, opt in zip(params, optional)
    )
    result = f" -> {info.result}" if info.result else ""
    call.__doc__ = f"{info.name}({signature}){result}\n\n{info.docs}".rstrip()
    return call


def _host_name(python):
    for name in host.list_modules():
        if name == python or name.replace("-", "_") == python:
            return name
    return None


class _Loader(importlib.abc.Loader):
    def __init__(self, module):
        self.module = module

    def create_module(self, spec):
        return None

    def exec_module(self, mod):
        try:
            functions = host.list_functions(self.module)
        except Err as e:
            raise ImportError(
                f"cannot list the functions of ws:{self.module}: {e.value.value}",
                name=mod.__name__,
            ) from None
        mod.__doc__ = f"The ws:{self.module} module."
        names = []
        for info in functions:
            fn = _wrap(self.module, info)
            setattr(mod, fn.__name__, fn)
            names.append(fn.__name__)
        mod.__all__ = names


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        package, dot, name = fullname.partition(".")
        if package != PACKAGE or not dot or "." in name:
            return None
        module = _host_name(name)
        if module is None:
            registered = ", ".join(f"ws:{m}" for m in host.list_modules()) or "none"
            raise ModuleNotFoundError(
                f"no module named 'ws:{name}' (registered: {registered})", name=fullname
            )
        return importlib.machinery.ModuleSpec(fullname, _Loader(module))


def install():
    """The `ws` package and its finder; both survive in the snapshot."""
    ws = types.ModuleType(PACKAGE, "ws: modules registered with the host, as Python modules.")
    ws.__path__ = []
    ws.__package__ = PACKAGE
    ws.ModuleError = ModuleError
    ws.__spec__ = importlib.machinery.ModuleSpec(PACKAGE, None, is_package=True)
    sys.modules[PACKAGE] = ws
    sys.meta_path.insert(0, _Finder())
