// Package capture turns what an Android device shows into data the console can
// annotate: screen frames (raw screencap or PNG), the UI tree (uiautomator dump or
// the FixThis sidekick), the foreground screen state read from dumpsys, screen
// fingerprints, hit-testing and image crops.
//
// The package never talks to adb directly. Device-side work goes through the small
// Device interface so the app can adapt whatever transport it uses (the real adb
// server or the simulated device) and tests can feed literal device output.
package capture
