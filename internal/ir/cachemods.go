package ir

import (
	"strings"

	"github.com/warpsim/warpsim/ptx"
)

// cacheOperators are ld's and st's cache operators (.cop).
var cacheOperators = map[string]bool{"ca": true, "cg": true, "cs": true, "lu": true, "cv": true, "wb": true, "wt": true}

// evictionPriorities are the eviction priorities ld and st take after
// .L1:: and .L2:: (.L2::cache_hint and the .L2::64B-style prefetch sizes
// are not among them).
var evictionPriorities = map[string]map[string]bool{
	"L1": {"evict_normal": true, "evict_unchanged": true, "evict_first": true, "evict_last": true, "no_allocate": true},
	"L2": {"evict_normal": true, "evict_first": true, "evict_last": true},
}

// cacheMods checks that an ld or st does not give both a cache operator and
// an eviction priority: the PTX ISA writes ld and st in two forms, one with
// {.cop}, the other with {.L1::eviction_priority}{.L2::eviction_priority},
// and ptxas rejects a mix ("Modifier '.evict_last' cannot be combined with
// modifier '.cg'"; recorded from Triton's PTX: testdata/triton3/ptxas).
// Triton 3.6 emits such a mix for tl.load(cache_modifier=".cg",
// eviction_policy="evict_last").
func (c *checker) cacheMods(in *ptx.Instr) {
	if in.Op != "ld" && in.Op != "st" {
		return
	}
	cop, prio := "", ""
	for _, m := range in.Mods {
		if cacheOperators[m] && cop == "" {
			cop = m
		}
		if level, p, ok := strings.Cut(m, "::"); ok && evictionPriorities[level][p] && prio == "" {
			prio = m
		}
	}
	if cop != "" && prio != "" {
		_, p, _ := strings.Cut(prio, "::")
		c.errorf(in.Pos, "%s: the cache operator .%s and the eviction priority .%s cannot be combined "+
			"(ptxas: Modifier '.%s' cannot be combined with modifier '.%s')", opText(in), cop, prio, p, cop)
	}
}
