package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"fixthis/adb"
	"fixthis/app/agentdevice"
	"fixthis/app/store"
)

// runControl answers "may agents control this phone?" from a terminal, as the
// console's switch does: `fixthis control allow|deny|status [--serial S]`.
func runControl(ctx context.Context, env Env, args []string) error {
	// The verb may come first (`fixthis control allow --serial S`), as people type it.
	verb := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		verb, args = args[0], args[1:]
	}
	f := newFlags("control", env.Stdout)
	var af appFlags
	f.StringVar(&af.projectDir, "project-dir", "", "project whose agents this is about (default: current directory)")
	serial := f.String("serial", "", "device serial (default: the only online device)")
	asJSON := f.Bool("json", false, "print one JSON document")
	if err := parse(f, args); err != nil {
		return err
	}
	if verb == "" && f.NArg() == 1 {
		verb = f.Arg(0)
	} else if verb == "" || f.NArg() != 0 {
		return usagef("say allow, deny or status")
	}
	if verb != "allow" && verb != "deny" && verb != "status" {
		return usagef("unknown control %q: say allow, deny or status", verb)
	}
	if err := af.resolve(); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	if *serial == "" {
		client, err := adb.NewClient(adb.Options{})
		if err != nil {
			return err
		}
		if err := client.EnsureServer(ctx); err != nil {
			return err
		}
		if *serial, err = onlyOnlineDevice(ctx, client); err != nil {
			return err
		}
	}
	st, err := store.Open(ctx, af.projectDir, store.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	if verb != "status" {
		if err := agentdevice.SetControl(ctx, st, *serial, verb == "allow"); err != nil {
			return err
		}
	}
	state, err := agentdevice.Control(ctx, st, *serial, false)
	if err != nil {
		return err
	}
	if *asJSON {
		out, _ := json.Marshal(state)
		fmt.Fprintf(env.Stdout, "%s\n", out)
		return nil
	}
	switch {
	case !state.Decided:
		fmt.Fprintf(env.Stdout, "%s: not decided yet; FixThis asks the first time an agent tries\n", *serial)
	case state.Allowed:
		fmt.Fprintf(env.Stdout, "%s: agents may control it\n", *serial)
	default:
		fmt.Fprintf(env.Stdout, "%s: agents may not control it\n", *serial)
	}
	return nil
}
