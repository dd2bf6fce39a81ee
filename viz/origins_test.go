package viz

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOriginsAreListedExactly(t *testing.T) {
	list, err := ParseOrigins("https://Book.example, http://127.0.0.1:8080 https://book.example/")
	require.NoError(t, err)
	assert.Equal(t, []string{"https://book.example", "http://127.0.0.1:8080"}, list)

	for v, want := range map[string]string{
		"*":                        "allows every page",
		"book.example":             "is not an origin",
		"ftp://book.example":       "is not an origin",
		"https://book.example/ch1": "more than scheme, host and port",
		"https://book.example?x=1": "more than scheme, host and port",
		"https://u@book.example":   "more than scheme, host and port",
		" , ":                      "is empty",
	} {
		_, err := ParseOrigins(v)
		require.Error(t, err, v)
		assert.Contains(t, err.Error(), want, v)
	}

	p, probs := ParseQuery("?origins=https://book.example%20https://notes.example", nil)
	require.Empty(t, probs)
	assert.True(t, p.OriginAllowed("https://notes.example", "https://lab.example"))
	assert.True(t, p.OriginAllowed("https://lab.example", "https://lab.example"), "the app's own origin")
	assert.False(t, p.OriginAllowed("https://evil.example", "https://lab.example"))
	assert.False(t, p.OriginAllowed("null", "null"), "a sandboxed page has no origin to trust")

	_, probs = ParseQuery("?origins=*", nil)
	require.Len(t, probs, 1)
	assert.Contains(t, probs[0].Message, `"*" allows every page`)
	assert.Contains(t, probs[0].Message, "using only the app's own origin")
}
