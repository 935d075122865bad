package timing_test

const blocksDurationMAE, blocksOccupancyError, blocksDrainActive = 1.0, 100.0, 1.0
