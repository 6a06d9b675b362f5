#!/usr/bin/env python3
"""Where a test run's CPU goes: every process the run started, from the kernel's process
accounting (accton), the voicealarm ones by command and by the test folder they worked in.

usage (root, from the package's root, after make build-tests): scripts/test_cpu.py [WIDTH]

The tests run as make test runs them (scripts/run_tests.sh) with VOICEALARM_BIN pointing at a
script that logs its pid and arguments, then execs the binary (same pid, so signals still reach
it). Tests that check the binary's own path (StablePathTests) fail under it: the run's pass or
fail is not the point here, its CPU is. Prints CPU-seconds, starts and CPU per start."""
import collections, os, re, subprocess, sys, tempfile

if os.geteuid() != 0:
    sys.exit("error: test_cpu.py: process accounting (accton) needs root")
width = sys.argv[1] if len(sys.argv) > 1 else "12"
root = os.getcwd()
binary = f"{root}/.build/debug/voicealarm"
work = tempfile.mkdtemp(prefix="voicealarm-test-cpu.")
calls, acct, wrapper = f"{work}/calls.log", f"{work}/acct", f"{work}/voicealarm"
with open(wrapper, "w") as f:
    f.write(f"#!/bin/bash\nprintf '%s\\t%s\\n' \"$$\" \"$*\" >> {calls}\nexec {binary} \"$@\"\n")
os.chmod(wrapper, 0o755)
open(acct, "w").close()
subprocess.run(["accton", acct], check=True, stdout=subprocess.DEVNULL)
try:
    env = dict(os.environ, VOICEALARM_BIN=wrapper, VOICEALARM_TEST_PYTHON=f"{root}/.build/venv/bin/python",
               SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=width)
    run = subprocess.run(["scripts/run_tests.sh", f"{work}/events.jsonl"], env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
finally:
    subprocess.run(["accton", "off"], stdout=subprocess.DEVNULL)

started = {}
for line in open(calls, errors="replace"):
    pid, _, arguments = line.rstrip("\n").partition("\t")
    if pid.isdigit():
        started[int(pid)] = arguments.split()
valued = {"--data-dir", "--scheduler", "--sounds-dir", "--unit-dir"}
total = 0.0
# Each table: CPU-seconds and starts by key (starts only for the binary's own processes).
by_name, by_command, by_folder = ({"cpu": collections.Counter(), "starts": collections.Counter()} for _ in range(3))
for line in subprocess.run(["dump-acct", acct], capture_output=True, text=True, check=True).stdout.splitlines():
    field = [part.strip() for part in line.split("|")]
    cpu, pid = (float(field[2]) + float(field[3])) / 100, int(field[9])
    total += cpu
    arguments = started.get(pid)
    if arguments is None:
        by_name["cpu"][field[0]] += cpu
        continue
    words, skip = [], False
    for word in arguments:
        if skip:
            skip = False
        elif word in valued:
            skip = True
        elif not word.startswith("-") and "/" not in word and len(word) <= 30:
            words.append(word)
    folder = re.search(r"/(voicealarm-[a-z-]+?)-[0-9A-F]{8}", " ".join(arguments))
    for table, key in ((by_name, "voicealarm"), (by_command, "voicealarm " + " ".join(words[:2])),
                       (by_folder, folder.group(1) if folder else "(no test folder)")):
        table["cpu"][key] += cpu
        table["starts"][key] += 1


def show(title, table, rows=15):
    print(f"\n{title}")
    for key, cpu in table["cpu"].most_common(rows):
        n = table["starts"][key]
        print(f"  {cpu:8.1f} s" + (f" {n:6d} starts {cpu / n:6.3f} s each" if n else "") + f"  {key}")


print(f"The run ({'passed' if run.returncode == 0 else 'some tests failed'}): {total:.0f} CPU-seconds in all")
show("By process name (voicealarm: every start of the binary):", by_name)
show("voicealarm, by command:", by_command)
show("voicealarm, by the test folder it worked in:", by_folder)
subprocess.run(["rm", "-rf", work])
