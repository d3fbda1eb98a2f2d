package capture

import (
	"strings"
	"testing"
)

// The sidekick's status pill (upstream FixThisConnectionStatusHostLayout.kt:149-165)
// is recognised by its title, type and both flags; any other panel stays a dialog.
func TestIsSidekickStatus(t *testing.T) {
	tests := []struct {
		name, ty, title string
		flags           []string
		want            bool
	}{
		{"android 14 names", "APPLICATION_PANEL", "FixThis MCP status", []string{"NOT_FOCUSABLE", "NOT_TOUCHABLE", "LAYOUT_IN_SCREEN"}, true},
		{"android 9 hex", "1000", "FixThis MCP status", []string{"#1000118"}, true},
		{"focusable popup with the title", "APPLICATION_PANEL", "FixThis MCP status", []string{"NOT_TOUCHABLE"}, false},
		{"touchable with the title", "APPLICATION_PANEL", "FixThis MCP status", []string{"#8"}, false},
		{"a menu panel", "APPLICATION_PANEL", "PopupWindow:3c1f2a", []string{"NOT_FOCUSABLE", "NOT_TOUCHABLE"}, false},
		{"a dialog titled like the pill", "APPLICATION", "FixThis MCP status", []string{"NOT_FOCUSABLE", "NOT_TOUCHABLE"}, false},
		{"no flags", "APPLICATION_PANEL", "FixThis MCP status", nil, false},
		{"bad hex", "1000", "FixThis MCP status", []string{"#zz"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := isSidekickStatus(tc.ty, tc.title, tc.flags); got != tc.want {
				t.Errorf("isSidekickStatus = %v, want %v", got, tc.want)
			}
		})
	}
}

// pillRecord and panelRecord are Android 14 records: the pill over the activity,
// and a popup menu of the same type that must stay a dialog.
const pillDump = `WINDOW MANAGER WINDOWS (dumpsys window windows)
  Window #0 Window{3c7d1e9 u0 FixThis MCP status}:
    mDisplayId=0 rootTaskId=31 mSession=Session{3c7d1 1187:u0a10187} mClient=android.os.BinderProxy@c7d1e9
    mOwnerUid=10187 showForAllUsers=false package=com.example.shop appop=NONE
    mAttrs={(42,171)(wrapxwrap) gr=TOP END sim={adjust=pan} ty=APPLICATION_PANEL fmt=TRANSLUCENT
      fl=NOT_FOCUSABLE NOT_TOUCHABLE LAYOUT_IN_SCREEN HARDWARE_ACCELERATED
      bhv=DEFAULT}
    Frames: parent=[0,0][1080,2400] display=[0,0][1080,2400] frame=[476,171][1038,255] last=[476,171][1038,255] insetsChanged=false
    isOnScreen=true
    isVisible=true
  Window #1 Window{5a1b2c3 u0 PopupWindow:91be5e2}:
    mOwnerUid=10187 showForAllUsers=false package=com.example.shop appop=NONE
    mAttrs={(0,0)(wrapxwrap) gr=TOP START ty=APPLICATION_PANEL fmt=TRANSLUCENT
      fl=ALT_FOCUSABLE_IM SPLIT_TOUCH HARDWARE_ACCELERATED
      bhv=DEFAULT}
    Frames: parent=[0,0][1080,2400] display=[0,0][1080,2400] frame=[600,300][1040,900] last=[600,300][1040,900] insetsChanged=false
    isVisible=true
  Window #2 Window{b3f29a4 u0 com.example.shop/com.example.shop.MainActivity}:
    mOwnerUid=10187 showForAllUsers=false package=com.example.shop appop=NONE
    mAttrs={(0,0)(fillxfill) sim={adjust=resize} ty=BASE_APPLICATION fmt=TRANSLUCENT
      fl=LAYOUT_IN_SCREEN LAYOUT_INSET_DECOR SPLIT_TOUCH HARDWARE_ACCELERATED
      bhv=DEFAULT}
    Frames: parent=[0,0][1080,2400] display=[0,0][1080,2400] frame=[0,0][1080,2400] last=[0,0][1080,2400] insetsChanged=false
    isVisible=true
`

func TestParseWindowListSetsThePillApart(t *testing.T) {
	list := ParseWindowList(pillDump)
	if list.SidekickStatus == nil || list.SidekickStatus.Bounds != bx(476, 171, 1038, 255) {
		t.Fatalf("pill %+v", list.SidekickStatus)
	}
	for _, w := range list.Windows {
		if strings.Contains(w.Title, "FixThis") {
			t.Errorf("the pill is listed as a %s window", w.Type)
		}
	}
	st := ScreenState{Package: "com.example.shop"}
	applyWindows(&st, list, false)
	if d := st.Dialog(); d == nil || d.Title != "PopupWindow:91be5e2" {
		t.Errorf("the popup menu is not the dialog: %+v", d)
	}
	// Without the popup, nothing covers the activity.
	list = ParseWindowList(strings.Replace(pillDump, "ty=APPLICATION_PANEL fmt=TRANSLUCENT\n      fl=ALT", "ty=APPLICATION_PANEL fmt=TRANSLUCENT\n      fl=NOT_FOCUSABLE NOT_TOUCHABLE ALT", 1))
	st = ScreenState{Package: "com.example.shop"}
	applyWindows(&st, list, false)
	if d := st.Dialog(); d == nil {
		t.Error("a not-touchable popup with another title must still count as a dialog")
	}
}
