package command

import "raftlab/raftcore"

// The cluster's membership: machines added and removed, learners
// promoted, leadership handed over. Each becomes a recorded action
// asking the leader for the change.
var memberCommands = []*Command{
	onMember(raftcore.DoAddLearner, "Ask the leader to add a spare machine as a learner: it gets the log but has no say."),
	onMember(raftcore.DoAdd, "Ask the leader to add a spare machine as a voter."),
	onMember(raftcore.DoPromote, "Ask the leader to make a learner a voter, once it has caught up."),
	onMember(raftcore.DoRemove, "Ask the leader to take a machine out of the cluster."),
	onMember(raftcore.DoTransferLeader, "Ask the leader to hand leadership to a voter."),
	{Name: string(raftcore.DoJoint), Example: "joint A B", Args: "MACHINE...", Doc: "Ask the leader to change the voters to the machines named, in one joint step.",
		parse: func(c *Context, a args) (Intent, error) {
			if err := a.want(1, 9); err != nil {
				return nil, err
			}
			in := ChangeMembers{Verb: raftcore.DoJoint, Node: -1}
			for k := 0; k < a.n(); k++ {
				i, err := a.machine(c, k)
				if err != nil {
					return nil, err
				}
				in.Voters = append(in.Voters, i)
			}
			return in, nil
		}},
}

// onMember is a command that asks for a change to the cluster about one
// machine.
func onMember(verb raftcore.Verb, doc string) *Command {
	return &Command{Name: string(verb), Args: "MACHINE", Example: string(verb) + " C", Doc: doc, parse: func(c *Context, a args) (Intent, error) {
		if err := a.want(1, 1); err != nil {
			return nil, err
		}
		i, err := a.machine(c, 0)
		return ChangeMembers{Verb: verb, Node: i}, err
	}}
}
