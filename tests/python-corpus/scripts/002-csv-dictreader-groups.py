"""Employees by department with DictReader: headcount, payroll, seniority."""
import csv
from collections import defaultdict
from datetime import date

with open("data/employees.csv", newline="", encoding="utf-8") as f:
    people = list(csv.DictReader(f))

print("fields:", list(people[0].keys()))
depts = defaultdict(list)
for p in people:
    depts[p["dept"]].append(p)

today = date(2024, 6, 30)
for dept in sorted(depts):
    staff = depts[dept]
    payroll = sum(int(p["salary"]) for p in staff)
    senior = min(staff, key=lambda p: p["start_date"])
    years = (today - date.fromisoformat(senior["start_date"])).days // 365
    print(f"{dept}: {len(staff)} people, payroll {payroll:,}, longest serving {senior['name']} ({years}y)")

managers = {p["id"]: p["name"] for p in people}
for p in people:
    if p["manager_id"]:
        print(f"  {p['name']} -> {managers[p['manager_id']]}")
print("no manager:", ", ".join(p["name"] for p in people if not p["manager_id"]))
