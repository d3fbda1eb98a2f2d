package scenario

// HTTPCall is one request the scenario's app makes when its process starts,
// as a debug build with OkHttp's HttpLoggingInterceptor logs it: the
// simulated device writes the lines, so a scenario decides what the log says
// and the network evidence reads it back.
type HTTPCall struct {
	Method string `json:"method"`
	URL    string `json:"url"`
	// Status and Message are the answer (`200`, `OK`); Fail instead is the
	// exception the call ends with (`java.net.SocketTimeoutException: timeout`).
	Status  int    `json:"status,omitempty"`
	Message string `json:"message,omitempty"`
	Fail    string `json:"fail,omitempty"`
	// AfterMs is how long after the process start the call begins, TookMs how
	// long it runs until its answer or failure.
	AfterMs int `json:"afterMs,omitempty"`
	TookMs  int `json:"tookMs"`
	// ContentType and Bytes describe the response body; RequestBytes a body sent.
	ContentType  string `json:"contentType,omitempty"`
	Bytes        int    `json:"bytes,omitempty"`
	RequestBytes int    `json:"requestBytes,omitempty"`
	// Auth is sent as the Authorization header, as an app's interceptor adds it.
	Auth string `json:"auth,omitempty"`
}
