package sim

import (
	"fmt"
	"strings"
)

const launcherComponent = "com.google.android.apps.nexuslauncher/.NexusLauncherActivity"

// focus describes the window in front the way WindowManager names it.
func (d *Device) focus() (window, activityRecord string, st PhoneState) {
	st = d.phone.State()
	comp := launcherComponent
	if st.ForegroundPackage != "" && st.Activity != "" {
		comp = shortComponent(st.ForegroundPackage, st.Activity)
	}
	full := comp
	if pkg, act, ok := strings.Cut(comp, "/"); ok {
		full = pkg + "/" + activityClass(pkg, act)
	}
	activityRecord = fmt.Sprintf("ActivityRecord{4a1c2e7 u0 %s t31}", comp)
	switch {
	case !st.ScreenOn && !st.Locked:
		window = "null"
	case st.Locked:
		window = "Window{8b1e0f1 u0 NotificationShade}"
	default:
		window = fmt.Sprintf("Window{b3f29a4 u0 %s}", full)
	}
	return window, activityRecord, st
}

func cmdDumpsys(e *cmdEnv) int {
	if len(e.args) < 2 {
		e.printf("Currently running services:\n  activity\n  SurfaceFlinger\n  gfxinfo\n  input\n  meminfo\n  package\n  power\n  window\n")
		return 0
	}
	d := e.dev
	switch e.args[1] {
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
		e.printf("POWER MANAGER (dumpsys power)\n\nPower Manager State:\n  mDirty=0x0\n  mWakefulness=%s\n  mWakefulnessChanging=false\n  mIsPowered=true\n  mPlugType=2\n  mBatteryLevel=82\n  mHoldingDisplaySuspendBlocker=%v\n\nDisplay Power: state=%s\n", wake, st.ScreenOn, disp)
		return 0
	case "meminfo":
		return dumpMeminfo(e, d)
	case "gfxinfo":
		return dumpGfxinfo(e, d)
	case "package":
		return dumpPackage(e, d)
	case "SurfaceFlinger":
		if len(e.args) > 2 && e.args[2] == "--display-id" {
			e.printf("Display %s (HWC display 0): port=0 pnpId=GGL displayName=\"%s\"\n", displayID, d.profile.Model)
			return 0
		}
		e.printf("Display %s (physical, \"%s\")\n  size=%dx%d density=%d\n", displayID, d.profile.Model, d.profile.Width, d.profile.Height, d.profile.Density)
		return 0
	case "input":
		e.printf("INPUT MANAGER (dumpsys input)\n\nInput Manager Service (Java) State:\n  Interactive: %v\n", d.phone.State().ScreenOn)
		return 0
	}
	return e.errorf(0, "Can't find service: %s\n", e.args[1])
}

func dumpWindow(e *cmdEnv, d *Device) int {
	window, record, st := d.focus()
	sub := ""
	if len(e.args) > 2 {
		sub = e.args[2]
	}
	w, h := d.screenSize(st)
	if sub == "" || sub == "policy" || sub == "p" {
		e.printf("WINDOW MANAGER POLICY STATE (dumpsys window policy)\n")
		e.printf("    mSystemReady=true mSystemBooted=true\n")
		e.printf("    mDreamingLockscreen=%v mShowingLockscreen=%v\n", st.Locked && !st.ScreenOn, st.Locked)
		e.printf("    mKeyguardDrawComplete=true mWindowManagerDrawComplete=true\n")
		e.printf("    KeyguardServiceDelegate\n      showing=%v\n      inputRestricted=%v\n      occluded=false\n", st.Locked, st.Locked)
		e.printf("    isKeyguardShowing=%v\n", st.Locked)
		e.printf("    mScreenOnEarly=%v mScreenOnFully=%v\n", st.ScreenOn, st.ScreenOn)
		e.printf("\n")
	}
	if sub == "" || sub == "displays" || sub == "d" {
		e.printf("WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n")
		e.printf("  Display: mDisplayId=0 rootTasks=3\n")
		e.printf("    init=%dx%d %ddpi base=%dx%d %ddpi cur=%dx%d app=%dx%d rng=%dx%d-%dx%d\n",
			d.profile.Width, d.profile.Height, d.profile.Density, d.profile.Width, d.profile.Height, d.profile.Density, w, h, w, h-d.profile.Density*48/160, w, w, h, h)
		e.printf("    deferred=false mLayoutNeeded=false mTouchExcludeRegion=SkRegion((0,0,%d,%d))\n", w, h)
		e.printf("    DisplayRotation\n      mRotation=%d mCurrentAppOrientation=SCREEN_ORIENTATION_UNSPECIFIED\n", st.Rotation)
		// Android 10+ prints the display's focus here (and no longer under windows);
		// tools that read only this section wait for these two lines.
		e.printf("  mCurrentFocus=%s\n", window)
		e.printf("  mFocusedApp=%s\n", record)
		e.printf("\n")
	}
	if sub == "" || sub == "windows" || sub == "w" {
		e.printf("WINDOW MANAGER WINDOWS (dumpsys window windows)\n")
		e.printf("  Window #0 Window{8b1e0f1 u0 NotificationShade}:\n    mDisplayId=0 rootTaskId=1 mSession=Session{5c2d u0a71} mClient=android.os.BinderProxy@7e1\n    isVisible=%v\n", st.Locked)
		if window != "null" && !st.Locked {
			e.printf("  Window #1 %s:\n    mDisplayId=0 rootTaskId=31 mSession=Session{9f3a u0a187}\n    isVisible=true\n", window)
		}
		e.printf("\n  mGlobalConfiguration={1.0 ?mcc?mnc [en_US] ldltr sw%ddp w%ddp h%ddp %ddpi}\n", d.profile.Width*160/d.profile.Density, w*160/d.profile.Density, h*160/d.profile.Density, d.profile.Density)
		e.printf("  mCurrentFocus=%s\n", window)
		e.printf("  mFocusedApp=%s\n", record)
	}
	return 0
}

func dumpActivity(e *cmdEnv, d *Device) int {
	if len(e.args) > 2 && e.args[2] != "activities" && e.args[2] != "a" && e.args[2] != "top" {
		return e.errorf(0, "Bad activity command, or no activities match: %s\n", e.args[2])
	}
	_, record, st := d.focus()
	pkg := st.ForegroundPackage
	if pkg == "" {
		pkg = "com.google.android.apps.nexuslauncher"
	}
	e.printf("ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n")
	e.printf("Display #0 (activities from top to bottom):\n")
	e.printf("  * Task{c0ffee1 #31 type=standard A=10187:%s U=0 visible=%v visibleRequested=%v mode=fullscreen translucent=false sz=1}\n", pkg, st.ScreenOn, st.ScreenOn)
	e.printf("    mResumedActivity=%s\n", record)
	e.printf("    * Hist  #0: %s\n", record)
	e.printf("\n  Resumed activities in task display areas (from top to bottom):\n    ResumedActivity: %s\n", record)
	e.printf("\n  mFocusedApp=%s\n", record)
	e.printf("  topResumedActivity=%s\n", record)
	e.printf("  mResumedActivity: %s\n", record)
	return 0
}

func dumpMeminfo(e *cmdEnv, d *Device) int {
	if len(e.args) < 3 {
		e.printf("Applications Memory Usage (in Kilobytes):\nUptime: 8812345 Realtime: 8812345\n\nTotal PSS by process:\n    412,332K: system (pid 1423)\n    187,540K: com.android.systemui (pid 1876)\n")
		return 0
	}
	pkg := e.args[2]
	pid := 0
	if pkg == d.profile.App.Package {
		pid = d.appPid()
	}
	if pid == 0 {
		e.printf("No process found for: %s\n", pkg)
		return 0
	}
	e.printf(`Applications Memory Usage (in Kilobytes):
Uptime: 8812345 Realtime: 8812345

** MEMINFO in pid %d [%s] **
                   Pss  Private  Private  SwapPss      Rss     Heap     Heap     Heap
                 Total    Dirty    Clean    Dirty    Total     Size    Alloc     Free
                ------   ------   ------   ------   ------   ------   ------   ------
  Native Heap    18432    18380        0        0    19876    28672    21304     3467
  Dalvik Heap     9876     9812        0        0    14360    16384     8192     8192
        .so mmap   6521      412     3220        0    38840
       .apk mmap   4410        0     3876        0    12288
        .dex mmap  11204    10116       44        0    13332
    Other mmap      980        8      640        0     3852
       Unknown     2114     2104        0        0     2604
         TOTAL    53537    40832     7780        0   105152    45056    29496    11659

 App Summary
                       Pss(KB)                        Rss(KB)
                        ------                         ------
           Java Heap:    12004                          22140
         Native Heap:    18380                          19876
                Code:    17668                          58720
               Stack:     1024                           1036
            Graphics:     4120                           4120
       Private Other:     5416
              System:     4925
             Unknown:                                    3260

           TOTAL PSS:    53537            TOTAL RSS:   105152       TOTAL SWAP PSS:        0
`, pid, pkg)
	return 0
}

func dumpGfxinfo(e *cmdEnv, d *Device) int {
	if len(e.args) < 3 {
		return e.errorf(0, "usage: dumpsys gfxinfo PACKAGE [reset|framestats]\n")
	}
	pkg := e.args[2]
	pid := 0
	if pkg == d.profile.App.Package {
		pid = d.appPid()
	}
	if pid == 0 {
		e.printf("No process found for: %s\n", pkg)
		return 0
	}
	frames := 240 + int(d.phone.Version()%1000)*12
	e.printf(`Applications Graphics Acceleration Info:
Uptime: 8812345 Realtime: 8812345

** Graphics info for pid %d [%s] **

Stats since: 8790123456789ns
Total frames rendered: %d
Janky frames: %d (%.2f%%)
Janky frames (legacy): %d (%.2f%%)
50th percentile: 7ms
90th percentile: 11ms
95th percentile: 14ms
99th percentile: 27ms
Number Missed Vsync: 2
Number High input latency: 0
Number Slow UI thread: 3
Number Slow bitmap uploads: 0
Number Slow issue draw commands: 1
Number Frame deadline missed: 4
`, pid, pkg, frames, frames/60, 100.0/60, frames/80, 100.0/80)
	return 0
}

func dumpPackage(e *cmdEnv, d *Device) int {
	app := d.profile.App
	if len(e.args) < 3 || e.args[2] != app.Package {
		if len(e.args) >= 3 {
			e.printf("Unable to find package: %s\n", e.args[2])
		}
		return 0
	}
	main := activityClass(app.Package, app.LauncherActivity)
	e.printf(`Activity Resolver Table:
  Non-Data Actions:
      android.intent.action.MAIN:
        7f3e2a1 %s filter 5d1c0b2
          Action: "android.intent.action.MAIN"
          Category: "android.intent.category.LAUNCHER"

Packages:
  Package [%s] (a41b9c2):
    userId=10187
    pkg=Package{3e9d1f0 %s}
    codePath=%s
    resourcePath=%s
    primaryCpuAbi=arm64-v8a
    versionCode=%d minSdk=24 targetSdk=%d
    versionName=%s
    apkSigningVersion=2
    flags=[ HAS_CODE ALLOW_CLEAR_USER_DATA DEBUGGABLE ALLOW_BACKUP ]
    privateFlags=[ PRIVATE_FLAG_ACTIVITIES_RESIZE_MODE_RESIZEABLE_VIA_SDK_VERSION ]
    dataDir=/data/user/0/%s
    timeStamp=2024-11-29 09:41:00
    lastUpdateTime=2024-11-29 09:41:00
    installerPackageName=null
    User 0: ceDataInode=81921 installed=true hidden=false suspended=false stopped=false notLaunched=false enabled=0
      runtime permissions:
`, shortComponent(app.Package, main), app.Package, app.Package,
		"/data/app/"+app.Package+"-1", "/data/app/"+app.Package+"-1",
		app.VersionCode, d.profile.SDK, app.VersionName, app.Package)
	return 0
}
