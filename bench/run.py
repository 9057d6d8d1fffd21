#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ipcc placement benchmark (host side).

usage: bench/run.py [SCENARIO.conf ...] [--reps N] [--duration S]
                    [--analyze LOGDIR ...]

For every scenario (default: bench/scenarios/*.conf) boot the scenario's
profile once, run every mode (kernel.sched_ipcc 0, 1, 2) `repetitions` times,
interleaved, and compute placement efficiency, fairness and reaction time.
Writes out/bench/results.json, results.csv, efficiency.svg and the raw
samples under out/bench/raw/.  Needs a built kernel and initramfs with the
guest tools (make bench does all of it).  See bench/README.md.
"""

import argparse
import csv
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib as bl  # noqa: E402
import truth  # noqa: E402

RES = bl.OUT / "bench"


def run_scenario(sc, analyze_dir=None):
    """Boot (or re-read analyze_dir), return (rows, error)."""
    if analyze_dir:
        logdir = Path(analyze_dir)
        out = (logdir / "output.log").read_text(errors="replace")
        rc = 0
    else:
        logdir = bl.new_logdir(f"bench-{sc.name}")
        guest_s = sc.repetitions * len(sc.modes) * (sc.duration + 3)
        bl.log(f"scenario {sc.name}: profile {sc.profile}, modes {sc.modes}, "
               f"{sc.repetitions} reps x {sc.duration:g}s (~{guest_s / 60:.1f} min in the guest)")
        # Real programs start slowly under TCG (16 stress-ng at once on
        # hx-hw: up to the driver's 30 s wait a run, which the hang guard
        # must allow).
        start_s = 30 * sc.repetitions * len(sc.modes) if sc.programs() else 0
        rc, out = bl.boot(sc.profile, bl.guest_script(sc), logdir, smp=sc.smp,
                          timeout=120 + 3 * guest_s + start_s, env_extra=sc.boot_env())
    files = bl.extract_tar(out)
    if files is None:
        tail = "\n".join(out.splitlines()[-15:])
        return None, f"no results from the guest (exit {rc}; logs {logdir}):\n{tail}"
    raw = RES / "raw" / sc.name
    raw.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (raw / name).write_text(text)
    topo = bl.parse_topology(files)
    if not topo.perf:
        return None, f"no scores from the guest (logs {logdir})"
    rows, missing = [], []
    for mode in sc.modes:
        per_rep = []
        for rep in range(1, sc.repetitions + 1):
            text = files.get(f"run-m{mode}-r{rep}")
            if not text:
                # A repetition the guest did not deliver is an error of
                # the scenario, not a smaller sample.
                missing.append(f"run-m{mode}-r{rep}")
                continue
            run = bl.parse_run(text)
            m = bl.analyze_run(run, topo, sc.warmup,
                               {i: pin for i, (_, _, pin) in sc.fixed_work().items()})
            before = bl.parse_stats(files.get(f"stats-m{mode}-r{rep}.before"))
            after = bl.parse_stats(files.get(f"stats-m{mode}-r{rep}.after"))
            m["ipcc_stats"] = {k: after[k] - before.get(k, 0) for k in after}
            # How often the vCPUs took their tick: reaction times scale with it.
            ps = bl.procstat_shares(bl.parse_procstat(files.get(f"procstat-m{mode}-r{rep}.before")),
                                    bl.parse_procstat(files.get(f"procstat-m{mode}-r{rep}.after")))
            m["tick_ms"] = bl.tick_interval_ms(
                bl.parse_timer_irqs(files.get(f"timerirq-m{mode}-r{rep}.before")),
                bl.parse_timer_irqs(files.get(f"timerirq-m{mode}-r{rep}.after")),
                ps and ps["idle_cpu"])
            m["reaction_ticks"] = (m["reaction_ms"] / m["tick_ms"]
                                   if m["reaction_ms"] is not None and m["tick_ms"] else None)
            write_samples_csv(raw / f"samples-m{mode}-r{rep}.csv", run, topo)
            per_rep.append(m)
        if not per_rep:
            rows.append(dict(scenario=sc.name, mode=mode, error="no runs"))
            continue
        rows.append(aggregate(sc, mode, per_rep))
    base = next((r for r in rows if r.get("mode") == 0 and "error" not in r), None)
    for r in rows:
        if base and "error" not in r and base["throughput_rate"]["median"]:
            r["throughput_vs_mode0"] = r["throughput_rate"]["median"] / base["throughput_rate"]["median"]
        else:
            r["throughput_vs_mode0"] = None
    err = None if rc == 0 else f"guest exit status {rc} (logs {logdir})"
    if missing:
        err = (f"{len(missing)} of {len(sc.modes) * sc.repetitions} runs missing: "
               f"{' '.join(missing)} (logs {logdir})" + (f"; {err}" if err else ""))
    return rows, err


def write_samples_csv(path, run, topo):
    """The brief's CSV: t_ms,pid,cpu,state plus run_ns, class and core type."""
    cls = {t["pid"]: t["cls0"] for t in run.tasks}
    ev = sorted((t, run.tasks[i]["pid"], a) for t, k, i, a in run.events if k == "class")
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["t_ms", "pid", "cpu", "state", "run_ns", "class", "type"])
        rows = []
        for pid, s in run.samples.items():
            for t, cpu, st, ns in s:
                rows.append((t, pid, cpu, st, ns))
        rows.sort()
        j = 0
        for t, pid, cpu, st, ns in rows:
            while j < len(ev) and ev[j][0] <= t:
                cls[ev[j][1]] = ev[j][2]
                j += 1
            w.writerow([f"{t:.3f}", pid, cpu, st, ns, cls[pid], topo.ctype(cpu)])


def aggregate(sc, mode, per_rep):
    classes = sorted({c for m in per_rep for c in m["p_share"]})
    return dict(
        scenario=sc.name, profile=sc.profile, mode=mode, mode_name=bl.mode_name(sc, mode),
        reps=len(per_rep),
        efficiency=bl.summarize([m["efficiency"] for m in per_rep]),
        efficiency_from_event=bl.summarize([m["efficiency_from_event"] for m in per_rep]),
        throughput_rate=bl.summarize([m["rate"] for m in per_rep]),
        fairness_cov=bl.summarize([m["fairness_cov"] for m in per_rep]),
        fairness_maxmin=bl.summarize([m["fairness_maxmin"] for m in per_rep]),
        reaction_ms=bl.summarize([m["reaction_ms"] for m in per_rep]),
        reaction_events=sum(len(m["reactions_ms"]) + m["censored"] for m in per_rep),
        reaction_censored=sum(m["censored"] for m in per_rep),
        reaction_already_best=sum(m["already_best"] for m in per_rep),
        tick_ms=bl.summarize([m.get("tick_ms") for m in per_rep]),
        reaction_ticks=bl.summarize([m.get("reaction_ticks") for m in per_rep]),
        p_share={bl.class_name(c): bl.summarize([m["p_share"].get(c) for m in per_rep])["median"]
                 for c in classes},
        cpu_s=bl.summarize([m["cpu_s"] for m in per_rep]),
        late_share=max(m["late_share"] for m in per_rep),
        window_s=per_rep[0]["window_s"],
        ipcc_stats={k: sorted(m["ipcc_stats"].get(k, 0) for m in per_rep)[len(per_rep) // 2]
                    for k in per_rep[0]["ipcc_stats"]},
        fixed=aggregate_fixed(per_rep),
    )


FIXED_KEYS = ("makespan_ms", "bound_ms", "makespan_eff", "makespan_eff_wall", "stp", "antt",
              "unfairness")


def aggregate_fixed(per_rep):
    """Fixed-work metrics over the repetitions, or None."""
    fx = [m["fixed"] for m in per_rep if m.get("fixed")]
    if not fx:
        return None
    out = {k: bl.summarize([f[k] for f in fx]) for k in FIXED_KEYS}
    out["unfinished"] = sum(f["unfinished"] for f in fx)
    out["tasks"] = sum(f["fixed_tasks"] for f in fx)
    return out


def print_fixed(rows):
    """The fixed-work table, for the scenarios that have fixed work."""
    rows = [r for r in rows if "error" not in r and r.get("fixed")]
    if not rows:
        return
    print()
    print("Fixed work (makespan efficiency = bound / makespan, in the guest's CPU time;")
    print("wall: bound / makespan, with nothing taken out):")
    hdr = (f"{'scenario':<14} {'mode':<11} {'makespan ms [min-max]':<24} {'bound ms':>8} "
           f"{'efficiency [min-max]':<22} {'wall':>6} {'STP':>6} {'ANTT':>6} {'unfair':>6}")
    print(hdr)
    print("-" * len(hdr))
    for r in rows:
        f = r["fixed"]
        ms, e = f["makespan_ms"], f["makespan_eff"]
        late = f" {f['unfinished']}/{f['tasks']} unfinished" if f["unfinished"] else ""
        print(f"{r['scenario']:<14} {bl.mode_label(r):<11} "
              f"{bl.fmt(ms['median'], '.0f') + ' [' + bl.fmt(ms['min'], '.0f') + '-' + bl.fmt(ms['max'], '.0f') + ']':<24} "
              f"{bl.fmt(f['bound_ms']['median'], '8.0f'):>8} "
              f"{bl.fmt(e['median'])} [{bl.fmt(e['min'])}-{bl.fmt(e['max'])}]  "
              f"{bl.fmt(f['makespan_eff_wall']['median'], '6.3f'):>6} "
              f"{bl.fmt(f['stp']['median'], '6.2f'):>6} {bl.fmt(f['antt']['median'], '6.2f'):>6} "
              f"{bl.fmt(f['unfairness']['median'], '6.2f'):>6}{late}")


def print_table(rows, errors):
    print("Scored by the ground truth (bench/truth.py), not by what the kernel reads:")
    for line in truth.table():
        print("  " + line)
    hdr = (f"{'scenario':<14} {'mode':<11} {'efficiency [min-max]':<22} {'from event':<10} "
           f"{'thr/mode0':>9} {'fair CoV':>8} {'reaction ms [min-max]':<24} P-core share by class")
    print(hdr)
    print("-" * len(hdr))
    for r in rows:
        if "error" in r:
            print(f"{r['scenario']:<14} {r.get('mode', '-')!s:<11} ERROR {r['error']}")
            continue
        e = r["efficiency"]
        rc = r["reaction_ms"]
        react = "-" if not r["reaction_events"] else (
            f"{bl.fmt(rc['median'], '.0f')} [{bl.fmt(rc['min'], '.0f')}-{bl.fmt(rc['max'], '.0f')}]"
            + (f" {r['reaction_censored']}/{r['reaction_events']} never" if r["reaction_censored"] else ""))
        ps = " ".join(f"{k} {v * 100:.0f}%" for k, v in r["p_share"].items() if v is not None)
        print(f"{r['scenario']:<14} {bl.mode_label(r):<11} "
              f"{bl.fmt(e['median'])} [{bl.fmt(e['min'])}-{bl.fmt(e['max'])}]  "
              f"{bl.fmt(r['efficiency_from_event']['median']):<10} "
              f"{bl.fmt(r['throughput_vs_mode0'], '9.3f'):>9} "
              f"{bl.fmt(r['fairness_cov']['median'], '8.3f'):>8} {react:<24} {ps}")
    print_ticks(rows)
    for e in errors:
        print("ERROR:", e)


def print_ticks(rows):
    """How often the vCPUs took their tick, and the reactions in ticks.

    Without icount the guest's time is the host's, and a vCPU takes its
    tick when its thread runs on the host: a busy host spreads the ticks
    and stretches every reaction with them."""
    rows = [r for r in rows if "error" not in r and r.get("tick_ms", {}).get("median")]
    if not rows:
        return
    print()
    print("Ticks: mean interval between local timer interrupts on busy CPUs (the kernel asks")
    print("1000/HZ ms); the reaction divided by it, per run:")
    hdr = f"{'scenario':<14} {'mode':<11} {'tick ms [min-max]':<22} reaction in ticks [min-max]"
    print(hdr)
    print("-" * len(hdr))
    for r in rows:
        t, rt = r["tick_ms"], r["reaction_ticks"]
        react = "-" if rt["median"] is None else \
            f"{bl.fmt(rt['median'], '.1f')} [{bl.fmt(rt['min'], '.1f')}-{bl.fmt(rt['max'], '.1f')}]"
        print(f"{r['scenario']:<14} {bl.mode_label(r):<11} "
              f"{bl.fmt(t['median'], '.1f') + ' [' + bl.fmt(t['min'], '.1f') + '-' + bl.fmt(t['max'], '.1f') + ']':<22} "
              f"{react}")


CSV_COLS = ["scenario", "profile", "mode", "mode_name", "reps",
            "efficiency_median", "efficiency_min", "efficiency_max",
            "efficiency_from_event_median",
            "throughput_rate_median", "throughput_vs_mode0",
            "fairness_cov_median", "fairness_cov_min", "fairness_cov_max",
            "fairness_maxmin_median",
            "reaction_ms_median", "reaction_ms_min", "reaction_ms_max",
            "reaction_events", "reaction_censored", "reaction_already_best",
            "tick_ms_median", "tick_ms_min", "tick_ms_max",
            "reaction_ticks_median", "reaction_ticks_min", "reaction_ticks_max",
            "cpu_s_median", "window_s",
            "p_share", "ipcc_stats",
            "makespan_ms_median", "makespan_ms_min", "makespan_ms_max", "bound_ms_median",
            "makespan_eff_median", "makespan_eff_min", "makespan_eff_max",
            "makespan_eff_wall_median",
            "stp_median", "antt_median", "unfairness_median", "unfinished", "error"]


def write_csv(rows, path):
    """results.csv: one row per scenario x mode; STAT_median/min/max columns
    come from the JSON's {median, min, max} objects, p_share and ipcc_stats
    are "key=value;..." lists."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(CSV_COLS)
        for r in rows:
            out = []
            # The fixed-work metrics are columns of their own.
            src = dict(r, **(r.get("fixed") or {}))
            for c in CSV_COLS:
                v = src.get(c)
                base, _, stat = c.rpartition("_")
                if c not in src and isinstance(src.get(base), dict):
                    v = src[base].get(stat)
                if isinstance(v, dict):
                    v = ";".join(f"{k}={'' if x is None else (f'{x:.4g}' if isinstance(x, float) else x)}"
                                 for k, x in v.items())
                out.append("" if v is None else (f"{v:.4f}" if isinstance(v, float) else v))
            w.writerow(out)


def plot(rows, path):
    rows = [r for r in rows if "error" not in r]
    scen = []
    for r in rows:
        if r["scenario"] not in scen:
            scen.append(r["scenario"])
    modes = sorted({r["mode"] for r in rows}, key=bl.mode_sort_key)
    bw, gap, left, top, ph = 26, 30, 60, 62, 260
    gw = len(modes) * bw + gap
    W = max(640, left + len(scen) * gw + 170)
    H = top + ph + 40
    s = bl.Svg(W, H)
    s.text(left, 22, "ipcc placement efficiency", 15, weight="bold")
    s.text(left, 38, "throughput / optimum under the speed model (bench/README.md); "
           "bar = median, whiskers = min-max over repetitions", 11)
    ymax = max([1.0] + [r["efficiency"]["max"] or 0 for r in rows])
    ymax = 1.0 if ymax <= 1.0 else 1.1

    def y(v):
        return top + ph - v / ymax * ph
    for g in range(0, 11):
        v = g / 10 * ymax
        s.line(left - 4, y(v), left + len(scen) * gw, y(v), "#e0e0e0" if g else "#000")
        s.text(left - 8, y(v) + 4, f"{v:.1f}", 11, "end")
    s.text(16, top + ph / 2, "efficiency", 12, "middle", rotate=-90)
    for si, name in enumerate(scen):
        x0 = left + si * gw + gap / 2
        for mi, m in enumerate(modes):
            r = next((r for r in rows if r["scenario"] == name and r["mode"] == m), None)
            if not r or r["efficiency"]["median"] is None:
                continue
            e = r["efficiency"]
            x = x0 + mi * bw
            s.rect(x, y(e["median"]), bw - 4, y(0) - y(e["median"]), bl.MODE_COLORS.get(m, "#ef6c00"),
                   title=f"{name} mode {m}: {e['median']:.3f} [{e['min']:.3f}-{e['max']:.3f}]")
            cx = x + (bw - 4) / 2
            s.line(cx, y(e["min"]), cx, y(e["max"]), "#000", 1.5)
            s.line(cx - 4, y(e["min"]), cx + 4, y(e["min"]), "#000")
            s.line(cx - 4, y(e["max"]), cx + 4, y(e["max"]), "#000")
            s.text(cx, y(e["median"]) - 4 if e["max"] - e["median"] < 0.03 else y(e["max"]) - 4,
                   f"{e['median']:.2f}", 9, "middle")
        s.text(x0 + len(modes) * bw / 2, top + ph + 18, name, 11, "middle")
    for mi, m in enumerate(modes):
        lx = left + len(scen) * gw + 20
        r = next(r for r in rows if r["mode"] == m)
        s.rect(lx, top + 10 + mi * 20, 14, 14, bl.MODE_COLORS.get(m, "#ef6c00"))
        s.text(lx + 20, top + 21 + mi * 20,
               f"mode {m} ({r['mode_name']})" if isinstance(m, int) else f"{m} ({r['mode_name']})", 11)
    s.save(path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("scenarios", nargs="*", help="scenario files (default bench/scenarios/*.conf)")
    ap.add_argument("--reps", type=int, help="override repetitions")
    ap.add_argument("--duration", type=float, help="override duration (s)")
    ap.add_argument("--analyze", nargs="+", metavar="LOGDIR",
                    help="re-analyze the output.log of earlier boots, one per scenario, in order")
    ap.add_argument("--variant", action="append", default=[], metavar="'NAME MODE KNOB=V...'",
                    help="add a variant (a mode with knobs set otherwise, bench/README.md) "
                         "to every scenario's modes; repeatable")
    ap.add_argument("--modes", metavar="'M ...'",
                    help="run these modes and variants instead of the scenarios' own "
                         "(for example '0 2 noswap')")
    ap.add_argument("--model", choices=("oracle", "rpl", "rule"),
                    help="Thread Director model of the emulated part (default: the "
                         "profile's, oracle); results go to out/bench/MODEL/ unless oracle")
    a = ap.parse_args()
    global RES
    if a.model:
        os.environ["ITD_MODEL"] = a.model
        if a.model != "oracle":
            RES = RES / a.model
    paths = a.scenarios or sorted(str(p) for p in (bl.BENCH / "scenarios").glob("*.conf"))
    try:
        scs = [bl.parse_scenario(p) for p in paths]
        for sc in scs:
            for v in a.variant:
                bl.add_variant(sc, v)
            if a.modes:
                bl.set_modes(sc, a.modes.replace(",", " ").split())
        for sc in scs if not a.analyze else ():
            sc.boot_env()       # the real programs are there
    except bl.ScenarioError as e:
        sys.exit(f"bench: {e}")
    for sc in scs:
        if a.reps:
            sc.repetitions = a.reps
        if a.duration:
            sc.duration = a.duration
            sc.warmup = min(sc.warmup, sc.duration / 2)
    RES.mkdir(parents=True, exist_ok=True)
    rows, errors = [], []
    t0 = time.time()
    for i, sc in enumerate(scs):
        r, err = run_scenario(sc, a.analyze[i] if a.analyze and i < len(a.analyze) else None)
        if err:
            errors.append(f"{sc.name}: {err}")
        if r is None:
            rows.append(dict(scenario=sc.name, profile=sc.profile, error=err))
        else:
            rows += r
        (RES / "results.json").write_text(json.dumps(rows, indent=1) + "\n")
    write_csv(rows, RES / "results.csv")
    plot(rows, RES / "efficiency.svg")
    print()
    print(f"Thread Director model: {os.environ.get('ITD_MODEL', 'the profile default (oracle)')}")
    print_table(rows, errors)
    print_fixed(rows)
    print(f"\nresults: {RES}/results.json, results.csv, efficiency.svg, raw/ "
          f"({(time.time() - t0) / 60:.1f} min)")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
