package words

import "raftlab/raftcore"

// The words for the safety rules the checker holds every run to, as the
// Safety panel lists them.

// ruleWords says each safety rule in a few plain words, in the order the
// Safety panel lists them; plain, where set, says it without Raft's words,
// for the chapter's figures, and copies says it, where set, without a
// machine in charge, for those before the chapter speaks of one.
var ruleWords = []struct {
	rule                 raftcore.Rule
	words, plain, copies string
}{
	{raftcore.RuleElectionSafety, "At most one leader per term", "At most one machine is put in charge at each handover",
		"At most one machine is given the writes at each handover"},
	{raftcore.RuleLeaderAppendOnly, "A leader never rewrites its own log", "The machine in charge never rewrites its own history",
		"The machine taking the writes never rewrites its own history"},
	{raftcore.RuleLogMatching, "Logs that agree at an entry agree on all before it", "", ""},
	{raftcore.RuleLeaderCompleteness, "A leader holds every committed entry", "The machine in charge holds every committed entry",
		"The machine taking the writes holds every committed entry"},
	{raftcore.RuleStateMachineSafety, "No two machines apply different entries at one index", "", ""},
	{raftcore.RuleMajority, "Only what a majority holds is committed", "", ""},
	{raftcore.RuleSingleAuthority, "Only one machine decides at a time", "", ""},
	{raftcore.RuleStaleRead, "Reads see every write finished before them", "", ""},
	{raftcore.RuleTermMonotonic, "Terms never go back", "Handovers are never undone", ""},
	{raftcore.RuleCommitMonotonic, "Commits are never taken back", "", ""},
	{raftcore.RuleCommitWithinLog, "Nothing is committed beyond the log", "", ""},
	{raftcore.RuleOneVote, "One vote per machine per term", "Each machine backs one machine per handover", ""},
	{raftcore.RuleStateDigest, "Each state matches its applied log", "", ""},
	{raftcore.RuleCommitCurrentTerm, "A leader commits by counting only its own term's entries",
		"The machine in charge commits only by counting entries it took itself",
		"The machine taking the writes commits only by counting entries it took itself"},
}

// hiddenRule says the majority rule without stating it, for a figure
// that asks the reader to find it.
const hiddenRule = "Only what enough machines hold is committed"

// Rules are the safety rules the Safety panel lists, in its order.
func Rules() []raftcore.Rule {
	out := make([]raftcore.Rule, len(ruleWords))
	for i, r := range ruleWords {
		out[i] = r.rule
	}
	return out
}

// RuleText is a safety rule in a few words: the chapter's, where the
// screen speaks them and the rule has them.
func (v Voice) RuleText(r raftcore.Rule) string {
	if r == raftcore.RuleMajority && !v.Majority() {
		return hiddenRule
	}
	for _, w := range ruleWords {
		if w.rule != r {
			continue
		}
		switch {
		case v.Plain() && !v.InCharge() && w.copies != "":
			return w.copies
		case v.Plain() && w.plain != "":
			return w.plain
		}
		return w.words
	}
	return string(r)
}

// RuleBroken is a broken rule with the checker's explanation of its first
// violation (why, as the checker wrote it; "" for none).
func (v Voice) RuleBroken(r raftcore.Rule, why string) string {
	if why == "" {
		return v.RuleText(r)
	}
	return v.RuleText(r) + ": " + why
}

// RulesHold says that every one of n safety rules holds.
func RulesHold(n int) string {
	return "All " + Itoa(n) + " safety rules hold, checked after every event."
}

// RulesBroken heads the list of the rules broken, n violations in all.
func RulesBroken(n int) string { return Itoa(n) + " broken rule(s) found:" }

// ShowRules labels the button that lists every rule (all), or only the
// broken ones.
func ShowRules(all bool) string {
	if all {
		return "Show every rule"
	}
	return "Show broken rules only"
}

// LostUpdates heads the list of the n updates the run lost, which no
// rule of Raft forbids; each line of the list (LostUpdate) says which
// write replaced which change.
func LostUpdates(n int) string {
	return Capital(Count(n, "lost update", "lost updates")) + ", which no rule of Raft forbids:"
}

// LostUpdate says which write lost an update, and what it replaced,
// naming its controller as cfg does.
func LostUpdate(cfg raftcore.Config, f raftcore.Finding) string {
	who := ""
	if f.Controller != 0 {
		who = ", " + cfg.ControllerName(f.Controller) + "'s write,"
	}
	lost := "rev " + Utoa(f.OverwroteRev)
	if f.LostValue != "" {
		lost += " (" + f.LostValue + ")"
	}
	return "#" + Itoa(f.Op) + who + " was computed from rev " + Utoa(f.ReadRev) + " but replaced " + lost
}
