package ir

import (
	"github.com/warpsim/warpsim/ptx"
)

// Thread-block clusters (sm_90): the special registers, mapa, the
// .shared::cluster forms of ld/st/atom/red/isspacep and barrier.cluster.
//
// A .shared::cluster address is lowered to a generic one: the engine adds
// its shared window (OpCluster, ClusterToGeneric) and the access runs as a
// generic ld/st/atom/red, whose shared-window path finds the cluster
// block's shared memory (engine/cluster.go says how addresses name ranks).

// OpCluster is the clusters' instruction; Mode is one of the Cluster*
// constants. It is numbered apart from the ops of ir.go (NumOps and the
// class table do not cover it: its class is ClassALU).
const OpCluster Op = 200

// OpCluster modes.
const (
	ClusterToGeneric   = 1 + iota // D0 = the generic address of .shared::cluster address A0
	ClusterMapa                   // D0 = mapa(A0, rank A1); Space Shared: .shared::cluster, else generic
	ClusterArrive                 // barrier.cluster.arrive
	ClusterWait                   // barrier.cluster.wait
	ClusterIsspacep               // D0 = isspacep.shared::cluster A0
	ClusterIsspacepCTA            // D0 = isspacep.shared(::cta) A0: the executing block's own window only
)

// Cluster special registers, numbered apart from ir.go's.
const (
	SregClusteridX Sreg = 64 + iota
	SregClusteridY
	SregClusteridZ
	SregNclusteridX
	SregNclusteridY
	SregNclusteridZ
	SregClusterCtaidX
	SregClusterCtaidY
	SregClusterCtaidZ
	SregClusterNctaidX
	SregClusterNctaidY
	SregClusterNctaidZ
	SregClusterCtarank
	SregClusterNctarank
	SregIsExplicitCluster
)

// withClusterSregs adds the cluster special registers to m (types.go's
// sregNames).
func withClusterSregs(m map[string]Sreg) map[string]Sreg {
	for i, n := range []string{
		"%clusterid.x", "%clusterid.y", "%clusterid.z",
		"%nclusterid.x", "%nclusterid.y", "%nclusterid.z",
		"%cluster_ctaid.x", "%cluster_ctaid.y", "%cluster_ctaid.z",
		"%cluster_nctaid.x", "%cluster_nctaid.y", "%cluster_nctaid.z",
		"%cluster_ctarank", "%cluster_nctarank", "%is_explicit_cluster",
	} {
		m[n] = SregClusteridX + Sreg(i)
	}
	return m
}

// clusterAddrReg names, in the function's innermost scope, the temporary
// holding the generic address of a .shared::cluster access being lowered.
const clusterAddrReg = "%__warpsim_cluster_addr"

// lowerCluster lowers the cluster instructions and reports whether src
// was one.
func (fl *fnLowerer) lowerCluster(src *ptx.Instr) bool {
	ops := src.Operands
	switch src.Op {
	case "mapa":
		m := parseMods(src.Mods)
		if !fl.need(src, 3) || !fl.needTypes(src, &m, 1) {
			return true
		}
		in := fl.newInst(OpCluster, src)
		in.Mode = ClusterMapa
		in.Type = m.typ(0)
		if hasMod(src.Mods, "shared::cluster") {
			in.Space = ptx.SpaceShared
		} else {
			in.Space = ptx.SpaceGeneric
		}
		in.D[0] = fl.reg(src, &ops[0])
		in.A[0] = fl.value(src, &ops[1], in.Type)
		in.A[1] = fl.value(src, &ops[2], ptx.U32)
		fl.emit(in, src)
		return true
	case "barrier":
		if !hasMod(src.Mods, "cluster") {
			return false
		}
		in := fl.newInst(OpCluster, src)
		switch {
		case hasMod(src.Mods, "arrive"):
			in.Mode = ClusterArrive
			if !hasMod(src.Mods, "relaxed") {
				// .release by default: ptxas puts a MEMBAR.ALL.GPU before
				// the arrival (the timing model charges the fence).
				in.Order = OrderRelease | OrderCluster
			}
		case hasMod(src.Mods, "wait"):
			in.Mode = ClusterWait
		default:
			fl.unsupported(src)
			return true
		}
		fl.emit(in, src)
		return true
	case "isspacep":
		cl := hasMod(src.Mods, "shared::cluster")
		if !cl && !hasMod(src.Mods, "shared") && !hasMod(src.Mods, "shared::cta") {
			return false
		}
		if !fl.need(src, 2) {
			return true
		}
		in := fl.newInst(OpCluster, src)
		in.Mode = ClusterIsspacepCTA
		if cl {
			in.Mode = ClusterIsspacep
		}
		in.D[0] = fl.reg(src, &ops[0])
		in.A[0] = fl.value(src, &ops[1], ptx.U64)
		fl.emit(in, src)
		return true
	case "ld", "st", "atom", "red":
		// st.async and red.async complete an mbarrier's transaction: not a
		// plain access through a generic address.
		if !hasMod(src.Mods, "shared::cluster") || hasMod(src.Mods, "async") {
			return false
		}
		ai := 1
		if src.Op == "st" || src.Op == "red" {
			ai = 0
		}
		if len(ops) <= ai || ops[ai].Kind != ptx.OpdAddr {
			fl.bad(src, "expected an address operand")
			return true
		}
		o := ops[ai]
		var base int32
		switch s, ok := fl.lookup(o.Name); {
		case o.Name == "":
			base = fl.constSlot(0)
		case ok && s.kind == symReg:
			base = s.slot
		default:
			base = fl.addrTemp(src, o.Name, 0)
		}
		tmp := fl.newSlot(ptx.B64)
		cv := fl.newInst(OpCluster, src)
		cv.Guard = -1
		cv.Mode = ClusterToGeneric
		cv.Type = ptx.U64
		cv.D[0] = tmp
		cv.A[0] = base
		fl.emit(cv, src)
		fl.scopes[len(fl.scopes)-1][clusterAddrReg] = symbol{kind: symReg, slot: tmp, typ: ptx.U64}
		g := *src
		g.Mods = nil
		for _, m := range src.Mods {
			if m != "shared::cluster" {
				g.Mods = append(g.Mods, m)
			}
		}
		g.Operands = append([]ptx.Operand(nil), ops...)
		g.Operands[ai] = ptx.Operand{Kind: ptx.OpdAddr, Name: clusterAddrReg, Offset: o.Offset}
		fl.lowerInstr(&g)
		return true
	}
	return false
}
