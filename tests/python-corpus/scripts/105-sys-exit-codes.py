"""A validation script that exits with the number of problems found."""
import csv
import sys

problems = 0
with open("data/employees.csv", newline="", encoding="utf-8") as f:
    for row in csv.DictReader(f):
        if int(row["salary"]) < 60000:
            print("low salary:", row["name"])
            problems += 1
        if not row["manager_id"] and row["dept"] != "engineering":
            print("no manager:", row["name"])
            problems += 1
print("problems:", problems)
sys.exit(problems)
