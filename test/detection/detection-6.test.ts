// The detection matrix, part 6 of 8: every eighth run (test/helpers/detection-matrix.ts).
import { detectionMatrix } from '../helpers/detection-matrix.js';

await detectionMatrix(5);
