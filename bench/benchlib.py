# SPDX-License-Identifier: GPL-2.0
"""Shared host side of the ipcc benchmarks: scenario files, guest scripts,
booting, parsing what the guest sends back, the metrics and SVG output.
See bench/README.md for the formats and the model."""

import base64
import io
import os
import re
import shlex
import statistics
import subprocess
import sys
import tarfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import model
import truth

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
OUT = Path(os.environ.get("IPCC_OUT", REPO / "out"))
CACHE = Path(os.environ.get("IPCC_CACHE") or
             Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ipcc")
GUEST_BIN = CACHE / "build" / "guest-bin"
MODE_NAMES = {0: "off", 1: "tie-break", 2: "full"}
# The sched/ipcc knobs a scenario's variant may set, with the ranges the
# kernel accepts (Documentation/scheduler/sched-ipcc.rst, "debugfs").
VARIANT_KNOBS = {"debounce_ticks": (1, 255), "swap_threshold": (0, 1024),
                 "misfit_threshold": (0, 1024), "cooldown_ms": (0, 1000)}
CLASS_NAMES = {0: "scalar", 1: "vector", 2: "VNNI", 3: "spin-wait",
               4: "rand48", 5: "div16", 6: "fft", 7: "matrixprod",
               8: "ackermann", 9: "collatz"}
# The kinds of work ipcc-worker executes: 0..3 one per class the
# hardware's Thread Director tells apart (qemu/README.md); 4 and 5 are
# scalar integer work of very different P/E gain (bench/truth.py), which
# the hardware classifies as class 0 like kind 0.
NR_HW_CLASSES = 4
KIND_BY_NAME = {"scalar": 0, "vector": 1, "dot": 2, "spin": 3, "rand48": 4, "div16": 5}
# Real programs: Debian's stress-ng (bench/build-guest.sh puts it and its
# libraries in GUEST_ROOT, which the scenario's boot adds to the guest),
# one stressor per task. Method -> (kind of work the truth scores it by,
# the stressor's options). The hardware classifies what it executes.
GUEST_ROOT = CACHE / "build" / "guest-root"
STRESS_NG = {
    "int32": (0, ["--cpu", "1", "--cpu-method", "int32"]),
    "double": (1, ["--cpu", "1", "--cpu-method", "double"]),
    "pause": (3, ["--nop", "1", "--nop-instr", "pause"]),
    "rand48": (4, ["--cpu", "1", "--cpu-method", "rand48"]),
    "div16": (5, ["--cpu", "1", "--cpu-method", "div16"]),
    "fft": (6, ["--cpu", "1", "--cpu-method", "fft"]),
    "matrixprod": (7, ["--cpu", "1", "--cpu-method", "matrixprod"]),
    "ackermann": (8, ["--cpu", "1", "--cpu-method", "ackermann"]),
    "collatz": (9, ["--cpu", "1", "--cpu-method", "collatz"]),
}


def stress_ng_argv(method, duration_s):
    """The guest command of one stress-ng task (its own timeout well past
    the run's end: the driver stops it)."""
    return (["/usr/bin/stress-ng"] + STRESS_NG[method][1] +
            ["--timeout", f"{int(duration_s) + 60}s", "--temp-path", "/tmp"])


def log(*a):
    print("[bench]", *a, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- scenarios

class ScenarioError(Exception):
    pass


@dataclass
class TaskGroup:
    name: str
    cls: int
    duty: int = 100
    count: int = 1
    period: int = 10
    pin: str = "-"
    unpin: float = None
    work: float = None          # fixed work, seconds of run time on an E-core
    stress_ng: str = None       # a real program: this stress-ng method


@dataclass
class Scenario:
    name: str
    path: str = ""
    profile: str = "adl-hw"
    smp: str = None
    duration: float = 10.0
    warmup: float = 1.0
    repetitions: int = 3
    interval: int = 20
    modes: list = field(default_factory=lambda: [0, 1, 2])   # 0..2 or variant names
    variants: dict = field(default_factory=dict)   # name -> (mode, [(knob, value)])
    debounce: int = None
    schedstats: bool = False
    lbtime: bool = False        # function profiler on the balancer's entry points
    trace: bool = False         # the ipcc trace events of every run, to raw/trace-*
    trace_migrate: bool = False  # and the scheduler's task migrations
    ftrace: list = field(default_factory=list)   # and calls of these kernel functions
    scores: list = field(default_factory=list)     # (TYPE, CLASS, PERF, EFF)
    tasks: list = field(default_factory=list)      # TaskGroup
    changes: list = field(default_factory=list)    # (t, group, index|None, class)
    description: str = ""

    def instances(self):
        """(id, group, instance name, class, duty, period, pin)."""
        out = []
        for g in self.tasks:
            for k in range(g.count):
                out.append((len(out), g.name, f"{g.name}#{k}", g.cls, g.duty,
                            g.period, g.pin))
        return out

    def fixed_work(self):
        """{task id: (class, work ms, final affinity or None)} of the
        fixed-work tasks."""
        out, i = {}, 0
        for g in self.tasks:
            for _ in range(g.count):
                if g.work:
                    pin = None if g.pin == "-" or g.unpin is not None else parse_cpulist(g.pin)
                    out[i] = (g.cls, g.work * 1000.0, pin)
                i += 1
        return out

    def events(self):
        """(t_ms, kind, task id, arg) for ipcc-run."""
        inst = self.instances()
        ev = []
        for t, grp, idx, cls in self.changes:
            ids = [i for i, g, *_ in inst if g == grp]
            if idx is not None:
                ids = ids[idx:idx + 1]
            ev += [(int(t * 1000), "class", i, cls) for i in ids]
        for g in self.tasks:
            if g.unpin is not None:
                ev += [(int(g.unpin * 1000), "unpin", i, 0)
                       for i, gg, *_ in inst if gg == g.name]
        return sorted(ev)

    def programs(self):
        """Whether any task runs a real program."""
        return any(g.stress_ng for g in self.tasks)

    def boot_env(self):
        """What the boot needs beyond the defaults: the real programs."""
        if not self.programs():
            return {}
        if not (GUEST_ROOT / "usr/bin/stress-ng").exists():
            raise ScenarioError(f"{self.path}: runs stress-ng, but {GUEST_ROOT} has none: "
                                "run bench/build-guest.sh")
        return {"SCRIPT_ROOT": str(GUEST_ROOT)}

    def spec(self):
        lines = [f"# scenario {self.name}",
                 f"duration_ms {int(self.duration * 1000)}",
                 f"interval_ms {self.interval}",
                 "worker ipcc-worker"]
        fixed = self.fixed_work()
        if fixed:
            # The driver plays the true speeds for fixed work: the
            # hardware's core types and bench/truth.py's catalogue.
            lines.append("hardware /tmp/bench/profile")
            for c, w in sorted(truth.CATALOGUE.items()):
                lines.append(f"speed {c} {w.p_over_e} {w.smt_factor()}")
        for i, grp, name, cls, duty, period, pin in self.instances():
            extra = f" {fixed[i][1]:.3f}" if i in fixed else ""
            lines.append(f"task {i} {name} {cls} {duty} {period} {pin}{extra}")
            g = next(g for g in self.tasks if g.name == grp)
            if g.stress_ng:
                lines.append(f"program {i} " +
                             " ".join(stress_ng_argv(g.stress_ng, self.duration)))
        for t, kind, i, arg in self.events():
            lines.append(f"event {t} {kind} {i} {arg}" if kind == "class"
                         else f"event {t} {kind} {i}")
        return "\n".join(lines) + "\n"


def parse_variant(args):
    """A variant's words, NAME MODE KNOB=VALUE...: (NAME, (MODE, [(KNOB,
    VALUE)])); ScenarioError when they are not one."""
    if len(args) < 3:
        raise ScenarioError("variant NAME MODE KNOB=VALUE [KNOB=VALUE...]")
    if not re.match(r"^[a-z][a-z0-9-]{0,15}$", args[0]):
        raise ScenarioError(f"bad variant name {args[0]!r} (a lower-case word, not a number)")
    if args[1] not in ("1", "2"):
        raise ScenarioError(f"variant mode {args[1]!r}: 1 or 2 (mode 0 has no knobs)")
    knobs = []
    for a in args[2:]:
        k, eq, v = a.partition("=")
        if not eq or k not in VARIANT_KNOBS:
            raise ScenarioError(f"bad knob setting {a!r} (KNOB=VALUE, KNOB one of "
                                f"{', '.join(VARIANT_KNOBS)})")
        if k in (x for x, _ in knobs):
            raise ScenarioError(f"variant sets {k} twice")
        lo, hi = VARIANT_KNOBS[k]
        if not v.isdigit() or not lo <= int(v) <= hi:
            raise ScenarioError(f"bad {k}: {v!r} ({lo}..{hi})")
        knobs.append((k, int(v)))
    return args[0], (int(args[1]), knobs)


def add_variant(sc, text):
    """Add a variant given as one string (run.py --variant) to a parsed
    scenario and to the end of its modes."""
    name, v = parse_variant(text.split())
    if name in sc.variants and sc.variants[name] != v:
        raise ScenarioError(f"{sc.path}: variant {name} defined otherwise there")
    sc.variants[name] = v
    if name not in sc.modes:
        sc.modes.append(name)


def set_modes(sc, words):
    """Replace a parsed scenario's modes (run.py --modes): 0..2 and the
    names of its variants, each once."""
    modes = [int(w) if w in ("0", "1", "2") else w for w in words]
    bad = [m for m in modes if isinstance(m, str) and m not in sc.variants]
    if not modes or bad or len(set(modes)) != len(modes):
        raise ScenarioError(f"modes {' '.join(words)!r}: 0, 1, 2 and the scenario's "
                            f"variants ({', '.join(sc.variants) or 'none'}), each once")
    sc.modes = modes


_CPULIST = re.compile(r"^\d+(-\d+)?(,\d+(-\d+)?)*$")


def parse_scenario(path):
    """Parse a scenario file (format: bench/README.md)."""
    path = Path(path)
    sc = Scenario(name=path.stem, path=str(path))
    seen_groups = set()
    modes_words, modes_ln = None, 0

    def err(ln, msg):
        raise ScenarioError(f"{path}:{ln}: {msg}")

    def num(ln, s, typ=float, lo=None, hi=None, what="value"):
        try:
            v = typ(s)
        except ValueError:
            err(ln, f"bad {what}: {s!r}")
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            err(ln, f"{what} {s} out of range")
        return v

    def kind(ln, s):
        if s not in KIND_BY_NAME:
            err(ln, f"unknown kind of work {s!r} (one of {', '.join(KIND_BY_NAME)})")
        return KIND_BY_NAME[s]

    for ln, raw in enumerate(path.read_text().splitlines(), 1):
        # '#' starts a comment at the start of a line or after a blank
        # ("vec#1" is a task reference).
        line = re.sub(r"(^|\s)#.*$", "", raw).strip()
        if not line:
            continue
        words = line.split()
        key, args = words[0].lower(), words[1:]
        if key == "name":
            if len(args) != 1 or not re.match(r"^[\w.-]+$", args[0]):
                err(ln, "name takes one word")
            sc.name = args[0]
        elif key == "description":
            sc.description = " ".join(args)
        elif key == "profile":
            if len(args) != 1 or not (REPO / "harness/profiles" / f"{args[0]}.conf").exists():
                err(ln, f"unknown profile {' '.join(args)} (see harness/profiles/)")
            sc.profile = args[0]
        elif key == "smp":
            if len(args) != 1:
                err(ln, "smp takes one QEMU -smp value")
            sc.smp = args[0]
        elif key == "duration":
            sc.duration = num(ln, args[0] if args else "", float, 1, 3600, "duration")
        elif key == "warmup":
            sc.warmup = num(ln, args[0] if args else "", float, 0, 3600, "warmup")
        elif key in ("repetitions", "reps"):
            sc.repetitions = num(ln, args[0] if args else "", int, 1, 100, "repetitions")
        elif key == "interval":
            sc.interval = num(ln, args[0] if args else "", int, 5, 1000, "interval")
        elif key == "modes":
            # Checked once every variant line is read (set_modes()).
            modes_words, modes_ln = args, ln
        elif key == "variant":
            try:
                name, v = parse_variant(args)
            except ScenarioError as e:
                err(ln, str(e))
            if name in sc.variants:
                err(ln, f"variant {name} defined twice")
            sc.variants[name] = v
        elif key == "debounce":
            sc.debounce = num(ln, args[0] if args else "", int, 1, 255, "debounce")
        elif key == "schedstats":
            if args not in (["on"], ["off"]):
                err(ln, "schedstats on|off")
            sc.schedstats = args == ["on"]
        elif key == "trace":
            if args not in (["on"], ["off"], ["migrate"]):
                err(ln, "trace on|off|migrate")
            sc.trace = args != ["off"]
            sc.trace_migrate = args == ["migrate"]
        elif key == "ftrace":
            if not args or not all(re.match(r"^[A-Za-z_][\w.]*\*?$", a) for a in args):
                err(ln, "ftrace FUNCTION [FUNCTION...] (names, a trailing * for a prefix)")
            sc.ftrace = args
            sc.trace = True
        elif key == "score":
            if len(args) != 4 or args[0] not in ("P", "E", "LP"):
                err(ln, "score TYPE CLASS PERF EFF (TYPE P, E or LP)")
            sc.scores.append((args[0], num(ln, args[1], int, 0, NR_HW_CLASSES - 1, "class"),
                              num(ln, args[2], int, 0, 255, "perf"),
                              num(ln, args[3], int, 0, 255, "eff")))
        elif key == "task":
            if not args or "=" in args[0]:
                err(ln, "task NAME class=C|kind=K|stress-ng=METHOD [duty=D] [count=N] [period=MS] [pin=LIST] [unpin=S] [work=S]")
            name = args[0]
            if not re.match(r"^[A-Za-z][\w-]*$", name) or name in seen_groups:
                err(ln, f"bad or duplicate task name {name!r}")
            seen_groups.add(name)
            kv = {}
            for a in args[1:]:
                if "=" not in a:
                    err(ln, f"expected key=value, got {a!r}")
                k, v = a.split("=", 1)
                if k not in ("class", "kind", "stress-ng", "duty", "count", "period", "pin",
                             "unpin", "work"):
                    err(ln, f"unknown task key {k!r}")
                kv[k] = v
            if sum(k in kv for k in ("class", "kind", "stress-ng")) != 1:
                err(ln, "task needs one of class=, kind= or stress-ng=")
            if "stress-ng" in kv:
                if kv["stress-ng"] not in STRESS_NG:
                    err(ln, f"unknown stress-ng method {kv['stress-ng']!r} "
                        f"(one of {', '.join(STRESS_NG)})")
                for k in ("duty", "period"):
                    if k in kv:
                        err(ln, f"{k}= does not apply to stress-ng= (it runs all the time)")
                g = TaskGroup(name, STRESS_NG[kv["stress-ng"]][0], stress_ng=kv["stress-ng"])
            else:
                g = TaskGroup(name, kind(ln, kv["kind"]) if "kind" in kv else
                              num(ln, kv["class"], int, 0, NR_HW_CLASSES - 1, "class"))
            g.duty = num(ln, kv.get("duty", "100"), int, 1, 100, "duty")
            g.count = num(ln, kv.get("count", "1"), int, 1, 256, "count")
            g.period = num(ln, kv.get("period", "10"), int, 1, 1000, "period")
            if "pin" in kv:
                if not _CPULIST.match(kv["pin"]):
                    err(ln, f"bad cpulist {kv['pin']!r}")
                g.pin = kv["pin"]
            if "unpin" in kv:
                if g.pin == "-":
                    err(ln, "unpin= without pin=")
                g.unpin = num(ln, kv["unpin"], float, 0, 3600, "unpin")
            if "work" in kv:
                g.work = num(ln, kv["work"], float, 0.001, 3600, "work")
            sc.tasks.append(g)
        elif key == "change":
            if len(args) != 3:
                err(ln, "change SECONDS TASK[#K] CLASS|KIND")
            t = num(ln, args[0], float, 0, 3600, "time")
            m = re.match(r"^([A-Za-z][\w-]*)(?:#(\d+))?$", args[1])
            if not m:
                err(ln, f"bad task reference {args[1]!r}")
            sc.changes.append((t, m.group(1), None if m.group(2) is None else int(m.group(2)),
                               kind(ln, args[2]) if args[2] in KIND_BY_NAME else
                               num(ln, args[2], int, 0, NR_HW_CLASSES - 1, "class")))
        else:
            err(ln, f"unknown keyword {key!r}")
    if not sc.tasks:
        raise ScenarioError(f"{path}: no task lines")
    if modes_words is not None:
        try:
            set_modes(sc, modes_words)
        except ScenarioError as e:
            err(modes_ln, str(e))
    groups = {g.name: g for g in sc.tasks}
    for t, grp, idx, _ in sc.changes:
        if grp not in groups:
            raise ScenarioError(f"{path}: change refers to unknown task {grp!r}")
        if groups[grp].stress_ng:
            raise ScenarioError(f"{path}: {grp} runs stress-ng, which cannot change its work")
        if idx is not None and idx >= groups[grp].count:
            raise ScenarioError(f"{path}: {grp}#{idx}: only {groups[grp].count} instances")
        if t >= sc.duration:
            raise ScenarioError(f"{path}: change at {t}s is not before the end")
    if sc.warmup >= sc.duration:
        raise ScenarioError(f"{path}: warmup must be shorter than duration")
    return sc


# ------------------------------------------------------------ guest script

GUEST_PROLOGUE = r"""#!/bin/sh
# Generated by bench/ on the host; runs in the guest (busybox sh).
export PATH=/run/ipcc:$PATH
B=/tmp/bench
mkdir -p $B
core=/sys/kernel/debug/sched/ipcc
fail=0
say() { echo "bench: $*"; }
[ -d $core ] || { say "no $core: kernel without ipcc?"; exit 3; }
[ -f /proc/sys/kernel/sched_ipcc ] || { say "no kernel.sched_ipcc"; exit 3; }
"""

GUEST_TOPOLOGY = r"""
for c in /sys/devices/system/cpu/cpu[0-9]*; do
	n=${c##*/cpu}
	on=1
	[ -f $c/online ] && on=$(cat $c/online)
	echo "cpu $n $on $(cat $c/topology/thread_siblings_list 2>/dev/null)"
done >$B/topology
ipcc-qmp profile >$B/profile || say "cannot query the hardware"
cat $core/scores >$B/scores
uname -r >$B/kernel
"""

# Time spent in load balancing, measured by ftrace's function profiler
# (CONFIG_FUNCTION_PROFILER) on the balancer's entry points: the softirq
# (periodic and nohz idle balancing) and newidle balancing, each timed with
# everything it calls.  The profiler resets when it is switched on.
LBTIME_SETUP = r"""
T=/sys/kernel/tracing
[ -f $T/function_profile_enabled ] || { say "no function profiler in this kernel"; exit 3; }
lbf=""
for fn in sched_balance_softirq sched_balance_newidle; do
	grep -qx "$fn" $T/available_filter_functions && lbf="$lbf $fn"
done
[ -n "$lbf" ] || { say "no traceable balancing entry point"; exit 3; }
echo $lbf >$T/set_ftrace_filter || { say "cannot filter $lbf"; exit 3; }
echo 1 >$T/options/graph-time 2>/dev/null
say "profiling:$lbf"
"""

# The ipcc trace events (class changes, balancing decisions) of each run,
# with the guest's boot-time clock, into raw/trace-mMODE-rREP.
TRACE_SETUP = r"""
TR=/sys/kernel/tracing
[ -d $TR/events/ipcc ] || { say "no ipcc trace events in this kernel"; exit 3; }
echo 4096 >$TR/buffer_size_kb
echo boot >$TR/trace_clock 2>/dev/null
echo 1 >$TR/events/ipcc/enable || { say "cannot enable the ipcc events"; exit 3; }
"""

# With "trace migrate", every task migration too (sched_migrate_task).
TRACE_MIGRATE_SETUP = r"""
echo 1 >$TR/events/sched/sched_migrate_task/enable || { say "cannot enable sched_migrate_task"; exit 3; }
"""


def parse_lbprof(text):
    """Total time (us) and hits per function over all CPUs' profiles."""
    tot = {}
    for ln in (text or "").splitlines():
        w = ln.split()
        if len(w) >= 4 and w[2].replace(".", "", 1).isdigit() and w[3] == "us":
            t = tot.setdefault(w[0], [0, 0.0])
            t[0] += int(w[1])
            t[1] += float(w[2])
    return tot


PROCSTAT_FIELDS = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")


def parse_procstat(text):
    """Per-CPU time (USER_HZ ticks) by kind from /proc/stat's cpuN lines:
    {cpu: {field: ticks}}; the summary "cpu" line is left out."""
    per = {}
    for ln in (text or "").splitlines():
        w = ln.split()
        if len(w) > len(PROCSTAT_FIELDS) and w[0].startswith("cpu") and w[0][3:].isdigit():
            per[int(w[0][3:])] = dict(zip(PROCSTAT_FIELDS, (int(x) for x in w[1:])))
    return per


def kthread_time(before, after):
    """Run time (s) of kernel threads between two snapshots of the guest's
    kthreads(), by kind: {"migration": s, "kworker": s, "ksoftirqd": s}.
    Threads that came or went in between count from 0 / up to their last
    value."""
    def parse(text):
        d = {}
        for ln in (text or "").splitlines():
            w = ln.split()
            if len(w) == 2 and w[1].isdigit():
                d[w[0]] = d.get(w[0], 0) + int(w[1])
        return d
    b, a = parse(before), parse(after)
    out = dict(migration=0.0, kworker=0.0, ksoftirqd=0.0)
    for name, t in a.items():
        kind = name.split("/")[0]
        if kind in out:
            out[kind] += max(0, t - b.get(name, 0)) / 1e9
    return out


def procstat_shares(before, after):
    """Share of all CPUs' time per kind between two parse_procstat() results
    (user+nice as "user", irq+softirq as "irq"), plus the idle share of each
    CPU ("idle_cpu": {cpu: share}).  None when nothing elapsed."""
    tot, kinds, idle_cpu = 0, dict(user=0, system=0, idle=0, irq=0, other=0), {}
    for cpu, a in after.items():
        b = before.get(cpu)
        if not b:
            continue
        d = {k: a[k] - b[k] for k in PROCSTAT_FIELDS}
        t = sum(d.values())
        if t <= 0:
            continue
        tot += t
        kinds["user"] += d["user"] + d["nice"]
        kinds["system"] += d["system"]
        kinds["idle"] += d["idle"] + d["iowait"]
        kinds["irq"] += d["irq"] + d["softirq"]
        kinds["other"] += d["steal"]
        idle_cpu[cpu] = (d["idle"] + d["iowait"]) / t
    if not tot:
        return None
    res = {k: v / tot for k, v in kinds.items()}
    res["idle_cpu"] = idle_cpu
    return res


def parse_timer_irqs(text):
    """A snapshot of /proc/uptime, the header line of /proc/interrupts and
    its LOC line, as the guest's run() takes it: (uptime_s, {cpu: local
    timer interrupts}), or None if a part is missing."""
    up, cpus, loc = None, None, None
    for ln in (text or "").splitlines():
        w = ln.split()
        if not w:
            continue
        if up is None and len(w) == 2 and re.fullmatch(r"[0-9.]+", w[0]):
            up = float(w[0])
        elif w[0].startswith("CPU"):
            cpus = [int(x[3:]) for x in w if x.startswith("CPU") and x[3:].isdigit()]
        elif w[0] == "LOC:":
            loc = [int(x) for x in w[1:] if x.isdigit()]
    if up is None or cpus is None or loc is None or len(loc) < len(cpus):
        return None
    return up, dict(zip(cpus, loc))


def tick_interval_ms(before, after, idle_cpu, min_busy=0.5):
    """Mean time between local timer interrupts on the CPUs that were busy
    in a run, in ms of the guest's time: each CPU's busy time (its share
    of the run not idle, from /proc/stat's idle_cpu shares) divided by the
    interrupts it took, the median over the CPUs busy at least MIN_BUSY of
    the run. Under TCG a vCPU takes its tick when its thread runs on the
    host, later than the period asks. Every local timer interrupt counts,
    not only ticks, so the figure errs short. None when no CPU was busy or
    a snapshot is missing."""
    if not before or not after or not idle_cpu:
        return None
    elapsed_ms = (after[0] - before[0]) * 1000.0
    if elapsed_ms <= 0:
        return None
    iv = []
    for cpu, n in after[1].items():
        busy = 1.0 - idle_cpu.get(cpu, 1.0)
        d = n - before[1].get(cpu, n)
        if busy >= min_busy and d > 0:
            iv.append(elapsed_ms * busy / d)
    return statistics.median(iv) if iv else None


GUEST_EPILOGUE = r"""
echo "@@BENCH-TAR-BEGIN@@"
tar -C $B -czf - . | base64
echo "@@BENCH-TAR-END@@"
exit $fail
"""


def heredoc(path, text):
    assert "IPCC_EOF" not in text
    return f"cat >{path} <<'IPCC_EOF'\n{text}IPCC_EOF\n"


def mode_name(sc, m):
    """What a run key of sc.modes stands for: the mode's name, and for a
    variant the mode's name and the knobs it sets."""
    if isinstance(m, int):
        return MODE_NAMES[m]
    mode, knobs = sc.variants[m]
    return f"{MODE_NAMES[mode]}, " + ", ".join(f"{k}={v}" for k, v in knobs)


def mode_label(row):
    """A result row's mode as the tables print it: "2 full", or a variant's
    name."""
    m = row.get("mode", "-")
    return f"{m} {row['mode_name']}" if isinstance(m, int) else str(m)


def mode_sort_key(m):
    """Modes 0..2 first, in order, then the variants by name."""
    return (isinstance(m, str), str(m) if isinstance(m, str) else m)


def variant_run(sc, name, rep):
    """The guest script lines of one run of a variant: write its knobs
    (remembering their values), run its mode under the variant's name,
    write the values back. A knob that cannot be set skips the run, which
    the host then reports missing."""
    mode, knobs = sc.variants[name]
    get_set = " &&\n   ".join(f'v{i}=$(cat $core/{k}) && echo {v} >$core/{k}'
                               for i, (k, v) in enumerate(knobs))
    restore = "".join(f'[ -z "$v{i}" ] || echo "$v{i}" >$core/{k} || '
                      f'{{ say "variant {name}: cannot restore {k}"; fail=1; }}\n'
                      for i, (k, _) in enumerate(knobs))
    unset = " ".join(f"v{i}=" for i in range(len(knobs)))
    return (f"{unset}\n"
            f"if {get_set}; then\n\trun {name} {rep} {mode}\n"
            f'else\n\tsay "variant {name}: cannot set its knobs"; fail=1\nfi\n'
            f"{restore}")


def fork_stride(sc):
    """How far the fork order rotates from one repetition to the next:
    the repetitions spread over the task list (16 tasks, 3 repetitions:
    starting with tasks 0, 5, 10), one task at least."""
    return max(1, len(sc.instances()) // sc.repetitions)


def guest_script(sc, order=None):
    """The guest script of a scenario: setup, then every (mode, rep) run.

    order: list of (mode, rep); default interleaved, the mode order rotating
    from one repetition to the next."""
    s = [GUEST_PROLOGUE, heredoc("$B/spec", sc.spec())]
    # Classes come from the hardware: the part must be hybrid.
    s.append('ipcc-qmp profile >$B/profile || '
             '{ say "no hybrid part (x-query-hybrid): boot a hybrid profile"; exit 3; }\n')
    # Scores: the hardware's HFI table, changed through QMP; ipcc-qmp
    # returns once the kernel reports the new values.
    for typ, cls, perf, eff in sc.scores:
        s.append(f'ipcc-qmp set-hfi {typ} {cls} {perf} {eff} || '
                 f'{{ say "cannot set score {typ} {cls} {perf} {eff}"; exit 3; }}\n')
    if sc.debounce:
        s.append(f'echo {sc.debounce} >$core/debounce_ticks || {{ say "cannot set debounce"; exit 3; }}\n')
    if sc.schedstats:
        s.append('echo 1 >/proc/sys/kernel/sched_schedstats || { say "cannot enable schedstats"; exit 3; }\n')
    if sc.lbtime:
        s.append(LBTIME_SETUP)
    if sc.trace:
        s.append(TRACE_SETUP)
    if sc.trace_migrate:
        s.append(TRACE_MIGRATE_SETUP)
    if sc.ftrace:
        s.append("".join(f'echo "{f}" >>$TR/set_ftrace_filter || '
                         f'{{ say "cannot trace {f}"; exit 3; }}\n' for f in sc.ftrace))
        s.append('echo function >$TR/current_tracer || { say "no function tracer"; exit 3; }\n')
    if sc.scores:
        s.append("sleep 1\n")   # the core rebuilds its score view from a work item
    s.append(GUEST_TOPOLOGY)
    s.append(r"""
# Run time (ns) of the kernel threads the balancer uses: the CPU
# stoppers (active balance, swaps), kworkers, ksoftirqd.
kthreads() {
	for d in /proc/[0-9]*; do
		read -r c <$d/comm 2>/dev/null || continue
		case $c in
		migration/*|kworker/*|ksoftirqd/*)
			read -r t _ <$d/schedstat 2>/dev/null && echo "$c $t" ;;
		esac
	done
}

# Local timer interrupts per CPU, with the guest's time (uptime).
timer_irqs() {
	cat /proc/uptime
	head -n 1 /proc/interrupts
	grep '^ *LOC:' /proc/interrupts
}

# run KEY REP [MODE]: one run of mode KEY, or of a variant KEY of MODE.
run() {
	echo ${3:-$1} >/proc/sys/kernel/sched_ipcc || { say "cannot set mode ${3:-$1}"; fail=1; return; }
	sleep 1
	cat $core/stats >$B/stats-m$1-r$2.before
	grep '^cpu' /proc/stat >$B/procstat-m$1-r$2.before
	timer_irqs >$B/timerirq-m$1-r$2.before
	kthreads >$B/kthreads-m$1-r$2.before
	%(ss_before)s
	%(lb_before)s
	%(tr_before)s
	say "mode $1 rep $2"
	ipcc-run $B/spec $B/run-m$1-r$2 $((($2 - 1) * %(stride)d)) || { say "ipcc-run failed: mode $1 rep $2"; fail=1; }
	%(tr_after)s
	%(lb_after)s
	%(ss_after)s
	kthreads >$B/kthreads-m$1-r$2.after
	timer_irqs >$B/timerirq-m$1-r$2.after
	grep '^cpu' /proc/stat >$B/procstat-m$1-r$2.after
	cat $core/stats >$B/stats-m$1-r$2.after
}
""" % dict(stride=fork_stride(sc), ss_before="{ cat /proc/uptime /proc/schedstat; } >$B/schedstat-m$1-r$2.before" if sc.schedstats else ":",
           ss_after="{ cat /proc/uptime /proc/schedstat; } >$B/schedstat-m$1-r$2.after" if sc.schedstats else ":",
           tr_before="echo >$TR/trace" if sc.trace else ":",
           tr_after="cat $TR/trace >$B/trace-m$1-r$2" if sc.trace else ":",
           lb_before="echo 0 >$T/function_profile_enabled; echo 1 >$T/function_profile_enabled" if sc.lbtime else ":",
           lb_after=("echo 0 >$T/function_profile_enabled; "
                     "for f in $T/trace_stat/function*; do echo \"== $f\"; cat $f; done >$B/lbprof-m$1-r$2")
           if sc.lbtime else ":"))
    if order is None:
        order = []
        for r in range(sc.repetitions):
            k = r % len(sc.modes)
            for m in sc.modes[k:] + sc.modes[:k]:
                order.append((m, r + 1))
    for m, r in order:
        s.append(variant_run(sc, m, r) if isinstance(m, str) else f"run {m} {r}\n")
    s.append(GUEST_EPILOGUE)
    return "".join(s)


# ------------------------------------------------------------------ booting

def qemu_running():
    """PIDs of QEMU processes on this host (to keep to one at a time)."""
    pids = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if (d / "comm").read_text().strip().startswith("qemu-system"):
                    pids.append(int(d.name))
            except OSError:
                pass
    return pids


def boot(profile, script_text, logdir, smp=None, timeout=900, env_extra=None):
    """Boot PROFILE, run the script in the guest; return (rc, output)."""
    logdir = Path(logdir)
    logdir.mkdir(parents=True, exist_ok=True)
    script = logdir / "guest-script.sh"
    script.write_text(script_text)
    waited = 0
    while os.environ.get("BENCH_NO_WAIT") != "1" and qemu_running():
        if waited % 60 == 0:
            log(f"another QEMU is running (pid {qemu_running()}); waiting for it to end")
        time.sleep(5)
        waited += 5
    env = dict(os.environ, PROFILE=profile, TIMEOUT=str(int(timeout)))
    # The guest tools also travel with the script (/run/ipcc, first in the
    # guest script's PATH), so a stale initramfs cannot run old tools.
    tools = sorted(str(p) for p in GUEST_BIN.glob("ipcc-*") if p.is_file())
    if tools:
        env["SCRIPT_FILES"] = " ".join(tools)
    if smp:
        env["QEMU_SMP"] = smp
    env.update(env_extra or {})
    t0 = time.time()
    rc = subprocess.run([str(REPO / "harness/boot.sh"), "script", str(logdir), str(script)],
                        env=env).returncode
    out = (logdir / "output.log").read_text(errors="replace") \
        if (logdir / "output.log").exists() else ""
    log(f"guest finished in {time.time() - t0:.0f}s (exit {rc}); logs in {logdir}")
    return rc, out


def extract_tar(output):
    """Files the guest sent between the tar markers: {name: text}."""
    m = re.search(r"@@BENCH-TAR-BEGIN@@\s*\n(.*?)@@BENCH-TAR-END@@", output, re.S)
    if not m:
        return None
    data = base64.b64decode("".join(m.group(1).split()))
    files = {}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tf:
        for ti in tf.getmembers():
            if ti.isfile():
                files[ti.name.lstrip("./")] = tf.extractfile(ti).read().decode(errors="replace")
    return files


def new_logdir(kind):
    d = OUT / "logs" / f"{kind}-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"
    d.mkdir(parents=True, exist_ok=True)
    return d


# ----------------------------------------------------------------- parsing

def parse_cpulist(s):
    out = set()
    for part in s.strip().split(","):
        if not part:
            continue
        if "-" in part:
            a, b = part.split("-")
            out.update(range(int(a), int(b) + 1))
        else:
            out.add(int(part))
    return out


def parse_topology(files):
    online, siblings = set(), {}
    for line in files.get("topology", "").splitlines():
        w = line.split()
        if len(w) >= 3 and w[0] == "cpu" and w[2] == "1":
            cpu = int(w[1])
            online.add(cpu)
            siblings[cpu] = parse_cpulist(w[3]) if len(w) > 3 else {cpu}
    # Core types as the hardware reports them (ipcc-qmp profile); LP
    # E-cores count as E-cores.
    pcpus, ecpus = set(), set()
    for line in files.get("profile", "").splitlines():
        w = line.split()
        if len(w) == 2 and w[0] == "pcpus":
            pcpus = parse_cpulist(w[1])
        elif len(w) == 2 and w[0] in ("ecpus", "lpcpus"):
            ecpus |= parse_cpulist(w[1])
    # What the kernel reads (its HFI scores) is kept for reports only; the
    # score is the ground truth of bench/truth.py by core type.
    hfi = {}
    lines = files.get("scores", "").splitlines()
    for line in lines[1:]:
        w = line.split()
        if not w or not w[0].isdigit():
            continue
        hfi[int(w[0])] = [int(x.split("/")[0]) if x[0].isdigit() else 0 for x in w[1:]]
    pcpus &= online
    ecpus &= online
    classes = sorted(truth.CATALOGUE)
    perf = {cpu: [truth.speed(c, "P" if cpu in pcpus else "E" if cpu in ecpus else "?")
                  for c in classes] for cpu in online}
    smt = {c: truth.smt_factor(c) for c in classes}
    topo = model.Topology(online, siblings, pcpus, ecpus, perf, smt)
    topo.hfi = hfi
    return topo


@dataclass
class Run:
    duration_ms: float = 0
    interval_ms: float = 0
    clk_tck: int = 100
    tasks: list = field(default_factory=list)     # dicts id pid name cls0 duty
    events: list = field(default_factory=list)    # (t_ms, kind, id, arg)
    samples: dict = field(default_factory=dict)   # pid -> [(t, cpu, state, run_ns)]
    end: dict = field(default_factory=dict)       # pid -> dict
    worker: dict = field(default_factory=dict)    # pid -> (work, {cpu: ns})
    fixed: dict = field(default_factory=dict)     # id -> work ms
    done: dict = field(default_factory=dict)      # id -> (t_ms it finished, run ms then)
    idle: list = field(default_factory=list)      # (t_ms, {cpu: idle ms})


def parse_run(text):
    r = Run()
    for line in text.splitlines():
        if line.startswith("s,"):
            _, t, pid, cpu, st, run = line.split(",")
            r.samples.setdefault(int(pid), []).append((float(t), int(cpu), st, int(run)))
        elif line.startswith("task,"):
            _, i, pid, name, cls, duty = line.split(",")
            r.tasks.append(dict(id=int(i), pid=int(pid), name=name, cls0=int(cls),
                                duty=int(duty)))
        elif line.startswith("event,"):
            _, t, kind, i, arg = line.split(",")
            r.events.append((float(t), kind, int(i), int(arg)))
        elif line.startswith("end,"):
            _, pid, ut, st, run, wait, sl, cls = line.split(",")
            r.end[int(pid)] = dict(utime=int(ut), stime=int(st), run_ns=int(run),
                                   wait_ns=int(wait), slices=int(sl), sched_class=int(cls))
        elif line.startswith("fixed,"):
            _, i, w = line.split(",")
            r.fixed[int(i)] = float(w)
        elif line.startswith("idle,"):
            w = line.split(",")
            r.idle.append((float(w[1]), {c: int(v) for c, v in enumerate(w[2:])
                                         if int(v) >= 0}))
        elif line.startswith("done,"):
            _, i, t, ran = line.split(",")
            r.done[int(i)] = (float(t), float(ran))
        elif line.startswith("meta,"):
            _, d, i, tck = line.split(",")
            r.duration_ms, r.interval_ms, r.clk_tck = float(d), float(i), int(tck)
        elif line.startswith("worker "):
            m = re.match(r"worker (\d+) work=([\d.]+) cpus=(.*)", line)
            if m:
                cpus = {}
                for kv in m.group(3).split(","):
                    if ":" in kv:
                        c, ns = kv.split(":")
                        cpus[int(c)] = int(ns)
                r.worker[int(m.group(1))] = (float(m.group(2)), cpus)
    # Idle time in ms; a CPU cannot idle longer than the time between two
    # readings (the figures are in clock ticks and come a little late or
    # early), so no reading gains more than that on the one before.
    tick_ms = 1000.0 / (r.clk_tck or 100)
    idle, last = [], {}
    for t, d in r.idle:
        cur = {}
        for c, v in d.items():
            v *= tick_ms
            if c in last:
                lt, lv = last[c]
                v = lv + min(max(0.0, v - lv), max(0.0, t - lt))
            cur[c] = v
            last[c] = (t, v)
        idle.append((t, cur))
    r.idle = idle
    return r


def idle_ms(run, cpu, ta, tb):
    """CPU cpu's idle time (ms) between ta and tb (ms since the start),
    from the run's idle readings, linear between two, or None when the run
    has none around [ta, tb]."""
    pts = [(t, d[cpu]) for t, d in run.idle if cpu in d]
    if len(pts) < 2 or ta < pts[0][0] - 50 or tb > pts[-1][0] + 50:
        return None
    a, b = on_grid(pts, [v for _, v in pts], [ta, tb])
    return max(0.0, b - a)


def parse_stats(text):
    out = {}
    for line in (text or "").splitlines():
        w = line.split()
        if len(w) == 2 and w[1].isdigit():
            out[w[0]] = int(w[1])
    return out


# ----------------------------------------------------------------- metrics

def fixed_work_metrics(run, topo, allowed=None):
    """Makespan, its bound and the multiprogram metrics of the run's
    fixed-work tasks (bench/README.md), or None without any.

    allowed: {task id: CPU set or None} (the scenario's final affinity,
    for the bound)."""
    if not run.fixed:
        return None
    tasks = {t["id"]: t for t in run.tasks}
    ids = sorted(run.fixed)
    done = {i: run.done[i][0] for i in ids if i in run.done}
    res = dict(fixed_tasks=len(ids), unfinished=len(ids) - len(done),
               makespan_ms=None, bound_ms=None, makespan_eff=None,
               makespan_eff_wall=None, stp=None, antt=None, unfairness=None,
               fw_kappa=None)
    # The run time each got over its life: the largest is the share of a
    # CPU the guest leaves to a task that always runs (TCG takes the rest).
    shares = [run.done[i][1] / done[i] for i in done if done[i] > 0]
    kappa = max(0.05, min(1.0, max(shares))) if shares else None
    res["fw_kappa"] = kappa
    changed = {i for _, kind, i, _ in run.events if kind == "class"}
    jobs = [(tasks[i]["cls0"], run.fixed[i], (allowed or {}).get(i)) for i in ids]
    if not changed & set(ids):
        res["bound_ms"] = model.makespan_bound(topo, jobs)
    if res["unfinished"] or kappa is None:
        return res
    res["makespan_ms"] = max(done.values())
    if res["bound_ms"]:
        res["makespan_eff"] = res["bound_ms"] / (kappa * res["makespan_ms"])
        # Without kappa: it also takes out time the kernel itself cost every
        # task (CPU stops, a wait between two moves), not only the
        # emulation's.
        res["makespan_eff_wall"] = res["bound_ms"] / res["makespan_ms"]
    # Normalised turnaround: the time in the run over the time alone on a
    # P-core with idle siblings (truth), both in run time of a CPU.
    ntt = []
    for i in ids:
        c = tasks[i]["cls0"]
        w = truth.work(c)
        if w is None or i in changed:
            ntt = None
            break
        ntt.append(kappa * done[i] / (run.fixed[i] / w.p_over_e))
    if ntt:
        res["stp"] = sum(1.0 / x for x in ntt)
        res["antt"] = statistics.fmean(ntt)
        res["unfairness"] = max(ntt) / min(ntt)
    return res


def run_envelope(samples):
    """A task's cumulative run time (ns) at its samples as it happened.

    The kernel's figure for a running task (/proc/PID/schedstat) moves
    only at its own updates (a tick, a switch), which under emulation
    come late: the figure lags, then jumps, and some intervals show more
    run time than they lasted (bench/README.md, "What is measured").  A
    task cannot run longer than the time between two samples, so the run
    time it had at a sample is at least what it reported at any later
    sample less the time in between: the smallest curve through or above
    the readings that never rises faster than time.  Its last value is
    the last reading; time reported late moves back to when it was run
    (the first value rises when the second reading reports more than the
    time since the first: that run time is left out).

    samples: [(t_ms, cpu, state, run_ns)] in time order."""
    out = [float(x[3]) for x in samples]
    for k in range(len(out) - 2, -1, -1):
        gap = max(0.0, (samples[k + 1][0] - samples[k][0]) * 1e6)
        out[k] = max(out[k], out[k + 1] - gap)
    return out


def run_other(run, topo, span):
    """What each CPU did besides the benchmark's tasks over a span of the
    run (dict t0, t1, T in ms and busy = {cpu: the tasks' run ms}), as a
    share of the span: {cpu: share}, or None without idle readings.

    The guest's own work (the driver, kernel threads, interrupts, the
    emulation's share of them) is not idle: it keeps a CPU from the tasks
    and makes its SMT siblings share their core, wherever it ran."""
    out = {}
    for c in topo.online:
        idl = idle_ms(run, c, span["t0"], span["t1"])
        if idl is None or span["T"] <= 0:
            return None
        free = max(0.0, span["T"] - span["busy"].get(c, 0.0))
        out[c] = max(0.0, free - idl) / span["T"]
    return out


def on_grid(samples, values, ticks):
    """values (one per sample of samples, at its time) at the times ticks,
    linear between two samples and held beyond the first and the last.
    Both time lists ascend.  A run-time envelope (run_envelope()) stays
    a curve that never rises faster than time, so a task's run time
    between two ticks is at most the time between them, and the run time
    over all ticks is the run time between the first and last sample."""
    out, j = [], 0
    n = len(samples)
    for t in ticks:
        while j + 1 < n and samples[j + 1][0] <= t:
            j += 1
        if t <= samples[0][0]:
            out.append(values[0])
        elif j + 1 >= n:
            out.append(values[-1])
        else:
            ta, tb = samples[j][0], samples[j + 1][0]
            f = (t - ta) / (tb - ta) if tb > ta else 1.0
            out.append(values[j] + (values[j + 1] - values[j]) * f)
    return out


def analyze_run(run, topo, warmup_s, allowed=None):
    """Metrics of one run (see bench/README.md)."""
    warm = warmup_s * 1000.0
    tasks = run.tasks
    pids = [t["pid"] for t in tasks]
    nk = min(len(run.samples.get(p, [])) for p in pids)
    # Class schedule per task id: [(t_applied, class)].
    sched = {t["id"]: [(-1e18, t["cls0"])] for t in tasks}
    cut = set()
    for t_ms, kind, i, arg in sorted(run.events):
        if kind == "class":
            sched[i].append((t_ms, arg))
            if t_ms > warm:
                cut.add(t_ms)

    def cls_at(i, t):
        c = sched[i][0][1]
        for ta, ca in sched[i]:
            if ta <= t:
                c = ca
        return c

    cuts = sorted(cut)
    sib = {c: topo.siblings.get(c, {c}) - {c} for c in topo.online}
    timeline = {t["id"]: [] for t in tasks}   # (t0, t1, cpu, frac)
    # Pass 1: per interval, each task's CPU and run time.
    intervals, every = [], []
    window = 0.0
    cpu_busy = {}
    env, late = {}, []
    for p in pids:
        env[p] = run_envelope(run.samples[p][:nk])
        s = run.samples[p][:nk]
        total = s[-1][3] - s[0][3]
        if total > 0:
            # The share of its run time reported after the interval it
            # was run in.
            late.append(sum(max(0.0, (b[3] - a[3]) - (eb - ea))
                            for a, b, ea, eb in zip(s, s[1:], env[p], env[p][1:]))
                        / total)
    ticks = [x[0] for x in run.samples[pids[0]][:nk]]
    grid = {p: on_grid(run.samples[p][:nk], env[p], ticks) for p in pids}
    for k in range(1, nk):
        t0 = run.samples[pids[0]][k - 1][0]
        t1 = run.samples[pids[0]][k][0]
        dt = t1 - t0
        if dt <= 0:
            continue
        cur, busy = {}, {}
        for t in tasks:
            a = run.samples[t["pid"]][k - 1]
            b = run.samples[t["pid"]][k]
            # The task's run time over this interval: its run time as the
            # kernel reported it on time (run_envelope()), taken at the
            # interval's ends (on_grid()).  A sweep of the driver takes
            # time (and longer when it is preempted part way), so the
            # task's samples need not be where the first task's are.
            d = min(dt, max(0.0, (grid[t["pid"]][k] - grid[t["pid"]][k - 1]) / 1e6))
            cur[t["id"]] = (b[1], d)
            busy[b[1]] = busy.get(b[1], 0.0) + d
            timeline[t["id"]].append((t0, t1, b[1], d / dt))
        every.append((t0, dt, cur, busy))
        if t0 < warm:
            continue
        intervals.append((t0, dt, cur, busy))
        window += dt
        for c, v in busy.items():
            cpu_busy[c] = cpu_busy.get(c, 0.0) + v
    # Capacity kappa: the share of a CPU the guest leaves to benchmark tasks
    # (interrupts, the sampler, the emulation take the rest), estimated from
    # the tasks that always want to run: the largest run share such a task
    # got, or the largest share of a CPU run by benchmark tasks if higher
    # (over-subscribed); 1 without such tasks.
    full = [t for t in tasks if t["duty"] >= 100]
    kappa = 1.0
    if full and window > 0:
        cpu_fr = max(v / window for v in cpu_busy.values())
        task_fr = max(sum(iv[2][t["id"]][1] for iv in intervals) / window for t in full)
        kappa = max(0.05, min(1.0, max(cpu_fr, task_fr)))
    # Pass 2: work under the speed model, and the optimum, over the
    # intervals from @start on (the main window: after the warm-up).
    def score(ivs, record):
        thr = 0.0
        # Phases (index -> T=ms, run={id: ms}, cls={id: class}) and what
        # each CPU did besides the tasks in each: its time neither idle
        # (the driver's readings) nor the tasks' (run_other()); without
        # idle readings, kappa stands for it.
        spans = {}
        for t0, dt, cur, busy in ivs:
            ph = sum(1 for c in cuts if c <= t0)
            sp = spans.setdefault(ph, dict(t0=t0, t1=t0, T=0.0, busy={}))
            sp["t1"], sp["T"] = t0 + dt, sp["T"] + dt
            for c, v in busy.items():
                sp["busy"][c] = sp["busy"].get(c, 0.0) + v
        other = {ph: run_other(run, topo, sp) for ph, sp in spans.items()}
        use_other = bool(other) and all(o is not None for o in other.values())
        cap = 1.0 if use_other else kappa
        phases = {}
        for t0, dt, cur, busy in ivs:
            ph = sum(1 for c in cuts if c <= t0)
            P = phases.setdefault(ph, dict(T=0.0, run={}, cls={}))
            P["T"] += dt
            oth = other[ph] if use_other else {}
            for t in tasks:
                i = t["id"]
                cpu, d = cur[i]
                cls = cls_at(i, t0)
                # Sibling load relative to the capacity, not capped at 1 in
                # an interval so that its mean matches the optimum's fluid
                # model: a task's run time counts on the CPU of the
                # interval's end, so a migration can put more than dt on a
                # CPU in one interval and less in another (at most 2, for
                # a speed that stays positive).
                sb = min(2.0, sum(busy.get(s, 0.0) / dt + oth.get(s, 0.0)
                                  for s in sib.get(cpu, ())) / cap)
                f = 1.0 - (1.0 - topo.smt_factor(cls)) * sb
                w = topo.score(cpu, cls) * d / 1000.0 * f
                thr += w
                P["run"][i] = P["run"].get(i, 0.0) + d
                P["cls"][i] = cls
                if record is None:
                    continue
                pt = record[i]
                pt["run_ms"] += d
                pt["thr"] += w
                pt["cls_ms"][cls] = pt["cls_ms"].get(cls, 0.0) + d
                if cpu in topo.pcpus:
                    pt["p_ms"] += d
                    pt["cls_p_ms"][cls] = pt["cls_p_ms"].get(cls, 0.0) + d
                elif cpu in topo.ecpus:
                    pt["e_ms"] += d
                best = topo.best_cpus(cls)
                if best is None or cpu in best:
                    pt["best_ms"] += d
        opt = 0.0
        for ph, P in phases.items():
            T = P["T"]
            rate = model.optimum_rate(topo, [(P["cls"][i], P["run"][i] / T / cap)
                                             for i in P["run"]],
                                      sum(other[ph].values()) if use_other else 0.0)
            if rate is None:
                return thr, None
            opt += cap * rate * T / 1000.0
        return thr, opt

    per_task = {t["id"]: dict(run_ms=0.0, p_ms=0.0, e_ms=0.0, thr=0.0, best_ms=0.0,
                              cls_ms={}, cls_p_ms={}) for t in tasks}
    thr, opt = score(intervals, per_task)
    # The same from the first event (an unpin or a class change) on,
    # warm-up or not: how well the balancer reacted, which the warm-up
    # would otherwise hide.
    first_ev = min((t_ms for t_ms, *_ in run.events), default=None)
    eff_event = None
    if first_ev is not None:
        ev_thr, ev_opt = score([iv for iv in every if iv[0] >= first_ev], None)
        eff_event = ev_thr / ev_opt if ev_opt else None
    # Fairness: spread of CPU time among tasks of equal demand (duty), in
    # the measured window; CoV averaged over the groups by task count.
    groups = {}
    for t in tasks:
        groups.setdefault(t["duty"], []).append(per_task[t["id"]]["run_ms"])
    covs, ratios = [], []
    for g in groups.values():
        if len(g) < 2:
            continue
        mean = statistics.fmean(g)
        if mean > 0:
            covs.append((statistics.pstdev(g) / mean, len(g)))
        if min(g) > 0:
            ratios.append(max(g) / min(g))
    cov = sum(c * n for c, n in covs) / sum(n for _, n in covs) if covs else None
    maxmin = max(ratios) if ratios else None
    # Reaction: from a class change (or unpin) to the first sample on a CPU
    # of the best type for the task's class, running there. An event that
    # finds the task on such a CPU already needs no reaction and is not
    # counted (already_best).
    reactions, censored, already = [], 0, 0
    for t_ms, kind, i, arg in sorted(run.events):
        cls = arg if kind == "class" else cls_at(i, t_ms)
        best = topo.best_cpus(cls)
        if best is None:
            continue
        pid = tasks[i]["pid"]
        s = run.samples[pid]
        at = [k for k in range(nk) if s[k][0] <= t_ms]
        if at and s[at[-1]][1] in best:
            already += 1
            continue
        hit = None
        for k in range(1, nk):
            if s[k][0] >= t_ms and s[k][1] in best and s[k][3] > s[k - 1][3]:
                hit = s[k][0] - t_ms
                break
        if hit is None:
            censored += 1
        else:
            reactions.append(hit)
    cls_run, cls_p = {}, {}
    for pt in per_task.values():
        for c, ms in pt["cls_ms"].items():
            cls_run[c] = cls_run.get(c, 0.0) + ms
        for c, ms in pt["cls_p_ms"].items():
            cls_p[c] = cls_p.get(c, 0.0) + ms
    return dict(
        throughput=thr, optimum=opt, window_s=window / 1000.0, kappa=kappa,
        efficiency=(thr / opt) if opt else None, efficiency_from_event=eff_event,
        already_best=already,
        rate=thr / (window / 1000.0) if window else 0.0,
        fairness_cov=cov, fairness_maxmin=maxmin,
        reactions_ms=reactions, reaction_ms=statistics.median(reactions) if reactions else None,
        censored=censored,
        p_share={c: cls_p.get(c, 0.0) / v for c, v in cls_run.items() if v > 0},
        per_task=per_task, timeline=timeline,
        cpu_s=sum(pt["run_ms"] for pt in per_task.values()) / 1000.0,
        late_share=max(late) if late else 0.0,
        fixed=fixed_work_metrics(run, topo, allowed),
    )


def summarize(values):
    v = [x for x in values if x is not None]
    if not v:
        return dict(median=None, min=None, max=None, values=values)
    return dict(median=statistics.median(v), min=min(v), max=max(v), values=values)


def fmt(x, spec=".3f", none="-"):
    return none if x is None else format(x, spec)


# --------------------------------------------------------------------- SVG

def svg_escape(s):
    return (str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


class Svg:
    def __init__(self, w, h):
        self.w, self.h, self.items = w, h, []

    def rect(self, x, y, w, h, fill, title=None, stroke=None, opacity=None):
        extra = f' stroke="{stroke}"' if stroke else ""
        extra += f' fill-opacity="{opacity:.2f}"' if opacity is not None else ""
        t = f"<title>{svg_escape(title)}</title>" if title else ""
        self.items.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{max(w, 0):.2f}" '
                          f'height="{max(h, 0):.1f}" fill="{fill}"{extra}>{t}</rect>')

    def line(self, x1, y1, x2, y2, stroke="#000", width=1, dash=None):
        d = f' stroke-dasharray="{dash}"' if dash else ""
        self.items.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                          f'stroke="{stroke}" stroke-width="{width}"{d}/>')

    def text(self, x, y, s, size=12, anchor="start", weight="normal", fill="#000", rotate=None):
        r = f' transform="rotate({rotate} {x:.1f} {y:.1f})"' if rotate else ""
        self.items.append(f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" '
                          f'text-anchor="{anchor}" font-weight="{weight}" fill="{fill}"{r}>'
                          f'{svg_escape(s)}</text>')

    def save(self, path):
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.w}" height="{self.h}" '
            f'viewBox="0 0 {self.w} {self.h}" font-family="sans-serif">\n'
            f'<rect width="100%" height="100%" fill="#fff"/>\n'
            + "\n".join(self.items) + "\n</svg>\n")


MODE_COLORS = {0: "#9e9e9e", 1: "#64b5f6", 2: "#1565c0"}


def class_name(c):
    return CLASS_NAMES.get(c, f"class{c}")


def quote(s):
    return shlex.quote(str(s))
