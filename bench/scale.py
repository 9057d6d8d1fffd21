#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ipcc scale check (optional): load-balancing activity at 8, 32 and 64
vCPUs, mode 0 vs mode 2.

usage: bench/scale.py [--cpus 8,32,64] [--duration S] [--reps N]

One boot per CPU count: QEMU_SMP=N (one thread per core) with a hybrid
part of our QEMU (QEMU_CPU: hybrid-p=, hybrid-e=, the oracle Thread
Director model): P-cores = the first quarter of the CPUs rounded down to a
multiple of 4 (at least 4: E-core modules of 4 need module-aligned APIC
IDs), E-cores = the rest; without SMT intel_pstate gives the E-cores a
lower capacity (SD_ASYM_CPUCAPACITY).  1.5 busy workers per CPU (a
quarter vector, a quarter scalar, half spin-wait), classified by the
hardware from what they execute.  Modes 0 and 2 alternate, reps
times each.  /proc/schedstat (schedstats enabled) before and after every run
gives, per second: load_balance() calls (lb_count, every domain and idle
type), tasks it moved (lb_gained), failed balances (lb_failed), active
balances (alb_count); and the workers' share of the CPU time.  The time
spent balancing comes from ftrace's function profiler on the balancer's
entry points (sched_balance_softirq: periodic and nohz idle balancing;
sched_balance_newidle), each timed with all it calls: reported as
microseconds of balancing per second and CPU.  Writes out/bench/scale.json.
"""

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib as bl  # noqa: E402

RES = bl.OUT / "bench"


def schedstat_totals(text):
    """Sums over CPUs, domains and idle types; uptime from /proc/uptime.

    /proc/schedstat version 16 (6.12) has "domainN SPAN" and 8 counters per
    idle type; version 17 (7.3) "domainN NAME SPAN" and 11 (the imbalance
    split by kind), so lb_gained moves from the 5th to the 8th.
    """
    tot = dict(lb_count=0, lb_failed=0, lb_gained=0, alb_count=0, uptime=0.0)
    version = 16
    for i, line in enumerate((text or "").splitlines()):
        w = line.split()
        if not w:
            continue
        if i == 0 and len(w) == 2:
            tot["uptime"] = float(w[0])
        elif w[0] == "version" and len(w) == 2:
            version = int(w[1])
        elif w[0].startswith("domain"):
            per, gained, first = (11, 7, 3) if version >= 17 else (8, 4, 2)
            v = [int(x) for x in w[first:]]
            if len(v) < 3 * per + 12:
                continue
            for it in range(3):
                b = it * per
                tot["lb_count"] += v[b]
                tot["lb_failed"] += v[b + 2]
                tot["lb_gained"] += v[b + gained]
            tot["alb_count"] += v[3 * per]
    return tot

def scenario(ncpu, duration, reps):
    # E-cores come in modules of 4 sharing an L2, at APIC IDs aligned to
    # the module: with APIC ID = CPU number that needs a P count that is
    # a multiple of 4.
    p = max(4, ncpu // 16 * 4)
    if ncpu <= p:
        sys.exit(f"scale: {ncpu} vCPUs: need more than {p} (4 or more P-cores and some E-cores)")
    n = (3 * ncpu) // 2
    sc = bl.Scenario(name=f"scale-{ncpu}", profile="smt8", smp=f"{ncpu},sockets=1,cores={ncpu},threads=1",
                     duration=duration, warmup=1, repetitions=reps, modes=[0, 2], schedstats=True, lbtime=True)
    sc.tasks = [bl.TaskGroup("vec", 1, count=max(1, n // 4)),
                bl.TaskGroup("scalar", 0, count=max(1, n // 4))]
    sc.tasks.append(bl.TaskGroup("spin", 3, count=max(1, n - 2 * (n // 4))))
    cpu = (f"Skylake-Client,family=6,model=189,hybrid-p=0-{p - 1},"
           f"hybrid-e={p}-{ncpu - 1},itd-model=oracle")
    return sc, cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cpus", default="8,32,64")
    ap.add_argument("--duration", type=float, default=8)
    ap.add_argument("--reps", type=int, default=2)
    a = ap.parse_args()
    rows = []
    for ncpu in [int(x) for x in a.cpus.split(",")]:
        sc, cpu = scenario(ncpu, a.duration, a.reps)
        logdir = bl.new_logdir(f"bench-scale-{ncpu}")
        bl.log(f"scale: {ncpu} vCPUs, {sum(t.count for t in sc.tasks)} workers, modes 0/2 x {a.reps}")
        rc, out = bl.boot(sc.profile, bl.guest_script(sc), logdir, smp=sc.smp,
                          timeout=600 + 4 * a.reps * 2 * (a.duration + 3),
                          env_extra=dict(QEMU_CPU=cpu, QEMU_ICOUNT="1"))
        files = bl.extract_tar(out)
        if files is None:
            rows.append(dict(cpus=ncpu, error=f"no results (exit {rc}); logs {logdir}"))
            continue
        online = sum(1 for ln in files.get("topology", "").splitlines() if ln.split()[2:3] == ["1"])
        for mode in sc.modes:
            per = []
            for rep in range(1, a.reps + 1):
                b = schedstat_totals(files.get(f"schedstat-m{mode}-r{rep}.before"))
                e = schedstat_totals(files.get(f"schedstat-m{mode}-r{rep}.after"))
                run = bl.parse_run(files.get(f"run-m{mode}-r{rep}", ""))
                secs = e["uptime"] - b["uptime"]
                if secs <= 0:
                    continue
                # Workers' CPU time between the first and the last sample.
                s = [v for v in run.samples.values() if len(v) > 1]
                span = (s[0][-1][0] - s[0][0][0]) / 1000.0 if s else 0
                cpu = sum(v[-1][3] - v[0][3] for v in s) / 1e9
                prof = bl.parse_lbprof(files.get(f"lbprof-m{mode}-r{rep}"))
                lb_us = sum(v[1] for v in prof.values())
                d = dict({k: (e[k] - b[k]) / secs for k in ("lb_count", "lb_failed",
                                                             "lb_gained", "alb_count")},
                         worker_cpu_share=cpu / (span * online) if span and online else None)
                d["lb_us"] = lb_us / secs / online if prof and online else None
                ps = bl.procstat_shares(bl.parse_procstat(files.get(f"procstat-m{mode}-r{rep}.before")),
                                        bl.parse_procstat(files.get(f"procstat-m{mode}-r{rep}.after")))
                for k in ("user", "system", "irq", "idle"):
                    d[f"{k}_share"] = ps[k] if ps else None
                d["max_cpu_idle"] = max(ps["idle_cpu"].values()) if ps and ps["idle_cpu"] else None
                kt = bl.kthread_time(files.get(f"kthreads-m{mode}-r{rep}.before"),
                                     files.get(f"kthreads-m{mode}-r{rep}.after"))
                for k in ("migration", "kworker"):
                    d[f"{k}_share"] = kt[k] / (secs * online) if online else None
                st0 = bl.parse_stats(files.get(f"stats-m{mode}-r{rep}.before"))
                st1 = bl.parse_stats(files.get(f"stats-m{mode}-r{rep}.after"))
                for k in ("swap", "pull", "group_tie"):
                    d[k] = (st1.get(k, 0) - st0.get(k, 0)) / secs if st0 and st1 else None
                per.append(d)
            if not per:
                rows.append(dict(cpus=ncpu, mode=mode, error="no schedstat snapshots"))
                continue
            row = dict(cpus=ncpu, online=online, mode=mode, reps=len(per))
            for k in per[0]:
                vals = [p[k] for p in per if p[k] is not None]
                row[k + "_per_s"] = statistics.median(vals) if vals else None
            row["worker_cpu_share"] = row.pop("worker_cpu_share_per_s")
            row["lb_us_per_s_cpu"] = row.pop("lb_us_per_s")
            for k in ("user", "system", "irq", "idle", "migration", "kworker"):
                row[f"{k}_share"] = row.pop(f"{k}_share_per_s")
            row["max_cpu_idle"] = row.pop("max_cpu_idle_per_s")
            rows.append(row)
    RES.mkdir(parents=True, exist_ok=True)
    (RES / "scale.json").write_text(json.dumps(rows, indent=1) + "\n")
    print(f"\n{'vCPUs':>5} {'mode':>4} {'balancing us/s/CPU':>18} {'lb calls/s':>11} {'failed/s':>9} "
          f"{'moved/s':>8} {'active/s':>8} {'worker CPU share':>16} {'idle':>6} {'stopper':>7} "
          f"{'kworker':>7} {'swaps/s':>7}")
    for r in rows:
        if "error" in r:
            print(f"{r['cpus']:>5} ERROR {r['error']}")
            continue
        print(f"{r['cpus']:>5} {r['mode']:>4} {bl.fmt(r['lb_us_per_s_cpu'], '18.1f')} "
              f"{r['lb_count_per_s']:11.0f} {r['lb_failed_per_s']:9.1f} "
              f"{r['lb_gained_per_s']:8.1f} {r['alb_count_per_s']:8.1f} "
              f"{bl.fmt(r['worker_cpu_share'], '16.3f')} {bl.fmt(r['idle_share'], '6.3f')} "
              f"{bl.fmt(r['migration_share'], '7.3f')} {bl.fmt(r['kworker_share'], '7.3f')} "
              f"{bl.fmt(r['swap_per_s'], '7.2f')}")
    print(f"\nresults: {RES}/scale.json")
    sys.exit(1 if any("error" in r for r in rows) else 0)


if __name__ == "__main__":
    main()
