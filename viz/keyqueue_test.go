package viz

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestKeyQueueKeepsTheAppsKeysInOrder(t *testing.T) {
	var q KeyQueue
	assert.False(t, q.Pending())
	assert.True(t, q.Push(PageKey{Key: "c", OnCanvas: true}))
	assert.True(t, q.Push(PageKey{Key: " ", OnCanvas: true}))
	assert.True(t, q.Push(PageKey{Key: "Escape", OnCanvas: true}))
	assert.False(t, q.Push(PageKey{Key: "c", OnCanvas: false}), "a key typed elsewhere on the page")
	assert.False(t, q.Push(PageKey{Key: "c", Ctrl: true, OnCanvas: true}), "ctrl+c is the browser's")
	assert.False(t, q.Push(PageKey{Key: "r", Meta: true, OnCanvas: true}))
	assert.False(t, q.Push(PageKey{Key: "Tab", OnCanvas: true}), "Tab moves the focus")
	assert.False(t, q.Push(PageKey{Key: "z", OnCanvas: true}), "an unbound key")
	assert.True(t, q.Pending())
	assert.Equal(t, []string{"c", " ", "Escape"}, q.Take(nil))
	assert.False(t, q.Pending())
	assert.Empty(t, q.Take(nil))
}
