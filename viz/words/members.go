package words

import (
	"strings"

	"raftlab/raftcore"
)

// The words for changing the cluster: what part each machine has in it
// (a voter, a learner that copies the log without a say, a spare outside
// it, one of the two sets of voters while a change is half made), the
// changes the reader asks for, and the tray of spare machines.

// Member is the part a machine has in the configuration on screen.
type Member uint8

// The parts a machine can have.
const (
	MemberVoter   Member = iota // counts toward every majority
	MemberLearner               // receives the log, counts for nothing
	MemberSpare                 // runs, but is not in the cluster
	MemberBoth                  // while joint: in the old voters and the new
	MemberOld                   // while joint: only in the old voters, leaving
	MemberNew                   // while joint: only in the new voters, joining
)

// MemberTag is the small tag over a machine's disc that says its part,
// or "" for a plain voter, which needs no tag.
func MemberTag(m Member) string {
	switch m {
	case MemberLearner:
		return "learner"
	case MemberSpare:
		return "spare"
	case MemberBoth:
		return "old + new"
	case MemberOld:
		return "old only"
	case MemberNew:
		return "new only"
	}
	return ""
}

// MemberWord says a machine's part in a sentence: "a learner".
func MemberWord(m Member) string {
	switch m {
	case MemberLearner:
		return "a learner: it gets the log but has no say"
	case MemberSpare:
		return "a spare: it runs, but is not in the cluster"
	case MemberBoth:
		return "a voter in both the old and the new set"
	case MemberOld:
		return "a voter of the old set only, on its way out"
	case MemberNew:
		return "a voter of the new set only, on its way in"
	}
	return "a voter"
}

// LabelPart labels a machine's part in the cluster in the machine panel.
const LabelPart = "In the cluster"

// The first line under a spare's or a learner's disc, in place of its
// role (a spare never leads and a learner never stands), and a spare's
// second line.
const (
	SpareRole    = "Spare"
	LearnerRole  = "Learner"
	NotInCluster = "not in the cluster"
)

// The tray of spare machines, a strip of the stage apart from the
// cluster: its title and what it invites.
const (
	TrayTitle     = "Spare machines"
	TrayAddHint   = "drag one onto the cluster to add it"
	TrayEmptyHint = "drag a member here to remove it"
)

// The labels of a machine's menu for changing the cluster, and of the
// setup menu's choice of spares.
const (
	RowCluster     = "Cluster"
	RowLeadership  = "Hand leadership to"
	RowSpares      = "Spare machines"
	AddAsLearner   = "Add as learner"
	AddAsVoter     = "Add as voter"
	PromoteToVoter = "Promote to voter"
	RemoveFromIt   = "Remove from the cluster"
	NoSpares       = "none"
)

// SpareCount labels a choice of how many machines start as spares.
func SpareCount(n int) string {
	if n == 0 {
		return NoSpares
	}
	return Itoa(n)
}

// memberActionWords describes a change to the cluster asked for by hand,
// as a timeline mark or a note says it; ok is false for any other verb.
func memberActionWords(cfg raftcore.Config, a raftcore.Action) (string, bool) {
	name := cfg.Name(raftcore.NodeID(a.Node))
	asked := "the leader"
	if a.From != 0 {
		asked = cfg.Name(raftcore.NodeID(a.From))
	}
	switch a.Do {
	case raftcore.DoAdd:
		return asked + " was asked to add " + name + " as a voter", true
	case raftcore.DoAddLearner:
		return asked + " was asked to add " + name + " as a learner", true
	case raftcore.DoPromote:
		return asked + " was asked to make learner " + name + " a voter", true
	case raftcore.DoRemove:
		return asked + " was asked to take " + name + " out of the cluster", true
	case raftcore.DoTransferLeader:
		return asked + " was asked to hand leadership to " + name, true
	case raftcore.DoJoint:
		return asked + " was asked to change the voters to " + nameList(cfg, a.Voters) + " in one joint step", true
	}
	return "", false
}

// nameList names machines by number: "A, B and D".
func nameList(cfg raftcore.Config, ids []int) string {
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = cfg.Name(raftcore.NodeID(id))
	}
	return andList(names)
}

// nodeNames names machines: "A, B and D", or "nobody".
func nodeNames(cfg raftcore.Config, ids []raftcore.NodeID) string {
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = cfg.Name(id)
	}
	return andList(names)
}

func andList(names []string) string {
	switch len(names) {
	case 0:
		return "nobody"
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// Majority is one set of voters while the configuration is joint (or the
// only one otherwise) as the screen tells it: who is in it, how many
// make a majority of it, and how many of them hold the newest entry.
type Majority struct {
	Voters []raftcore.NodeID
	Need   int
	Have   int
}

// Holds reports whether a majority of the set holds the newest entry.
func (m Majority) Holds() bool { return m.Have >= m.Need }

// MajorityLine says one set of voters and where its majority stands: "old
// voters A, B and C: 2 of 3 hold entry 7, a majority". which is "old",
// "new" or "" for the one set of a configuration that is not joint.
func MajorityLine(cfg raftcore.Config, which string, m Majority, index uint64) string {
	who := "Voters"
	if which != "" {
		who = Capital(which) + " voters"
	}
	s := who + " " + nodeNames(cfg, m.Voters) + ": " + Itoa(m.Have) + " of " + Itoa(len(m.Voters)) +
		" hold entry " + Utoa(index) + ", "
	if m.Holds() {
		return s + "a majority (" + Itoa(m.Need) + ") ✓"
	}
	return s + "short of a majority (" + Itoa(m.Need) + ")"
}

// ConfigTitle heads the lines about the cluster's configuration.
func ConfigTitle(joint bool) string {
	if joint {
		return "Changing the cluster: every decision needs a majority of the old voters and of the new"
	}
	return "The cluster"
}

// ConfigLearners names the learners, or "" when there are none.
func ConfigLearners(cfg raftcore.Config, ids []raftcore.NodeID) string {
	if len(ids) == 0 {
		return ""
	}
	return "Learners " + nodeNames(cfg, ids) + ": they get the log but have no say"
}

// ConfigSpares names the spares, or "" when there are none.
func ConfigSpares(cfg raftcore.Config, ids []raftcore.NodeID) string {
	if len(ids) == 0 {
		return ""
	}
	return "Spares " + nodeNames(cfg, ids) + ": not in the cluster"
}

// ConfigSince says which entry made the configuration: "since entry 9",
// or that it is the one the cluster started with.
func ConfigSince(index uint64) string {
	if index == 0 {
		return "As the cluster started"
	}
	return "In force since entry " + Utoa(index)
}

// The notes a change asked for by hand leaves in the banner.
func AddedNote(name string, voter bool) string {
	if voter {
		return "Asked the leader to add " + name + " as a voter: it counts once the change is applied."
	}
	return "Asked the leader to add " + name + " as a learner: it copies the log, then can be promoted."
}

// PromoteNote is the note a promotion asked for leaves.
func PromoteNote(name string) string {
	return "Asked the leader to make " + name + " a voter."
}

// RemoveNote is the note a removal asked for leaves.
func RemoveNote(name string) string {
	return "Asked the leader to take " + name + " out of the cluster."
}

// TransferNote is the note a handover asked for leaves.
func TransferNote(name string) string {
	return "Asked the leader to hand leadership to " + name + ": it stops taking writes until the handover is done."
}

// NoLeaderToAsk says a change could not be asked for: nobody leads.
const NoLeaderToAsk = "No machine leads now, so there is nobody to ask for a change to the cluster; wait for a leader."

// NotVoterTarget says leadership can only go to a voter.
func NotVoterTarget(name string) string {
	return "Leadership can only be handed to a voter; " + name + " is not one."
}

// ConfEntry says what a log entry that changes the cluster changes, by
// machine number: "cluster: machine 4 joins as a learner".
func ConfEntry(cc raftcore.ConfChange) string {
	node := "machine " + Itoa(int(cc.Node))
	switch cc.Type {
	case raftcore.ConfAddVoter:
		return "cluster: " + node + " votes"
	case raftcore.ConfAddLearner:
		return "cluster: " + node + " joins as a learner"
	case raftcore.ConfRemove:
		return "cluster: " + node + " leaves"
	case raftcore.ConfEnterJoint:
		return "cluster: begin changing the voters"
	case raftcore.ConfLeaveJoint:
		return "cluster: finish changing the voters"
	}
	return "cluster change"
}

// ChangeRefused says, in the reader's words, why the machine asked for a
// change to the cluster did not take it; why is the engine's note of the
// refusal, which it reads only to tell the cases apart.
func ChangeRefused(name, why string) string {
	has := func(s string) bool { return strings.Contains(why, s) }
	switch {
	case has("already a member"):
		return name + " is already in the cluster."
	case has("is not a learner"):
		return name + " is not a learner, so there is nothing to promote."
	case has("not caught up"):
		return name + " has not yet copied enough of the leader's log to vote: try again in a moment."
	case has("is not a member"):
		return name + " is not in the cluster."
	case has("unapplied conf change"):
		return "Another change to the cluster is still on its way through the log: one change at a time."
	case has("joint"):
		return "The cluster is in the middle of changing its voters: wait until that is done."
	case has("removed all voters"):
		return "That would leave the cluster with no voter at all."
	case has("handed over"):
		return "The leader is handing leadership over, and takes no change until that is done."
	case has("not running"):
		return "The machine asked is not running."
	case has("no leader"):
		return NoLeaderToAsk
	}
	return "The leader did not take the change to the cluster."
}

// IsChangeRefused tells whether the engine's note of a change to the
// cluster says it was refused or never asked for.
func IsChangeRefused(note string) bool {
	return strings.HasPrefix(note, "refused") || strings.Contains(note, "not proposed")
}
