"""unittest.mock: patching a module function, MagicMock assertions, side effects."""
import json
from unittest import mock

import calc


def report(values):
    return {"mean": calc.mean(values), "max": calc.buggy_max(values)}


with mock.patch("calc.mean", return_value=99) as fake:
    print(report([1, 2, 3]))
    print(fake.called, fake.call_count, fake.call_args.args)
print(report([1, 2, 3]))

m = mock.MagicMock()
m.fetch.return_value = {"status": 200}
m.fetch("/api", retries=2)
m.fetch("/health")
print(m.fetch.call_count, m.fetch.call_args_list[0].kwargs, m.fetch.call_args.args)
m.fetch.assert_any_call("/api", retries=2)
try:
    m.fetch.assert_called_once()
except AssertionError:
    print("assert_called_once failed as expected")
side = mock.Mock(side_effect=[1, ValueError("boom"), 3])
print(side())
try:
    side()
except ValueError as e:
    print("raised", e)
print(side())
with mock.patch.dict("os.environ", {"CORPUS_FLAG": "1"}):
    import os
    print(os.environ["CORPUS_FLAG"])
print("CORPUS_FLAG" in os.environ)
opener = mock.mock_open(read_data='{"a": 1}')
with mock.patch("builtins.open", opener):
    with open("whatever.json") as f:
        print(json.load(f))
print(opener.call_args.args)
obj = mock.Mock(spec=["ping"])
print(obj.ping.return_value is obj.ping(), hasattr(obj, "pong"))
