package words

import (
	"testing"

	"raftlab/raftcore"
)

func put(key, value string) raftcore.Command {
	return raftcore.Command{Kind: raftcore.OpPut, Key: key, Value: value}
}

// clauseSentence is a clause under a configuration and what it says.
type clauseSentence struct {
	cfg  raftcore.Config
	cl   raftcore.Clause
	want string
}

// clauseSentences are the situations a clause can be in, each with its
// sentence.
func clauseSentences() []clauseSentence {
	raft, naive, failover := threeMachines(), threeMachines(), threeMachines()
	naive.Protocol, failover.Protocol = raftcore.ProtocolNaiveCopy, raftcore.ProtocolFailover
	web5, web1 := put("deployments/web", "replicas=5"), put("deployments/web", "replicas=1")
	one, conv, fork, agreed, agreement := raftcore.ClauseOneHistory, raftcore.ClauseConverge, raftcore.ClauseNoFork, raftcore.ClauseAgreed, raftcore.ClauseAgreement
	return []clauseSentence{
		{raft, raftcore.Clause{ID: one, Fact: raftcore.FactCommittedApart, Node: 1, Other: 3, Index: 1, Entry: web5, OtherEntry: web1},
			"A and C committed different entries at index 1 (deployments/web=replicas=5 and deployments/web=replicas=1)."},
		{naive, raftcore.Clause{ID: one, Fact: raftcore.FactCommittedApart, Node: 1, Other: 3, Index: 1, Entry: web5, OtherEntry: web1},
			"A and C each treat index 1 as final, with different entries (deployments/web=replicas=5 and deployments/web=replicas=1)."},
		{raft, raftcore.Clause{ID: one, Fact: raftcore.FactViolation, Rule: raftcore.RuleElectionSafety, Why: "two leaders in term 3"},
			"Two leaders in term 3."},
		{raft, raftcore.Clause{ID: one, Fact: raftcore.FactViolation, Rule: raftcore.RuleLogMatching, Violations: 40},
			"The checker found 40 violations of log-matching."},
		{failover, raftcore.Clause{ID: one, Fact: raftcore.FactAuthorities, Nodes: []raftcore.NodeID{1, 2}},
			"A and B both act as the authority, so each can make writes final that the other never sees."},
		{failover, raftcore.Clause{ID: one, Fact: raftcore.FactAuthorities, Nodes: []raftcore.NodeID{1, 2, 3}},
			"A, B and C all act as the authority, so each can make writes final that the others never see."},
		{naive, raftcore.Clause{ID: one, Fact: raftcore.FactNoFork, Entries: 1},
			"No two machines have recorded different entries at the same index; the longest history has 1 entry."},
		{raft, raftcore.Clause{ID: one, Fact: raftcore.FactNothingYet},
			"Nothing is committed yet, so no machine has committed anything different."},
		{raft, raftcore.Clause{ID: one, Fact: raftcore.FactOneHistory, Committed: 2, Node: 1},
			"Every machine's committed entries fit one history of 2 entries (A has them all)."},

		{naive, raftcore.Clause{ID: conv, Fact: raftcore.FactAllHold, Machines: 3, Entries: 2},
			"All 3 machines hold the same 2 entries."},
		{naive, raftcore.Clause{ID: conv, Fact: raftcore.FactOnTheWay, Copies: 2, Machines: 3, Entries: 1},
			"2 copies are still on the way; once delivered, all 3 machines will hold the same 1 entry."},
		{naive, raftcore.Clause{ID: conv, Fact: raftcore.FactLacks, Node: 3, Other: 1, Index: 1, Entry: web5},
			"C lacks deployments/web=replicas=5 (index 1 at A), and nothing will ever send it again."},
		{naive, raftcore.Clause{ID: conv, Fact: raftcore.FactLacks, Node: 3, Other: 1, Index: 1, Entry: web5, Status: raftcore.StatusCrashed},
			"C is down and lacks deployments/web=replicas=5 (index 1 at A); nothing will send it again after a restart."},
		{naive, raftcore.Clause{ID: conv, Fact: raftcore.FactApart, Node: 1, Other: 3, Index: 1, Entry: web5, OtherEntry: web1},
			"A and C hold different entries at index 1 (deployments/web=replicas=5 and deployments/web=replicas=1), and nothing will ever make them agree."},
		{naive, raftcore.Clause{ID: conv, Fact: raftcore.FactDiffer},
			"The machines' histories differ, and nothing will ever make them agree."},
		{raft, raftcore.Clause{ID: conv, Fact: raftcore.FactNothingYet},
			"Nothing is committed yet, so no machine is behind."},
		{raft, raftcore.Clause{ID: conv, Fact: raftcore.FactAllHold, Machines: 3, Committed: 1},
			"All 3 machines hold the same 1 committed entry."},
		{raft, raftcore.Clause{ID: conv, Fact: raftcore.FactBehind, Node: 3, Status: raftcore.StatusCrashed, Has: 2, Committed: 3, Behind: 2},
			"C is down, knowing 2 of 3 committed entries; it catches up after it restarts (2 machines are behind)."},
		{raft, raftcore.Clause{ID: conv, Fact: raftcore.FactBehind, Node: 3, Status: raftcore.StatusPaused, Has: 2, Committed: 3, Behind: 1},
			"C is paused, knowing 2 of 3 committed entries; it catches up when it resumes."},
		{raft, raftcore.Clause{ID: conv, Fact: raftcore.FactBehind, Node: 3, Has: 1, Committed: 2, Behind: 1},
			"C knows 1 of 2 committed entries; a leader will send it the rest."},
		{raft, raftcore.Clause{ID: conv, Fact: raftcore.FactBehind, Node: 2, Has: 0, Committed: 1, Holds: true, Behind: 2},
			"B already holds the committed entry but does not know yet that it is committed; a leader's next message will tell it (2 machines are behind)."},
		{raft, raftcore.Clause{ID: conv, Fact: raftcore.FactBehind, Node: 2, Has: 0, Committed: 3, Holds: true, Behind: 1},
			"B already holds all 3 committed entries but does not know yet that they are committed; a leader's next message will tell it."},
		{raft, raftcore.Clause{ID: conv, Fact: raftcore.FactBehind, Node: 2, Has: 2, Committed: 3, Holds: true, Behind: 1},
			"B already holds all 3 committed entries but knows only 2 of them to be committed; a leader's next message will tell it."},

		{raft, raftcore.Clause{ID: fork, Fact: raftcore.FactCommittedApart, Node: 1, Other: 2, Index: 4, Entry: web5, OtherEntry: web1},
			"A and B committed different entries at index 4."},
		{raft, raftcore.Clause{ID: fork, Fact: raftcore.FactBranch, Node: 1, Other: 2, Index: 3, Term: 2, Entries: 1},
			"From index 3, A holds 1 entry of term 2 that differs from B's; none is committed, so Raft will keep only one branch."},
		{raft, raftcore.Clause{ID: fork, Fact: raftcore.FactBranch, Node: 1, Other: 2, Index: 3, Term: 2, Entries: 2},
			"From index 3, A holds 2 entries of term 2 that differ from B's; none is committed, so Raft will keep only one branch."},
		{naive, raftcore.Clause{ID: fork, Fact: raftcore.FactApart, Node: 1, Other: 3, Index: 1, Entry: web5, OtherEntry: web1},
			"A and C hold different entries at index 1 (deployments/web=replicas=5 and deployments/web=replicas=1), and naive-copy never reconciles them."},
		{raft, raftcore.Clause{ID: fork, Fact: raftcore.FactNoFork},
			"No two machines hold different entries at the same index."},

		{raft, raftcore.Clause{ID: agreed, Fact: raftcore.FactNothingYet}, "No machine has acted on any entry yet."},
		{raft, raftcore.Clause{ID: agreed, Fact: raftcore.FactMajorityHeld, Applied: 2},
			"Every entry applied so far (2 entries) was held by a majority before any machine acted on it."},
		{naive, raftcore.Clause{ID: agreed, Fact: raftcore.FactViolation, Rule: raftcore.RuleMajority, Why: "A applied deployments/web=replicas=3 held by 1 of 3."},
			"A applied deployments/web=replicas=3 held by 1 of 3."},

		{raft, raftcore.Clause{ID: agreement, Fact: raftcore.FactNothingYet},
			"Nothing is stored yet. A copy will count only once a majority has agreed on it."},
		{raft, raftcore.Clause{ID: agreement, Fact: raftcore.FactStored, Stored: 1, Machines: 3},
			"1 entry is stored on 3 machines, and none counts yet: no majority has agreed on any of them."},
		{raft, raftcore.Clause{ID: agreement, Fact: raftcore.FactStored, Stored: 6, Machines: 3, Committed: 2},
			"6 entries are stored on 3 machines; only the first 2, which a majority agreed on, count as history."},
		{naive, raftcore.Clause{ID: agreement, Fact: raftcore.FactApart, Stored: 3, Machines: 3, Node: 1, Other: 3, Index: 1},
			"3 entries are stored on 3 machines, yet A and C contradict each other at index 1: naive-copy copies without agreeing."},
		{failover, raftcore.Clause{ID: agreement, Fact: raftcore.FactDiffer, Stored: 2, Machines: 3},
			"2 entries are stored on 3 machines, yet they will never all give the same answer: failover copies without agreeing."},
		{naive, raftcore.Clause{ID: agreement, Fact: raftcore.FactNothingYet}, "Nothing is stored yet."},
		{naive, raftcore.Clause{ID: agreement, Fact: raftcore.FactStored, Stored: 1, Machines: 3},
			"1 entry is stored on 3 machines and none contradicts another yet; nothing but luck with the network keeps them alike."},
	}
}

// TestClausesSayTheirFacts: each situation a clause can be in, told in the
// protocol's words, with the machines, indexes, entries and counts its
// facts give.
func TestClausesSayTheirFacts(t *testing.T) {
	for _, c := range clauseSentences() {
		if got := ClauseText(c.cfg, c.cl); got != c.want {
			t.Errorf("%s, %s under %s:\n got %q\nwant %q", c.cl.ID, c.cl.Fact, c.cfg.Protocol, got, c.want)
		}
	}
}

// TestPlainClauses: the chapter's figures say a running machine behind
// and an uncommitted branch without Raft's words; a paused machine behind
// keeps them, having none of Raft's.
func TestPlainClauses(t *testing.T) {
	cfg := threeMachines()
	sayClauses(t, Voice{Cfg: &cfg, Level: LevelInCharge}, []clauseSaid{
		{raftcore.Clause{ID: raftcore.ClauseConverge, Fact: raftcore.FactBehind, Node: 3, Has: 1, Committed: 2, Behind: 2},
			"C knows 1 of 2 committed entries; the machine in charge will send it the rest (2 machines are behind)."},
		{raftcore.Clause{ID: raftcore.ClauseConverge, Fact: raftcore.FactBehind, Node: 2, Committed: 1, Holds: true, Behind: 1},
			"B already holds the committed entry; the machine in charge will tell it the entry is final."},
		{raftcore.Clause{ID: raftcore.ClauseConverge, Fact: raftcore.FactBehind, Node: 2, Has: 1, Committed: 3, Holds: true, Behind: 1},
			"B already holds all 3 committed entries; the machine in charge will tell it they are final."},
		{raftcore.Clause{ID: raftcore.ClauseConverge, Fact: raftcore.FactBehind, Node: 3, Status: raftcore.StatusPaused, Has: 2, Committed: 3, Behind: 1},
			"C is paused, knowing 2 of 3 committed entries; it catches up when it resumes."},
		{raftcore.Clause{ID: raftcore.ClauseNoFork, Fact: raftcore.FactBranch, Node: 1, Other: 2, Index: 3, Term: 2, Entries: 1},
			"From index 3, A holds 1 entry that differs from B's; none is committed, so only one branch will be kept."},
	})
}

// clauseSaid is a clause and what a voice says of it.
type clauseSaid struct {
	cl   raftcore.Clause
	want string
}

// sayClauses checks what voice v says of each clause.
func sayClauses(t *testing.T, v Voice, cases []clauseSaid) {
	t.Helper()
	for _, c := range cases {
		if got := v.ClauseText(c.cl); got != c.want {
			t.Errorf("%s, %s:\n got %q\nwant %q", c.cl.ID, c.cl.Fact, got, c.want)
		}
	}
}

// TestClausesBeforeAMachineIsInCharge: before the chapter speaks of a
// machine in charge or of a majority, a machine behind waits for the
// machine taking the writes, and enough machines agree.
func TestClausesBeforeAMachineIsInCharge(t *testing.T) {
	cfg := threeMachines()
	sayClauses(t, Voice{Cfg: &cfg, Level: LevelCopies}, []clauseSaid{
		{raftcore.Clause{ID: raftcore.ClauseConverge, Fact: raftcore.FactBehind, Node: 3, Has: 1, Committed: 2, Behind: 1},
			"C knows 1 of 2 committed entries; the machine taking the writes will send it the rest."},
		{raftcore.Clause{ID: raftcore.ClauseAgreement, Fact: raftcore.FactNothingYet},
			"Nothing is stored yet. A copy will count only once enough machines have agreed on it."},
		{raftcore.Clause{ID: raftcore.ClauseAgreement, Fact: raftcore.FactAllHold, Stored: 2, Machines: 3},
			"2 entries are stored on 3 machines, and none counts yet: not enough machines have agreed on any of them."},
		{raftcore.Clause{ID: raftcore.ClauseAgreed, Fact: raftcore.FactAllHold, Applied: 2},
			"Every entry applied so far (2 entries) was held by enough machines before any machine acted on it."},
	})
	sayClauses(t, Voice{Cfg: &cfg, Level: LevelContract, HideRule: true}, []clauseSaid{
		{raftcore.Clause{ID: raftcore.ClauseAgreement, Fact: raftcore.FactAllHold, Stored: 3, Committed: 2, Machines: 3},
			"3 entries are stored on 3 machines; only the first 2, which enough machines agreed on, count as history."},
	})
}

// TestEveryClauseOfARunIsSaid: the clauses of a world a partition forked
// under naive-copy are told in full, with its entries.
func TestEveryClauseOfARunIsSaid(t *testing.T) {
	cfg := threeMachines()
	cfg.Protocol = raftcore.ProtocolNaiveCopy
	w := raftcore.MustWorld(cfg)
	for _, a := range []raftcore.Action{
		{Do: raftcore.DoPartition, Groups: [][]int{{1, 2}, {3}}},
		{Do: raftcore.DoWrite, Node: 1, Key: "deployments/web", Value: "replicas=5"},
		{Do: raftcore.DoWrite, Node: 3, Key: "deployments/web", Value: "replicas=1"},
	} {
		if err := w.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	w.RunFor(1_000_000)
	want := []string{
		"History becomes singular: A and C each treat index 1 as final, with different entries (deployments/web=replicas=5 and deployments/web=replicas=1).",
		"All build on one history: A and C hold different entries at index 1 (deployments/web=replicas=5 and deployments/web=replicas=1), and nothing will ever make them agree.",
		"History never forks for good: A and C hold different entries at index 1 (deployments/web=replicas=5 and deployments/web=replicas=1), and naive-copy never reconciles them.",
		"Agreement over copies: 3 entries are stored on 3 machines, yet A and C contradict each other at index 1: naive-copy copies without agreeing.",
	}
	var got []string
	for _, cl := range w.Contract() {
		if cl.ID != raftcore.ClauseAgreed {
			got = append(got, ClauseTitle(cl.ID)+": "+ClauseText(cfg, cl))
		}
	}
	for i := range want {
		if i >= len(got) || got[i] != want[i] {
			t.Fatalf("the contract says\n%v\nwant\n%v", got, want)
		}
	}
}
