package app

import (
	"net/http"
	"os"

	"fixthis/app/httpapi"
	"fixthis/app/mcpconfig"
)

// getAgent is GET /api/agent?sessionId=: the agent's presence for a session.
func (a *App) getAgent(w http.ResponseWriter, r *http.Request) {
	p, err := a.getPresence(r.Context(), r.URL.Query().Get("sessionId"))
	httpapi.Answer(w, p, err)
}

// AgentConfig is one agent's config for the "Connect an agent" panel.
type AgentConfig struct {
	File  string `json:"file"`            // where the config lives in the project
	Stdio string `json:"stdio,omitempty"` // the config for the stdio sidecar
	HTTP  string `json:"http,omitempty"`  // the config for the running app's /mcp
}

// ConnectInfo is the body of GET /api/connect.
type ConnectInfo struct {
	MCPURL     string                 `json:"mcpUrl"`
	MCPToken   string                 `json:"mcpToken"`
	ProjectDir string                 `json:"projectDir"`
	Command    string                 `json:"command"`
	Configs    map[string]AgentConfig `json:"configs"` // by target: claude, codex, cursor
}

// getConnect feeds the console's "Connect an agent" panel.
func (a *App) getConnect(w http.ResponseWriter, r *http.Request) {
	bin, _ := os.Executable()
	ep := mcpconfig.Endpoint{Binary: bin, ProjectDir: a.projectDir, URL: a.mcpURL, Token: a.mcpToken}
	configs := map[string]AgentConfig{}
	for _, target := range mcpconfig.Targets {
		file, _ := mcpconfig.File(target)
		entry := AgentConfig{File: file}
		if s, err := mcpconfig.Render(target, ep, false); err == nil {
			entry.Stdio = s
		}
		if s, err := mcpconfig.Render(target, ep, true); err == nil {
			entry.HTTP = s
		}
		configs[target] = entry
	}
	httpapi.WriteJSON(w, http.StatusOK, ConnectInfo{
		MCPURL:     a.mcpURL,
		MCPToken:   a.mcpToken,
		ProjectDir: a.projectDir,
		Command:    bin + " mcp --project-dir " + a.projectDir,
		Configs:    configs,
	})
}
