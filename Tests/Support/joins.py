#!/usr/bin/env python3
"""An independent click detector for ringtones: at every clip join and at the loop seam.

Decodes FILE with the ffmpeg CLI to 64-bit float at 44.1 kHz mono and looks for the mark a hard
cut leaves: one sample whose second difference, x[n] - 2x[n-1] + x[n-2], stands far above the
second differences around it (the outlier test of published click detectors, with the
second difference as the simplest prediction error). At each position it reports

    ratio = max |d2| within +-1 ms  /  RMS of d2 over 3-30 ms on both sides

and the loop seam is the file's end played straight into its start, as an alarm loops it.
A cut through a tone, a noise bed or a DC offset scores 10-1000; a faded edge, speech or a
steady tone scores under 3.

A neighbourhood quieter than -80 dBFS of second difference counts as -80 dBFS (--floor DB; the
tests use -90 for PCM and -60 for AAC, whose own reconstruction error at a ringtone's first
samples, up to -53 dBFS, is a codec matter and not a click against digital silence).

Usage: joins.py [--floor DB] FILE [SECONDS ...]   (join positions in seconds; from render --json)
Prints JSON: {"joins": [{"at", "ratio"}], "seam": ratio, "max": ratio}
"""
import json, subprocess, sys
import numpy as np

RATE = 44100
FLOOR = -80.0


def decode(path):
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-ac", "1", "-ar", str(RATE),
                          "-f", "f64le", "-acodec", "pcm_f64le", "-"], check=True, capture_output=True).stdout
    return np.frombuffer(raw, dtype="<f8")


def ratio(x, at):
    """The outlier ratio of the second difference around sample `at` of `x`."""
    d2 = np.zeros_like(x)
    d2[2:] = x[2:] - 2 * x[1:-1] + x[:-2]
    near = int(0.001 * RATE)
    inner, outer = int(0.003 * RATE), int(0.030 * RATE)
    lo, hi = max(0, at - near), min(len(x), at + near + 2)
    peak = float(np.max(np.abs(d2[lo:hi]))) if hi > lo else 0.0
    around = np.concatenate([d2[max(0, at - outer):max(0, at - inner)], d2[min(len(x), at + inner):min(len(x), at + outer)]])
    floor = float(np.sqrt(np.mean(around ** 2))) if len(around) else 0.0
    # Digital silence, or a hum so smooth its second difference is under the codec's own noise,
    # is no neighbourhood to be loud against: the ratio is against at least FLOOR dBFS.
    floor = max(floor, 10 ** (FLOOR / 20))
    return peak / floor


def main():
    global FLOOR
    args = sys.argv[1:]
    if args[:1] == ["--floor"]:
        FLOOR, args = float(args[1]), args[2:]
    path, seconds = args[0], [float(s) for s in args[1:]]
    x = decode(path)
    joins = []
    for s in seconds:
        at = int(round(s * RATE))
        if 0 < at < len(x):
            joins.append({"at": s, "ratio": ratio(x, at)})
    span = int(0.05 * RATE)
    wrapped = np.concatenate([x[-span:], x[:span]])
    seam = ratio(wrapped, span)
    print(json.dumps({"joins": joins, "seam": seam, "max": max([seam] + [j["ratio"] for j in joins])}))


if __name__ == "__main__":
    main()
