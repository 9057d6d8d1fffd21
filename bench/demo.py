#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make demo: boot the emulated Alder Lake-like part (adl-hw) once per Thread
Director model (oracle: the classes are what each vCPU executes; rpl: as
noisy as a real Raptor Lake reports them), run a mixed workload
(bench/demo.conf) with class-aware balancing off (mode 0), then full
(mode 2), and show where each task ran and what it got done, scored by
the ground truth (bench/truth.py).

usage: bench/demo.py [SCENARIO.conf] [--models oracle,rpl] [--analyze LOGDIR ...]

Prints a table per model and mode and a verdict per model, writes
out/demo/placement.svg (rows = tasks, colour = P- or E-core over time, a
panel per model and mode) and out/demo/summary.json.  See bench/README.md.
"""

import argparse
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchlib as bl  # noqa: E402

RES = bl.OUT / "demo"
P_COLOR, E_COLOR, IDLE_COLOR = "#e4572e", "#2e86de", "#eeeeee"


def focus_class(topo, classes):
    """The class that gains most from a P-core: highest best/worst ratio."""
    def gain(c):
        s = [topo.score(k, c) for k in topo.online]
        return max(s) / max(1, min(s))
    return max(classes, key=gain) if classes else None


def placement_svg(sc, results, path):
    """results: {(model, mode): dict(run, metrics, topo)}, in panel order."""
    tasks = next(iter(results.values()))["run"].tasks
    row_h, left, top, width = 18, 150, 60, 760
    panel_h = len(tasks) * row_h + 50
    H = top + panel_h * len(results) + 40
    s = bl.Svg(left + width + 40, H)
    s.text(left, 24, f"ipcc demo: where each task ran ({sc.description or sc.name})", 14,
           weight="bold")
    lx = left
    for label, col in (("P-core", P_COLOR), ("E-core", E_COLOR), ("not running", IDLE_COLOR)):
        s.rect(lx, 34, 14, 12, col, stroke="#999")
        s.text(lx + 18, 45, label, 11)
        lx += 110
    s.text(lx, 45, "(shade = share of each sample interval spent running)", 11)
    dur = sc.duration * 1000.0
    for pi, ((model, mode), res) in enumerate(results.items()):
        y0 = top + pi * panel_h
        m, topo = res["metrics"], res["topo"]
        s.text(left, y0 + 14, f"{model}, mode {mode} ({bl.mode_name(sc, mode)}): efficiency "
               f"{bl.fmt(m['efficiency'], '.2f')} (ground truth), throughput {m['rate']:.0f}/s",
               12, weight="bold")
        y0 += 22
        for ti, t in enumerate(res["run"].tasks):
            y = y0 + ti * row_h
            s.text(left - 6, y + row_h - 5, f"{t['name']} ({bl.class_name(t['cls0'])})", 11, "end")
            s.rect(left, y + 1, width, row_h - 2, IDLE_COLOR)
            for t0, t1, cpu, frac in m["timeline"][t["id"]]:
                if frac < 0.05:
                    continue
                col = P_COLOR if cpu in topo.pcpus else E_COLOR if cpu in topo.ecpus else "#888"
                s.rect(left + t0 / dur * width, y + 1, (t1 - t0) / dur * width + 0.3,
                       row_h - 2, col, opacity=0.25 + 0.75 * min(1.0, frac),
                       title=f"{t['name']} cpu{cpu} {frac * 100:.0f}% at {t0 / 1000:.2f}s")
            for ev_t, kind, i, arg in res["run"].events:
                if i == t["id"]:
                    x = left + ev_t / dur * width
                    s.line(x, y, x, y + row_h, "#000", 2)
        yb = y0 + len(tasks) * row_h
        for sec in range(0, int(sc.duration) + 1, max(1, int(sc.duration) // 10)):
            x = left + sec * 1000 / dur * width
            s.line(x, yb, x, yb + 4)
            s.text(x, yb + 15, f"{sec}s", 10, "middle")
        if sc.warmup:
            x = left + sc.warmup * 1000 / dur * width
            s.line(x, y0, x, yb, "#555", 1, "3,3")
    s.save(path)


def run_model(sc, model, analyze):
    """Boot (or re-read @analyze) under one Thread Director model; return
    ({mode: dict(run, metrics, topo)}, logdir, exit status)."""
    if analyze:
        logdir = Path(analyze)
        out, rc = (logdir / "output.log").read_text(errors="replace"), 0
    else:
        logdir = bl.new_logdir(f"demo-{model}")
        bl.log(f"demo ({model}): {sc.description}; modes {sc.modes}, {sc.duration:g}s each")
        order = [(m, 1) for m in sc.modes]
        os.environ["ITD_MODEL"] = model
        rc, out = bl.boot(sc.profile, bl.guest_script(sc, order), logdir, smp=sc.smp,
                          timeout=180 + 3 * len(order) * (sc.duration + 3),
                          env_extra=sc.boot_env())
    files = bl.extract_tar(out)
    if files is None:
        print("\n".join(out.splitlines()[-20:]))
        sys.exit(f"demo: no results from the guest ({model}, exit {rc}); logs in {logdir}")
    topo = bl.parse_topology(files)
    res = {}
    for mode in sc.modes:
        text = files.get(f"run-m{mode}-r1")
        if not text:
            sys.exit(f"demo: mode {mode} did not run ({model}); logs in {logdir}")
        run = bl.parse_run(text)
        res[mode] = dict(run=run, metrics=bl.analyze_run(run, topo, sc.warmup), topo=topo)
    return res, logdir, rc


def verdict(results, topo):
    """One line: the class gaining most from a P-core, on P-cores with the
    feature on against off, and the throughput and efficiency."""
    if 0 not in results or len(results) < 2:
        return None
    other = max(m for m in results if m != 0)
    classes = sorted({t["cls0"] for t in results[0]["run"].tasks if t["cls0"] >= 0})
    fc = focus_class(topo, classes)
    on, off = results[other]["metrics"], results[0]["metrics"]
    p_on, p_off = on["p_share"].get(fc, 0.0), off["p_share"].get(fc, 0.0)
    gain = (on["rate"] / off["rate"] - 1) * 100 if off["rate"] else 0.0
    return (f"mode {other}: {bl.class_name(fc)} tasks on P-cores {p_on * 100:.0f}% of the time "
            f"vs {p_off * 100:.0f}% with the feature off; throughput {gain:+.1f}% "
            f"(efficiency {bl.fmt(on['efficiency'], '.2f')} vs {bl.fmt(off['efficiency'], '.2f')})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("scenario", nargs="?", default=str(bl.BENCH / "demo.conf"))
    ap.add_argument("--models", default="oracle,rpl",
                    help="Thread Director models, one boot each (default oracle,rpl)")
    ap.add_argument("--analyze", nargs="+", metavar="LOGDIR",
                    help="re-analyze earlier boots, one per model, in order")
    a = ap.parse_args()
    models = [m for m in a.models.split(",") if m]
    if not models or any(m not in ("oracle", "rpl", "rule") for m in models):
        sys.exit("demo: --models takes oracle, rpl and rule, comma-separated")
    if a.analyze and len(a.analyze) != len(models):
        sys.exit(f"demo: --analyze needs one log directory per model ({len(models)})")
    try:
        sc = bl.parse_scenario(a.scenario)
    except bl.ScenarioError as e:
        sys.exit(f"demo: {e}")
    panels, verdicts, logdirs, status = {}, {}, [], 0
    summary = dict(scenario=sc.name, profile=sc.profile, models={})
    RES.mkdir(parents=True, exist_ok=True)
    for k, model in enumerate(models):
        results, logdir, rc = run_model(sc, model, a.analyze[k] if a.analyze else None)
        logdirs.append(str(logdir))
        status |= rc
        topo = next(iter(results.values()))["topo"]
        print(f"\nipcc demo on {sc.profile}, Thread Director model {model}: P-cores "
              f"{sorted(topo.pcpus)}, E-cores {sorted(topo.ecpus)}; {sc.description}")
        print(f"measured over {sc.warmup:g}-{sc.duration:g}s; throughput = sum of true speed x "
              f"CPU seconds x SMT factor (ground truth, bench/README.md)\n")
        summary["models"][model] = dict(modes={})
        for mode, res in results.items():
            m = res["metrics"]
            panels[(model, mode)] = res
            print(f"mode {mode} ({bl.mode_name(sc, mode)}): efficiency {bl.fmt(m['efficiency'], '.3f')}, "
                  f"throughput {m['rate']:.0f}/s, fairness CoV {bl.fmt(m['fairness_cov'], '.3f')}")
            print(f"  {'task':<10} {'class':<10} {'on P':>6} {'on E':>6} {'CPU s':>6} {'throughput':>10}")
            rows = []
            for t in res["run"].tasks:
                pt = m["per_task"][t["id"]]
                run_ms = pt["run_ms"] or 1
                rows.append(dict(task=t["name"], cls=bl.class_name(t["cls0"]),
                                 p=pt["p_ms"] / run_ms, e=pt["e_ms"] / run_ms,
                                 cpu_s=pt["run_ms"] / 1000, thr=pt["thr"]))
                r = rows[-1]
                print(f"  {r['task']:<10} {r['cls']:<10} {r['p'] * 100:5.0f}% {r['e'] * 100:5.0f}% "
                      f"{r['cpu_s']:6.2f} {r['thr']:10.0f}")
            summary["models"][model]["modes"][mode] = dict(
                efficiency=m["efficiency"], rate=m["rate"], fairness_cov=m["fairness_cov"],
                tasks=rows, p_share={bl.class_name(c): v for c, v in m["p_share"].items()})
            print()
        v = verdict(results, topo)
        if v:
            verdicts[model] = v
            summary["models"][model]["verdict"] = v
    placement_svg(sc, panels, RES / "placement.svg")
    for model, v in verdicts.items():
        print(f"verdict ({model}): {v}")
    (RES / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(f"\nplacement picture: {RES / 'placement.svg'}; summary: {RES / 'summary.json'}; "
          f"logs: {' '.join(logdirs)}")
    sys.exit(0 if status == 0 else 1)


if __name__ == "__main__":
    main()
