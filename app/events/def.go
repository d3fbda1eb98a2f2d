package events

import (
	"encoding/json"
	"reflect"
)

// Def binds one event type to its payload type. It is the only way onto the bus, so
// publishing the wrong payload for an event does not compile:
//
//	var PreviewReadyEvent = events.Define[PreviewFrame](events.PreviewReady)
//	PreviewReadyEvent.Publish(bus, frame)
//
// Each Def is declared once, beside its payload type, in the package that owns it
// (that package imports events, so events cannot import it). app/wire lists every Def
// and generates the console's EventPayloads map from them.
type Def[T any] struct {
	typ Type
	// live events reach the subscribers of the moment and are not kept for replay.
	live bool
}

// Define returns the Def of typ carrying payloads of type T.
func Define[T any](typ Type) Def[T] { return Def[T]{typ: typ} }

// DefineLive is Define for an event only worth having as it happens (a spoken
// reply's audio): it is not kept in the bus's replay history, so a large or
// frequent payload neither fills it nor pushes out the events a reconnecting
// console does need.
func DefineLive[T any](typ Type) Def[T] { return Def[T]{typ: typ, live: true} }

// Type is the event's name on the bus and the SSE stream.
func (d Def[T]) Type() Type { return d.typ }

// Payload is T, for the generated console types.
func (d Def[T]) Payload() reflect.Type { return reflect.TypeFor[T]() }

// Publish delivers payload to every subscriber of b and returns the event id.
func (d Def[T]) Publish(b *Bus, payload T) uint64 {
	return b.publish(d.typ, d.Marshal(payload), !d.live)
}

// Marshal encodes payload as the event's data, for the events a stream writes itself
// (the snapshot, the replay overflow) rather than through the bus. A payload that
// cannot be encoded becomes {}, as the console treats a missing payload.
func (d Def[T]) Marshal(payload T) json.RawMessage {
	raw, err := json.Marshal(payload)
	if err != nil {
		return json.RawMessage(`{}`)
	}
	return raw
}

// Descriptor is what every Def says about itself, whatever its payload: the list of
// all events in app/wire holds these.
type Descriptor interface {
	Type() Type
	Payload() reflect.Type
}

// Empty is the payload of an event that carries nothing but its name.
type Empty struct{}
