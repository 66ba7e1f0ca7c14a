#!/usr/bin/env python3
"""Multi-module benchmark (prints figures, asserts nothing; not part of the test suite).

Generates a build of N Java modules in a dependency graph with chains and diamonds (module
i depends on module i-1 and on up to two earlier modules near it, so most modules have a
long transitive upstream), compiles it with one javac run, then analyses it

  * module by module, as the Gradle and Maven plugins do: each module's classes, its
    upstream modules' class directories as classpath, the summary files of all its
    transitive upstream modules in, its own summary file out;
  * all at once: every module in one run (no summary files).

and reports both totals, for each module count given (e.g. 25 50 100 200), so that the
growth of the module-by-module total as the module count doubles can be read off.

    bench/multimodule.py [--racer target/dist/racer] [--classes 20] [--threads 2] 25 50 100 200
"""

import argparse
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time


def deps_of(i, rng):
    """Module i's direct dependencies: the previous module (a chain) and up to two earlier
    modules within a window of eight (diamonds)."""
    if i == 0:
        return []
    out = {i - 1}
    for _ in range(2):
        if i >= 2 and rng.random() < 0.6:
            out.add(rng.randrange(max(0, i - 8), i - 1))
    return sorted(out)


def class_source(i, j, classes, deps, rng):
    """Class C<j> of module i: racy and locked accesses, calls into its own module and into
    upstream modules (at most two classes deep), a container field, and (for one class in
    five) an upstream superclass."""
    pkg = f"bench.m{i}"
    callees = [f"bench.m{d}.C{rng.randrange(classes)}" for d in deps] or []
    if j > 0:
        callees.append(f"{pkg}.C{rng.randrange(j)}")
    if not callees:
        callees = [None]
    extends = ""
    if deps and j % 5 == 4:
        extends = f" extends bench.m{rng.choice(deps)}.C{rng.randrange(classes)}"
    fields = []
    body = []
    for k, callee in enumerate(callees):
        if callee is None:
            continue
        fields.append(f"    private final {callee} dep{k} = new {callee}();")
        body.append(f"        dep{k}.touch();")
    field_text = "\n".join(fields)
    # update() calls only leaf methods of other classes, lockedWork() calls their update():
    # calls reach two classes deep, as typical layered code does, so summaries stay small.
    calls = "\n".join(body)
    locked_calls = "\n".join(b.replace("touch", "update") for b in body)
    return f"""package {pkg};

import java.util.HashMap;
import java.util.Map;

public class C{j}{extends} {{
    private int count{j};
    private long total;
    private final Map<String, Integer> index = new HashMap<>();
{field_text}

    public synchronized void lockedWork() {{
        count{j}++;
{locked_calls}
    }}

    public void update() {{
        count{j} += 2;
        index.put("k", count{j});
{calls}
    }}

    public void touch() {{
        total--;
    }}

    public int read() {{
        return count{j} + index.size();
    }}

    private void helper(int n) {{
        for (int k = 0; k < n; k++) {{
            total += k;
        }}
    }}

    public void run(int n) {{
        helper(n);
        update();
    }}
}}
"""


def generate(root, modules, classes, seed=42):
    rng = random.Random(seed)
    deps = [deps_of(i, rng) for i in range(modules)]
    src = os.path.join(root, "src")
    for i in range(modules):
        d = os.path.join(src, "bench", f"m{i}")
        os.makedirs(d, exist_ok=True)
        for j in range(classes):
            with open(os.path.join(d, f"C{j}.java"), "w") as f:
                f.write(class_source(i, j, classes, deps[i], rng))
    return deps


def compile_and_split(root, modules):
    """One javac run for the whole build, then one class directory per module."""
    src = os.path.join(root, "src")
    out = os.path.join(root, "all-classes")
    files = [os.path.join(dp, f) for dp, _, fs in os.walk(src) for f in fs if f.endswith(".java")]
    with open(os.path.join(root, "sources.txt"), "w") as f:
        f.write("\n".join(files))
    subprocess.run(["javac", "-nowarn", "--release", "8", "-d", out, "@" + os.path.join(root, "sources.txt")],
                   check=True, stderr=subprocess.DEVNULL)
    dirs = []
    for i in range(modules):
        d = os.path.join(root, "modules", f"m{i}")
        os.makedirs(os.path.join(d, "bench"), exist_ok=True)
        shutil.move(os.path.join(out, "bench", f"m{i}"), os.path.join(d, "bench", f"m{i}"))
        dirs.append(d)
    return dirs


def transitive(deps):
    closure = []
    for i, ds in enumerate(deps):
        seen = set()
        for d in ds:
            seen.add(d)
            seen.update(closure[d])
        closure.append(sorted(seen))
    return closure


def timed(cmd):
    """Runs cmd; returns (wall seconds, CPU seconds: user + system). CPU time is reported
    too because on a shared machine it moves much less than wall time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def run_size(racer, modules, classes, threads):
    root = tempfile.mkdtemp(prefix=f"racer-multimodule-{modules}-")
    try:
        deps = generate(root, modules, classes)
        dirs = compile_and_split(root, modules)
        closure = transitive(deps)
        sums = [os.path.join(root, "summaries", f"m{i}.summaries") for i in range(modules)]
        common = [racer, "analyze", "--quiet", "--format", "json", "--threads", str(threads)]
        per_module = 0.0
        per_module_cpu = 0.0
        loaded_files = 0
        for i in range(modules):
            cmd = common + ["--output", os.path.join(root, "reports", f"m{i}.json"), "--summaries-out", sums[i]]
            for u in closure[i]:
                cmd += ["--classpath", dirs[u], "--summaries-in", sums[u]]
                loaded_files += 1
            wall, cpu = timed(cmd + [dirs[i]])
            per_module += wall
            per_module_cpu += cpu
        whole, whole_cpu = timed(common + ["--output", os.path.join(root, "whole.json")] + dirs)
        sum_bytes = sum(os.path.getsize(s) for s in sums)
        class_bytes = sum(os.path.getsize(os.path.join(dp, f)) for d in dirs for dp, _, fs in os.walk(d) for f in fs)
        edges = sum(len(d) for d in deps)
        return {
            "modules": modules,
            "classes": modules * classes,
            "edges": edges,
            "summary_files_read": loaded_files,
            "per_module": per_module,
            "per_module_cpu": per_module_cpu,
            "whole": whole,
            "whole_cpu": whole_cpu,
            "sum_ratio": sum_bytes / class_bytes,
        }
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--racer", default=os.path.join(os.path.dirname(__file__), "..", "target", "dist", "racer"))
    ap.add_argument("--classes", type=int, default=20, help="classes per module")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("sizes", type=int, nargs="*", default=[25, 50, 100, 200])
    args = ap.parse_args()
    print("| modules | classes | dependency edges | summary files read (all modules) | module by module: wall (s) "
          "| CPU (s) | CPU per module (ms) | CPU growth vs half the modules | all at once: wall (s) | CPU (s) "
          "| summary / class bytes |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    previous = None
    for n in args.sizes:
        r = run_size(os.path.abspath(args.racer), n, args.classes, args.threads)
        growth = f"{r['per_module_cpu'] / previous:.2f}x" if previous else "-"
        previous = r["per_module_cpu"]
        print(f"| {r['modules']} | {r['classes']} | {r['edges']} | {r['summary_files_read']} | {r['per_module']:.2f} "
              f"| {r['per_module_cpu']:.2f} | {1000 * r['per_module_cpu'] / n:.1f} | {growth} | {r['whole']:.2f} "
              f"| {r['whole_cpu']:.2f} | {r['sum_ratio']:.2f} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
