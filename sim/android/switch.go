// The demo's scenario switch broadcast, and rotation through wm and settings.
package android

import "strconv"

// scenarioAction is the broadcast the demo app listens for to show one of the
// built-in scenarios (scenario.Variants) without restarting the device:
//
//	am broadcast -a com.fixthis.demo.SHOW_SCENARIO --es scenario keyboard
const scenarioAction = "com.fixthis.demo.SHOW_SCENARIO"

// Activity.RESULT_OK and RESULT_CANCELED, what a receiver answers with.
const (
	resultOK       = -1
	resultCanceled = 0
)

// cmdBroadcast is `am broadcast -a ACTION [--es KEY VALUE]...`. Only the demo app's
// scenario switch has a receiver; other broadcasts complete with nobody listening.
func cmdBroadcast(e *cmdEnv) int {
	var action string
	extras := map[string]string{}
	args := e.Args[2:]
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-a" && i+1 < len(args):
			action = args[i+1]
			i++
		case (a == "--es" || a == "--ei" || a == "--ez") && i+2 < len(args):
			extras[args[i+1]] = args[i+2]
			i += 2
		default:
			i += intentFlagValues[a]
		}
	}
	desc := "act=" + action
	if action == "" {
		desc = "act=null"
	}
	if len(extras) > 0 {
		e.Printf("Broadcasting: Intent { %s flg=0x400000 (has extras) }\n", desc)
	} else {
		e.Printf("Broadcasting: Intent { %s flg=0x400000 }\n", desc)
	}
	se := e.dev.Session()
	if action != scenarioAction || se == nil {
		e.Printf("Broadcast completed: result=0\n")
		return 0
	}
	name := extras["scenario"]
	if err := se.ApplyVariant(name); err != nil {
		e.Printf("Broadcast completed: result=%d, data=%q\n", resultCanceled, err.Error())
		return 0
	}
	e.dev.log("I", "FixThisDemo", e.dev.appPid(), "showing scenario "+name)
	e.Printf("Broadcast completed: result=%d, data=%q\n", resultOK, name)
	return 0
}

// cmdUserRotation is `wm user-rotation [free|lock] [ROTATION]` (Android 11+): it
// locks the display to a rotation, as turning a phone with auto-rotate does.
func cmdUserRotation(e *cmdEnv) int {
	args := e.Args[2:]
	if len(args) > 0 && args[0] == "-d" {
		if len(args) < 2 || args[1] != "0" {
			return e.Errorf(255, "Error: invalid display id\n")
		}
		args = args[2:]
	}
	st := e.dev.phone.State()
	if len(args) == 0 {
		e.Printf("lock %d\n", st.Rotation)
		return 0
	}
	se := e.dev.Session()
	switch args[0] {
	case "free":
		return 0 // the sim has no sensor: the display stays as it is
	case "lock":
		rot := st.Rotation
		if len(args) > 1 {
			n, err := strconv.Atoi(args[1])
			if err != nil || n < 0 || n > 3 {
				return e.Errorf(255, "Error: invalid rotation %s; expected 0, 1, 2 or 3\n", args[1])
			}
			rot = n
		}
		if se == nil {
			return e.Errorf(255, "Error: this simulated phone cannot rotate\n")
		}
		se.SetRotation(rot)
		e.dev.logf("sim: rotation %d", rot)
		return 0
	}
	return e.Errorf(255, "Error: lock or free expected, got %s\n", args[0])
}

// rotationSetting answers the rotation settings (`settings get|put system
// user_rotation|accelerometer_rotation`); put sets when value is not "". Other keys
// read "null", as unset settings do. The sim has no sensor: auto-rotate reads off, so
// user_rotation turns the display as it does on a phone with rotation locked.
func rotationSetting(e *cmdEnv, namespace, key, value string) string {
	if namespace != "system" {
		return "null"
	}
	switch key {
	case "accelerometer_rotation":
		return "0"
	case "user_rotation":
		se := e.dev.Session()
		if n, err := strconv.Atoi(value); err == nil && n >= 0 && n <= 3 && se != nil {
			se.SetRotation(n)
		}
		return strconv.Itoa(e.dev.phone.State().Rotation)
	}
	return "null"
}
