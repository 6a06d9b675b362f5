"""How alike two recordings are, independently of VoiceAlarm: both decoded by ffmpeg to 16 kHz
mono, cut to the shorter one's length, and compared by the peak of their normalised
cross-correlation (scipy), so a shift of up to a second (trimmed silence) does not matter.

Prints JSON: {"similarity": 0..1}. The same speech scores above 0.9; different speech below 0.4.

With a fourth argument `loop`, the second recording is a source played round and round (a
browser's fake microphone), and the first is compared with the stretch of it that matches best,
wherever that starts: {"similarity", "offset"} (seconds into the source).
"""
import json
import subprocess
import sys

import numpy as np
from scipy import signal

RATE = 16_000


def decode(path):
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-ac", "1", "-ar", str(RATE), "-f", "f32le", "-"],
                         check=True, capture_output=True).stdout
    return np.frombuffer(raw, dtype=np.float32).astype(np.float64)


def main(first, second, seconds):
    a, b = decode(first), decode(second)
    n = min(len(a), len(b), int(seconds * RATE))
    a, b = a[:n], b[:n]
    a, b = a - a.mean(), b - b.mean()
    lags = signal.correlation_lags(n, n)
    correlation = signal.correlate(a, b, mode="full", method="fft")
    window = np.abs(lags) <= RATE
    peak = np.max(np.abs(correlation[window])) / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-12)
    print(json.dumps({"similarity": float(peak)}))


def anywhere(first, source, seconds):
    a, b = decode(first), decode(source)
    n = min(len(a), int(seconds * RATE))
    a = a[:n] - a[:n].mean()
    looped = np.concatenate([b] * (2 + n // max(1, len(b))))
    correlation = signal.correlate(looped - looped.mean(), a, mode="valid", method="fft")
    offset = int(np.argmax(np.abs(correlation)))
    stretch = looped[offset:offset + n] - looped[offset:offset + n].mean()
    peak = abs(float(np.dot(a, stretch))) / (np.linalg.norm(a) * np.linalg.norm(stretch) + 1e-12)
    print(json.dumps({"similarity": peak, "offset": (offset % len(b)) / RATE}))


if __name__ == "__main__":
    if len(sys.argv) > 4 and sys.argv[4] == "loop":
        anywhere(sys.argv[1], sys.argv[2], float(sys.argv[3]))
    else:
        main(sys.argv[1], sys.argv[2], float(sys.argv[3]) if len(sys.argv) > 3 else 30.0)
