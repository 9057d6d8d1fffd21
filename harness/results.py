#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn test output into counted results for the summary of `make test`.

usage:
  results.py kunit STAGE KUNIT_JSON          cases of kunit.py's --json
  results.py tap STAGE OUTPUT_LOG [KNOWN [SKIPS]]
                                             selftests run by guest/init;
                                             KNOWN: known failures, SKIPS:
                                             expected skips (below)
  results.py case STAGE NAME pass|fail|skip  one case, e.g. a static check
  results.py summary RESULTS                 per-stage table, closing line

Each of the first three appends "STAGE<TAB>STATUS<TAB>NAME" lines to the file
named by $IPCC_RESULTS and prints the stage's counts.  `summary` prints the
table, the failed cases and the closing line "N passed, N failed", and exits
non-zero when anything failed or nothing ran.

Known failures: a profile may list test cases that reproduce a defect not
fixed yet (PROFILE_KNOWN_FAIL, "BINARY: CASE" separated by ";"). Such a
case that fails counts as "known" (not passed, not failed; shown with the
reason in the summary); one that passes fails the run, so that the list
is cut as soon as the defect is fixed.

Skips: a skip counts only where it is expected.  A profile lists the
cases that cannot apply to it (PROFILE_EXPECTED_SKIP, patterns such as
"ipcc_hw_test: hw.*" separated by ";"); any other skip fails the run, and
so does a listed pattern that no skipped case matched (the list is kept
exact).  KUnit expects no skip at all.  Every skip is shown in the
summary with the reason the test gave.

Plans: the guest runner announces how many binaries it runs ("1..N"),
and each TAP binary how many cases; a binary that reports fewer or more
cases than it planned, or a run that ends fewer binaries than planned,
fails.  The series' own KUnit suites (named *ipcc*) are counted in the
stage "kunit", the base tree's in "kunit-base".
"""
import fnmatch
import json
import os
import re
import sys

TAP_RESULT = re.compile(r'^(not ok|ok) +\d+ *-? *(.*?)\s*$')
TAP_PLAN = re.compile(r'^1\.\.(\d+)\s*$')
SKIP_REASON = re.compile(r'#\s*SKIP\b\s*(.*)$', re.I)
BEGIN = re.compile(r'@@IPCC-BEGIN (\S+)@@')
END = re.compile(r'@@IPCC-END (\S+) rc=(\d+)@@')


def emit(stage, rows):
    """Record @rows: (status, name) or (status, name, why) tuples."""
    rows = [(r[0], r[1] + (f' ({r[2]})' if len(r) > 2 and r[2] else ''))
            for r in rows]
    path = os.environ.get('IPCC_RESULTS')
    if path:
        with open(path, 'a', encoding='utf-8') as f:
            for status, name in rows:
                f.write(f'{stage}\t{status}\t{name}\n')
    counts = {s: sum(1 for r in rows if r[0] == s)
              for s in ('pass', 'fail', 'skip', 'known')}
    print(f'{stage}: {counts["pass"]} passed, {counts["fail"]} failed, '
          f'{counts["skip"]} skipped' +
          (f', {counts["known"]} known failures' if counts['known'] else ''))
    for status, name in rows:
        if status == 'fail':
            print(f'  FAILED: {name}')
        elif status == 'known':
            print(f'  known failure: {name}')


def apply_known(rows, known):
    """Mark the listed cases' failures as known; fail listed cases that pass."""
    want = [k.strip() for k in known.split(';') if k.strip()]
    out, seen = [], set()
    for st, name, why in rows:
        hit = next((k for k in want if name.endswith(k)), None)
        if hit is None:
            out.append((st, name, why))
            continue
        seen.add(hit)
        if st == 'fail':
            out.append(('known', name, why))
        elif st == 'pass':
            out.append(('fail', name, 'listed as a known failure, but passed: '
                                      'take it off the profile\'s PROFILE_KNOWN_FAIL'))
        else:
            out.append((st, name, why))
    for k in want:
        if k not in seen:
            out.append(('fail', k, 'listed as a known failure, but did not run'))
    return out


def apply_skips(rows, expected, where):
    """Fail the skips @expected (patterns, ";"-separated) does not list.

    A pattern matches the end of a case name ("ipcc_hw_test: hw.*" matches
    "sched:ipcc_hw_test: hw.itd_backend_enabled"); one that matches no
    skipped case fails too, so that the list says exactly what skips.
    """
    want = [k.strip() for k in expected.split(';') if k.strip()]
    out, seen = [], set()
    for st, name, why in rows:
        if st != 'skip':
            out.append((st, name, why))
            continue
        hit = [k for k in want if fnmatch.fnmatchcase(name, '*' + k)]
        seen.update(hit)
        if hit:
            out.append((st, name, why))
        else:
            out.append(('fail', name, f'skipped: {why or "no reason given"}; '
                                      f'not an expected skip of {where}'))
    for k in want:
        if k not in seen:
            out.append(('fail', k, f'listed as an expected skip of {where}, '
                                   'but no case skipped: take it off'))
    return out


def kunit_rows(group, prefix=''):
    name = group.get('name', '')
    here = prefix if name == 'KUnit Test Group' else (prefix + name + '.')
    rows = []
    for case in group.get('test_cases', []):
        st = {'PASS': 'pass', 'SKIP': 'skip'}.get(case['status'], 'fail')
        rows.append((st, here + case['name'],
                     'skipped: see kunit.log' if st == 'skip' else ''))
    for sub in group.get('sub_groups', []):
        rows += kunit_rows(sub, here)
    return rows


def tap_rows(text):
    """Results of the guest runner: leaf TAP cases of each selftest binary.

    A binary that prints no TAP result line counts as one case judged by its
    exit status; a binary that exits non-zero without a failing case gets a
    failing case of its own; one that never ends (crash, timeout) fails; one
    that reports a number of cases other than its plan fails; so does a run
    that ends fewer binaries than the runner planned.  Rows are
    (status, name, why); a skip's why is the reason the test printed.
    """
    rows = []
    cur, cases, plan, note = None, [], None, ''
    planned, ended = None, 0
    # TAP results seen outside a BEGIN/END block: a binary's own lines
    # when its BEGIN marker was lost on the serial line (seen once), so
    # that its END marker can still claim them.
    orphans = []
    for line in text.splitlines():
        m = BEGIN.search(line)
        if m:
            cur, cases, plan, note, orphans = m.group(1), [], None, '', []
            continue
        m = END.search(line)
        if m and not cur:
            cur, cases = m.group(1), [(st, f'{m.group(1)}: {n}', w)
                                      for st, n, w in orphans]
            plan, note = None, ''
        if m:
            orphans = []
            ended += 1
            rc = int(m.group(2))
            if not cases:
                cases.append(('pass' if rc == 0 else 'skip' if rc == 4 else 'fail',
                              cur, (note or f'exit status {rc}') if rc == 4 else ''))
            else:
                if rc not in (0, 4) and not any(c[0] == 'fail' for c in cases):
                    cases.append(('fail', cur, f'exit status {rc}'))
                if plan is not None and plan != len(cases):
                    cases.append(('fail', cur, f'planned {plan} cases, '
                                               f'reported {len(cases)}'))
            rows += cases
            cur = None
            continue
        m = TAP_PLAN.match(line)
        if m:
            if cur is None and planned is None:
                planned = int(m.group(1))
            elif cur is not None and plan is None:
                plan = int(m.group(1))
            continue
        m = TAP_RESULT.match(line)
        if m:
            name = m.group(2)
            why = ''
            sk = SKIP_REASON.search(name)
            if sk:
                st, why = 'skip', sk.group(1).strip()
            elif m.group(1) == 'ok':
                st = 'pass'
            else:
                st = 'fail'
            name = re.sub(r'\s*#.*$', '', name)
            if cur is not None:
                cases.append((st, f'{cur}: {name}', why))
            elif not name.startswith('selftests: '):
                orphans.append((st, name, why))
            continue
        if cur is not None and line.startswith('# '):
            # A binary's last comment: why it skipped, when it did.
            note = re.sub(r'^skipped:\s*', '', line[2:].strip(), flags=re.I)
    if cur is not None:
        rows += cases
        rows.append(('fail', cur, 'did not finish: guest crashed or hung'))
        ended += 1
    if planned is not None and ended != planned:
        rows.append(('fail', 'selftest runner',
                     f'planned {planned} binaries, {ended} ran'))
    return rows


def summary(path):
    stages = {}
    failed, known, skipped_cases = [], [], []
    if os.path.exists(path):
        with open(path, encoding='utf-8') as f:
            for line in f:
                parts = line.rstrip('\n').split('\t', 2)
                if len(parts) != 3:
                    continue
                stage, status, name = parts
                c = stages.setdefault(stage, {'pass': 0, 'fail': 0, 'skip': 0,
                                              'known': 0})
                c[status] = c.get(status, 0) + 1
                if status == 'fail':
                    failed.append(f'{stage}: {name}')
                elif status == 'known':
                    known.append(f'{stage}: {name}')
                elif status == 'skip':
                    skipped_cases.append(f'{stage}: {name}')
    print('')
    print(f'{"stage":<34} {"passed":>7} {"failed":>7} {"skipped":>8} {"known":>6}')
    for stage, c in stages.items():
        print(f'{stage:<34} {c["pass"]:>7} {c["fail"]:>7} {c["skip"]:>8} '
              f'{c["known"]:>6}')
    for name in skipped_cases:
        print(f'SKIPPED {name}')
    for name in known:
        print(f'KNOWN FAILURE {name}')
    for name in failed:
        print(f'FAILED {name}')
    passed = sum(c['pass'] for c in stages.values())
    nfail = sum(c['fail'] for c in stages.values())
    skipped = sum(c['skip'] for c in stages.values())
    nknown = sum(c['known'] for c in stages.values())
    if passed + nfail == 0:
        nfail = 1
        print('FAILED no test ran')
    if nknown:
        print(f'({nknown} known failures, listed above: defects with open issues)')
    base = {k: v for k, v in stages.items() if k.endswith('-base')}
    if base:
        print(f'(of these, the base tree\'s own KUnit suites: '
              f'{sum(c["pass"] for c in base.values())} passed, '
              f'{sum(c["fail"] for c in base.values())} failed; '
              f'the series\' own tests and checks: {passed - sum(c["pass"] for c in base.values())} passed)')
    print(f'{passed} passed, {nfail} failed, {skipped} skipped')
    return 1 if nfail else 0


def main():
    cmd = sys.argv[1] if len(sys.argv) > 1 else ''
    if cmd == 'kunit':
        stage, path = sys.argv[2], sys.argv[3]
        try:
            with open(path, encoding='utf-8') as f:
                rows = apply_skips(kunit_rows(json.load(f)), '', 'KUnit')
        except (OSError, ValueError) as e:
            emit(stage, [('fail', 'no KUnit results', str(e))])
            return
        # The suite is the name's first part: sched_ipcc.case.
        ours = [r for r in rows if 'ipcc' in r[1].split('.')[0]]
        emit(stage, ours or [('fail', 'KUnit ran none of the series\' suites (*ipcc*)')])
        base = [r for r in rows if r not in ours]
        if base:
            emit(f'{stage}-base', base)
    elif cmd == 'tap':
        stage, path = sys.argv[2], sys.argv[3]
        try:
            with open(path, encoding='utf-8', errors='replace') as f:
                rows = tap_rows(f.read())
        except OSError as e:
            rows = [('fail', f'no selftest output ({e})', '')]
        if not rows:
            rows = [('fail', 'no selftest ran', '')]
        else:
            if len(sys.argv) > 4:
                rows = apply_known(rows, sys.argv[4])
            rows = apply_skips(rows, sys.argv[5] if len(sys.argv) > 5 else '',
                               f'{stage} (PROFILE_EXPECTED_SKIP)')
        emit(stage, rows)
    elif cmd == 'case':
        emit(sys.argv[2], [(sys.argv[4], sys.argv[3])])
    elif cmd == 'summary':
        sys.exit(summary(sys.argv[2]))
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
