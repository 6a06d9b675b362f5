#!/usr/bin/env python3
"""A Python interpreter that stays warm for the tests' measuring scripts.

Importing numpy, scipy and pyloudnorm costs about two seconds of CPU, more than most measurements
themselves; a test run measures dozens of files. This process imports them once, then runs each
script it is asked for exactly as `python SCRIPT ARGS...` would (runpy, `__name__ == "__main__"`,
`sys.argv` set), one at a time, with the script's stdout and stderr captured.

Protocol: one JSON request per line on stdin, {"script": PATH, "args": [...]}; one JSON answer
per line on stdout, {"status": EXIT_STATUS, "stdout": TEXT, "stderr": TEXT}, in request order.
Ends when stdin closes (the test process ended).
"""
import contextlib
import io
import json
import runpy
import sys
import traceback

import numpy  # noqa: F401  (warmed for the scripts)
import pyloudnorm  # noqa: F401
import scipy.signal  # noqa: F401


def run(script, args):
    out, err = io.StringIO(), io.StringIO()
    status = 0
    sys.argv = [script] + args
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            runpy.run_path(script, run_name="__main__")
        except SystemExit as end:
            if isinstance(end.code, int):
                status = end.code
            elif end.code is not None:
                print(end.code, file=sys.stderr)
                status = 1
        except BaseException:  # the script's failure is its answer, not the server's end
            traceback.print_exc()
            status = 1
    return {"status": status, "stdout": out.getvalue(), "stderr": err.getvalue()}


def main():
    answers = sys.stdout
    for line in sys.stdin:
        request = json.loads(line)
        answers.write(json.dumps(run(request["script"], request["args"])) + "\n")
        answers.flush()


if __name__ == "__main__":
    main()
