module raftlab

go 1.26
