#!/usr/bin/env python3
"""Which tests failed in any of several runs, from Swift Testing's event streams
(--event-stream-output-path): each failing test with the runs it failed in and its first message.
Exit 1 when any test failed in any run, else 0 (`make test-repeat`).
usage: failed_tests.py EVENTS.jsonl...
"""
import json
import sys


def main():
    if len(sys.argv) < 2:
        print("usage: failed_tests.py EVENTS.jsonl...", file=sys.stderr)
        return 64
    names, failed, runs = {}, {}, 0
    for run, path in enumerate(sys.argv[1:], start=1):
        runs += 1
        try:
            events = open(path, encoding="utf-8")
        except OSError as error:
            print(f"run {run}: no event stream ({error})")
            failed.setdefault("(the run itself)", {})[run] = "no event stream"
            continue
        with events:
            for line in events:
                record = json.loads(line)
                payload = record.get("payload", {})
                if record.get("kind") == "test" and payload.get("kind") in ("function", "suite"):
                    names[payload["id"]] = payload.get("displayName") or payload.get("name")
                elif payload.get("kind") == "issueRecorded":
                    issue = payload.get("issue", {})
                    if not issue.get("isFailure", True) or issue.get("isKnown"):
                        continue
                    test = payload.get("testID") or "(outside a test)"
                    text = " ".join(m.get("text", "") for m in payload.get("messages", [])
                                    if m.get("symbol") == "details")
                    failed.setdefault(test, {}).setdefault(run, text[:200])
    if not failed:
        print(f"no test failed in {runs} run{'s' if runs != 1 else ''}")
        return 0
    print(f"{len(failed)} test{'s' if len(failed) != 1 else ''} failed in {runs} runs:")
    for test, where in sorted(failed.items(), key=lambda item: -len(item[1])):
        label = names.get(test, test)
        first = next(iter(where.values()))
        print(f"  {label} ({test.split('/')[0]}): runs {', '.join(map(str, sorted(where)))}: {first}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
