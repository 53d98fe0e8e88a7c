"""A passing unittest suite for calc.py, run with a runner whose report goes to a buffer."""
import io
import sys
import unittest

import calc


class TestCalc(unittest.TestCase):
    def test_add(self):
        self.assertEqual(calc.add(2, 3), 5)
        self.assertEqual(calc.add("a", "b"), "ab")

    def test_div(self):
        self.assertAlmostEqual(calc.div(1, 3), 0.3333333, places=6)
        with self.assertRaises(ZeroDivisionError):
            calc.div(1, 0)

    def test_mean(self):
        self.assertEqual(calc.mean([1, 2, 3, 4]), 2.5)
        with self.assertRaisesRegex(ValueError, "nothing"):
            calc.mean([])

    def test_containers(self):
        self.assertIn(3, [1, 2, 3])
        self.assertCountEqual([3, 1, 2], [1, 2, 3])
        self.assertDictEqual({"a": 1}, {"a": 1})
        self.assertIsNone(None)
        self.assertTrue(calc.buggy_max([1, 5, 2]) == 5)


suite = unittest.defaultTestLoader.loadTestsFromTestCase(TestCalc)
print("tests found:", suite.countTestCases(), sorted(t.id().split(".")[-1] for t in suite))
result = unittest.TextTestRunner(stream=io.StringIO(), verbosity=0).run(suite)
print("ran", result.testsRun, "failures", len(result.failures), "errors", len(result.errors), "ok", result.wasSuccessful())
sys.exit(0 if result.wasSuccessful() else 1)
