#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ipcc overhead benchmark (host side): does class-aware balancing slow
down the scheduler's hot paths?

usage: bench/overhead/run.py [--pairs N] [--profile P] [--roundtrips N]
                             [--hackbench "G F L"] [--wakelat "M W R N"]
                             [--only ping|hack|lat]
                             [--analyze LOGDIR [LOGDIR [LOGDIR]]]

Three boots of the profile (default adl-hw), each running N pairs (default 7) of
mode 0 and mode 2, alternating (ABBA: pair 1 runs 0 then 2, pair 2 runs 2
then 0, ...) after one unrecorded warm-up:

  1. QEMU_ICOUNT=3 (one host thread runs every vCPU in turn, every
     instruction 8 ns of guest time: a time is an instruction count and
     host load changes nothing): ipcc-pingpong with both processes on CPU
     0 ("pingpong-1cpu": wakeup and context switch without IPIs) and
     unpinned ("pingpong": cross-CPU wakeups), raw.  (Until December
     2026 this boot ran QEMU_ICOUNT=1, the automatic shift, with times
     divided by a calibration loop's (calib_ns, which the tools still
     print); on a loaded host its pair ratios ranged 0.16-2.1.)
  2. QEMU_ICOUNT=3 like the first: ipcc-hackbench (pipe messaging
     between groups of processes, seconds, raw).  With one host thread
     running the vCPUs in turn its time is the instructions all CPUs
     executed until it finished: the work the kernel did for it, not
     how well it ran in parallel.  Its own dynamics (which receiver
     blocks when) still move a run by about 10%.  (Until December 2026
     multi-threaded TCG, where the host's load moved pair ratios from
     0.53 to 2.26.)
  3. QEMU_ICOUNT=3 like the first: ipcc-wakelat, a
     schbench-like wake-up latency test (messengers waking workers that
     compute a while; "wakeup-p50" and "wakeup-p99", ns).

Each (tool, mode, pair) is the best of 3 runs.  The tools' processes get
their classes from the hardware (our QEMU's Thread Director classifies
what they execute: mostly scalar code, class 0), so class tracking (class
reads at the tick, HRESET at context switches) and class-aware balancing
have work to do.

ratio = mode-0 time / mode-2 time per pair: 1.0 means equal, >= 0.99 means
no measurable overhead, < 1 means mode 2 is slower; a slowdown is only
claimed when all pairs but at most one agree.  Reports the median and the
min-max of the pair ratios.  Writes out/bench/overhead.json and
out/bench/overhead.csv.
"""

import argparse
import csv
import json
import re
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import benchlib as bl  # noqa: E402

RES = bl.OUT / "bench"


def guest_script(pairs, tools):
    """tools: [(name, command)]."""
    body = "".join(f'\t\techo "RESULT {n} $1 $2 $({c})"\n' for n, c in tools)
    warm = "".join(f"{c} >/dev/null\n" for _, c in tools)
    s = [bl.GUEST_PROLOGUE, r"""
one() {
	echo $1 >/proc/sys/kernel/sched_ipcc || { say "cannot set mode $1"; fail=1; return; }
	sleep 1
	for k in 1 2 3; do
""", body, "\tdone\n}\n", warm]
    for p in range(1, pairs + 1):
        first, second = (0, 2) if p % 2 else (2, 0)
        s.append(f"one {first} {p}\none {second} {p}\n")
    s.append("exit $fail\n")
    return "".join(s)


def verdict(ratios):
    """No overhead if the median ratio is >= 0.99; a slowdown only when all
    pairs but at most one agree (sign test, p ~ 0.06 for 7 pairs)."""
    if not ratios:
        return None
    med = statistics.median(ratios)
    slower = sum(1 for r in ratios if r < 1)
    noisy = f" (noisy: pairs range {min(ratios):.2f}-{max(ratios):.2f})" \
        if max(ratios) - min(ratios) > 0.2 else ""
    if med >= 0.99:
        return "no measurable overhead" + noisy
    if slower < len(ratios) - 1:
        return f"within noise ({slower} of {len(ratios)} pairs slower in mode 2)" + noisy
    return f"mode 2 slower by {(1 / med - 1) * 100:.1f}% ({slower} of {len(ratios)} pairs)"


def analyze(out, clock):
    """Per tool, mode and pair the best (lowest) of the runs, raw: under a
    fixed icount shift a time is an instruction count."""
    runs = {}
    for m in re.finditer(r"^RESULT ([\w-]+) (\d) (\d+) (.*)$", out, re.M):
        tool, mode, pair = m.group(1), int(m.group(2)), int(m.group(3))
        kv = dict(re.findall(r"(\w+)=([\d.]+)", m.group(4)))
        # A wake-up latency run gives two results: its median and 99th
        # percentile.
        vals = [(tool, kv.get("ns_per_roundtrip") or kv.get("seconds"))]
        if "p50_ns" in kv:
            vals = [(f"{tool}-p50", kv["p50_ns"]), (f"{tool}-p99", kv.get("p99_ns"))]
        for name, val in vals:
            if val is not None:
                runs.setdefault((name, mode, pair), []).append(float(val))
    best = {}
    for (tool, mode, pair), v in runs.items():
        best.setdefault(tool, {}).setdefault(pair, {})[mode] = min(v)
    rows = []
    for tool, pairs in best.items():
        ratios = [p[0] / p[2] for p in pairs.values() if 0 in p and 2 in p and p[2] > 0]
        t0 = [p[0] for p in pairs.values() if 0 in p]
        t2 = [p[2] for p in pairs.values() if 2 in p]
        rows.append(dict(
            tool=tool, unit=("ns/roundtrip" if tool.startswith("pingpong") else
                             "ns" if tool.startswith("wakeup") else "s"),
            clock=clock, pairs=len(ratios),
            mode0_median=statistics.median(t0) if t0 else None,
            mode2_median=statistics.median(t2) if t2 else None,
            ratio_median=statistics.median(ratios) if ratios else None,
            ratio_min=min(ratios) if ratios else None,
            ratio_max=max(ratios) if ratios else None,
            ratio_geomean=statistics.geometric_mean(ratios) if ratios else None,
            ratios=ratios, mode0=t0, mode2=t2, verdict=verdict(ratios)))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=7)
    ap.add_argument("--profile", default="adl-hw")
    ap.add_argument("--roundtrips", type=int, default=5000,
                    help="round trips on one CPU (a fifth of that unpinned)")
    ap.add_argument("--hackbench", default="4 10 100", help="GROUPS FDS LOOPS")
    ap.add_argument("--wakelat", default="2 4 200 2000",
                    help="MESSENGERS WORKERS ROUNDS WORK")
    ap.add_argument("--only", choices=("ping", "hack", "lat"))
    ap.add_argument("--analyze", nargs="+", metavar="LOGDIR",
                    help="re-analyze earlier boots (ping, hack, then lat boot)")
    a = ap.parse_args()
    if not re.match(r"^\d+ \d+ \d+$", a.hackbench):
        sys.exit("overhead: --hackbench takes 'GROUPS FDS LOOPS'")
    if not re.match(r"^\d+ \d+ \d+ \d+$", a.wakelat):
        sys.exit("overhead: --wakelat takes 'MESSENGERS WORKERS ROUNDS WORK'")
    rt = a.roundtrips
    boots = [("ping", dict(QEMU_ICOUNT="3"), "icount shift=3",
              [("pingpong-1cpu", f"ipcc-pingpong {rt} 0"),
               ("pingpong", f"ipcc-pingpong {max(100, rt // 5)}")]),
             ("hack", dict(QEMU_ICOUNT="3"), "icount shift=3",
              [("hackbench", f"ipcc-hackbench {a.hackbench}")]),
             ("lat", dict(QEMU_ICOUNT="3"), "icount shift=3",
              [("wakeup", f"ipcc-wakelat {a.wakelat}")])]
    if a.only:
        boots = [b for b in boots if b[0] == a.only]
    rows, rc, logdirs = [], 0, []
    for i, (name, env, clock, tools) in enumerate(boots):
        if a.analyze:
            if i >= len(a.analyze):
                break
            logdir = Path(a.analyze[i])
            out, r = (logdir / "output.log").read_text(errors="replace"), 0
        else:
            logdir = bl.new_logdir(f"bench-overhead-{name}")
            bl.log(f"overhead ({clock}): {a.pairs} pairs of mode 0 / mode 2 on {a.profile}: "
                   + ", ".join(n for n, _ in tools))
            r, out = bl.boot(a.profile, guest_script(a.pairs, tools), logdir,
                             timeout=300 + a.pairs * 120, env_extra=env)
        logdirs.append(str(logdir))
        got = analyze(out, clock)
        if not got:
            print("\n".join(out.splitlines()[-20:]))
            bl.log(f"overhead: no results (exit {r}); logs in {logdir}")
            r = r or 1
        rows += got
        rc = rc or r
    if not rows:
        sys.exit(1)
    RES.mkdir(parents=True, exist_ok=True)
    (RES / "overhead.json").write_text(json.dumps(rows, indent=1) + "\n")
    cols = ["tool", "unit", "clock", "pairs", "mode0_median", "mode2_median", "ratio_median",
            "ratio_min", "ratio_max", "ratio_geomean", "verdict"]
    with open(RES / "overhead.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(cols)
        for r in rows:
            w.writerow([f"{r[c]:.4f}" if isinstance(r[c], float) else r[c] for c in cols])
    print(f"\noverhead ({a.profile}, {a.pairs} pairs of mode 0 and mode 2, best of 3 each; "
          "ratio = mode-0 time / mode-2 time, >= 0.99: no overhead)")
    print(f"{'tool':<14} {'mode 0':>11} {'mode 2':>11}  {'ratio median [min-max]':<24} "
          f"{'clock':<19} verdict")
    for r in rows:
        scale, unit = (1e3, "us") if r["unit"].startswith("ns") else (1, "s")
        v0 = None if r["mode0_median"] is None else r["mode0_median"] / scale
        v2 = None if r["mode2_median"] is None else r["mode2_median"] / scale
        spec = "8.1f" if unit == "us" else "8.3f"
        rng = f"{bl.fmt(r['ratio_median'])} [{bl.fmt(r['ratio_min'])}-{bl.fmt(r['ratio_max'])}]"
        print(f"{r['tool']:<14} {bl.fmt(v0, spec):>8} {unit:<2} {bl.fmt(v2, spec):>8} {unit:<2}  "
              f"{rng:<24} {r['clock']:<19} {r['verdict']}")
    print(f"\nresults: {RES}/overhead.json, overhead.csv; logs: {' '.join(logdirs)}")
    sys.exit(0 if rc == 0 else 1)


if __name__ == "__main__":
    main()
