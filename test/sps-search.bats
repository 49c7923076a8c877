#!/usr/bin/env bats
# sps-search: the whole search in one process, and with --pipe through the
# single tools, on the project's sample and on the shared recordings.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

bats_require_minimum_version 1.5.0

setup() {
	sample="$BATS_TEST_DIRNAME/../data/sample.fil"
	shared="$BATS_TEST_DIRNAME/../../shared/data"
	cd "$BATS_TEST_TMPDIR" || exit 1
}

# found TABLE DM TIME WIDTH_S: one candidate (text table: time_s sample
# width snr dm ...) within 10 % of DM (more than a trial step there) and
# whose boxcar start is within one pulse width of TIME
found() {
	awk -v dm="$2" -v t="$3" -v w="$4" '
	    !/^#/ && ($5 - dm) ^ 2 <= (0.1 * dm) ^ 2 &&
	    ($1 - t) ^ 2 <= w ^ 2 { n++ }
	    END { exit n == 1 ? 0 : 1 }' "$1" ||
	    fail "no single candidate at DM $2, $3 s in $(cat "$1")"
}

@test "sps-search: data/sample.fil is what data/README says made it" {
	sps-fake -q --nchans 64 --nbits 8 --tsamp 500 --tobs 12 --fch1 1500 \
	    --foff -4 --seed 11 \
	    --pulse dm=100,t=2.0,width=2ms,snr=15 \
	    --pulse dm=250,t=5.5,width=5ms,snr=20 \
	    --pulse dm=500,t=9.0,width=10ms,snr=25 >remade.fil
	cmp remade.fil "$sample"
}

@test "sps-search: finds exactly the three pulses of data/sample.fil" {
	run -0 --separate-stderr sps-search "$sample" --dm 0 600
	printf '%s\n' "$output" >table
	[ "$(grep -vc '^#' table)" -eq 3 ] || fail "$(cat table)"
	found table 100 2.0 0.002
	found table 250 5.5 0.005
	found table 500 9.0 0.010
	# S/N near the injected values (BD-16 loses a little, noise adds)
	awk '!/^#/ { r = $4 / ($5 < 200 ? 15 : $5 < 400 ? 20 : 25)
	    if (r < 0.8 || r > 1.2) exit 1 }' table
	# the summary: trials, where they ran, events and candidates
	[[ "$stderr" =~ sps-search:\ 81\ trials\ dedispersed\ on\ the\ (CPU|GPU),\ searched\ on\ the\ (CPU|GPU):\ [0-9]+\ events,\ 3\ candidates ]] ||
	    fail "$stderr"
}

@test "sps-search: -o writes Heimdall and PRESTO candidate files" {
	run -0 sps-search -q "$sample" --dm 0 600 -o out
	[ "$(grep -vc '^#' <<<"$output")" -eq 3 ]
	[ "$(wc -l <out/candidates.cand)" -eq 3 ]
	[ "$(awk -F'\t' '{ print NF }' out/candidates.cand | sort -u)" = 10 ]
	head -n 1 out/candidates.singlepulse |
	    grep -qx '# DM      Sigma      Time (s)     Sample    Downfact'
	[ "$(wc -l <out/candidates.singlepulse)" -eq 5 ]
	[ -s out/candidates.txt ]
}

@test "sps-search: standard input gives the same candidates as the file" {
	sps-search -q "$sample" --dm 0 600 >file.txt
	sps-search -q - --dm 0 600 <"$sample" >stdin.txt
	cmp file.txt stdin.txt
}

@test "sps-search: a recording cut inside a spectrum gives the candidates of its whole spectra, with one warning" {
	local size hs n warning

	size=$(stat -c %s "$sample")
	hs=$(sps-header --headersize "$sample")
	n=$(((size - 100 - hs) / 64))
	head -c $((size - 100)) "$sample" >cut.fil
	head -c $((hs + n * 64)) "$sample" >whole.fil
	warning="bytes after the last whole spectrum ignored (a cut recording?)"
	sps-search -q whole.fil --dm 0 600 -o whole >whole.txt
	run -0 --separate-stderr sps-search -q cut.fil --dm 0 600 -o cut
	printf '%s\n' "$output" >cut.txt
	assert_equal "$stderr" "sps-search: cut.fil: 28 $warning"
	cmp whole.txt cut.txt
	diff -r whole cut
	[ "$(grep -vc '^#' cut.txt)" -eq 3 ] || fail "$(cat cut.txt)"
	# through a pipe
	cat whole.fil | sps-search -q --dm 0 600 >whole-pipe.txt
	run -0 --separate-stderr sh -c \
	    'cat cut.fil | sps-search -q --dm 0 600 >cut-pipe.txt'
	assert_equal "$stderr" "sps-search: stdin: 28 $warning"
	cmp whole-pipe.txt cut-pipe.txt
	# through the single tools: sps-clean reads the data and warns
	run -0 --separate-stderr sps-search -q --pipe cut.fil --dm 0 600
	printf '%s\n' "$output" >cut-tools.txt
	assert_equal "$stderr" "sps-clean: cut.fil: 28 $warning"
	sps-search -q --pipe whole.fil --dm 0 600 >whole-tools.txt
	cmp whole-tools.txt cut-tools.txt
}

# The Crab recording holds no pulse above 6; at 5 without cleaning the
# noise gives a few candidates, which must be those of the same data
# converted to SIGPROC by sps-filterbank (whose PSRFITS values are
# checked against aux-mkfits's in sps-filterbank.bats)
@test "sps-search: reads PSRFITS" {
	sps-filterbank -q "$shared/parkes_4bit.sf" >sf.fil
	sps-search -q --no-clean -s 5 sf.fil --dm 0 200 >want.txt
	run -0 --separate-stderr sps-search -q --no-clean -s 5 \
	    "$shared/parkes_4bit.sf" --dm 0 200
	assert_equal "$stderr" ""
	printf '%s\n' "$output" >got.txt
	[ "$(grep -vc '^#' got.txt)" -ge 1 ] || fail "no candidate: $output"
	cmp want.txt got.txt
}

@test "sps-search: bad input is one line naming the input" {
	printf 'not a filterbank at all' >junk.fil
	run -1 --separate-stderr sps-search -q junk.fil --dm 0 100
	assert_output ""
	[ "$stderr" = "sps-search: junk.fil: not a SIGPROC file (no HEADER_START at byte 0)" ] ||
	    fail "$stderr"
	run -1 --separate-stderr sps-search -q - --dm 0 100 <junk.fil
	[ "$stderr" = "sps-search: stdin: not a SIGPROC file (no HEADER_START at byte 0)" ] ||
	    fail "$stderr"
	run -1 --separate-stderr sps-search -q missing.fil
	[ "$stderr" = "sps-search: missing.fil: No such file or directory" ] ||
	    fail "$stderr"
	head -c 451 "$shared/parkes_8bit_1.fil" >cut.fil
	run -1 --separate-stderr sps-search -q cut.fil --dm 0 50
	[ "$stderr" = "sps-search: cut.fil: truncated data: 100 bytes, not one whole spectrum of 832" ] ||
	    fail "$stderr"
	run -1 --separate-stderr sps-search -q - --dm 0 50 </dev/null
	[ "$stderr" = "sps-search: stdin: empty input (no header)" ] ||
	    fail "$stderr"
	run -2 sps-search --bogus "$sample"
	run -2 sps-search -a FOO "$sample"
	run -2 sps-search "$sample" "$sample"
	run -0 sps-search --help
	assert_line --index 0 --partial 'usage: sps-search'
	run -0 sps-search --version
	assert_output --regexp '^sps-search [0-9.]+$'
}

@test "sps-search --pipe: a failing stage is named, nothing is left" {
	printf 'not a filterbank at all' >junk.fil
	run -1 --separate-stderr sps-search --pipe -q junk.fil --dm 0 100 -o out
	assert_output ""
	[[ "$stderr" == *"sps-search: stage failed: sps-clean exited 1" ]] ||
	    fail "$stderr"
	[ ! -e out ] || fail "left out/ $(ls -A out)"
	# nor by the one process, from a file cut short; a folder that was
	# there stays
	head -c 5000 "$sample" >cut.fil
	run -1 sps-search -q cut.fil --dm 0 100 -o out
	[ ! -e out ] || fail "left out/ $(ls -A out)"
	mkdir was
	run -1 sps-search -q cut.fil --dm 0 100 -o was
	[ -d was ] && [ -z "$(ls -A was)" ] || fail "was/: $(ls -A was)"
}

# The fused path and the pipe of the single tools: the same candidates,
# byte for byte, in every file
@test "sps-search: one process and --pipe give identical candidate files" {
	local f n=0

	for args in "$sample --dm 0 600" \
	    "$sample --dm 0 600 --scrunch -s 6 -a IG2 -w 256" \
	    "$sample --dm 0 600 --white --baseline 1 --algo subband" \
	    "$shared/parkes_8bit_1.fil --dm 0 150 -t 2" \
	    "$shared/parkes_4bit.sf --dm 0 80"; do
		rm -rf one pipe
		# shellcheck disable=SC2086
		sps-search -q --cpu $args -o one >one.txt
		# shellcheck disable=SC2086
		sps-search -q --cpu --pipe $args -o pipe >pipe.txt
		cmp one.txt pipe.txt || fail "$args: tables differ"
		for f in candidates.cand candidates.singlepulse candidates.txt; do
			cmp "one/$f" "pipe/$f" || fail "$args: $f differs"
		done
		cmp one.txt one/candidates.txt
		n=$((n + $(grep -vc '^#' one.txt || true)))
	done
	# the three of sample.fil at least, in each of its three cases
	[ "$n" -ge 9 ] || fail "$n candidates in all"
}

@test "sps-search: --gpu without a usable device is an error, not a fallback" {
	CUDA_VISIBLE_DEVICES= run -1 --separate-stderr sps-search -q --gpu \
	    "$sample" --dm 0 600
	assert_output ""
	[[ "$stderr" == "sps-search: GPU 0: "* || "$stderr" == *"built without CUDA"* ]] ||
	    fail "$stderr"
}

@test "sps-completeness: a bright injected pulse is recovered, a faint wide one reported as lost" {
	run -0 sps-completeness "$shared/parkes_8bit_1.fil" --dm 0 150 \
	    --dms 50 --widths "1 16" --snrs "20 6" --times 0.5
	assert_line --index 0 --regexp '^ +DM +width_ms +S/N +recovered +S/N_ratio +white_ratio +clipped$'
	assert_line --regexp '^ +50 +1 +20 +1/1 +0\.[5-9][0-9]* +[01]\.[0-9]+ +[0-9]+$'
	assert_line --regexp '^ +50 +16 +6 +0/1 +- +[-0-9.]+ +[0-9]+$'
	[ "${#lines[@]}" -eq 5 ]
}

@test "sps-completeness: usage and unreadable input" {
	run -2 --separate-stderr sps-completeness
	assert_equal "${stderr_lines[0]}" "sps-completeness: no input file"
	run -2 --separate-stderr sps-completeness a.fil b.fil
	assert_equal "${stderr_lines[0]}" \
	    "sps-completeness: one input file, not 'b.fil' too"
	run -0 sps-completeness --version
	[[ "$output" =~ ^sps-completeness\ [0-9] ]] || fail "$output"
	run -0 sps-completeness --help
	assert_line --partial "--widths \"MS ...\"   pulse widths, ms"
	run -1 --separate-stderr sps-completeness missing.fil
	[[ "$stderr" == "sps-completeness: missing.fil: cannot read" ]]
}

# The whole pipeline on Gaussian noise: every pulse of S/N 8, 12 and 20
# and width 1 to 256 samples is found within one trial of its DM (or, for
# wide pulses, at a DM whose sweep across the band differs by less than
# the width: the plan's trials are spaced for 40 us pulses) and one width
# of its start, and the found S/N is, on average over pulses and
# seeds, within 10 % of the injected S/N times (1 - predicted systematic
# loss of BD-16).
@test "sps-search: pulses of S/N 8, 12, 20 and widths 1-256 come through the pipeline" {
	local seed snr w i plan=plan.txt
	sps-boxcar --loss -a BD-16 -w 512 >loss.txt
	: >found.txt
	for seed in 1 2; do
		for snr in 8 12 20; do
			i=0
			: >pulses.txt
			for w in 1 4 16 64 256; do
				i=$((i + 1))
				# centred so that the pulse fills whole samples
				echo "dm=150,t=$((i * 2000 + w / 2)).$((w % 2 * 5))samp,width=${w}samp,snr=$snr,shape=rect" >>pulses.txt
			done
			sps-fake -q --nchans 64 --nbits 8 --tsamp 256 \
			    --nsamples 14000 --fch1 1500 --foff -2 --nosmear \
			    --seed "$seed$snr" --pulses pulses.txt -o in.fil
			sps-plan -q in.fil --dm 100 200 -o "$plan"
			sps-dedisperse -q --plan "$plan" in.fil |
			    sps-boxcar -q -a BD-16 -w 512 -s 5 |
			    sps-peaks -q -s 5 >cands.txt
			# per pulse: the best candidate near it, or "missed"
			awk -v snr="$snr" -v plan="$plan" '
			    FILENAME == ARGV[1] { if (!/^#/) sys[$1] = $2; next }
			    FILENAME == ARGV[2] { split($0, f, /[=,]/)
				t = f[4]; sub(/samp/, "", t)
				w = f[6]; sub(/samp/, "", w)
				start[++np] = t - w / 2; wid[np] = w + 0; next }
			    /^#/ { next }
			    { c[++nc] = $0 }
			    END {
				k_band = 1 / 1374 ^ 2 - 1 / 1500 ^ 2
				while ((getline l < plan) > 0)
					if (l ~ /^[0-9]/) { split(l, p, " ")
					    d = p[1] - 150; d = d < 0 ? -d : d
					    if (nt == 0 || d < bestd) {
						bestd = d; k = nt }
					    nt++ }
				for (j = 1; j <= np; j++) {
					best = 0
					for (i = 1; i <= nc; i++) {
						split(c[i], x, " ")
						dt = x[2] - start[j]
						dt = dt < 0 ? -dt : dt
						dk = x[6] - k; dk = dk < 0 ? -dk : dk
						# one trial, or a DM error whose
						# sweep across the band is under the
						# width (indistinguishable)
						ddm = x[5] - 150; ddm = ddm < 0 ? -ddm : ddm
						sweep = 4148.808 * ddm * k_band / 0.000256
						if (dt <= wid[j] &&
						    (dk <= 1 || sweep <= wid[j]) &&
						    x[4] > best)
							best = x[4]
					}
					want = snr * (1 - sys[wid[j]])
					if (best == 0)
						print "missed", snr, wid[j]
					else
						print best / want, snr, wid[j]
				}
			    }' loss.txt pulses.txt cands.txt >>found.txt
		done
	done
	run awk '$1 == "missed" { print; bad = 1 }
	    $1 != "missed" { s += $1; n++ }
	    END { printf "mean ratio %.3f over %d pulses\n", s / n, n
		exit bad || n != 30 || s / n < 0.9 || s / n > 1.1 }' found.txt
	[ "$status" -eq 0 ] || fail "$output: $(cat found.txt)"
}

# the padding after the end of integer data keeps each channel's mean: a
# rounded mean shifted 1024 2-bit channels by many times the noise
@test "sps-search: the end of 2-bit noise gives no candidate" {
	sps-fake -q --nbits 2 --nchans 1024 --tobs 2 --tsamp 64 \
	    --fch1 1581.8046875 --foff -0.390625 --seed 3 >n2.fil
	run --separate-stderr sps-search -q --cpu -s 7 --dm 0 1000 n2.fil
	assert_success
	[ "$(printf '%s\n' "$output" | grep -vc '^#')" -eq 0 ] || fail "$output"
}

@test "sps-search: Heimdall's -dm spelling is answered with --dm" {
	run -2 --separate-stderr sps-search -dm 0 500 "$sample"
	assert_output ""
	assert_equal "$stderr" "sps-search: -dm: did you mean --dm?"
	run -2 --separate-stderr sps-search a.fil b.fil
	assert_equal "${stderr_lines[0]}" \
	    "sps-search: one input file at most, not 'b.fil' too"
	run -2 --separate-stderr sps-plan -dm_tol=1.2 "$sample"
	assert_equal "$stderr" "sps-plan: -dm_tol: did you mean --dm_tol?"
}

# --ignorechan numbers channels as PRESTO does, from the lowest frequency:
# in data/sample.fil (foff < 0) 0:47 are the file's channels 16 to 63,
# which a kill file leaves out as 16 ones and 48 zeros
@test "sps-search: --ignorechan leaves out PRESTO's channels, fused and --pipe alike" {
	local args="$sample --dm 0 600" f

	{ yes 1 | head -16; yes 0 | head -48; } >kill.txt
	# shellcheck disable=SC2086
	sps-search -q --cpu $args >all.txt
	for way in "" --pipe; do
		rm -rf one two
		# shellcheck disable=SC2086
		sps-search -q --cpu $way $args --ignorechan 0:47 -o one >one.txt
		# shellcheck disable=SC2086
		sps-search -q --cpu $way $args -k kill.txt -o two >two.txt
		cmp one.txt two.txt || fail "$way: --ignorechan is not the kill file"
		diff -r one two
		! cmp -s one.txt all.txt || fail "$way: --ignorechan changed nothing"
	done
	# the fused search and the pipe of the single tools: byte for byte
	for args in "$sample --dm 0 600 --ignorechan 0:47" \
	    "$sample --dm 0 600 --ignorechan 3,5:20:3 -k kill.txt" \
	    "$shared/parkes_8bit_1.fil --dm 0 150 --ignorechan 0:99,700:831"; do
		rm -rf one pipe
		# shellcheck disable=SC2086
		sps-search -q --cpu $args -o one >one.txt
		# shellcheck disable=SC2086
		sps-search -q --cpu --pipe $args -o pipe >pipe.txt
		cmp one.txt pipe.txt || fail "$args: tables differ"
		for f in candidates.cand candidates.singlepulse candidates.txt; do
			cmp "one/$f" "pipe/$f" || fail "$args: $f differs"
		done
	done
}

@test "sps-search: a bad --ignorechan is one line, before any work" {
	run -1 --separate-stderr sps-search -q "$sample" --dm 0 600 \
	    --ignorechan 0:64
	assert_output ""
	[[ "$stderr" == "sps-search: --ignorechan"*"64"* ]] || fail "$stderr"
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "$stderr"
	run -1 --separate-stderr sps-search -q --pipe "$sample" --dm 0 600 \
	    --ignorechan x
	[[ "$stderr" == *"sps-clean: --ignorechan"* ]] || fail "$stderr"
}

# The S/N with the noise measured and with white noise assumed, side by
# side: the recording's red noise takes two thirds of a 16 ms pulse's S/N
# (sums of 32 samples are 3 times noisier than white), white noise with
# its header nothing; the white-noise ratio is 0.9 on the recording, its
# channels being correlated (sps-completeness(1))
@test "sps-completeness: S/N with the noise measured and with white noise, side by side" {
	local grid=(--dm 0 150 --dms 50 --widths 16 --snrs 80 --times "0.5 1.1")

	run -0 sps-completeness -q "$shared/parkes_8bit_1.fil" "${grid[@]}"
	run -0 awk 'NR == 2 && $4 == "2/2" && $5 < 0.45 && $6 > 0.8 &&
	    $6 < 1.1 { ok = 1 } END { exit !ok }' <<<"$output"
	sps-fake -q --nchans 832 --fch1 4030 --foff -4 --tsamp 512 \
	    --nsamples 4096 --seed 7 -o white.fil
	run -0 sps-completeness -q white.fil "${grid[@]}"
	run -0 awk 'NR == 2 && $4 == "2/2" && $5 > 0.85 && $5 < 1.25 &&
	    $6 > 0.9 && $6 < 1.15 { ok = 1 } END { exit !ok }' <<<"$output"
}

# Data with no noise is searched nowhere: the fused search says so, naming
# the file (not "stdin"), and fails as its pipe does at sps-boxcar
@test "sps-search: constant data fails in one line naming the file, fused and piped" {
	sps-fake -q --nchans 32 --tobs 2 --no-noise -o "$BATS_TEST_TMPDIR/c.fil"
	run -1 --separate-stderr sps-search -q --dm 0 50 "$BATS_TEST_TMPDIR/c.fil"
	assert_equal "$stderr" "sps-search: $BATS_TEST_TMPDIR/c.fil: noise estimate zero or not a number in every trial (constant or empty data): nothing searched"
	run -1 --separate-stderr sps-search -q --pipe --dm 0 50 "$BATS_TEST_TMPDIR/c.fil"
	[[ "$stderr" == *"noise estimate zero or not a number in every trial"* ]] ||
	    fail "$stderr"
}

# The progress line: on a terminal only, wiped before each candidate
# printed to the same terminal, never with -q (script(1) gives the pty)
@test "sps-search: a progress line on a terminal only, not mixed into the candidates" {
	command -v script >/dev/null || skip "no script(1) for a terminal"
	local d=$BATS_TEST_TMPDIR
	SPS_PROGRESS_EVERY=0 script -qec "sps-search --dm 0 600 $sample" \
	    /dev/null >"$d/tty"
	grep -q 'sps-search: 100% (' "$d/tty" || fail "no progress: $(cat "$d/tty")"
	# nothing written after a progress line on its line: it was wiped
	run -1 grep -E 'real time[^)]*\) +[^ ]' <(tr '\r' '\n' <"$d/tty")
	tr '\r' '\n' <"$d/tty" | grep -Eq '^ +5\.49' || fail "$(cat -v "$d/tty")"
	SPS_PROGRESS_EVERY=0 script -qec "sps-search -q --dm 0 600 $sample" \
	    /dev/null >"$d/quiet"
	run grep -c '%' "$d/quiet"
	assert_output 0
	# the summary's cleaning line has a percentage, not a progress line
	SPS_PROGRESS_EVERY=0 sps-search --dm 0 600 "$sample" 2>"$d/err" >/dev/null
	run grep -cE 'sps-search: [0-9]+% \(' "$d/err"
	assert_output 0
	grep -q '% of samples replaced' "$d/err" || fail "$(cat "$d/err")"
}
