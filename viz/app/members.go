package app

import (
	"fmt"
	"slices"
	"time"

	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/app/command"
	"raftlab/viz/app/scene"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// Changing the cluster by hand. A spare machine waits in the tray apart
// from the cluster: dragged onto the cluster it is added as a learner
// (its menu adds it as a voter too); a learner is promoted from its
// menu; a member dragged into the tray, or removed from its menu, leaves;
// the leader dragged onto another voter, or its menu's "Hand leadership
// to", hands leadership over. Each is one recorded action that asks the
// leader for the change, which then goes through the log.

// changeMembers asks the leader for a change to the cluster.
func (a *App) changeMembers(in command.ChangeMembers) error {
	if a.cfg().Protocol != raftcore.ProtocolRaft {
		return fmt.Errorf("%s: only a raft cluster has members to change", in.Verb)
	}
	n := a.World().Size()
	x := raftcore.Action{Do: in.Verb, Node: in.Node + 1}
	if in.Verb == raftcore.DoJoint {
		x.Node = 0
		for _, i := range in.Voters {
			if i < 0 || i >= n {
				return fmt.Errorf("there is no machine %d", i+1)
			}
			x.Voters = append(x.Voters, i+1)
		}
	} else if in.Node < 0 || in.Node >= n {
		return fmt.Errorf("there is no machine %d", in.Node+1)
	}
	if a.leader() < 0 {
		return fmt.Errorf("%s", words.NoLeaderToAsk)
	}
	m, _, _ := scene.ShownMembership(a.World())
	name := a.cfg().Name(nodeID(in.Node))
	if in.Verb == raftcore.DoTransferLeader && !slices.Contains(m.Voters, nodeID(in.Node)) && !slices.Contains(m.Outgoing, nodeID(in.Node)) {
		return fmt.Errorf("%s", words.NotVoterTarget(name))
	}
	seen := a.World().TraceCount()
	if err := a.act(x); err != nil {
		return err
	}
	if why, refused := a.confRefusal(seen); refused {
		a.say(words.ChangeRefused(name, why), frame.ToneWarn, 6*time.Second)
		return nil
	}
	switch in.Verb {
	case raftcore.DoAdd, raftcore.DoAddLearner:
		a.note(words.AddedNote(name, in.Verb == raftcore.DoAdd))
	case raftcore.DoPromote:
		a.note(words.PromoteNote(name))
	case raftcore.DoRemove:
		a.note(words.RemoveNote(name))
	case raftcore.DoTransferLeader:
		a.note(words.TransferNote(name))
	default:
		a.note(a.voice().Note(x))
	}
	return nil
}

// confRefusal finds, among the trace events recorded after the first
// seen, the engine's note that a change to the cluster was refused.
func (a *App) confRefusal(seen uint64) (string, bool) {
	w := a.World()
	tr := w.Trace()
	fresh := int(min(w.TraceCount()-seen, uint64(len(tr))))
	for _, ev := range tr[len(tr)-fresh:] {
		if ev.Kind == raftcore.TraceConf && words.IsChangeRefused(ev.Text) {
			return ev.Text, true
		}
	}
	return "", false
}

// memberGesture is what a drag across the tray's edge, or onto another
// machine, asks for; nil for nothing.
func (a *App) memberGesture(g viz.Gesture) command.Intent {
	switch g.Kind {
	case viz.GestureJoin:
		return command.ChangeMembers{Verb: raftcore.DoAddLearner, Node: g.Node}
	case viz.GestureLeave:
		return command.ChangeMembers{Verb: raftcore.DoRemove, Node: g.Node}
	case viz.GestureOnto:
		if g.Node == a.leader() && g.Node >= 0 && a.cfg().Protocol == raftcore.ProtocolRaft {
			return command.ChangeMembers{Verb: raftcore.DoTransferLeader, Node: g.Target.Node}
		}
	}
	return nil
}
