package hostmem

// populateMin is the least a buffer must span for Populate to map it:
// under four pages a call saves little.
const populateMin = 16 << 10
