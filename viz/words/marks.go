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
	name := cfg.Name(m.Node)
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
			return opAnswered(cfg, *m.Op, false)
		}
		return opAsks(cfg, *m.Op)
	case timeline.MarkFault:
		if m.Action != nil {
			return actionWords(cfg, *m.Action)
		}
	case timeline.MarkViolation:
		return "rule broken (" + string(m.Rule) + "): " + m.Why
	}
	return m.Kind.String()
}

// MarkText is what a timeline mark says: a protocol's words, or plain
// ones where the screen speaks them, told from the mark's facts.
func (v Voice) MarkText(m timeline.Mark) string {
	if !v.Plain {
		return MarkText(*v.Cfg, m)
	}
	if m.Count > 1 {
		if m.Kind == timeline.MarkElection && v.Cfg.Protocol == raftcore.ProtocolRaft {
			return strconv.Itoa(m.Count) + " times a machine took charge " + span(m)
		}
		return MarkText(*v.Cfg, m)
	}
	name := v.Cfg.Name(m.Node)
	switch m.Kind {
	case timeline.MarkElection:
		if v.Cfg.Protocol == raftcore.ProtocolRaft {
			return name + " took charge"
		}
	case timeline.MarkCommit:
		return name + ", in charge, committed up to entry " + Utoa(m.Index)
	case timeline.MarkClient:
		if m.Op != nil && m.Answer {
			return opAnswered(*v.Cfg, *m.Op, true)
		}
	case timeline.MarkFault:
		if m.Action == nil {
			break
		}
		who := v.Cfg.Name(raftcore.NodeID(m.Action.Node))
		switch m.Action.Do {
		case raftcore.DoTimeout:
			return who + " was made to stop waiting and take over"
		case raftcore.DoTimer:
			return fmt.Sprintf("%s was set to stop waiting in %g ms", who, m.Action.Ms)
		}
	}
	return MarkText(*v.Cfg, m)
}
