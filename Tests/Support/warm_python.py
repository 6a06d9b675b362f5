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
import json
import os
import runpy
import sys
import tempfile
import traceback

import numpy  # noqa: F401  (warmed for the scripts)
import pyloudnorm  # noqa: F401
import scipy.signal  # noqa: F401


def run(script, args):
    """Runs one script with descriptors 1 and 2 on files of its own, so what it or its children
    (ffmpeg, rsvg-convert) write there is its output, never a line of the answers."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        sys.stdout.flush()
        sys.stderr.flush()
        saved = os.dup(1), os.dup(2)
        os.dup2(out.fileno(), 1)
        os.dup2(err.fileno(), 2)
        status = 0
        sys.argv = [script] + args
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
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
        out.seek(0)
        err.seek(0)
        return {"status": status, "stdout": out.read().decode("utf-8", "replace"),
                "stderr": err.read().decode("utf-8", "replace")}


def main():
    # Requests and answers move to descriptors of their own: the scripts' children (ffmpeg reads
    # its stdin for keys) get /dev/null as stdin, and their stdout is the script's, never the answers.
    requests = os.fdopen(os.dup(0), "r")
    answers = os.fdopen(os.dup(1), "w")
    nothing = os.open(os.devnull, os.O_RDONLY)
    os.dup2(nothing, 0)
    os.close(nothing)
    for line in requests:
        request = json.loads(line)
        answers.write(json.dumps(run(request["script"], request["args"])) + "\n")
        answers.flush()


if __name__ == "__main__":
    main()
