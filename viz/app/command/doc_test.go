package command

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "write the command table into docs/embedding.md")

// The docs hold the table between these lines.
const (
	docsFile  = "../../../docs/embedding.md"
	docsBegin = "<!-- the command table: go test ./viz/app/command -update writes it -->\n"
	docsEnd   = "<!-- end of the command table -->\n"
)

// TestTheDocsListTheTable: docs/embedding.md lists every command as the
// table has it, so that what a page may send and what the app reads
// cannot drift apart.
func TestTheDocsListTheTable(t *testing.T) {
	data, err := os.ReadFile(docsFile)
	require.NoError(t, err)
	doc := string(data)
	i, j := strings.Index(doc, docsBegin), strings.Index(doc, docsEnd)
	require.Truef(t, i >= 0 && j > i, "%s has no command table between %q and %q", docsFile, docsBegin, docsEnd)
	want := doc[:i+len(docsBegin)] + Markdown() + doc[j:]
	if *update {
		require.NoError(t, os.WriteFile(docsFile, []byte(want), 0o644))
		return
	}
	require.Equal(t, want, doc, "the command table in %s is out of date: run go test ./viz/app/command -update", docsFile)
}
