// A setup file of the timing project (vitest.config.ts): each of its files holds a place in the
// `timing` lane (test/helpers/lane-setup.ts) from before its first hook to after its last.
import { afterAll, beforeAll, inject } from 'vitest';
import { enterLane } from './lane.js';

/** A file waits for a place while the lane is full: long (client-profile alone takes minutes), but bounded. */
const LANE_WAIT_MS = 30 * 60_000;
let leave: (() => void) | undefined;

beforeAll(async () => {
  leave = await enterLane(inject('coordinator'), 'timing');
}, LANE_WAIT_MS);

afterAll(() => leave?.());
