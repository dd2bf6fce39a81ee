package command

import "strings"

// Markdown writes the table as docs/embedding.md shows it: every command
// with its arguments, what it does, and whether a book's prose may use it.
// TestTheDocsListTheTable holds the docs to it.
func Markdown() string {
	var b strings.Builder
	b.WriteString("| command | what it does | in prose |\n| --- | --- | --- |\n")
	for _, c := range Table {
		usage := c.Name
		if c.Args != "" {
			usage += " " + c.Args
		}
		prose := ""
		if c.Prose {
			prose = "yes"
		}
		b.WriteString("| `" + strings.ReplaceAll(usage, "|", `\|`) + "` | " + c.Doc + " | " + prose + " |\n")
	}
	return b.String()
}
