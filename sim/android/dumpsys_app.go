// dumpsys meminfo and gfxinfo for the app.
package android

import (
	"fmt"
	"strings"
)

// appProcessPid is the pid dumpsys reports for pkg: the app's while it runs,
// 0 for anything else (dumpsys then says "No process found for: pkg").
func (d *Device) appProcessPid(pkg string) int {
	if pkg != d.profile.App.Package {
		return 0
	}
	return d.appPid()
}

// dumpMeminfo prints `dumpsys meminfo [PKG]` as Android 14 does.
func dumpMeminfo(e *cmdEnv, d *Device) int {
	if len(e.Args) < 3 {
		e.Printf("Applications Memory Usage (in Kilobytes):\nUptime: 8812345 Realtime: 8812345\n\nTotal PSS by process:\n    412,332K: system (pid %d)\n    187,540K: com.android.systemui (pid 1876)\n", systemPid)
		return 0
	}
	pkg := e.Args[2]
	pid := d.appProcessPid(pkg)
	if pid == 0 {
		e.Printf("No process found for: %s\n", pkg)
		return 0
	}
	// The Java heap grows a little with every screen the app has shown.
	grow := int(d.phone.Version()%1000) * 4
	dalvik, java := 6012+grow, 10036+grow
	total := 56207 + dalvik
	e.Printf(`Applications Memory Usage (in Kilobytes):
Uptime: 8812345 Realtime: 8812345

** MEMINFO in pid %d [%s] **
                   Pss  Private  Private  SwapPss      Rss     Heap     Heap     Heap
                 Total    Dirty    Clean    Dirty    Total     Size    Alloc     Free
                ------   ------   ------   ------   ------   ------   ------   ------
  Native Heap    21874    21820        0        0    23384    30720    24412     4096
  Dalvik Heap %8d %8d        0        0    12180    11458     5729     5729
 Dalvik Other     2920     2468        0        0     3964
        Stack     1120     1120        0        0     1128
       Ashmem       12        0        0        0      676
    Other dev       36        0       28        0      456
     .so mmap     7314      292     3604        0    41548
    .jar mmap     1752        0      144        0    30896
    .apk mmap     6109        0     5064        0    17492
    .dex mmap     8868     8792       16        0     9440
    .oat mmap      182        0       20        0     4920
    .art mmap     4526     4096        0        0    14004
   Other mmap      106        8       12        0     1112
      Unknown     1388     1376        0        0     1764
        TOTAL %8d    45912     8888        0   162964    42178    30141     9825

 App Summary
                       Pss(KB)                        Rss(KB)
                        ------                         ------
           Java Heap: %8d                          26184
         Native Heap:    21820                          23384
                Code:    17932                         104436
               Stack:     1120                           1128
            Graphics:        0                              0
       Private Other:     3892
              System: %8d
             Unknown:                                    7832

           TOTAL PSS: %8d            TOTAL RSS:   162964       TOTAL SWAP PSS:        0

 Objects
               Views:       14         ViewRootImpl:        1
         AppContexts:        4           Activities:        1
              Assets:       30        AssetManagers:        0
       Local Binders:       14        Proxy Binders:       40
       Parcel memory:        5         Parcel count:       20
    Death Recipients:        0             WebViews:        0

 SQL
         MEMORY_USED:        0
  PAGECACHE_OVERFLOW:        0          MALLOC_SIZE:        0

`, pid, pkg, dalvik, dalvik, total, java, total-java-21820-17932-1120-3892, total)
	return 0
}

// dumpGfxinfo prints `dumpsys gfxinfo PKG [framestats|reset]` as Android 14
// does: the process's totals, then the same figures for its one window.
func dumpGfxinfo(e *cmdEnv, d *Device) int {
	if len(e.Args) < 3 {
		return e.Errorf(0, "usage: dumpsys gfxinfo PACKAGE [reset|framestats]\n")
	}
	pkg := e.Args[2]
	pid := d.appProcessPid(pkg)
	if pid == 0 {
		e.Printf("No process found for: %s\n", pkg)
		return 0
	}
	frames := 240 + int(d.phone.Version()%1000)*12
	janky, legacy := frames/60, frames/8
	stats := fmt.Sprintf(`Stats since: 8790123456789ns
Total frames rendered: %d
Janky frames: %d (%.2f%%)
Janky frames (legacy): %d (%.2f%%)
50th percentile: 7ms
90th percentile: 11ms
95th percentile: 14ms
99th percentile: 27ms
Number Missed Vsync: 2
Number High input latency: %d
Number Slow UI thread: 3
Number Slow bitmap uploads: 0
Number Slow issue draw commands: 1
Number Frame deadline missed: %d
Number Frame deadline missed (legacy): 4
`, frames, janky, pct(janky, frames), legacy, pct(legacy, frames), frames/3, janky)
	window := shortComponent(pkg, d.phone.State().Activity)
	window = strings.Replace(window, "/.", "/"+pkg+".", 1)
	e.Printf("Applications Graphics Acceleration Info:\nUptime: 8812345 Realtime: 8812345\n\n** Graphics info for pid %d [%s] **\n\n", pid, pkg)
	e.Printf("%sHISTOGRAM: 5ms=%d 6ms=%d 7ms=%d 8ms=%d 10ms=%d 12ms=%d 14ms=%d 18ms=%d 27ms=%d 4950ms=0\n", stats,
		frames*30/100, frames*15/100, frames*10/100, frames*10/100, frames*10/100, frames*8/100, frames*7/100, frames*6/100, frames*4/100)
	e.Printf("50th gpu percentile: 3ms\n90th gpu percentile: 5ms\n95th gpu percentile: 6ms\n99th gpu percentile: 9ms\n")
	e.Printf("GPU HISTOGRAM: 1ms=%d 2ms=%d 3ms=%d 5ms=%d 9ms=%d 4950ms=0\n\nPipeline=Skia (OpenGL)\n\n", frames/5, frames/4, frames/4, frames/5, frames/10)
	e.Printf("Layout Cache Info:\n  Usage: 127/5000 entries\n  Hit ratio: 3917/4112 (0.952578)\nProfile data in ms:\n\n")
	e.Printf("\t%s/android.view.ViewRootImpl@2f6c1a3 (visibility=0)\nWindow: %s\n%s", window, window, stats)
	e.Printf("View hierarchy:\n\n  %s/android.view.ViewRootImpl@2f6c1a3\n  14 views, 22.91 kB of render nodes\n\n\n", window)
	e.Printf("Total ViewRootImpl   : 1\nTotal attached Views : 14\nTotal RenderNode     : 22.91 kB (used) / 39.06 kB (capacity)\n\n")
	return 0
}

func pct(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return float64(n) * 100 / float64(of)
}
