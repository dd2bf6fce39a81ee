package words

import (
	"strconv"
	"strings"

	"raftlab/raftcore"
)

// The words for a reader who cannot see the canvas: a few sentences that
// describe the figure, the announcements of what happens in it, and the
// names of the controls the keyboard reaches.

// Scene is what the description of a figure tells, as facts.
type Scene struct {
	// Title is the figure's ("" in free play).
	Title string
	// Machines are all the machines; Crashed and Paused those that are.
	Machines, Crashed, Paused []raftcore.NodeID
	// Leader is the machine that leads (raftcore.None for none), and Term
	// its term.
	Leader raftcore.NodeID
	Term   uint64
	// Sides are the sides the network is cleanly split into, when there
	// are two or more; otherwise Cut lists the links cut.
	Sides [][]raftcore.NodeID
	Cut   []CutLink
	// Committed is how far the log is committed, as the leader (or the
	// machine that knows most) knows it, and Behind the machines that do
	// not know it yet.
	Committed uint64
	Behind    []raftcore.NodeID
	// Violations counts the safety rules found broken.
	Violations int
}

// CutLink is a link cut both ways, or only from From to To (OneWay).
type CutLink struct {
	From, To raftcore.NodeID
	OneWay   bool
}

// Describe is the figure in a few plain sentences.
func (v Voice) Describe(s Scene) string {
	cfg := *v.Cfg
	var out []string
	if s.Title != "" {
		out = append(out, s.Title+".")
	}
	out = append(out, strconv.Itoa(len(s.Machines))+" machines: "+NameList(cfg, s.Machines)+".")
	if len(s.Crashed) > 0 {
		out = append(out, NameList(cfg, s.Crashed)+Plural(len(s.Crashed), " is", " are")+" crashed.")
	}
	if len(s.Paused) > 0 {
		out = append(out, NameList(cfg, s.Paused)+Plural(len(s.Paused), " is", " are")+" paused.")
	}
	if s.Leader != raftcore.None {
		out = append(out, cfg.Name(s.Leader)+" leads"+v.TermSuffix(s.Term)+".")
	} else {
		out = append(out, "No machine leads.")
	}
	out = append(out, network(cfg, s), committed(cfg, s))
	if s.Violations > 0 {
		out = append(out, strconv.Itoa(s.Violations)+" safety "+Plural(s.Violations, "rule", "rules")+" broken.")
	}
	return strings.Join(out, " ")
}

// network says how the network is split: the sides of a partition, or
// the links that are cut.
func network(cfg raftcore.Config, s Scene) string {
	if len(s.Sides) > 1 {
		sides := make([]string, len(s.Sides))
		for k, g := range s.Sides {
			sides[k] = NameList(cfg, g)
		}
		return "The network is split into " + strconv.Itoa(len(sides)) + " sides: " + strings.Join(sides, "; ") + "."
	}
	if len(s.Cut) == 0 {
		return "Every link is up."
	}
	cut := make([]string, len(s.Cut))
	for k, c := range s.Cut {
		arrow := "–"
		if c.OneWay {
			arrow = "→"
		}
		cut[k] = cfg.Name(c.From) + arrow + cfg.Name(c.To)
	}
	return "Cut " + Plural(len(cut), "link", "links") + ": " + strings.Join(cut, ", ") + "."
}

// committed says how far the log is committed, and who does not know it
// yet.
func committed(cfg raftcore.Config, s Scene) string {
	if s.Committed == 0 {
		return "Nothing is committed yet."
	}
	out := "Committed: entries 1 to " + Utoa(s.Committed) + "."
	if s.Committed == 1 {
		out = "Committed: entry 1."
	}
	if n := len(s.Behind); n > 0 && n < len(s.Machines) {
		out += " " + NameList(cfg, s.Behind) + " " + Plural(n, "does", "do") + " not know it yet."
	}
	return out
}

// NowLeads announces a new leader.
func (v Voice) NowLeads(name string, term uint64) string {
	return name + " now leads" + v.TermSuffix(term) + "."
}

// NoLeader announces that no machine leads any longer.
const NoLeader = "No machine leads now."

// StepAnnounced announces a story's step i of n (from 1) and its words.
func StepAnnounced(i, n int, text string) string { return StepOf(i, n) + ": " + text }

// RuleBrokenAnnounced announces a broken safety rule, in the checker's
// explanation.
func RuleBrokenAnnounced(why string) string { return "Safety rule broken: " + why }

// MachineControl names a machine for a screen reader: "Machine B,
// follower, up (term 2)".
func (v Voice) MachineControl(name string, r raftcore.Role, st raftcore.Status, term uint64) string {
	return Machine(name) + ", " + v.RoleStatus(r, st) + v.TermSuffix(term)
}

// LinkControl names a link for a screen reader, with which ways it works
// (ab: a's messages reach b).
func LinkControl(a, b string, ab, ba bool) string {
	state := "up"
	switch {
	case !ab && !ba:
		state = "cut"
	case !ab || !ba:
		state = "cut one way"
	}
	return "Link " + a + "–" + b + ", " + state
}

// PosterTitle names a figure's poster: the figure, at its opening or at
// its key moment.
func PosterTitle(figure string, key bool) string {
	if key {
		return figure + ": its key moment"
	}
	return figure + ": its opening"
}
