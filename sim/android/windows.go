// WindowManager's window list: the windows the screen shows and dumpsys window
// windows and input_method.
package android

import (
	"fmt"
	"image"
	"strings"

	"fixthis/sim/scenario"
)

// simWindow is one entry of WindowManager's window list.
type simWindow struct {
	hash, title, pkg string
	uid              int
	ty               string // the LayoutParams type as Android 14 prints it
	attrs            string // position, size, gravity and soft input mode of mAttrs
	flags            string
	frame            image.Rectangle
	visible          bool
	ime              image.Rectangle // the keys, for the input method's touchable region
	baseLayer        int
}

const (
	imePackage      = "com.google.android.inputmethod.latin"
	systemUIUID     = 10071
	launcherUID     = 10109
	imeUID          = 10121
	appUID          = 10187
	appWindowHash   = "b3f29a4"
	pillWindowHash  = "3c7d1e9"
	dialogHash      = "6d0e5b2"
	shadeWindowHash = "8b1e0f1"
)

// windows lists the phone's windows top first, as `dumpsys window windows` does,
// which one has focus (nil when the screen is off and unlocked), and the display
// in the current rotation.
func (d *Device) windows() ([]simWindow, *simWindow, image.Rectangle) {
	st := d.phone.State()
	geo := scenario.Windows{}
	if se := d.Session(); se != nil {
		geo = se.Windows()
	} else {
		w, h := d.screenSize(st)
		bar := d.profile.Density * 40 / 160
		geo = scenario.Windows{Width: w, Height: h, StatusBar: image.Rect(0, 0, w, bar), NavBar: image.Rect(0, h-bar*3/5, w, h)}
	}
	full := image.Rect(0, 0, geo.Width, geo.Height)
	app := d.profile.App
	appFront := st.ScreenOn && !st.Locked && st.ForegroundPackage == app.Package
	launcherFront := !st.Locked && st.ForegroundPackage == scenario.LauncherPackage
	appTitle := app.Package + "/" + activityClass(app.Package, app.LauncherActivity)
	if st.ForegroundPackage == app.Package && st.Activity != "" {
		appTitle = app.Package + "/" + st.Activity
	}
	appFlags := "LAYOUT_IN_SCREEN LAYOUT_INSET_DECOR SPLIT_TOUCH HARDWARE_ACCELERATED DRAWS_SYSTEM_BAR_BACKGROUNDS"
	if geo.Secure {
		appFlags = "LAYOUT_IN_SCREEN LAYOUT_INSET_DECOR SECURE SPLIT_TOUCH HARDWARE_ACCELERATED DRAWS_SYSTEM_BAR_BACKGROUNDS"
	}
	list := []simWindow{
		{hash: "5ef94cb", title: "NavigationBar0", pkg: scenario.SystemUIPackage, uid: systemUIUID, ty: "NAVIGATION_BAR",
			attrs: "(0,0)(fillxfill) sim={adjust=pan}", flags: "NOT_FOCUSABLE NOT_TOUCH_MODAL TOUCHABLE_WHEN_WAKING WATCH_OUTSIDE_TOUCH SPLIT_TOUCH HARDWARE_ACCELERATED FLAG_SLIPPERY",
			frame: geo.NavBar, visible: st.ScreenOn, baseLayer: 241000},
		{hash: shadeWindowHash, title: "NotificationShade", pkg: scenario.SystemUIPackage, uid: systemUIUID, ty: "NOTIFICATION_SHADE",
			attrs: "(0,0)(fillxfill) gr=TOP CENTER_VERTICAL sim={adjust=resize}", flags: "NOT_FOCUSABLE TOUCHABLE_WHEN_WAKING WATCH_OUTSIDE_TOUCH SPLIT_TOUCH HARDWARE_ACCELERATED DRAWS_SYSTEM_BAR_BACKGROUNDS",
			frame: full, visible: st.Locked, baseLayer: 191000},
		{hash: "d01181", title: "StatusBar", pkg: scenario.SystemUIPackage, uid: systemUIUID, ty: "STATUS_BAR",
			attrs: fmt.Sprintf("(0,0)(fillx%d) gr=TOP CENTER_VERTICAL sim={adjust=pan}", geo.StatusBar.Dy()), flags: "NOT_FOCUSABLE SPLIT_TOUCH HARDWARE_ACCELERATED DRAWS_SYSTEM_BAR_BACKGROUNDS",
			frame: geo.StatusBar, visible: st.ScreenOn, baseLayer: 171000},
		// Keyboards ask for the whole screen below the status bar and report where
		// the keys are through their insets and touchable region.
		{hash: "f4229a8", title: "InputMethod", pkg: imePackage, uid: imeUID, ty: "INPUT_METHOD",
			attrs: "(0,0)(fillxfill) gr=BOTTOM CENTER_VERTICAL sim={adjust=pan forwardNavigation}", flags: "NOT_FOCUSABLE LAYOUT_IN_SCREEN SPLIT_TOUCH HARDWARE_ACCELERATED DRAWS_SYSTEM_BAR_BACKGROUNDS",
			frame: image.Rect(0, geo.StatusBar.Max.Y, geo.Width, geo.Height), visible: appFront && !geo.IME.Empty(), ime: geo.IME, baseLayer: 151000},
	}
	if appFront && !geo.Dialog.Empty() {
		// A dialog's window takes its activity's name: Window sets an empty title
		// to the component of the activity that owns the token.
		list = append(list, simWindow{hash: dialogHash, title: appTitle, pkg: app.Package, uid: appUID, ty: "APPLICATION",
			attrs: "(0,0)(wrapxwrap) gr=CENTER sim={adjust=pan}", flags: "DIM_BEHIND SPLIT_TOUCH HARDWARE_ACCELERATED",
			frame: geo.Dialog, visible: true, baseLayer: 21000})
	}
	if appFront && app.Sidekick {
		list = append(list, d.sidekickPill(geo))
	}
	if st.AppRunning {
		list = append(list, simWindow{hash: appWindowHash, title: appTitle, pkg: app.Package, uid: appUID, ty: "BASE_APPLICATION",
			attrs: "(0,0)(fillxfill) sim={adjust=resize forwardNavigation}", flags: appFlags,
			frame: full, visible: appFront, baseLayer: 21000})
	}
	// Another installed app in front (launched with am start): its activity's window.
	otherFront := st.ScreenOn && !st.Locked && st.ForegroundPackage != "" && st.ForegroundPackage != app.Package &&
		st.ForegroundPackage != scenario.LauncherPackage
	if otherFront {
		title := st.ForegroundPackage + "/" + activityClass(st.ForegroundPackage, st.Activity)
		list = append(list, simWindow{hash: appWindowHash, title: title, pkg: st.ForegroundPackage, uid: appUID + 1, ty: "BASE_APPLICATION",
			attrs: "(0,0)(fillxfill) sim={adjust=resize forwardNavigation}", flags: "LAYOUT_IN_SCREEN LAYOUT_INSET_DECOR SPLIT_TOUCH HARDWARE_ACCELERATED DRAWS_SYSTEM_BAR_BACKGROUNDS",
			frame: full, visible: true, baseLayer: 21000})
	}
	list = append(list,
		simWindow{hash: "7bfc52e", title: scenario.LauncherPackage + "/" + scenario.LauncherPackage + ".NexusLauncherActivity",
			pkg: scenario.LauncherPackage, uid: launcherUID, ty: "BASE_APPLICATION",
			attrs: "(0,0)(fillxfill) sim={adjust=pan forwardNavigation}", flags: "SHOW_WALLPAPER LAYOUT_IN_SCREEN LAYOUT_INSET_DECOR SPLIT_TOUCH HARDWARE_ACCELERATED DRAWS_SYSTEM_BAR_BACKGROUNDS",
			frame: full, visible: st.ScreenOn && launcherFront, baseLayer: 21000},
		simWindow{hash: "280d8a8", title: "com.android.systemui.ImageWallpaper", pkg: scenario.SystemUIPackage, uid: systemUIUID, ty: "WALLPAPER",
			attrs: fmt.Sprintf("(0,0)(%dx%d) gr=TOP START CENTER", geo.Width, geo.Height), flags: "NOT_FOCUSABLE NOT_TOUCHABLE LAYOUT_IN_SCREEN LAYOUT_NO_LIMITS SCALED LAYOUT_INSET_DECOR",
			frame: full, visible: st.ScreenOn && (launcherFront || st.Locked), baseLayer: 11000},
	)
	var focus *simWindow
	for i := range list {
		w := &list[i]
		switch {
		case st.Locked && w.hash == shadeWindowHash,
			appFront && w.hash == dialogHash,
			appFront && geo.Dialog.Empty() && w.hash == appWindowHash,
			st.ScreenOn && launcherFront && w.pkg == scenario.LauncherPackage,
			otherFront && w.pkg == st.ForegroundPackage:
			focus = w
		}
	}
	return list, focus, full
}

// sidekickPill is the status window the FixThis sidekick adds to every resumed
// activity (upstream v1.5.0 FixThisActivityLifecycleCallbacks.kt:27 attaches it on
// onActivityResumed and :33 removes it on onActivityPaused): a panel on the
// activity's token, so it sits right above the activity's window, with the flags
// and title of FixThisConnectionStatusHostLayout.kt:149-165, at the top end, 16 dp
// from the edge and 8 dp below the status bar (:160-164, :288-302). Its size is
// the pill's wrap_content: 10 dp padding, a 16 dp dot, 8 dp gap, about 170 dp of
// 14 sp bold text, by 6 dp padding round a 20 dp line (:52-84, :119-127).
func (d *Device) sidekickPill(geo scenario.Windows) simWindow {
	dp := func(v int) int { return v * d.profile.Density / 160 }
	w, h := dp(10+16+8+170+10), dp(6+20+6)
	right, top := geo.Width-dp(16), geo.StatusBar.Max.Y+dp(8)
	return simWindow{hash: pillWindowHash, title: "FixThis MCP status", pkg: d.profile.App.Package, uid: appUID, ty: "APPLICATION_PANEL",
		attrs: fmt.Sprintf("(%d,%d)(wrapxwrap) gr=TOP END sim={adjust=pan}", dp(16), top),
		flags: "NOT_FOCUSABLE NOT_TOUCHABLE LAYOUT_IN_SCREEN HARDWARE_ACCELERATED",
		frame: image.Rect(right-w, top, right, top+h), visible: true, baseLayer: 21000}
}

func (w *simWindow) String() string { return fmt.Sprintf("Window{%s u0 %s}", w.hash, w.title) }

// dumpWindows prints the "windows" section of `dumpsys window` the way Android 13
// and later print it, trimmed to the lines tools read: the frame only in the
// "Frames:" line, and for the system bars a paramsForRotation list whose attribute
// lines wrap at two spaces and one, below the record's own indentation. Real
// phones print exactly that; a parser keyed on indentation loses every window after
// the first bar.
func dumpWindows(e *cmdEnv, d *Device) {
	st := d.phone.State()
	list, _, screen := d.windows()
	cfg := d.configuration(screen.Dx(), screen.Dy(), st.Rotation, false)
	e.Printf("WINDOW MANAGER WINDOWS (dumpsys window windows)\n")
	var imeTarget *simWindow
	for i := range list {
		win := &list[i]
		if imeTarget == nil && (win.ty == "APPLICATION" || win.ty == "BASE_APPLICATION") && win.visible {
			imeTarget = win
		}
		vis, surface := "0x8", false
		if win.visible {
			vis, surface = "0x0", true
		}
		e.Printf("  Window #%d %s:\n", i, win)
		e.Printf("    mDisplayId=0 rootTaskId=%d mSession=Session{%s %d:u0a%d} mClient=android.os.BinderProxy@%s\n", rootTask(win), win.hash[:5], 1400+win.uid%1000, win.uid%10000, win.hash[1:])
		e.Printf("    mOwnerUid=%d showForAllUsers=%v package=%s appop=NONE\n", win.uid, win.pkg == scenario.SystemUIPackage, win.pkg)
		e.Printf("    mAttrs={%s layoutInDisplayCutoutMode=always ty=%s fmt=TRANSLUCENT\n      fl=%s\n      pfl=USE_BLAST FIT_INSETS_CONTROLLED\n      bhv=DEFAULT", win.attrs, win.ty, win.flags)
		if win.ty == "STATUS_BAR" || win.ty == "NAVIGATION_BAR" {
			e.Printf("\n      paramsForRotation=%s", paramsForRotation(win))
		}
		e.Printf("}\n")
		e.Printf("    Requested w=%d h=%d mLayoutSeq=%d\n", win.frame.Dx(), win.frame.Dy(), 40+i)
		if win.ty == "INPUT_METHOD" {
			e.Printf("    mIsImWindow=true mIsWallpaper=false mIsFloatingLayer=true\n")
		}
		e.Printf("    mBaseLayer=%d mSubLayer=0    mToken=WindowToken{%s android.os.BinderProxy@%s}\n", win.baseLayer, win.hash[2:], win.hash[:6])
		e.Printf("    mViewVisibility=%s mHaveFrame=true mObscured=false\n", vis)
		inset := 0
		if win.ty == "INPUT_METHOD" && !win.ime.Empty() {
			inset = win.ime.Min.Y - win.frame.Min.Y
		}
		e.Printf("    mGivenContentInsets=[0,%d][0,0] mGivenVisibleInsets=[0,%d][0,0]\n", inset, inset)
		if win.ty == "INPUT_METHOD" {
			region := "SkRegion()"
			if !win.ime.Empty() {
				r := win.ime
				region = fmt.Sprintf("SkRegion((%d,%d,%d,%d))", r.Min.X, r.Min.Y, r.Max.X, r.Max.Y)
			}
			e.Printf("    mTouchableInsets=3 mGivenInsetsPending=false\n    touchable region=%s\n", region)
		}
		appCfg := d.configuration(screen.Dx(), screen.Dy(), st.Rotation, win.uid == appUID)
		e.Printf("    mFullConfiguration=%s\n", appCfg)
		e.Printf("    mLastReportedConfiguration=%s\n", appCfg)
		e.Printf("    mHasSurface=%v isReadyForDisplay()=%v mWindowRemovalAllowed=false\n", surface, surface)
		e.Printf("    Frames: parent=%s display=%s frame=%s last=%s insetsChanged=false\n     surface=[0,0][0,0]\n",
			rect(win.frame), rect(screen), rect(win.frame), rect(win.frame))
		drawState := "NO_SURFACE"
		if surface {
			drawState = "HAS_DRAWN"
		}
		e.Printf("    WindowStateAnimator{%s %s}:\n      mDrawState=%s       mLastHidden=false\n      mEnterAnimationPending=false      mSystemDecorRect=[0,0][0,0]\n", win.hash[1:], win.title, drawState)
		e.Printf("    mForceSeamlesslyRotate=false seamlesslyRotate: pending=null    isOnScreen=%v\n    isVisible=%v\n", win.visible, win.visible)
		e.Printf("    keepClearAreas: restricted=[], unrestricted=[]\n")
	}
	e.Printf("\n  mGlobalConfiguration=%s\n", cfg)
	e.Printf("  mHasPermanentDpad=false\n  mTopFocusedDisplayId=0\n")
	if imeTarget != nil {
		for _, k := range []string{"imeLayeringTarget", "imeInputTarget", "imeControlTarget"} {
			e.Printf("  %s in display# 0 %s\n", k, imeTarget)
		}
	}
	e.Printf("  Minimum task size of display#0 220  mInTouchMode=true\n  mBlurEnabled=true\n")
	e.Printf("  mInputMethodWindow=%s\n", &list[3])
	e.Printf("  mDisplayFrozen=false windows=0 client=false apps=0  mRotation=%d  mLastOrientation=-1\n", st.Rotation)
}

// paramsForRotation is a system bar's layout for each of the four rotations, as
// LayoutParams.toString prints them one after another: the continuation lines of
// each start at two spaces, and the navigation bar's provided insets at one.
func paramsForRotation(w *simWindow) string {
	one := fmt.Sprintf("{%s layoutInDisplayCutoutMode=always ty=%s fmt=TRANSLUCENT\n  fl=%s\n  pfl=FIT_INSETS_CONTROLLED\n  bhv=DEFAULT", w.attrs, w.ty, w.flags)
	if w.ty == "NAVIGATION_BAR" {
		one += fmt.Sprintf("\n providedInternalInsets=null Insets{left=0, top=%d, right=0, bottom=0} null null}", w.frame.Dy()/2)
	} else {
		one += "}"
	}
	return strings.Repeat(one+" ", 3) + one
}

func rootTask(w *simWindow) int {
	if w.uid == appUID {
		return 31
	}
	return 1
}

func rect(r image.Rectangle) string {
	return fmt.Sprintf("[%d,%d][%d,%d]", r.Min.X, r.Min.Y, r.Max.X, r.Max.Y)
}

// configuration is a window's Configuration the way Android 14 prints it: font
// scale, locales, layout direction, sizes in dp, density, orientation, " night"
// in night mode. app windows carry the app's own locale.
func (d *Device) configuration(w, h, rotation int, app bool) string {
	density := d.density()
	dp := func(px int) int { return px * 160 / density }
	orient := "port"
	if w > h {
		orient = "land"
	}
	scale, locales, dir, night := d.configPart(app)
	return fmt.Sprintf("{%s ?mcc?mnc [%s] %s sw%ddp w%ddp h%ddp %ddpi %s %s%s finger -keyb/v/h -nav/h winConfig={ mBounds=Rect(0, 0 - %d, %d) mAppBounds=Rect(0, 0 - %d, %d) mMaxBounds=Rect(0, 0 - %d, %d) mDisplayRotation=ROTATION_%d mWindowingMode=fullscreen mActivityType=undefined mAlwaysOnTop=undefined mRotation=ROTATION_%d} s.3 fontWeightAdjustment=0}",
		scale, locales, dir, dp(min(w, h)), dp(w), dp(h), density, screenLayout(dp(min(w, h)), dp(max(w, h))), orient, night, w, h, w, h, w, h, rotation*90, rotation*90)
}

// screenLayout is the size bucket and aspect a Configuration prints, as
// Configuration.reduceScreenLayout (frameworks/base
// core/java/android/content/res/Configuration.java) derives them from the longer
// and shorter side in dp: under 470 dp long it is small and never long; otherwise
// xlarge from 960×720 dp, large from 640×480, normal below, and long when three
// fifths of the longer side reach the shorter side less one.
func screenLayout(shortDp, longDp int) string {
	if longDp < 470 {
		return "smll notlong"
	}
	size := "nrml"
	switch {
	case longDp >= 960 && shortDp >= 720:
		size = "xlrg"
	case longDp >= 640 && shortDp >= 480:
		size = "lrg"
	}
	if longDp*3/5 >= shortDp-1 {
		return size + " long"
	}
	return size + " notlong"
}

// focusedWindow is mCurrentFocus: the window with input focus, or "null".
func (d *Device) focusedWindow() string {
	if _, f, _ := d.windows(); f != nil {
		return f.String()
	}
	return "null"
}

// dumpInputMethod is `dumpsys input_method`, trimmed to the state lines.
func dumpInputMethod(e *cmdEnv, d *Device) int {
	list, focus, _ := d.windows()
	shown := list[3].visible
	focused := "null"
	if focus != nil {
		focused = focus.String()
	}
	e.Printf("Current Input Method Manager state:\n")
	// Gboard's service class lies outside its package, so Android prints the
	// component in full (an AOSP keyboard's would be ".../.LatinIME").
	e.Printf("  mCurMethodId=%s/com.android.inputmethod.latin.LatinIME\n", imePackage)
	e.Printf("  mCurFocusedWindow=%s softInputMode=STATE_UNSPECIFIED|ADJUST_RESIZE|IS_FORWARD_NAVIGATION\n", focused)
	e.Printf("  mCurId=%s/com.android.inputmethod.latin.LatinIME mHaveConnection=true mBoundToMethod=true mVisibleBound=%v\n", imePackage, shown)
	// mInputShown comes last on its line, as Android 13 prints it
	// (capture/testdata/dumpsys_input_method_api33_mtk_tablet.txt).
	e.Printf("  mShowRequested=%v mShowExplicitlyRequested=false mShowForced=false mInputShown=%v\n", shown, shown)
	e.Printf("  mInFullscreenMode=false\n")
	return 0
}
