package words

import (
	"fmt"
	"strings"

	"raftlab/raftcore"
)

// The notes the banner shows, and the words that name a run's setup.

// NoLeaderYet explains the wait for the first election; it goes away as
// soon as a machine leads. NoLeaderYetTouch says it to a finger, which
// has no t key.
const (
	NoLeaderYet      = "No machine leads yet: each waits out its own random election timeout (the ring around it). Press t to let one run out clearly first."
	NoLeaderYetTouch = "No machine leads yet: each waits out its own random election timeout (the ring around it). Tap a machine and choose Time out now to make it run out first."
)

// Banner is a note as the reader's hand reads it.
func (v Voice) Banner(text string) string {
	if text == NoLeaderYet {
		return v.ForHand(NoLeaderYet, NoLeaderYetTouch)
	}
	return text
}

// Setup names a free-play world: its size, its protocol and Raft's
// options.
func Setup(cfg *raftcore.Config) string {
	s := fmt.Sprintf("%d machines, %s", cfg.Nodes, cfg.Protocol)
	if cfg.Protocol == raftcore.ProtocolRaft {
		var opts []string
		if cfg.PreVote {
			opts = append(opts, "PreVote")
		}
		if cfg.CheckQuorum {
			opts = append(opts, "CheckQuorum")
		}
		if len(opts) > 0 {
			s += " with " + strings.Join(opts, " and ")
		}
	}
	return s + "."
}

// Broken tells the reader that the run opened breaks Raft on purpose, and
// how; BrokenShort says it where the setup is described.
func Broken(names []string) string {
	return "This run breaks Raft on purpose (" + strings.Join(names, ", ") +
		"): what goes wrong here is that bug, not Raft."
}

// BrokenShort is Broken in a few words.
func BrokenShort(names []string) string {
	return "Broken on purpose: " + strings.Join(names, ", ") + "."
}
