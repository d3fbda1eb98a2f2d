package main

import (
	"os"
	"syscall"
)

// The Windows executable is linked as a GUI-subsystem program so that double-clicking
// it opens the window without a console flashing up. Windows then gives it no console,
// and the CLI would print nothing in a terminal. Two cases must both work:
//
//   - An agent starts `fixthis.exe mcp` with pipes for stdin/stdout/stderr. Those
//     inherited handles are valid and must be used as they are: reopening the console
//     here would send MCP replies to a terminal instead of the agent's pipe.
//   - A user runs `fixthis.exe doctor` in cmd or PowerShell. The standard handles are
//     empty, so the process attaches to its parent's console and writes there.
//
// Each handle is judged on its own, so `fixthis.exe version > out.txt` keeps the file
// for stdout and still shows errors in the console.

// attachParentProcess is ATTACH_PARENT_PROCESS ((DWORD)-1).
const attachParentProcess = ^uintptr(0)

var (
	kernel32          = syscall.NewLazyDLL("kernel32.dll")
	procAttachConsole = kernel32.NewProc("AttachConsole")
	procSetStdHandle  = kernel32.NewProc("SetStdHandle")
)

func init() {
	// Runs before main reads os.Stdin/Stdout/Stderr into the command environment.
	useParentConsole()
}

// stdStream is one standard handle and where Go keeps it.
type stdStream struct {
	id     int // STD_INPUT_HANDLE, …
	file   **os.File
	device string // the console device that replaces it
}

func useParentConsole() {
	streams := []stdStream{
		{syscall.STD_INPUT_HANDLE, &os.Stdin, "CONIN$"},
		{syscall.STD_OUTPUT_HANDLE, &os.Stdout, "CONOUT$"},
		{syscall.STD_ERROR_HANDLE, &os.Stderr, "CONOUT$"},
	}
	var missing []stdStream
	for _, s := range streams {
		if !usableHandle(s.id) {
			missing = append(missing, s)
		}
	}
	if len(missing) == 0 {
		return // pipes or files from the parent (an agent, a redirect): keep them
	}
	// Fails when the parent has no console (started from Explorer or a shortcut):
	// then there is nowhere to write and the window is the only interface.
	if r, _, _ := procAttachConsole.Call(attachParentProcess); r == 0 {
		return
	}
	for _, s := range missing {
		f, err := os.OpenFile(s.device, os.O_RDWR, 0)
		if err != nil {
			continue
		}
		*s.file = f
		// Also for the runtime's own panic output and for child processes (adb) that
		// inherit the standard handles.
		procSetStdHandle.Call(uintptr(uint32(s.id)), f.Fd())
	}
}

// usableHandle reports whether a standard handle refers to something: a pipe, a file,
// or a console. A GUI program started without redirection gets a null handle.
func usableHandle(id int) bool {
	h, err := syscall.GetStdHandle(id)
	if err != nil || h == 0 || h == syscall.InvalidHandle {
		return false
	}
	t, err := syscall.GetFileType(h)
	return err == nil && t != syscall.FILE_TYPE_UNKNOWN
}
