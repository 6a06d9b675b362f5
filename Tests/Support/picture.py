"""Measures a ringtone picture independently of VoiceAlarm: parses the SVG as XML, renders it
with rsvg-convert (librsvg), decodes the PNG with ffmpeg, and finds each element by its colour.

Prints JSON: {"width", "height", "waveform": [first, last] columns with waveform blue,
"cap": the red line's column, "boundaries": [columns of the orange clip boundaries]}.
"""
import json
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

import numpy as np

WAVEFORM = (0x1F, 0x77, 0xB4)
CAP = (0xD6, 0x27, 0x28)
BOUNDARY = (0xFF, 0x7F, 0x0E)


def columns(image, colour, tolerance=40, least=20):
    """Columns holding at least `least` pixels within `tolerance` of `colour`."""
    distance = np.abs(image.astype(int) - np.array(colour)).sum(axis=2)
    counts = (distance <= tolerance).sum(axis=0)
    return [int(x) for x in np.nonzero(counts >= least)[0]]


def centres(cols):
    """Runs of adjacent columns, each as its centre."""
    runs, run = [], []
    for x in cols:
        if run and x != run[-1] + 1:
            runs.append(run)
            run = []
        run.append(x)
    if run:
        runs.append(run)
    return [sum(r) / len(r) for r in runs]


def main(svg):
    root = ElementTree.parse(svg).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg", root.tag
    width, height = int(root.get("width")), int(root.get("height"))
    with tempfile.NamedTemporaryFile(suffix=".png") as png:
        subprocess.run(["rsvg-convert", "-o", png.name, svg], check=True)
        raw = subprocess.run(["ffmpeg", "-v", "error", "-i", png.name, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
                             check=True, capture_output=True).stdout
    image = np.frombuffer(raw, dtype=np.uint8).reshape(height, width, 3)
    wave = columns(image, WAVEFORM, least=1)
    print(json.dumps({
        "width": width, "height": height,
        "waveform": [wave[0], wave[-1]] if wave else None,
        "cap": centres(columns(image, CAP, least=50)),
        "boundaries": centres(columns(image, BOUNDARY, least=40)),
    }))


if __name__ == "__main__":
    main(sys.argv[1])
