#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Documentation checks of the series in the assembled tree.  One case per
# file; any finding fails it:
#   kernel-doc  scripts/kernel-doc -none -Wall over every new kernel .c/.h
#               file (not the selftests): any warning fails.
#   docutils    harness/docs-rst.py over every new .rst file (which must
#               also be in a toctree) and every new Documentation/ABI file,
#               and over every .rst file a hook patch changes, where only
#               findings the unpatched file does not have count.
# usage: docs-check.sh [LOGDIR]
. "$(dirname "$0")/lib.sh"

logdir=${1:-$OUT/docs-check}
mkdir -p "$logdir/kernel-doc" "$logdir/docutils"
R="python3 $HARNESS/results.py"
kd=$SRC/scripts/kernel-doc
[ -f "$kd" ] || die "no kernel-doc in $SRC: assemble first"
# Perl in 6.12, Python in 7.3.
kdoc=(perl "$kd")
head -n 1 "$kd" | grep -q python && kdoc=(python3 "$kd")
python3 -c 'import docutils' 2>/dev/null ||
	die "python3 cannot import docutils: run harness/deps.sh (Debian package python3-docutils)"
rows=(0 0)
fails=(0 0)

# stage, index into rows/fails, name, log: a non-empty log is a failure.
record() {
	rows[$2]=$((rows[$2] + 1))
	if [ -s "$4" ]; then
		$R case "$1" "$3" fail >/dev/null
		sed 's/^/    /' "$4" | head -n 30 >&2
		fails[$2]=$((fails[$2] + 1))
	else
		$R case "$1" "$3" pass >/dev/null
	fi
}

logname() { echo "$1" | tr '/' '_'; }

# (a) kernel-doc
for f in $(series_new_files); do
	case $f in
	tools/*) continue ;;
	*.c | *.h) ;;
	*) continue ;;
	esac
	log=$logdir/kernel-doc/$(logname "$f").log
	if [ ! -f "$SRC/$f" ]; then
		echo "$f: not in the assembled tree: assemble first" >"$log"
	else
		(cd "$SRC" && "${kdoc[@]}" -none -Wall "$f") >"$log" 2>&1
		rc=$?
		[ $rc -eq 0 ] || [ -s "$log" ] || echo "$f: kernel-doc exited with $rc" >"$log"
	fi
	record kernel-doc 0 "$f" "$log"
done

# (b) docutils
rst() {	# name, docs-rst.py arguments...
	local name=$1 log rc
	shift
	log=$logdir/docutils/$(logname "$name").log
	python3 "$HARNESS/docs-rst.py" --srctree "$SRC" "$@" >"$log" 2>&1
	rc=$?
	[ $rc -eq 0 ] || [ -s "$log" ] || echo "$name: docs-rst.py exited with $rc" >"$log"
	record docutils 1 "$name" "$log"
}

for f in $(series_new_files); do
	case $f in
	Documentation/ABI/*) rst "$f" --abi "$f" ;;
	Documentation/*.rst) rst "$f" --toctree "$f" ;;
	esac
done
for f in $(for p in $(series_patches); do
		sed -n 's|^+++ b/\([^[:space:]]*\.rst\)\([[:space:]].*\)\{0,1\}$|\1|p' "$(patch_file "$p")"
	done | sort -u); do
	if [ -f "$BASE_SRC/$f" ]; then
		rst "$f" --base "$BASE_SRC/$f" "$f"
	else
		rst "$f" "$f"
	fi
done

msg "docs-check: kernel-doc ${rows[0]} files, ${fails[0]} with findings; docutils ${rows[1]} files, ${fails[1]} with findings"
[ "${fails[0]}" -eq 0 ] && [ "${fails[1]}" -eq 0 ]
