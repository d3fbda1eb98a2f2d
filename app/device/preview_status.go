package device

// The preview's status must say what became of the device even while the loop
// is parked: frozen (Annotate) or unwatched, it captures nothing that would
// notice the device or the adb server going away.

// frozenStatus is the status while frozen: frozen while the selected device is
// there, else what became of it (the frozen screen can still be annotated and
// saved, so the console keeps it).
func (p *Preview) frozenStatus() PreviewStatus {
	_, err := p.reg.Selected()
	if err == nil {
		return PreviewStatus{State: StateFrozen}
	}
	msg := err.Error()
	if l := p.reg.List(); !l.ServerUp {
		msg = "the adb server is not answering and FixThis is starting it again"
		if l.ServerError != "" {
			msg += " (" + boundMessage(l.ServerError) + ")"
		}
	}
	return PreviewStatus{State: StateNoDevice, Message: "No device: " + msg + ". The frozen screen can still be saved."}
}

// checkDeviceStatus corrects a frozen or live status whose device is gone;
// GET /api/preview and the snapshot call it before they answer.
func (p *Preview) checkDeviceStatus() {
	if p.isFrozen() {
		p.setStatus("", p.frozenStatus())
		return
	}
	if p.currentStatus().State != StateLive {
		return
	}
	if _, err := p.reg.Selected(); err != nil {
		p.setStatus("", PreviewStatus{State: StateNoDevice, Message: err.Error()})
	}
}
