#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tick-level model of the rotation rules on the chunks scenario.

Diagnostic, not part of make bench: python3 bench/diag/rotation_model.py

Four equal dot-product chunks (0.864 s of E-core work, true P/E 2.4) on
two P-cores and two E-cores, no SMT, as bench/scenarios/6-chunks.conf.
Every 4 ms tick each task advances by its core's speed and its progress
lag follows ipcc_lag_update() (an eighth forgotten, the headroom added on
an E-core); a task on an E-core takes the place of the P-core task with
the least lag when ipcc_rotate_candidate() allows it (lag difference
above IPCC_ROTATE_TICKS x the gain) and neither task moved within the
cooldown (20 ms). A P-core that frees up takes the E-core task with the
most lag after PULL ticks (misfit and asym packing, about 5-20 ms
measured). SWAPCOST is the work, in ticks, each task of a swap loses
(under QEMU's TCG, the wait between the two moves). It prints the
makespan against the bound (508 ms: the P-cores' time shared by all
four) for a few costs.
"""
import math

TICK_MS = 4
WORK = 864 / TICK_MS        # ticks of E-core work per chunk
SPEED_P = 2.4
HEADROOM = 149              # kunit's T_DOT_HEADROOM
LAG_SHIFT = 3               # IPCC_LAG_SHIFT
ROTATE_TICKS = 4            # IPCC_ROTATE_TICKS
COOLDOWN = 5                # ticks (cooldown_ms 20)
CLASSIFY = 4                # ticks before the class is known
PULL = 3                    # ticks before a free P-core pulls
BOUND_MS = 508


def run(swapcost=0.0):
    cpu = [0, 1, 2, 3]          # 0, 1: P-cores
    lag = [0] * 4
    left = [WORK] * 4
    moved = [-COOLDOWN] * 4
    done = [None] * 4
    freed = {}
    swaps = 0
    t = 0
    while None in done:
        t += 1
        for i in range(4):
            if done[i] is not None:
                continue
            on_p = cpu[i] < 2
            speed = SPEED_P if on_p else 1.0
            left[i] -= speed
            if t > CLASSIFY:
                lag[i] += (0 if on_p else HEADROOM) - math.ceil(lag[i] / 2 ** LAG_SHIFT)
            if left[i] <= 0:
                done[i] = t + left[i] / speed
                if on_p:
                    freed[cpu[i]] = t
                cpu[i] = None
        for c, since in list(freed.items()):
            if t - since < PULL:
                continue
            waiting = [i for i in range(4) if done[i] is None and cpu[i] >= 2]
            if waiting:
                cpu[max(waiting, key=lambda k: lag[k])] = c
            del freed[c]
        if t <= CLASSIFY:
            continue
        for i in range(4):
            if done[i] is not None or cpu[i] < 2 or t - moved[i] < COOLDOWN:
                continue
            best = None
            for j in range(4):
                if done[j] is not None or cpu[j] >= 2 or t - moved[j] < COOLDOWN:
                    continue
                if lag[i] > lag[j] + ROTATE_TICKS * HEADROOM and \
                   (best is None or lag[j] < lag[best]):
                    best = j
            if best is None:
                continue
            cpu[i], cpu[best] = cpu[best], cpu[i]
            moved[i] = moved[best] = t
            left[i] += swapcost
            left[best] += swapcost
            swaps += 1
    return max(done) * TICK_MS, swaps


if __name__ == "__main__":
    print("swap cost (ticks of work per task)  makespan ms  of the bound  swaps")
    for cost in (0.0, 0.25, 0.5, 1.0):
        ms, n = run(cost)
        print(f"{cost:>34.2f}  {ms:>11.0f}  {BOUND_MS / ms:>12.3f}  {n:>5}")
