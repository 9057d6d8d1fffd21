#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn test output into counted results for the summary of `make test`.

usage:
  results.py kunit STAGE KUNIT_JSON          cases of kunit.py's --json
  results.py tap STAGE OUTPUT_LOG [KNOWN]    selftests run by guest/init;
                                             KNOWN: known failures (below)
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
"""
import json
import os
import re
import sys

TAP_RESULT = re.compile(r'^(not ok|ok) +\d+ *-? *(.*?)\s*$')
BEGIN = re.compile(r'@@IPCC-BEGIN (\S+)@@')
END = re.compile(r'@@IPCC-END (\S+) rc=(\d+)@@')


def emit(stage, rows):
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
    for st, name in rows:
        hit = next((k for k in want if name.endswith(k)), None)
        if hit is None:
            out.append((st, name))
            continue
        seen.add(hit)
        if st == 'fail':
            out.append(('known', name))
        elif st == 'pass':
            out.append(('fail', f'{name} (listed as a known failure, but passed: '
                                'take it off the profile\'s PROFILE_KNOWN_FAIL)'))
        else:
            out.append((st, name))
    for k in want:
        if k not in seen:
            out.append(('fail', f'{k} (listed as a known failure, but did not run)'))
    return out


def kunit_rows(group, prefix=''):
    name = group.get('name', '')
    here = prefix if name == 'KUnit Test Group' else (prefix + name + '.')
    rows = []
    for case in group.get('test_cases', []):
        st = {'PASS': 'pass', 'SKIP': 'skip'}.get(case['status'], 'fail')
        rows.append((st, here + case['name']))
    for sub in group.get('sub_groups', []):
        rows += kunit_rows(sub, here)
    return rows


def tap_rows(text):
    """Results of the guest runner: leaf TAP cases of each selftest binary.

    A binary that prints no TAP result line counts as one case judged by its
    exit status; a binary that exits non-zero without a failing case gets a
    failing case of its own; one that never ends (crash, timeout) fails.
    """
    rows = []
    cur, cases = None, []
    # TAP results seen outside a BEGIN/END block: a binary's own lines
    # when its BEGIN marker was lost on the serial line (seen once), so
    # that its END marker can still claim them.
    orphans = []
    for line in text.splitlines():
        m = BEGIN.search(line)
        if m:
            cur, cases, orphans = m.group(1), [], []
            continue
        m = END.search(line)
        if m and not cur:
            cur, cases = m.group(1), [(st, f'{m.group(1)}: {n}') for st, n in orphans]
        if m:
            orphans = []
            rc = int(m.group(2))
            if not cases:
                cases.append(('pass' if rc == 0 else 'skip' if rc == 4 else 'fail',
                              cur))
            elif rc not in (0, 4) and not any(c[0] == 'fail' for c in cases):
                cases.append(('fail', f'{cur} (exit status {rc})'))
            rows += cases
            cur = None
            continue
        m = TAP_RESULT.match(line)
        if m:
            name = m.group(2)
            if re.search(r'#\s*SKIP', name, re.I):
                st = 'skip'
            elif m.group(1) == 'ok':
                st = 'pass'
            else:
                st = 'fail'
            name = re.sub(r'\s*#.*$', '', name)
            if cur is not None:
                cases.append((st, f'{cur}: {name}'))
            elif not name.startswith('selftests: '):
                orphans.append((st, name))
    if cur is not None:
        rows += cases
        rows.append(('fail', f'{cur} (did not finish: guest crashed or hung)'))
    return rows


def summary(path):
    stages = {}
    failed, known = [], []
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
    print('')
    print(f'{"stage":<34} {"passed":>7} {"failed":>7} {"skipped":>8} {"known":>6}')
    for stage, c in stages.items():
        print(f'{stage:<34} {c["pass"]:>7} {c["fail"]:>7} {c["skip"]:>8} '
              f'{c["known"]:>6}')
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
    print(f'{passed} passed, {nfail} failed, {skipped} skipped')
    return 1 if nfail else 0


def main():
    cmd = sys.argv[1] if len(sys.argv) > 1 else ''
    if cmd == 'kunit':
        stage, path = sys.argv[2], sys.argv[3]
        try:
            with open(path, encoding='utf-8') as f:
                rows = kunit_rows(json.load(f))
        except (OSError, ValueError) as e:
            rows = [('fail', f'no KUnit results ({e})')]
        if not rows:
            rows = [('fail', 'KUnit ran no test')]
        emit(stage, rows)
    elif cmd == 'tap':
        stage, path = sys.argv[2], sys.argv[3]
        try:
            with open(path, encoding='utf-8', errors='replace') as f:
                rows = tap_rows(f.read())
        except OSError as e:
            rows = [('fail', f'no selftest output ({e})')]
        if not rows:
            rows = [('fail', 'no selftest ran')]
        elif len(sys.argv) > 4:
            rows = apply_known(rows, sys.argv[4])
        emit(stage, rows)
    elif cmd == 'case':
        emit(sys.argv[2], [(sys.argv[4], sys.argv[3])])
    elif cmd == 'summary':
        sys.exit(summary(sys.argv[2]))
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
