#!/usr/bin/env bash
# Peak resident memory of the explorer on a file: starts it in a tmux session at
# 200x60, switches through every robot and every reading (so every interpretation and
# records view is built), then reads VmHWM from /proc before quitting.
# Usage: benches/peak_rss.sh FILE   (after cargo build --release)
set -euo pipefail
file=${1:?usage: $0 FILE}
bin=$(dirname "$0")/../target/release/robotscope
session=robotscope-rss-$$
tmux new-session -d -s "$session" -x 200 -y 60 "$bin '$file'"
trap 'tmux kill-session -t "$session" 2>/dev/null || true' EXIT
sleep 1
pid=$(pgrep -n -f "release/robotscope $file")
for _ in $(seq 1 60); do tmux send-keys -t "$session" ']'; done
for _ in 1 2 3; do tmux send-keys -t "$session" 's'; sleep 0.2; done
sleep 1
grep -E 'VmHWM|VmRSS' "/proc/$pid/status"
tmux send-keys -t "$session" 'q'
