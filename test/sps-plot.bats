#!/usr/bin/env bats
# sps-plot: candidate sheets and the overview, as PNG, PDF and SVG; the
# choice of candidates; bad input; sps-search --plot.
# Also requires: sps-search (the candidates of data/sample.fil)

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

bats_require_minimum_version 1.5.0

setup() {
	sample="$BATS_TEST_DIRNAME/../data/sample.fil"
	cd "$BATS_TEST_TMPDIR" || exit 1
	if sps-plot --overview /dev/null -o empty.png 2>&1 |
	    grep -q 'built without cairo'; then
		skip "sps-plot was built without cairo"
	fi
	# the three pulses of data/sample.fil (data/README), found once
	cands="$BATS_FILE_TMPDIR/out"
	[ -s "$cands/candidates.txt" ] ||
	    sps-search -q "$sample" --dm 0 600 -o "$cands" >/dev/null
}

# png FILE MINWIDTH: a PNG signature and an IHDR of at least MINWIDTH
# pixels wide and 300 high; prints "WIDTH HEIGHT"
png() {
	local sig size

	sig=$(od -An -tx1 -N8 "$1" | tr -d ' \n')
	[ "$sig" = 89504e470d0a1a0a ] || fail "$1: not a PNG ($sig)"
	[ "$(od -An -c -j12 -N4 "$1" | tr -d ' ')" = IHDR ] ||
	    fail "$1: no IHDR first"
	size=$(od -An -tu1 -j16 -N8 "$1" | awk '{
	    w = (($1 * 256 + $2) * 256 + $3) * 256 + $4
	    h = (($5 * 256 + $6) * 256 + $7) * 256 + $8
	    print w, h }')
	[ "${size% *}" -ge "$2" ] && [ "${size#* }" -ge 300 ] ||
	    fail "$1: $size"
	echo "$size"
}

# no_temporaries DIR: no file left under a temporary name
no_temporaries() {
	[ -z "$(find "$1" -name '*.tmp.*')" ] ||
	    fail "left: $(find "$1" -name '*.tmp.*')"
}

@test "sps-plot: a sheet a candidate of data/sample.fil, named by rank, time and DM" {
	run -0 --separate-stderr sps-plot "$cands/candidates.txt" "$sample" \
	    -o sheets
	# one pass of reads: the windows only, 24000 spectra in the file
	[[ "$stderr" =~ ^sps-plot:\ 3\ sheets\ in\ sheets\ \([0-9.]+\ s\;\ ([0-9]+)\ of\ 24000\ spectra\ read,\ [0-9.]+%\)$ ]] ||
	    fail "$stderr"
	[ "${BASH_REMATCH[1]}" -gt 0 ] && [ "${BASH_REMATCH[1]}" -lt 24000 ]
	# brightest first: 500 at 9.0 s (S/N 25), 250 at 5.5 s, 100 at 2.0 s
	run -0 ls sheets
	[ "${#lines[@]}" -eq 3 ] || fail "$output"
	[[ "${lines[0]}" =~ ^cand_rank1_t8\.99[0-9]+_dm49[0-9]\.[0-9]+\.png$ ]]
	[[ "${lines[1]}" =~ ^cand_rank2_t5\.49[0-9]+_dm25[0-9]\.[0-9]+\.png$ ]]
	[[ "${lines[2]}" =~ ^cand_rank3_t1\.99[0-9]+_dm10[0-9]\.[0-9]+\.png$ ]]
	for f in sheets/*; do
		[ "$(png "$f" 1000)" = "1200 900" ]
	done
	# three different pictures
	[ "$(cksum sheets/* | cut -d' ' -f1 | sort -u | wc -l)" -eq 3 ]
}

@test "sps-plot: --rank, --top and --snr choose the candidates" {
	run -0 sps-plot -q --rank 2 "$cands/candidates.cand" "$sample" -o r2
	[ "$(ls r2)" = "$(ls r2 | grep -x 'cand_rank2_t5\.49[0-9]*_dm25[0-9.]*\.png')" ]
	run -0 sps-plot -q --top 2 "$cands/candidates.singlepulse" "$sample" \
	    -o t2
	[ "$(ls t2 | wc -l)" -eq 2 ]
	[ "$(ls t2 | grep -c 'rank[12]_')" -eq 2 ]
	run -0 sps-plot -q --snr 18 "$cands/candidates.txt" "$sample" -o s18
	[ "$(ls s18 | wc -l)" -eq 2 ]
	run -0 --separate-stderr sps-plot --snr 30 "$cands/candidates.txt" \
	    "$sample" -o s30
	[ -z "$(ls s30)" ]
	[[ "$stderr" == "sps-plot: 0 sheets in s30"* ]] || fail "$stderr"
	run -1 sps-plot --rank 4 "$cands/candidates.txt" "$sample" -o r4
	assert_output "sps-plot: rank 4 of 3 candidates"
}

@test "sps-plot: one file: PNG, PDF or SVG by its suffix, the size asked for" {
	run -0 sps-plot -q --rank 1 "$cands/candidates.txt" "$sample" -o a.png \
	    --width 1600 --height 1000
	[ "$(png a.png 1000)" = "1600 1000" ]
	run -0 sps-plot -q --rank 1 "$cands/candidates.txt" "$sample" -o a.pdf
	[ "$(head -c 5 a.pdf)" = "%PDF-" ]
	tail -c 10 a.pdf | grep -q '%%EOF'
	run -0 sps-plot -q --rank 1 "$cands/candidates.txt" "$sample" -o a.SVG
	grep -q '<svg' a.SVG
	grep -q 'width="1200pt" height="900pt"' a.SVG
	run -0 sps-plot -q --top 2 --format svg "$cands/candidates.txt" \
	    "$sample" -o dir/
	[ "$(ls dir/*.svg | wc -l)" -eq 2 ]
	no_temporaries .
}

@test "sps-plot: --overview of sps's table, .cand and .singlepulse, and of Heimdall's own .cand" {
	local f

	for f in candidates.txt candidates.cand candidates.singlepulse; do
		run -0 --separate-stderr sps-plot --overview "$cands/$f" \
		    "$sample" -o "ov-$f.png"
		assert_equal "$stderr" "sps-plot: 3 candidates in ov-$f.png"
		[ "$(png "ov-$f.png" 1000)" = "1200 900" ]
	done
	# Heimdall's columns: snr sample time filter dm_trial dm members
	# begin end; its times are the boxcar's centre at 500 us
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
	    15.2 4001 2.0005 2 38 100.4 12 3990 4010 \
	    24.9 18005 9.0025 5 75 495.9 30 17980 18030 >own.cand
	run -0 sps-plot --overview own.cand -o ovdir
	assert_output "sps-plot: 2 candidates in ovdir/overview.png"
	png ovdir/overview.png 1000
	# without a data file, and PDF
	run -0 sps-plot -q --overview "$cands/candidates.txt" -o ov.pdf
	[ "$(head -c 5 ov.pdf)" = "%PDF-" ]
}

@test "sps-plot: an empty candidate list gives an overview that says so" {
	: >none.cand
	run -0 sps-plot --overview none.cand "$sample" -o none.png
	assert_output "sps-plot: 0 candidates in none.png"
	png none.png 1000
}

@test "sps-plot: candidates that do not fit the data are one line each" {
	printf '%s\t' 15 90001 45.0005 2 38 100 1 90000 90002 >late.cand
	printf '\n' >>late.cand
	run -1 sps-plot late.cand "$sample" -o x
	[ "${#lines[@]}" -eq 1 ] || fail "$output"
	assert_output --regexp '^sps-plot: late\.cand:1: sample [0-9]+ is past the end of the data \(24000 samples\)$'
	printf '%s\t' 15 4001 2.0005 2 38 250000 1 3990 4010 >dm.cand
	printf '\n' >>dm.cand
	run -1 sps-plot dm.cand "$sample" -o x
	[ "${#lines[@]}" -eq 1 ] || fail "$output"
	assert_output --partial 'sps-plot: dm.cand:1: '
	assert_output --partial 'DM'
	run -1 sps-plot --overview late.cand "$sample" -o x.png
	assert_output --partial 'is past the end of the data'
	[ ! -e x.png ] && [ -z "$(ls x)" ]
}

@test "sps-plot: unknown suffix, unwritable output, one file for many: one line each" {
	run -2 sps-plot "$cands/candidates.txt" "$sample" -o x.jpg
	assert_output "sps-plot: x.jpg: unknown suffix (.png, .pdf or .svg)"
	run -2 sps-plot --overview "$cands/candidates.txt" -o x.eps
	assert_output "sps-plot: x.eps: unknown suffix (.png, .pdf or .svg)"
	run -2 sps-plot --format gif "$cands/candidates.txt" "$sample"
	[ "${lines[0]}" = "sps-plot: --format gif: png, pdf or svg" ]
	: >file
	run -1 sps-plot --rank 1 "$cands/candidates.txt" "$sample" -o file/x.png
	assert_output "sps-plot: file/x.png: Not a directory"
	run -1 sps-plot "$cands/candidates.txt" "$sample" -o file/sheets
	assert_output "sps-plot: file/sheets: Not a directory"
	run -1 sps-plot "$cands/candidates.txt" "$sample" -o one.png
	assert_output "sps-plot: one.png: 3 candidates chosen and one file named (name a directory, or choose one with --rank N)"
	[ ! -e one.png ]
	no_temporaries .
}

@test "sps-plot: a pipe or missing data, a bad candidate file: one line each" {
	run -1 sps-plot "$cands/candidates.txt" - <"$sample"
	assert_output "sps-plot: stdin: a pipe cannot be read for candidates (it is read by seeking); give a file"
	mkfifo fifo
	run -1 sps-plot "$cands/candidates.txt" fifo
	assert_output --partial "sps-plot: fifo: a pipe cannot be read"
	run -1 sps-plot "$cands/candidates.txt" nothere.fil
	assert_output --partial "sps-plot: nothere.fil: "
	[ "${#lines[@]}" -eq 1 ]
	# the folder -o made is gone with the failure
	run -1 sps-plot -o made/ "$cands/candidates.txt" nothere.fil
	[ ! -e made ] || fail "left made/"
	printf '1 2 3\n' >bad.cand
	run -1 sps-plot bad.cand "$sample"
	[ "${#lines[@]}" -eq 1 ] || fail "$output"
	assert_output --partial "sps-plot: bad.cand:1: "
	run -2 sps-plot "$cands/candidates.txt"
	[ "${lines[0]}" = "sps-plot: no data file (the sheets are drawn from it; --overview needs none)" ]
	run -2 sps-plot --overview --top 2 "$cands/candidates.txt"
	[ "${lines[0]}" = "sps-plot: --overview draws every candidate: --snr only" ]
}

@test "sps-plot: kill-masked channels and the PRESTO channel list are drawn hatched" {
	local k

	# a mask leaving out channels 0-15 (the top of the band) from
	# Heimdall's kill file: the sheet differs from the unmasked one
	for k in $(seq 0 63); do
		[ "$k" -lt 16 ] && echo 0 || echo 1
	done >kill.txt
	run -0 sps-plot -q --rank 1 -k kill.txt "$cands/candidates.txt" \
	    "$sample" -o k.png
	run -0 sps-plot -q --rank 1 "$cands/candidates.txt" "$sample" -o n.png
	run -0 sps-plot -q --rank 1 --ignorechan 48:63 \
	    "$cands/candidates.txt" "$sample" -o i.png
	! cmp -s k.png n.png
	# the same channels by either list
	cmp k.png i.png
	run -1 sps-plot --rank 1 -k nothere.txt "$cands/candidates.txt" "$sample"
	assert_output --partial "nothere.txt"
}

@test "sps-search --plot: sheets of the brightest and the overview, fused and --pipe" {
	run -0 sps-search -q "$sample" --dm 0 600 --plot p
	[ "$(grep -vc '^#' <<<"$output")" -eq 3 ]
	[ "$(ls p/cand_rank*.png | wc -l)" -eq 3 ]
	png p/overview.png 1000
	[ -s p/candidates.cand ] && [ -s p/candidates.txt ]
	run -0 --separate-stderr sps-search "$sample" --dm 0 600 --pipe \
	    --plot q --plot-top 1 -o qc
	[ "$(ls q)" = "$(ls q | grep -E '^(cand_rank1_.*|overview)\.png$')" ]
	[ "$(ls q | wc -l)" -eq 2 ]
	[ -s qc/candidates.txt ]
	[[ "$stderr" == *"sps-search: 1 sheets and overview.png in q"* ]] ||
	    fail "$stderr"
	run -2 sps-search --dm 0 600 --plot p - <"$sample"
	[ "${lines[0]}" = "sps-search: --plot draws from the data file: name one, not the standard input" ]
}
