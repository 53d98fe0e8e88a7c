"""calendar: month grids, leap years, weekday names, and a meeting schedule."""
import calendar
from datetime import date

cal = calendar.TextCalendar(firstweekday=calendar.MONDAY)
print(cal.formatmonth(2024, 2))
print(calendar.isleap(2024), calendar.isleap(1900), calendar.leapdays(2000, 2025))
print([tuple(map(int, calendar.monthrange(y, 2))) for y in (2024, 2023)])
print(int(calendar.weekday(2024, 3, 1)), list(calendar.day_abbr)[calendar.weekday(2024, 3, 1)])
print([calendar.month_name[m] for m in (1, 6, 12)])
weeks = calendar.Calendar(firstweekday=0).monthdayscalendar(2024, 3)
print(len(weeks), weeks[0], weeks[-1])
# Second Tuesday of every month in 2024.
for month in range(1, 13):
    days = [d for d in calendar.Calendar().itermonthdates(2024, month) if d.month == month and d.weekday() == calendar.TUESDAY]
    print(date(2024, month, 1).strftime("%b"), days[1].day, end="; ")
print()
print(calendar.timegm((2024, 3, 1, 0, 0, 0)))
