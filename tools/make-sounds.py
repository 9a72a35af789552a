#!/usr/bin/env python3
"""Foodweb's sound effects, synthesised from art/sounds/sounds.toml.

Each sound is a sum of layers (a sine, triangle, square or saw voice, or
low-passed noise), each with a frequency glide and an attack-decay envelope;
the sum is scaled to the sound's peak and written as 22,050 Hz mono Ogg
Vorbis to assets/sounds/<name>.ogg by `oggenc` (Debian's vorbis-tools).
Noise and jitter come from a generator seeded by the sound's name, and
oggenc gets a fixed serial number: the same parameters give the same
files byte for byte.

    python3 tools/make-sounds.py            # every sound
    python3 tools/make-sounds.py die tick   # some
    python3 tools/make-sounds.py --wav DIR  # also keep the WAVs, to listen
"""

import argparse
import hashlib
import math
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import tomllib
import wave

RATE = 22050
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPEC = os.path.join(ROOT, "art", "sounds", "sounds.toml")
OUT = os.path.join(ROOT, "assets", "sounds")
QUALITY = "1"  # oggenc -q: small files, clean enough for effects this short
WAVES = {"sine", "triangle", "square", "saw", "noise"}
KEYS = {"wave", "f", "f_end", "at", "dur", "attack", "decay", "gain", "repeat", "every", "jitter", "detune"}


def fail(msg):
    sys.exit(f"make-sounds: {msg}")


def osc(wave_, phase):
    """One period of the wave at `phase` in [0, 1)."""
    if wave_ == "sine":
        return math.sin(2 * math.pi * phase)
    if wave_ == "triangle":
        return 4 * abs(phase - 0.5) - 1
    if wave_ == "square":
        return 1.0 if phase < 0.5 else -1.0
    return 2 * phase - 1  # saw


def layer_samples(name, i, layer, rng):
    unknown = set(layer) - KEYS
    if unknown:
        fail(f"[{name}] layer {i + 1}: unknown keys {sorted(unknown)}")
    wave_ = layer.get("wave")
    if wave_ not in WAVES:
        fail(f"[{name}] layer {i + 1}: wave must be one of {sorted(WAVES)}, not {wave_!r}")
    try:
        f0 = float(layer["f"])
        dur = float(layer["dur"])
    except (KeyError, TypeError, ValueError):
        fail(f"[{name}] layer {i + 1}: needs numbers f and dur")
    f1 = float(layer.get("f_end", f0))
    if min(f0, f1) <= 0 or dur <= 0:
        fail(f"[{name}] layer {i + 1}: frequencies and dur must be above 0")
    attack = max(float(layer.get("attack", 0.005)), 1.0 / RATE)
    decay = float(layer.get("decay", 0.0)) or None
    gain = float(layer.get("gain", 1.0))
    detune = float(layer.get("detune", 0.0))
    n = int(dur * RATE)
    out = [0.0] * n
    phase = phase2 = 0.0
    lp = lp_low = 0.0
    for k in range(n):
        t = k / RATE
        f = f0 * (f1 / f0) ** (t / dur)
        if wave_ == "noise":
            # Noise through a one-pole low-pass at f, less a low-pass at f/6:
            # a band that rustles rather than rumbles.
            x = rng.uniform(-1.0, 1.0)
            a = 1 - math.exp(-2 * math.pi * min(f, RATE / 2.2) / RATE)
            b = 1 - math.exp(-2 * math.pi * (f / 6) / RATE)
            lp += a * (x - lp)
            lp_low += b * (x - lp_low)
            v = (lp - lp_low) * 2.5
        else:
            v = osc(wave_, phase)
            phase = (phase + f / RATE) % 1.0
            if detune:
                v = 0.5 * (v + osc(wave_, phase2))
                phase2 = (phase2 + (f + detune) / RATE) % 1.0
        if t < attack:
            env = t / attack
        else:
            env = 3.0 ** (-(t - attack) / decay) if decay else 1.0
        # The last 4 ms fade out: no click at the cut.
        tail = (n - k) / RATE
        if tail < 0.004:
            env *= tail / 0.004
        out[k] = v * env * gain
    return out


def render(name, spec):
    layers = spec.get("layers")
    if not isinstance(layers, list) or not layers:
        fail(f"[{name}] has no layers")
    unknown = set(spec) - {"layers", "peak"}
    if unknown:
        fail(f"[{name}]: unknown keys {sorted(unknown)}")
    seed = int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "little")
    rng = random.Random(seed)
    mix = []
    for i, layer in enumerate(layers):
        repeat = int(layer.get("repeat", 1))
        every = float(layer.get("every", 0.0))
        jitter = float(layer.get("jitter", 0.0))
        for r in range(repeat):
            start = float(layer.get("at", 0.0)) + r * every
            if jitter and r:
                start += rng.uniform(-jitter, jitter)
            at = max(0, int(start * RATE))
            samples = layer_samples(name, i, layer, rng)
            if len(mix) < at + len(samples):
                mix.extend([0.0] * (at + len(samples) - len(mix)))
            for k, v in enumerate(samples):
                mix[at + k] += v
    top = max(abs(v) for v in mix) or 1.0
    peak = float(spec.get("peak", 0.8))
    return [v * peak / top for v in mix]


def write_wav(path, samples):
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(b"".join(struct.pack("<h", int(max(-1.0, min(1.0, v)) * 32767)) for v in samples))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="sounds to make (default: all)")
    parser.add_argument("--wav", metavar="DIR", help="also keep each sound as a WAV in DIR")
    args = parser.parse_args()
    if not shutil.which("oggenc"):
        fail("needs oggenc (Debian: apt install vorbis-tools)")
    try:
        with open(SPEC, "rb") as f:
            sounds = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        fail(f"{SPEC}: {e}")
    names = args.names or list(sounds)
    for name in names:
        if name not in sounds:
            fail(f"no sound named {name!r} in {SPEC}")
    os.makedirs(OUT, exist_ok=True)
    if args.wav:
        os.makedirs(args.wav, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            samples = render(name, sounds[name])
            wav = os.path.join(args.wav or tmp, f"{name}.wav")
            write_wav(wav, samples)
            ogg = os.path.join(OUT, f"{name}.ogg")
            subprocess.run(
                ["oggenc", "-Q", "-q", QUALITY, "--serial", "1", "-o", ogg, wav],
                check=True,
            )
            print(f"{name:16} {len(samples) / RATE:5.2f} s  {os.path.getsize(ogg):6,} bytes")


if __name__ == "__main__":
    main()
