"""A failing suite: which tests fail or error, and the exit status an agent sees."""
import io
import sys
import unittest

import calc


class TestBuggy(unittest.TestCase):
    def test_positive(self):
        self.assertEqual(calc.buggy_max([1, 7, 3]), 7)

    def test_negative(self):
        self.assertEqual(calc.buggy_max([-5, -2, -9]), -2)

    def test_empty_mean(self):
        calc.mean([])

    def test_div(self):
        self.assertEqual(calc.div(10, 4), 2.5)

    def test_wrong_type(self):
        self.assertEqual(calc.add(1, "2"), 3)


suite = unittest.defaultTestLoader.loadTestsFromTestCase(TestBuggy)
stream = io.StringIO()
result = unittest.TextTestRunner(stream=stream, verbosity=2).run(suite)
print("ran:", result.testsRun)
print("failures:", sorted(t.id().rsplit(".", 1)[1] for t, _ in result.failures))
print("errors:", sorted(t.id().rsplit(".", 1)[1] for t, _ in result.errors))
for test, tb in result.failures + result.errors:
    print(test.id().rsplit(".", 1)[1], "->", tb.strip().splitlines()[-1])
print("successful:", result.wasSuccessful())
sys.exit(len(result.failures) + len(result.errors))
