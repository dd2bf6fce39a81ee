package words

import (
	"fmt"
	"strconv"

	"raftlab/raftcore"
	"raftlab/raftcore/timeline"
)

// The words for the timeline's marks: what each notable moment was, as
// its hover text and the note a jump to it leaves say it.

// markPlurals name several merged marks of a kind, by timeline.MarkKind.
var markPlurals = [...]string{
	timeline.MarkCommit:    "commits",
	timeline.MarkClient:    "client requests and answers",
	timeline.MarkFault:     "changes to the network or machines",
	timeline.MarkRestore:   "snapshots restored",
	timeline.MarkElection:  "elections won",
	timeline.MarkViolation: "broken rules",
}

// span says when a merged mark's moments were: "from 1.5 s to 3.0 s".
func span(m timeline.Mark) string {
	return "from " + tenths(m.At.AtUs) + " to " + tenths(m.End.AtUs)
}

// MarkText is what a timeline mark says, in a protocol's words, told from
// the mark's facts.
func MarkText(cfg raftcore.Config, m timeline.Mark) string {
	if m.Count > 1 {
		many := m.Kind.String()
		if int(m.Kind) < len(markPlurals) {
			many = markPlurals[m.Kind]
		}
		return fmt.Sprintf("%d %s %s", m.Count, many, span(m))
	}
	name := MachineName(cfg, m.Node)
	switch m.Kind {
	case timeline.MarkElection:
		if cfg.Protocol == raftcore.ProtocolFailover {
			return name + " took over as an authority"
		}
		return fmt.Sprintf("%s won the election for term %d", name, m.Term)
	case timeline.MarkCommit:
		return fmt.Sprintf("leader %s committed the log up to entry %d", name, m.Index)
	case timeline.MarkClient:
		if m.Op == nil {
			break
		}
		if m.Answer {
			return opAnswered(cfg, *m.Op, LevelRaft)
		}
		return opAsks(cfg, *m.Op, LevelRaft)
	case timeline.MarkFault:
		if m.Action != nil {
			return actionWords(cfg, *m.Action)
		}
	case timeline.MarkViolation:
		return "rule broken (" + string(m.Rule) + "): " + m.Why
	case timeline.MarkRestore:
		return fmt.Sprintf("%s restored its leader's snapshot, up to entry %d, in place of its log", name, m.Index)
	}
	return m.Kind.String()
}

// MarkText is what a timeline mark says: a protocol's words, or the
// chapter's where the screen speaks them, told from the mark's facts.
func (v Voice) MarkText(m timeline.Mark) string {
	if !v.Plain() {
		return MarkText(*v.Cfg, m)
	}
	if m.Count > 1 {
		if m.Kind == timeline.MarkElection {
			return strconv.Itoa(m.Count) + " times " + v.tookCharge("a machine") + " " + span(m)
		}
		return MarkText(*v.Cfg, m)
	}
	name := MachineName(*v.Cfg, m.Node)
	switch m.Kind {
	case timeline.MarkElection:
		return v.tookCharge(name)
	case timeline.MarkCommit:
		if !v.InCharge() {
			return name + " committed the history up to entry " + Utoa(m.Index)
		}
		return name + ", in charge, committed up to entry " + Utoa(m.Index)
	case timeline.MarkClient:
		if m.Op != nil && m.Answer {
			return opAnswered(*v.Cfg, *m.Op, v.Level)
		}
		if m.Op != nil {
			return opAsks(*v.Cfg, *m.Op, v.Level)
		}
	case timeline.MarkFault:
		if m.Action != nil {
			if s, ok := v.plainAction(*m.Action); ok {
				return s
			}
		}
	case timeline.MarkViolation:
		return "rule broken (" + v.RuleText(m.Rule) + "): " + m.Why
	case timeline.MarkRestore:
		return name + " took a whole copy of the state up to entry " + Utoa(m.Index) + " in place of its history"
	}
	return MarkText(*v.Cfg, m)
}

// tookCharge says that machine name took charge, in the screen's words:
// under the failover it made itself the authority; before the chapter
// speaks of a machine in charge, it began taking the writes.
func (v Voice) tookCharge(name string) string {
	switch {
	case v.Cfg.Protocol == raftcore.ProtocolFailover:
		return name + " made itself the authority"
	case !v.InCharge():
		return name + " began taking the writes"
	}
	return name + " took charge"
}
