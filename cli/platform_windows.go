package cli

// hasDisplay is always true on Windows: a process runs inside a desktop session, and
// there is no environment variable that says otherwise.
func hasDisplay(func(string) string) bool { return true }

const noDisplayReason = "no desktop session"

// adbInstallFix points at Google's platform-tools: Windows has no package that ships
// adb.exe with its USB drivers, and FixThis only needs adb.exe on PATH.
const adbInstallFix = "download Google's SDK Platform-Tools for Windows (https://developer.android.com/tools/releases/platform-tools), unzip it and add the platform-tools folder (it holds adb.exe) to PATH"
