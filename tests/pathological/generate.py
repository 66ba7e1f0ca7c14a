#!/usr/bin/env python3
"""Writes valid but pathological Java programs and compiles them with javac.

    generate.py KIND SIZE OUT_DIR      -> OUT_DIR/src (sources), OUT_DIR/classes

KIND (SIZE is the dimension that grows):
  code-limit      one method of SIZE field increments (5400 is just under the 64 KiB limit)
  deep-branches   if statements nested SIZE deep, each writing a field
  wide-branches   a switch of SIZE cases and an if/else-if chain of SIZE arms
  call-chain      m0 calls m1 ... calls mSIZE, which does a racy x++
  scc             SIZE methods calling each other in one cycle, each writing a field
  nested-try      try blocks nested SIZE deep
  deep-hierarchy  SIZE classes, each extending the next; the deepest declares the field
  constant-pool   SIZE distinct string and long constants (SIZE <= 15000: four pool entries each)
  field-chain     an access through a chain of SIZE field reads (this.next.next...v = 1)

Every program has one @ThreadSafe class, so the analysis has races to report.
"""
import os
import subprocess
import sys

HEADER = "import javax.annotation.concurrent.ThreadSafe;\n"
ANNOTATION = """package javax.annotation.concurrent;
import java.lang.annotation.*;
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface ThreadSafe {}
"""


def code_limit(n):
    body = "".join(f"    f{i % 8} += {i};\n" for i in range(n))
    fields = "".join(f"  int f{i};\n" for i in range(8))
    return {"CodeLimit": f"{HEADER}@ThreadSafe\npublic class CodeLimit {{\n{fields}  public void big() {{\n{body}  }}\n}}\n"}


def deep_branches(n):
    open_ = "".join(f"{'  ' * (i % 40)}if (k > {i}) {{ x{i % 4} = {i};\n" for i in range(n))
    close = "}" * n
    return {"DeepBranches": f"{HEADER}@ThreadSafe\npublic class DeepBranches {{\n  int x0, x1, x2, x3;\n"
            f"  public void run(int k) {{\n{open_}{close}\n  }}\n}}\n"}


def wide_branches(n):
    cases = "".join(f"      case {i}: x{i % 4} = {i}; break;\n" for i in range(n))
    chain = "    " + " else ".join(f"if (k == {i}) {{ y = {i}; }}" for i in range(n)) + "\n"
    return {"WideBranches": f"{HEADER}@ThreadSafe\npublic class WideBranches {{\n  int x0, x1, x2, x3, y;\n"
            f"  public void sw(int k) {{\n    switch (k) {{\n{cases}    }}\n  }}\n"
            f"  public void chain(int k) {{\n{chain}  }}\n}}\n"}


def call_chain(n):
    methods = "".join(f"  public void m{i}() {{ m{i + 1}(); }}\n" for i in range(n))
    return {"CallChain": f"{HEADER}@ThreadSafe\npublic class CallChain {{\n  int x;\n{methods}"
            f"  public void m{n}() {{ x++; }}\n}}\n"}


def scc(n):
    methods = "".join(f"  public void m{i}(int k) {{ f{i % 16} = k; if (k > 0) m{(i + 1) % n}(k - 1); }}\n" for i in range(n))
    fields = "".join(f"  int f{i};\n" for i in range(16))
    return {"Cycle": f"{HEADER}@ThreadSafe\npublic class Cycle {{\n{fields}{methods}}}\n"}


def nested_try(n):
    open_ = "".join(f"try {{ x = {i};\n" for i in range(n))
    close = "".join(f"}} catch (RuntimeException e{i}) {{ x = -{i}; }}\n" for i in reversed(range(n)))
    return {"NestedTry": f"{HEADER}@ThreadSafe\npublic class NestedTry {{\n  int x;\n"
            f"  public void run() {{\n{open_}{close}  }}\n}}\n"}


def deep_hierarchy(n):
    files = {f"H{i}": f"public class H{i} extends H{i + 1} {{ public void set{i}() {{ v = {i}; }} }}\n" for i in range(1, n)}
    files[f"H{n}"] = f"public class H{n} {{ protected int v; public int get() {{ return v; }} }}\n"
    files["H0"] = f"{HEADER}@ThreadSafe\npublic class H0 extends H1 {{ public void set0() {{ v = 0; }} }}\n"
    return files


def constant_pool(n):
    per = 500
    methods = []
    for m in range(0, n, per):
        stmts = "".join(f'    s = "constant-{k}"; l = {1_000_000_000_000 + k}L;\n' for k in range(m, min(n, m + per)))
        methods.append(f"  public void c{m // per}() {{\n{stmts}  }}\n")
    return {"ConstantPool": f"{HEADER}@ThreadSafe\npublic class ConstantPool {{\n  String s; long l;\n{''.join(methods)}}}\n"}


def field_chain(n):
    chain = "this" + ".next" * n
    return {"FieldChain": f"{HEADER}@ThreadSafe\npublic class FieldChain {{\n  FieldChain next; int v;\n"
            f"  public void set() {{ {chain}.v = 1; }}\n  public int get() {{ return {chain}.v; }}\n}}\n"}


KINDS = {
    "code-limit": code_limit,
    "deep-branches": deep_branches,
    "wide-branches": wide_branches,
    "call-chain": call_chain,
    "scc": scc,
    "nested-try": nested_try,
    "deep-hierarchy": deep_hierarchy,
    "constant-pool": constant_pool,
    "field-chain": field_chain,
}


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in KINDS:
        sys.exit(f"usage: generate.py {{{'|'.join(KINDS)}}} SIZE OUT_DIR")
    kind, size, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    src = os.path.join(out, "src")
    os.makedirs(os.path.join(src, "javax/annotation/concurrent"), exist_ok=True)
    paths = [os.path.join(src, "javax/annotation/concurrent/ThreadSafe.java")]
    with open(paths[0], "w") as f:
        f.write(ANNOTATION)
    for name, text in KINDS[kind](size).items():
        paths.append(os.path.join(src, name + ".java"))
        with open(paths[-1], "w") as f:
            f.write(text)
    # javac recurses over deeply nested code: give it a big stack.
    subprocess.run(["javac", "-J-Xss256m", "-g", "-nowarn", "-d", os.path.join(out, "classes"), *paths], check=True)


if __name__ == "__main__":
    main()
