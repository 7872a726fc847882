#!/usr/bin/python3
"""validate.py SCHEMA FILE: exit 0 when the JSON document FILE is valid
against the JSON Schema SCHEMA (draft-07), else print the errors, exit 1."""
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1], encoding="utf-8"))
doc = json.load(open(sys.argv[2], encoding="utf-8"))
jsonschema.Draft7Validator.check_schema(schema)
errors = sorted(jsonschema.Draft7Validator(schema).iter_errors(doc), key=lambda e: list(e.path))
for e in errors[:10]:
    print(f"{sys.argv[2]}: {'/'.join(map(str, e.path))}: {e.message[:300]}")
sys.exit(1 if errors else 0)
