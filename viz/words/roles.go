package words

import "raftlab/raftcore"

// The words of the Roles panel's diagram: the way from one role to
// another, and why the latest move was made.

// RoleEdge labels the diagram's arrow from one role to another with the
// cause that moves a machine along it, as the lesson's diagram names it.
func RoleEdge(from, to raftcore.Role) string {
	switch {
	case from == raftcore.RoleFollower:
		return "timeout"
	case from == raftcore.RolePreCandidate && to == raftcore.RoleCandidate:
		return "pre-vote won"
	case to == raftcore.RoleLeader:
		return "majority votes"
	case from == raftcore.RolePreCandidate:
		return "gave up"
	case from == raftcore.RoleCandidate && to == raftcore.RoleFollower:
		return "higher term, or another machine won"
	case from == raftcore.RoleLeader:
		return "discovered a higher term"
	}
	return "new election"
}

// PausedInRole says that a paused machine, outside the diagram's boxes,
// still believes it holds the role it had when it stopped.
func PausedInRole(name, role string, term uint64) string {
	return name + " is paused, so in no box: it still believes its role is " + role + " (term " + Utoa(term) + ")."
}

// Machines counts machines too many to name in a role's box.
func Machines(n int) string { return Itoa(n) + " machines" }

// RoleChange says that machine name went from one role to another.
func (v Voice) RoleChange(name string, from, to raftcore.Role) string {
	return name + ": " + v.RoleWord(from) + " → " + v.RoleWord(to)
}

// Why says why a machine changed role, in brackets: "(won the election)";
// nothing for a move without a cause.
func Why(c raftcore.Cause) string {
	if c == raftcore.CauseNone {
		return ""
	}
	return "(" + Cause(c) + ")"
}

// Cause says why a machine changed role.
func Cause(c raftcore.Cause) string {
	switch c {
	case raftcore.CauseStart:
		return "start"
	case raftcore.CauseElectionTimeout:
		return "election timeout"
	case raftcore.CauseForcedTimeout:
		return "forced timeout"
	case raftcore.CauseWonPreVote:
		return "won the pre-vote"
	case raftcore.CauseWonElection:
		return "won the election"
	case raftcore.CauseLostElection:
		return "lost the election"
	case raftcore.CauseLeaderOfTerm:
		return "heard the leader of its term"
	case raftcore.CauseLeaderOfHigherTerm:
		return "heard a leader of a higher term"
	case raftcore.CauseHigherTerm:
		return "saw a higher term"
	case raftcore.CauseCheckQuorum:
		return "lost contact with a majority"
	case raftcore.CauseAuthoritySilent:
		return "authority went silent"
	case raftcore.CauseTransfer:
		return "its leader handed leadership over to it"
	case raftcore.CauseRemoved:
		return "was taken out of the voters"
	}
	return c.String()
}
