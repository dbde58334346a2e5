package events

// SetAfterCommit installs the hook that runs between the outbox commit of a durable
// event and its delivery.
func SetAfterCommit(h *Hub, f func(Event)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.afterCommit = f
}

// SetCompactAfter changes the compaction threshold and returns a restore func.
func SetCompactAfter(n int) (restore func()) {
	old := compactAfter
	compactAfter = n
	return func() { compactAfter = old }
}

// Outbox and sequence file names, for tests that inspect or damage them.
const (
	OutboxName = outboxName
	SeqName    = seqName
)
