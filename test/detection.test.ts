// The detection matrix, first half: the clean runs, the matrix's completeness, and every other
// fault (test/helpers/detection-matrix.ts; the second half is test/detection-2.test.ts).
import { detectionMatrix } from './helpers/detection-matrix.js';

detectionMatrix(0);
