package mcp

import (
	"context"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"fixthis/app/store"
)

// toolResult turns a store error into what the agent sees. Contract errors
// (SESSION_CLOSED:, ITEM_ALREADY_RESOLVED:, …) are tool errors the agent can
// act on; anything else is an infrastructure failure returned as a Go error.
func toolResult(err error) (*mcp.CallToolResult, error) {
	var se *store.Error
	if errors.As(err, &se) {
		switch se.Code {
		case store.CodeStorageFailed:
			return nil, err
		}
		return mcp.NewToolResultError(se.Error()), nil
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return nil, err
	}
	return nil, fmt.Errorf("fixthis: %w", err)
}

// invalidArg is a tool error for bad input, with the store's prefix.
func invalidArg(format string, args ...any) *mcp.CallToolResult {
	return mcp.NewToolResultError(string(store.CodeInvalidInput) + ": " + fmt.Sprintf(format, args...))
}
