package agentdevice

import (
	"fixthis/adb"
	"fixthis/app/errcode"
)

// checkAction refuses, before the user is asked and before anything reaches the
// phone, the values that do not fit the device command they are meant for: text
// with control characters (NUL, BEL, ESC, newlines …), a key that is no key name,
// a package that is no package name. The errors quote only the start of the value.
func checkAction(a Action) error {
	var err error
	switch a.Kind {
	case "type":
		err = adb.CheckText(a.Text)
	case "key":
		_, kerr := keyCode(a.Key)
		return kerr
	case "launch":
		if a.Package != "" {
			err = adb.CheckPackage(a.Package)
		}
	}
	if err != nil {
		return errcode.Wrap(errcode.InvalidInput, err, "%v", err)
	}
	return nil
}
