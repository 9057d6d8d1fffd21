#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Merge the series' MAINTAINERS entries into the tree's MAINTAINERS.

usage: merge-maintainers.py TREE_MAINTAINERS SERIES_MAINTAINERS

Each entry of the series' file (a title line followed by "X:\t..." lines) is
inserted before the first entry of the tree whose title sorts after it, the
order scripts/parse-maintainers.pl keeps.  An entry whose title already
exists is replaced, so merging twice gives the same file.
"""
import re
import sys

FIELD = re.compile(r'^[A-Z]:\t')


def blocks(lines):
    """Split into blank-line separated blocks, keeping their line lists."""
    cur = []
    for line in lines:
        if line.strip() == '':
            if cur:
                yield cur
                cur = []
        else:
            cur.append(line)
    if cur:
        yield cur


def is_entry(block):
    return len(block) > 1 and not FIELD.match(block[0]) and FIELD.match(block[1])


def key(title):
    return title.strip().upper()


def main():
    tree_path, series_path = sys.argv[1], sys.argv[2]
    with open(tree_path, encoding='utf-8') as f:
        text = f.read().split('\n')
    with open(series_path, encoding='utf-8') as f:
        new = [b for b in blocks(f.read().split('\n')) if is_entry(b)]
    if not new:
        sys.exit(f'{series_path}: no MAINTAINERS entry found')

    for entry in new:
        title = key(entry[0])
        # Locate entries: a title line directly followed by a field line,
        # preceded by a blank line.
        starts = [i for i in range(1, len(text) - 1)
                  if text[i - 1].strip() == '' and text[i].strip() and
                  not FIELD.match(text[i]) and FIELD.match(text[i + 1])]
        # Drop an older copy of the same entry.
        for i in starts:
            if key(text[i]) == title:
                end = i
                while end < len(text) and text[end].strip():
                    end += 1
                del text[i:end + 1]
                break
        starts = [i for i in range(1, len(text) - 1)
                  if text[i - 1].strip() == '' and text[i].strip() and
                  not FIELD.match(text[i]) and FIELD.match(text[i + 1])]
        # The last "entry" of the file is THE REST; never insert after it.
        pos = None
        for i in starts:
            if key(text[i]) > title or key(text[i]) == 'THE REST':
                pos = i
                break
        if pos is None:
            sys.exit(f'{tree_path}: no place to insert {entry[0]!r}')
        text[pos:pos] = entry + ['']

    with open(tree_path, 'w', encoding='utf-8') as f:
        f.write('\n'.join(text))


if __name__ == '__main__':
    main()
