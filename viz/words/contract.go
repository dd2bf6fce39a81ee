package words

import (
	"fmt"

	"raftlab/raftcore"
)

// ClauseText is what the contract says of a clause, in plain words where
// the screen speaks them, told from the clause's facts.
func (v Voice) ClauseText(cl raftcore.Clause) string {
	if !v.Plain {
		return cl.Text
	}
	switch cl.Fact {
	case raftcore.FactBehind:
		name := v.Cfg.Name(cl.Node)
		var s string
		switch {
		case cl.Holds && cl.Committed == 1:
			s = name + " already holds the committed entry; the machine in charge will tell it the entry is final"
		case cl.Holds:
			s = fmt.Sprintf("%s already holds all %d committed entries; the machine in charge will tell it they are final", name, cl.Committed)
		default:
			s = fmt.Sprintf("%s knows %d of %d committed entries; the machine in charge will send it the rest", name, cl.Has, cl.Committed)
		}
		if cl.Behind > 1 {
			s += " (" + Count(cl.Behind, "machine is", "machines are") + " behind)"
		}
		return s + "."
	case raftcore.FactBranch:
		verb := "differ"
		if cl.Entries == 1 {
			verb = "differs"
		}
		return fmt.Sprintf("From index %d, %s holds %s that %s from %s's; none is committed, so only one branch will be kept.",
			cl.Index, v.Cfg.Name(cl.Node), Count(cl.Entries, "entry", "entries"), verb, v.Cfg.Name(cl.Other))
	}
	return cl.Text
}

// RuleText is a safety rule's words: plain ones, where the screen speaks
// them and the rule has them.
func (v Voice) RuleText(words, plain string) string {
	if v.Plain && plain != "" {
		return plain
	}
	return words
}
