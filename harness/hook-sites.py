#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check where the hook patches put the series' calls in the base's files.

usage: hook-sites.py SITES TREE FILE...

For every call of an IPCC function (a name with "ipcc_" in it, or a
callee SITES names) in each FILE of the assembled TREE, find
the function it is in and, inside a switch, the case label it is under.
SITES lists the expected sites, one per line: "FILE FUNCTION CASE CALLEE"
(CASE "-" outside a switch). Every call must match a line and every line
a call, as many times as listed.

A hook patch applied with an offset or fuzz to a new base can land in the
wrong function or the wrong case and still build; this catches that. The
scanner knows just enough C for the kernel's style: it drops comments,
strings and preprocessor lines, and takes a function's name from the last
"name(" seen at brace depth 0 before its body opens.
"""
import collections
import re
import sys

IPCC = re.compile(r'\w*ipcc_\w+$')
TOKEN = re.compile(r'''
    (?P<comment>/\*.*?\*/|//[^\n]*)
  | (?P<string>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
  | (?P<pp>^[ \t]*\#(?:[^\n]*\\\n)*[^\n]*)
  | (?P<case>\bcase\b[^:;{}]*?(?<!:):(?!:)|\bdefault\s*:)
  | (?P<call>\b\w+\s*\()
  | (?P<open>\{)
  | (?P<close>\})
''', re.S | re.M | re.X)


def sites(text, names):
    """Yield (function, case, callee) for each IPCC call in @text.

    A call is IPCC's when the callee's name has "ipcc_" in it or is one
    of @names.
    """
    depth = 0
    func = last_name = None
    labels = []  # (depth of the switch body, label)
    for m in TOKEN.finditer(text):
        kind = m.lastgroup
        if kind in ('comment', 'string', 'pp'):
            continue
        if kind == 'open':
            if depth == 0:
                func = last_name
            depth += 1
        elif kind == 'close':
            depth -= 1
            labels = [lab for lab in labels if lab[0] <= depth]
            if depth == 0:
                func = None
        elif kind == 'case':
            label = m.group()[:-1].strip()
            label = re.sub(r'^case\s+', '', label)
            labels = [lab for lab in labels if lab[0] < depth]
            labels.append((depth, label))
        elif kind == 'call':
            name = m.group().rstrip('( \t\n')
            if depth == 0:
                last_name = name
            elif IPCC.match(name) or name in names:
                yield func, labels[-1][1] if labels else '-', name


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    want = collections.Counter()
    for line in open(sys.argv[1]):
        line = line.split('#', 1)[0].split()
        if line:
            if len(line) != 4:
                sys.exit(f'{sys.argv[1]}: bad line: {" ".join(line)}')
            want[tuple(line)] += 1
    names = {site[3] for site in want}
    got = collections.Counter()
    for f in sys.argv[3:]:
        with open(f'{sys.argv[2]}/{f}') as fh:
            for func, case, callee in sites(fh.read(), names):
                got[(f, func or '?', case, callee)] += 1
    bad = 0
    for site in sorted((got - want) | (want - got)):
        n, m = got[site], want[site]
        print(f'{" ".join(site)}: {n} call(s) in the tree, {m} expected')
        bad += 1
    for site in sorted(got & want):
        print(f'ok {" ".join(site)}')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
