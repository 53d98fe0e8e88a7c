"""traceback module: frames, line numbers and function names of a caught error."""
import os
import sys
import traceback


def level3(x):
    return {"a": 1}[x]


def level2(x):
    return level3(x) + 1


def level1(x):
    return level2(x) * 2


try:
    level1("b")
except KeyError as e:
    tb = traceback.extract_tb(e.__traceback__)
    for frame in tb:
        print(os.path.basename(frame.filename), frame.lineno, frame.name, frame.line)
    print(traceback.format_exception_only(type(e), e))
    print(type(e).__name__, e.args, len(traceback.format_tb(e.__traceback__)))
    exc_type, exc, exc_tb = sys.exc_info()
    print(exc_type is KeyError, exc is e, exc_tb.tb_frame.f_code.co_name)
stack = traceback.extract_stack()
print([f.name for f in stack][-1:], os.path.basename(stack[-1].filename))
try:
    int("x1")
except ValueError as e:
    print(traceback.format_exception_only(e)[-1].strip())
print(len(traceback.format_exception(ZeroDivisionError("z"))))
