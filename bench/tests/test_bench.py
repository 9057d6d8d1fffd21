#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Host-side tests of the benchmark's scoring (make test, stage "bench").

The benchmark's numbers come from the ground truth (bench/truth.py) and a
few pieces of arithmetic that nothing else checks: the shortest fluid
makespan of fixed work (model.makespan_bound()), the multiprogram metrics
(benchlib.fixed_work_metrics()), the scenario keywords that set them up,
and the driver that plays the true speeds for fixed work (ipcc-run,
built here with the host's compiler and run on the host: its accounting
is in CPU time, so a slow or busy host changes nothing it checks).

Prints the results as the guest runner's TAP (harness/results.py tap).
"""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BENCH))
import benchlib as bl  # noqa: E402
import model  # noqa: E402
import truth  # noqa: E402
import scale  # noqa: E402
sys.path.insert(0, str(BENCH / "overhead"))
import event_cost  # noqa: E402


def topology(pcores, ecpus, smt):
    """P-cores of @smt threads each first, then @ecpus E-cores."""
    online, sib, pcpus = set(), {}, set()
    cpu = 0
    for _ in range(pcores):
        core = set(range(cpu, cpu + smt))
        for c in core:
            sib[c] = core
        pcpus |= core
        cpu += smt
    ecs = set(range(cpu, cpu + ecpus))
    for c in ecs:
        sib[c] = {c}
    online = pcpus | ecs
    perf = {c: [truth.speed(k, "P" if c in pcpus else "E") for k in sorted(truth.CATALOGUE)]
            for c in online}
    return model.Topology(online, sib, pcpus, ecs, perf,
                          {k: truth.smt_factor(k) for k in truth.CATALOGUE})


class MakespanBound(unittest.TestCase):
    def test_chunks_share_the_p_cores(self):
        # The textbook's 2P+2E without SMT: four chunks of 864 ms on an
        # E-core at P/E 2.4 take 4 x 864 / (2 x 2.4 + 2) at best.
        topo = topology(2, 4, 1)
        jobs = [(2, 864.0, {0, 1, 2, 3})] * 4
        self.assertAlmostEqual(model.makespan_bound(topo, jobs), 4 * 864 / 6.8, places=3)

    def test_affinity_limits_the_bound(self):
        topo = topology(2, 4, 1)
        self.assertAlmostEqual(model.makespan_bound(topo, [(2, 864.0, {3})]), 864.0, places=3)
        self.assertAlmostEqual(model.makespan_bound(topo, [(2, 864.0, {0})]), 360.0, places=3)
        self.assertIsNone(model.makespan_bound(topo, [(2, 864.0, {42})]))

    def test_smt_pairs(self):
        # Two vector tasks: each alone on a P-core.
        topo = topology(2, 4, 2)
        self.assertAlmostEqual(model.makespan_bound(topo, [(1, 1000.0, None)] * 2),
                               1000 / 1.77, places=3)
        # Four: the two P-cores alone, time shared with the E-cores,
        # beats pairing them on the P-cores (2 x 1.77 + 2 against
        # 2 x 1.3 x 1.77).
        self.assertAlmostEqual(model.makespan_bound(topo, [(1, 1000.0, None)] * 4),
                               4000 / (2 * 1.77 + 2), places=3)
        # Twelve spin-waits on 8 CPUs: no SMT loss, 8 at a time.
        self.assertAlmostEqual(model.makespan_bound(topo, [(3, 1000.0, None)] * 12),
                               1500.0, places=3)

    def test_one_task_one_cpu_at_a_time(self):
        # One task cannot use two P-cores at once.
        topo = topology(2, 4, 1)
        self.assertAlmostEqual(model.makespan_bound(topo, [(0, 1620.0, None)]), 1000.0,
                               places=3)


def fake_run(fixed, done, cls=2, events=()):
    """A parsed run with fixed-work tasks: fixed {id: work ms}, done {id:
    (t_ms, run_ms)}."""
    r = bl.Run()
    for i in sorted(fixed):
        r.tasks.append(dict(id=i, pid=100 + i, name=f"t#{i}", cls0=cls, duty=100))
    r.fixed = dict(fixed)
    r.done = dict(done)
    r.events = list(events)
    return r


class FixedWorkMetrics(unittest.TestCase):
    def test_makespan_and_multiprogram_metrics(self):
        topo = topology(2, 4, 1)
        run = fake_run({0: 864.0, 1: 864.0}, {0: (400.0, 360.0), 1: (900.0, 810.0)})
        m = bl.fixed_work_metrics(run, topo, {0: {0, 1, 2, 3}, 1: {0, 1, 2, 3}})
        self.assertEqual(m["makespan_ms"], 900.0)
        self.assertAlmostEqual(m["fw_kappa"], 0.9)
        # Two chunks on two P-cores: 360 ms each at best.
        self.assertAlmostEqual(m["bound_ms"], 360.0, places=3)
        self.assertAlmostEqual(m["makespan_eff"], 360 / (0.9 * 900))
        self.assertAlmostEqual(m["makespan_eff_wall"], 360 / 900)
        ntt = [0.9 * 400 / 360, 0.9 * 900 / 360]
        self.assertAlmostEqual(m["stp"], sum(1 / x for x in ntt))
        self.assertAlmostEqual(m["antt"], sum(ntt) / 2)
        self.assertAlmostEqual(m["unfairness"], ntt[1] / ntt[0])

    def test_unfinished_and_changed(self):
        topo = topology(2, 4, 1)
        run = fake_run({0: 864.0, 1: 864.0}, {0: (400.0, 360.0)})
        m = bl.fixed_work_metrics(run, topo)
        self.assertEqual(m["unfinished"], 1)
        self.assertIsNone(m["makespan_ms"])
        run = fake_run({0: 864.0}, {0: (400.0, 360.0)}, events=[(10.0, "class", 0, 1)])
        m = bl.fixed_work_metrics(run, topo)
        self.assertIsNone(m["bound_ms"])
        self.assertIsNone(m["stp"])
        self.assertIsNone(bl.fixed_work_metrics(fake_run({}, {}), topo))


class SampleTimes(unittest.TestCase):
    """Each sample carries the time its run time was read; a stretched
    sweep (the driver preempted part way) must not lose run time."""

    def run_of(self, skew):
        # Two tasks always running, each on an E-core of its own, sampled
        # every 10 ms; the second task's reads come late by skew(k) ms.
        topo = topology(0, 2, 1)
        run = bl.Run(duration_ms=1000, interval_ms=10)
        run.tasks = [dict(id=i, pid=100 + i, name=f"t#{i}", cls0=0, duty=100)
                     for i in range(2)]
        for k in range(101):
            t0, t1 = 10.0 * k, 10.0 * k + skew(k)
            run.samples.setdefault(100, []).append((t0, 0, "R", int(t0 * 1e6)))
            run.samples.setdefault(101, []).append((t1, 1, "R", int(t1 * 1e6)))
        return bl.analyze_run(run, topo, 0.0)

    def test_stretched_sweeps_keep_run_time(self):
        # Every other sweep the second read comes 5 ms late: its own
        # intervals are 15 and 5 ms against the first task's 10.
        res = self.run_of(lambda k: 5.0 if k % 2 else 0.0)
        run_ms = [res["per_task"][i]["run_ms"] for i in range(2)]
        self.assertAlmostEqual(run_ms[0], 1000.0, delta=0.01)
        self.assertAlmostEqual(run_ms[1], 1000.0, delta=10.0)
        self.assertAlmostEqual(res["efficiency"], 1.0, delta=0.01)

    def test_reported_late(self):
        # The kernel's figure lags and jumps: 0 ms, then 20 ms in a 10 ms
        # interval.  The 10 ms reported late move back to when they ran.
        topo = topology(0, 1, 1)
        run = bl.Run(duration_ms=40, interval_ms=10)
        run.tasks = [dict(id=0, pid=100, name="t#0", cls0=0, duty=100)]
        run.samples[100] = [(0.0, 0, "R", 0), (10.0, 0, "R", 0), (20.0, 0, "R", int(20e6)),
                            (30.0, 0, "R", int(30e6)), (40.0, 0, "R", int(40e6))]
        self.assertEqual(bl.run_envelope(run.samples[100]), [0.0, 10e6, 20e6, 30e6, 40e6])
        res = bl.analyze_run(run, topo, 0.0)
        self.assertAlmostEqual(res["per_task"][0]["run_ms"], 40.0)
        self.assertAlmostEqual(res["late_share"], 0.25)

    def test_sibling_load_is_not_capped(self):
        # A runs alone on CPU 0 of a P-core; the sibling CPU 1 shows 1.5
        # and 0.5 of an interval by turns (a migration charges a task's
        # run time to the CPU of the interval's end): on average busy, so
        # A runs at its SMT speed, not faster.
        topo = topology(1, 1, 2)
        run = bl.Run(duration_ms=400, interval_ms=10)
        run.tasks = [dict(id=i, pid=100 + i, name=f"t#{i}", cls0=1, duty=100) for i in range(3)]
        b_run = 0.0
        for k in range(41):
            t = 10.0 * k
            if k:
                b_run += 10.0 if k % 2 else 5.0
            run.samples.setdefault(100, []).append((t, 0, "R", int(t * 1e6)))
            # B on CPU 1: all of odd intervals, half of even ones; C half
            # of every interval, charged to CPU 1 in odd ones.
            run.samples.setdefault(101, []).append((t, 1, "R", int(b_run * 1e6)))
            run.samples.setdefault(102, []).append((t, 1 if k % 2 else 2, "R", int(t * 0.5e6)))
        res = bl.analyze_run(run, topo, 0.0)
        self.assertEqual(res["kappa"], 1.0)
        a = res["per_task"][0]
        speed = truth.speed(1, "P") * truth.smt_factor(1)
        self.assertAlmostEqual(a["thr"], speed * 0.4, delta=speed * 0.4 * 0.01)

    def test_late_reads_of_a_bursty_task(self):
        # The second task runs the first 10 ms of every 20 and is read
        # 9 ms late every other sweep: its own intervals (29 and 11 ms)
        # see rates that have nothing to do with the first task's
        # intervals.  Its 10 ms in every 20 stay whole.
        topo = topology(0, 2, 1)
        run = bl.Run(duration_ms=400, interval_ms=20)
        run.tasks = [dict(id=i, pid=100 + i, name=f"t#{i}", cls0=0, duty=100)
                     for i in range(2)]

        def ran(t):
            return 10.0 * (t // 20) + min(t % 20, 10.0)
        for k in range(21):
            t0, t1 = 20.0 * k, 20.0 * k + (9.0 if k % 2 else 0.0)
            run.samples.setdefault(100, []).append((t0, 0, "R", int(t0 * 1e6)))
            run.samples.setdefault(101, []).append((t1, 1, "R", int(ran(t1) * 1e6)))
        res = bl.analyze_run(run, topo, 0.0)
        self.assertAlmostEqual(res["per_task"][1]["run_ms"], 200.0, delta=0.5)

    def test_even_sweeps_unchanged(self):
        res = self.run_of(lambda k: 0.0)
        self.assertAlmostEqual(res["per_task"][1]["run_ms"], 1000.0, delta=0.01)


class OtherWork(unittest.TestCase):
    """The guest's own work (the time a CPU was neither idle nor running
    the benchmark's tasks) keeps a CPU busy, in the score and in the
    optimum."""

    def test_optimum_places_it(self):
        topo = topology(1, 1, 2)
        p2 = truth.speed(2, "P")
        # Alone with an idle sibling, or beside the other work on the
        # E-core: either way the dot-product task has a core of its own.
        self.assertAlmostEqual(model.optimum_rate(topo, [(2, 1.0)]), p2)
        self.assertAlmostEqual(model.optimum_rate(topo, [(2, 1.0)], 1.0), p2)
        # Two CPUs' worth of it: one beside the task.
        self.assertAlmostEqual(model.optimum_rate(topo, [(2, 1.0)], 2.0),
                               p2 * truth.smt_factor(2))

    def run_with_idle(self, idle_cpu1):
        # Task 0 runs all the time on CPU 0 of a P-core; CPU 1, its
        # sibling, runs no task and was idle idle_cpu1 of the time.
        topo = topology(1, 0, 2)
        run = bl.Run(duration_ms=1000, interval_ms=10, clk_tck=100)
        run.tasks = [dict(id=0, pid=100, name="t#0", cls0=2, duty=100)]
        run.samples[100] = [(10.0 * k, 0, "R", int(10e6 * k)) for k in range(101)]
        run.idle = [(100.0 * k, {0: 0.0, 1: 100.0 * k * idle_cpu1}) for k in range(11)]
        return bl.analyze_run(run, topo, 0.0)

    def test_busy_sibling(self):
        busy = self.run_with_idle(0.0)
        free = self.run_with_idle(1.0)
        p2 = truth.speed(2, "P")
        self.assertAlmostEqual(free["per_task"][0]["thr"], p2, delta=p2 * 0.001)
        self.assertAlmostEqual(busy["per_task"][0]["thr"], p2 * truth.smt_factor(2),
                               delta=p2 * 0.001)
        # The optimum had the sibling's work to place as well.
        self.assertAlmostEqual(busy["efficiency"], 1.0, delta=0.001)
        self.assertAlmostEqual(free["efficiency"], 1.0, delta=0.001)

    def test_idle_readings(self):
        r = bl.parse_run("meta,1000,10,100\nidle,0.0,5,-1,7\nidle,100.0,10,-1,17\n")
        self.assertEqual(r.idle, [(0.0, {0: 50.0, 2: 70.0}), (100.0, {0: 100.0, 2: 170.0})])
        self.assertAlmostEqual(bl.idle_ms(r, 2, 25.0, 75.0), 50.0)
        self.assertIsNone(bl.idle_ms(r, 1, 25.0, 75.0))
        # No more idle time between two readings than time went by.
        r = bl.parse_run("meta,1000,10,100\nidle,0.0,0\nidle,100.0,15\nidle,200.0,16\n")
        self.assertEqual([d[0] for _, d in r.idle], [0.0, 100.0, 160.0])


class SchedstatTotals(unittest.TestCase):
    """make bench-scale reads /proc/schedstat of 6.12 (v16) and 7.3 (v17)."""

    @staticmethod
    def domain(v17):
        # Per idle type: lb_count 10+t, lb_failed 20+t, lb_gained 30+t;
        # then alb_count 7 and 11 other counters.
        per = []
        for t in range(3):
            if v17:
                per += [10 + t, 0, 20 + t, 0, 0, 0, 0, 30 + t, 0, 0, 0]
            else:
                per += [10 + t, 0, 20 + t, 0, 30 + t, 0, 0, 0]
        head = "domain0 MC ff" if v17 else "domain0 ff"
        return " ".join([head] + [str(x) for x in per + [7] + [0] * 11])

    def check(self, version, v17):
        text = "\n".join(["12.5 3.0", f"version {version}", "timestamp 1",
                          "cpu0 0 0 0 0 0 0 0 0 0", self.domain(v17)])
        tot = scale.schedstat_totals(text)
        self.assertEqual(tot["uptime"], 12.5)
        self.assertEqual(tot["lb_count"], 33)
        self.assertEqual(tot["lb_failed"], 63)
        self.assertEqual(tot["lb_gained"], 93)
        self.assertEqual(tot["alb_count"], 7)

    def test_v16(self):
        self.check(16, False)

    def test_v17(self):
        self.check(17, True)


class TimerInterrupts(unittest.TestCase):
    """The tick interval run.py reports beside the reactions."""

    @staticmethod
    def snap(up, locs, cpus=None):
        cpus = cpus if cpus is not None else range(len(locs))
        return bl.parse_timer_irqs(
            f"{up} 99.0\n" + " ".join(f"CPU{c}" for c in cpus) + "\n"
            + "  0:  " + " ".join("7" for _ in cpus) + "  IO-APIC  2-edge  timer\n"
            + " LOC:  " + " ".join(str(n) for n in locs) + "   Local timer interrupts\n")

    def test_parse(self):
        up, loc = self.snap(10.5, [100, 200, 300], cpus=[0, 2, 5])
        self.assertEqual((up, loc), (10.5, {0: 100, 2: 200, 5: 300}))
        self.assertIsNone(bl.parse_timer_irqs("10.5 99.0\nCPU0 CPU1\n"))
        self.assertIsNone(bl.parse_timer_irqs(None))

    def test_interval_over_busy_time(self):
        # 10 s: CPU0 busy throughout, 1250 interrupts (8 ms); CPU1 busy
        # half the time, 625 (8 ms of its busy time); CPU2 idle, left out.
        b, a = self.snap(1.0, [0, 0, 0]), self.snap(11.0, [1250, 625, 30])
        idle = {0: 0.0, 1: 0.5, 2: 0.99}
        self.assertAlmostEqual(bl.tick_interval_ms(b, a, idle), 8.0)
        # A CPU busy less than half the run does not count.
        self.assertAlmostEqual(bl.tick_interval_ms(b, a, {0: 0.0, 1: 0.6, 2: 0.99}), 8.0)
        self.assertAlmostEqual(bl.tick_interval_ms(b, self.snap(11.0, [2500, 625, 30]),
                                                   {0: 0.0, 1: 0.99, 2: 0.99}), 4.0)
        self.assertIsNone(bl.tick_interval_ms(b, a, {0: 0.9, 1: 0.9, 2: 0.9}))
        self.assertIsNone(bl.tick_interval_ms(None, a, idle))


class EventCost(unittest.TestCase):
    """bench/overhead/event_cost.py: the tick's and a balance pass's cost."""

    K = 10003

    def line(self, kind, mode, rep, other, ticks, lb, blocks=20000):
        # Under shift 3 a run of N ns executed N / 8 instructions.
        ns = (blocks * self.K + other) * 8
        return (f"{kind} {mode} {rep} steal ns={ns} blocks={blocks} "
                f"insns_per_block={self.K} ticks={ticks} lb={lb}")

    def runs(self, mode, tick, lb, reps=3):
        lines = []
        for r in range(1, reps + 1):
            # iso: the tick alone; dom: more ticks, and passes.
            lines.append(self.line("iso", mode, r, tick * (1000 + r), 1000 + r, 0))
            lines.append(self.line("dom", mode, r,
                                   tick * (1500 + r) + lb * (200 + r), 1500 + r, 200 + r))
        return lines

    def test_decomposition(self):
        lines = (self.runs("none", 3000, 9000) + self.runs("0", 3010, 9000) +
                 self.runs("2", 3260, 23000) + ["stats 2 1 swap 4", "iso 2 x"])
        res = event_cost.summarize(event_cost.parse(lines))
        self.assertEqual(sorted(res), ["0", "2", "none"])
        self.assertAlmostEqual(res["2"]["tick"][0], 3260)
        for v in res["2"]["balance_pass"]:
            self.assertAlmostEqual(v, 23000)
        self.assertAlmostEqual(res["2"]["extra_tick_vs_0"], 250)
        self.assertAlmostEqual(res["2"]["extra_balance_pass_vs_0"], 14000)
        self.assertAlmostEqual(res["0"]["extra_tick_vs_none"], 10)
        self.assertAlmostEqual(res["2"]["extra_balance_pass_vs_none"], 14000)
        self.assertNotIn("extra_tick_vs_0", res["0"])
        self.assertIn("+250 a tick, +14000 a balance pass",
                      event_cost.report(res, "adl-hw", 18))

    def test_other_is_what_the_spinners_did_not_run(self):
        (run,) = event_cost.parse([self.line("iso", "1", 1, 4321, 10, 0)])
        self.assertEqual(run["other"], 4321)
        self.assertEqual(event_cost.parse(["iso 3 1 steal ns=8 blocks=0 "
                                           "insns_per_block=1 ticks=1 lb=0"]), [])
        # A console message mixed into a result line drops the line.
        self.assertEqual(event_cost.parse(["iso 2 1 steal ns=8 blocks=0 insns_per_b[ 12.3]",
                                           "dom 2 1 steal ns=8 blocks=0"]), [])


class ScenarioKeywords(unittest.TestCase):
    def parse(self, text):
        with tempfile.NamedTemporaryFile("w", suffix=".conf", delete=False) as f:
            f.write(text)
        try:
            return bl.parse_scenario(f.name)
        finally:
            os.unlink(f.name)

    def test_timer_interrupt_snapshots(self):
        script = bl.guest_script(self.parse("duration 2\ntask a class=0\n"))
        self.assertIn("grep '^ *LOC:' /proc/interrupts", script)
        for when in ("before", "after"):
            self.assertIn(f"timer_irqs >$B/timerirq-m$1-r$2.{when}", script)

    def test_work_and_kind(self):
        sc = self.parse("duration 2\nwarmup 0\ntask c kind=dot count=2 pin=0-3 work=0.5\n"
                        "task r kind=rand48\n")
        self.assertEqual([g.cls for g in sc.tasks], [2, 4])
        self.assertEqual(sc.fixed_work(), {0: (2, 500.0, {0, 1, 2, 3}),
                                           1: (2, 500.0, {0, 1, 2, 3})})
        spec = sc.spec().splitlines()
        self.assertIn("hardware /tmp/bench/profile", spec)
        self.assertIn("speed 4 3.03 0.55", spec)
        self.assertIn("task 0 c#0 2 100 10 0-3 500.000", spec)
        self.assertIn("task 2 r#0 4 100 10 -", spec)

    def test_bad_values(self):
        for bad in ("task a class=4\n", "task a kind=avx512\n", "task a class=0 kind=dot\n",
                    "task a\n", "task a class=0 work=0\n", "task a class=0 work=x\n",
                    "score P 4 10 10\ntask a class=0\n"):
            with self.assertRaises(bl.ScenarioError, msg=bad):
                self.parse("duration 2\n" + bad)

    def test_stress_ng(self):
        sc = self.parse("duration 12\ntask f stress-ng=fft count=2 pin=4-7 unpin=2\n"
                        "task s stress-ng=pause\ntask w kind=scalar\n")
        self.assertEqual([g.cls for g in sc.tasks], [6, 3, 0])
        self.assertTrue(sc.programs())
        spec = sc.spec().splitlines()
        self.assertIn("task 0 f#0 6 100 10 4-7", spec)
        self.assertIn("program 1 /usr/bin/stress-ng --cpu 1 --cpu-method fft "
                      "--timeout 72s --temp-path /tmp", spec)
        self.assertIn("program 2 /usr/bin/stress-ng --nop 1 --nop-instr pause "
                      "--timeout 72s --temp-path /tmp", spec)
        # The worker task has no program line.
        self.assertFalse([ln for ln in spec if ln.startswith("program 3")])
        self.assertFalse(self.parse("duration 2\ntask w kind=scalar\n").programs())
        self.assertEqual(self.parse("duration 2\ntask w kind=scalar\n").boot_env(), {})
        for bad in ("task a stress-ng=avx512\n", "task a stress-ng=fft class=1\n",
                    "task a stress-ng=fft duty=50\n", "task a stress-ng=fft period=5\n",
                    "task a stress-ng=fft\nchange 1 a vector\n"):
            with self.assertRaises(bl.ScenarioError, msg=bad):
                self.parse("duration 2\n" + bad)

    def test_trace(self):
        base = "duration 2\ntask a class=0\n"
        on = self.parse(base + "trace on\n")
        mig = self.parse(base + "trace migrate\n")
        off = self.parse(base + "trace off\n")
        self.assertEqual((on.trace, on.trace_migrate), (True, False))
        self.assertEqual((mig.trace, mig.trace_migrate), (True, True))
        self.assertEqual((off.trace, off.trace_migrate), (False, False))
        self.assertIn("events/ipcc/enable", bl.guest_script(on))
        self.assertNotIn("sched_migrate_task", bl.guest_script(on))
        self.assertIn("events/sched/sched_migrate_task/enable", bl.guest_script(mig))
        self.assertNotIn("events/ipcc/enable", bl.guest_script(off))
        with self.assertRaises(bl.ScenarioError):
            self.parse(base + "trace all\n")
        # ftrace: the function tracer on the named functions, with the events.
        ft = self.parse(base + "ftrace ipcc_swap_workfn ipcc_try_*\n")
        self.assertEqual((ft.trace, ft.ftrace), (True, ["ipcc_swap_workfn", "ipcc_try_*"]))
        script = bl.guest_script(ft)
        self.assertIn('echo "ipcc_try_*" >>$TR/set_ftrace_filter', script)
        self.assertLess(script.index("set_ftrace_filter"), script.index("echo function >$TR/current_tracer"))
        self.assertNotIn("current_tracer", bl.guest_script(on))
        for bad in ("ftrace\n", "ftrace a;b\n", "ftrace *x\n"):
            with self.assertRaises(bl.ScenarioError, msg=bad):
                self.parse(base + bad)

    def test_variant(self):
        sc = self.parse("duration 2\nrepetitions 1\n"
                        "variant noswap 2 swap_threshold=1024 cooldown_ms=40\n"
                        "modes 0 noswap\ntask a class=0\n")
        self.assertEqual(sc.modes, [0, "noswap"])
        self.assertEqual(bl.mode_name(sc, "noswap"), "full, swap_threshold=1024, cooldown_ms=40")
        self.assertEqual(bl.mode_label(dict(mode="noswap", mode_name="full")), "noswap")
        self.assertEqual(bl.mode_label(dict(mode=2, mode_name="full")), "2 full")
        self.assertIn("run noswap 1 2", bl.guest_script(sc))

        def play(prep):
            """Run the variant's guest lines in sh, files standing in for
            the knobs; return (output, the knobs' contents after)."""
            with tempfile.TemporaryDirectory() as d:
                Path(d, "swap_threshold").write_text("64\n")
                Path(d, "cooldown_ms").write_text("20\n")
                prep(d)
                script = (f"core={d}\nfail=0\nsay() {{ echo \"$*\"; }}\n"
                          "run() { echo \"run $1 $2 ${3:-$1}\" $(cat $core/swap_threshold)"
                          " $(cat $core/cooldown_ms); }\n"
                          + bl.variant_run(sc, "noswap", 1) + "echo fail=$fail\n")
                out = subprocess.run(["sh", "-c", script], capture_output=True,
                                     text=True).stdout
                return out, [Path(d, k).read_text() if Path(d, k).is_file() else None
                             for k in ("swap_threshold", "cooldown_ms")]

        # The run sees the variant's knobs and its mode; then the old values.
        out, after = play(lambda d: None)
        self.assertIn("run noswap 1 2 1024 40", out)
        self.assertIn("fail=0", out)
        self.assertEqual(after, ["64\n", "20\n"])

        # A knob that cannot be written: no run, a failure, the rest put back.
        def unwritable(d):
            os.unlink(Path(d, "cooldown_ms"))
            os.mkdir(Path(d, "cooldown_ms"))
        out, after = play(unwritable)
        self.assertNotIn("run noswap", out)
        self.assertIn("fail=1", out)
        self.assertEqual(after[0], "64\n")

        # run.py --variant and --modes on a parsed scenario.
        sc = self.parse("duration 2\ntask a class=0\n")
        bl.add_variant(sc, "slow 2 debounce_ticks=8")
        self.assertEqual(sc.modes, [0, 1, 2, "slow"])
        bl.set_modes(sc, ["0", "slow"])
        self.assertEqual(sc.modes, [0, "slow"])
        for bad in (["0", "fast"], ["2", "2"], []):
            with self.assertRaises(bl.ScenarioError, msg=bad):
                bl.set_modes(sc, bad)
        with self.assertRaises(bl.ScenarioError):
            bl.add_variant(sc, "slow 2 debounce_ticks=16")

        base = "duration 2\ntask a class=0\n"
        for bad in ("variant x 2\n",                          # no knob
                    "variant x 2 swap_threshold=2000\n",      # beyond the kernel's range
                    "variant x 2 swap_threshold=-1\n",
                    "variant x 2 swap_threshold=0x10\n",
                    "variant x 2 turns=4\n",                  # not a knob
                    "variant x 0 cooldown_ms=1\n",            # mode 0 has no knobs
                    "variant 2x 2 cooldown_ms=1\n",           # a name must not look like a mode
                    "variant x 2 cooldown_ms=1 cooldown_ms=2\n",
                    "variant x 2 cooldown_ms=1\nvariant x 1 cooldown_ms=2\n",
                    "modes 0 y\n",                            # no such variant
                    "variant x 2 cooldown_ms=1\nmodes 0 x x\n",
                    "modes 2 2\n"):
            with self.assertRaises(bl.ScenarioError, msg=bad):
                self.parse(base + bad)

    def test_fork_order_spreads(self):
        sc = self.parse("duration 2\nrepetitions 3\ntask a class=0 count=16\n")
        self.assertEqual(bl.fork_stride(sc), 5)
        sc = self.parse("duration 2\nrepetitions 5\ntask a class=0 count=4\n")
        self.assertEqual(bl.fork_stride(sc), 1)


class DriverFixedWork(unittest.TestCase):
    """ipcc-run on the host: a fixed-work task stops after the run time
    its work takes at the true speed of the core type it is told."""

    tools = None

    def setUp(self):
        cls = type(self)
        if cls.tools is None:
            cc = shutil.which("gcc") or shutil.which("cc")
            if not cc:
                self.skipTest("no C compiler")
            cls.tools = Path(tempfile.mkdtemp())
            for tool in ("ipcc-run", "ipcc-worker"):
                subprocess.run([cc, "-O2", "-o", str(cls.tools / tool),
                                str(BENCH / "src" / f"{tool}.c")], check=True)
        self.dir = Path(tempfile.mkdtemp())

    def tearDown(self):
        shutil.rmtree(self.dir)

    def drive(self, ctype, kind, *work_ms):
        (self.dir / "hw").write_text(f"{ctype.lower()}cpus 0\n")
        spec = self.dir / "spec"
        spec.write_text("duration_ms 200000\ninterval_ms 5\n"
                        f"worker {self.tools / 'ipcc-worker'}\nhardware {self.dir / 'hw'}\n"
                        + "".join(f"speed {c} {w.p_over_e} {w.smt_factor()}\n"
                                  for c, w in sorted(truth.CATALOGUE.items()))
                        + "".join(f"task {i} t#{i} {kind} 100 10 0 {w}\n"
                                  for i, w in enumerate(work_ms)))
        out = self.dir / "out"
        subprocess.run([str(self.tools / "ipcc-run"), str(spec), str(out)], check=True,
                       timeout=60)
        return bl.parse_run(out.read_text())

    def test_p_core_speed(self):
        r = self.drive("P", 2, 60.0)
        run_ms = r.done[0][1]
        self.assertAlmostEqual(run_ms, 60.0 / 2.4, delta=0.01)
        self.assertEqual(r.fixed, {0: 60.0})
        # The driver stopped sampling it, and the run ended with it,
        # long before duration_ms.
        self.assertLess(r.samples[r.tasks[0]["pid"]][-1][0], 20000)

    def test_e_core_speed(self):
        r = self.drive("E", 4, 30.0)
        self.assertAlmostEqual(r.done[0][1], 30.0, delta=0.01)

    def test_finished_task_leaves(self):
        # Two tasks share the CPU; the first to finish is sampled no more.
        r = self.drive("E", 0, 10.0, 200.0)
        self.assertAlmostEqual(r.done[0][1], 10.0, delta=0.01)
        self.assertAlmostEqual(r.done[1][1], 200.0, delta=0.01)
        first = r.samples[r.tasks[0]["pid"]]
        # The sample that found it done is its last own one.
        k = next(i for i, s in enumerate(first) if s[0] >= r.done[0][0])
        after = first[k + 1:]
        self.assertTrue(after)
        self.assertTrue(all(s[2] == "X" for s in after))
        self.assertEqual(len({s[3] for s in after}), 1)


    def test_samples_keep_their_own_time(self):
        # Three tasks: within a sweep the reads follow each other, each
        # stamped when it was made, and a sweep ends before the next.
        (self.dir / "hw").write_text("ecpus 0\n")
        spec = self.dir / "spec"
        spec.write_text("duration_ms 300\ninterval_ms 5\n"
                        f"worker {self.tools / 'ipcc-worker'}\nhardware {self.dir / 'hw'}\n"
                        + "".join(f"task {i} t#{i} 0 100 10 0\n" for i in range(3)))
        out = self.dir / "out"
        subprocess.run([str(self.tools / "ipcc-run"), str(spec), str(out)], check=True,
                       timeout=60)
        r = bl.parse_run(out.read_text())
        s = [r.samples[t["pid"]] for t in r.tasks]
        n = min(len(x) for x in s)
        self.assertGreater(n, 10)
        spread = 0.0
        for k in range(n):
            times = [x[k][0] for x in s]
            self.assertEqual(times, sorted(times))
            if k + 1 < n:
                self.assertLessEqual(times[-1], s[0][k + 1][0])
            spread = max(spread, times[-1] - times[0])
        self.assertGreater(spread, 0.0)


class DriverProgram(unittest.TestCase):
    """ipcc-run on the host running a program that forks its work into a
    child, as stress-ng does: the child is what it samples and scores."""

    def setUp(self):
        cc = shutil.which("gcc") or shutil.which("cc")
        if not cc or not Path("/bin/sh").exists():
            self.skipTest("no C compiler or /bin/sh")
        self.dir = Path(tempfile.mkdtemp())
        subprocess.run([cc, "-O2", "-o", str(self.dir / "ipcc-run"),
                        str(BENCH / "src" / "ipcc-run.c")], check=True)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def drive(self, lines):
        (self.dir / "hw").write_text("pcpus 0\n")
        spec = self.dir / "spec"
        spec.write_text("duration_ms 20000\ninterval_ms 5\n"
                        f"hardware {self.dir / 'hw'}\n"
                        + "".join(f"speed {c} {w.p_over_e} {w.smt_factor()}\n"
                                  for c, w in sorted(truth.CATALOGUE.items()))
                        + lines)
        out, err = self.dir / "out", self.dir / "err"
        # Its own session, killed whole afterwards: a broken driver must
        # not leave the busy child spinning on the host (nor hold a pipe).
        with open(err, "w") as ef:
            p = subprocess.Popen([str(self.dir / "ipcc-run"), str(spec), str(out)],
                                 stdout=subprocess.DEVNULL, stderr=ef,
                                 start_new_session=True)
            try:
                p.wait(timeout=60)
            finally:
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                p.wait()
        p.stderr = err.read_text()
        return p, (bl.parse_run(out.read_text()) if p.returncode == 0 else None)

    def test_child_does_the_work(self):
        # The shell forks a busy child and waits: the parent alone would
        # never finish 60 ms of work (it runs about a millisecond).
        script = self.dir / "busy.sh"
        script.write_text("#!/bin/sh\nwhile :; do :; done &\nwait\n")
        script.chmod(0o755)
        p, r = self.drive(f"task 0 fft#0 6 100 10 0 60\nprogram 0 {script}\n")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(0, r.done, "the program's work never finished")
        # Done after 60 / 1.96 ms of the child's run time (kind 6: fft).
        self.assertAlmostEqual(r.done[0][1], 60.0 / 1.96, delta=0.01)
        pid = r.tasks[0]["pid"]
        self.assertTrue(r.samples[pid])
        self.assertLess(r.samples[pid][-1][0], 15000)
        # The child was stopped with its parent.
        time.sleep(0.2)
        stat = Path(f"/proc/{pid}/stat")
        self.assertTrue(not stat.exists() or stat.read_text().split(")")[1].split()[0] in "ZX")

    def test_bad_program_lines(self):
        for bad in ("task 0 a 0 100 10 -\nprogram 1 /bin/true\n",
                    "task 0 a 0 100 10 -\nprogram 0\n",
                    "task 0 a 0 100 10 -\nprogram 0 /bin/true\nprogram 0 /bin/true\n",
                    "task 0 a 0 100 10 -\nprogram 0 /bin/true\nevent 10 class 0 1\n",
                    # A worker cannot execute kind 6; a program can be scored by it.
                    "task 0 a 6 100 10 -\n"):
            p, _ = self.drive(bad)
            self.assertNotEqual(p.returncode, 0, bad)


def main():
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
    tests = []

    def flatten(s):
        for t in s:
            if isinstance(t, unittest.TestSuite):
                flatten(t)
            else:
                tests.append(t)
    flatten(suite)
    print("1..1")
    print("@@IPCC-BEGIN bench@@")
    print(f"1..{len(tests)}")
    failed = 0
    for n, t in enumerate(tests, 1):
        res = unittest.TestResult()
        t.run(res)
        name = f"{type(t).__name__}.{t._testMethodName}"
        if res.skipped:
            print(f"ok {n} {name} # SKIP {res.skipped[0][1]}")
        elif res.wasSuccessful():
            print(f"ok {n} {name}")
        else:
            failed += 1
            for _, tb in res.failures + res.errors:
                for line in tb.rstrip().splitlines():
                    print(f"# {line}")
            print(f"not ok {n} {name}")
    print(f"@@IPCC-END bench rc={1 if failed else 0}@@")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
