package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fixthis/app/errcode"
	"fmt"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Tool arguments are checked against each tool's input schema here rather
// than by the MCP library, whose messages are Go struct dumps
// ("&{Got:string Want:[number]}"); an agent reads these, so they are
// sentences: "INVALID_INPUT: timeoutSeconds must be a number, not a string."

// validated wraps a tool's handler with its input schema check.
func validated(st server.ServerTool) server.ServerTool {
	// Every tool refuses arguments it does not know: a misspelt name must not be
	// dropped silently (the agent would believe it was honoured).
	if st.Tool.RawInputSchema == nil && st.Tool.InputSchema.AdditionalProperties == nil {
		st.Tool.InputSchema.AdditionalProperties = false
	}
	known := make([]string, 0, len(st.Tool.InputSchema.Properties))
	for name := range st.Tool.InputSchema.Properties {
		known = append(known, name)
	}
	slices.Sort(known)
	raw, err := json.Marshal(st.Tool.InputSchema)
	if st.Tool.RawInputSchema != nil {
		raw, err = st.Tool.RawInputSchema, nil
	}
	if err != nil {
		panic(fmt.Sprintf("mcp: schema of %s: %v", st.Tool.Name, err))
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		panic(fmt.Sprintf("mcp: schema of %s: %v", st.Tool.Name, err))
	}
	c := jsonschema.NewCompiler()
	url := "mem:///fixthis/" + st.Tool.Name + ".json"
	if err := c.AddResource(url, doc); err != nil {
		panic(fmt.Sprintf("mcp: schema of %s: %v", st.Tool.Name, err))
	}
	schema, err := c.Compile(url)
	if err != nil {
		panic(fmt.Sprintf("mcp: schema of %s: %v", st.Tool.Name, err))
	}
	next := st.Handler
	st.Handler = func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if msg := checkArgs(schema, req.Params.Arguments, st.Tool.Name, known); msg != "" {
			return invalidArg("%s", msg), nil
		}
		return next(context.WithValue(ctx, knownArgsKey{}, known), req)
	}
	return st
}

type knownArgsKey struct{}

// takesArg reports whether the tool being called declares the argument name
// (true when unknown: outside a tool call).
func takesArg(ctx context.Context, name string) bool {
	known, ok := ctx.Value(knownArgsKey{}).([]string)
	return !ok || slices.Contains(known, name)
}

// checkArgs validates args and returns the problems as sentences ("" when
// the arguments are fine). An unknown argument's sentence names the tool's
// known ones, so the agent can correct the call.
func checkArgs(schema *jsonschema.Schema, args any, tool string, known []string) string {
	if args == nil {
		args = map[string]any{}
	}
	b, err := json.Marshal(args)
	if err != nil {
		return "the arguments are not a JSON object."
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return "the arguments are not a JSON object."
	}
	verr, ok := schema.Validate(inst).(*jsonschema.ValidationError)
	if !ok || verr == nil {
		return ""
	}
	var out []string
	for _, leaf := range leaves(verr) {
		out = append(out, sentence(leaf))
		if _, ok := leaf.ErrorKind.(*kind.AdditionalProperties); ok && len(leaf.InstanceLocation) == 0 {
			out = append(out, takes(tool, known))
		}
	}
	return strings.Join(out, " ")
}

func leaves(e *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(e.Causes) == 0 {
		return []*jsonschema.ValidationError{e}
	}
	var out []*jsonschema.ValidationError
	for _, c := range e.Causes {
		out = append(out, leaves(c)...)
	}
	return out
}

var english = message.NewPrinter(language.English)

// maxNamed is how many unknown arguments one message names.
const maxNamed = 5

// sentence words one schema failure for an agent. The value itself is never
// repeated for strings (it may be long); its type is enough.
func sentence(e *jsonschema.ValidationError) string {
	field := strings.Join(e.InstanceLocation, ".")
	if len(field) > errcode.MaxQuote {
		field = errcode.Quote(field) // a location may name an argument the agent made up
	}
	if field == "" {
		field = "the arguments"
	}
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		return fmt.Sprintf("%s %s required.", strings.Join(k.Missing, " and "), plural(len(k.Missing), "is", "are"))
	case *kind.Type:
		return fmt.Sprintf("%s must be %s, not %s.", field, orList(k.Want), article(k.Got)+k.Got)
	case *kind.Enum:
		want := make([]string, 0, len(k.Want))
		for _, w := range k.Want {
			want = append(want, fmt.Sprint(w))
		}
		return fmt.Sprintf("%s must be one of %s.", field, strings.Join(want, ", "))
	case *kind.MinLength:
		return fmt.Sprintf("%s must be at least %d characters long.", field, k.Want)
	case *kind.MaxLength:
		return fmt.Sprintf("%s must be at most %d characters long.", field, k.Want)
	case *kind.Minimum:
		return fmt.Sprintf("%s must be at least %s.", field, k.Want.FloatString(0))
	case *kind.Maximum:
		return fmt.Sprintf("%s must be at most %s.", field, k.Want.FloatString(0))
	case *kind.AdditionalProperties:
		names := make([]string, 0, min(len(k.Properties), maxNamed))
		slices.Sort(k.Properties) // the same call, the same message
		for _, p := range k.Properties[:min(len(k.Properties), maxNamed)] {
			names = append(names, errcode.Quote(p))
		}
		if len(k.Properties) > maxNamed {
			names = append(names, fmt.Sprintf("and %d more", len(k.Properties)-maxNamed))
		}
		return fmt.Sprintf("unknown %s %s.", plural(len(k.Properties), "argument", "arguments"), strings.Join(names, ", "))
	}
	return fmt.Sprintf("%s: %s.", field, e.ErrorKind.LocalizedString(english))
}

// takes is the sentence naming a tool's arguments.
func takes(tool string, known []string) string {
	if len(known) == 0 {
		return tool + " takes no arguments."
	}
	return fmt.Sprintf("%s takes %s.", tool, strings.Join(known, ", "))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// orList joins type names with their article ("an integer or a string"); a
// fraction for an integer reads "seconds must be an integer, not a number".
func orList(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = article(w) + w
	}
	return strings.Join(out, " or ")
}

func article(w string) string {
	if w != "" && strings.ContainsRune("aeiou", rune(w[0])) {
		return "an "
	}
	return "a "
}
