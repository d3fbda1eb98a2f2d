// Package loopback answers one question for every FixThis surface: does this host or
// origin name this machine? The console API, the MCP endpoint and the adb client all
// refuse anything else (DNS rebinding, foreign pages, remote adb servers).
package loopback

import (
	"net"
	"net/url"
	"strings"
)

// Host reports whether a host, or host:port as in a Host header, is loopback:
// "localhost", 127.0.0.0/8 or ::1 (brackets allowed).
func Host(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Origin reports whether an Origin header is an http(s) origin on loopback.
func Origin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return Host(u.Host)
}
