package desktopcli

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAWholeAddressGivesItsParametersInOrder(t *testing.T) {
	a, err := Parse([]string{"nodes=3", "https://lab.example.org/raft/?scenario=majority&speed=1%2F10&link=1.ab-_c", "-stats"})
	require.NoError(t, err)
	assert.Equal(t, []string{"nodes=3", "scenario=majority", "speed=1/10", "link=1.ab-_c"}, a.Params)
	assert.Equal(t, "https://lab.example.org/raft/", a.Base, "the address is the lab's base")
	assert.True(t, a.Stats)

	a, err = Parse([]string{"-base", "http://mine/", "http://127.0.0.1:8080/?link=1.x"})
	require.NoError(t, err)
	assert.Equal(t, "http://mine/", a.Base, "-base given wins")

	a, err = Parse([]string{"?theme=dark"})
	require.NoError(t, err)
	assert.Equal(t, []string{"theme=dark"}, a.Params)
	assert.Equal(t, DefaultBase, a.Base)
}

func TestLinkTakesAWholeAddressAsItsValue(t *testing.T) {
	addr := "http://127.0.0.1:8080/?link=1.abc&theme=dark"
	for _, args := range [][]string{{"-link", addr}, {"--link", addr}, {"link", addr}, {"-link=" + addr}} {
		a, err := Parse(args)
		require.NoError(t, err, "%q", args)
		assert.Equal(t, []string{"link=" + addr}, a.Params, "%q", args)
	}
}

func TestBadFlagsAreNamed(t *testing.T) {
	for args, want := range map[string]string{
		"-size 3":          `-size "3"`,
		"-size 100x100":    "at least 200x200",
		"-f":               "-f needs a value",
		"-link":            "-link needs a value",
		"http://x/":        "has no parameters",
		"http://x/?a=%zz":  `"a=%zz"`,
		"http://[::1/?x=1": "is not a web address",
	} {
		_, err := Parse(strings.Fields(args))
		if assert.Error(t, err, args) {
			assert.Contains(t, err.Error(), want, args)
		}
	}
}

func TestArgvReadsBackTheSame(t *testing.T) {
	a, err := Parse([]string{"-size", "900x700", "-f", "run.json", "-shot", "x.png", "-stats", "http://h/?seed=4", "-autoplay"})
	require.NoError(t, err)
	b, err := Parse(a.Argv())
	require.NoError(t, err)
	assert.Equal(t, a, b)
}

// The launcher links no graphics: Ebiten's package init opens the window
// system and panics where there is none, before main could print -h.
func TestTheLauncherLinksNoGraphics(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "raftlab/cmd/desktop").CombinedOutput()
	require.NoError(t, err, "%s", out)
	for _, p := range strings.Fields(string(out)) {
		if strings.Contains(p, "ebiten") || strings.Contains(p, "glfw") {
			t.Errorf("cmd/desktop depends on %s", p)
		}
	}
	require.Contains(t, string(out), "raftlab/cmd/desktop/internal/desktopcli")
}
