"""Checks recorded HTTP responses against an OpenAPI 3.1 document.

Usage: validate.py OPENAPI_JSON SAMPLES_JSON

SAMPLES_JSON is a list of {"method", "path" (the document's template),
"status", "content_type", "body" (parsed JSON, or null)}. Each must be an
operation the document has, a status it lists, and a JSON body valid
against that response's schema (JSON Schema 2020-12, as OpenAPI 3.1 uses).
Prints one line per problem and exits 1 if there is any.
"""

import json
import sys

from jsonschema import Draft202012Validator


def resolve(doc, node):
    while isinstance(node, dict) and "$ref" in node and len(node) == 1:
        ref = node["$ref"]
        assert ref.startswith("#/"), ref
        node = doc
        for part in ref[2:].split("/"):
            node = node[part]
    return node


def main():
    doc = json.load(open(sys.argv[1]))
    samples = json.load(open(sys.argv[2]))
    Draft202012Validator.check_schema({"components": doc["components"]})
    problems = []
    checked = 0
    for s in samples:
        where = f'{s["method"]} {s["path"]} -> {s["status"]}'
        op = doc["paths"].get(s["path"], {}).get(s["method"].lower())
        if op is None:
            problems.append(f"{where}: no such operation in the document")
            continue
        resp = op["responses"].get(str(s["status"])) or op["responses"].get("default")
        if resp is None:
            problems.append(f"{where}: status not listed")
            continue
        resp = resolve(doc, resp)
        ct = (s.get("content_type") or "").split(";")[0].strip()
        content = resp.get("content", {})
        if ct and content and ct not in content:
            problems.append(f"{where}: content type {ct} not listed ({list(content)})")
            continue
        if ct != "application/json":
            checked += 1
            continue
        schema = content[ct]["schema"]
        root = dict(schema)
        root["components"] = doc["components"]
        errors = sorted(Draft202012Validator(root).iter_errors(s["body"]), key=lambda e: list(e.path))
        for e in errors[:3]:
            problems.append(f"{where}: {list(e.absolute_path)}: {e.message}")
        checked += 1
    for p in problems:
        print(p)
    print(json.dumps({"checked": checked, "problems": len(problems)}), file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
