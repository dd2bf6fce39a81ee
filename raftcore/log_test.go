package raftcore

import "testing"

func entriesOf(terms ...uint64) []Entry {
	out := make([]Entry, len(terms))
	for i, t := range terms {
		out[i] = Entry{Term: t, Data: Command{Kind: OpPut, Key: "k", Value: string(rune('a' + i))}}
	}
	return out
}

// A clone shares entries with its original; neither appending nor
// truncating one may ever change the other.
func TestLogCloneIsIndependent(t *testing.T) {
	var a raftLog
	a.appendAfter(0, entriesOf(1, 1, 2, 2)...)
	b := a.clone()
	want := append([]Entry(nil), b.entries...)

	a.appendAfter(2, entriesOf(3)...) // truncate and replace in the original
	a.appendAfter(a.lastIndex(), entriesOf(3, 3)...)
	for i, e := range b.entries {
		if e != want[i] {
			t.Fatalf("clone changed at index %d: %+v != %+v", i+1, e, want[i])
		}
	}
	b.appendAfter(1, entriesOf(4, 4, 4)...) // and the other way round
	if a.term(2) != 1 || a.term(3) != 3 || a.lastIndex() != 5 {
		t.Fatalf("original changed by the clone: %+v", a.entries)
	}
	if b.term(2) != 4 || b.lastIndex() != 4 {
		t.Fatalf("clone did not take its own append: %+v", b.entries)
	}
}

// The chain hash identifies a whole prefix: equal chains at an index mean
// equal logs up to it.
func TestLogChainCoversPrefix(t *testing.T) {
	var a, b raftLog
	a.appendAfter(0, entriesOf(1, 1, 2)...)
	b.appendAfter(0, entriesOf(1, 2, 2)...)
	if a.chain(1) != b.chain(1) {
		t.Fatal("equal first entries must have equal chains")
	}
	if a.chain(3) == b.chain(3) {
		t.Fatal("logs differing at index 2 must differ in chain at index 3")
	}
}
