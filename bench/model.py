# SPDX-License-Identifier: GPL-2.0
"""The speed model of the ipcc placement benchmark and its optimum.

Speed model (see bench/README.md):
    a task of class c running on CPU k for a time dt does
        work = perf(k, c) * dt * smt
    perf(k, c) is the true speed of class c's kind of work on CPU k's core
    type (bench/truth.py: published P/E ratios; never what the kernel
    reads), and
        smt = 1 - (1 - f_c) * b
    where b is how busy the other SMT threads of CPU k's core were during
    dt, with benchmark tasks or with the guest's own work (benchlib:
    up to 2 in an interval, 1 on average for a core always busy), and f_c
    the speed of a thread of class c beside a busy sibling
    (truth.smt_factor(): half the published SMT pair yield, 0.55 to 0.65;
    1 for a spin-wait).  Logs without idle readings divide b by kappa,
    the share of a CPU the guest leaves to benchmark tasks.

Optimum (fluid, exact for the model): over a phase of length T with fixed
classes, each task i got a CPU share s_i (its run time / T, measured, so
the optimum judges placement only, not how much CPU the tasks got), and
the guest's own work a share o (CPUs' worth), placed by the optimum too
as class OTHER, worth nothing.  A schedule is a mix over time of
configurations (which class, OTHER or nothing runs on each CPU); a
configuration's speed is the sum of perf * smt over the CPUs running
tasks, with smt = f_c on a core with more than one busy thread.  The
optimum is the best mix (a linear program) such that every class gets
its total share and no j tasks of a class get more than j of them could
run at once:
    maximize    sum_k w_k V_k
    subject to  sum_k w_k = 1,  w >= 0
                sum_k w_k n_ck = sum of s_i of class c           (each c)
                sum_k w_k n_ok = o                               (OTHER)
                sum_k w_k min(n_ck, j) >= the j largest s_i of c  (j < N_c)
(Without idle readings there is no o, the shares are divided by kappa
and the caller multiplies the result by kappa.)
Configurations with the same class counts n_ck keep only the best V_k; they
are built core by core (dynamic programming over the cores' options).
"""

from itertools import product

from lp import simplex_max

SMT_FACTOR = 0.6


class Topology:
    """Online CPUs, their cores (SMT sibling groups), P/E type, speeds."""

    def __init__(self, online, siblings, pcpus, ecpus, perf, smt=None):
        self.online = sorted(online)
        self.siblings = siblings            # cpu -> set of cpus of its core
        self.pcpus = set(pcpus)
        self.ecpus = set(ecpus)
        self.perf = perf                    # cpu -> [speed of class 0, 1, ...]
        self.smt = smt or {}                # class -> speed beside a busy sibling
        cores, seen = [], set()
        for cpu in self.online:
            if cpu in seen:
                continue
            core = sorted(c for c in siblings.get(cpu, {cpu}) if c in online)
            seen.update(core)
            cores.append(core)
        self.cores = cores

    def ctype(self, cpu):
        return "P" if cpu in self.pcpus else "E" if cpu in self.ecpus else "?"

    def score(self, cpu, cls):
        row = self.perf.get(cpu)
        if row is None or cls is None or cls < 0 or cls >= len(row):
            return 0
        return row[cls]

    def best_cpus(self, cls):
        """CPUs with the highest score for cls, or None if all tie."""
        scores = {c: self.score(c, cls) for c in self.online}
        top = max(scores.values())
        best = {c for c, s in scores.items() if s == top}
        return None if len(best) == len(scores) else best

    def smt_factor(self, cls):
        """Speed of a thread of class cls beside a busy SMT sibling."""
        return self.smt.get(cls, SMT_FACTOR)

    def nr_classes(self):
        return max((len(v) for v in self.perf.values()), default=0)


def _configs(topo, classes, caps):
    """{class-count vector: best speed} over every configuration."""
    ncls = len(classes)
    dp = {(0,) * ncls: 0.0}
    for core in topo.cores:
        opts = {}
        for choice in product([None] + list(range(ncls)), repeat=len(core)):
            busy = sum(1 for x in choice if x is not None)
            cnt = [0] * ncls
            val = 0.0
            for cpu, x in zip(core, choice):
                if x is not None:
                    f = topo.smt_factor(classes[x]) if busy > 1 else 1.0
                    cnt[x] += 1
                    val += topo.score(cpu, classes[x]) * f
            key = tuple(cnt)
            if val > opts.get(key, -1.0):
                opts[key] = val
        new = {}
        for k1, v1 in dp.items():
            for k2, v2 in opts.items():
                k = tuple(a + b for a, b in zip(k1, k2))
                if any(a > cap for a, cap in zip(k, caps)):
                    continue
                if v1 + v2 > new.get(k, -1.0):
                    new[k] = v1 + v2
        dp = new
    return dp


# The class of the guest's own work in the optimum: worth nothing, it keeps
# a CPU from the tasks and its SMT siblings from a core of their own.
OTHER = -1


def optimum_rate(topo, shares, other=0.0):
    """Best speed (score units per second) for the tasks' CPU shares.

    shares: list of (class, share) per task, share = run time / phase length.
    other: CPUs' worth of the guest's own work over the phase, which the
    optimum places too (wherever it costs the tasks least).
    Returns None when the linear program fails (should not happen)."""
    ncpu = len(topo.online)
    sh = [(c, min(1.0, max(0.0, s))) for c, s in shares if c is not None and c >= 0]
    other = max(0.0, other)
    total = sum(s for _, s in sh) + other
    if total > ncpu:
        sh = [(c, s * ncpu / total) for c, s in sh]
        other *= ncpu / total
    by = {}
    for c, s in sh:
        by.setdefault(c, []).append(s)
    classes = sorted(c for c, v in by.items() if sum(v) > 1e-6)
    if not classes:
        return 0.0
    key = (tuple((c, tuple(round(s, 4) for s in sorted(by[c], reverse=True)))
                for c in classes), round(other, 4))
    # Per topology: an id() would outlive the object it named.
    cache = topo.__dict__.setdefault("_optimum_cache", {})
    if key in cache:
        return cache[key]
    caps = [len(by[c]) for c in classes]
    if other > 1e-6:
        # Divisible: on as many CPUs at once as the part has.
        by[OTHER] = [other]
        classes = classes + [OTHER]
        caps = caps + [ncpu]
    cfg = _configs(topo, classes, caps)
    cols = list(cfg.items())
    a_eq, b_eq = [], []
    a_eq.append([1.0] * len(cols))
    b_eq.append(1.0)
    real = [ci for ci, c in enumerate(classes) if c != OTHER]
    nsurplus = sum(caps[ci] - 1 for ci in real)
    for ci, c in enumerate(classes):
        a_eq.append([float(k[ci]) for k, _ in cols])
        b_eq.append(sum(by[c]))
    rows_j = []
    for ci in real:
        srt = sorted(by[classes[ci]], reverse=True)
        for j in range(1, caps[ci]):
            rows_j.append(([float(min(k[ci], j)) for k, _ in cols], sum(srt[:j])))
    full_a = [r + [0.0] * nsurplus for r in a_eq]
    for i, (r, b) in enumerate(rows_j):
        full_a.append(r + [-1.0 if s == i else 0.0 for s in range(nsurplus)])
        b_eq.append(b)
    c = [v for _, v in cols] + [0.0] * nsurplus
    res = simplex_max(c, full_a, b_eq)
    if res is None:
        # Numerical trouble: retry without the per-task rows.
        res = simplex_max([v for _, v in cols], a_eq, b_eq[:len(a_eq)])
    val = None if res is None else res[0]
    cache[key] = val
    return val


def nominal_shares(duties, ncpu):
    """Max-min fair CPU shares of tasks demanding duties (0..1) on ncpu CPUs."""
    n = len(duties)
    if sum(duties) <= ncpu:
        return list(duties)
    order = sorted(range(n), key=lambda i: duties[i])
    out = [0.0] * n
    left, cap = n, float(ncpu)
    for i in order:
        level = cap / left
        out[i] = min(duties[i], level)
        cap -= out[i]
        left -= 1
    return out


def makespan_bound(topo, jobs):
    """Shortest makespan (same units as the work) of fixed-work jobs that
    all start at 0, under the speed model, with preemption and migration
    free (a fluid schedule: a lower bound that a real schedule approaches).

    jobs: list of (class, work, allowed CPUs or None for all), work in
    units of run time on an E-core with idle siblings.  Per job i and core
    q the program chooses the time i runs there alone (speed v = the
    class's true speed on q's type relative to an E-core) and the time it
    runs beside a busy sibling (v * f_c):
        minimize  T
        subject to  sum_q alone_iq * v + paired_iq * v * f = work_i  (each i)
                    sum_q alone_iq + paired_iq <= T       (one CPU at a time)
                    sum_i alone_iq + paired_iq / n_q <= T (core q, n_q threads)
                    paired_iq <= sum over j != i of paired_jq
    Returns None when the program fails or a job may run nowhere."""
    cores = topo.cores
    ej = topo.score(next(iter(topo.ecpus)), 0) if topo.ecpus else None
    var = {}            # (kind, i, q) -> column
    for i, (c, w, allowed) in enumerate(jobs):
        for q, core in enumerate(cores):
            if allowed is not None and not set(core) & set(allowed):
                continue
            var[("a", i, q)] = len(var)
            if len(core) > 1:
                var[("p", i, q)] = len(var)
    if not jobs or any(not any(k[1] == i for k in var) for i in range(len(jobs))):
        return None
    n = len(var)
    t_col = n
    # Equality rows (the work), and the <= rows, each of which gets a
    # slack column of its own below.
    rows, rhs, slack_rows = [], [], []

    def speed(c, q):
        # True speed relative to an E-core: scores are on truth's scale,
        # where an E-core's speed is the same for every class.
        e = ej if ej else max(topo.score(x, c) for x in topo.online)
        return topo.score(cores[q][0], c) / e

    for i, (c, w, _) in enumerate(jobs):
        r = [0.0] * (n + 1)
        for (kind, j, q), col in var.items():
            if j == i:
                v = speed(c, q)
                r[col] = v if kind == "a" else v * topo.smt_factor(c)
        rows.append(r)
        rhs.append(float(w))
    for i in range(len(jobs)):
        r = [0.0] * (n + 1)
        for (kind, j, q), col in var.items():
            if j == i:
                r[col] = 1.0
        r[t_col] = -1.0
        slack_rows.append(r)
    for q, core in enumerate(cores):
        r = [0.0] * (n + 1)
        for (kind, j, qq), col in var.items():
            if qq == q:
                r[col] = 1.0 if kind == "a" else 1.0 / len(core)
        r[t_col] = -1.0
        slack_rows.append(r)
    for (kind, i, q), col in var.items():
        if kind != "p":
            continue
        r = [0.0] * (n + 1)
        for (k2, j, qq), c2 in var.items():
            if k2 == "p" and qq == q and j != i:
                r[c2] = -1.0
        r[col] = 1.0
        slack_rows.append(r)
    nslack = len(slack_rows)
    a_eq = [r + [0.0] * nslack for r in rows]
    for s, r in enumerate(slack_rows):
        a_eq.append(r + [1.0 if k == s else 0.0 for k in range(nslack)])
    b_eq = rhs + [0.0] * nslack
    cost = [0.0] * n + [-1.0] + [0.0] * nslack
    res = simplex_max(cost, a_eq, b_eq)
    return None if res is None else -res[0]
