package desktop

import "testing"

func TestAllowUserMedia(t *testing.T) {
	for _, tc := range []struct {
		name string
		req  MediaRequest
		want bool
	}{
		{"console asks for the microphone", MediaRequest{PageURI: "wails://wails/", Audio: true}, true},
		{"console page with a fragment", MediaRequest{PageURI: "wails://wails/index.html#x", Audio: true}, true},
		{"windows console origin", MediaRequest{PageURI: "http://wails.localhost/", Audio: true}, true},
		{"case does not matter", MediaRequest{PageURI: "WAILS://Wails/", Audio: true}, true},
		{"camera", MediaRequest{PageURI: "wails://wails/", Video: true}, false},
		{"microphone and camera", MediaRequest{PageURI: "wails://wails/", Audio: true, Video: true}, false},
		{"screen capture", MediaRequest{PageURI: "wails://wails/", Display: true}, false},
		{"screen capture with audio", MediaRequest{PageURI: "wails://wails/", Audio: true, Display: true}, false},
		{"nothing asked", MediaRequest{PageURI: "wails://wails/"}, false},
		{"another site in the window", MediaRequest{PageURI: "https://example.com/", Audio: true}, false},
		{"a look-alike host", MediaRequest{PageURI: "wails://wails.example.com/", Audio: true}, false},
		{"a port on the console host", MediaRequest{PageURI: "wails://wails:8080/", Audio: true}, false},
		{"userinfo", MediaRequest{PageURI: "wails://evil@wails/", Audio: true}, false},
		{"loopback http is the browser, not the window", MediaRequest{PageURI: "http://127.0.0.1:8787/", Audio: true}, false},
		{"file", MediaRequest{PageURI: "file:///tmp/x.html", Audio: true}, false},
		{"empty", MediaRequest{Audio: true}, false},
		{"garbage", MediaRequest{PageURI: "::::", Audio: true}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := AllowUserMedia(tc.req); got != tc.want {
				t.Fatalf("AllowUserMedia(%+v) = %v, want %v", tc.req, got, tc.want)
			}
		})
	}
}
