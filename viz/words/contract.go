package words

import (
	"fmt"
	"strings"

	"raftlab/raftcore"
)

// The words for the shared-history contract: each promise's title, and
// one sentence saying why it holds, bends or breaks, told from the
// situation its clause names and that situation's facts.

// ClauseTitle is the name of the contract's promise id.
func ClauseTitle(id string) string {
	switch id {
	case raftcore.ClauseOneHistory:
		return "History becomes singular"
	case raftcore.ClauseConverge:
		return "All build on one history"
	case raftcore.ClauseNoFork:
		return "History never forks for good"
	case raftcore.ClauseAgreed:
		return "Decisions use shared history"
	case raftcore.ClauseAgreement:
		return "Agreement over copies"
	}
	return id
}

// ClauseText says why a clause stands as it does, in plain words where
// the screen speaks them.
func (v Voice) ClauseText(cl raftcore.Clause) string {
	if v.Plain() {
		if s, ok := v.plainClause(cl); ok {
			return s
		}
	}
	return clauseText(*v.Cfg, cl, v.Majority())
}

// ClauseText says why a clause stands as it does, in a protocol's words:
// one sentence naming machines, indexes and counts.
func ClauseText(cfg raftcore.Config, cl raftcore.Clause) string { return clauseText(cfg, cl, true) }

// clauseText is ClauseText; where majority is false it says that enough
// machines agreed, not that a majority did, for a figure that asks the
// reader to find the rule.
func clauseText(cfg raftcore.Config, cl raftcore.Clause, majority bool) string {
	many := enoughMachines{subject: "enough machines", has: "have", none: "not enough machines have"}
	if majority {
		many = enoughMachines{subject: "a majority", has: "has", none: "no majority has"}
	}
	if cl.Fact == raftcore.FactViolation {
		return violationSentence(cl)
	}
	switch cl.ID {
	case raftcore.ClauseOneHistory:
		return oneHistoryText(cfg, cl)
	case raftcore.ClauseConverge:
		return convergeText(cfg, cl)
	case raftcore.ClauseNoFork:
		return noForkText(cfg, cl)
	case raftcore.ClauseAgreed:
		if cl.Fact == raftcore.FactNothingYet {
			return "No machine has acted on any entry yet."
		}
		return fmt.Sprintf("Every entry applied so far (%s) was held by %s before any machine acted on it.", Count(int(cl.Applied), "entry", "entries"), many.subject)
	case raftcore.ClauseAgreement:
		return agreementText(cfg, cl, many)
	}
	return cl.Fact.String()
}

// enoughMachines says who must agree for an entry to count: a majority,
// or, where the figure keeps the rule from the reader, enough machines;
// has is the verb that agrees with it, and none says that too few did.
type enoughMachines struct{ subject, has, none string }

// violationSentence is the checker's explanation of the broken rule, as a
// sentence; or, where the checker kept none, how many it counted.
func violationSentence(cl raftcore.Clause) string {
	if cl.Violations > 0 {
		return fmt.Sprintf("The checker found %d violations of %s.", cl.Violations, cl.Rule)
	}
	s := Capital(cl.Why)
	if s != "" && !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// twoEntries is "(x and y)": what two machines hold at the index where
// they differ.
func twoEntries(cl raftcore.Clause) string {
	return "(" + Entry(cl.Entry) + " and " + Entry(cl.OtherEntry) + ")"
}

func oneHistoryText(cfg raftcore.Config, cl raftcore.Clause) string {
	name, other := cfg.Name(cl.Node), cfg.Name(cl.Other)
	switch cl.Fact {
	case raftcore.FactCommittedApart:
		if cfg.Protocol == raftcore.ProtocolRaft {
			return fmt.Sprintf("%s and %s committed different entries at index %d %s.", name, other, cl.Index, twoEntries(cl))
		}
		return fmt.Sprintf("%s and %s each treat index %d as final, with different entries %s.", name, other, cl.Index, twoEntries(cl))
	case raftcore.FactAuthorities:
		if len(cl.Nodes) == 2 {
			return NameList(cfg, cl.Nodes) + " both act as the authority, so each can make writes final that the other never sees."
		}
		return NameList(cfg, cl.Nodes) + " all act as the authority, so each can make writes final that the others never see."
	case raftcore.FactNoFork:
		return "No two machines have recorded different entries at the same index; the longest history has " + Count(cl.Entries, "entry", "entries") + "."
	case raftcore.FactNothingYet:
		return "Nothing is committed yet, so no machine has committed anything different."
	}
	return fmt.Sprintf("Every machine's committed entries fit one history of %s (%s has them all).", Count(int(cl.Committed), "entry", "entries"), name)
}

func convergeText(cfg raftcore.Config, cl raftcore.Clause) string {
	name, other := cfg.Name(cl.Node), cfg.Name(cl.Other)
	switch cl.Fact {
	case raftcore.FactNothingYet:
		return "Nothing is committed yet, so no machine is behind."
	case raftcore.FactAllHold:
		if cfg.Protocol == raftcore.ProtocolRaft {
			return fmt.Sprintf("All %d machines hold the same %s.", cl.Machines, Count(int(cl.Committed), "committed entry", "committed entries"))
		}
		return fmt.Sprintf("All %d machines hold the same %s.", cl.Machines, Count(cl.Entries, "entry", "entries"))
	case raftcore.FactOnTheWay:
		return fmt.Sprintf("%s still on the way; once delivered, all %d machines will hold the same %s.",
			Count(cl.Copies, "copy is", "copies are"), cl.Machines, Count(cl.Entries, "entry", "entries"))
	case raftcore.FactBehind:
		return behindText(name, cl)
	case raftcore.FactLacks:
		if cl.Status == raftcore.StatusCrashed {
			return fmt.Sprintf("%s is down and lacks %s (index %d at %s); nothing will send it again after a restart.", name, Entry(cl.Entry), cl.Index, other)
		}
		return fmt.Sprintf("%s lacks %s (index %d at %s), and nothing will ever send it again.", name, Entry(cl.Entry), cl.Index, other)
	case raftcore.FactApart:
		return fmt.Sprintf("%s and %s hold different entries at index %d %s, and nothing will ever make them agree.", name, other, cl.Index, twoEntries(cl))
	}
	return "The machines' histories differ, and nothing will ever make them agree."
}

// behindText says, in Raft's words, how far machine name is behind and
// how it will catch up.
func behindText(name string, cl raftcore.Clause) string {
	const tell = "; a leader's next message will tell it"
	var s string
	switch {
	case cl.Status == raftcore.StatusCrashed:
		s = fmt.Sprintf("%s is down, knowing %d of %d committed entries; it catches up after it restarts", name, cl.Has, cl.Committed)
	case cl.Status == raftcore.StatusPaused:
		s = fmt.Sprintf("%s is paused, knowing %d of %d committed entries; it catches up when it resumes", name, cl.Has, cl.Committed)
	case cl.Holds && cl.Has > 0:
		s = fmt.Sprintf("%s already holds all %d committed entries but knows only %d of them to be committed", name, cl.Committed, cl.Has) + tell
	case cl.Holds && cl.Committed == 1:
		s = name + " already holds the committed entry but does not know yet that it is committed" + tell
	case cl.Holds:
		s = fmt.Sprintf("%s already holds all %d committed entries but does not know yet that they are committed", name, cl.Committed) + tell
	default:
		s = fmt.Sprintf("%s knows %d of %d committed entries; a leader will send it the rest", name, cl.Has, cl.Committed)
	}
	return withBehind(s, cl.Behind)
}

// withBehind ends sentence s, adding how many machines are behind when it
// is about one of several.
func withBehind(s string, behind int) string {
	if behind > 1 {
		s += " (" + Count(behind, "machine is", "machines are") + " behind)"
	}
	return s + "."
}

func noForkText(cfg raftcore.Config, cl raftcore.Clause) string {
	name, other := cfg.Name(cl.Node), cfg.Name(cl.Other)
	switch cl.Fact {
	case raftcore.FactCommittedApart:
		return fmt.Sprintf("%s and %s committed different entries at index %d.", name, other, cl.Index)
	case raftcore.FactBranch:
		return fmt.Sprintf("From index %d, %s holds %s of term %d that %s from %s's; none is committed, so Raft will keep only one branch.",
			cl.Index, name, Count(cl.Entries, "entry", "entries"), cl.Term, Plural(cl.Entries, "differs", "differ"), other)
	case raftcore.FactApart:
		return fmt.Sprintf("%s and %s hold different entries at index %d %s, and %s never reconciles them.", name, other, cl.Index, twoEntries(cl), cfg.Protocol)
	}
	return "No two machines hold different entries at the same index."
}

func agreementText(cfg raftcore.Config, cl raftcore.Clause, many enoughMachines) string {
	copies := fmt.Sprintf("%s stored on %d machines", Count(cl.Stored, "entry is", "entries are"), cl.Machines)
	raft := cfg.Protocol == raftcore.ProtocolRaft
	switch {
	case cl.Fact == raftcore.FactNothingYet && raft:
		return "Nothing is stored yet. A copy will count only once " + many.subject + " " + many.has + " agreed on it."
	case cl.Fact == raftcore.FactNothingYet:
		return "Nothing is stored yet."
	case cl.Fact == raftcore.FactApart:
		return fmt.Sprintf("%s, yet %s and %s contradict each other at index %d: %s copies without agreeing.",
			Capital(copies), cfg.Name(cl.Node), cfg.Name(cl.Other), cl.Index, cfg.Protocol)
	case cl.Fact == raftcore.FactDiffer:
		return fmt.Sprintf("%s, yet they will never all give the same answer: %s copies without agreeing.", Capital(copies), cfg.Protocol)
	case !raft:
		return Capital(copies) + " and none contradicts another yet; nothing but luck with the network keeps them alike."
	case cl.Committed == 0:
		return Capital(copies) + ", and none counts yet: " + many.none + " agreed on any of them."
	}
	return fmt.Sprintf("%s; only the first %d, which %s agreed on, count as history.", Capital(copies), cl.Committed, many.subject)
}

// plainClause is a clause in plain words, where it has them: a running
// machine behind, and an uncommitted branch.
func (v Voice) plainClause(cl raftcore.Clause) (string, bool) {
	switch {
	case cl.Fact == raftcore.FactBehind && cl.Status == raftcore.StatusUp:
		name := v.Cfg.Name(cl.Node)
		var s string
		who := v.inCharge("the machine in charge", "the machine taking the writes")
		switch {
		case cl.Holds && cl.Committed == 1:
			s = name + " already holds the committed entry; " + who + " will tell it the entry is final"
		case cl.Holds:
			s = fmt.Sprintf("%s already holds all %d committed entries; %s will tell it they are final", name, cl.Committed, who)
		default:
			s = fmt.Sprintf("%s knows %d of %d committed entries; %s will send it the rest", name, cl.Has, cl.Committed, who)
		}
		return withBehind(s, cl.Behind), true
	case cl.Fact == raftcore.FactBranch:
		return fmt.Sprintf("From index %d, %s holds %s that %s from %s's; none is committed, so only one branch will be kept.",
			cl.Index, v.Cfg.Name(cl.Node), Count(cl.Entries, "entry", "entries"), Plural(cl.Entries, "differs", "differ"), v.Cfg.Name(cl.Other)), true
	}
	return "", false
}
