"""Skips, expected failures and subtests, counted from the result object."""
import io
import sys
import unittest


class Features(unittest.TestCase):
    @unittest.skip("not ready")
    def test_skipped(self):
        raise AssertionError

    @unittest.skipIf(sys.platform != "nonexistent", "only on a made-up platform")
    def test_platform(self):
        pass

    @unittest.expectedFailure
    def test_known_bug(self):
        self.assertEqual(1 + 1, 3)

    @unittest.expectedFailure
    def test_unexpected_success(self):
        self.assertEqual(1 + 1, 2)

    def test_even(self):
        for n in [2, 4, 5, 8, 9]:
            with self.subTest(n=n):
                self.assertEqual(n % 2, 0)

    def test_skip_inside(self):
        self.skipTest("decided at run time")


suite = unittest.defaultTestLoader.loadTestsFromTestCase(Features)
result = unittest.TextTestRunner(stream=io.StringIO()).run(suite)
print("run", result.testsRun)
print("skipped", sorted((t.id().rsplit(".", 1)[1], reason) for t, reason in result.skipped))
print("expected failures", [t.id().rsplit(".", 1)[1] for t, _ in result.expectedFailures])
print("unexpected successes", [t.id().rsplit(".", 1)[1] for t in result.unexpectedSuccesses])
print("subtest failures", len(result.failures), sorted(str(t.params) for t, _ in result.failures))
print("successful", result.wasSuccessful())
sys.exit(0 if result.wasSuccessful() else 1)
