"""unittest.main(argv=..., exit=False) inside a script, then a custom exit code."""
import io
import sys
import unittest


class Strings(unittest.TestCase):
    def test_upper(self):
        self.assertEqual("abc".upper(), "ABC")

    def test_split(self):
        self.assertEqual("a,b".split(","), ["a", "b"])

    def test_strip_fails(self):
        self.assertEqual("  x ".strip(), "x ")


class Numbers(unittest.TestCase):
    def test_int(self):
        self.assertEqual(int("42"), 42)


runner = unittest.TextTestRunner(stream=io.StringIO())
prog = unittest.main(argv=["corpus"], exit=False, testRunner=runner)
r = prog.result
print("all:", r.testsRun, "failed:", [t.id() for t, _ in r.failures])
prog = unittest.main(argv=["corpus", "Numbers"], exit=False, testRunner=runner)
print("Numbers only:", prog.result.testsRun, prog.result.wasSuccessful())
prog = unittest.main(argv=["corpus", "Strings.test_upper", "Strings.test_split"], exit=False, testRunner=runner)
print("two by name:", prog.result.testsRun, prog.result.wasSuccessful())
prog = unittest.main(argv=["corpus", "-k", "split"], exit=False, testRunner=runner)
print("-k split:", prog.result.testsRun)
sys.exit(3 if r.failures else 0)
