#!/usr/bin/env bats
# sps-boxcar: usage, predicted losses, events and their conventions,
# S/N of pulses in Gaussian noise, noise-only event counts, scrunched
# trials, block and thread independence, the S/N plane, bad input.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

bats_require_minimum_version 1.5.0

T="$BATS_TEST_TMPDIR"

# fil FILE ARGS...: a small 16-channel 32-bit filterbank, 64 us samples.
fil() {
	local out=$1

	shift
	sps-fake --nchans 16 --nbits 32 --tsamp 64 --fch1 1500 --foff -4 \
	    -q -o "$out" "$@"
}

# tim_header: the header of a 32-bit time series (64 us samples).
tim_header() {
	aux-mkheader HEADER_START source_name:s:t data_type:i:2 nchans:i:1 \
	    nbits:i:"${1:-32}" nifs:i:1 tsamp:d:6.4e-5 tstart:d:60000 \
	    fch1:d:1400 refdm:d:0 HEADER_END
}

# events FILE: the event lines (no header) of sps-boxcar's output.
events() {
	grep -v '^#' "$1" || true
}

# bad_input REGEX FILE [ARGS]: exit 1, one line on stderr, nothing out.
bad_input() {
	local regex=$1 file=$2

	shift 2
	run -1 --separate-stderr sps-boxcar "$@" "$file"
	assert_equal "$output" ""
	assert_equal "${#stderr_lines[@]}" 1
	[[ "$stderr" =~ ^sps-boxcar:\ .*$regex ]] || fail "stderr: $stderr"
}

@test "sps-boxcar: --help prints the usage on stdout and exits 0" {
	run -0 --separate-stderr sps-boxcar --help
	assert_line --index 0 --regexp '^usage: sps-boxcar '
	assert_equal "$stderr" ""
	run -0 sps-boxcar --version
	assert_output --regexp '^sps-boxcar [0-9]'
}

@test "sps-boxcar: usage errors exit 2 with the usage" {
	run -2 --separate-stderr sps-boxcar --no-such-option
	[[ "$stderr" =~ usage:\ sps-boxcar ]]
	run -2 --separate-stderr sps-boxcar -a BD-0 x
	assert_equal "${stderr_lines[0]}" "sps-boxcar: -a BD-0: unknown algorithm 'BD-0' (BD-8, BD-16, BD-32, BD-N[,N...], IG1, IG2, IG3, DIT, exhaustive)"
	run -2 --separate-stderr sps-boxcar -w 8 --max-width-s 0.1 x
	[[ "${stderr_lines[0]}" =~ ^sps-boxcar:\ give\ -w ]]
	run -2 --separate-stderr sps-boxcar a b
	[[ "${stderr_lines[0]}" =~ one\ input\ file ]]
	run -2 --separate-stderr sps-boxcar --loss x
	[[ "${stderr_lines[0]}" =~ read\ no\ input ]]
	run -2 --separate-stderr sps-boxcar --outlier 1 x
	[[ "${stderr_lines[0]}" =~ ^sps-boxcar:\ --outlier\ 1: ]]
	run -2 --separate-stderr sps-boxcar -w 0 x
	assert_equal "$stderr" "sps-boxcar: -w: 0 is out of range [1, 16777216]"
	run -2 --separate-stderr sps-boxcar -s -3 x
	assert_equal "$stderr" "sps-boxcar: -s: -3 is out of range [0, 1e+06]"
	run -2 --separate-stderr sps-boxcar -w x1 x
	assert_equal "$stderr" "sps-boxcar: -w: 'x1' is not an integer"
}

@test "sps-boxcar: --loss prints the predicted losses of the algorithm" {
	run -0 sps-boxcar --loss -a BD-16 -w 256
	assert_line --index 0 "# BD-16, widths up to 256 samples, 30.06 boxcars per sample"
	assert_line --regexp '^ +16 +0\.0000 +0\.0000 +0\.0000 +0\.0000$'
	# widths 16 and 18 about 17: 1 - sqrt(17/18); the mean over 1..17
	assert_line --regexp '^ +17 +0\.0282 +0\.0282 +0\.0017 +0\.0017$'
	# width 18 every 2 samples: at worst it covers 17 of 18
	assert_line --regexp '^ +18 +0\.0000 +0\.0513 '
	assert_line --regexp '^ +256 +0\.0000 '
	# IG(1): widths 1 2 3 4 6 about 5: 1 - sqrt(5/6)
	run -0 sps-boxcar --loss -a 'IG(1)' -w 8
	assert_line --index 0 --regexp '^# IG\(1\), widths up to 8 samples'
	assert_line --regexp '^ +5 +0\.0871 '
	run -0 sps-boxcar --loss -a exhaustive -w 40
	refute_line --regexp '^ +[0-9]+ .*[1-9]'
}

# the check itself, and its failure, are unit-boxcar_check's
@test "sps-boxcar: --bench prints rates only after checking the search against the reference" {
	run -0 --separate-stderr sps-boxcar --bench -a 'IG(1)' -w 24 -t 1
	assert_equal "$stderr" ""
	assert_line --index 0 --regexp '^IG\(1\), widths 1\.\.24 \(.*\), 2 trials of 1048576 samples, 1 threads:$'
	assert_line --index 1 --regexp '^  checked: +65536 starts \(the first and last windows of 32768\) agree with the reference$'
	assert_line --index 2 --regexp '^  search: +[0-9.]+ G samples/s'
	assert_line --index 3 --regexp '^  noise and search: +[0-9.]+ G samples/s'
	assert_equal "${#lines[@]}" 4
}

@test "sps-boxcar: events name the first base sample and width of the boxcar" {
	fil "$T/p.fil" --nsamples 40000 --seed 5 \
	    --pulse 'dm=0,t=10020samp,width=40samp,snr=30,shape=rect'
	sps-dedisperse -q -d 0 "$T/p.fil" >"$T/p.tim"
	run -0 --separate-stderr sps-boxcar -q -a exhaustive -w 64 "$T/p.tim"
	assert_line --index 0 '# sps-events 1'
	assert_line '# algorithm exhaustive'
	assert_line '# max_width 64'
	assert_line '# tsamp 6.4e-05'
	assert_line '# dm_index dm sample time width snr'
	assert_equal "$stderr" ""
	events <(printf '%s\n' "$output") >"$T/ev"
	run awk '$6 > 20' "$T/ev"
	assert_output --regexp '^0 0\.000000 10000 0\.640000000 40 (29|3[0-2])\.[0-9]{4}$'
	run -0 sps-boxcar -q -a exhaustive -w 64 -s 1000 "$T/p.tim"
	[ "$(events <(printf '%s\n' "$output") | wc -l)" -eq 0 ]
}

@test "sps-boxcar: pulses of S/N 20 in Gaussian noise come out at 20 times (1 - systematic loss)" {
	local w i=0 lines=()

	for w in 1 2 3 5 8 13 17 24 33 50 64 100 150 200; do
		i=$((i + 1))
		lines+=("dm=0,t=$((i * 6037)).$((w % 2 * 5))samp,width=${w}samp,snr=20,shape=rect")
	done
	printf '%s\n' "${lines[@]}" >"$T/pulses"
	fil "$T/g.fil" --nsamples 100000 --seed 3 --pulses "$T/pulses"
	sps-dedisperse -q --dm 0 20 "$T/g.fil" |
	    sps-boxcar -q -a BD-16 -w 256 -o "$T/g.ev"
	sps-boxcar --loss -a BD-16 -w 256 >"$T/loss"
	# per pulse: found at DM index 0 within one width of its start, S/N
	# within 20% of the prediction, the mean within 10%
	run -0 awk -v pulses="$T/pulses" '
	    FILENAME == ARGV[1] && !/^#/ { sys[$1] = $2; next }
	    /^#/ || $1 != 0 { next }
	    { ev[++n] = $0; s[n] = $3; w[n] = $5; snr[n] = $6 }
	    END {
		while ((getline line < pulses) > 0) {
			split(line, f, /[=,]/); t = f[4]; sub(/samp/, "", t)
			wid = f[6]; sub(/samp/, "", wid); start = int(t - wid / 2)
			best = 0
			for (i = 1; i <= n; i++)
				if (s[i] >= start - wid && s[i] <= start + wid &&
				    snr[i] > best)
					best = snr[i]
			want = 20 * (1 - sys[wid])
			if (best < 0.8 * want || best > 1.2 * want) {
				printf "width %d at %d: S/N %g, want %g\n", wid,
				    start, best, want; bad = 1
			}
			sum += best / want; k++
		}
		printf "mean ratio %.3f over %d pulses\n", sum / k, k
		if (bad || k != 14 || sum / k < 0.9 || sum / k > 1.1)
			exit 1
	    }' "$T/loss" "$T/g.ev"
}

@test "sps-boxcar: noise alone gives the Gaussian tail's count of events" {
	# 8 trials at DMs 400 apart: their delays differ by about 8 samples
	# per channel, so the trials are independent; 2^20 samples each.
	fil "$T/n.fil" --nsamples 1052576 --seed 11
	sps-plan -q --step 0 400 8 "$T/n.fil" >"$T/plan"
	sps-dedisperse -q --plan "$T/plan" "$T/n.fil" >"$T/n.dmt"
	N=$((8 * 1048576))
	# width 1: every sample is one independent test, so the count is
	# N Q(t).  DIT, widths 1 .. 64: width 2^k has N / 2^k independent
	# boxcars, N (2 - 1/64) tests in all (overlapping boxcars of other
	# widths are correlated, so a few fewer events).
	for t in 4 4.5; do
		# Q(t) by Abramowitz & Stegun 26.2.17
		q=$(awk -v t=$t 'BEGIN {
		    p = 0.2316419; b1 = 0.319381530; b2 = -0.356563782
		    b3 = 1.781477937; b4 = -1.821255978; b5 = 1.330274429
		    k = 1 / (1 + p * t)
		    s = k * (b1 + k * (b2 + k * (b3 + k * (b4 + k * b5))))
		    printf "%.6g", exp(-t * t / 2) / sqrt(2 * 3.14159265358979) * s }')
		n1=$(sps-boxcar -q -a exhaustive -w 1 -s $t "$T/n.dmt" | events /dev/stdin | wc -l)
		nd=$(sps-boxcar -q -a DIT -w 64 -s $t "$T/n.dmt" | events /dev/stdin | wc -l)
		run awk -v n1=$n1 -v nd=$nd -v N=$N -v q=$q 'BEGIN {
		    e1 = N * q; ed = N * (2 - 1 / 64) * q
		    printf "width 1: %d events, %.1f expected; DIT: %d, %.1f\n",
			n1, e1, nd, ed
		    exit !(n1 > e1 / 2 && n1 < 2 * e1 && nd > ed / 2 && nd < 2 * ed) }'
		[ "$status" -eq 0 ] || fail "threshold $t: $output"
	done
	# at 6 sigma, 0.008 events are expected from these 8.4 M tests
	[ "$(sps-boxcar -q -a exhaustive -w 1 "$T/n.dmt" | events /dev/stdin | wc -l)" -eq 0 ]
}

@test "sps-boxcar: a scrunched trial reports base samples and widths" {
	fil "$T/s.fil" --nsamples 60000 --seed 2 \
	    --pulse 'dm=0,t=30016samp,width=32samp,snr=40,shape=rect'
	printf '0 1\n0.01 4\n' >"$T/plan"
	sps-dedisperse -q --plan "$T/plan" "$T/s.fil" >"$T/s.dmt"
	run -0 sps-boxcar -q -a exhaustive -w 64 -s 20 "$T/s.dmt"
	events <(printf '%s\n' "$output") >"$T/ev"
	run awk '$1 == 0 && $6 > 30' "$T/ev"
	assert_output --regexp '^0 0\.000000 30000 1\.920000000 32 '
	# trial 1 sums 4 samples: boxcar 7500 .. 7507 of it
	run awk '$1 == 1 && $6 > 30' "$T/ev"
	assert_output --regexp '^1 0\.010000 30000 1\.920000000 32 '
}

@test "sps-boxcar: results do not depend on block sizes or threads" {
	fil "$T/b.fil" --nsamples 70000 --seed 9 \
	    --pulse 'dm=50,t=1.5,width=3ms,snr=25' \
	    --pulse 'dm=10,t=2.0,width=0.2ms,snr=15'
	sps-dedisperse -q --dm 0 60 "$T/b.fil" >"$T/big.dmt"
	sps-dedisperse -q --dm 0 60 --block 777 "$T/b.fil" >"$T/small.dmt"
	sps-boxcar -q -a IG1 -s 5 -t 1 "$T/big.dmt" | events /dev/stdin >"$T/a"
	sps-boxcar -q -a IG1 -s 5 -t 2 "$T/small.dmt" | events /dev/stdin >"$T/b"
	[ "$(wc -l <"$T/a")" -gt 10 ]
	run -0 diff "$T/a" "$T/b"
	# 8-bit values: the same pulses, the same strongest events
	sps-dedisperse -q --dm 0 60 -b 8 "$T/b.fil" |
	    sps-boxcar -q -a IG1 -s 5 | events /dev/stdin >"$T/a8"
	run -0 diff <(sort -k6 -g "$T/a" | tail -2 | cut -d" " -f1-5) \
	    <(sort -k6 -g "$T/a8" | tail -2 | cut -d" " -f1-5)
	# noise windows of 0.1 s, not 2 s (widths to 64, so 0.1 s is
	# used): the events change, but barely: each pulse's strongest
	# event within 2 trials and one width of its place (the DM, 15 of the
	# injected one: 16 channels barely tell), S/N within 10 %
	sps-boxcar -q -a IG1 -w 64 -s 8 "$T/big.dmt" | events /dev/stdin >"$T/c2"
	sps-boxcar -q -a IG1 -w 64 -s 8 --baseline 0.1 "$T/big.dmt" |
	    events /dev/stdin >"$T/c01"
	run -1 cmp -s "$T/c2" "$T/c01"
	for pulse in 1.5:50 2.0:10; do
		run -0 awk -v t="${pulse%:*}" -v dm="${pulse#*:}" '
		    FNR == 1 { f++ }
		    ($4 - t) ^ 2 < 0.01 ^ 2 && $6 > snr[f] {
			snr[f] = $6; dmi[f] = $1; s[f] = $3; w[f] = $5; d[f] = $2 }
		    END {
			printf "%s %s %s %s %s\n", dmi[1], s[1], w[1], snr[1], d[1]
			printf "%s %s %s %s %s\n", dmi[2], s[2], w[2], snr[2], d[2]
			exit !(snr[1] > 8 && snr[2] > 8 &&
			    (dmi[1] - dmi[2]) ^ 2 <= 4 && (d[1] - dm) ^ 2 < 15 ^ 2 &&
			    (s[1] - s[2]) ^ 2 <= w[1] ^ 2 &&
			    snr[2] > 0.9 * snr[1] && snr[2] < 1.1 * snr[1]) }' \
		    "$T/c2" "$T/c01"
	done
}

@test "sps-boxcar: --plane writes S/N and width for every sample" {
	fil "$T/q.fil" --nsamples 10000 --seed 4 \
	    --pulse 'dm=0,t=5037.5samp,width=1samp,snr=30,shape=rect'
	sps-dedisperse -q -d 0 "$T/q.fil" >"$T/q.tim"
	sps-boxcar -q -a BD-16 -w 64 --baseline 0.064 --plane "$T/q.tim" \
	    >"$T/q.plane"
	run -0 sps-header "$T/q.plane"
	assert_line --regexp '^sps_dmtime +: 2$'
	assert_line --regexp '^sps_block +: 1000$'
	assert_line --regexp '^Number of bits per sample +: 32$'
	hdr=$(sps-header --headersize "$T/q.plane")
	# 10 blocks of 1000: "SPSB", n, 1000 S/N, 1000 widths
	[ "$(wc -c <"$T/q.plane")" -eq $((hdr + 10 * (8 + 8000))) ]
	at=$((hdr + 5 * 8008))
	[ "$(head -c $((at + 4)) "$T/q.plane" | tail -c 4)" = SPSB ]
	snr=$(od -A n -t f4 -j $((at + 8 + 37 * 4)) -N 4 "$T/q.plane" | tr -d ' ')
	width=$(od -A n -t f4 -j $((at + 8 + 4000 + 37 * 4)) -N 4 "$T/q.plane" | tr -d ' ')
	ev=$(sps-boxcar -q -a BD-16 -w 64 --baseline 0.064 "$T/q.tim" |
	    awk '!/^#/ && $3 == 5037 { print $5, $6 }')
	run awk -v s="$snr" -v w="$width" -v ev="$ev" 'BEGIN {
	    split(ev, e, " ")
	    exit !(w == 1 && e[1] == 1 && s > 25 && (s - e[2]) ^ 2 < 1e-6) }'
	[ "$status" -eq 0 ] || fail "plane $snr $width, event $ev"
	bad_input 'an S/N plane' "$T/q.plane"
}

@test "sps-boxcar: -o writes the file, --max-width-s counts samples" {
	fil "$T/o.fil" --nsamples 20000 --seed 8
	sps-dedisperse -q -d 0 "$T/o.fil" >"$T/o.tim"
	run -0 sps-boxcar -q -o "$T/o.ev" --max-width-s 0.002 -a DIT "$T/o.tim"
	assert_output ""
	run grep -e '^# max_width' -e '^# nsamples' "$T/o.ev"
	assert_output $'# nsamples 20000\n# max_width 32'
	# an 8-bit series is searched as its values in float32 are
	sps-fake --nchans 1 --nbits 8 --nsamples 20000 --seed 8 -q \
	    --pulse 'dm=0,t=10000samp,width=8samp,snr=30,shape=rect' \
	    -o "$T/o8.tim"
	sps-dedisperse -q -d 0 "$T/o8.tim" >"$T/o32.tim"
	[ "$(sps-header --nbits "$T/o8.tim")/$(sps-header --nbits "$T/o32.tim")" = 8/32 ]
	sps-boxcar -q -a DIT -s 5 "$T/o8.tim" | events /dev/stdin >"$T/e8"
	sps-boxcar -q -a DIT -s 5 "$T/o32.tim" | events /dev/stdin >"$T/e32"
	cmp "$T/e8" "$T/e32"
	run -0 awk '$6 > 20 && $3 >= 9990 && $3 <= 10000' "$T/e8"
	[ "${#lines[@]}" -ge 1 ] || fail "no event of the pulse: $(cat "$T/e8")"
}

@test "sps-boxcar: input that is not DM-time data is an error" {
	fil "$T/f.fil" --nsamples 1000
	bad_input 'f.fil: not a DM-time stream or a time series \(16 channels' \
	    "$T/f.fil"
	printf 'not a header at all' >"$T/junk"
	bad_input 'junk: ' "$T/junk"
	bad_input 'nothing: No such file' "$T/nothing"
	run -1 --separate-stderr sps-boxcar </dev/null
	[[ "$stderr" =~ ^sps-boxcar:\ stdin:\ .*empty ]] || fail "$stderr"
}

@test "sps-boxcar: a series with no samples is an error" {
	tim_header >"$T/empty.tim"
	bad_input 'empty.tim: no data' "$T/empty.tim"
	fil "$T/e.fil" --nsamples 100
	sps-dedisperse -q --dm 0 5 "$T/e.fil" >"$T/e.dmt"
	hdr=$(sps-header --headersize "$T/e.dmt")
	head -c "$hdr" "$T/e.dmt" >"$T/e0.dmt"
	bad_input 'e0.dmt: no data' "$T/e0.dmt"
}

@test "sps-boxcar: a series whose noise is zero or NaN is an error" {
	{ tim_header; head -c 40000 /dev/zero; } >"$T/zero.tim"
	bad_input 'zero.tim: noise estimate zero or not a number in every trial' \
	    "$T/zero.tim"
	{ tim_header; for i in $(seq 100); do printf '\0\0\300\177'; done; } \
	    >"$T/nan.tim"
	run -1 --separate-stderr sps-boxcar "$T/nan.tim"
	[[ "${stderr_lines[-1]}" =~ ^sps-boxcar:\ .*nan.tim:\ noise\ estimate ]]
}

@test "sps-boxcar: truncated input is an error" {
	fil "$T/t.fil" --nsamples 3000
	sps-dedisperse -q --dm 0 5 "$T/t.fil" >"$T/t.dmt"
	head -c $(($(wc -c <"$T/t.dmt") - 10)) "$T/t.dmt" >"$T/cut.dmt"
	bad_input 'cut short' "$T/cut.dmt"
	# an 8-bit stream, read and unpacked a part at a time
	sps-dedisperse -q -b 8 --dm 0 5 "$T/t.fil" >"$T/t8.dmt"
	head -c $(($(wc -c <"$T/t8.dmt") - 10)) "$T/t8.dmt" >"$T/cut8.dmt"
	bad_input 'DM-time stream cut short in a block' "$T/cut8.dmt"
	{ tim_header 16; head -c 2001 /dev/urandom; } >"$T/odd.tim"
	bad_input 'odd.tim: truncated data' "$T/odd.tim"
}

# a stage that fails says why; the stages after it, given an empty pipe,
# say nothing more (a file or /dev/null that is empty is still named)
@test "sps-boxcar: a failing stage in a pipe is one message, not a cascade" {
	run --separate-stderr bash -c \
	    'sps-dedisperse -q --dm 0 100 nothere.fil | sps-boxcar | sps-peaks'
	[ "$status" -ne 0 ]
	assert_equal "$stderr" "sps-dedisperse: nothere.fil: No such file or directory"
	run -1 --separate-stderr sps-boxcar </dev/null
	assert_equal "$stderr" "sps-boxcar: stdin: empty input (no header)"
	run --separate-stderr bash -c 'true | sps-boxcar'
	assert_equal "$status" 1
	assert_equal "$stderr" ""
}

# presto_series PREFIX: sps-dedisperse --presto's PREFIX_DM12.50.tim, .dat
# and .inf of a pulse at DM 12.5, 0.6 s
presto_series() {
	fil "$T/p.fil" --nsamples 20000 --seed 3 \
	    --pulse dm=12.5,t=0.6,width=1ms,snr=40
	sps-dedisperse -q -d 12.5 -o "$1" --presto "$T/p.fil"
}

@test "sps-boxcar: a PRESTO .dat with its .inf is searched as the .tim is" {
	presto_series "$T/s"
	sps-boxcar -q "$T/s_DM12.50.tim" |
	    grep -Ev '^# (input|foff|nchans) ' >"$T/tim.ev"
	run -0 sps-boxcar -q "$T/s_DM12.50.dat"
	assert_line --index 1 "# input $T/s_DM12.50.dat"
	# the channels summed, which the .inf gives and the .tim does not
	assert_line "# foff -4"
	assert_line "# nchans 16"
	grep -Ev '^# (input|foff|nchans) ' <<<"$output" >"$T/dat.ev"
	cmp "$T/tim.ev" "$T/dat.ev"
	run -0 events "$T/dat.ev"
	assert_output --regexp '^0 12.500000 93[0-9]{2} 0.59'
	# another name, found by the .inf beside it
	cp "$T/s_DM12.50.dat" "$T/series.f32"
	cp "$T/s_DM12.50.inf" "$T/series.inf"
	sps-boxcar -q "$T/series.f32" |
	    grep -Ev '^# (input|foff|nchans) ' >"$T/f32.ev"
	cmp "$T/tim.ev" "$T/f32.ev"
}

# An .inf as PRESTO writes it (older spelling, a break, notes): the
# header sps-boxcar gives the events comes from it
@test "sps-boxcar: the .inf gives tsamp, tstart, DM, source and the top frequency" {
	presto_series "$T/s"
	mv "$T/s_DM12.50.dat" "$T/GBT.dat"
	cat >"$T/GBT.inf" <<-'EOF'
	 Data file name without suffix          =  GBT
	 Telescope used                         =  GBT
	 Instrument used                        =  GUPPI
	 Object being observed                  =  B1937+21
	 J2000 Right Ascension (hh:mm:ss.ssss)  =  19:39:38.5600
	 J2000 Declination     (dd:mm:ss.ssss)  =  +21:34:59.1200
	 Data observed by                       =  Unknown
	 Epoch of observation (MJD)             =  55267.436250000000000
	 Barycentered?           (1=yes, 0=no)  =  0
	 Number of bins in the time series      =  20000      
	 Width of each time series bin (sec)    =  0.000128
	 Any breaks in the data? (1=yes, 0=no)  =  1
	 On/Off bin pair #  1                   =  0          , 19999      
	 Type of observation (EM band)          =  Radio
	 Beam diameter (arcsec)                 =  544
	 Dispersion measure (cm-3 pc)           =  71.02
	 Central freq of low channel (Mhz)      =  720.78125
	 Total bandwidth (Mhz)                  =  200
	 Number of channels                     =  128
	 Channel bandwidth (Mhz)                =  1.5625
	 Data analyzed by                       =  someone
	 Any additional notes:
	    Input filterbank samples have 8 bits.

	EOF
	run -0 sps-boxcar -q "$T/GBT.dat"
	assert_line "# source_name B1937+21"
	assert_line "# tstart 55267.43625"
	assert_line "# tsamp 0.000128"
	assert_line "# fch1 919.21875"
	assert_line "# foff -1.5625"
	assert_line "# nchans 128"
	assert_line "# dm_lo 71.02"
	assert_line "# nsamples 20000"
	assert_line --regexp '^0 71.020000 93[0-9]{2} 1.19'
}

@test "sps-boxcar: a .dat without its .inf, or not as long as it says, is an error" {
	presto_series "$T/s"
	cp "$T/s_DM12.50.dat" "$T/lone.dat"
	bad_input "lone.dat: no $T/lone.inf beside it" "$T/lone.dat"
	cp "$T/s_DM12.50.dat" "$T/short.dat"
	sed 's/20000 /20001 /' "$T/s_DM12.50.inf" >"$T/short.inf"
	bad_input 'short.dat: 80000 bytes, but .*short.inf gives 20001 samples' \
	    "$T/short.dat"
	# a file named otherwise, with no .inf, is still "not SIGPROC"
	cp "$T/lone.dat" "$T/lone.f32"
	bad_input 'lone.f32: not a SIGPROC file \(no HEADER_START' "$T/lone.f32"
}

@test "sps-boxcar: a garbled .inf is one line naming it and the line" {
	presto_series "$T/s"
	sed 's/^\( Width of each time series bin (sec)    =  \).*/\1fast/' \
	    "$T/s_DM12.50.inf" >"$T/bad.inf"
	cp "$T/s_DM12.50.dat" "$T/bad.dat"
	bad_input "$T/bad.inf: line 11: Width of each time series bin \\(sec\\): 'fast' is not a number" \
	    "$T/bad.dat"
	grep -v 'Number of bins' "$T/s_DM12.50.inf" >"$T/bad.inf"
	bad_input "bad.inf: no 'Number of bins in the time series' line" \
	    "$T/bad.dat"
	{ printf x; head -c 3000 /dev/urandom | tr -d '='; } >"$T/bad.inf"
	bad_input 'bad.inf: line 1: ' "$T/bad.dat"
}

@test "sps-boxcar: a .dat on standard input is an error that says why" {
	presto_series "$T/s"
	run -1 --separate-stderr sps-boxcar <"$T/s_DM12.50.dat"
	assert_equal "$output" ""
	assert_equal "$stderr" "sps-boxcar: stdin: not a SIGPROC file (no HEADER_START at byte 0); a PRESTO .dat cannot be read from standard input: name the file, its .inf beside it"
}
