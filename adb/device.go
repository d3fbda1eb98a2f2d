package adb

// State is a device's connection state as the adb server reports it.
type State string

// States the adb server reports (adb's ConnectionState names).
const (
	StateDevice        State = "device"
	StateOffline       State = "offline"
	StateUnauthorized  State = "unauthorized"
	StateAuthorizing   State = "authorizing"
	StateConnecting    State = "connecting"
	StateNoPermissions State = "no permissions"
	StateBootloader    State = "bootloader"
	StateRecovery      State = "recovery"
	StateRescue        State = "rescue"
	StateSideload      State = "sideload"
	StateHost          State = "host"
)

// Connection kinds of a device.
const (
	ConnUSB = "usb"
	ConnTCP = "tcp"
)

// stateHints says what the user can do about a device that is listed but not
// usable; devices are shown with this text instead of being hidden.
var stateHints = map[State]string{
	StateOffline:       "The device does not respond to adb. Unplug and replug the cable (or restart wireless debugging), unlock the phone, and wait a few seconds.",
	StateUnauthorized:  "Unlock the phone and accept the \"Allow USB debugging?\" prompt. If no prompt appears, revoke USB debugging authorizations in Developer options and replug the cable.",
	StateAuthorizing:   "The device is checking this computer's adb key; accept the prompt on the phone if one appears.",
	StateConnecting:    "The device is connecting; it should be ready in a moment.",
	StateNoPermissions: "This user may not open the USB device. Install the udev rules (`apt-get install android-sdk-platform-tools-common`), make sure you are in the plugdev group, then replug the device.",
	StateBootloader:    "The device is in the bootloader; reboot it into Android to use it.",
	StateRecovery:      "The device is in recovery mode; reboot it into Android to use it.",
	StateRescue:        "The device is in rescue mode; reboot it into Android to use it.",
	StateSideload:      "The device is in sideload mode; reboot it into Android to use it.",
	StateHost:          "This entry is another adb host, not a device.",
}

// HintFor returns what to do about a device in state s ("" when it is usable
// or nothing useful can be said).
func HintFor(s State) string { return stateHints[s] }

// Screen is the display size the device reports through `wm size` and
// `wm density`, with any override applied (that is what apps render at).
type Screen struct {
	Width   int `json:"width"`
	Height  int `json:"height"`
	Density int `json:"density"`
}

// Device is one entry of the adb server's device list. AndroidVersion, SDK
// and Screen are filled by Describe for online devices only.
type Device struct {
	Serial         string  `json:"serial"`
	State          State   `json:"state"`
	Model          string  `json:"model"`
	Product        string  `json:"product"`
	DeviceName     string  `json:"device"`
	TransportID    int64   `json:"transportId"`
	Connection     string  `json:"connection"`
	DevPath        string  `json:"devPath,omitempty"` // e.g. "usb:1-1" for USB devices
	AndroidVersion string  `json:"androidVersion"`
	SDK            int     `json:"sdk"`
	Screen         *Screen `json:"screen"`
	Hint           string  `json:"hint"`
}

// Online reports whether commands can run on the device.
func (d Device) Online() bool { return d.State == StateDevice }
