package webview

import "testing"

func TestSocket(t *testing.T) {
	const table = "Num       RefCount Protocol Flags    Type St Inode Path\n" +
		"0000000000000000: 00000002 00000000 00010000 0001 01 48210 @fixthis_com.fixthis.demo\n" +
		"0000000000000000: 00000002 00000000 00010000 0001 01 48217 @webview_devtools_remote_12017\n" +
		"0000000000000000: 00000002 00000000 00010000 0001 01 48224 @webview_devtools_remote_120170\n" +
		"0000000000000000: 00000003 00000000 00000000 0001 03 51000 /dev/socket/logdw\n"
	for pid, want := range map[int]string{12017: "webview_devtools_remote_12017", 120170: "webview_devtools_remote_120170", 1201: "", 0: ""} {
		if got := Socket(table, pid); got != want {
			t.Errorf("Socket(pid %d) = %q, want %q", pid, got, want)
		}
	}
	if got := Socket("\x00garbage @webview_devtools_remote_1\n", 1); got != "" {
		t.Errorf("a line that is no socket entry: %q", got)
	}
}
