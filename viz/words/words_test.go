package words

import "regexp"

// raftWords are the words the book keeps until it introduces Raft.
var raftWords = regexp.MustCompile(`(?i)\b(leaders?|leads|leading|terms?|votes?|voted|voting|candidates?|followers?|raft|elections?)\b`)
