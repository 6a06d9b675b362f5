#!/usr/bin/env python3
"""Independent measurements of an audio file, for VoiceAlarm's tests.

Decodes FILE with the ffmpeg command-line tool to 64-bit float at the file's own rate and
channel count, then prints JSON:
  integrated  EBU R128 integrated loudness (LUFS), by pyloudnorm (a second implementation,
              not libavfilter's ebur128 that VoiceAlarm uses)
  truePeak    dBTP, by 4x oversampling (scipy's polyphase resampler) of every channel
  samplePeak  dBFS, largest absolute sample
  samples     decoded sample frames; rate; channels
  rms         dBFS of the whole file
Usage: measure.py FILE
"""
import json, subprocess, sys
import numpy as np
import pyloudnorm
from scipy.signal import resample_poly


def probe(path):
    out = subprocess.run(
        ["ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries",
         "stream=sample_rate,channels", "-of", "json", path],
        check=True, capture_output=True, text=True).stdout
    stream = json.loads(out)["streams"][0]
    return int(stream["sample_rate"]), int(stream["channels"])


def decode(path, rate, channels):
    raw = subprocess.run(
        ["ffmpeg", "-v", "error", "-i", path, "-f", "f64le", "-acodec", "pcm_f64le", "-"],
        check=True, capture_output=True).stdout
    return np.frombuffer(raw, dtype="<f8").reshape(-1, channels)


def db(x):
    return float(20 * np.log10(x)) if x > 0 else -1000.0


def main(path):
    rate, channels = probe(path)
    audio = decode(path, rate, channels)
    meter = pyloudnorm.Meter(rate)
    data = audio[:, 0] if channels == 1 else audio
    integrated = float(meter.integrated_loudness(data)) if len(audio) >= int(0.4 * rate) else -1000.0
    if not np.isfinite(integrated):
        integrated = -1000.0
    oversampled = resample_poly(audio, 4, 1, axis=0)
    print(json.dumps({
        "integrated": integrated,
        "truePeak": db(np.max(np.abs(oversampled))) if len(audio) else -1000.0,
        "samplePeak": db(np.max(np.abs(audio))) if len(audio) else -1000.0,
        "rms": db(float(np.sqrt(np.mean(audio ** 2)))) if len(audio) else -1000.0,
        "samples": int(len(audio)),
        "rate": rate,
        "channels": channels,
    }))


if __name__ == "__main__":
    main(sys.argv[1])
