"""The `python` backend: a run's source executed as `__main__`.

- The run's JSON input is the global `input` (builtins' `input()` still
  reads stdin as `builtins.input`); without one, `input` is the builtin.
- When the last statement is an expression, its value is the run's JSON
  value (as a notebook cell or Pyodide's `runPython` give it back); `None`
  gives no value.
- `sys.argv` is the run's argv, the cwd is the run's, and the cwd comes
  first on `sys.path`, so the workspace's modules import.
"""

import ast
import json
import linecache
import os
import sys

import fd_redirect
import interpreter
import process_facts

interpreter.own_file(__file__)

FILENAME = "<python>"


class ValueError_(Exception):
    """The program's value cannot be given back as JSON."""


def _compile(source):
    tree = ast.parse(source, FILENAME, "exec")
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    body = compile(tree, FILENAME, "exec", dont_inherit=True)
    tail = compile(last, FILENAME, "eval", dont_inherit=True) if last is not None else None
    # Tracebacks show the run's lines.
    linecache.cache[FILENAME] = (len(source), None, source.splitlines(True), FILENAME)
    return body, tail


def _value_json(value):
    if value is None:
        return None
    try:
        return json.dumps(value, allow_nan=False, ensure_ascii=False)
    except (TypeError, ValueError) as e:
        raise ValueError_(f"the run's value is not JSON: {e}") from None


def run(request):
    """Runs `request`; (exit code, JSON value or None)."""
    snapshot_modules = set(sys.modules)
    env = dict(os.environ)
    interpreter.setup_stdio(bool(env.get("PYTHONUNBUFFERED")), env.get("PYTHONIOENCODING"))
    interpreter.reseed()
    process_facts.start()
    fd_redirect.start()
    status, value = 0, None
    try:
        os.chdir(request.cwd or "/")
        cwd = os.getcwd()
        sys.argv = list(request.argv) or ["python"]
        interpreter.set_path(env.get("PYTHONPATH"), interpreter.site_dirs(env, cwd))
        sys.path.insert(0, cwd)
        sys.dont_write_bytecode = True
        main = interpreter.fresh_main()
        main.__file__ = FILENAME
        if request.input_json is not None:
            main.input = json.loads(request.input_json)
        body, tail = _compile(request.source)
        exec(body, main.__dict__)
        if tail is not None:
            value = _value_json(eval(tail, main.__dict__))
    except SystemExit as e:
        status, value = interpreter.exit_code_of(e), None
    except ValueError_ as e:
        sys.stderr.write(f"python: {e}\n")
        status = 1
    except BaseException as e:
        interpreter.report(e)
        status, value = 1, None
    status = interpreter.shut_down(status, snapshot_modules)
    return status & 0xFF, value if status == 0 else None
