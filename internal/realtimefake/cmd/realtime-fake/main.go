// Command realtime-fake runs the fake OpenAI Realtime server on loopback for tests and
// local runs: it prints {"url":"http://127.0.0.1:PORT/v1"} on stdout (use it as
// OPENAI_BASE_URL) and serves until interrupted.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"fixthis/internal/realtimefake"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address (loopback)")
	script := flag.String("script", "", "script file: turns of transcript, tool calls, reply text and audio")
	key := flag.String("key", os.Getenv("REALTIME_FAKE_KEY"), "the only API key accepted (default: any; env REALTIME_FAKE_KEY)")
	threshold := flag.Float64("threshold-dbfs", -40, "frame level above which audio counts as speech")
	flag.Parse()
	if err := run(*addr, *script, *key, *threshold); err != nil {
		fmt.Fprintln(os.Stderr, "realtime-fake:", err)
		os.Exit(1)
	}
}

func run(addr, scriptPath, key string, threshold float64) error {
	cfg := realtimefake.Config{Key: key, ThresholdDBFS: threshold}
	if scriptPath != "" {
		s, err := realtimefake.LoadScript(scriptPath)
		if err != nil {
			return err
		}
		cfg.Script = s
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--addr %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("--addr %q: only loopback addresses are served", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: realtimefake.New(cfg).Handler()}
	if err := json.NewEncoder(os.Stdout).Encode(map[string]string{"url": "http://" + ln.Addr().String() + "/v1"}); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.Serve(ln); err != nil && err != http.ErrServerClosed {
		return err
	}
	return nil
}
