package words

import (
	"strconv"
	"strings"

	"raftlab/raftcore"
)

// The words for a reader who cannot see the canvas: a few sentences that
// describe the figure, the announcements of what happens in it, and the
// names of the controls the keyboard reaches.

// Scene is what the description of a figure tells, as facts.
type Scene struct {
	// Title is the figure's ("" in free play).
	Title string
	// Machines are all the machines; Crashed and Paused those that are.
	Machines, Crashed, Paused []raftcore.NodeID
	// Leader is the machine that leads (raftcore.None for none), and Term
	// its term: under Raft the leader of the highest term, under the
	// failover the first authority.
	Leader raftcore.NodeID
	Term   uint64
	// Believers are the other running machines that act as leader: under
	// Raft, old leaders that have not yet learned of a newer one; under
	// the failover, every other authority.
	Believers []Believer
	// Sides are the sides the network is cleanly split into, when there
	// are two or more; otherwise Cut lists the links cut.
	Sides [][]raftcore.NodeID
	Cut   []CutLink
	// Committed is how far the log is committed, as the leader (or the
	// machine that knows most) knows it, and Behind the machines that do
	// not know it yet.
	Committed uint64
	Behind    []raftcore.NodeID
	// Violations counts the safety rules found broken.
	Violations int
	// Workers are the worker machines, and Zone the node lifecycle
	// controller's zone state, in a world with workers.
	Workers []WorkerSaid
	Zone    string
	// Controllers are the deployment controllers, NowUs the moment
	// described (for an informer's backoff), CreatedTwice the objects the
	// reconcile check found created twice.
	Controllers  []raftcore.DeploymentController
	NowUs        int64
	CreatedTwice int
}

// Believer is a machine that acts as leader, with its term.
type Believer struct {
	Node raftcore.NodeID
	Term uint64
}

// CutLink is a link cut both ways, or only from From to To (OneWay).
type CutLink struct {
	From, To raftcore.NodeID
	OneWay   bool
}

// Describe is the figure in a few plain sentences.
func (v Voice) Describe(s Scene) string {
	cfg := *v.Cfg
	var out []string
	if s.Title != "" {
		out = append(out, s.Title+".")
	}
	out = append(out, strconv.Itoa(len(s.Machines))+" machines: "+NameList(cfg, s.Machines)+".")
	if len(s.Crashed) > 0 {
		out = append(out, NameList(cfg, s.Crashed)+Plural(len(s.Crashed), " is", " are")+" crashed.")
	}
	if len(s.Paused) > 0 {
		out = append(out, NameList(cfg, s.Paused)+Plural(len(s.Paused), " is", " are")+" paused.")
	}
	if lead := v.whoLeads(s); lead != "" {
		out = append(out, lead)
	}
	out = append(out, network(cfg, s), committed(cfg, s))
	if ws := workersSaid(cfg, s.Workers, s.Zone); ws != "" {
		out = append(out, ws)
	}
	if s.Violations > 0 {
		out = append(out, strconv.Itoa(s.Violations)+" safety "+Plural(s.Violations, "rule", "rules")+" broken.")
	}
	for _, c := range s.Controllers {
		state, _ := InformerState(c.Informer, s.NowUs)
		out = append(out, ControllerLine(c.ID, MachineName(cfg, c.Node), len(s.Controllers) > 1)+
			", through the API server on "+MachineName(cfg, c.Server)+": "+state+"; "+
			Count(len(c.Informer.Cache), "object", "objects")+" in its cache.")
	}
	if s.CreatedTwice > 0 {
		out = append(out, Count(s.CreatedTwice, "ReplicaSet", "ReplicaSets")+" created twice.")
	}
	return strings.Join(out, " ")
}

// network says how the network is split: the sides of a partition, or
// the links that are cut.
func network(cfg raftcore.Config, s Scene) string {
	if len(s.Sides) > 1 {
		sides := make([]string, len(s.Sides))
		for k, g := range s.Sides {
			sides[k] = NameList(cfg, g)
		}
		return "The network is split into " + strconv.Itoa(len(sides)) + " sides: " + strings.Join(sides, "; ") + "."
	}
	if len(s.Cut) == 0 {
		return "Every link is up."
	}
	cut := make([]string, len(s.Cut))
	for k, c := range s.Cut {
		arrow := "–"
		if c.OneWay {
			arrow = "→"
		}
		cut[k] = cfg.Name(c.From) + arrow + cfg.Name(c.To)
	}
	return "Cut " + Plural(len(cut), "link", "links") + ": " + strings.Join(cut, ", ") + "."
}

// committed says how far the log is committed, and who does not know it
// yet.
func committed(cfg raftcore.Config, s Scene) string {
	if s.Committed == 0 {
		return "Nothing is committed yet."
	}
	out := "Committed: entries 1 to " + Utoa(s.Committed) + "."
	if s.Committed == 1 {
		out = "Committed: entry 1."
	}
	if n := len(s.Behind); n > 0 && n < len(s.Machines) {
		out += " " + NameList(cfg, s.Behind) + " " + Plural(n, "does", "do") + " not know it yet."
	}
	return out
}

// whoLeads says which machine leads, in the screen's words, and which
// others still act as if they did: under the failover every authority;
// nothing under naive-copy, where none does.
func (v Voice) whoLeads(s Scene) string {
	cfg := *v.Cfg
	switch cfg.Protocol {
	case raftcore.ProtocolNaiveCopy:
		return ""
	case raftcore.ProtocolFailover:
		if s.Leader == raftcore.None {
			return "No machine is the authority."
		}
		ids := []raftcore.NodeID{s.Leader}
		for _, b := range s.Believers {
			ids = append(ids, b.Node)
		}
		return authorities(cfg, ids) + "."
	}
	if s.Leader == raftcore.None {
		return v.noneLeads("") + "."
	}
	out := v.leads(cfg.Name(s.Leader), s.Term, "") + "."
	for _, b := range s.Believers {
		out += " " + cfg.Name(b.Node) + " still believes " + v.leads("it", b.Term, "") + "."
	}
	return out
}

// leads says that machine name leads, in the screen's words, with when
// ("now", or "" for nothing) where it reads.
func (v Voice) leads(name string, term uint64, when string) string {
	switch {
	case !v.Plain():
		return join(name, when, "leads") + v.TermSuffix(term)
	case !v.InCharge():
		return join(name, "takes the writes", when)
	}
	return join(name, "is in charge", when)
}

// noneLeads says that no machine leads, in the screen's words.
func (v Voice) noneLeads(when string) string {
	switch {
	case !v.Plain():
		return join("No machine leads", when)
	case !v.InCharge():
		return join("No machine takes the writes", when)
	}
	return join("No machine is in charge", when)
}

// authorities says which machines act as the failover's authority.
func authorities(cfg raftcore.Config, ids []raftcore.NodeID) string {
	switch len(ids) {
	case 1:
		return NameList(cfg, ids) + " is the authority"
	case 2:
		return NameList(cfg, ids) + " both act as the authority"
	}
	return NameList(cfg, ids) + " all act as the authority"
}

// join joins the words given, leaving out empty ones.
func join(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " ")
}

// NowLeads announces a new leader, in the screen's words.
func (v Voice) NowLeads(name string, term uint64) string { return v.leads(name, term, "now") + "." }

// NoLeader announces that no machine leads any longer.
func (v Voice) NoLeader() string { return v.noneLeads("now") + "." }

// AuthoritiesNow announces which machines act as the failover's
// authority now that they changed.
func (v Voice) AuthoritiesNow(ids []raftcore.NodeID) string {
	if len(ids) == 0 {
		return "No machine is the authority now."
	}
	return authorities(*v.Cfg, ids) + " now."
}

// StepAnnounced announces a story's step i of n (from 1) and its words.
func StepAnnounced(i, n int, text string) string { return StepOf(i, n) + ": " + text }

// RuleBrokenAnnounced announces a broken safety rule, in the checker's
// explanation.
func RuleBrokenAnnounced(why string) string { return "Safety rule broken: " + why }

// MachineControl names a machine for a screen reader: "Machine B,
// follower, up (term 2)".
func (v Voice) MachineControl(name string, r raftcore.Role, st raftcore.Status, term uint64) string {
	return Machine(name) + ", " + v.RoleStatus(r, st) + v.TermSuffix(term)
}

// LinkControl names a link for a screen reader, with which ways it works
// (ab: a's messages reach b).
func LinkControl(a, b string, ab, ba bool) string {
	state := "up"
	switch {
	case !ab && !ba:
		state = "cut"
	case !ab || !ba:
		state = "cut one way"
	}
	return "Link " + a + "–" + b + ", " + state
}

// PosterTitle names a figure's poster: the figure, at its opening or at
// its key moment.
func PosterTitle(figure string, key bool) string {
	if key {
		return figure + ": its key moment"
	}
	return figure + ": its opening"
}
