// The detection matrix, part 1 of 8: every eighth run from the first, and the matrix's
// completeness tests (test/helpers/detection-matrix.ts; the other parts are test/detection/detection-2.test.ts to
// test/detection/detection-8.test.ts).
import { detectionMatrix } from '../helpers/detection-matrix.js';

await detectionMatrix(0);
