"""How alike two recordings are, independently of VoiceAlarm: both decoded by ffmpeg to 16 kHz
mono, cut to the shorter one's length, and compared by the peak of their normalised
cross-correlation (scipy), so a shift of up to a second (trimmed silence) does not matter.

Prints JSON: {"similarity": 0..1}. The same speech scores above 0.9; different speech below 0.4.
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


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], float(sys.argv[3]) if len(sys.argv) > 3 else 30.0)
