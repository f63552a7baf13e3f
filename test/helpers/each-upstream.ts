// A recording upstream of its own for each test of a file or describe block: started before the
// test, stopped after it, so no test sees another's recorded requests or scripted answers.
import { afterEach, beforeEach } from 'vitest';
import { RecordingUpstream } from '../../mocks/upstream/server.js';

/** Starts a RecordingUpstream on a free loopback port before each test and hands it to `use`; stops it after the test. */
export function eachUpstream(use: (up: RecordingUpstream) => void): void {
  let up: RecordingUpstream;
  beforeEach(async () => {
    up = new RecordingUpstream();
    await up.start();
    use(up);
  });
  afterEach(() => up.stop());
}
