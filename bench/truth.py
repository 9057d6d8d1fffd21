# SPDX-License-Identifier: GPL-2.0
"""Ground truth of the placement benchmark: how fast each kind of work
really runs on each core type, apart from anything the kernel reads.

The benchmark's workers execute one kind of work per number
(bench/src/ipcc-worker.c): 0..3 the kinds QEMU's Thread Director model
tells apart (0 scalar integer arithmetic, 1 packed SIMD, 2 dot products
(pmaddwd), 3 a PAUSE spin-wait; the number is the class the hardware
should report), 4 an lrand48-like generator, 5 16-bit divisions. Under TCG every vCPU runs at the same speed, so
the benchmark scores placement with the speeds below instead: a task that
ran for dt on a CPU of type T did speed(kind, T) * dt of work, less the
SMT loss when the other thread of its core was busy. The kernel's view
(the class the hardware model reported, the HFI table it parsed) never
enters the score: a scenario that changes the HFI table changes the
hardware's estimate, not these numbers.

Calibration (published measurements; the E-core's speed is 1):

  kind  P/E   SMT pair  source
  0     1.62  1.1       stress-ng int32 on an i5-1335U, turbo off
                        (P/E throughput ratio); a compiler, two SMT
                        threads doing 1.1x the work of one
  1     1.77  1.3       stress-ng double on the same part; a renderer,
                        1.3x with SMT
  2     2.4   1.3       four equal AVX2 chunks on an i7-1260P (2P+2E, SMT
                        off): pinned 864 ms, static 567 ms, dynamic 517
                        ms give a P/E ratio of about 2.4; SMT as for 1
  3     1.0   2.0       a spin-wait gains nothing from a P-core; how fast
                        it spins does not matter, so a busy sibling
                        costs it nothing (assumed)
  4     3.03  1.1       stress-ng rand48 on the i5-1335U (P/E); SMT as a
                        compiler (assumed: scalar integer code)
  5     1.35  1.1       stress-ng div16 on the same part; SMT assumed as
                        for 4

  6     1.96  1.3       stress-ng fft on the i5-1335U; SMT as for 1
                        (assumed: floating-point code)
  7     1.12  1.3       stress-ng matrixprod on the same part; SMT as
                        for 1 (assumed)
  8     1.43  1.1       stress-ng ackermann on the same part; SMT as for
                        4 (assumed: scalar integer code)
  9     1.82  1.1       stress-ng collatz on the same part; SMT as for 4
                        (assumed)

Kinds 4 and 5 are scalar integer code like kind 0: the hardware classifies
all three as class 0, though their P/E gains differ by a factor of 2.2.
Kinds 6 to 9 only the real programs run (Debian's stress-ng itself, with
the method of that name; bench/benchlib.py's STRESS_NG); ipcc-worker has
no loop for them. How the emulated hardware classifies Debian's build of
each method (its compiler chose the instructions): int32, rand48, div16,
matrixprod, ackermann and collatz class 0; double and fft class 1 (over
a quarter of what they execute is packed SSE); the nop stressor's PAUSE
loop class 3 (the stressor's class mix after 2.5 s on a P-core of
lnl-hw, bench/README.md).

"SMT pair" is the work two busy threads of one core do together, in
units of one thread alone: each runs at half of it (0.55 for kind 0,
0.65 for 1 and 2). LP E-cores count as E-cores (nothing published gives
their speed for these kinds of work).
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Work:
    """One kind of work: its name, true P/E speed ratio, SMT pair yield."""
    name: str
    p_over_e: float
    smt_pair: float

    def speed(self, ctype):
        """True speed on a core of type ctype ("P" or "E"), E = 1."""
        return self.p_over_e if ctype == "P" else 1.0

    def smt_factor(self):
        """Speed of one thread with its sibling busy, as a fraction."""
        return min(1.0, self.smt_pair / 2.0)


CATALOGUE = {
    0: Work("scalar integer (stress-ng int32)", 1.62, 1.1),
    1: Work("packed SIMD (stress-ng double)", 1.77, 1.3),
    2: Work("dot product (AVX2 chunks)", 2.4, 1.3),
    3: Work("spin-wait (PAUSE)", 1.0, 2.0),
    4: Work("rand48 (stress-ng rand48)", 3.03, 1.1),
    5: Work("16-bit division (stress-ng div16)", 1.35, 1.1),
    6: Work("FFT (stress-ng fft)", 1.96, 1.3),
    7: Work("matrix product (stress-ng matrixprod)", 1.12, 1.3),
    8: Work("Ackermann (stress-ng ackermann)", 1.43, 1.1),
    9: Work("Collatz (stress-ng collatz)", 1.82, 1.1),
}

# Speeds are reported on the HFI's 0..255 scale of a P-core's class-0
# performance, so that throughput numbers stay comparable in size.
SCALE = 255 / max(w.p_over_e for w in CATALOGUE.values())


def work(cls):
    """The kind of work of class number cls, or None."""
    return CATALOGUE.get(cls)


def speed(cls, ctype):
    """True speed of class cls's work on a core of type ctype (0 if
    unknown), on the benchmark's scale."""
    w = work(cls)
    if w is None or ctype not in ("P", "E"):
        return 0.0
    return w.speed(ctype) * SCALE


def smt_factor(cls):
    """A thread's speed with a busy SMT sibling, as a fraction."""
    w = work(cls)
    return w.smt_factor() if w else 1.0


def table():
    """The catalogue as text lines, for reports."""
    out = ["kind  work                                   P/E   SMT pair"]
    for c, w in sorted(CATALOGUE.items()):
        out.append(f"{c:<5} {w.name:<38} {w.p_over_e:<5} {w.smt_pair}")
    return out
