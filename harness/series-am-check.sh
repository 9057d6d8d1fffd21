#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Check that the mailed series (out/series, from make series) applies with
# git am on a fresh copy of the base, and that the result is the tree that
# make test builds.  Used once per release of the series; make
# bisect-check then proves every prefix builds.
. "$(dirname "$0")/lib.sh"

dir=${SERIES_OUT:-$OUT/series-$BASE}
ls "$dir"/0001-*.patch >/dev/null 2>&1 || die "no series in $dir: run make series"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cp -a "$BASE_SRC/." "$t/"
cd "$t" || exit 1
git init -q && git add -A -f &&
	git -c user.name=ipcc -c user.email=ipcc@localhost commit -q -m base || die "git init failed"
mapfile -t patches < <(ls "$dir"/0*.patch | grep -v cover-letter)
git -c user.name=ipcc -c user.email=ipcc@localhost am -q "${patches[@]}" 2>&1 ||
	die "git am failed"
n=${#patches[@]}
bad=0
for f in $(git diff --name-only HEAD~"$n" HEAD); do
	cmp -s "$f" "$SRC/$f" || { msg "differs from the assembled tree: $f"; bad=1; }
done
[ $bad = 0 ] || die "the applied series differs from the assembled tree"
msg "git am: $n patches applied on a fresh base; result identical to $SRC"
