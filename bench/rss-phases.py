#!/usr/bin/env python3
"""Where racer's memory goes: runs `racer analyze ARGS...` with RACER_TIMINGS=1, samples its
resident memory every 50 ms, and prints each phase line with the peak RSS seen since the
previous one (a poor man's heap profile; no instrumentation needed).

    bench/rss-phases.py [--racer target/dist/racer] -- analyze --quiet --format json --output /tmp/r.json JAR...
"""
import os
import subprocess
import sys
import threading
import time

args = sys.argv[1:]
racer = os.path.join(os.path.dirname(__file__), "..", "target", "dist", "racer")
if len(args) >= 2 and args[0] == "--racer":
    racer, args = args[1], args[2:]
if args and args[0] == "--":
    args = args[1:]
proc = subprocess.Popen([racer] + args, stderr=subprocess.PIPE, text=True, env=dict(os.environ, RACER_TIMINGS="1"))
peak = [0, 0]  # since the last phase, overall (KiB)


def sample():
    while proc.poll() is None:
        try:
            with open(f"/proc/{proc.pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        kb = int(line.split()[1])
                        peak[0] = max(peak[0], kb)
                        peak[1] = max(peak[1], kb)
        except OSError:
            break
        time.sleep(0.05)


threading.Thread(target=sample, daemon=True).start()
for line in proc.stderr:
    if "timing" in line:
        print(f"{line.rstrip()}   peak since previous: {peak[0] // 1024} MiB", flush=True)
        peak[0] = 0
proc.wait()
print(f"overall peak RSS (sampled): {peak[1] // 1024} MiB; exit {proc.returncode}")
