"""setUpClass/setUp/tearDown/cleanup ordering, recorded and printed."""
import io
import unittest

events = []


class Lifecycle(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        events.append("setUpClass")

    @classmethod
    def tearDownClass(cls):
        events.append("tearDownClass")

    def setUp(self):
        events.append("setUp " + self._testMethodName)
        self.addCleanup(events.append, "cleanup " + self._testMethodName)

    def tearDown(self):
        events.append("tearDown " + self._testMethodName)

    def test_a(self):
        events.append("run a")

    def test_b(self):
        events.append("run b")
        self.fail("b fails")


result = unittest.TextTestRunner(stream=io.StringIO()).run(unittest.defaultTestLoader.loadTestsFromTestCase(Lifecycle))
print("\n".join(events))
print(result.testsRun, len(result.failures))
