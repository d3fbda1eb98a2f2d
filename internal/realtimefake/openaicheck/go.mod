module fixthis/internal/realtimefake/openaicheck

go 1.26.8

require (
	fixthis v0.0.0
	github.com/gorilla/websocket v1.5.3
	github.com/openai/openai-go/v3 v3.100.0
)

require (
	github.com/coder/websocket v1.8.15 // indirect
	github.com/tidwall/gjson v1.20.0 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.1 // indirect
	github.com/tidwall/sjson v1.2.5 // indirect
)

replace fixthis => ../../..
