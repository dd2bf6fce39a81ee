package words

import (
	"fmt"
	"strconv"
	"strings"

	"raftlab/raftcore"
)

// The words for actions: a change to the network or the machines made by
// hand, or a client's request, as the banner's notes and the timeline's
// marks tell it.

// Action says in a few words what an action did, as a sentence: the
// words the timeline's marks use for it, or for a client request, what
// the client asked.
func Action(cfg raftcore.Config, a raftcore.Action) string {
	node := MachineName(cfg, raftcore.NodeID(a.Node))
	if a.Node == 0 {
		node = "the cluster"
	}
	switch a.Do {
	case raftcore.DoWrite:
		return "Client asked " + node + " to write " + a.Key + " = " + a.Value
	case raftcore.DoDelete:
		return "Client asked " + node + " to delete " + a.Key
	case raftcore.DoRead:
		return "Client asked " + node + " to read " + a.Key + " (" + string(a.Mode) + ")"
	case raftcore.DoControl:
		how := "a plain write"
		if a.Cas {
			how = "a swap on the revision read"
		}
		return "A controller asks " + node + " for " + a.Key + ", thinks " + Ms(int64(a.ThinkMs*1000)) + ", writes " + a.Change + " with " + how
	case raftcore.DoLoad:
		return "A client writes to " + node + " every " + Ms(int64(a.EveryMs*1000)) + ", round " + a.Key + "0 to " + a.Key + strconv.Itoa(a.Keys-1)
	case raftcore.DoLoadStop:
		return "The steady client stopped writing"
	}
	return Capital(actionWords(cfg, a))
}

// Action says what an action did, as Action does, in the screen's words:
// where Raft's mechanism is kept from the reader, a timer made to run out
// is a machine made to stop waiting.
func (v Voice) Action(a raftcore.Action) string {
	if s, ok := v.plainAction(a); ok {
		return Capital(s)
	}
	return Action(*v.Cfg, a)
}

// Note is what an action did, as a note, in the screen's words.
func (v Voice) Note(a raftcore.Action) string { return v.Action(a) + "." }

// plainAction says what an action on a machine's timers did, in the
// chapter's words, where the screen speaks them; ok is false for any
// other action, which has no words of Raft's.
func (v Voice) plainAction(a raftcore.Action) (string, bool) {
	if !v.Plain() {
		return "", false
	}
	who := MachineName(*v.Cfg, raftcore.NodeID(a.Node))
	switch a.Do {
	case raftcore.DoTimeout:
		if !v.InCharge() {
			return who + " was made to stop waiting", true
		}
		return who + " was made to stop waiting and take over", true
	case raftcore.DoTimer:
		return fmt.Sprintf("%s was set to stop waiting in %g ms", who, a.Ms), true
	case raftcore.DoHeartbeat:
		return who + " was made to tell the others it is still there", true
	}
	return "", false
}

// actionWords describes a fault or network change in plain words, as the
// timeline's marks do (for example "network split into A B | C").
func actionWords(cfg raftcore.Config, a raftcore.Action) string {
	name := func(id int) string { return MachineName(cfg, raftcore.NodeID(id)) }
	switch a.Do {
	case raftcore.DoPartition:
		return "network split into " + groupWords(cfg, a.Groups)
	case raftcore.DoHeal:
		return "network healed: every link works again"
	case raftcore.DoCut:
		return linkWords(cfg, a) + " was cut"
	case raftcore.DoRestore:
		return linkWords(cfg, a) + " works again"
	case raftcore.DoLatency:
		return fmt.Sprintf("latency on %s set to %g–%g ms", linkWords(cfg, a), a.LatencyMs[0], a.LatencyMs[1])
	case raftcore.DoLoss:
		return fmt.Sprintf("%s now loses %s of messages", linkWords(cfg, a), shareWords(*a.Loss))
	case raftcore.DoDuplicate:
		return fmt.Sprintf("%s now duplicates %s of messages", linkWords(cfg, a), shareWords(*a.Duplicate))
	case raftcore.DoDrop:
		return fmt.Sprintf("message %d was dropped by hand", a.ID)
	case raftcore.DoDeliver:
		return fmt.Sprintf("message %d was delivered at once", a.ID)
	case raftcore.DoRepeat:
		return fmt.Sprintf("message %d was sent a second time", a.ID)
	case raftcore.DoPause:
		return name(a.Node) + " was paused"
	case raftcore.DoResume:
		return name(a.Node) + " was resumed"
	case raftcore.DoCrash:
		return name(a.Node) + " crashed"
	case raftcore.DoRestart:
		return name(a.Node) + " restarted"
	case raftcore.DoSlow:
		return fmt.Sprintf("%s now takes %g ms per message", name(a.Node), a.MsPerMessage)
	case raftcore.DoDrift:
		return fmt.Sprintf("%s's clock now runs at %g× real time", name(a.Node), a.Rate)
	case raftcore.DoTimeout:
		return name(a.Node) + "'s election timer was made to fire"
	case raftcore.DoTimer:
		return fmt.Sprintf("%s's election timer was set to run out in %g ms", name(a.Node), a.Ms)
	case raftcore.DoHeartbeat:
		return name(a.Node) + "'s heartbeat timer was made to fire"
	}
	return zoneActionWords(cfg, a)
}

// zoneActionWords describes an action on a zone, or a move to one; any
// other verb is named as it is.
func zoneActionWords(cfg raftcore.Config, a raftcore.Action) string {
	switch a.Do {
	case raftcore.DoZoneCut:
		return "zone " + a.Zone + " was cut off from the other zones"
	case raftcore.DoZoneHeal:
		return "zone " + a.Zone + " is connected again"
	case raftcore.DoZoneCrash:
		return "zone " + a.Zone + " was lost: every machine in it crashed"
	case raftcore.DoZoneRestart:
		return "zone " + a.Zone + " came back: its machines restarted"
	case raftcore.DoMove:
		return MachineName(cfg, raftcore.NodeID(a.Node)) + " was moved to zone " + a.Zone
	}
	if s, ok := memberActionWords(cfg, a); ok {
		return s
	}
	if a.Do == raftcore.DoSet {
		return SettingName(a.Setting) + " turned " + a.Value
	}
	return string(a.Do)
}

// linkWords names the link an action is on: "the link A–B", "the link
// A→B" for one way, or "every link".
func linkWords(cfg raftcore.Config, a raftcore.Action) string {
	from, to := MachineName(cfg, raftcore.NodeID(a.From)), MachineName(cfg, raftcore.NodeID(a.To))
	switch {
	case a.From == 0 && a.To == 0:
		return "every link"
	case a.OneWay:
		return "the link " + from + "→" + to
	}
	return "the link " + from + "–" + to
}

// groupWords writes partition groups as "A B | C", with machines named in
// no group each on their own, as World.Apply treats them.
func groupWords(cfg raftcore.Config, groups [][]int) string {
	seen := make([]bool, cfg.Machines()+1)
	var parts []string
	add := func(ids []int) {
		names := make([]string, len(ids))
		for i, id := range ids {
			names[i] = MachineName(cfg, raftcore.NodeID(id))
			if id >= 0 && id < len(seen) {
				seen[id] = true
			}
		}
		parts = append(parts, strings.Join(names, " "))
	}
	for _, g := range groups {
		if len(g) > 0 {
			add(g)
		}
	}
	for id := 1; id <= cfg.Machines(); id++ {
		if !seen[id] {
			add([]int{id})
		}
	}
	return strings.Join(parts, " | ")
}

// shareWords writes a share of messages as it was set: 0.2 as "20%".
func shareWords(p float64) string { return strconv.FormatFloat(p*100, 'g', 3, 64) + "%" }
