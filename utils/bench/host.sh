#!/usr/bin/env bash
# Prints one line about the machine a benchmark runs on: the CPU model, its
# cores and cache sizes. Ratios to an anchor tool move with the host (a
# memory-bound lookup gains far more from a large L3 than a CPU-bound one),
# so every benchmark log records it.
model=$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)
caches=$(lscpu 2>/dev/null | awk -F': +' '/^L[23] cache/ {printf "%s%s %s", sep, $1, $2; sep=", "}')
echo "host: ${model:-unknown CPU}, $(nproc) cores${caches:+, $caches}"
