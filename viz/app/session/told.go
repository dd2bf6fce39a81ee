package session

// Told is what the screen reader was last told of this run's world: who
// led and in which term, which step of the story, how many safety rules
// were found broken. A new world starts knowing none of it, so that its
// leader, its step and its broken rules are announced afresh, whatever
// an old world had.
type Told struct {
	Leader int // machine index, -1 for none
	Term   uint64
	// Acting are the machines acting as the failover's authority, a bit
	// for each machine id.
	Acting uint64
	Step   int // -1 before the first
	Broken int
	// StepName and StepText are the last step handed on ("N/M" and its
	// words), for a host that starts to listen later.
	StepName, StepText string
}

func newTold() Told { return Told{Leader: -1, Step: -1} }
