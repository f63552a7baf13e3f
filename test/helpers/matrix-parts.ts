// How many test files the detection matrix is dealt out to (test/helpers/detection-matrix.ts):
// vitest.config.ts runs that many at once. test/detection/detection.test.ts is part 0,
// test/detection-N.test.ts part N - 1.
export const PARTS = 8;
