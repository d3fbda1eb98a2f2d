package loopback

import "testing"

func TestHostAndOrigin(t *testing.T) {
	hosts := map[string]bool{
		"localhost": true, "LOCALHOST:80": true, "127.0.0.1": true, "127.0.0.1:4242": true,
		"127.8.9.10": true, "[::1]:9": true, "::1": true,
		"evil.example": false, "evil.example:4242": false, "192.168.1.2:80": false,
		"localhost.evil.example": false, "": false, "0.0.0.0:80": false,
	}
	for h, want := range hosts {
		if got := Host(h); got != want {
			t.Errorf("Host(%q) = %v, want %v", h, got, want)
		}
	}
	origins := map[string]bool{
		"http://127.0.0.1:4242": true, "https://localhost": true, "http://[::1]:80": true,
		"http://evil.example": false, "file://localhost": false, "null": false, "": false,
	}
	for o, want := range origins {
		if got := Origin(o); got != want {
			t.Errorf("Origin(%q) = %v, want %v", o, got, want)
		}
	}
}
