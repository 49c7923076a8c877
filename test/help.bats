#!/usr/bin/env bats
# -h, --help of every program: the synopsis, a blank line, then a line
# for each option (a second, indented, where it needs one), in 80
# columns, naming every long option the program's source accepts; a
# usage error prints its one line and the synopsis only.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

bats_require_minimum_version 1.5.0

top=$BATS_TEST_DIRNAME/..

# Every program: the C tools of tools/sps-NAME.c, and the scripts.
programs() {
	local f

	for f in "$top"/tools/sps-*.c; do
		f=${f##*/}
		echo "${f%.c}"
	done
	echo sps-completeness
	echo sps-cleancost
	echo sps-batch
}

# The long options a program accepts, one a line: the names in the
# struct option arrays of tools/sps-NAME.c (and of the cleaning options
# in tools/cleanopts.h, where it takes them), or the --NAME) cases of a
# script.
long_options() {
	local src=$top/tools/$1.c

	if [ -f "$src" ]; then
		grep -q CLEANOPTS_LONGOPTS "$src" && src="$src $top/tools/cleanopts.h"
		# shellcheck disable=SC2086
		sed -nE 's/^[[:space:]]*\{ "([^"]+)", (no|required|optional)_argument,.*/\1/p' \
		    $src
	else
		sed -nE 's/^[[:space:]]*(-[a-z]\|)?--([a-z_-]+)\).*/\2/p' \
		    "$top/scripts/$1"
	fi
}

# The synopsis of a program: its --help up to the first blank line.
synopsis() {
	"$1" --help | sed '/^$/q' | sed '$d'
}

@test "help: --help and -h exit 0 and print the synopsis, a blank line and the options on stdout only" {
	local p first help

	for p in $(programs); do
		run -0 --separate-stderr "$p" --help
		[ -z "$stderr" ] || fail "$p --help wrote on stderr: $stderr"
		[[ "$output" == "usage: $p "* ]] || fail "$p --help: $output"
		# the line after the first blank one is the first option's
		first=$(printf '%s\n' "$output" | sed -n '/^$/{n;p;q;}')
		[[ "$first" == "  -"* ]] ||
		    fail "$p --help: no option list after the synopsis"
		help=$output
		run -0 --separate-stderr "$p" -h
		[ "$output" = "$help" ] || fail "$p -h differs from --help"
	done
}

@test "help: every line of --help fits in 80 columns" {
	local p long

	for p in $(programs); do
		long=$("$p" --help | awk 'length > 80')
		[ -z "$long" ] || fail "$p --help: over 80 columns: $long"
	done
}

@test "help: --help names every long option of the program's source" {
	local p names name missing

	for p in $(programs); do
		names=$(long_options "$p")
		# help and version at least: the source was read
		[ "$(printf '%s\n' "$names" | grep -cxE 'help|version')" -eq 2 ] ||
		    fail "$p: no struct option array found: '$names'"
		run -0 "$p" --help
		missing=
		for name in $names; do
			printf '%s\n' "$output" |
			    grep -qE -- "--$name([^-_[:alnum:]]|\$)" ||
			    missing="$missing --$name"
		done
		[ -z "$missing" ] || fail "$p --help does not name$missing"
	done
}

@test "help: sps-header --help lists every value it prints" {
	local v values missing=

	values=$(sed -nE 's/^[[:space:]]*\{ "([^"]+)", SPS_VALUE_.*/\1/p' \
	    "$top/lib/header_show.c")
	[ "$(printf '%s\n' "$values" | wc -l)" -gt 30 ] ||
	    fail "no values read from lib/header_show.c"
	run -0 sps-header --help
	for v in $values; do
		printf '%s\n' "${output#*VALUE:}" | grep -qw -- "$v" ||
		    missing="$missing $v"
	done
	[ -z "$missing" ] || fail "sps-header --help does not list$missing"
}

# Arguments that a program's own checks refuse (after getopt's).
bad_arguments() {
	case $1 in
	sps-boxcar) printf '%s\n' '--loss --bench' ;;
	sps-candmaker) printf '%s\n' '--rank 1 --top 2 a b' ;;
	sps-clean) printf '%s\n' '--zerodm --zdot' ;;
	sps-cornerturn) printf '%s\n' '--to nowhere' ;;
	sps-dedisperse) printf '%s\n' '-d 10 --dm 0 100' ;;
	sps-fake) printf '%s\n' '--tobs 1 --nsamples 5' ;;
	sps-filterbank) printf '%s\n' '-s 1 -S 5' ;;
	sps-header) printf '%s\n' '--json --tsamp x.fil' ;;
	sps-peaks) printf '%s\n' '-o a --per-dm b' ;;
	sps-plan) printf '%s\n' '--ddplan --step 0 1 2' ;;
	sps-plot) printf '%s\n' '--rank 1 --top 2' ;;
	sps-search) printf '%s\n' 'a.fil b.fil' ;;
	sps-tscrunch) printf '%s\n' '-n 3' ;;
	sps-completeness) printf '%s\n' '-q' ;;
	sps-cleancost) printf '%s\n' '--trials 0' ;;
	sps-batch) printf '%s\n' '-j 0' ;;
	*) return 1 ;;
	esac
}

@test "help: a usage error prints its one line and the synopsis, not the options" {
	local p bad args want

	for p in $(programs); do
		want=$(synopsis "$p")
		bad=$(bad_arguments "$p") || fail "$p: no bad_arguments"
		# an unknown option, an option without its value, bad_arguments
		for args in --no-such-option --output "$bad"; do
			run -2 --separate-stderr "$p" $args	# split into words
			[ -z "$output" ] || fail "$p $args wrote on stdout: $output"
			[[ "${stderr_lines[0]}" == "$p: "* ]] ||
			    fail "$p $args: $stderr"
			[ "${stderr#*$'\n'}" = "$want" ] ||
			    fail "$p $args: not one line and the synopsis: $stderr"
		done
	done
}
