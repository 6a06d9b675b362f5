#!/usr/bin/env python3
"""The slowest tests of a run, from Swift Testing's event stream (--event-stream-output-path).

A test's time is what its cases spent running: the sum of their end instants minus the sum of
their start instants, so a case's wait for a free slot (at most TEST_WIDTH run at once) is not
counted, and cases of one test that ran at the same time are each counted. EVENTS may hold the
streams of several processes of one run (scripts/run_tests.sh): the run is from the first start
to the last end.
usage: slowest_tests.py EVENTS.jsonl [COUNT]
"""
import json
import sys


def main():
    if len(sys.argv) < 2:
        print("usage: slowest_tests.py EVENTS.jsonl [COUNT]", file=sys.stderr)
        return 64
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    names, spent, cases = {}, {}, {}
    first = last = None
    with open(sys.argv[1], encoding="utf-8") as events:
        for line in events:
            record = json.loads(line)
            payload = record.get("payload", {})
            if record.get("kind") == "test" and payload.get("kind") == "function":
                names[payload["id"]] = payload.get("displayName") or payload.get("name")
                continue
            kind, instant = payload.get("kind"), payload.get("instant", {}).get("absolute")
            if kind == "runStarted":
                first = instant if first is None else min(first, instant)
            elif kind == "runEnded":
                last = instant if last is None else max(last, instant)
            elif kind in ("testCaseStarted", "testCaseEnded") and payload.get("testID") in names:
                sign = -1 if kind == "testCaseStarted" else 1
                spent[payload["testID"]] = spent.get(payload["testID"], 0.0) + sign * instant
                if sign > 0:
                    cases[payload["testID"]] = cases.get(payload["testID"], 0) + 1
    ranked = sorted(spent.items(), key=lambda item: -item[1])[:count]
    if first is not None and last is not None:
        print(f"test run: {last - first:.1f} s, {len(spent)} tests, {sum(cases.values())} cases")
    print(f"the {len(ranked)} slowest tests (seconds their cases ran):")
    for test, seconds in ranked:
        label = names.get(test, test)
        label = label if len(label) <= 90 else label[:87] + "..."
        print(f"  {seconds:7.1f}  {label} ({test.split('/')[0]}, {cases.get(test, 0)} case{'s' if cases.get(test, 0) != 1 else ''})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
