"""logging configured to stdout with a fixed format (no timestamps)."""
import logging
import sys

logging.basicConfig(stream=sys.stdout, level=logging.INFO, format="%(levelname)s:%(name)s:%(message)s")
log = logging.getLogger("inventory")
log.debug("hidden")
log.info("starting with %d items", 3)
log.warning("low stock: %s", "bolt")
db = logging.getLogger("inventory.db")
db.setLevel(logging.DEBUG)
db.debug("query took %.1f ms", 12.345)
try:
    1 / 0
except ZeroDivisionError:
    log.error("failed: %s", "division", exc_info=False)
handler = logging.StreamHandler(sys.stdout)
handler.setFormatter(logging.Formatter("[%(name)s] %(levelname)-8s| %(message)s"))
audit = logging.getLogger("audit")
audit.propagate = False
audit.addHandler(handler)
audit.warning("user %s deleted %d rows", "ada", 7)
audit.critical("disk almost full")


class OnlyErrors(logging.Filter):
    def filter(self, record):
        return record.levelno >= logging.ERROR


handler.addFilter(OnlyErrors())
audit.warning("filtered out")
audit.error("kept")
print(logging.getLevelName(logging.WARNING), logging.getLevelName(15), log.getEffectiveLevel(), db.parent.name)
logging.shutdown()
