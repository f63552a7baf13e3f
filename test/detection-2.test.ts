// The detection matrix, second half: the other faults, in a process of their own
// (test/helpers/detection-matrix.ts; the first half is test/detection.test.ts).
import { detectionMatrix } from './helpers/detection-matrix.js';

detectionMatrix(1);
