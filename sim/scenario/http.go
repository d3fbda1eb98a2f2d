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
	// Where the text of a body is given (RequestBody, ResponseBody), its length is
	// the body's size and, at HTTPLevelBody, the text is logged.
	ContentType  string `json:"contentType,omitempty"`
	Bytes        int    `json:"bytes,omitempty"`
	RequestBytes int    `json:"requestBytes,omitempty"`
	RequestBody  string `json:"requestBody,omitempty"`
	ResponseBody string `json:"responseBody,omitempty"`
	// Auth is sent as the Authorization header, as an app's interceptor adds it.
	Auth string `json:"auth,omitempty"`
}

// The levels of OkHttp's HttpLoggingInterceptor a scenario's app may log at.
const (
	HTTPLevelHeaders = "HEADERS"
	HTTPLevelBody    = "BODY"
)

// RequestSize is the size of the body the call sends: its text's length where given.
func (c HTTPCall) RequestSize() int {
	if c.RequestBody != "" {
		return len(c.RequestBody)
	}
	return c.RequestBytes
}

// ResponseSize is the size of the body the call receives, likewise.
func (c HTTPCall) ResponseSize() int {
	if c.ResponseBody != "" {
		return len(c.ResponseBody)
	}
	return c.Bytes
}
