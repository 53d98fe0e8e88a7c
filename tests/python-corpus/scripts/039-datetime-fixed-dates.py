"""Date arithmetic on fixed dates: deadlines, business days, formatting."""
from datetime import date, datetime, time, timedelta, timezone

start = date(2024, 2, 26)
print(start.isoformat(), start.strftime("%A %d %B %Y"), start.weekday(), start.isoweekday())
print(start + timedelta(days=5), start - date(2023, 12, 25), (start - date(2023, 12, 25)).days)
print("leap day:", date(2024, 2, 28) + timedelta(days=1), "next:", date(2023, 2, 28) + timedelta(days=1))


def add_business_days(d, n):
    while n:
        d += timedelta(days=1)
        if d.weekday() < 5:
            n -= 1
    return d


for n in (1, 5, 10):
    print(f"+{n} business days:", add_business_days(start, n))
dt = datetime(2024, 3, 1, 14, 5, 9, 123456)
print(dt.isoformat(), dt.isoformat(timespec="seconds"), dt.strftime("%Y%m%dT%H%M%S %j %U %p %I"))
print(datetime.strptime("2024-03-01 08:04:45", "%Y-%m-%d %H:%M:%S") - datetime(2024, 3, 1))
td = timedelta(days=2, hours=5, minutes=3, seconds=7, microseconds=50)
print(str(td), td.total_seconds(), repr(timedelta(hours=-1)), str(timedelta(hours=-1)))
utc = datetime(2024, 3, 1, 12, 0, tzinfo=timezone.utc)
cet = timezone(timedelta(hours=1), "CET")
print(utc.astimezone(cet).isoformat(), utc.astimezone(cet).tzname(), utc.timestamp())
print(datetime.fromtimestamp(1700000000, tz=timezone.utc).isoformat())
print(datetime.fromisoformat("2024-03-01T08:00:00+02:00").utcoffset())
print(date.fromisocalendar(2024, 1, 1), date(2024, 12, 30).isocalendar()[:])
print(datetime.combine(date(2024, 1, 1), time(9, 30)).replace(minute=45))
months = [date(2024, m, 1).strftime("%b") for m in range(1, 13)]
print(months)
ages = {"ada": date(1990, 12, 10), "bob": date(2000, 2, 29)}
ref = date(2024, 2, 28)
for name, born in ages.items():
    years = ref.year - born.year - ((ref.month, ref.day) < (born.month, born.day))
    print(name, years)
print(date.min, date.max, timedelta.max.days, date(2024, 3, 1).toordinal())
