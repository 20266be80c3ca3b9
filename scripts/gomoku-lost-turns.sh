#!/bin/sh
# Where the games a player lost were decided, judged by a reference Gomocup engine.
#
#   scripts/gomoku-lost-turns.sh ENGINE PLAYER RECORD_DIR [MS]
#
# For every freestyle 15x15 game of RECORD_DIR (any record format Boyi reads, through
# `boyi record dump`) that PLAYER lost (a substring of the loser's spec or name, e.g.
# `boyi:strong`), every position where PLAYER was to move after the record's opening stones
# is judged by ENGINE for MS milliseconds (default 300) with `boyi analyze --positions`; the
# engine is started in its own directory (Rapfi reads its configuration there). A score of
# `mate -N` (the side to move loses) marks PLAYER as lost there.
#
# Prints one line per lost game: the first ply where PLAYER stood lost, and its turn before
# (the move it played, the engine's choice there, the engine's score); then how many games
# were first lost in each range of plies. BOYI names the binary (default `boyi`).
set -eu
[ $# -ge 3 ] || { echo "usage: $0 ENGINE PLAYER RECORD_DIR [MS]" >&2; exit 2; }
boyi=${BOYI:-boyi}
engine=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
player=$2
records=$3
ms=${4:-300}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# One line a judged turn: the game (its file and place in the dump), ply, the move played,
# the position before it. A record that stops replaying gives no positions past that point.
"$boyi" record dump "$records" > "$tmp/dump"
jq -r --arg p "$player" '
    select(.game == "gomoku" and .variant == "freestyle" and (.set_up | not)
        and ((.size // 15) == 15) and .result.winner != null)
    | (if .result.winner == "black" then .white else .black end) as $loser
    | select((($loser.spec // "") + " " + ($loser.name // "")) | contains($p))
    | (if .result.winner == "black" then 1 else 0 end) as $colour
    | ((.tags.OpeningPlies // "0") | tonumber) as $opening
    | "\(.file | split("/") | last)#\(input_line_number)" as $game
    | .moves | to_entries[]
    | select(.key % 2 == $colour and .key >= $opening and .value.position != null)
    | [$game, .key, .value.text, .value.position] | @tsv' "$tmp/dump" > "$tmp/turns"
cut -f 4 "$tmp/turns" > "$tmp/positions"
# A position the engine could not judge gets its `error line N: …` in place, so results
# stay in step with the turns; analyze's exit status says only that one failed.
"$boyi" analyze gomoku --variant freestyle --positions "$tmp/positions" --movetime "$ms" \
    --player "cmd:\"sh -c 'cd $(dirname "$engine") && exec $engine'\"@gomocup" \
    > "$tmp/judged" || true
if [ "$(wc -l < "$tmp/judged")" -ne "$(wc -l < "$tmp/positions")" ]; then
    echo "$0: the engine judged $(wc -l < "$tmp/judged") of $(wc -l < "$tmp/positions") positions" >&2
    exit 1
fi
paste "$tmp/turns" "$tmp/judged" |
    awk -F '\t' -v player="$player" '
    function report(   range) {
        if (game == "") return
        games++
        if (lost == "") { range = "never"; verdict = "never proven lost" }
        else { range = int(lost / 4) * 4 "-" int(lost / 4) * 4 + 3; verdict = "first lost at ply " lost }
        count[range]++
        note = before == "" ? (lost == "" ? "no turn of its own judged" : "lost at its first turn") : "before it " before
        print game ": " verdict "; " note
    }
    {
        if ($1 != game) { report(); game = $1; lost = ""; before = "" }
        if (lost != "") next
        split($5, w, " ")
        if (w[1] == "score" && w[2] == "mate" && w[3] < 0) { lost = $2; next }
        if (w[1] != "score") next
        before = "ply " $2 ": played " $3 ", engine " w[length(w)] " (score " substr($5, 7, index($5, " bestmove") - 7) ")"
    }
    END {
        report()
        print games + 0 " games lost by " player "; first lost at plies:"
        for (r in count) if (r != "never") print "  " r ": " count[r] | "sort -n"
        close("sort -n")
        if ("never" in count) print "  never: " count["never"]
    }'
