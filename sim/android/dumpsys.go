// dumpsys and its window and activity sections: focus, resumed activity.
package android

import (
	"fmt"
)

const launcherComponent = "com.google.android.apps.nexuslauncher/.NexusLauncherActivity"

// focus describes the window with input focus and the focused activity the way
// WindowManager names them.
func (d *Device) focus() (window, activityRecord string, st PhoneState) {
	st = d.phone.State()
	comp := launcherComponent
	if st.ForegroundPackage != "" && st.Activity != "" {
		comp = shortComponent(st.ForegroundPackage, st.Activity)
	}
	activityRecord = fmt.Sprintf("ActivityRecord{4a1c2e7 u0 %s t31}", comp)
	return d.focusedWindow(), activityRecord, st
}

func cmdDumpsys(e *cmdEnv) int {
	if len(e.Args) < 2 {
		e.Printf("Currently running services:\n  activity\n  SurfaceFlinger\n  gfxinfo\n  input\n  input_method\n  meminfo\n  package\n  power\n  uimode\n  window\n")
		return 0
	}
	d := e.dev
	switch e.Args[1] {
	case "window":
		return dumpWindow(e, d)
	case "activity":
		return dumpActivity(e, d)
	case "power":
		st := d.phone.State()
		wake, disp := "Awake", "ON"
		if !st.ScreenOn {
			wake, disp = "Asleep", "OFF"
		}
		e.Printf("POWER MANAGER (dumpsys power)\n\nPower Manager State:\n  mDirty=0x0\n  mWakefulness=%s\n  mWakefulnessChanging=false\n  mIsPowered=true\n  mPlugType=2\n  mBatteryLevel=82\n  mHoldingDisplaySuspendBlocker=%v\n\nDisplay Power: state=%s\n", wake, st.ScreenOn, disp)
		return 0
	case "meminfo":
		return dumpMeminfo(e, d)
	case "gfxinfo":
		return dumpGfxinfo(e, d)
	case "package":
		return dumpPackage(e, d)
	case "SurfaceFlinger":
		if len(e.Args) > 2 && e.Args[2] == "--display-id" {
			e.Printf("Display %s (HWC display 0): port=0 pnpId=GGL displayName=\"%s\"\n", displayID, d.profile.Model)
			return 0
		}
		e.Printf("Display %s (physical, \"%s\")\n  size=%dx%d density=%d\n", displayID, d.profile.Model, d.profile.Width, d.profile.Height, d.profile.Density)
		return 0
	case "input_method":
		return dumpInputMethod(e, d)
	case "uimode":
		return dumpUimode(e, d)
	case "input":
		e.Printf("INPUT MANAGER (dumpsys input)\n\nInput Manager Service (Java) State:\n  Interactive: %v\n", d.phone.State().ScreenOn)
		return 0
	}
	return e.Errorf(0, "Can't find service: %s\n", e.Args[1])
}

func dumpWindow(e *cmdEnv, d *Device) int {
	window, record, st := d.focus()
	sub := ""
	if len(e.Args) > 2 {
		sub = e.Args[2]
	}
	w, h := d.screenSize(st)
	if sub == "" || sub == "policy" || sub == "p" {
		e.Printf("WINDOW MANAGER POLICY STATE (dumpsys window policy)\n")
		e.Printf("    mSystemReady=true mSystemBooted=true\n")
		e.Printf("    mDreamingLockscreen=%v mShowingLockscreen=%v\n", st.Locked && !st.ScreenOn, st.Locked)
		e.Printf("    mKeyguardDrawComplete=true mWindowManagerDrawComplete=true\n")
		e.Printf("    KeyguardServiceDelegate\n      showing=%v\n      inputRestricted=%v\n      occluded=false\n", st.Locked, st.Locked)
		e.Printf("    isKeyguardShowing=%v\n", st.Locked)
		e.Printf("    mScreenOnEarly=%v mScreenOnFully=%v\n", st.ScreenOn, st.ScreenOn)
		e.Printf("\n")
	}
	if sub == "" || sub == "displays" || sub == "d" {
		e.Printf("WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n")
		e.Printf("  Display: mDisplayId=0 rootTasks=3\n")
		bw, bh := d.displaySize()
		e.Printf("    init=%dx%d %ddpi base=%dx%d %ddpi cur=%dx%d app=%dx%d rng=%dx%d-%dx%d\n",
			d.profile.Width, d.profile.Height, d.profile.Density, bw, bh, d.density(), w, h, w, h-d.density()*48/160, w, w, h, h)
		e.Printf("    deferred=false mLayoutNeeded=false mTouchExcludeRegion=SkRegion((0,0,%d,%d))\n", w, h)
		e.Printf("    DisplayRotation\n      mRotation=%d mCurrentAppOrientation=SCREEN_ORIENTATION_UNSPECIFIED\n", st.Rotation)
		// Android 10+ prints the display's focus here (and no longer under windows);
		// tools that read only this section wait for these two lines.
		e.Printf("  mCurrentFocus=%s\n", window)
		e.Printf("  mFocusedApp=%s\n", record)
		e.Printf("\n")
	}
	if sub == "" || sub == "windows" || sub == "w" {
		dumpWindows(e, d)
	}
	return 0
}

func dumpActivity(e *cmdEnv, d *Device) int {
	if len(e.Args) > 2 && e.Args[2] != "activities" && e.Args[2] != "a" && e.Args[2] != "top" {
		return e.Errorf(0, "Bad activity command, or no activities match: %s\n", e.Args[2])
	}
	window, record, st := d.focus()
	pkg := st.ForegroundPackage
	if pkg == "" {
		pkg = "com.google.android.apps.nexuslauncher"
	}
	// The record layout of Android 13 (testdata/dumpsys_activity_api33_mtk_tablet_asleep.txt
	// in capture): a sleeping phone's task names its last paused activity and has
	// no top resumed activity; an awake one names its resumed activity in the task
	// and as topResumedActivity (what many tools grep for).
	task := fmt.Sprintf("Task{c0ffee1 #31 type=standard A=10187:%s U=0 visible=%v visibleRequested=%v mode=fullscreen translucent=false sz=1}", pkg, st.ScreenOn, st.ScreenOn)
	state := "RESUMED"
	e.Printf("ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n")
	e.Printf("Display #0 (activities from top to bottom):\n")
	e.Printf("  * %s\n", task)
	if st.ScreenOn {
		e.Printf("    mResumedActivity: %s\n", record)
	} else {
		state = "STOPPED"
		e.Printf("    mLastPausedActivity: %s\n    isSleeping=true\n", record)
	}
	e.Printf("    * Hist  #0: %s\n", record)
	e.Printf("      packageName=%s processName=%s\n", pkg, pkg)
	e.Printf("      state=%s stopped=%v delayedResume=false finishing=false\n", state, !st.ScreenOn)
	e.Printf("\n  Resumed activities in task display areas (from top to bottom):\n    Resumed: %s\n", record)
	e.Printf("\n  ResumedActivity: %s\n", record)
	e.Printf("\nActivityTaskSupervisor state:\n  topDisplayFocusedRootTask=%s\n", task)
	if st.ScreenOn {
		e.Printf("  topResumedActivity=%s\n", record)
	}
	w, h := d.screenSize(st)
	e.Printf("  Display: mDisplayId=0 rootTasks=1\n    init=%dx%d %ddpi cur=%dx%d\n", d.profile.Width, d.profile.Height, d.density(), w, h)
	e.Printf("\n  mCurrentFocus=%s\n  mFocusedApp=%s\n", window, record)
	return 0
}
