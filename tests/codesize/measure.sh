#!/usr/bin/env bash
# Measures the code serde_derive's `Deserialize` and `#[derive(ArenaDeserialize)]` generate for
# the same 50 types (40 structs of 6 fields, 10 enums with unit, newtype, tuple and struct
# variants): the figures in the README's "Size of the generated code".
#
#   tests/codesize/measure.sh        # CARGO_TARGET_DIR defaults to tests/codesize/target
#
# 1. gen.py writes four binaries into src/bin/: the 50 types each read from JSON, with serde_derive
#    on the owned twins (serde_types) and with ArenaDeserialize into a bumpalo arena
#    (arena_types), and for each a baseline reading one tuple of the same field types.
# 2. Release build (codegen-units = 1); each binary must read every sample document.
# 3. `.text` added by the 50 types: the types binary's `.text` minus its baseline's.
# 4. LLVM IR lines of the functions naming the 50 types, debug build, `--emit=llvm-ir`
#    (one codegen unit, v0 mangling so that generic instances name their type arguments).
# 5. Expanded source of each types binary (`-Zunpretty=expanded`), if a nightly toolchain is
#    installed.
# 6. Compile time of each types binary, its dependencies built: the binary's source touched and
#    rebuilt with `cargo check`, `cargo check` with arena-core's `json` feature (the derive's
#    direct JSON path is compiled only with it), a debug build and a release build, ROUNDS
#    (default 3) rounds with serde_types and arena_types interleaved in each; the median wall
#    time and the median CPU time (user + system, of cargo and rustc) of each. The release profile has one codegen
#    unit, so the release build runs on one core, as the debug build's LLVM mostly does. No
#    incremental cache (a touched file with the cache would reuse every query: the crate's
#    compile is what is timed). Wall time is only as quiet as the machine; CPU time is steadier
#    when other work runs beside it.
# 7. If valgrind is installed, the instructions rustc executes checking each types binary's
#    crate (`cargo check`, and with `json`), counted by callgrind: the same on a busy machine as
#    on a quiet one, so a change to the derive is measured there to a fraction of a percent.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$here/target}
docs=$CARGO_TARGET_DIR/codesize-docs
bins=(serde_types arena_types serde_base arena_base)

python3 gen.py src/bin "$docs"

cargo build --release --locked --bins
for bin in "${bins[@]}"; do
    case $bin in
        *_types) want="50 of 50 documents read" doc=$docs/types.jsonl ;;
        *) want="1 of 1 documents read" doc=$docs/base.jsonl ;;
    esac
    got=$("$CARGO_TARGET_DIR/release/$bin" <"$doc")
    if [[ $got != "$want" ]]; then
        echo "$bin: expected '$want', got '$got'" >&2
        exit 1
    fi
done

text() {
    size -A -d "$CARGO_TARGET_DIR/release/$1" | awk '$1 == ".text" { print $2 }'
}

ir_lines() {
    local bin=$1 deps=$CARGO_TARGET_DIR/debug/deps
    rm -f "$deps/$bin"-*.ll
    CARGO_INCREMENTAL=0 cargo rustc --locked --bin "$bin" -- \
        --emit=llvm-ir -C codegen-units=1 -C symbol-mangling-version=v0
    local files=("$deps/$bin"-*.ll)
    if [[ ${#files[@]} -ne 1 || ! -f ${files[0]} ]]; then
        echo "$bin: expected one .ll file in $deps, found: ${files[*]}" >&2
        exit 1
    fi
    python3 ir_lines.py "${files[0]}"
}

expanded_bytes() {
    cargo +nightly rustc --locked --quiet --bin "$1" -- -Zunpretty=expanded | wc -c
}

pct() { # the change from $1 to $2, in percent
    awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.0f%%", (b - a) * 100 / a }'
}

median() { # the median of its arguments
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# check_instructions BIN [FEATURE]: the instructions of rustc checking BIN's crate alone, its
# dependencies checked (rustc run as cargo runs it, under callgrind).
check_instructions() {
    local bin=$1 features=() cmd out
    [[ -n ${2-} ]] && features=(--features "$2")
    touch "src/bin/$bin.rs"
    cmd=$(CARGO_INCREMENTAL=0 cargo check --locked -v "${features[@]}" --bin "$bin" 2>&1 |
        sed -n "s/^ *Running \`\(.*--crate-name $bin .*\)\`\$/\1/p")
    if [[ -z $cmd ]]; then
        echo "$bin: no rustc command from cargo check -v" >&2
        exit 1
    fi
    out=$(mktemp -d)
    # The command as cargo ran it, its output in a directory of its own (its messages are
    # rendered for a terminal rather than as cargo's JSON).
    cmd=$(sed -e 's/--error-format=json --json=[^ ]*//' -e "s#--out-dir [^ ]*#--out-dir $out#" <<<"$cmd")
    valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$out/callgrind.%p" \
        bash -c "$cmd" 2>&1 | awk '/Collected/ { n = $4 } END { print n }'
    rm -rf "$out"
}

# compile_time MODE BIN: one rebuild of BIN's crate alone, "WALL CPU" in seconds.
compile_time() {
    local mode=$1 bin=$2 times
    local args=(build --locked --quiet --bin "$bin")
    case $mode in
        check) args=(check --locked --quiet --bin "$bin") ;;
        check-json) args=(check --locked --quiet --features json --bin "$bin") ;;
        release) args+=(--release) ;;
    esac
    times=$(mktemp)
    touch "src/bin/$bin.rs"
    if ! CARGO_INCREMENTAL=0 /usr/bin/time -o "$times" -f '%e %U %S' cargo "${args[@]}" >/dev/null; then
        echo "$bin: cargo ${args[*]} failed" >&2
        exit 1
    fi
    awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$times"
    rm -f "$times"
}

rounds=${ROUNDS:-3}
declare -A wall cpu
if [[ -x /usr/bin/time ]]; then
    for mode in check check-json debug release; do
        case $mode in
            check) CARGO_INCREMENTAL=0 cargo check --locked --quiet --bins ;;
            check-json) CARGO_INCREMENTAL=0 cargo check --locked --quiet --features json --bins ;;
            debug) CARGO_INCREMENTAL=0 cargo build --locked --quiet --bins ;;
        esac
        for ((r = 0; r < rounds; r++)); do
            for bin in serde_types arena_types; do
                t=$(compile_time "$mode" "$bin")
                read -r w c <<<"$t"
                wall[$mode.$bin]+=" $w"
                cpu[$mode.$bin]+=" $c"
            done
        done
    done
fi

declare -A instructions
if command -v valgrind >/dev/null; then
    for bin in serde_types arena_types; do
        instructions[check.$bin]=$(check_instructions "$bin")
        instructions[check-json.$bin]=$(check_instructions "$bin" json)
    done
fi

declare -A size ir
for bin in "${bins[@]}"; do
    size[$bin]=$(text "$bin")
done
serde_text=$((size[serde_types] - size[serde_base]))
arena_text=$((size[arena_types] - size[arena_base]))
for bin in serde_types arena_types; do
    out=$(ir_lines "$bin")
    read -r lines funcs seed <<<"$out"
    ir[$bin]="$lines lines in $funcs functions, $seed of them in ArenaSeed"
    ir[$bin.lines]=$lines
done
if rustup which --toolchain nightly cargo >/dev/null 2>&1; then
    serde_exp=$(expanded_bytes serde_types)
    arena_exp=$(expanded_bytes arena_types)
fi

echo
echo "$(rustc -V), $(uname -sm)"
for bin in "${bins[@]}"; do
    printf '  %-12s .text %10d bytes\n' "$bin" "${size[$bin]}"
done
echo
echo "                                  serde_derive   ArenaDeserialize"
printf '.text added by the 50 types      %12d   %12d (%s)\n' \
    "$serde_text" "$arena_text" "$(pct "$serde_text" "$arena_text")"
printf 'LLVM IR lines naming the types   %12d   %12d (%s)\n' \
    "${ir[serde_types.lines]}" "${ir[arena_types.lines]}" \
    "$(pct "${ir[serde_types.lines]}" "${ir[arena_types.lines]}")"
if [[ -n ${serde_exp-} ]]; then
    printf 'expanded source, bytes           %12d   %12d (%s)\n' \
        "$serde_exp" "$arena_exp" "$(pct "$serde_exp" "$arena_exp")"
else
    echo "expanded source: skipped (no nightly toolchain)"
fi
if [[ -n ${wall[release.serde_types]-} ]]; then
    for mode in check check-json debug release; do
        sw=$(median ${wall[$mode.serde_types]})
        aw=$(median ${wall[$mode.arena_types]})
        sc=$(median ${cpu[$mode.serde_types]})
        ac=$(median ${cpu[$mode.arena_types]})
        printf '%-33s%12s   %12s (%s)\n' "compile, $mode: wall s" "$sw" "$aw" "$(pct "$sw" "$aw")"
        printf '%-33s%12s   %12s (%s)\n' "compile, $mode: CPU s" "$sc" "$ac" "$(pct "$sc" "$ac")"
    done
    echo "(compile: each types binary's crate alone, the median of $rounds interleaved rounds)"
else
    echo "compile time: skipped (no /usr/bin/time)"
fi
if [[ -n ${instructions[check.serde_types]-} ]]; then
    for mode in check check-json; do
        si=${instructions[$mode.serde_types]}
        ai=${instructions[$mode.arena_types]}
        printf '%-33s%12s   %12s (%s)\n' "compile, $mode: rustc Ginstr" \
            "$(awk -v n="$si" 'BEGIN { printf "%.3f", n / 1e9 }')" \
            "$(awk -v n="$ai" 'BEGIN { printf "%.3f", n / 1e9 }')" "$(pct "$si" "$ai")"
    done
else
    echo "rustc instructions: skipped (no valgrind)"
fi
echo "(IR: serde_derive ${ir[serde_types]}, ArenaDeserialize ${ir[arena_types]})"
