package words

import (
	"strings"

	"raftlab/raftcore"
)

// The words for machines: their roles, terms, and whom they follow.

// protocolRole is what a machine's role is called under its protocol.
func protocolRole(p raftcore.Protocol, r raftcore.Role) string {
	if p == raftcore.ProtocolFailover {
		if r == raftcore.RoleLeader {
			return "authority"
		}
		return "follower"
	}
	switch r {
	case raftcore.RoleFollower:
		return "follower"
	case raftcore.RolePreCandidate:
		return "pre-candidate"
	case raftcore.RoleCandidate:
		return "candidate"
	case raftcore.RoleLeader:
		return "leader"
	case raftcore.RoleReplica:
		return "replica"
	}
	return r.String()
}

// RoleWord is what a machine's role is called on screen: under its
// protocol, or in the chapter's words, where a Raft leader is in charge
// or, before the chapter speaks of one machine in charge, takes the
// writes.
func (v Voice) RoleWord(r raftcore.Role) string {
	if !v.Plain() {
		return protocolRole(v.Cfg.Protocol, r)
	}
	switch v.Cfg.Protocol {
	case raftcore.ProtocolNaiveCopy:
		return protocolRole(v.Cfg.Protocol, r)
	case raftcore.ProtocolFailover:
		if r == raftcore.RoleLeader {
			return "authority"
		}
		return "active"
	}
	switch {
	case r == raftcore.RoleLeader && !v.InCharge():
		return "taking writes"
	case r == raftcore.RoleLeader:
		return "in charge"
	case r == raftcore.RoleCandidate && v.InCharge():
		return "taking over"
	case r == raftcore.RoleCandidate || r == raftcore.RolePreCandidate:
		return "asking"
	}
	return "active"
}

// TermSuffix is " (term N)" where terms are shown.
func (v Voice) TermSuffix(term uint64) string {
	if v.Plain() {
		return ""
	}
	return raftTermSuffix(*v.Cfg, term)
}

// raftTermSuffix is " (term N)" under Raft, where terms mean something.
func raftTermSuffix(cfg raftcore.Config, term uint64) string {
	if cfg.Protocol != raftcore.ProtocolRaft || term == 0 {
		return ""
	}
	return " (term " + Utoa(term) + ")"
}

// PlainLine2 is the second line under a Raft machine, in the chapter's
// words: whom it follows (before the chapter speaks of following, whose
// writes it copies), or that it asks the others.
func (v Voice) PlainLine2(nd *raftcore.Node) string {
	switch {
	case nd.Role() == raftcore.RoleLeader && !v.InCharge():
		return "others copy it"
	case nd.Role() == raftcore.RoleLeader:
		return "orders the writes"
	case nd.Role() == raftcore.RoleCandidate || nd.Role() == raftcore.RolePreCandidate:
		return "asks the others"
	case nd.Lead() != raftcore.None && !v.InCharge():
		return "copies " + v.Cfg.Name(nd.Lead())
	case nd.Lead() != raftcore.None:
		return "follows " + v.Cfg.Name(nd.Lead())
	case !v.InCharge():
		return "waiting"
	}
	return "no one in charge"
}

// NameList joins machine names as prose: "A", "A and B", "A, B and C",
// or "no machine".
func NameList(cfg raftcore.Config, ids []raftcore.NodeID) string {
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = cfg.Name(id)
	}
	switch len(names) {
	case 0:
		return "no machine"
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
