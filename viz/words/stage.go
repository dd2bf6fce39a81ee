package words

import "raftlab/raftcore"

// The words on the stage: the two lines under each machine, the tags over
// it, a slowed or lossy link's label, and the labels of the zones a
// partition or the world's failure domains draw around the machines.

// The first line under a machine that is not running.
const (
	Crashed = "Crashed"
	Paused  = "Paused"
)

// WithTerm is a role with the machine's term: "Leader · term 3".
func WithTerm(role string, term uint64) string { return role + " · term " + Utoa(term) }

// Term is a machine's term on its own: "term 3".
func Term(term uint64) string { return "term " + Utoa(term) }

// Held says how many writes a machine of the naive protocol holds.
func Held(n uint64) string {
	if n == 1 {
		return "1 write held"
	}
	return Utoa(n) + " writes held"
}

// HeldShort is Held for a machine with little room beside it (a phone):
// "3 writes" under its role word still says how many it holds.
func HeldShort(n uint64) string {
	if n == 1 {
		return "1 write"
	}
	return Utoa(n) + " writes"
}

// FailoverLine is the second line under a machine of the failover
// protocol: the authority orders every write, the others follow the one
// they know (lead, "" for none).
func FailoverLine(authority bool, lead string) string {
	switch {
	case authority:
		return "orders every write"
	case lead != "":
		return "follows " + lead
	}
	return "no authority known"
}

// Vote says whom a machine voted for in its term ("" for nobody).
func Vote(whom string) string {
	if whom == "" {
		return "no vote"
	}
	return "voted " + whom
}

// WithLeader adds to a machine's vote the leader it knows ("" for none).
func WithLeader(vote, leader string) string {
	if leader == "" {
		return vote + " · no leader"
	}
	return vote + " · leader " + leader
}

// VotesNeeded says how many votes a candidate has of those it needs.
func VotesNeeded(yes, needed int) string {
	return Itoa(yes) + " of " + Itoa(needed) + " votes needed"
}

// Tags over a machine: slowed, with messages waiting, or cut off.
const CutOffTag = "cut off"

// SlowTag is the tag over a machine slowed by the factor slow.
func SlowTag(slow float64) string { return "slow " + Factor(slow) }

// QueuedTag is the tag over a machine with n messages waiting for it.
func QueuedTag(n int) string { return Itoa(n) + " queued" }

// LinkLabel is the label of a lossy or slowed link: its loss, and its
// delay when slow.
func LinkLabel(loss float64, minUs, maxUs int64, slow bool) string {
	var s string
	if loss > 0 {
		s = Percent(loss) + " loss"
	}
	if slow {
		if s != "" {
			s += ", "
		}
		s += Latency(minUs, maxUs)
	}
	return s
}

// SaysMajority reports whether the screen tells which side of a split
// holds a majority: under Raft, where it may state the rule.
func (v Voice) SaysMajority() bool { return v.Cfg.Protocol == raftcore.ProtocolRaft && v.Majority() }

// The label of the empty side of a partition, where a machine dragged
// makes a new side, and its short form; WidestCount is the widest count a
// side's label shows, which the layout makes room for.
const (
	DropToSplit = "Drop a machine here to split it off"
	DropHere    = "Drop here"
	WidestCount = "9 of 9"
)

// SideLabels are the labels of side i (from 1) of a partition holding
// members of n machines, longest first: under Raft they say whether the
// side holds a majority, where the screen may say so (SaysMajority).
func (v Voice) SideLabels(i, members, n int) []string {
	count := Itoa(members) + " of " + Itoa(n)
	verdict := ""
	if v.SaysMajority() {
		verdict = ", no majority"
		if 2*members > n {
			verdict = ", a majority"
		}
	}
	return []string{"Side " + Itoa(i) + ": " + count + verdict, count + verdict, count}
}

// ZoneLabels are the labels of a zone of the world named name, holding
// members of n machines, longest first: whether it is lost (every machine
// in it crashed) or cut off from the others.
func ZoneLabels(name string, members, n int, lost, cut bool) []string {
	counted := name + " · " + Itoa(members) + " of " + Itoa(n)
	state := ""
	switch {
	case lost:
		state = "lost"
	case cut:
		state = "cut off"
	}
	if state == "" {
		return []string{counted, name}
	}
	return []string{counted + ", " + state, name + ", " + state, name}
}

// ZoneHint tells the reader of a world with zones the gestures it takes.
func (v Voice) ZoneHint() string {
	return v.ForHand("Drag a machine onto another zone to move it; click a zone's name to lose it or cut it off.",
		"Drag a machine onto another zone to move it; tap a zone's name to lose it or cut it off.")
}

// The words of the pointer's hover text.

// EntryTip says what a log entry holds and whether it is committed: its
// index, its term where terms are shown, and its command.
func (v Voice) EntryTip(e raftcore.Entry, committed bool) []string {
	s := "Index " + Utoa(e.Index)
	if v.Cfg.Protocol == raftcore.ProtocolRaft && !v.Plain() {
		s += ", term " + Utoa(e.Term)
	}
	state := "not committed yet"
	if committed {
		state = "committed"
	}
	if v.Cfg.Protocol != raftcore.ProtocolRaft {
		state = "taken as final: nothing here waits for agreement"
	}
	return []string{s + ": " + Entry(e.Data), state}
}

// MachineTip says what a machine is, how far its log goes, and what the
// pointer can do with it.
func (v Voice) MachineTip(name string, r raftcore.Role, st raftcore.Status, last, commit, applied uint64) []string {
	return []string{name + ": " + v.RoleStatus(r, st),
		"log " + Utoa(last) + ", committed " + Utoa(commit) + ", applied " + Utoa(applied),
		"Click for actions; drag out to cut it off."}
}

// LinkTip says which ways a link between a and b works (ab: a's messages
// reach b), and what the pointer can do with it.
func LinkTip(a, b string, ab, ba bool) []string {
	state := "up both ways"
	switch {
	case !ab && !ba:
		state = "cut both ways"
	case !ab:
		state = "only " + b + "→" + a + " works"
	case !ba:
		state = "only " + a + "→" + b + " works"
	}
	return []string{LinkTitle(a, b) + ": " + state, "Click to change it; drag across it to cut or restore."}
}

// MessageTip explains a message in flight, and what the pointer can do
// with it.
func (v Voice) MessageTip(m *raftcore.Message) []string {
	return []string{v.MsgSentence(m), "Click to inspect or drop it."}
}
