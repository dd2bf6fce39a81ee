package words

import "raftlab/raftcore"

// The words of the key to the marks on the stage: what a filled and a
// hollow cell of a log mean, the bar under the logs, a machine's ring, the
// dashed ring of a machine a story is about, and the messages' dots, for
// the protocol and the words on screen.

// Legend is the key's lines, by sample; Hollow and Timer are "" where the
// protocol has none.
type Legend struct {
	Filled, Hollow, Commit, Timer, Highlight, Dots, Lost string
	// Progress is the leader's view of each follower on its log row (""
	// where the rows do not show it).
	Progress string
}

// ProgressKey is the key's line for the marks of the leader's view of a
// follower: its match index and its next index.
const ProgressKey = "Bar under a follower's entries: those the leader knows it holds (its match index). Arrowhead: where the leader's next append to it starts (its next index)."

// The key's title and the labels of its button and of its close control.
const (
	KeyTitle = "Key"
	CloseKey = "Close the key"
)

// Legend is the key's lines for the world's protocol, in plain words
// where the screen speaks them.
func (v Voice) Legend() Legend {
	lw := Legend{
		Highlight: "Dashed ring: a machine this figure's story is about.",
		Lost:      "Falling cross: a message lost on the way. It never arrives.",
		Dots:      "Dots: messages on their way. A filled dot asks, a ring answers (a cross in it: no).",
	}
	raft := v.Cfg.Protocol == raftcore.ProtocolRaft
	switch {
	case raft && v.Plain():
		many := "a majority holds"
		if !v.Majority() {
			many = "enough machines hold"
		}
		lw.Filled = "Filled: a write known to be committed: " + many + " it, so it stays. It shows the value written."
		lw.Hollow = "Hollow: a write held here but not yet committed. It may still be replaced."
		lw.Commit = "Green bar: committed up to here. The triangle under it: carried out up to there."
		lw.Timer = v.inCharge("Ring: time since it last heard from the one in charge. When it closes, it tries to take over.",
			"Ring: time since it last heard from the one taking the writes. When it closes, it asks the others.")
	case raft:
		lw.Filled = "Filled: an entry this machine knows is committed. Its number and colour give the term it was written in."
		lw.Hollow = "Hollow: an entry not yet known to be committed. A new leader may still replace it."
		lw.Commit = "Green bar: this machine's commit index. The triangle under it: applied up to there."
		lw.Timer = "Ring: the election timer. When it closes, the machine stands for election. Leaders have none."
	default:
		lw.Filled = "Each cell is a write, showing the value set (or the order's number; w: a longer value, x: a delete). It counts the moment it lands: nothing waits, so no cell is hollow. Colour: the machine that took the write."
		lw.Commit = "Green bar: where the history counts as done; here always at its end."
		if v.Cfg.Protocol == raftcore.ProtocolFailover {
			lw.Timer = "Ring: how long a machine has not heard from the authority. When it closes, it makes itself the authority."
		} else {
			lw.Dots = "Dots: copies on their way to the other machines."
		}
	}
	return lw
}
