#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make series: the series as git format-patch files with a cover letter,
# split into logical patches by harness/series/layout, in out/series/.
# The git history stays in $KCACHE/series-tree (branch ipcc, base tag
# ipcc-base) for make bisect-check; SERIES_TREE= names another one (make
# test uses its own, so that it never resets a tree bisect-check builds).
. "$(dirname "$0")/lib.sh"

"$HARNESS/fetch-base.sh" || exit 1
"$HARNESS/assemble.sh" >/dev/null || exit 1
list=$(mktemp)
trap 'rm -f "$list"' EXIT
series_new_files >"$list"
BASE_PKG=$BASE_PKG BASE_VERSION=$BASE_VERSION \
	python3 "$HARNESS/series.py" "$REPO" "$BASE_SRC" "${SERIES_TREE:-$KCACHE/series-tree}" \
	"${SERIES_OUT:-$OUT/series-$BASE}" "$list" "$SRC"
