#!/bin/bash
# usage: s23_check.sh ORIG NEWFILES...  — compares sorted non-blank lines outside package clause/imports/first-line file comments
orig=$1; shift
strip() { awk 'BEGIN{inimp=0} NR==1 && /^\/\/ /{next} /^package /{next} /^import \(/{inimp=1;next} inimp&&/^\)/{inimp=0;next} inimp{next} /^import "/{next} /^[[:space:]]*$/{next} {print}' "$@"; }
diff <(strip $orig | sort) <(for f in "$@"; do strip $f; done | sort) && echo "MOVED LINES IDENTICAL"
