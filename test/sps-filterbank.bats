#!/usr/bin/env bats
# sps-filterbank: SIGPROC and PSRFITS in, SIGPROC out; ranges, masks,
# nbits, joining, and one clear error for each kind of bad input.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

bats_require_minimum_version 1.5.0

DATA="$BATS_TEST_DIRNAME/../../shared/data"

setup() {
	T=$BATS_TEST_TMPDIR
}

# data FILE: the samples of a SIGPROC file, without its header.
data() {
	tail -c +$(($(sps-header --headersize "$1") + 1)) "$1"
}

# fails REGEX ARGS...: exit 1, nothing on stdout, one line on stderr.
fails() {
	local regex=$1

	shift
	run -1 --separate-stderr sps-filterbank "$@"
	assert_equal "$output" ""
	assert_equal "${#stderr_lines[@]}" 1
	[[ "$stderr" =~ ^sps-filterbank:\ .*$regex ]] || fail "stderr: $stderr"
}

# close_to A B TOL: the numbers A and B differ by at most TOL.
close_to() {
	awk -v a="$1" -v b="$2" -v tol="$3" 'BEGIN {
		d = a - b; if (d < 0) d = -d; exit !(d <= tol) }' ||
	    fail "$1 and $2 differ by more than $3"
}

@test "sps-filterbank: src1_small.fits, first 10 spectra, equals src1_small.fil byte for byte" {
	sps-filterbank -n 10 "$DATA/src1_small.fits" >"$T/out.fil"
	cmp <(data "$T/out.fil") <(data "$DATA/src1_small.fil")
	run -0 sps-header --nchans --tsamp --fch1 --foff "$T/out.fil"
	want=$(sps-header --nchans --tsamp --fch1 --foff "$DATA/src1_small.fil")
	assert_output "$want"
	close_to "$(sps-header --tstart "$T/out.fil")" \
	    "$(sps-header --tstart "$DATA/src1_small.fil")" 1e-9
}

@test "sps-filterbank: PSRFITS from standard input gives the same data" {
	mkdir "$T/tmp"
	TMPDIR=$T/tmp sps-filterbank -n 10 <"$DATA/src1_small.fits" \
	    >"$T/pipe.fil"
	cmp <(data "$T/pipe.fil") <(data "$DATA/src1_small.fil")
	assert_equal "$(ls -A "$T/tmp")" ""
}

@test "sps-filterbank: parkes_4bit.sf has 416 channels of -8 MHz and 4096 spectra, as floats" {
	sps-filterbank "$DATA/parkes_4bit.sf" >"$T/sf.fil"
	run -0 sps-header --nchans --foff --nsamples --nbits --fch1 "$T/sf.fil"
	assert_equal "${lines[*]}" "416 -8 4096 32 4028"
}

@test "sps-filterbank: parkes_4bit.sf bandpass follows its DAT_OFFS and DAT_SCL (ZERO_OFF, scales, AA+BB)" {
	# The .fil files are bandpass-flattened by the backend (all channel
	# means near 128), so the check is against the file's own columns:
	# mean = OFFS(AA) + OFFS(BB) when raw samples average ZERO_OFF, rms
	# proportional to sqrt(SCL(AA)^2 + SCL(BB)^2).  Adding ZERO_OFF,
	# averaging the pols, or leaving scales or offsets out all fail it.
	sps-filterbank "$DATA/parkes_4bit.sf" >"$T/sf.fil"
	read -r mean_corr rms_corr median_dev < <(aux-bandpass fits \
	    "$T/sf.fil" "$DATA/parkes_4bit.sf")
	close_to "$mean_corr" 1 0.001
	close_to "$rms_corr" 1 0.002
	close_to "$median_dev" 0 0.001
	sps-filterbank --if 0 "$DATA/parkes_4bit.sf" >"$T/aa.fil"
	read -r mean_corr rms_corr median_dev < <(aux-bandpass fits \
	    "$T/aa.fil" "$DATA/parkes_4bit.sf")
	close_to "$median_dev" 0.5 0.05
}

@test "sps-filterbank: b0950_iquv.fits gives Stokes I, 512 channels, 200 spectra" {
	sps-filterbank "$DATA/b0950_iquv.fits" >"$T/i.fil" 2>/dev/null
	run -0 sps-header --nchans --nsamples --nbits "$T/i.fil"
	assert_equal "${lines[*]}" "512 200 8"
	cmp <(data "$T/i.fil") <(aux-mkfits pol "$DATA/b0950_iquv.fits" 0)
	sps-filterbank -q --if 2 "$DATA/b0950_iquv.fits" >"$T/u.fil"
	cmp <(data "$T/u.fil") <(aux-mkfits pol "$DATA/b0950_iquv.fits" 2)
}

@test "sps-filterbank: b0950_iquv.fits warns once about its per-channel DAT_SCL" {
	run -0 --separate-stderr sps-filterbank -o "$T/i.fil" \
	    "$DATA/b0950_iquv.fits"
	[[ "$stderr" =~ warning:.*DAT_SCL\ has\ NCHAN\ values ]]
	run -0 --separate-stderr sps-filterbank -q -o "$T/i.fil" \
	    "$DATA/b0950_iquv.fits"
	assert_equal "$stderr" ""
}

@test "sps-filterbank: SIGPROC input passes through unchanged" {
	sps-filterbank "$DATA/src1_small.fil" >"$T/out.fil"
	cmp <(data "$T/out.fil") <(data "$DATA/src1_small.fil")
	for f in parkes_1bit parkes_2bit parkes_4bit parkes_8bit_1 \
	    src1_small tutorial; do
		sps-filterbank -n 16 "$DATA/$f.fil" >"$T/out.fil"
		diff <(sps-header --json "$T/out.fil" | grep -v \
		    -e header_size -e data_size -e nsamples -e tobs) \
		    <(sps-header --json "$DATA/$f.fil" | grep -v \
		    -e header_size -e data_size -e nsamples -e tobs)
	done
}

@test "sps-filterbank: every parkes nbits to 32-bit and back is the identity" {
	for f in 1:parkes_1bit 2:parkes_2bit 4:parkes_4bit 8:parkes_8bit_1; do
		sps-filterbank --nbits 32 "$DATA/${f#*:}.fil" >"$T/f32.fil"
		run -0 sps-header --nbits --nsamples "$T/f32.fil"
		assert_equal "${lines[*]}" "32 4096"
		sps-filterbank --nbits "${f%%:*}" "$T/f32.fil" >"$T/back.fil"
		cmp <(data "$T/back.fil") <(data "$DATA/${f#*:}.fil")
	done
}

@test "sps-filterbank: 1-, 2- and 4-bit parkes bandpasses follow the 8-bit one" {
	# The files were quantised separately: statistically equal only.
	# Unpacking sub-byte samples in the wrong order drops these below 0.35.
	for f in 1:0.7 2:0.9 4:0.99; do
		c=$(sps-filterbank "$DATA/parkes_${f%%:*}bit.fil" |
		    aux-bandpass corr - "$DATA/parkes_8bit_1.fil")
		awk -v c="$c" -v m="${f#*:}" 'BEGIN { exit !(c > m) }' ||
		    fail "${f%%:*}-bit: correlation $c"
	done
}

@test "sps-filterbank: PSRFITS of every NBITS gives the expected values" {
	for b in 1 2 4 8 16 32; do
		aux-mkfits -b "$b" -z 1.5 -e "$T/want" "$T/x.fits"
		sps-filterbank -q --nbits 32 "$T/x.fits" >"$T/out.fil"
		cmp <(data "$T/out.fil") "$T/want" || fail "NBITS $b"
	done
}

@test "sps-filterbank: 1-bit PSRFITS in an X column" {
	aux-mkfits -b 1 -X -e "$T/want" "$T/x.fits"
	sps-filterbank -b 32 "$T/x.fits" >"$T/out.fil"
	cmp <(data "$T/out.fil") "$T/want"
}

@test "sps-filterbank: PSRFITS with unit scales keeps its nbits and integers" {
	aux-mkfits -b 4 -u -e "$T/want" "$T/x.fits"
	sps-filterbank "$T/x.fits" >"$T/out.fil"
	run -0 sps-header --nbits "$T/out.fil"
	assert_output 4
	sps-filterbank -b 32 "$T/out.fil" >"$T/f32.fil"
	cmp <(data "$T/f32.fil") "$T/want"
}

@test "sps-filterbank: AABBCRCI sums AA and BB and rising frequencies are flipped" {
	aux-mkfits -b 4 -a -z 7.5 -p 4 -P AABBCRCI -e "$T/want" "$T/x.fits"
	sps-filterbank "$T/x.fits" >"$T/out.fil"
	run -0 sps-header --fch1 --foff --nbits "$T/out.fil"
	assert_equal "${lines[*]}" "1030 -2 32"
	cmp <(data "$T/out.fil") "$T/want"
}

@test "sps-filterbank: --keep-order, --if and switched-off steps" {
	aux-mkfits -b 4 -a -z 7.5 -p 4 -P AABBCRCI -k -i 2 -n so \
	    -e "$T/want" "$T/x.fits"
	sps-filterbank --keep-order --if 2 --noscales --nooffsets \
	    "$T/x.fits" >"$T/out.fil"
	run -0 sps-header --fch1 --foff "$T/out.fil"
	assert_equal "${lines[*]}" "1000 2"
	cmp <(data "$T/out.fil") "$T/want"
	aux-mkfits -b 8 -z 3 -p 2 -P AABB -n zw -e "$T/want" "$T/y.fits"
	sps-filterbank --nozerooff --noweights "$T/y.fits" >"$T/out.fil"
	cmp <(data "$T/out.fil") "$T/want"
}

@test "sps-filterbank: --if beyond NPOL is an error" {
	aux-mkfits -p 2 -P AABB "$T/x.fits"
	fails "polarisation 2 asked for, but NPOL is 2" --if 2 "$T/x.fits"
}

@test "sps-filterbank: a missing PSRFITS row is filled with the row mean and reported" {
	aux-mkfits -p 4 -P IQUV -r 4 -g 2 -e "$T/want" "$T/x.fits"
	run -0 --separate-stderr sps-filterbank -b 32 -o "$T/out.fil" \
	    "$T/x.fits"
	assert_equal "$stderr" \
	    "sps-filterbank: filled 32 spectra of missing rows (per-channel means)"
	cmp <(data "$T/out.fil") "$T/want"
	aux-mkfits -p 4 -P IQUV -r 4 -g 2 -Z -e "$T/want" "$T/x.fits"
	sps-filterbank -q --fill-zeros -b 32 "$T/x.fits" >"$T/out.fil"
	cmp <(data "$T/out.fil") "$T/want"
}

@test "sps-filterbank: PSRFITS files in time order are joined, out of order refused" {
	aux-mkfits -r 4 -e "$T/want" "$T/all.fits"
	aux-mkfits -r 2 "$T/a.fits"
	aux-mkfits -r 2 -R 2 "$T/b.fits"
	aux-mkfits -r 2 -R 1 "$T/overlap.fits"
	sps-filterbank -b 32 "$T/a.fits" "$T/b.fits" >"$T/out.fil"
	cmp <(data "$T/out.fil") "$T/want"
	fails "a.fits: row 1 starts 128 spectra before the end of the previous file: out of order or overlapping" \
	    "$T/b.fits" "$T/a.fits"
	fails "overlap.fits: row 1 starts 32 spectra before" \
	    "$T/a.fits" "$T/overlap.fits"
}

@test "sps-filterbank: PSRFITS files whose starts differ by their length join" {
	aux-mkfits -r 2 "$T/a.fits"
	aux-mkfits -r 2 -T 0.004096 "$T/b.fits"
	run -0 --separate-stderr sps-filterbank -o "$T/out.fil" "$T/a.fits" \
	    "$T/b.fits"
	assert_equal "$stderr" ""
	run -0 sps-header --nsamples "$T/out.fil"
	assert_output 128
}

@test "sps-filterbank: joining parkes_8bit_1.fil and parkes_8bit_2.fil" {
	sps-filterbank "$DATA/parkes_8bit_1.fil" "$DATA/parkes_8bit_2.fil" \
	    >"$T/j.fil"
	run -0 sps-header --nsamples "$T/j.fil"
	assert_output 8192
	cmp <(data "$T/j.fil") <(cat <(data "$DATA/parkes_8bit_1.fil") \
	    <(data "$DATA/parkes_8bit_2.fil"))
}

@test "sps-filterbank: parkes_8bit_2.fil before parkes_8bit_1.fil is refused" {
	fails "parkes_8bit_1.fil: starts 8192.0 samples before the end of the previous file" \
	    "$DATA/parkes_8bit_2.fil" "$DATA/parkes_8bit_1.fil"
}

@test "sps-filterbank: a gap between SIGPROC files is refused unless --fill-gaps" {
	t=$(sps-header --tstart "$DATA/parkes_8bit_2.fil")
	t=$(awk -v t="$t" 'BEGIN { printf "%.12f", t + 100 * 0.000512 / 86400 }')
	sps-header -q --set tstart="$t" -o "$T/late.fil" \
	    "$DATA/parkes_8bit_2.fil"
	fails "late.fil: gap of 100.0 samples" "$DATA/parkes_8bit_1.fil" \
	    "$T/late.fil"
	run -0 --separate-stderr sps-filterbank --fill-gaps -o "$T/j.fil" \
	    "$DATA/parkes_8bit_1.fil" "$T/late.fil"
	[[ "$stderr" =~ filled\ 100\ spectra ]]
	run -0 sps-header --nsamples "$T/j.fil"
	assert_output 8292
}

@test "sps-filterbank: a time range in samples and in seconds" {
	sps-filterbank -S 100 -n 50 "$DATA/parkes_8bit_1.fil" >"$T/s.fil"
	cmp <(data "$T/s.fil") <(data "$DATA/parkes_8bit_1.fil" |
	    tail -c +$((100 * 832 + 1)) | head -c $((50 * 832)))
	t0=$(sps-header --tstart "$DATA/parkes_8bit_1.fil")
	close_to "$(sps-header --tstart "$T/s.fil")" \
	    "$(awk -v t="$t0" 'BEGIN { printf "%.12f", t + 100 * 0.000512 / 86400 }')" \
	    1e-11
	sps-filterbank -s 0.0512 -r 0.0256 "$DATA/parkes_8bit_1.fil" \
	    >"$T/sec.fil"
	cmp "$T/s.fil" "$T/sec.fil"
}

@test "sps-filterbank: a start past the end is an error, a short read a warning" {
	fails "start at spectrum 5000: the input has only 4096" -S 5000 \
	    "$DATA/parkes_8bit_1.fil"
	run -0 --separate-stderr sps-filterbank -S 4000 -n 200 \
	    "$DATA/parkes_8bit_1.fil"
	assert_equal "$stderr" \
	    "sps-filterbank: asked for 200 spectra, only 96 after the start"
}

# cut_short FILE BYTES: $T/cut.fil, FILE less its last BYTES, and
# $T/whole.fil, FILE cut to the whole spectra in $T/cut.fil; dangling is
# the number of bytes after the last of them.
cut_short() {
	local size hs sb n

	size=$(stat -c %s "$1")
	hs=$(sps-header --headersize "$1")
	sb=$(($(sps-header --nchans "$1") * $(sps-header --nbits "$1") / 8))
	n=$(((size - $2 - hs) / sb))
	head -c $((size - $2)) "$1" >"$T/cut.fil"
	head -c $((hs + n * sb)) "$1" >"$T/whole.fil"
	dangling=$((size - $2 - hs - n * sb))
}

CUT="bytes after the last whole spectrum ignored (a cut recording?)"

@test "sps-filterbank: a recording cut inside a spectrum is its whole spectra, byte for byte, from files and pipes, with one warning" {
	for f in parkes_1bit parkes_2bit parkes_4bit parkes_8bit_1; do
		cut_short "$DATA/$f.fil" 100
		for opt in "" "-b 32" "-S 4000" "-c 10:700"; do
			sps-filterbank $opt "$T/whole.fil" >"$T/want.fil"
			run -0 --separate-stderr sps-filterbank $opt \
			    -o "$T/got.fil" "$T/cut.fil"
			assert_equal "$stderr" \
			    "sps-filterbank: $T/cut.fil: $dangling $CUT"
			cmp "$T/want.fil" "$T/got.fil" || fail "$f $opt"
			cat "$T/whole.fil" | sps-filterbank $opt >"$T/want.fil"
			run -0 --separate-stderr sh -c 'cat "$1" |
			    sps-filterbank $2 >"$3"' _ "$T/cut.fil" "$opt" \
			    "$T/got.fil"
			assert_equal "$stderr" \
			    "sps-filterbank: stdin: $dangling $CUT"
			cmp "$T/want.fil" "$T/got.fil" || fail "$f $opt: pipe"
		done
		# the data are the whole spectra of the file, untouched
		sps-filterbank -o "$T/got.fil" "$T/cut.fil" 2>/dev/null
		cmp <(data "$T/whole.fil") <(data "$T/got.fil")
	done
}

@test "sps-filterbank: joined files cut inside a spectrum: the cut one is named" {
	local a=$DATA/parkes_8bit_1.fil b=$DATA/parkes_8bit_2.fil

	cut_short "$b" 100
	sps-filterbank "$a" "$T/whole.fil" >"$T/want.fil"
	run -0 --separate-stderr sps-filterbank -o "$T/got.fil" "$a" \
	    "$T/cut.fil"
	assert_equal "$stderr" "sps-filterbank: $T/cut.fil: 732 $CUT"
	cmp "$T/want.fil" "$T/got.fil"
	mv "$T/cut.fil" "$T/cut2.fil"
	# a cut first file leaves a gap of one spectrum before the next
	cut_short "$a" 100
	fails "cut2.fil: gap of 1.0 samples after the previous file" \
	    "$T/cut.fil" "$T/cut2.fil"
	run -0 --separate-stderr sps-filterbank --fill-gaps -o "$T/got.fil" \
	    "$T/cut.fil" "$T/cut2.fil"
	assert_equal "${stderr_lines[1]}" \
	    "sps-filterbank: $T/cut.fil: 732 $CUT; 1 more joined file is cut too"
	assert_equal "${#stderr_lines[@]}" 2
	run -0 sps-header --nsamples "$T/got.fil"
	assert_output 8191
}

@test "sps-filterbank: not one whole spectrum is an error" {
	head -c 451 "$DATA/parkes_8bit_1.fil" >"$T/short.fil"
	fails "short.fil: truncated data: 100 bytes, not one whole spectrum of 832" \
	    "$T/short.fil"
	run -1 --separate-stderr sh -c 'cat "$1" | sps-filterbank' _ \
	    "$T/short.fil"
	assert_equal "$stderr" "sps-filterbank: stdin: truncated data: 100 bytes, not one whole spectrum of 832"
}

@test "sps-filterbank: a channel range, a frequency range and --flip" {
	aux-bandpass means "$DATA/parkes_8bit_1.fil" >"$T/all"
	sps-filterbank -c 10:19 "$DATA/parkes_8bit_1.fil" >"$T/c.fil"
	run -0 sps-header --nchans --fch1 --foff "$T/c.fil"
	assert_equal "${lines[*]}" "10 3990 -4"
	diff <(aux-bandpass means "$T/c.fil") <(sed -n 11,20p "$T/all")
	sps-filterbank --freqs 3954:3990 --flip "$DATA/parkes_8bit_1.fil" \
	    >"$T/f.fil"
	run -0 sps-header --nchans --fch1 --foff "$T/f.fil"
	assert_equal "${lines[*]}" "10 3954 4"
	diff <(aux-bandpass means "$T/f.fil") <(sed -n 11,20p "$T/all" | tac)
	sps-filterbank --flip "$T/f.fil" | cmp - "$T/c.fil"
}

@test "sps-filterbank: channel and frequency ranges outside the band are errors" {
	fails "-c 0:832: the input has channels 0 to 831" -c 0:832 \
	    "$DATA/parkes_8bit_1.fil"
	fails "--freqs 100:200: no channel centre in it" --freqs 100:200 \
	    "$DATA/parkes_8bit_1.fil"
}

# PRESTO numbers channels from the lowest frequency: on this file (foff
# -4 MHz, 832 channels) channel c is the file's 831 - c
@test "sps-filterbank: a channel mask zeroes its channels, numbered as PRESTO's" {
	printf '0:3   # band edge\n5, 7:11:2\n' >"$T/mask"
	sps-filterbank -m "$T/mask" "$DATA/parkes_8bit_1.fil" >"$T/m.fil"
	aux-bandpass means "$T/m.fil" | tac >"$T/masked"
	aux-bandpass means "$DATA/parkes_8bit_1.fil" | tac >"$T/all"
	for c in 0 1 2 3 5 7 9 11; do
		assert_equal "$(sed -n "$((c + 1))p" "$T/masked")" 0
	done
	diff <(sed -n '5p;7p;9p;11p;13,$p' "$T/masked") \
	    <(sed -n '5p;7p;9p;11p;13,$p' "$T/all")
	sps-filterbank --ignorechan 0:3,5,7:11:2 "$DATA/parkes_8bit_1.fil" |
	    cmp - "$T/m.fil"
}

@test "sps-filterbank: --ignorechan counts from the lowest frequency either way" {
	sps-filterbank --ignorechan 0 "$DATA/parkes_8bit_1.fil" >"$T/down.fil"
	sps-filterbank --flip "$DATA/parkes_8bit_1.fil" >"$T/up.fil"
	sps-header "$T/up.fil" | grep -q 'bandwidth.*: 4$' ||
	    fail "$(sps-header "$T/up.fil")"
	sps-filterbank --ignorechan 0 "$T/up.fil" >"$T/up0.fil"
	# the same channel (the lowest, 1130 MHz) is masked in both
	[ "$(aux-bandpass means "$T/down.fil" | tail -1)" = 0 ]
	[ "$(aux-bandpass means "$T/up0.fil" | head -1)" = 0 ]
	[ "$(aux-bandpass means "$T/down.fil" | head -1)" != 0 ]
}

@test "sps-filterbank: --mask-fill median takes the middle of the other channels" {
	# Unit steps, 3 channels: values 3t, 3t+5, 3t+10.  Masking the
	# file's channel 0 (PRESTO's 2: the frequencies fall) leaves two,
	# whose upper middle value is channel 2's.
	aux-mkfits -u -c 3 "$T/x.fits"
	sps-header "$T/x.fits" | grep -q 'bandwidth.*: -' || fail "foff > 0"
	sps-filterbank --ignorechan 2 --mask-fill median "$T/x.fits" \
	    >"$T/m.fil"
	aux-bandpass means "$T/m.fil" >"$T/means"
	assert_equal "$(sed -n 1p "$T/means")" "$(sed -n 3p "$T/means")"
}

@test "sps-filterbank: a bad mask is an error" {
	printf '0:3 x7\n' >"$T/mask"
	fails "mask: 'x7' is not a channel, A:B or A:B:STEP" -m "$T/mask" \
	    "$DATA/src1_small.fil"
	printf '900\n' >"$T/mask"
	fails "mask: channel 900: the input has channels 0 to 335" \
	    -m "$T/mask" "$DATA/src1_small.fil"
	printf 'RFIF\001\002' >"$T/mask"
	fails "not a text list of channels" -m "$T/mask" \
	    "$DATA/src1_small.fil"
}

@test "sps-filterbank: fewer output bits clip, and the clipping is counted" {
	run -0 --separate-stderr sps-filterbank -b 4 -o "$T/x.fil" \
	    "$DATA/src1_small.fil"
	[[ "$stderr" =~ ^sps-filterbank:\ [0-9]+\ of\ 3360\ samples\ clipped\ to\ the\ 4-bit\ range$ ]]
	run -0 --separate-stderr sps-filterbank -b 16 -o "$T/x.fil" \
	    "$DATA/src1_small.fil"
	assert_equal "$stderr" ""
}

@test "sps-filterbank: --rescale centres every channel in the output range" {
	sps-filterbank -q --rescale -b 8 "$DATA/parkes_4bit.sf" >"$T/r.fil"
	run -0 sps-header --nbits "$T/r.fil"
	assert_output 8
	aux-bandpass means "$T/r.fil" | awk '$1 < 125 || $1 > 130 {
		print "channel " NR - 1 ": mean " $1; bad = 1 } END { exit bad }'
}

@test "sps-filterbank: -v summarises the input on stderr" {
	run -0 --separate-stderr sps-filterbank -v -o "$T/x.fil" \
	    "$DATA/parkes_4bit.sf"
	[[ "$stderr" =~ input\ .*parkes_4bit.sf\ \(PSRFITS\) ]]
	[[ "$stderr" =~ polarisations\ 0\ and\ 1\ summed\ \(AABBCRCI\) ]]
	[[ "$stderr" =~ ZERO_OFF\ 7.5 ]]
}

@test "sps-filterbank: FITS that is not search mode: folded data" {
	aux-mkfits -m fold "$T/x.fits"
	fails "OBS_MODE 'PSR': folded data, not PSRFITS search mode" "$T/x.fits"
}

@test "sps-filterbank: FITS that is not PSRFITS: an image" {
	aux-mkfits -m image "$T/x.fits"
	fails "no SUBINT table: not PSRFITS search-mode data" "$T/x.fits"
}

@test "sps-filterbank: a SUBINT table without its DATA column" {
	aux-mkfits -m nodata "$T/x.fits"
	fails "SUBINT table has no DATA column" "$T/x.fits"
}

@test "sps-filterbank: NCHAN inconsistent with the columns" {
	aux-mkfits -m nchan "$T/x.fits"
	fails "NCHAN 17 x NBITS 8 needs 4352 bits: inconsistent header" \
	    "$T/x.fits"
}

@test "sps-filterbank: unsupported NBITS" {
	aux-mkfits -m nbits "$T/x.fits"
	fails "NBITS 3 is not supported" "$T/x.fits"
}

@test "sps-filterbank: a truncated PSRFITS file, from a file and a pipe" {
	aux-mkfits -c 64 -s 256 -r 3 "$T/x.fits"
	head -c 40000 "$T/x.fits" >"$T/cut.fits"
	fails "cut.fits: truncated file: 40000 bytes, but its SUBINT table" \
	    "$T/cut.fits"
	run -1 --separate-stderr sh -c 'head -c 40000 "$1" | sps-filterbank' \
	    sh "$T/x.fits"
	[[ "$stderr" =~ ^sps-filterbank:\ stdin:\ truncated\ file ]]
	head -c 5000 "$T/x.fits" >"$T/cut.fits"
	fails "truncated file: 5000 bytes" "$T/cut.fits"
	head -c 1000 "$T/x.fits" >"$T/cut.fits"
	fails "truncated file" "$T/cut.fits"
}

@test "sps-filterbank: missing OBS_MODE is a warning, not an error" {
	aux-mkfits -m nobsmode "$T/x.fits"
	run -0 --separate-stderr sps-filterbank -o "$T/x.fil" "$T/x.fits"
	assert_equal "$stderr" \
	    "sps-filterbank: warning: $T/x.fits: no OBS_MODE keyword: taken as SEARCH"
}

@test "sps-filterbank: empty standard input" {
	run -1 --separate-stderr sps-filterbank </dev/null
	assert_equal "$stderr" "sps-filterbank: stdin: empty input (no header)"
}

@test "sps-filterbank: usage errors exit 2, -h and --version exit 0" {
	run -2 sps-filterbank --nbits 3 "$DATA/src1_small.fil"
	run -2 sps-filterbank -c 5:2 "$DATA/src1_small.fil"
	run -2 sps-filterbank -s 1 -S 5 "$DATA/src1_small.fil"
	run -2 sps-filterbank --no-such-option
	run -2 sps-filterbank --mask-fill mean "$DATA/src1_small.fil"
	run -0 sps-filterbank -h
	assert_line --index 0 --partial "usage: sps-filterbank"
	run -0 sps-filterbank --version
	assert_output --regexp '^sps-filterbank [0-9]'
}

@test "sps-filterbank: -o writes the file, and nothing on a failure" {
	sps-filterbank -o "$T/out.fil" "$DATA/src1_small.fil"
	cmp "$T/out.fil" <(sps-filterbank "$DATA/src1_small.fil")
	run -1 sps-filterbank -o "$T/bad.fil" -S 99 "$DATA/src1_small.fil"
	[ ! -e "$T/bad.fil" ]
	[ -z "$(ls "$T" | grep tmp)" ]
}

@test "sps-filterbank: unchanged SIGPROC spectra are copied as bytes (-v says so), conversions are not" {
	for f in parkes_1bit parkes_2bit parkes_4bit parkes_8bit_1 tutorial; do
		run -0 --separate-stderr sps-filterbank -v -o "$T/out.fil" \
		    "$DATA/$f.fil"
		[[ "$stderr" =~ copied\ as\ bytes ]] || fail "$f: $stderr"
		cmp <(data "$T/out.fil") <(data "$DATA/$f.fil")
	done
	for opt in "-b 32" "-c 1:5" "--flip" "--ignorechan 3" "--rescale"; do
		run -0 --separate-stderr sps-filterbank -v $opt -o "$T/out.fil" \
		    "$DATA/parkes_8bit_1.fil"
		[[ ! "$stderr" =~ copied\ as\ bytes ]] || fail "$opt: $stderr"
	done
	run -0 --separate-stderr sps-filterbank -v -o "$T/out.fil" \
	    "$DATA/parkes_4bit.sf"
	[[ ! "$stderr" =~ copied\ as\ bytes ]]
}

# values F ARGS...: sps-filterbank ARGS through the values path (to 32
# bits and back to F's nbits), data only
values() {
	local f=$1

	shift
	sps-filterbank -q -b 32 "$@" | sps-filterbank -q -o "$T/values.fil" \
	    -b "$(sps-header --nbits "$f")"
	data "$T/values.fil"
}

# span START COUNT FILE...: the data bytes of spectra START to
# START + COUNT - 1 of the files joined (COUNT "" for all)
span() {
	local start=$1 count=$2 size f

	shift 2
	size=$(( $(sps-header --nchans "$1") * $(sps-header --nbits "$1") / 8 ))
	for f in "$@"; do
		data "$f"
	done | tail -c +$((start * size + 1)) | if [ -n "$count" ]; then
		head -c $((count * size))
	else
		cat
	fi
}

@test "sps-filterbank: time ranges copied as bytes are the bytes of the span, from files and pipes" {
	for f in parkes_1bit parkes_2bit parkes_8bit_1; do
		for range in "1 " "100 300" "4095 " "0 4096" "2000 1"; do
			set -- $range
			opt="-S $1${2:+ -n $2}"
			sps-filterbank $opt "$DATA/$f.fil" >"$T/b.fil"
			cmp <(data "$T/b.fil") <(span $1 "$2" "$DATA/$f.fil") ||
			    fail "$f $opt"
			cmp <(data "$T/b.fil") <(values "$DATA/$f.fil" $opt \
			    "$DATA/$f.fil") || fail "$f $opt: values path"
			sps-filterbank $opt <"$DATA/$f.fil" | cmp - "$T/b.fil"
			cat "$DATA/$f.fil" | sps-filterbank $opt |
			    cmp - "$T/b.fil"
		done
	done
}

@test "sps-filterbank: joined files copied as bytes, with time ranges across the join" {
	local a=$DATA/parkes_8bit_1.fil b=$DATA/parkes_8bit_2.fil
	for range in "4000 200" "4096 " "4095 2" "0 4097" "8191 " "1 8190"; do
		set -- $range
		opt="-S $1${2:+ -n $2}"
		run -0 --separate-stderr sps-filterbank -v $opt -o "$T/j.fil" \
		    "$a" "$b"
		[[ "$stderr" =~ copied\ as\ bytes ]]
		cmp <(data "$T/j.fil") <(span $1 "$2" "$a" "$b") || fail "$opt"
		cmp <(data "$T/j.fil") <(values "$a" $opt "$a" "$b") ||
		    fail "$opt: values path"
		# no gap: --fill-gaps changes nothing
		sps-filterbank --fill-gaps $opt "$a" "$b" | cmp - "$T/j.fil"
	done
}

@test "sps-filterbank: channel-major input is refused, also with a start" {
	sps-cornerturn -q -o "$T/cm.fil" "$DATA/parkes_8bit_1.fil"
	for start in "" "-S 5"; do
		run -1 --separate-stderr sps-filterbank $start -o "$T/x.fil" \
		    "$T/cm.fil"
		assert_equal "$stderr" "sps-filterbank: $T/cm.fil: channel-major data (sps_order 1): turn it back with sps-cornerturn --to time first"
		[ ! -e "$T/x.fil" ]
	done
}
