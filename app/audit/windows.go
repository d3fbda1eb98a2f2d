package audit

import "fixthis/capture"

// CoveringWindows are the visible windows that draw over the app's tree: the
// keyboard, the notification shade, toasts, overlays and the keyguard. They fill
// Input.Covered for a screen whose window list is known.
func CoveringWindows(ws []capture.Window) []capture.Bounds {
	var out []capture.Bounds
	for _, w := range ws {
		switch w.Type {
		case capture.WindowIME, capture.WindowNotificationShade, capture.WindowToast, capture.WindowOverlay, capture.WindowKeyguard:
			if w.Visible {
				out = append(out, w.Bounds)
			}
		}
	}
	return out
}

// KnownCheck says whether id is one of the checks Run or the dynamic pass reports.
func KnownCheck(id string) bool {
	switch id {
	case CheckTouchTarget, CheckSpeakableText, CheckDuplicateSpeakable, CheckDuplicateClickable,
		CheckRedundantDescription, CheckEditableContentDesc, CheckClassName, CheckTextContrast,
		CheckImageContrast, CheckBounds, CheckOverlap, CheckButtonWidth, CheckTextFieldWidth,
		CheckTextScaling, CheckLocaleText, CheckDarkTextContrast, CheckDarkImageContrast:
		return true
	}
	return false
}
