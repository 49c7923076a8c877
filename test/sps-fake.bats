#!/usr/bin/env bats
# sps-fake: defaults, determinism, every nbits, pulses and their S/N,
# injection into real data, errors.  Also uses sps-header and aux-snr.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

bats_require_minimum_version 1.5.0

DATA="$BATS_TEST_DIRNAME/../../shared/data"
REAL="$DATA/parkes_8bit_1.fil"

# The S/N test's layout: 64 channels of 2 MHz from 1500 MHz, 64 us, 4096
# samples, DM 100 (a sweep of 553 samples), and six pulses 500 samples
# apart, none on a sample boundary (at 200.3, 700.6, ... samples).
SNR_LAYOUT=(--nchans 64 --foff -2 --tsamp 64 --nsamples 4096)
SNR_SHAPES=(rect rect rect gauss gauss gauss)
SNR_WIDTHS=(1 7 64 1 7 64)
SNR_TIMES=(0.0128192 0.0448384 0.0768064 0.1088512 0.1408288 0.1728448)
SNR_T=0.0301234		# for single pulses

# header_bytes FILE: the header's length.
header_bytes() {
	sps-header --headersize "$1"
}

# data_od FILE: the data after the header as od -tu1 shows them.
data_od() {
	tail -c +$(($(header_bytes "$1") + 1)) "$1" | od -An -v -tu1
}

# check_snr NBITS: for each of the six pulses, each of S/N 20, the mean
# over seeds 1..20 of the S/N that aux-snr measures in the data sps-fake
# makes is within 5 % of 20.
check_snr() {
	local seed i f="$BATS_TEST_TMPDIR/snr.fil" out="$BATS_TEST_TMPDIR/snr"
	local pulses=() boxcars=()

	for i in 0 1 2 3 4 5; do
		pulses+=(--pulse "dm=100,t=${SNR_TIMES[i]},snr=20,\
width=${SNR_WIDTHS[i]}samp,shape=${SNR_SHAPES[i]}")
		boxcars+=("${SNR_TIMES[i]}" "${SNR_WIDTHS[i]}")
	done
	: >"$out"
	for seed in $(seq 1 20); do
		sps-fake -q "${SNR_LAYOUT[@]}" --nbits "$1" --seed "$seed" \
		    --nosmear "${pulses[@]}" -o "$f" || fail "sps-fake failed"
		aux-snr "$f" 100 "${boxcars[@]}" >"$out.1" ||
		    fail "aux-snr failed"
		paste -s -d ' ' "$out.1" >>"$out"
	done
	run awk '{ for (i = 1; i <= NF; i++) s[i] += $i }
	    END {
		for (i = 1; i <= 6; i++) {
			printf " %.3f", s[i] / NR
			if (NR != 20 || s[i] / NR < 19 || s[i] / NR > 21)
				bad = 1
		}
		exit bad
	    }' "$out"
	[ "$status" -eq 0 ] || fail "nbits $1: mean S/N of rect 1, 7, 64 and \
gauss 1, 7, 64 samples wide:$output"
}

# bad_usage STATUS REGEX ARGS...: exit STATUS, nothing on stdout, the
# message first on stderr, no output file left.
bad_usage() {
	local status=$1 regex=$2

	shift 2
	run "-$status" --separate-stderr sps-fake "$@" \
	    -o "$BATS_TEST_TMPDIR/out.fil"
	[[ "${stderr_lines[0]}" =~ ^sps-fake:\ $regex ]] ||
	    fail "stderr: $stderr"
	assert_equal "$output" ""
	[ ! -e "$BATS_TEST_TMPDIR/out.fil" ]
	run "-$status" --separate-stderr sps-fake "$@"
	assert_equal "$output" ""
}

@test "sps-fake: without options writes a valid noise file" {
	sps-fake -q >"$BATS_TEST_TMPDIR/a.fil"
	run -0 sps-header --nchans --nbits --tsamp --nsamples --fch1 --foff \
	    "$BATS_TEST_TMPDIR/a.fil"
	assert_equal "${lines[*]}" "128 8 80 12500 1500 -2"
	[ "$(stat -c %s "$BATS_TEST_TMPDIR/a.fil")" -eq \
	    $(($(header_bytes "$BATS_TEST_TMPDIR/a.fil") + 12500 * 128)) ]
}

@test "sps-fake: pipes into sps-header as a file reads" {
	sps-fake -q -o "$BATS_TEST_TMPDIR/a.fil"
	run -0 sps-header "$BATS_TEST_TMPDIR/a.fil"
	expected=$output
	run -0 bash -c 'set -o pipefail; sps-fake -q | sps-header -'
	assert_output "$expected"
}

@test "sps-fake: reports spectra, pulses and clipping unless -q" {
	run -0 --separate-stderr sps-fake --nsamples 16
	assert_equal "$stderr" "sps-fake: 16 spectra of 128 channels, 0 pulses;\
 0 values clipped (0%)"
	run -0 --separate-stderr sps-fake -q --nsamples 16
	assert_equal "$stderr" ""
}

@test "sps-fake: the same seed gives the same bytes, to a file or stdout" {
	sps-fake -q --seed 5 --nbits 32 --pulse t=0.5,dm=20 \
	    -o "$BATS_TEST_TMPDIR/a.fil"
	sps-fake -q --seed 5 --nbits 32 --pulse t=0.5,dm=20 \
	    >"$BATS_TEST_TMPDIR/b.fil"
	cmp "$BATS_TEST_TMPDIR/a.fil" "$BATS_TEST_TMPDIR/b.fil"
}

@test "sps-fake: a different seed gives different noise" {
	sps-fake -q --seed 5 -o "$BATS_TEST_TMPDIR/a.fil"
	sps-fake -q --seed 6 -o "$BATS_TEST_TMPDIR/b.fil"
	run -1 cmp -s "$BATS_TEST_TMPDIR/a.fil" "$BATS_TEST_TMPDIR/b.fil"
}

@test "sps-fake: a longer file begins with the shorter one's data" {
	sps-fake -q --nsamples 5000 -o "$BATS_TEST_TMPDIR/a.fil"
	sps-fake -q --nsamples 9001 -o "$BATS_TEST_TMPDIR/b.fil"
	cmp -n "$(stat -c %s "$BATS_TEST_TMPDIR/a.fil")" \
	    "$BATS_TEST_TMPDIR/a.fil" "$BATS_TEST_TMPDIR/b.fil"
}

@test "sps-fake: every nbits gives the samples and bytes asked for" {
	local b f="$BATS_TEST_TMPDIR/a.fil"

	for b in 1 2 4 8 16 32; do
		sps-fake -q --nbits "$b" --nchans 24 --nsamples 1000 -o "$f"
		run -0 sps-header --nbits --nsamples "$f"
		assert_equal "${lines[*]}" "$b 1000"
		[ "$(stat -c %s "$f")" -eq \
		    $(($(header_bytes "$f") + 1000 * 24 * b / 8)) ]
	done
}

@test "sps-fake: --tobs rounds to whole samples" {
	run -0 bash -c 'set -o pipefail; sps-fake -q --tsamp 64 --tobs 0.1 |
	    sps-header --nsamples'
	assert_output "1563"	# 1562.5, rounded half up
}

@test "sps-fake: writes no signed keyword, as SIGPROC's fake (unsigned data)" {
	run -0 bash -c 'set -o pipefail; sps-fake -q --nsamples 8 |
	    sps-header --json'
	assert_output --partial '"nbits": 8'
	refute_output --partial '"signed"'
	run -0 bash -c 'set -o pipefail; sps-fake -q --nsamples 8 --nbits 16 |
	    sps-header --json'
	refute_output --partial '"signed"'
}

@test "sps-fake: one channel writes a time series with refdm" {
	run -0 bash -c 'set -o pipefail; sps-fake -q --nchans 1 --nbits 32 \
	    --dm 26.8 --nsamples 100 | sps-header --data_type --refdm \
	    --nsamples'
	assert_equal "${lines[*]}" "2 26.8 100"
}

@test "sps-fake: a positive foff gives an ascending band" {
	run -0 bash -c 'set -o pipefail; sps-fake -q --fch1 400 --foff 0.5 \
	    --nsamples 8 | sps-header --fch1 --foff --fhigh'
	assert_equal "${lines[*]}" "400 0.5 463.5"
}

@test "sps-fake: --no-noise writes the mean, --mean and --rms set it" {
	run -0 bash -c "set -o pipefail; sps-fake -q --no-noise --nchans 8 \
	    --nsamples 64 | tail -c 512 | od -An -v -tu1 | tr -s ' ' '\n' |
	    sort -u | grep ."
	assert_output "64"
	run -0 bash -c "set -o pipefail; sps-fake -q --no-noise --mean 200 \
	    --nchans 8 --nsamples 64 | tail -c 512 | od -An -v -tu1 |
	    tr -s ' ' '\n' | sort -u | grep ."
	assert_output "200"
}

@test "sps-fake: --pulses FILE adds the same pulses as --pulse" {
	printf '%s\n' '# two pulses' '' 't=0.2,dm=50 # gaussian' \
	    't=0.6 dm=80 shape=rect' >"$BATS_TEST_TMPDIR/p.txt"
	sps-fake -q --pulses "$BATS_TEST_TMPDIR/p.txt" \
	    -o "$BATS_TEST_TMPDIR/a.fil"
	sps-fake -q --pulse t=0.2,dm=50 --pulse t=0.6,dm=80,shape=rect \
	    -o "$BATS_TEST_TMPDIR/b.fil"
	cmp "$BATS_TEST_TMPDIR/a.fil" "$BATS_TEST_TMPDIR/b.fil"
	sps-fake -q -o "$BATS_TEST_TMPDIR/c.fil"
	run -1 cmp -s "$BATS_TEST_TMPDIR/a.fil" "$BATS_TEST_TMPDIR/c.fil"
}

@test "sps-fake: S/N 20 in 32-bit output, rect and gauss, widths 1 7 64" {
	check_snr 32
}

@test "sps-fake: S/N 20 in 8-bit output, rect and gauss, widths 1 7 64" {
	check_snr 8
}

@test "sps-fake: smearing lowers a narrow pulse's S/N, --nosmear not" {
	local f="$BATS_TEST_TMPDIR/a.fil"
	local pulse="dm=1000,t=0.1,width=1samp,snr=20,shape=rect"

	# 16 MHz channels at 1500 .. 1000 MHz smear DM 1000 over 1 to 5 ms
	sps-fake -q --nchans 32 --foff -16 --tsamp 64 --nsamples 40000 \
	    --nbits 32 --pulse "$pulse" -o "$f"
	run -0 aux-snr "$f" 1000 0.1 1
	awk -v s="$output" 'BEGIN { exit !(s < 6) }' || fail "S/N $output"
	sps-fake -q --nchans 32 --foff -16 --tsamp 64 --nsamples 40000 \
	    --nbits 32 --pulse "$pulse" --nosmear -o "$f"
	run -0 aux-snr "$f" 1000 0.1 1
	awk -v s="$output" 'BEGIN { exit !(s > 16 && s < 24) }' ||
	    fail "S/N $output"
}

@test "sps-fake: a pulsar's pulses have S/N snrpeak * sqrt(width)" {
	local f="$BATS_TEST_TMPDIR/a.fil" t

	# P = 32.768 ms = 512 samples, 12.5 % = 64 samples: S/N 2.5 * 8 = 20
	sps-fake -q "${SNR_LAYOUT[@]}" --nbits 32 --nosmear \
	    --period 32.768 --width 12.5 --snrpeak 2.5 --dm 100 -o "$f"
	for t in 0.016384 0.049152 0.081920; do
		run -0 aux-snr -p 0.032768 "$f" 100 "$t" 64
		awk -v s="$output" 'BEGIN { exit !(s > 16 && s < 24) }' ||
		    fail "t $t: S/N $output"
	done
	run -0 aux-snr -p 0.032768 "$f" 100 0.032768 64	# between pulses
	awk -v s="$output" 'BEGIN { exit !(s > -4 && s < 4) }' ||
	    fail "off-pulse S/N $output"
}

@test "sps-fake: --inject keeps a real file's header, size and nbits" {
	local f="$BATS_TEST_TMPDIR/a.fil"

	run -0 --separate-stderr sps-fake --inject "$REAL" \
	    --pulse dm=50,t=0.5,width=5ms,snr=30 -o "$f"
	local regex="^sps-fake: 4096 spectra of 832 channels, 1 pulses; "

	regex+="[0-9]+ values clipped"
	[[ "$stderr" =~ $regex ]] || fail "stderr: $stderr"
	run -0 sps-header "$REAL"
	expected=$output
	run -0 sps-header "$f"
	assert_output "$expected"
	[ "$(stat -c %s "$f")" -eq "$(stat -c %s "$REAL")" ]
	run -1 cmp -s <(data_od "$REAL") <(data_od "$f")
}

@test "sps-fake: --inject - reads the standard input" {
	sps-fake -q --inject "$DATA/parkes_2bit.fil" --pulse t=1,dm=100 \
	    -o "$BATS_TEST_TMPDIR/a.fil"
	sps-fake -q --inject - --pulse t=1,dm=100 <"$DATA/parkes_2bit.fil" \
	    >"$BATS_TEST_TMPDIR/b.fil"
	cmp "$BATS_TEST_TMPDIR/a.fil" "$BATS_TEST_TMPDIR/b.fil"
	run -0 sps-header --nbits --nsamples "$BATS_TEST_TMPDIR/b.fil"
	assert_equal "${lines[*]}" "2 4096"
}

@test "sps-fake: --inject into a recording cut inside a spectrum uses its whole spectra, with one warning" {
	local T="$BATS_TEST_TMPDIR" size
	local warning="bytes after the last whole spectrum ignored (a cut recording?)"

	size=$(stat -c %s "$DATA/parkes_2bit.fil")	# 208-byte spectra
	head -c $((size - 100)) "$DATA/parkes_2bit.fil" >"$T/cut.fil"
	head -c $((size - 208)) "$DATA/parkes_2bit.fil" >"$T/whole.fil"
	sps-fake -q --inject "$T/whole.fil" --pulse t=1,dm=100 -o "$T/a.fil"
	run -0 --separate-stderr sps-fake -q --inject "$T/cut.fil" \
	    --pulse t=1,dm=100 -o "$T/b.fil"
	assert_equal "$stderr" "sps-fake: $T/cut.fil: 108 $warning"
	cmp "$T/a.fil" "$T/b.fil"
	run -0 --separate-stderr bash -c 'cat "$1" | sps-fake -q --inject - \
	    --pulse t=1,dm=100 >"$2"' _ "$T/cut.fil" "$T/c.fil"
	assert_equal "$stderr" "sps-fake: stdin: 108 $warning"
	cat "$T/whole.fil" | sps-fake -q --inject - --pulse t=1,dm=100 \
	    >"$T/d.fil"
	cmp "$T/c.fil" "$T/d.fil"
}

@test "sps-fake: an injected S/N-20 pulse in 8-bit noise measures 20" {
	local seed f="$BATS_TEST_TMPDIR/a.fil" g="$BATS_TEST_TMPDIR/b.fil"
	local out="$BATS_TEST_TMPDIR/snr"

	for seed in $(seq 1 10); do
		sps-fake -q "${SNR_LAYOUT[@]}" --seed "$seed" -o "$f"
		sps-fake -q --inject "$f" --seed "$seed" --nosmear -o "$g" \
		    --pulse "dm=100,t=$SNR_T,width=7samp,snr=20"
		aux-snr "$g" 100 "$SNR_T" 7 >>"$out"
	done
	run -0 awk '{ s += $1 } END { exit !(NR == 10 && s / NR > 19 &&
	    s / NR < 21) }' "$out"
}

@test "sps-fake: a pulse beyond the end of the data is an error" {
	local msg="--pulse 1: t=0.9 s, DM 300: its boxcar ends at 1.149[0-9]* "

	msg+="s at the bottom of the band, after the end of the data \(1 s\)$"
	bad_usage 1 "$msg" --pulse dm=300,t=0.9,width=1ms
}

@test "sps-fake: a pulse before the start of the data is an error" {
	local msg="--pulse 2: t=0.001 s, width 0.01 s: its boxcar starts at "

	msg+="-0.004 s, before the start of the data$"
	bad_usage 1 "$msg" --pulse t=0.5 --pulse t=0.001,width=10ms
}

@test "sps-fake: a pulse beyond the end of injected stdin is an error" {
	run -1 --separate-stderr bash -c "sps-fake -q --inject - \
	    --pulse t=3,dm=10 -o '$BATS_TEST_TMPDIR/out.fil' <'$REAL'"
	local regex="^sps-fake: stdin: --pulse 1: t=3 s, DM 10: its boxcar "

	[[ "$stderr" =~ $regex ]] || fail "stderr: $stderr"
	[ ! -e "$BATS_TEST_TMPDIR/out.fil" ]
}

@test "sps-fake: a negative width is an error" {
	bad_usage 2 "--pulse 't=0.5,width=-1ms': width -0.001 s is not > 0$" \
	    --pulse t=0.5,width=-1ms
}

@test "sps-fake: a pulse without t is an error" {
	bad_usage 2 "--pulse 'dm=5': no arrival time t=$" --pulse dm=5
}

@test "sps-fake: an unknown pulse key is an error" {
	bad_usage 2 "--pulse 't=1,colour=red': unknown key 'colour'" \
	    --pulse t=1,colour=red
}

@test "sps-fake: a bad line in --pulses names the file and line" {
	printf 't=0.1\nt=0.2,shape=box\n' >"$BATS_TEST_TMPDIR/p.txt"
	bad_usage 1 ".*/p.txt:2: shape: 'box' is not rect or gauss$" \
	    --pulses "$BATS_TEST_TMPDIR/p.txt"
}

@test "sps-fake: a missing --pulses file is an error" {
	bad_usage 1 "/nonexistent.txt: No such file or directory$" \
	    --pulses /nonexistent.txt
}

@test "sps-fake: an nbits outside 1, 2, 4, 8, 16, 32 is an error" {
	bad_usage 2 "--nbits: '3' is not one of 1, 2, 4, 8, 16, 32$" --nbits 3
	bad_usage 2 "--nbits: 64 is out of range \[1, 32\]$" --nbits 64
}

@test "sps-fake: nchans 0 is an error" {
	bad_usage 2 "--nchans: 0 is out of range \[1, 1048576\]$" \
	    --nchans 0
}

@test "sps-fake: a tsamp that is not a positive number is an error" {
	bad_usage 2 "--tsamp: 'abc' is not a number" --tsamp abc
	bad_usage 2 "--tsamp: -64 is out of range" --tsamp -64
}

@test "sps-fake: foff 0 is an error" {
	bad_usage 2 "--foff: '0' is zero$" --foff 0
}

@test "sps-fake: a channel at or below 0 MHz is an error" {
	bad_usage 1 "channel 100 is at 0 MHz \(not > 0\)$" --fch1 100 \
	    --nchans 200 --foff -1
}

@test "sps-fake: an unknown bandpass is an error" {
	bad_usage 2 "--bandpass: 'tilted' is not flat, parabola or gauss$" \
	    --bandpass tilted
}

@test "sps-fake: a zero pulsar duty cycle is an error" {
	bad_usage 2 "--width: '0' is not > 0$" --period 10 --width 0
}

@test "sps-fake: data that are not whole bytes are an error" {
	bad_usage 1 "5 spectra of 3 channels of 1 bits are not a whole number \
of bytes$" --nbits 1 --nchans 3 --nsamples 5
}

@test "sps-fake: --inject of a missing file is an error" {
	bad_usage 1 "/nonexistent.fil: No such file or directory$" \
	    --inject /nonexistent.fil --pulse t=1
}

@test "sps-fake: --inject of empty input is an error" {
	run -1 --separate-stderr sps-fake --inject - --pulse t=1 </dev/null
	[[ "$stderr" =~ ^sps-fake:\  ]] || fail "stderr: $stderr"
	assert_equal "$output" ""
}

@test "sps-fake: --tobs with --nsamples is a usage error" {
	bad_usage 2 "--tobs and --nsamples both give the length$" --tobs 1 \
	    --nsamples 5
}

@test "sps-fake: --inject with a layout option is a usage error" {
	bad_usage 2 "--nchans cannot be used with --inject$" --inject "$REAL" \
	    --nchans 4
}

@test "sps-fake: an unknown option or an operand is a usage error" {
	run -2 --separate-stderr sps-fake --bogus
	assert_equal "$output" ""
	[[ "$stderr" =~ unrecognized\ option ]] || fail "stderr: $stderr"
	bad_usage 2 "unexpected operand 'extra'$" extra
}

@test "sps-fake: -h prints the usage on stdout, --version the version" {
	run -0 --separate-stderr sps-fake -h
	assert_line --index 0 --regexp '^usage: sps-fake '
	run -0 sps-fake --version
	assert_output --regexp '^sps-fake [0-9]+\.[0-9]+\.[0-9]+$'
}

@test "sps-fake: the man page's examples run" {
	cd "$BATS_TEST_TMPDIR"
	sps-fake --nchans 256 --foff -1 --tsamp 64 --seed 7 \
	    --pulse dm=100,t=0.3,width=1ms,snr=15 \
	    --pulse dm=300,t=0.5,width=5samp,snr=30,shape=rect,tau=0.5ms \
	    --period 123.4 --dm 50 --snrpeak 2 -o test.fil
	run -0 sps-header --nchans --nsamples test.fil
	assert_equal "${lines[*]}" "256 15625"
	cp "$REAL" obs.fil
	cat obs.fil | sps-fake --inject - --pulse dm=56.8,t=1,snr=8 >inj.fil
	run -0 sps-header obs.fil
	expected=$output
	run -0 sps-header inj.fil
	assert_output "$expected"
}

# as gzip: binary data are not written to a terminal unless -o - says so
@test "sps-fake: binary data to a terminal are refused; -o - writes them" {
	command -v script >/dev/null || skip "no script(1) to make a terminal"
	run script -qec "sps-fake --tobs 0.01" /dev/null
	[ "$status" -eq 2 ] || fail "status $status: $output"
	[[ "$output" == *"sps-fake: binary data are not for a terminal"* ]] ||
	    fail "$output"
	run script -qec "sps-fake -q --tobs 0.01 -o - | wc -c" /dev/null
	assert_success
	[[ "$output" =~ [0-9]{4,} ]] || fail "$output"
	run script -qec "sps-dedisperse -d 10 $BATS_TEST_DIRNAME/../data/sample.fil" /dev/null
	[ "$status" -eq 2 ] || fail "status $status: $output"
}
