#!/usr/bin/env bats
# scripts/bench-dedisperse: a run's figures come only after its checks,
# the pulse found and the first block the reference's; a run that fails
# one says what failed instead.  On the CPU (SPS_BENCH_ENGINE=--cpu), one
# short case and algorithm each.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

bats_require_minimum_version 1.5.0

setup() {
	cd "$BATS_TEST_TMPDIR" || exit 1
}

# bench OPTION...: the GPU table on the CPU, novotny-8bit-512 (3 s, 512
# channels, 3051 trials) with the sub-band algorithm only
bench() {
	SPS_BENCH_ENGINE=--cpu bench-dedisperse --gpu --quick --no-cpu \
	    --only 'novotny-8bit-512 subband gpu' --keep k "$@"
}

@test "bench-dedisperse: figures follow the checks, the pulse found and the first block the CPU's" {
	run -0 bench
	assert_line --regexp '^novotny-8bit-512 +subband +gpu +3051 +- +- +[0-9.]+ +[0-9.]+ +[0-9.]+x +[0-9.]+x$'
	assert_line --regexp '^#   pulse found at (0\.99|1\.00)[0-9]* s DM (29[7-9]|30[0-3])\.[0-9]+ width [0-9]+ S/N [0-9.]+; first block \(199[0-9]{6} bytes\) the CPU.s byte for byte$'
	assert_line --regexp '^# [0-9]+ s in all; 0 runs failed$'
	refute_output --partial FAILED
}

# One sub-band: the trials at DM 300 are summed at a nominal DM 64 away.
@test "bench-dedisperse: a run that misses the pulse prints what it found instead of figures" {
	run -1 bench --subband 1
	assert_line --regexp '^novotny-8bit-512 +subband +gpu FAILED, pulse not found: the strongest candidate before [0-9.]+ s is at [0-9.]+ s DM [0-9.]+ width [0-9]+ S/N [0-9.]+, the pulse was put at 1 s DM 300$'
	refute_line --regexp '^#   pulse found'
	assert_line --regexp '^# [0-9]+ s in all; 1 runs failed$'
}

# A reference build that disagrees: tree-linear where sub-bands were asked.
@test "bench-dedisperse: a first block unlike the reference's fails the run, naming the first difference" {
	mkdir other
	cat >other/sps-dedisperse <<-'EOF'
	#!/bin/sh
	for a; do
		shift
		[ "$a" = subband ] && a=tree-linear
		set -- "$@" "$a"
	done
	exec sps-dedisperse "$@"
	EOF
	chmod +x other/sps-dedisperse
	run -1 bench --ref "$PWD/other"
	assert_line --regexp '^novotny-8bit-512 +subband +gpu FAILED, first block differs from --ref.s at trial [0-9]+ \(DM [0-9.]+\) sample [0-9]+ \(base sample [0-9]+\): [0-9.]+ vs [0-9.]+$'
	assert_line --regexp '^# [0-9]+ s in all; 1 runs failed$'
}

@test "bench-dedisperse: --ref needs a directory with sps-dedisperse" {
	run -2 --separate-stderr bench-dedisperse --ref "$PWD"
	assert_equal "$stderr" "bench-dedisperse: --ref $PWD: no sps-dedisperse there"
	run -2 --separate-stderr bench-dedisperse --ref
	assert_equal "$stderr" "bench-dedisperse: --ref needs a value"
}
