#!/usr/bin/env bats
# sps-batch: four files (three copies of data/sample.fil, one a hard
# link, one with a space in its name, and the real recording
# parkes_8bit_1.fil) searched through GNU parallel and through a real
# single-node Slurm (test/slurm.bash); the merged tables against the
# single searches; rerun, kill and resume; bad input; the Slurm scripts.
# Also uses: sps-search, parallel, sbatch, squeue, and for the Slurm
# cases munged, slurmctld and slurmd (skipped, saying why, without them).

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash
load slurm.bash

bats_require_minimum_version 1.5.0

# --dm 0 250 reaches the DM-500 pulse of sample.fil at its arrival time
# (a wide candidate at DM 251) and is the widest range the 4096 samples
# of the recording allow; -s 5 gives the recording two candidates.
opts=(--dm 0 250 -s 5)

# The four inputs under $1, the single searches of each (as sps-search
# gives them, into single/N/) and one batch over them into batch/.
setup_file() {
	local d=$BATS_FILE_TMPDIR i=0 f

	mkdir -p "$d/in/sub" "$d/single"
	cp "$BATS_TEST_DIRNAME/../data/sample.fil" "$d/in/a.fil"
	ln "$d/in/a.fil" "$d/in/sub/a.fil"
	cp "$d/in/a.fil" "$d/in/beam 2.fil"
	printf '%s\n' "$d/in/a.fil" "$d/in/sub/a.fil" "$d/in/beam 2.fil" \
	    "$BATS_TEST_DIRNAME/../../shared/data/parkes_8bit_1.fil" >"$d/list"
	while IFS= read -r f; do
		i=$((i + 1))
		sps-search -q "${opts[@]}" -o "$d/single/$i" "$f" >/dev/null
	done <"$d/list"
	(cd "$d" && sps-batch "${opts[@]}" -o batch --list list \
	    >batch.out 2>batch.err; echo $? >batch.status)
	slurm_start
}

teardown_file() {
	slurm_stop
}

setup() {
	d=$BATS_FILE_TMPDIR
	cd "$BATS_TEST_TMPDIR" || exit 1
}

# union FORMAT: the single searches' FORMAT files with the input's path
# (its absolute path, a space as %20) added as the merge adds it, sorted
union() {
	local i=0 f

	while IFS= read -r f; do
		i=$((i + 1))
		f=$(realpath -s "$f")
		case $1 in
		candidates.cand) sed "s|\$|${f// /%20}\t|" \
		    "$d/single/$i/$1" ;;
		*) grep -v '^#' "$d/single/$i/$1" | sed "s|\$| ${f// /%20}|" ;;
		esac
	done <"$d/list" | LC_ALL=C sort
}

@test "sps-batch: the merged tables are the union of the single searches, each line tagged with its file" {
	local f

	[ "$(cat "$d/batch.status")" -eq 0 ] || fail "$(cat "$d/batch.err")"
	[ ! -s "$d/batch.out" ]
	for f in candidates.txt candidates.singlepulse candidates.cand; do
		union "$f" >expect
		grep -v '^#' "$d/batch/$f" | LC_ALL=C sort >actual
		[ "$(wc -l <expect)" -eq 17 ] || fail "$f: $(cat expect)"
		cmp expect actual || fail "$f: $(diff expect actual)"
	done
	# the column names, the file column added
	head -n 1 "$d/batch/candidates.txt" | grep -q ' dm_max flood   file$'
	head -n 1 "$d/batch/candidates.singlepulse" | grep -q 'Downfact   file$'
}

@test "sps-batch: the table is sorted by S/N, highest first; every known pulse is there for each copy" {
	local f

	run -0 awk '!/^#/ { if (NR > 4 && $4 > last) exit 1; last = $4 }' \
	    "$d/batch/candidates.txt"
	# the pulses of data/README: DM 100 at 2.0 s, 250 at 5.5 s, and the
	# DM-500 one at 9.0 s, at the range's top (251.4)
	for f in "$d/in/a.fil" "$d/in/sub/a.fil" "$d/in/beam%202.fil"; do
		for p in "1.998500000 16.02 100.356" "5.496000000 18.99 251.409" \
		    "8.976000000 7.77 251.409"; do
			set -- $p
			run -0 awk -v f="$f" -v t="$1" -v s="$2" -v dm="$3" \
			    '$1 == t && $4 == s && $5 == dm && $13 == f' \
			    "$d/batch/candidates.txt"
			[ "${#lines[@]}" -eq 1 ] || fail "$f: $p: $output"
		done
	done
	run -0 grep -c 'parkes_8bit_1.fil$' "$d/batch/candidates.txt"
	assert_output 2
}

@test "sps-batch: a folder per file with its candidates, log, status and done marker; a summary line per file" {
	local f=$d/batch/runs$(realpath -s "$d/in/beam 2.fil")

	for n in candidates.txt candidates.cand candidates.singlepulse log \
	    status done; do
		[ -f "$f/$n" ] || fail "no $n in $f: $(ls -A "$f")"
	done
	cmp "$f/candidates.txt" "$d/single/3/candidates.txt"
	run -0 cat "$f/status"
	assert_output --regexp '^0 [0-9]+[.][0-9]{2}$'
	run -0 sed -E 's/, [0-9.]+ s$/, T s/' "$d/batch/summary.txt"
	assert_output "$(printf '%s\n' "$d/in/a.fil: 5 candidates, T s" \
	    "$d/in/sub/a.fil: 5 candidates, T s" \
	    "$d/in/beam 2.fil: 5 candidates, T s" \
	    "$(realpath -s "$BATS_TEST_DIRNAME/../../shared/data/parkes_8bit_1.fil"): 2 candidates, T s" \
	    '# 4 files: 4 searched, 0 failed')"
	run -0 grep -c '^sps-batch: .*: [0-9]* candidates, [0-9.]* s$' \
	    "$d/batch.err"
	assert_output 4
	assert_equal "$(tail -n 1 "$d/batch.err")" \
	    'sps-batch: 4 files: 4 searched, 0 failed'
}

@test "sps-batch: a rerun skips every file searched, leaving its folder as it was" {
	cp -a "$d/batch" before
	run -0 --separate-stderr sps-batch "${opts[@]}" -o before --list "$d/list"
	assert_equal "$stderr" "$(printf '%s\n' \
	    'sps-batch: 4 of 4 files already searched, skipped' \
	    'sps-batch: 4 files: 4 searched, 0 failed')"
	# nothing in runs/ written again (same contents and times)
	(cd "$d/batch" && find runs -type f -printf '%p %T@\n' | sort) >expect
	(cd before && find runs -type f -printf '%p %T@\n' | sort) >actual
	cmp expect actual
	cmp "$d/batch/candidates.txt" before/candidates.txt
}

@test "sps-batch: killed mid-way, the batch leaves no done marker on the file it was searching; rerun, it searches only what was missing" {
	local pid i f

	mkdir in
	cp "$d/in/a.fil" in/1.fil
	cp "$d/in/a.fil" in/2.fil
	mkfifo in/3.fil	# a search that waits for data until killed
	cp "$d/in/a.fil" in/4.fil
	sps-batch -j 1 "${opts[@]}" -o out in/1.fil in/2.fil in/3.fil \
	    in/4.fil 2>err &
	pid=$!
	f=out/runs$PWD/in
	for ((i = 0; i < 300; i++)); do
		grep -q slot "$f/3.fil/log" 2>/dev/null && break
		sleep 0.1
	done
	[ -f "$f/2.fil/done" ] || fail "3.fil not started: $(cat err)"
	kill -TERM "$pid"
	wait "$pid" || i=$?
	assert_equal "$i" 143
	[ -z "$(pgrep -f "sps-search .* $PWD/in/3.fil")" ] ||
	    fail "its search still runs"
	[ -f "$f/1.fil/done" ] && [ -f "$f/2.fil/done" ]
	[ ! -e "$f/3.fil/done" ] && [ ! -e "$f/3.fil/status" ]
	[ ! -e "$f/3.fil/candidates.txt" ] || fail "3.fil: a table"
	[ ! -e "$f/4.fil" ] || fail "4.fil was started"
	stat -c %Y.%i "$f"/1.fil/* >before
	# the recording arrives; the rerun searches 3 and 4 only
	rm in/3.fil
	cp "$d/in/a.fil" in/3.fil
	run -0 --separate-stderr sps-batch -j 1 "${opts[@]}" -o out in/*.fil
	[[ "${stderr_lines[0]}" == "sps-batch: 2 of 4 files already searched, skipped" ]] ||
	    fail "$stderr"
	[ "$(grep -c 'candidates, [0-9.]* s$' <<<"$stderr")" -eq 2 ] ||
	    fail "$stderr"
	[[ "$stderr" == *"in/3.fil: 5 candidates"*"in/4.fil: 5 candidates"* ]] ||
	    fail "$stderr"
	stat -c %Y.%i "$f"/1.fil/* | cmp - before
	[ "$(grep -vc '^#' out/candidates.txt)" -eq 20 ]
}

@test "sps-batch: a missing file and unreadable ones among many are reported, the rest searched; the status counts them" {
	printf 'not a filterbank file\n' >junk.fil
	mkdir adir.fil
	run -13 --separate-stderr sps-batch -q "${opts[@]}" -o out \
	    "$d/in/a.fil" missing.fil junk.fil adir.fil
	assert_output ""
	[ "${#stderr_lines[@]}" -eq 4 ] || fail "$stderr"
	assert_equal "${stderr_lines[0]}" \
	    "sps-batch: $PWD/missing.fil: failed (exit 1): sps-search: $PWD/missing.fil: No such file or directory"
	[[ "${stderr_lines[1]}" == "sps-batch: $PWD/junk.fil: failed (exit 1): sps-search: $PWD/junk.fil: "* ]] ||
	    fail "$stderr"
	assert_equal "${stderr_lines[2]}" \
	    "sps-batch: $PWD/adir.fil: failed (exit 1): sps-search: $PWD/adir.fil: Is a directory"
	assert_equal "${stderr_lines[3]}" \
	    "sps-batch: 4 files: 1 searched, 3 failed: $PWD/missing.fil, $PWD/junk.fil, $PWD/adir.fil"
	run -0 grep -c "^$PWD/.*: failed (exit 1): sps-search: " out/summary.txt
	assert_output 3
	[ "$(grep -vc '^#' out/candidates.txt)" -eq 5 ]
	[ ! -e "out/runs$PWD/missing.fil/done" ]
	run -0 cat "out/runs$PWD/missing.fil/status"
	assert_output --regexp '^1 '
}

@test "sps-batch: an output folder that cannot be made or written is one line, before any search" {
	touch plain
	run -1 --separate-stderr sps-batch "${opts[@]}" -o plain/out "$d/in/a.fil"
	assert_equal "$stderr" \
	    "sps-batch: plain/out: cannot make the folder: Not a directory"
	run -1 --separate-stderr sps-batch "${opts[@]}" -o plain "$d/in/a.fil"
	[[ "$stderr" == "sps-batch: plain: cannot make the folder: "* ]] ||
	    fail "$stderr"
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "$stderr"
}

@test "sps-batch: Slurm options without sbatch on PATH, or without --slurm, are one line" {
	# a PATH of the system's programs and sps's, but sbatch
	mkdir bin
	cp -s /usr/bin/* bin/ 2>/dev/null || true
	ln -sf "$(command -v sps-search)" bin/sps-search
	rm -f bin/sbatch
	PATH=$PWD/bin run -1 --separate-stderr \
	    /bin/sh "$(command -v sps-batch)" --slurm --partition gpu \
	    "${opts[@]}" -o out "$d/in/a.fil"
	assert_equal "$stderr" "sps-batch: --slurm: sbatch not found on PATH"
	run -2 --separate-stderr sps-batch --partition gpu -o out "$d/in/a.fil"
	assert_equal "${stderr_lines[0]}" \
	    "sps-batch: --partition: a Slurm option, without --slurm"
}

@test "sps-batch: bad search options are usage errors, sps-search's own words, before any search" {
	run -2 --separate-stderr sps-batch -s x -o out "$d/in/a.fil"
	assert_equal "${stderr_lines[0]}" \
	    "sps-batch: search options: -s: 'x' is not a number"
	run -2 --separate-stderr sps-batch --clean-report r.txt -o out \
	    "$d/in/a.fil"
	assert_equal "${stderr_lines[0]}" \
	    "sps-batch: --clean-report: every file's search would write the one report"
	run -2 --separate-stderr sps-batch --device 1 -o out "$d/in/a.fil"
	[[ "${stderr_lines[0]}" == "sps-batch: --device: "* ]] || fail "$stderr"
	run -2 --separate-stderr sps-batch --dm 0 -o out "$d/in/a.fil"
	[ ! -e out ] || fail "out made"
}

@test "sps-batch: a batch folder refuses a search with other options" {
	run -1 --separate-stderr sps-batch --dm 0 100 -o "$d/batch" \
	    "$d/in/a.fil"
	assert_equal "$stderr" \
	    "sps-batch: $d/batch: searched with other options ('--dm 0 250 -s 5'); give the same search options or another -o"
}

@test "sps-batch: names from --list, from '-' on stdin, relative and repeated, are one file each" {
	cp "$d/in/a.fil" x.fil
	printf '%s\n' x.fil ./x.fil >names
	run -0 --separate-stderr sps-batch -q "${opts[@]}" -o out - x.fil \
	    <names
	assert_equal "$(cat out/batch/inputs)" "$PWD/x.fil"
	[ "$(grep -vc '^#' out/candidates.txt)" -eq 5 ]
}

@test "sps-batch: --merge remakes the tables and summary from the folders" {
	cp -a "$d/batch" b
	rm b/candidates.* b/summary.txt
	run -0 --separate-stderr sps-batch --merge -o b
	cmp b/candidates.txt "$d/batch/candidates.txt"
	cmp b/candidates.cand "$d/batch/candidates.cand"
	cmp b/summary.txt "$d/batch/summary.txt"
}

# nvidia-smi, as it lists two GPUs
fake_nvidia_smi() {
	mkdir -p bin
	printf '#!/bin/sh\necho "GPU 0: Fake (UUID: GPU-0)"\necho "GPU 1: Fake (UUID: GPU-1)"\n' \
	    >bin/nvidia-smi
	chmod +x bin/nvidia-smi
}

# slots OUT: each search's job line in OUT's logs, the path cut off
slots() {
	find "$1/runs" -name log -exec cat {} + |
	    sed -n 's/^sps-batch: .*: slot/slot/p' | sort -u
}

@test "sps-batch: two searches per GPU, each given one by CUDA_VISIBLE_DEVICES and its share of the cores" {
	local cores t4 t2

	cores=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)
	t4=$((cores / 4 > 0 ? cores / 4 : 1))
	t2=$((cores / 2 > 0 ? cores / 2 : 1))
	fake_nvidia_smi
	mkdir in
	for i in 1 2 3 4; do cp "$d/in/a.fil" "in/$i.fil"; done
	PATH=$PWD/bin:$PATH run -0 sps-batch -q "${opts[@]}" -o gpu in/*.fil
	run -0 slots gpu
	assert_output "$(printf 'slot %s, CUDA_VISIBLE_DEVICES=%s, OMP_NUM_THREADS=%s\n' \
	    1 0 "$t4" 2 1 "$t4" 3 0 "$t4" 4 1 "$t4")"
	# CUDA_VISIBLE_DEVICES names those to use; --cpu shares the cores
	PATH=$PWD/bin:$PATH CUDA_VISIBLE_DEVICES=1 run -0 sps-batch -q \
	    "${opts[@]}" -o one in/*.fil
	run -0 slots one
	assert_output "$(printf 'slot %s, CUDA_VISIBLE_DEVICES=1, OMP_NUM_THREADS=%s\n' \
	    1 "$t2" 2 "$t2")"
	PATH=$PWD/bin:$PATH run -0 sps-batch -q -j 2 --cpu "${opts[@]}" \
	    -o cpu in/*.fil
	run -0 slots cpu
	[[ "$output" == *"CUDA_VISIBLE_DEVICES=(unset)"* ]] || fail "$output"
	[[ "$output" != *"CUDA_VISIBLE_DEVICES=0"* ]] || fail "$output"
}

@test "sps-batch: --dry-run prints the job array's script and the merge job's" {
	run -0 --separate-stderr sps-batch --slurm --dry-run --partition gpu \
	    --gres gpu:1 --time 1:00:00 --account survey --cpus-per-task 4 \
	    --array-throttle 1 --files-per-task 3 "${opts[@]}" -o out \
	    --list "$d/list"
	sub=$(cd out/batch && ls -d slurm.*)
	assert_line --index 0 '#!/bin/sh'
	assert_line '#SBATCH --array=0-1%1'
	assert_line "#SBATCH --output=$PWD/out/batch/$sub/logs/task-%A_%a.log"
	assert_line '#SBATCH --partition=gpu'
	assert_line '#SBATCH --gres=gpu:1'
	assert_line '#SBATCH --time=1:00:00'
	assert_line '#SBATCH --account=survey'
	assert_line '#SBATCH --cpus-per-task=4'
	assert_line "exec '$(command -v sps-batch)' --task '$PWD/out' '$PWD/out/batch/$sub/files' \\"
	assert_line '    "$SLURM_ARRAY_TASK_ID" 3'
	assert_line "#   sbatch --dependency=afterany:JOBID $PWD/out/batch/$sub/merge.sh"
	assert_line "exec '$(command -v sps-batch)' --merge -o '$PWD/out' --list '$PWD/out/batch/$sub/inputs'"
	# the merge job on the partition and account, without the GPU
	[ "$(grep -c '^#SBATCH --partition=gpu$' <<<"$output")" -eq 2 ]
	[ "$(grep -c '^#SBATCH --gres' <<<"$output")" -eq 1 ]
	xargs -d '\n' realpath -s <"$d/list" | cmp - "out/batch/$sub/files"
	[ ! -e out/runs ] || fail "searched"
}

@test "sps-batch: --slurm on a single-node Slurm: the array's tasks search, the merge job merges" {
	need_slurm
	run -0 --separate-stderr sps-batch --slurm --array-throttle 1 \
	    --files-per-task 3 "${opts[@]}" -o out --list "$d/list"
	[[ "$stderr" =~ ^sps-batch:\ job\ array\ [0-9]+\ \(2\ tasks\),\ merge\ job\ [0-9]+: ]] ||
	    fail "$stderr"
	slurm_wait_jobs
	sub=$(ls -d out/batch/slurm.*)
	[ "$(ls "$sub"/logs/task-*.log | wc -l)" -eq 2 ] || fail "$(ls "$sub/logs")"
	run -0 cat "$sub"/logs/merge-*.log
	assert_output 'sps-batch: 4 files: 4 searched, 0 failed'
	cmp out/candidates.txt "$d/batch/candidates.txt"
	cmp out/candidates.cand "$d/batch/candidates.cand"
	[ "$(grep -c 'candidates, [0-9.]* s$' "$sub"/logs/task-*.log |
	    awk -F: '{ n += $2 } END { print n }')" -eq 4 ]
}

@test "sps-batch: a Slurm rerun submits nothing when every file is done, and merges" {
	need_slurm
	run -0 --separate-stderr sps-batch --slurm "${opts[@]}" -o "$d/batch" \
	    --list "$d/list"
	assert_equal "$stderr" "$(printf '%s\n' \
	    'sps-batch: 4 of 4 files already searched, skipped' \
	    'sps-batch: 4 files: 4 searched, 0 failed')"
	[ -z "$(squeue -h)" ]
}

@test "sps-batch: its list of sps-search's options with a value is sps-search's" {
	local src=$BATS_TEST_DIRNAME/../tools want have

	want=$(sed -nE 's/^[[:space:]]*\{ "([^"]+)", required_argument,.*/--\1/p' \
	    "$src/sps-search.c" "$src/cleanopts.h" |
	    grep -vxE -- '--(dm|output|device|clean-report|plot)' | sort)
	have=$(sed -n "/^search_valued='/,/'$/p" \
	    "$BATS_TEST_DIRNAME/../scripts/sps-batch" | tr -s " '\t" '\n\n\n' |
	    grep -- '^--' | sort)
	assert_equal "$have" "$want"
}
