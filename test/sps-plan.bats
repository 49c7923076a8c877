#!/usr/bin/env bats
# sps-plan: dedisp's DM list, DDplan's golden plans, the diagonal DM,
# plan files and JSON, bad input.
# Also requires: aux-mkheader and aux-maxrss (test/aux-*.c), jq, awk,
# sps-fake, sps-dedisperse, sps-boxcar, sps-peaks and sps-search (the
# memory of each stage, measured).

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash
load need_gpu.bash

bats_require_minimum_version 1.5.0

DATA="$BATS_TEST_DIRNAME/../../shared/data"

# Heimdall's defaults: 1024 channels, 64 us, f0 1581.804688, df -0.390625.
HEIMDALL=(--nchans 1024 --fch1 1581.804688 --foff -0.390625 --tsamp 64)

# dedisp's generate_dm_list, written from the recipe in
# shared/reference/heimdall-dedisp.md 1.3 (not from sps): inputs pass
# through float32, f is the band centre in GHz from the top channel f0,
# a = 8.3 df / f^3, A = a^2, B = A n^2 / 16, C = (dt^2 + ti^2)(tol^2 - 1),
# next = (B dm + sqrt(-A B dm^2 + (A + B) K)) / (A + B) with
# K = C + tol^2 A dm^2, each DM rounded to float32 before the next step,
# until one DM >= hi.  Prints one DM per line.
reference_list() {
	awk -v n="$1" -v f0="$2" -v df="$3" -v dt="$4" -v lo="$5" -v hi="$6" \
	    -v ti="$7" -v tol="$8" '
	function f32(x,   s, e, m) {
		if (x == 0)
			return 0
		s = 1
		if (x < 0) { s = -1; x = -x }
		for (e = 0; x >= 2; e++) x /= 2
		for (; x < 1; e--) x *= 2
		m = int(x * 8388608 + 0.5) / 8388608
		for (; e > 0; e--) m *= 2
		for (; e < 0; e++) m /= 2
		return s * m
	}
	BEGIN {
		dt = f32(dt); f0 = f32(f0); df = f32(df); ti = f32(ti)
		tol = f32(tol); hi = f32(hi)
		dtus = dt * 1e6
		f = (f0 + (int(n / 2) - 0.5) * df) / 1000
		a = 8.3 * df / (f * f * f)
		A = a * a
		B = A * n * n / 16
		C = (dtus * dtus + ti * ti) * (tol * tol - 1)
		dm = f32(lo)
		printf "%.17g\n", dm
		while (dm < hi) {
			K = C + tol * tol * A * dm * dm
			x = B * dm + sqrt(-A * B * dm * dm + (A + B) * K)
			dm = f32(x / (A + B))
			printf "%.17g\n", dm
		}
	}'
}

# The DMs of a text plan, one per line.
plan_dms() {
	awk '!/^#/ && $1 ~ /^[0-9.]/ { print $1 }' "$1"
}

# same_dms A B: same count, each DM within 1e-6 relative.
same_dms() {
	paste "$1" "$2" | awk '
	    { d = $1 - $2; if (d < 0) d = -d; m = $1 < 0 ? -$1 : $1
	      if (d > 1e-6 * m) { print "line " NR ": " $1 " vs " $2; bad = 1 } }
	    END { exit bad }'
	[ "$(wc -l <"$1")" -eq "$(wc -l <"$2")" ]
}

# dedisp_case NCHANS FCH1 FOFF TSAMP_US LO HI WIDTH TOL COUNT: sps-plan
# gives the reference list (f0 is the top channel; df < 0), COUNT trials.
dedisp_case() {
	local top=$2 df=$3 dir=$BATS_TEST_TMPDIR

	if awk -v x="$3" 'BEGIN { exit !(x > 0) }'; then
		top=$(awk -v f="$2" -v d="$3" -v n="$1" \
		    'BEGIN { printf "%.17g", f + (n - 1) * d }')
		df=-$3
	fi
	run -0 sps-plan -q --nchans "$1" --fch1 "$2" --foff "$3" --tsamp "$4" \
	    --dm "$5" "$6" --dm_pulse_width "$7" --dm_tol "$8" \
	    -o "$dir/plan"
	plan_dms "$dir/plan" >"$dir/got"
	reference_list "$1" "$top" "$df" "$(awk -v t="$4" \
	    'BEGIN { printf "%.17g", t / 1e6 }')" "$5" "$6" "$7" "$8" \
	    >"$dir/want"
	run -0 same_dms "$dir/got" "$dir/want"
	assert_equal "$(wc -l <"$dir/got")" "$9"
}

@test "sps-plan: dedisp list, Heimdall's defaults: 1197 trials as dedisp" {
	dedisp_case 1024 1581.804688 -0.390625 64 0 1000 40 1.25 1197
	# the reference's own numbers
	run -0 sed -n '1p;2p;3p;1196p;1197p' "$BATS_TEST_TMPDIR/got"
	assert_equal "$(printf '%.6g ' $output)" \
	    "0 0.180007 0.360012 998.567 1001.48 "
}

@test "sps-plan: dedisp list, 4096 channels at 250-450 MHz, DM 0-2000" {
	dedisp_case 4096 450 -0.048828125 81.92 0 2000 40 1.25 8243
}

@test "sps-plan: dedisp list, ascending band, DM 10-3000, tol 1.1" {
	# f0 = 1130 + 335 = 1465 MHz, the top channel, and df = -1
	dedisp_case 336 1130 1 250 10 3000 100 1.1 809
	run -0 head -1 "$BATS_TEST_TMPDIR/got"
	assert_output 10
}

@test "sps-plan: Heimdall's DM 0-2000 list: 1435 trials, last 2003.35" {
	run -0 sps-plan -q "${HEIMDALL[@]}" --dm 0 2000
	run -0 plan_dms <(printf '%s\n' "$output")
	assert_equal "${#lines[@]}" 1435
	assert_equal "$(printf '%.6g' "${lines[1434]}")" 2003.35
}

@test "sps-plan: default is Heimdall's --dm 0 1000 --dm_tol 1.25" {
	run -0 sps-plan -q "${HEIMDALL[@]}"
	assert_line ntrials\ 1197
	assert_line "nchans 1024"
	assert_line "tsamp 6.4e-05"
}

@test "sps-plan: the header from a file, from stdin and from options agree" {
	local dir=$BATS_TEST_TMPDIR

	aux-mkheader HEADER_START telescope_id:i:4 machine_id:i:10 \
	    data_type:i:1 fch1:d:1581.804688 foff:d:-0.390625 nchans:i:1024 \
	    nbits:i:8 nifs:i:1 tstart:d:60000 tsamp:d:64e-6 HEADER_END \
	    @data:4096 >"$dir/h.fil"
	sps-plan -q "${HEIMDALL[@]}" | grep -v '^#' >"$dir/a"
	sps-plan -q "$dir/h.fil" | grep -v '^#' >"$dir/b"
	sps-plan -q - <"$dir/h.fil" | grep -v '^#' >"$dir/c"
	sps-plan -q <"$dir/h.fil" | grep -v '^#' >"$dir/d"
	cmp "$dir/a" "$dir/b"
	cmp "$dir/a" "$dir/c"
	cmp "$dir/a" "$dir/d"
	# options change what the file says
	run -0 sps-plan -q --tsamp 128 "$dir/h.fil"
	assert_line "tsamp 0.000128"
}

@test "sps-plan: a real file: channels, band and work for its length" {
	run -0 --separate-stderr sps-plan --dm 0 100 "$DATA/parkes_8bit_1.fil"
	[[ "$stderr" == *"832 channels, 4030 to 706 MHz, tsamp 512 us"* ]] ||
	    fail "$stderr"
	[[ "$stderr" == *"for 4096 samples"* ]] || fail "$stderr"
	assert_line "nchans 832"
}

@test "sps-plan: a file cut inside a spectrum: its whole spectra, one warning, also with -q" {
	local f="$BATS_TEST_TMPDIR/cut.fil"

	head -c $(($(stat -c %s "$DATA/parkes_8bit_1.fil") - 100)) \
	    "$DATA/parkes_8bit_1.fil" >"$f"
	run -0 --separate-stderr sps-plan --dm 0 100 "$f"
	[[ "$stderr" == *"for 4095 samples"* ]] || fail "$stderr"
	run -0 grep -c "bytes after the last whole spectrum" <<<"$stderr"
	assert_output 1
	run -0 --separate-stderr sps-plan -q --dm 0 100 "$f"
	assert_equal "$stderr" "sps-plan: $f: 732 bytes after the last whole spectrum ignored (a cut recording?)"
}

# The rows of DDplan's table on stderr (6 or 9 fields; the range table
# has 12), fields separated by one space.
ddplan_rows() {
	printf '%s\n' "$1" | awk '$1 ~ /^[0-9]+\.[0-9]+$/ && (NF == 6 ||
	    NF == 9) { $1 = $1; print }'
}

@test "sps-plan: DDplan's golden plan of tests/dedisp.py, exactly" {
	# DDplan.py -d 200 -t 0.000072 -s 32 -n 96 -b 48 -f 820
	run -0 --separate-stderr sps-plan --ddplan -d 200 -t 0.000072 -s 32 \
	    -n 96 -b 48 -f 820
	run -0 ddplan_rows "$stderr"
	assert_equal "$output" "$(cat <<-EOF
	0.000 38.400 0.20 1 4.80 192 24 8 0.7273
	38.400 60.000 0.30 2 7.20 72 24 3 0.1364
	60.000 108.000 0.50 4 12.00 96 24 4 0.09091
	108.000 204.000 1.00 8 24.00 96 24 4 0.04545
	EOF
	)"
}

@test "sps-plan: DDplan's tutorial plan, and its trials in the plan" {
	# DDplan.py -d 500 -n 96 -b 96 -t 0.000072 -f 1400 -s 32 -r 0.5:
	# dDM 2/3, D 4/8, dsubDM 48/72, calls 7/3, start DMs 0/336
	run -0 --separate-stderr sps-plan --ddplan -d 500 -n 96 -b 96 \
	    -t 0.000072 -f 1400 -s 32 -r 0.5 -o "$BATS_TEST_TMPDIR/plan"
	run -0 ddplan_rows "$stderr"
	run -0 awk '{ print $1, $3, $4, $5, $8 }' <<<"$output"
	assert_equal "$output" "$(printf '%s\n' '0.000 2.00 4 48.00 7' \
	    '336.000 3.00 8 72.00 3')"
	# 7 calls x 24 DMs at scrunch 4, then 3 x 24 at 8
	run -0 awk '!/^#/ && NF == 2 && $1 ~ /^[0-9]/ { n[$2]++ }
	    END { print n[4], n[8] }' "$BATS_TEST_TMPDIR/plan"
	assert_output "168 72"
}

@test "sps-plan: DDplan's long spellings and --dm do the same" {
	run -0 sps-plan -q --ddplan --hiDM 200 --dt 0.000072 --subbands 32 \
	    --numchan 96 --bw 48 --fctr 820
	local a=$output
	run -0 sps-plan -q --ddplan --dm 0 200 --nchans 96 --fch1 843.75 \
	    --foff -0.5 --tsamp 72 -s 32
	assert_equal "$(grep -v '^#' <<<"$output")" "$(grep -v '^#' <<<"$a")"
}

@test "sps-plan: DDplan downsampling that is not a power of 2 is refused" {
	run -1 --separate-stderr sps-plan --ddplan -k 2400
	[[ "$stderr" == "sps-plan: DDplan chose downsampling 3 "*"power of 2"* ]] ||
	    fail "$stderr"
	assert_equal "$output" ""
}

@test "sps-plan: DDplan running out of downsampling factors is an error" {
	run -1 --separate-stderr sps-plan -q --ddplan -k 1 -d 5000
	[[ "$stderr" == "sps-plan: DDplan: no downsampling factor"* ]] ||
	    fail "$stderr"
}

# Barsdell eq. 21 (N' = 1) for 2 channels, fch1 1000 MHz, foff -250 MHz,
# tsamp 64 us: nu_N = 500 MHz, nu_(N-1) = 750 MHz, 1/500^2 - 1/750^2 =
# 1/450000, so the delay across the last channel is 4148.808 / (64e-6 x
# 450000) = 144.0558 samples per unit DM and DM_diag = 0.5 / 144.0558 =
# 0.0034708765.  Trials scrunch by 2 above 2 DM_diag = 0.006941753, by 4
# above 0.013883506.
@test "sps-plan: the diagonal DM of eq. 21 and the scrunch factors" {
	local obs=(--nchans 2 --fch1 1000 --foff -250 --tsamp 64)

	run -0 sps-plan -q "${obs[@]}" --step 0.0069 0.00005 6 --scrunch --json
	assert_equal "$(jq -r '.diagonal_dm' <<<"$output")" 0.003470876454
	assert_equal "$(jq -c '[.trials[].scrunch]' <<<"$output")" \
	    '[1,2,2,2,2,2]'
	run -0 sps-plan -q "${obs[@]}" --step 0.0138 0.00005 3 --scrunch \
	    --json
	assert_equal "$(jq -c '[.trials[].scrunch]' <<<"$output")" '[2,2,4]'
	run -0 sps-plan -q "${obs[@]}" --step 1 1 3 --scrunch --max_scrunch 64 \
	    --json
	assert_equal "$(jq -c '[.trials[].scrunch]' <<<"$output")" \
	    '[64,64,64]'
}

@test "sps-plan: scrunching splits the table into ranges" {
	run -0 --separate-stderr sps-plan "${HEIMDALL[@]}" --scrunch --json
	assert_equal "$(jq -c '[.ranges[].scrunch]' <<<"$output")" \
	    '[1,2,4,8,16,32]'
	assert_equal "$(jq '.ranges[1].dm_lo > 2 * .diagonal_dm' \
	    <<<"$output")" true
	[[ "$stderr" == *"diagonal DM 16.3"* ]] || fail "$stderr"
}

@test "sps-plan: 65536 channels work" {
	run -0 --separate-stderr sps-plan --nchans 65536 --fch1 1500 \
	    --foff -0.006103515625 --tsamp 64 --dm 0 2000 --scrunch \
	    --subband 256 --json
	assert_equal "$(jq '.nchans' <<<"$output")" 65536
	[ "$(jq '.ntrials' <<<"$output")" -gt 1000 ]
	[[ "$stderr" == *"65536 channels"* ]] || fail "$stderr"
}

@test "sps-plan: JSON is an object with trials [{dm, scrunch}] in order" {
	run -0 sps-plan -q "${HEIMDALL[@]}" --json
	assert_equal "$(jq -r 'type' <<<"$output")" object
	assert_equal "$(jq '.trials | length' <<<"$output")" 1197
	assert_equal "$(jq '.ntrials' <<<"$output")" 1197
	assert_equal "$(jq -c '[.trials[] | keys] | unique' <<<"$output")" \
	    '[["dm","scrunch"]]'
	assert_equal "$(jq '[.trials[].dm] | . == sort' <<<"$output")" true
	assert_equal "$(jq '.trials[0].dm, .trials[1].scrunch' <<<"$output" |
	    tr '\n' ' ')" "0 1 "
	# compared as numbers: jq 1.6 prints 6.4e-05, jq 1.7 0.000064
	assert_equal "$(jq -r '.mode, .nchans, .tsamp == 6.4e-05' <<<"$output" |
	    tr '\n' ' ')" "dedisp 1024 true "
}

@test "sps-plan: a plan file read back gives the same plan" {
	local dir=$BATS_TEST_TMPDIR

	sps-plan -q "${HEIMDALL[@]}" --scrunch -o "$dir/a.plan"
	sps-plan -q --list "$dir/a.plan" -o "$dir/b.plan"
	sps-plan -q --list "$dir/b.plan" -o "$dir/c.plan"
	diff <(grep -v '^#' "$dir/a.plan") <(grep -v '^#' "$dir/b.plan")
	diff <(grep -v '^#' "$dir/b.plan") <(grep -v '^#' "$dir/c.plan")
	run -0 sps-plan -q --list "$dir/a.plan" --json
	assert_equal "$(jq '.trials | length' <<<"$output")" 1197
	# a plan for other data is refused
	run -1 --separate-stderr sps-plan -q --list "$dir/a.plan" --nchans 512 \
	    --fch1 1581.804688 --foff -0.390625 --tsamp 64
	assert_equal "$stderr" \
	    "sps-plan: $dir/a.plan: the plan is for 1024 channels, the data have 512"
}

@test "sps-plan: --step ranges, and a list without a header" {
	local dir=$BATS_TEST_TMPDIR

	run -0 --separate-stderr sps-plan "${HEIMDALL[@]}" --step 0 0.5 10 \
	    --step 10 1 5 --json
	assert_equal "$(jq -c '[.trials[].dm]' <<<"$output")" \
	    '[0,0.5,1,1.5,2,2.5,3,3.5,4,4.5,10,11,12,13,14]'
	assert_equal "$(jq '.ranges | length' <<<"$output")" 2
	printf '# DM list\n1\n2 2\n5 4\n' >"$dir/list"
	run -0 sps-plan -q "${HEIMDALL[@]}" --list "$dir/list" --json
	assert_equal "$(jq -c '[.trials[] | [.dm, .scrunch]]' <<<"$output")" \
	    '[[1,1],[2,2],[5,4]]'
}

@test "sps-plan: the sub-band term appears with --subband" {
	run -0 sps-plan -q "${HEIMDALL[@]}" --json
	assert_equal "$(jq '[.ranges[].smearing_s.subband] | max' \
	    <<<"$output")" 0
	run -0 sps-plan -q "${HEIMDALL[@]}" --subband 32 --json
	assert_equal "$(jq '[.ranges[].smearing_s.subband] | min > 0' \
	    <<<"$output")" true
}

@test "sps-plan: -q is silent; the table and memory go to stderr" {
	run -0 --separate-stderr sps-plan -q "${HEIMDALL[@]}"
	assert_equal "$stderr" ""
	run -0 --separate-stderr sps-plan "${HEIMDALL[@]}" --nsamps_gulp 1000
	[[ "$stderr" == *"memory in MiB, blocks of 1000 samples + "* ]] ||
	    fail "$stderr"
	[[ "$stderr" == *"t_step"*"t_chan"* ]] || fail "$stderr"
}

@test "sps-plan: -o writes the file; a full disk is an error" {
	# (not -o /dev/full: run as root, the rename would replace it)
	run -0 sps-plan -q "${HEIMDALL[@]}" -o "$BATS_TEST_TMPDIR/p"
	assert_output ""
	run -0 grep -c '^[0-9]' "$BATS_TEST_TMPDIR/p"
	assert_output 1197
	run -1 --separate-stderr sh -c 'sps-plan -q "$@" >/dev/full' sh \
	    "${HEIMDALL[@]}"
	[[ "$stderr" == sps-plan:* ]] || fail "$stderr"
}

@test "sps-plan: the memory table has every stage, on the CPU and a GPU" {
	local stage

	run -0 --separate-stderr sps-plan "${HEIMDALL[@]}" --dm 0 100
	for stage in sps-dedisperse sps-boxcar sps-peaks sps-search; do
		run -0 awk -v s="$stage" '$1 == s && NF == 4 && $2 > 0 &&
		    $3 > 0 { n++ } END { exit n != 1 }' <<<"$stderr"
	done
	run -0 sps-plan -q "${HEIMDALL[@]}" --dm 0 100 --json
	assert_equal "$(jq -c '.memory | keys' <<<"$output")" \
	    '["sps-boxcar","sps-dedisperse","sps-peaks","sps-search"]'
	# the search holds more than dedispersion alone, on either engine
	assert_equal "$(jq '.memory as $m | $m["sps-search"].cpu >
	    $m["sps-dedisperse"].cpu and $m["sps-search"].gpu_device >
	    $m["sps-dedisperse"].gpu_device' <<<"$output")" true
	assert_equal "$(jq '.memory_bytes == .memory["sps-dedisperse"].cpu' \
	    <<<"$output")" true
}

# measured STAGE: the peak memory of STAGE in $dir/STAGE.rss, and
# predicted STAGE: what the plan in $dir/plan.json says, bytes.
measured() {
	cat "$dir/$1.rss"
}

predicted() {
	jq ".memory[\"$1\"].cpu" "$dir/plan.json"
}

# memory_case ARGS...: each stage's peak memory on the CPU, searching
# $dir/in.fil with the dedisp list of ARGS, is below sps-plan's prediction
# by less than 25 % of it; sps-peaks, which holds no data (the program
# alone, about 8.5 MiB), by less than half.
memory_case() {
	local stage m p

	# each thread's scratch is predicted whole, though a thread touches
	# only what its trials need: on 2 threads, the same on any machine
	export OMP_NUM_THREADS=2
	sps-plan -q --json "$@" "$dir/in.fil" >"$dir/plan.json"
	aux-maxrss "$dir/sps-dedisperse.rss" sps-dedisperse -q --cpu "$@" \
	    "$dir/in.fil" >"$dir/in.dmt"
	aux-maxrss "$dir/sps-boxcar.rss" sps-boxcar -q --cpu "$dir/in.dmt" \
	    >"$dir/in.ev"
	aux-maxrss "$dir/sps-peaks.rss" sps-peaks -q "$dir/in.ev" >/dev/null
	aux-maxrss "$dir/sps-search.rss" sps-search -q --cpu "$@" \
	    "$dir/in.fil" >/dev/null
	for stage in sps-dedisperse sps-boxcar sps-peaks sps-search; do
		m=$(measured "$stage")
		p=$(predicted "$stage")
		awk -v m="$m" -v p="$p" -v s="$stage" 'BEGIN {
		    printf "%s: predicted %.1f MiB, measured %.1f MiB\n", s,
			p / 1048576, m / 1048576
		    exit !(p >= m && p <= (s == "sps-peaks" ? 1.5 : 1.25) * m) }' ||
		    fail "$*: $stage"
	done
}

@test "sps-plan: each stage's memory is predicted within 25 %, from above" {
	local dir=$BATS_TEST_TMPDIR

	# sanitizers' shadow memory and quarantine are not the program's
	ldd "$(command -v sps-boxcar)" | grep -q libasan &&
	    skip "built with AddressSanitizer"
	sps-fake -q --nchans 256 --tsamp 64 --fch1 1500 --foff -1 --tobs 8 \
	    -o "$dir/in.fil"
	memory_case --dm 0 500
	# the boxcar stage is mostly windows of samples per trial, not the
	# program
	[ "$(predicted sps-boxcar)" -gt $((4 * $(predicted sps-peaks))) ]
	# scrunched trials, fewer samples each
	memory_case --dm 0 2000 --scrunch
}

@test "sps-plan: a file shorter than a block and a noise window: memory of its length" {
	local dir=$BATS_TEST_TMPDIR

	ldd "$(command -v sps-boxcar)" | grep -q libasan &&
	    skip "built with AddressSanitizer"
	cp "$DATA/parkes_8bit_1.fil" "$dir/in.fil"
	memory_case --dm 0 150
}

# The GPU's figures, as sps-dedisperse and sps-search report them.
@test "sps-plan: the GPU memory predicted is what the GPU engines hold" {
	local dir=$BATS_TEST_TMPDIR dd search

	need_gpu
	sps-fake -q --nchans 256 --tsamp 64 --fch1 1500 --foff -1 --tobs 8 \
	    -o "$dir/in.fil"
	sps-plan -q --json --dm 0 500 "$dir/in.fil" >"$dir/plan.json"
	sps-dedisperse --gpu --dm 0 500 "$dir/in.fil" 2>"$dir/dd.err" \
	    >/dev/null
	dd=$(sed -n 's/.* and \([0-9]*\) MB (GPU).*/\1/p' "$dir/dd.err")
	grep -q "in gulps of $(jq .gpu_gulp "$dir/plan.json") " "$dir/dd.err" ||
	    fail "$(cat "$dir/dd.err")"
	run -0 --separate-stderr sps-search --gpu --dm 0 500 "$dir/in.fil"
	search=$(sed -n 's/.*GPU memory \([0-9]*\) MB.*/\1/p' <<<"$stderr")
	run -0 jq --argjson dd "$dd" --argjson s "$search" '.memory as $m |
	    ($m["sps-dedisperse"].gpu_device / 1048576 / $dd) as $a |
	    ($m["sps-search"].gpu_device / 1048576 / $s) as $b |
	    [$a, $b] | map(. > 0.95 and . < 1.25) | all' "$dir/plan.json"
	assert_output true
}

# bad REGEX ARGS...: exit 1 (2 with BAD_STATUS=2), one line "sps-plan:
# ..." matching REGEX.
bad() {
	local regex=$1

	shift
	run "-${BAD_STATUS:-1}" --separate-stderr sps-plan -q "$@"
	assert_equal "$output" ""
	assert_equal "${#stderr_lines[@]}" 1
	[[ "$stderr" =~ ^sps-plan:\ .*$regex ]] || fail "$stderr"
}

# bad_list REGEX TEXT: a --list file holding TEXT is refused.
bad_list() {
	printf "$2" >"$BATS_TEST_TMPDIR/list"
	bad "$1" "${HEIMDALL[@]}" --list "$BATS_TEST_TMPDIR/list"
}

@test "sps-plan: negative DM" {
	BAD_STATUS=2 bad "--dm LO: -5 is out of range" "${HEIMDALL[@]}" \
	    --dm -5 10
	bad_list "line 2: DM is negative" '1\n-2\n'
}

@test "sps-plan: DM list not ascending" {
	bad_list "line 3: DM is not above the DM before it" '1\n3\n2\n'
	bad_list "not above" '1\n1\n'
	bad "trial 10: DM 5 is not above the DM before it, 9" \
	    "${HEIMDALL[@]}" --step 0 1 10 --step 5 1 10
}

@test "sps-plan: a scrunch factor that is not a power of 2" {
	bad_list "line 1: scrunch factor is not a power of 2: '3'" '1 3\n'
	bad "largest scrunch factor 12 is not a power of 2" "${HEIMDALL[@]}" \
	    --max_scrunch 12
}

@test "sps-plan: an empty list" {
	bad_list "no DM trials" ''
	bad_list "no DM trials" '# nothing\n\n'
}

@test "sps-plan: high DM below low DM" {
	bad "high DM is below the low DM" "${HEIMDALL[@]}" --dm 100 10
	bad "need 0 <= low DM < high DM" --ddplan --dm 100 10
}

@test "sps-plan: garbage in the list file" {
	bad_list "line 2: not a DM: '1.5x'" '1\n1.5x\n'
	bad_list "line 1: unknown key 'hello'" 'hello world\n'
	bad_list "line 1: more than two fields" '1 1 1\n'
	printf '\0\1\2\3' >"$BATS_TEST_TMPDIR/bin"
	bad "NUL byte" "${HEIMDALL[@]}" --list "$BATS_TEST_TMPDIR/bin"
	bad "nothere: No such file" "${HEIMDALL[@]}" --list \
	    "$BATS_TEST_TMPDIR/nothere"
}

@test "sps-plan: a truncated plan file" {
	sps-plan -q "${HEIMDALL[@]}" -o "$BATS_TEST_TMPDIR/p"
	head -100 "$BATS_TEST_TMPDIR/p" >"$BATS_TEST_TMPDIR/t"
	bad "ntrials says 1197, but 91 trials follow" --list \
	    "$BATS_TEST_TMPDIR/t"
}

@test "sps-plan: bad tolerance, width and observation values" {
	bad "dm_tol 1 must be above 1" "${HEIMDALL[@]}" --dm_tol 1
	BAD_STATUS=2 bad "dm_pulse_width" "${HEIMDALL[@]}" --dm_pulse_width -1
	bad "foff 0 MHz" --nchans 4 --fch1 1400 --foff 0 --tsamp 64
	bad "reaches 0 MHz" --nchans 4096 --fch1 1400 --foff -1 --tsamp 64
	bad "tsamp 0 s" --nchans 4 --fch1 1400 --foff -1 --tsamp 0
	bad "more sub-bands|sub-bands is not in" "${HEIMDALL[@]}" --subband 2048
}

@test "sps-plan: a bad header file" {
	printf 'not a filterbank' >"$BATS_TEST_TMPDIR/x"
	run -1 --separate-stderr sps-plan -q "$BATS_TEST_TMPDIR/x"
	[[ "$stderr" == sps-plan:* ]] || fail "$stderr"
	run -1 --separate-stderr sps-plan -q </dev/null
	[[ "$stderr" == "sps-plan: stdin: empty input"* ]] || fail "$stderr"
}

# usage ARGS...: exit 2 with "sps-plan: ..." and the usage text.
usage() {
	run -2 --separate-stderr sps-plan "$@"
	[[ "$stderr" == sps-plan:* ]] || fail "$stderr"
	[[ "$stderr" == *"usage: sps-plan"* ]] || fail "$stderr"
}

@test "sps-plan: usage errors exit 2" {
	usage --bogus
	usage "${HEIMDALL[@]}" --dm 0
	usage "${HEIMDALL[@]}" --step 0 1
	usage "${HEIMDALL[@]}" --ddplan --step 0 1 10
	usage "${HEIMDALL[@]}" --step 0 1 10 --dm_tol 1.5
	usage "${HEIMDALL[@]}" --step 0 1 10 --dm 0 10
	usage "${HEIMDALL[@]}" -d 200
	usage --ddplan --scrunch
	usage --nchans 1024 --fch1 1400
	usage "${HEIMDALL[@]}" a b
}

@test "sps-plan: -h and --version" {
	run -0 sps-plan -h
	assert_line --index 0 --partial "usage: sps-plan"
	run -0 sps-plan --version
	assert_output --regexp '^sps-plan [0-9]+\.[0-9]+'
}

@test "sps-plan: the man page passes mandoc -Tlint" {
	command -v mandoc >/dev/null || skip "no mandoc"
	run -0 mandoc -Tlint -W warning "$BATS_TEST_DIRNAME/../man/sps-plan.1"
	assert_output ""
}

@test "sps-plan: the S/N column is for pulse widths the search covers, not dedisp's 40 us" {
	# 1.27 ms samples: a 40 us pulse kept 8.7% of its S/N, which alarms;
	# a pulse one sample wide keeps 48.1%, a 1 ms one 42.9%
	run -0 --separate-stderr sps-plan -o /dev/null \
	    "$DATA/src1_small.fil" --dm 0 1000
	[[ "$stderr" =~ "S/N kept by a pulse as wide as the narrowest boxcar (b = tsamp x scr) and by a 1 ms pulse:" ]] ||
	    fail "$stderr"
	[[ "$stderr" != *"40 us"* ]] || fail "$stderr"
	run -0 awk '$1 == "0.000" { print $(NF - 1), $NF }' <<<"$stderr"
	assert_output "48.1% 42.9%"
	# scrunched ranges: the narrowest boxcar is tsamp x scr
	run -0 --separate-stderr sps-plan -o /dev/null --scrunch \
	    "$DATA/parkes_8bit_1.fil" --dm 0 30
	run -0 awk '$6 == 4 { print $7, $(NF - 1) }' <<<"$stderr"
	assert_output "2.048 66.4%"
}
