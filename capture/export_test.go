package capture

// RangeAPKIndex lets the tests against a simulated phone read any file by range,
// not only the installed app's base.apk.
var RangeAPKIndex = rangeAPKIndex
