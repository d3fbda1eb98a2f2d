package mcp

import (
	"context"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"fixthis/app/errcode"
)

// toolResult turns an error into what the agent sees. Coded errors (SESSION_CLOSED:,
// ITEM_ALREADY_RESOLVED:, DEVICE_NOT_AVAILABLE:, …) are tool errors the agent can act
// on; anything else is an infrastructure failure returned as a Go error.
func toolResult(err error) (*mcp.CallToolResult, error) {
	switch errcode.Of(err) {
	case errcode.Internal, errcode.StorageFailed:
	default:
		return mcp.NewToolResultError(err.Error()), nil
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return nil, err
	}
	return nil, fmt.Errorf("fixthis: %w", err)
}

// invalidArg is a tool error for bad input, with the INVALID_INPUT prefix.
func invalidArg(format string, args ...any) *mcp.CallToolResult {
	return mcp.NewToolResultError(errcode.New(errcode.InvalidInput, format, args...).Error())
}
