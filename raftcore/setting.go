package raftcore

import "fmt"

// Settings changed mid-run. A "set" action turns PreVote, CheckQuorum or a
// deliberate bug on or off from the moment it is taken, for every machine
// at once, and keeps everything else of the world: its machines' terms,
// logs and roles, the messages in flight, the network. A reader who steps
// back to a moment and changes a setting there forks the run (the
// timeline keeps the run left), so the same situation can be played out
// under both settings.
//
// etcd reads these settings when a node starts; a real cluster changes
// them by restarting its members one by one. Changing them on every
// machine at one instant, with nothing restarted, is the lab's way of
// comparing the same state under two settings (docs/raftsim.md).
//
// Config, and so World.Config, keeps the settings the run started with,
// which a schedule or a share link replays from; World.Settings has the
// ones in force now.

// Settings are the protocol settings in force: Config's PreVote,
// CheckQuorum and Bugs as the run's "set" actions left them.
type Settings struct {
	PreVote     bool
	CheckQuorum bool
	Bugs        Bug
	// Idempotent is the reconcile setting (Config.Idempotent).
	Idempotent bool
}

// Settings are the settings the machines run with now.
func (w *World) Settings() Settings {
	return Settings{PreVote: w.ncfg.preVote, CheckQuorum: w.ncfg.checkQuorum, Bugs: w.ncfg.bugs, Idempotent: w.idempotent}
}

// Settings names the settings a "set" action can change, besides each
// bug's name.
const (
	SettingPreVote     = "prevote"
	SettingCheckQuorum = "checkquorum"
	// SettingIdempotence turns deployment controllers' idempotent
	// reconciles on or off (reconcile.go).
	SettingIdempotence = "idempotence"
)

// validateSetting checks a "set" action: a known setting, on or off.
func (a Action) validateSetting() error {
	if a.Value != "on" && a.Value != "off" {
		return fmt.Errorf("value: set takes on or off, got %q", a.Value)
	}
	switch a.Setting {
	case SettingPreVote, SettingCheckQuorum, SettingIdempotence:
		return nil
	case "":
		return fmt.Errorf("setting: set needs a setting: prevote, checkquorum, idempotence or the name of a bug")
	}
	if _, err := ParseBug(a.Setting); err != nil {
		return fmt.Errorf("setting: %q is not prevote, checkquorum, idempotence or a bug: %v", a.Setting, err)
	}
	return nil
}

// applySetting changes a setting of every machine. The machines share one
// nodeConfig, which a clone of the world copies, so the change reaches all
// of them and no other world.
func (w *World) applySetting(a Action) {
	on := a.Value == "on"
	switch a.Setting {
	case SettingPreVote:
		w.ncfg.preVote = on
	case SettingCheckQuorum:
		w.ncfg.checkQuorum = on
	case SettingIdempotence:
		w.idempotent = on
	default:
		b, _ := ParseBug(a.Setting)
		if on {
			w.ncfg.bugs |= b
		} else {
			w.ncfg.bugs &^= b
		}
	}
}
