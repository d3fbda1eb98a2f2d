package display

import "fixthis/app/events"

// Changed names the phone whose display settings were just changed or restored; a
// console showing that phone reads them again (GET /api/display), whoever changed
// them: the console's panel, an agent's tool, or the restore on deselect.
type Changed struct {
	Serial string `json:"serial"`
}

// ChangedEvent is published after every Set and every Restore that changed the phone.
var ChangedEvent = events.Define[Changed](events.DisplayChanged)
