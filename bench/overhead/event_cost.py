#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Cost per event from ipcc-steal runs (host side of event-cost.sh).

usage: event_cost.py DEST.json PROFILE LOG [LOG...]

Each LOG holds the guest's lines "KIND MODE REP steal ns=N blocks=B
insns_per_block=K ticks=T lb=P" (KIND iso or dom, MODE 0, 1, 2 or none for
a kernel without the series).  Under -icount shift=S the run executed
N >> S instructions, B x K of them in the spinners; the rest ("other") is
the kernel's.  Per mode:

  tick          other / ticks of each iso run (no sched domain: no balancer)
  balance pass  (other - ticks x the median tick) / passes of each dom run:
                what the domains add, the balancer's passes and the swap
                searches the tick makes in them, per pass

and the difference of the medians from mode 0 and from "none".
"""

import json
import statistics
import sys

SHIFT = 3
MODES = ('none', '0', '1', '2')


def parse(lines, shift=SHIFT):
    """The runs of a log's lines, each a dict with its "other" count."""
    runs = []
    for line in lines:
        f = line.split()
        if len(f) < 5 or f[0] not in ('iso', 'dom') or f[3] != 'steal' or \
                f[1] not in MODES:
            continue
        try:
            kv = {k: int(v) for k, v in (x.split('=', 1) for x in f[4:])}
        except ValueError:
            continue    # a console message mixed into the line
        if any(k not in kv for k in ('ns', 'blocks', 'insns_per_block', 'ticks', 'lb')):
            continue
        other = (kv['ns'] >> shift) - kv['blocks'] * kv['insns_per_block']
        runs.append(dict(kind=f[0], mode=f[1], rep=int(f[2]), other=other, **kv))
    return runs


def summarize(runs):
    """Per mode: per-run tick and balance-pass costs, medians, differences."""
    def sel(kind, mode):
        return [r for r in runs if r['kind'] == kind and r['mode'] == mode]

    res = {}
    for mode in MODES:
        iso, dom = sel('iso', mode), sel('dom', mode)
        tick = [r['other'] / r['ticks'] for r in iso if r['ticks']]
        if not tick or not dom:
            continue
        t = statistics.median(tick)
        lb = [(r['other'] - t * r['ticks']) / r['lb'] for r in dom if r['lb']]
        res[mode] = dict(tick=tick, balance_pass=lb,
                         ticks=statistics.median(r['ticks'] for r in dom),
                         passes=statistics.median(r['lb'] for r in dom))
    for base in ('none', '0'):
        for mode in ('0', '1', '2'):
            if base not in res or mode not in res or mode == base or \
                    not res[mode]['balance_pass'] or not res[base]['balance_pass']:
                continue
            res[mode][f'extra_tick_vs_{base}'] = \
                statistics.median(res[mode]['tick']) - statistics.median(res[base]['tick'])
            res[mode][f'extra_balance_pass_vs_{base}'] = \
                statistics.median(res[mode]['balance_pass']) - \
                statistics.median(res[base]['balance_pass'])
    return res


def span(vals):
    if not vals:
        return '-'
    return f'{statistics.median(vals):.0f} [{min(vals):.0f}-{max(vals):.0f}]'


def report(res, profile, nruns, shift=SHIFT):
    out = [f'{profile}, icount shift={shift}, {nruns} runs; kernel instructions, '
           'median [min-max] over repetitions',
           f'{"mode":<5} {"per tick":>22} {"per balance pass":>22} '
           f'{"ticks":>7} {"passes":>7}']
    for mode, m in res.items():
        out.append(f'{mode:<5} {span(m["tick"]):>22} {span(m["balance_pass"]):>22} '
                   f'{m["ticks"]:>7.0f} {m["passes"]:>7.0f}')
    for base, name in (('none', 'no series'), ('0', 'mode 0')):
        for mode, m in res.items():
            if f'extra_tick_vs_{base}' in m:
                out.append(f'mode {mode} - {name}: {m[f"extra_tick_vs_{base}"]:+.0f} a tick, '
                           f'{m[f"extra_balance_pass_vs_{base}"]:+.0f} a balance pass')
    return '\n'.join(out)


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__.split('\n\n')[1])
    dest, profile, logs = argv[1], argv[2], argv[3:]
    runs = []
    for log in logs:
        with open(log) as f:
            runs += parse(f)
    if not runs:
        sys.exit('no ipcc-steal results in ' + ' '.join(logs))
    res = summarize(runs)
    print(report(res, profile, len(runs)))
    with open(dest, 'w') as f:
        json.dump({'profile': profile, 'icount_shift': SHIFT, 'runs': runs,
                   'modes': res}, f, indent=1)


if __name__ == '__main__':
    main(sys.argv)
